"""What a question asks, read by its grammar rather than by names a list knows: the owner of a class ("an zorbq
FrobSession") is the entity and its parts are not; an abbreviation among the asked words ("the DNS cache TTL") stays
in the attribute; "the total and per-host connection limits" are two limits; "how big is the pool" asks its size;
"for an internal service" says what for. And the rows answered from it: a clause that asks "when" makes only its own
attribute a date row, a release's version answers only an attribute that asks for a release, and a quantity that
shares only its kind with an attribute answers it only where its quote says the attribute's words. The names are
made up."""

from __future__ import annotations

from openresearch.agents.extract.metric_names import answers_metric, asks_a_release, says_what_is_measured
from openresearch.agents.plan.analysis import analyse
from openresearch.agents.write.answer import dated_clause, metric_table
from openresearch.models import EvidenceView, ObservationView, Plan, SourceView, SubQuestion


def test_the_owner_of_a_class_is_the_entity_and_its_parts_and_abbreviations_are_not() -> None:
    a = analyse("If I create a zorbq FrobSession with the default QuuxConnector and don't pass any options, what are "
                "the defaults for the total timeout, max redirects, the total and per-host connection limits and the "
                "DNS cache TTL? And in which zorbq release was the total timeout default changed?")
    assert a.entities == ["zorbq"]
    assert a.attributes[:5] == ["total timeout", "max redirects", "total connection limit",
                                "per-host connection limit", "DNS cache TTL"], a.attributes
    # without an owner, a capitalised name is still what is asked about
    assert analyse("What are the defaults of QuuxConnector and FrobSession for the timeout?").entities == [
        "QuuxConnector", "FrobSession"]


def test_a_size_asked_by_how_big_and_a_purpose_that_is_no_attribute() -> None:
    a = analyse("We're deciding between zorbq, frobhttp and Quux for an internal service. Out of the box, what "
                "request timeout does each one apply, how big is the default connection pool (total connections / "
                "connections per host), and how many redirects will each follow before giving up?")
    assert a.entities == ["zorbq", "frobhttp", "Quux"]
    # (the asker's gloss says what the pool's size is: those counts are asked)
    assert "internal service" not in a.attributes and {"total connections", "connections per host"} <= set(
        a.attributes), a.attributes
    assert "default connection pool size" in analyse(
        "We're deciding between zorbq and Quux. Out of the box, how big is the default connection pool, and how many "
        "redirects will each follow before giving up?").attributes
    assert {"request timeout", "redirects"} <= set(a.attributes)
    assert analyse("For zorbq, which release dropped Frob 3.7 and when did it ship?").entities == ["zorbq"]


def test_only_the_clause_that_asks_when_makes_its_attribute_a_date_row() -> None:
    q = ("What are zorbq's defaults for the total timeout and the keep-alive timeout? And in which zorbq release was "
         "the total timeout default changed, and when was that release published?")
    assert not dated_clause(q, "total timeout") and not dated_clause(q, "keep-alive timeout")
    assert dated_clause(q, "release date")  # (an attribute the question never writes: the dates asked)
    assert dated_clause("When does Zorbq 1.2 reach end of life, and what is its support period?", "end of life")


def test_a_version_answers_only_a_release_and_a_shared_bound_word_makes_no_two_quantities_one() -> None:
    assert asks_a_release("Frob 3.7 support dropped") and asks_a_release("default max retries changed")
    assert not asks_a_release("total timeout")
    assert not answers_metric("max_message_size", "MB", "max redirects")
    assert answers_metric("limit", "", "total_connection_limit")
    said = "Limit websocket message size to 4 MB by default."
    assert not says_what_is_measured("max_message_size", "default connection pool size", said)
    assert says_what_is_measured("total_timeout", "request timeout", "a total timeout")  # nothing else named
    assert says_what_is_measured("arena_size", "size of the large reservations", "reserves large arenas")

    src = SourceView(id="S-1", url="local:///docs/zorbq-reference.md", title="zorbq reference")

    def ev(n: int, quote: str, metric: str, value: float, unit: str, raw: str, cond: str) -> EvidenceView:
        obs = ObservationView(id=f"O-{n}", entity="zorbq", metric=metric, value=value, unit=unit, raw_value=raw,
                              raw_unit=unit, condition=cond)
        return EvidenceView(id=f"E-{n:012d}", quote=quote, type="statistic", score=0.5, source=src,
                            entities=["zorbq"], observations=[obs])

    items = [ev(1, "By default zorbq uses a total 300 seconds timeout.", "total_timeout", 300000.0, "ms", "300",
                "default"),
             ev(2, "Changed in version 3.10.9.", "timeout", 3010009.0, "version", "3.10.9", "changed in"),
             ev(3, "Limit websocket message size to 4 MB by default.", "max_message_size", 4e6, "B", "4", "default")]
    q = "What are zorbq's defaults for the total timeout and the connection pool size?"
    p = Plan(question=q, kind="overview", entities=["zorbq"], attributes=["total timeout", "connection pool size"],
             metrics=["total_timeout", "connection_pool_size"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["zorbq"])])
    cells = {label: [f.text for f in row.get("zorbq", [])] for label, row in metric_table(p, items).items()}
    assert cells == {"total timeout": ["300 seconds"], "connection pool size": []}, cells


def test_a_key_that_writes_a_compound_whole_answers_the_words_that_write_it_apart() -> None:
    assert answers_metric("keepalive_timeout", None, "keep_alive_timeout")
    assert not answers_metric("timeout", "s", "startup_time")  # ("timeout" is no "time" something took)


def test_what_a_release_changed_is_answered_by_that_release_cited_where_its_heading_is_written() -> None:
    src = SourceView(id="S-ch", url="local:///docs/zorbq-CHANGES.rst", title="Changelog")

    def ev(n: int, quote: str, obs: list[ObservationView]) -> EvidenceView:
        return EvidenceView(id=f"E-{n:012d}", quote=quote, type="statistic", score=0.5, source=src,
                            entities=["zorbq"], observations=obs)

    entry = ev(1, "The default connect timeout has changed to 30 seconds.",
               [ObservationView(id="O-1", entity="zorbq", metric="connect_timeout", value=30000.0, unit="ms",
                                raw_value="30", raw_unit="seconds", condition="default, 3.10.9 (2024-10-04)")])
    heading = ev(2, "3.10.9 (2024-10-04)", [])
    q = "What is zorbq's default connect timeout, and in which zorbq release was the connect timeout default changed?"
    attributes = ["connect timeout", "connect timeout default changed"]
    p = Plan(question=q, kind="overview", entities=["zorbq"], attributes=attributes,
             metrics=["connect_timeout", "connect_timeout_default"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["zorbq"])])
    cells = {label: [(f.text, [e.id for e in f.evidence]) for f in row.get("zorbq", [])]
             for label, row in metric_table(p, [entry, heading]).items()}
    assert cells["connect timeout"] == [("30 seconds", ["E-000000000001"])], cells
    assert cells["connect timeout default changed"] == [("3.10.9 (2024-10-04)", ["E-000000000001",
                                                                                  "E-000000000002"])], cells
    # without the gathered heading, the release is not said
    cells = {label: [f.text for f in row.get("zorbq", [])] for label, row in metric_table(p, [entry]).items()}
    assert cells.get("connect timeout default changed", []) == [], cells
