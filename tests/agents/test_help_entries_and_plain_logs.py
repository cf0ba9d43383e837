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

Zorbq sends frobs to a wibble service and tallies the replies.

## Usage

```
Usage: zorbq [flags] <target>

Options:
  -n  Number of frobs to send. Default is 300.
  -c  Number of wibblers to run concurrently. The frob count may not be lower
      than the wibbler count. Default is 40.
  -t  Timeout for each frob in seconds. Default is 25, 0 waits for ever.
  -o  Output format. Without one, a digest is shown.
  -pace value
    \tFrobs sent per unit of time [0 = unbounded] (default 70/1s)
  -idle uint
    \tIdle sockets kept open (default 12)
  -k, --sockets=135       Concurrent sockets to hold open
  -m, --mode=FAST         Frob mode
      --dial-timeout <DIAL_TIMEOUT>
          How long to wait for a socket to open. [default: 7s]
```
"""


def test_a_help_listings_entries_are_read_whole_with_their_defaults(tmp_path: Path) -> None:
    paragraphs = normalise_plain(HELP).split("\n\n")
    # an entry written over two lines is one paragraph; one that states no default stays code
    assert "-c Number of wibblers to run concurrently. The frob count may not be lower than the wibbler count. " \
           "Default is 40." in paragraphs
    assert "-pace value Frobs sent per unit of time [0 = unbounded] (default 70/1s)" in paragraphs
    assert not any(p.startswith(("-o ", "-m, ")) for p in paragraphs)
    got = read(tmp_path, "zorbq.md", HELP, "How many frobs and wibblers does Zorbq use by default, at what pace, "
                                           "and what are its timeouts?")
    assert ("Zorbq", "frobs", "300", None, "default") in got  # a lone letter's entry: what its words call it
    assert ("Zorbq", "concurrent_wibblers", "40", None, "default") in got  # "to run concurrently": at once
    assert ("Zorbq", "timeout", "25", "seconds", "default") in got
    assert ("Zorbq", "pace", "70/1s", "/s", "default") in got  # one rate, 70 per second
    assert ("Zorbq", "idle", "12", None, "default") in got
    # the figure in the option's own column, of what its description calls the option's quantity
    assert ("Zorbq", "concurrent_sockets", "135", None, "default") in got
    assert ("Zorbq", "dial_timeout", "7", "s", "default") in got  # "[default: 7s]"
    assert not any(e == "Default" for e, *_ in got)  # a sentence's first word inside an entry names nothing


def test_a_headings_badges_are_no_part_of_its_title() -> None:
    assert text_title(HELP) == "Zorbq"
    assert text_title("# [![Quux](https://x.org/logo.png)](https://x.org)\n\nText.\n") == "Quux"


def test_a_count_per_span_of_time_is_one_rate() -> None:
    assert [(v.raw, v.kind, v.quantity.value, v.unit) for v in find_values("at 70/1s or 600/5m, 3 ways")] == [
        ("70/1s", "rate", 70.0, "/s"), ("600/5m", "rate", 120.0, "/min"), ("3", "bare", 3.0, "")]


LOG = """2019-03-11: v4.2.0
  Keep the frob digest in each result (#412)
  Added support for plain wibbles (QXP/2 without a lens) (#398)

2018-07-02: v4.1.1
  Read frob names whatever their case (#377)

2018-05-14: v4.1.0
  Add QXP2 support

2017-12-20: v4.0.0
  Lenient frob flag (#301)
  Wibble certificates (#296)
"""


def test_a_plain_logs_dated_lines_head_their_indented_entries(tmp_path: Path) -> None:
    paragraphs = normalise_plain(LOG).split("\n\n")
    assert paragraphs[:3] == ["2019-03-11: v4.2.0", "Keep the frob digest in each result (#412)",
                              "Added support for plain wibbles (QXP/2 without a lens) (#398)"]
    got = read(tmp_path, "zorbq__CHANGELOG.txt", LOG, "When did Zorbq ship v4.0.0, the version that added QXP/2, "
                                                  "and v4.2.0?")
    assert ("Zorbq", "release_date", "2017-12-20", "date", "v4.0.0") in got
    assert ("Zorbq", "release_date", "2019-03-11", "date", "v4.2.0") in got
    # an entry right under its release that says it adds something: what that release brought, keyed as asked
    assert ("Zorbq", "qxp2", "v4.1.0", "version", "added in") in got
    a = analyse("When did zorbq ship v4.0.0, the version that added QXP/2, and v4.2.0, and when did Quux "
                "release 3.5.0?")
    assert a.entities == ["zorbq", "Quux"]  # "ship" and "release" are verbs, "QXP/2" a feature
    assert "qxp2" in a.metrics and metric_key("QXP2 support added") == "qxp2"


def test_a_list_of_lower_case_tools_and_what_is_asked_by_default_for() -> None:
    a = analyse("If I aim anvil, zorbq and lantern at a URL with stock settings, how many sockets does each open "
                "and what timeout does it use?")
    assert a.entities == ["anvil", "zorbq", "lantern"]  # one unknown word makes the list one of names; "a URL" none
    # a list of quantities is what is compared of the name after it, however unknown to the vocabulary its words
    c = analyse("How do latency, throughput and memory compare for Zorbq?")
    assert c.entities == ["Zorbq"] and c.attributes == ["latency", "throughput", "memory"]
    from openresearch.agents.extract.metric_names import answers_metric

    # how many workers or connections run at once is how much concurrency there is; a maximum of other words is not
    assert answers_metric("workers", None, "concurrency") and answers_metric("concurrent_workers", None, "concurrency")
    assert not answers_metric("max_open_idle_connections", None, "concurrency")
    assert not answers_metric("max_workers", None, "concurrency")  # a bound answers a question for that bound
    b = analyse("What does Zorbq use by default for concurrent sockets, QXP/2 streams in flight per socket, the "
                "socket-establishment timeout and the redraw rate, and in which release (and when) did the "
                "QXP/2 parallelism option first show up?")
    assert b.entities == ["Zorbq"]  # a protocol inside what is asked, and a feature a release brought, no products
    assert b.attributes == ["concurrent sockets", "QXP/2 streams in flight per socket",
                            "socket-establishment timeout", "redraw rate", "QXP/2 parallelism added"]
    assert canonical_metric("socket-establishment timeout") is None  # a timeout, no founding date
    assert canonical_metric("release date") == "released"


def test_a_release_asked_by_what_it_brought_is_dated_and_named_whole(tmp_path: Path) -> None:
    from openresearch.agents.extract.metric_names import answers_metric
    from openresearch.agents.extract.releases import release_heading, releases_asked_of
    from openresearch.agents.verify.claim_text import unmatched_numbers

    q = ("When did zorbq ship v4.0.0, the version that added QXP/2, and v4.2.0, and when did Quux release 3.5.0 "
         "and 3.8.0?")
    # "ship" is the verb the release is asked with, no name owning "v4.0.0"
    assert [a.written for a in releases_asked_of(q, "zorbq", ["zorbq", "Quux"])] == ["v4.0.0", "v4.2.0"]
    assert analyse(q).attributes == ["release date", "QXP/2 added"]  # "the version that added ..." is no attribute
    # a release heading may write its build's commit after the version
    heading = release_heading("2.0.0-rc.3.b7e1c9d04a2f5e6d7c8b9a0f1e2d3c4b5a6f7e8d (2024-02-19)")
    assert heading is not None and (heading.version, heading.date) == ("2.0.0-rc.3", "2024-02-19")
    log = "# Zorbq Changelog\n\n# 2.0.0-rc.3.b7e1c9d04a2f (2024-02-19)\n\n- Make wibble the default lens\n" \
          "- Added `-p` option to set number of QXP/2 parallel frobs\n\n# 1.9.2 (2024-02-02)\n\n- Fix a crash\n"
    got = read(tmp_path, "CHANGELOG.md", log, "In which Zorbq release did the QXP/2 parallelism option show up?")
    assert any(m == "qxp2_parallel_frobs" and v == "2.0.0-rc.3" and c == "added in" for _, m, v, _, c in got), got
    assert answers_metric("qxp2_parallel_frobs", "version", "qxp2_parallelism")  # one word, two endings
    # the "2" of a protocol's name is no figure the answer states
    assert unmatched_numbers("QXP/2 added: Zorbq added in v4.1.0 (2018-05-14).",
                             ["Add QXP2 support", "2018-05-14: v4.1.0"]) == []


def test_of_two_defaults_the_one_whose_own_words_say_the_rows_wins() -> None:
    from openresearch.agents.extract.definitions import help_term
    from openresearch.agents.write.answer import metric_table
    from tests.agents.test_answer import ev, plan

    # what an option is, its description's first sentence says ("... will run c * p concurrent workers" is more)
    described = "Number of parallel frobs to send on each QXP/2 socket. Zorbq runs s * p concurrent wibblers in all."
    assert help_term("-p", described) == "parallel frobs"
    q = "What does Zorbq use by default for QXP/2 frobs in flight per socket?"
    items = [ev("E-n", "-n <N_FROBS> Number of frobs to send. [default: 300]",
                [("Zorbq", "frobs", 300.0, "", "300", "default")]),
             ev("E-p", f"-p <N_QXP2_PARALLEL> {described} [default: 2]",
                [("Zorbq", "parallel_frobs", 2.0, "", "2", "default")])]
    p = plan(q, "overview", ["Zorbq"], ["QXP/2 frobs in flight per socket"], ["qxp_2_frobs_in_flight_per_socket"])
    row = metric_table(p, items)["QXP/2 frobs in flight per socket"]
    assert [f.text for f in row["Zorbq"]] == ["2"]  # its quote says "QXP/2" too; the frob count's says no more


GO_HELP = """# Zorbq

Zorbq copies files.

## Flags

```
      --dialwait Duration     Dial timeout (default 2m30s)
      --timeout Duration      Socket idle timeout (default 7m0s)
      --expire-after string   Drop cached frobs after this long (default "45s")
```
"""


def test_a_go_style_help_listings_types_durations_and_quoted_defaults(tmp_path: Path) -> None:
    assert [(v.raw, v.quantity.value) for v in find_values("after 1h0m0s, 2h45m or 5m30s")] == [
        ("1h0m0s", 3_600_000.0), ("2h45m", 9_900_000.0), ("5m30s", 330_000.0)]  # (in ms)
    got = read(tmp_path, "zorbq.md", GO_HELP, "What are Zorbq's default dial and idle timeouts and expiry?")
    assert ("Zorbq", "dialwait", "2m30s", "s", "default") in got
    assert ("Zorbq", "socket_idle_timeout", "7m0s", "s", "default") in got  # "Duration" is the value's type, no word
    assert ("Zorbq", "expire_after", "45", "s", "default") in got  # a quoted default is a default
