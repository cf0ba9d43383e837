"""Facts an API reference and a change log state in their own shapes, whatever the product: a signature's defaults
(".. class:: Frobber(*, limit=100, idle_timeout=15)"), a prose default of the parameter named just before it, a
measure written before its noun ("a total 300 seconds timeout"), a change log's releases owned by the product its
address names (not a dependency its entries name), ordinal dates in release headings, and the release a platform
version was dropped in. The names are made up."""

from __future__ import annotations

from pathlib import Path

from reading_fixtures import read_facts

from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.observations import observations
from openresearch.agents.extract.releases import dated_release
from openresearch.agents.extract.requirements import requirement_observations, states_requirement
from openresearch.agents.extract.signatures import signature_defaults
from openresearch.agents.extract.values import find_values
from openresearch.identity import AliasResolver
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file


def test_a_signature_gives_each_parameter_its_default_under_the_callable_that_takes_it() -> None:
    got = signature_defaults(".. class:: FrobConnector(*, keepalive_timeout=15, \\ force_close=False, limit=100, "
                             "limit_per_host=0, loop=None) :canonical: zorbq.connector.FrobConnector", "zorbq")
    assert [(o.metric, o.value, o.condition) for o in got or []] == [
        ("keepalive_timeout", "15", "default, FrobConnector"), ("limit", "100", "default, FrobConnector"),
        ("limit_per_host", "0", "default, FrobConnector")]
    typed = signature_defaults("def connect(host, port=5432, timeout: float = 60.0, ssl=None)", "zorbq")
    assert [(o.metric, o.value) for o in typed or []] == [("port", "5432"), ("timeout", "60.0")]
    # (one number among other defaults is a signature's default too)
    one = signature_defaults(".. method:: request(method, url, *, params=None, max_redirects=10)", "zorbq")
    assert [(o.metric, o.value, o.condition) for o in one or []] == [("max_redirects", "10", "default, request")]
    # a call written inside prose, or a parenthesis of prose, is no signature
    assert signature_defaults("See frob(x=1, y=2) for it.", "zorbq") is None
    assert signature_defaults("Zorbq is great (since 2020, used by 5 people)", "zorbq") is None
    assert signature_defaults(".. class:: Frob(limit=100)", None) is None  # (whose defaults: unknown)


def test_a_reference_page_reads_signatures_and_a_prose_default_of_the_parameter_named_before(tmp_path: Path) -> None:
    path = tmp_path / "zorbq-client-reference.rst"
    path.write_text(
        "Client reference\n================\n\n"
        ".. class:: FrobConnector(*, ttl_dns_cache=10, limit=100, \\\n   keepalive_timeout=30)\n\n"
        "   The connector of zorbq.\n\n"
        "Limiting connections\n--------------------\n\n"
        "To limit the connections to one host you can pass *limit_per_host* parameter to the connector.\n\n"
        "The example limits them to 30.\n\n"
        "The default is 0 (no limit per host).\n\n"
        "Resolving\n---------\n\n"
        "The default is 7.\n", encoding="utf-8")
    got = read_facts(path, "What are zorbq's defaults for the DNS cache TTL and the per-host connection limit?")
    assert ("zorbq", "ttl_dns_cache", "10", None, "default, FrobConnector") in got
    assert ("zorbq", "keepalive_timeout", "30", None, "default, FrobConnector") in got
    assert ("zorbq", "limit_per_host", "0", None, "default, no limit per host") in got
    # a section's prose never reaches past its heading: "The default is 7." under "Resolving" is of nothing named
    assert not any(m == "limit_per_host" and v == "7" for _, m, v, _, _ in got), got


def test_a_measure_written_before_its_noun_is_a_figure_of_that_noun() -> None:
    def read(text: str) -> list[tuple[str, str, str | None, str | None]]:
        return [(o.metric, o.value, o.unit, o.condition) for o in observations(text, [], set(), "Zorbq")]

    assert read("By default zorbq uses a total 300 seconds timeout, so a call ends in 5 minutes.")[0] == (
        "total_timeout", "300", "seconds", "default")
    assert read("Set a 30 second timeout for the connect.") == [("timeout", "30", "second", None)]
    # what is done for a time: the verb's duration
    assert read("Resolutions will be cached by default for 10 seconds.") == [
        ("cache_duration", "10", "seconds", "default")]
    assert read("The 5 seconds are up.") == []  # no noun after it: nothing named


def test_a_change_log_is_the_product_its_address_names_not_a_dependency_its_entries_name(tmp_path: Path) -> None:
    entries = "\n".join("- Updated the bundled quuxlib." for _ in range(6))
    path = tmp_path / "zorbq-HISTORY.md"
    path.write_text("Release History\n===============\n\n"
                    + "".join(f"{v} (2013-0{m}-1{m})\n------------------\n\n{entries}\n- Fixed zorbq's retry "
                              f"{m}.\n\n" for v, m in (("2.1.0", 4), ("2.0.0", 3), ("1.9.0", 2)))
                    + "Zorbq is a client. Zorbq retries. Zorbq pools. Zorbq redirects.\n", encoding="utf-8")
    got = read_facts(path, "When were quuxlib 2.0.0 and 2.1.0 released, and when were zorbq 2.0.0 and 2.1.0 released?")
    dated = {(e, v, c) for e, m, v, _, c in got if m == "release_date"}
    # (the releases of quuxlib are asked, and its name fills the entries; the log is still zorbq's)
    assert dated == {("zorbq", "2013-04-14", "2.1.0"), ("zorbq", "2013-03-13", "2.0.0"),
                     ("zorbq", "2013-02-12", "1.9.0")}, dated


def test_release_headings_with_ordinal_days_are_dated_and_an_issue_number_is_no_year() -> None:
    for heading, date in (("## 0.28.0 (28th November, 2024)", "28th November, 2024"),
                          ("## 0.17.1 (March 15th, 2021)", "March 15th, 2021"),
                          ("## 0.25.1 (3rd November, 2023)", "3rd November, 2023")):
        release = dated_release(heading)
        assert release is not None and release.date == date, heading
    assert [v.raw for v in find_values("Enforce binary mode. (Pull #1736) since 1999")] == ["1999"]


def test_a_dropped_platform_version_is_a_requirement_line_and_a_status_code_is_no_version() -> None:
    assert states_requirement("Removed support for the end-of-life Frob 3.7. (#3143)")
    assert states_requirement("Dropped Frob 3.3 support. (Pull #1242)")
    assert [(o.metric, o.value, o.condition) for o in requirement_observations(
        "Removed support for the end-of-life Frob 3.7.", [], "Zorbq") or []] == [("frob_version", "3.7", "dropped")]
    # a whole number a noun follows is no version of the word before it ("Blarg 308 Permanent Redirect")
    assert not states_requirement("Support Blarg 308 Permanent redirect in client class.")
    assert [o.value for o in requirement_observations("Requires Frob 17 or later.", [], "Zorbq") or []] == ["17"]


def test_the_release_that_dropped_an_asked_platform_version_is_read_and_cited_with_its_heading(
        tmp_path: Path) -> None:
    path = tmp_path / "zorbq-CHANGELOG.md"
    path.write_text("# Changelog\n\n## 0.26.0 (20th December, 2023)\n\n### Added\n\n* Add frob support. (#2900)\n\n"
                    "## 0.25.0 (11th September, 2023)\n\n### Removed\n\n* Drop support for Frob 3.7. (#2813)\n\n"
                    "### Added\n\n* Support Frob 3.12. (#2854)\n", encoding="utf-8")
    got = read_facts(path, "For zorbq, which release dropped Frob 3.7 and when did it ship?")
    assert ("zorbq", "frob_version", "3.7", "version", "dropped, 0.25.0 (11th September, 2023)") in got, got
    # the extractor quotes the entry's release heading with it, so the answer cites where the release is written
    from openresearch.agents.extract.document import plan_for
    from openresearch.ingest.local import parse_local_file as parse

    ex = DeterministicExtractor(HashEmbedder(), AliasResolver({}))
    sq, plan = plan_for("For zorbq, which release dropped Frob 3.7 and when did it ship?")
    quotes = [i.quote for i in ex.extract(parse(path), sq, plan).items]
    at = quotes.index("Drop support for Frob 3.7. (#2813)")
    assert quotes[at + 1] == "0.25.0 (11th September, 2023)", quotes


def test_a_figure_a_release_brought_is_quoted_with_its_release_heading(tmp_path: Path) -> None:
    from openresearch.agents.extract.document import plan_for

    path = tmp_path / "zorbq-CHANGES.rst"
    path.write_text("Changelog\n=========\n\n3.10.9 (2024-10-04)\n===================\n\n"
                    "- The default client timeout has changed to include a connect timeout of 30 seconds.\n\n"
                    "3.10.8 (2024-09-28)\n===================\n\n- Fixed a leak.\n", encoding="utf-8")
    q = "What is zorbq's default connect timeout, and in which release was the connect timeout default changed?"
    sq, plan = plan_for(q)
    items = DeterministicExtractor(HashEmbedder(), AliasResolver({})).extract(parse_local_file(path), sq, plan).items
    quotes = [i.quote for i in items]
    at = next(k for k, t in enumerate(quotes) if "30 seconds" in t)
    assert any((o.condition or "").endswith("3.10.9 (2024-10-04)") for o in items[at].observations), items[at]
    assert quotes[at + 1] == "3.10.9 (2024-10-04)", quotes


def test_a_list_item_that_opens_with_its_key_gives_that_keys_default_in_parentheses(tmp_path: Path) -> None:
    path = tmp_path / "zorbq-limits.md"
    path.write_text("You can control the pool with `zorbq.Limits`, which defines:\n\n"
                    "- `max_idle_conns`, number of allowable idle connections, or `None` to always allow. "
                    "(Defaults 20)\n"
                    "- `max_conns`, maximum number of allowable connections, or `None` for no limits. (Default 100)\n",
                    encoding="utf-8")
    got = read_facts(path, "What are zorbq's default max_conns and max_idle_conns?")
    assert {("zorbq", "max_idle_conns", "20", None, "default"), ("zorbq", "max_conns", "100", None, "default")} <= got
    # (a sentence's own parenthesised default keeps the words before it: "Sets the maximum depth (default 250)")
    assert [(o.metric, o.value) for o in observations("Sets the maximum depth (default 250)", [], set(), "Zorbq")] \
        == [("max_depth", "250")]
