"""Shapes of documents and questions of any domain: a command's help listing in a code block, its entries over
several lines and their defaults written four ways; a heading with badges beside its name; a plain-text change
log whose dated release lines have their entries indented under them; a question that lists lower-case tools,
asks "by default for" a list of things, and names a feature a release added. The names are made up."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.metric_names import canonical_metric
from openresearch.agents.extract.values import find_values
from openresearch.agents.plan.analysis import analyse
from openresearch.agents.plan.attributes import metric_key
from openresearch.ingest.documents import normalise_plain
from openresearch.ingest.metadata import text_title
from tests.agents.test_logs_glosses_and_help_lines import read

HELP = """# Zorbq [![Build Status](https://ci.example.org/zorbq.svg)](https://ci.example.org/zorbq) [![Docs](https://x.org/b.svg)](https://x.org)

Zorbq is a small program that sends load to a web service.

## Usage

```
Usage: zorbq [options...] <url>

Options:
  -n  Number of requests to run. Default is 300.
  -c  Number of workers to run concurrently. Total number of requests cannot
      be smaller than the concurrency level. Default is 40.
  -t  Timeout for each request in seconds. Default is 25, use 0 for infinite.
  -o  Output type. If none provided, a summary is printed.
  -rate value
    \tNumber of requests per time unit [0 = infinity] (default 70/1s)
  -idle uint
    \tInitial number of idle sockets (default 12)
  -k, --sockets=135       Maximum number of concurrent sockets
  -m, --method=GET        Request method
      --connect-timeout <CONNECT_TIMEOUT>
          Timeout for establishing a new connection. [default: 7s]
```
"""


def test_a_help_listings_entries_are_read_whole_with_their_defaults(tmp_path: Path) -> None:
    paragraphs = normalise_plain(HELP).split("\n\n")
    # an entry written over two lines is one paragraph; one that states no default stays code
    assert "-c Number of workers to run concurrently. Total number of requests cannot be smaller than the " \
           "concurrency level. Default is 40." in paragraphs
    assert "-rate value Number of requests per time unit [0 = infinity] (default 70/1s)" in paragraphs
    assert not any(p.startswith(("-o ", "-m, ")) for p in paragraphs)
    got = read(tmp_path, "zorbq.md", HELP, "How many requests and workers does Zorbq use by default, at what rate, "
                                           "and what are its timeouts?")
    assert ("Zorbq", "requests", "300", None, "default") in got  # a lone letter's entry: what its words call it
    assert ("Zorbq", "concurrent_workers", "40", None, "default") in got  # "to run concurrently": at once
    assert ("Zorbq", "timeout", "25", "seconds", "default") in got
    assert ("Zorbq", "rate", "70/1s", "/s", "default") in got  # one rate, 70 per second
    assert ("Zorbq", "idle", "12", None, "default") in got
    # the figure in the option's own column, of what its description calls the option's quantity
    assert ("Zorbq", "concurrent_sockets", "135", None, "default") in got
    assert ("Zorbq", "connect_timeout", "7", "s", "default") in got  # "[default: 7s]"
    assert not any(e == "Default" for e, *_ in got)  # a sentence's first word inside an entry names nothing


def test_a_headings_badges_are_no_part_of_its_title() -> None:
    assert text_title(HELP) == "Zorbq"
    assert text_title("# [![Quux](https://x.org/logo.png)](https://x.org)\n\nText.\n") == "Quux"


def test_a_count_per_span_of_time_is_one_rate() -> None:
    assert [(v.raw, v.kind, v.quantity.value, v.unit) for v in find_values("at 70/1s or 600/5m, 3 ways")] == [
        ("70/1s", "rate", 70.0, "/s"), ("600/5m", "rate", 120.0, "/min"), ("3", "bare", 3.0, "")]


LOG = """2019-05-18: v7.0.0
  Include response body in results (#279)
  Added support for frobbed requests (Frob/2 without TLS) (#261)

2016-08-26: v6.1.1
  Respect case sensitivity in header names (#195)

2016-04-03: v6.1.0
  Add Frob2 support

2015-11-27: v6.0.0
  Insecure attack flag (#160)
  Client certificates (#156)
"""


def test_a_plain_logs_dated_lines_head_their_indented_entries(tmp_path: Path) -> None:
    paragraphs = normalise_plain(LOG).split("\n\n")
    assert paragraphs[:3] == ["2019-05-18: v7.0.0", "Include response body in results (#279)",
                              "Added support for frobbed requests (Frob/2 without TLS) (#261)"]
    got = read(tmp_path, "zorbq__CHANGELOG.txt", LOG, "When did Zorbq ship v6.0.0, the version that added Frob/2, "
                                                  "and v7.0.0?")
    assert ("Zorbq", "release_date", "2015-11-27", "date", "v6.0.0") in got
    assert ("Zorbq", "release_date", "2019-05-18", "date", "v7.0.0") in got
    # an entry right under its release that says it adds something: what that release brought, keyed as asked
    assert ("Zorbq", "frob2", "v6.1.0", "version", "added in") in got
    a = analyse("When did zorbq ship v6.0.0, the version that added Frob/2, and v7.0.0, and when did Quux "
                "release 2.40.0?")
    assert a.entities == ["zorbq", "Quux"]  # "ship" and "release" are verbs, "Frob/2" a feature
    assert "frob2" in a.metrics and metric_key("Frob2 support added") == "frob2"


def test_a_list_of_lower_case_tools_and_what_is_asked_by_default_for() -> None:
    a = analyse("If I just point anvil, zorbq and lantern at a URL without tuning anything, how much concurrency "
                "do I get and what per-request timeout applies?")
    assert a.entities == ["anvil", "zorbq", "lantern"]  # one unknown word makes the list one of names; "a URL" none
    # a list of quantities is what is compared of the name after it, however unknown to the vocabulary its words
    c = analyse("How do latency, throughput and memory compare for Zorbq?")
    assert c.entities == ["Zorbq"] and c.attributes == ["latency", "throughput", "memory"]
    from openresearch.agents.extract.metric_names import answers_metric

    # how many workers or connections run at once is how much concurrency there is; a maximum of other words is not
    assert answers_metric("workers", None, "concurrency") and answers_metric("concurrent_workers", None, "concurrency")
    assert not answers_metric("max_open_idle_connections", None, "concurrency")
    assert not answers_metric("max_workers", None, "concurrency")  # a bound answers a question for that bound
    b = analyse("What does Zorbq use by default for concurrent sockets, QXP/2 requests in flight per socket, the "
                "connection-establishment timeout and the refresh rate, and in which release (and when) did the "
                "QXP/2 parallelism option first show up?")
    assert b.entities == ["Zorbq"]  # a protocol inside what is asked, and a feature a release brought, no products
    assert b.attributes == ["concurrent sockets", "QXP/2 requests in flight per socket",
                            "connection-establishment timeout", "refresh rate", "QXP/2 parallelism added"]
    assert canonical_metric("connection-establishment timeout") is None  # a timeout, no founding date
    assert canonical_metric("release date") == "released"


def test_a_release_asked_by_what_it_brought_is_dated_and_named_whole(tmp_path: Path) -> None:
    from openresearch.agents.extract.metric_names import answers_metric
    from openresearch.agents.extract.releases import release_heading, releases_asked_of
    from openresearch.agents.verify.claim_text import unmatched_numbers

    q = ("When did zorbq ship v6.0.0, the version that added QXP/2, and v7.0.0, and when did Quux release 2.40.0 "
         "and 2.43.0?")
    # "ship" is the verb the release is asked with, no name owning "v6.0.0"
    assert [a.written for a in releases_asked_of(q, "zorbq", ["zorbq", "Quux"])] == ["v6.0.0", "v7.0.0"]
    assert analyse(q).attributes == ["release date", "QXP/2 added"]  # "the version that added ..." is no attribute
    # a release heading may write its build's commit after the version
    heading = release_heading("1.0.0-rc.4.a8dcd7ca5df49c0701893c4d9d81ec8c1342f141 (2023-10-14)")
    assert heading is not None and (heading.version, heading.date) == ("1.0.0-rc.4", "2023-10-14")
    log = "# Zorbq Changelog\n\n# 1.0.0-rc.4.a8dcd7ca5df4 (2023-10-14)\n\n- Make frob the default backend\n" \
          "- Added `-p` option to set number of QXP/2 parallel requests\n\n# 0.6.5 (2023-10-09)\n\n- Fix a crash\n"
    got = read(tmp_path, "CHANGELOG.md", log, "In which Zorbq release did the QXP/2 parallelism option show up?")
    assert any(m == "qxp2_parallel_requests" and v == "1.0.0-rc.4" and c == "added in" for _, m, v, _, c in got), got
    assert answers_metric("qxp2_parallel_requests", "version", "qxp2_parallelism")  # one word, two endings
    # the "2" of a protocol's name is no figure the answer states
    assert unmatched_numbers("QXP/2 added: Zorbq added in v6.1.0 (2016-04-03).",
                             ["Add QXP2 support", "2016-04-03: v6.1.0"]) == []


def test_of_two_defaults_the_one_whose_own_words_say_the_rows_wins() -> None:
    from openresearch.agents.extract.definitions import help_term
    from openresearch.agents.write.answer import metric_table
    from tests.agents.test_answer import ev, plan

    # what an option is, its description's first sentence says ("... will run c * p concurrent workers" is more)
    described = "Number of parallel requests to send on QXP/2. Zorbq will run c * p concurrent workers in total."
    assert help_term("-p", described) == "parallel requests"
    q = "What does Zorbq use by default for QXP/2 requests in flight per socket?"
    items = [ev("E-n", "-n <N_REQUESTS> Number of requests to run. [default: 300]",
                [("Zorbq", "requests", 300.0, "", "300", "default")]),
             ev("E-p", f"-p <N_QXP2_PARALLEL> {described} [default: 2]",
                [("Zorbq", "parallel_requests", 2.0, "", "2", "default")])]
    p = plan(q, "overview", ["Zorbq"], ["QXP/2 requests in flight per socket"],
             ["qxp_2_requests_in_flight_per_socket"])
    row = metric_table(p, items)["QXP/2 requests in flight per socket"]
    assert [f.text for f in row["Zorbq"]] == ["2"]  # its quote says "QXP/2" too; the request count's says no more


GO_HELP = """# Zorbq

Zorbq copies files.

## Flags

```
      --contimeout Duration   Connect timeout (default 1m0s)
      --timeout Duration      IO idle timeout (default 5m0s)
      --expire-after string   Expire entries after this long (default "30s")
```
"""


def test_a_go_style_help_listings_types_durations_and_quoted_defaults(tmp_path: Path) -> None:
    assert [(v.raw, v.quantity.value) for v in find_values("after 1h0m0s, 2h45m or 5m30s")] == [
        ("1h0m0s", 3_600_000.0), ("2h45m", 9_900_000.0), ("5m30s", 330_000.0)]  # (in ms)
    got = read(tmp_path, "zorbq.md", GO_HELP, "What are Zorbq's default connect and IO idle timeouts and expiry?")
    assert ("Zorbq", "contimeout", "1m0s", "s", "default") in got
    assert ("Zorbq", "io_idle_timeout", "5m0s", "s", "default") in got  # "Duration" is the value's type, no word
    assert ("Zorbq", "expire_after", "30", "s", "default") in got  # a quoted default is a default
