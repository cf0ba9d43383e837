"""Supersession by lineage only, edits and deletions as such (issue 24 items 1-3): the pure rules."""

from __future__ import annotations

from openresearch.monitor.edits import document_change, unchanged_quotes, values_left
from openresearch.monitor.models import SourceItem
from openresearch.monitor.timefacts import TimedObservation, changes, current_as_of, plan_supersessions, releases

DAY = 86_400_000
T0 = 1_768_176_000_000
KEY = "N-zetamq|ingest_throughput|MB/s"


def obs(oid: str, valid: int | None, lineage: str, *, role: str = "own", by: str | None = None,
        learned: int = 0) -> TimedObservation:
    return TimedObservation(oid, KEY, "", valid, learned, by, lineage=lineage, role=role)


def test_independent_sources_that_disagree_never_supersede_whatever_their_dates() -> None:
    items = [obs("a", T0, "publisher:zeta.example"), obs("b", T0 + 300 * DAY, "publisher:blog.example"),
             obs("c", T0 + 600 * DAY, "document:S-local-file")]
    assert plan_supersessions(items) == []
    assert current_as_of(items, None) == {"a", "b", "c"}
    assert current_as_of(items, T0 + DAY) == {"a"}  # only what had been stated by then


def test_the_same_publishers_later_statement_supersedes_its_own_earlier_one() -> None:
    items = [obs("v14", T0, "publisher:acme.example"), obs("v15", T0 + 30 * DAY, "publisher:acme.example"),
             obs("bench", T0 + 30 * DAY, "publisher:bench.example")]
    plan = plan_supersessions(items)
    assert [(s.old, s.new) for s in plan] == [("v14", "v15")]
    assert current_as_of(items, None) == {"v15", "bench"}
    assert current_as_of(items, T0 + DAY) == {"v14"}


def test_a_reported_figure_never_supersedes_and_is_never_superseded() -> None:
    items = [obs("own", T0, "publisher:blog.example"),
             obs("heard", T0 + 10 * DAY, "publisher:blog.example", role="reported"),
             obs("later-heard", T0 + 20 * DAY, "publisher:blog.example", role="disputed")]
    assert plan_supersessions(items) == []
    assert current_as_of(items, None) == {"own", "heard", "later-heard"}


def test_a_supersession_marked_across_lineages_or_by_a_value_that_left_is_released() -> None:
    # stored by an earlier rule (another publisher's newer value) or by a deleted document's value
    items = [obs("old", T0, "publisher:zeta.example", by="other"), obs("other", T0 + DAY, "publisher:blog.example"),
             obs("orphan", T0, "publisher:acme.example", by="gone-with-its-document")]
    assert releases(items) == ["old", "orphan"]
    assert changes(items) == []
    # a value whose own lineage still has a later one stays superseded (re-pointed, not released)
    items = [obs("x1", T0, "publisher:acme.example", by="gone"), obs("x2", T0 + DAY, "publisher:acme.example")]
    assert releases(items) == [] and [(s.old, s.new) for s in changes(items)] == [("x1", "x2")]


def row(oid: str, value: float, ev: str, *, key: str = KEY, source: str = "S-doc", published: int = T0
        ) -> dict[str, object]:
    return {"id": oid, "key": key, "condition_key": "", "entity": "ZetaMQ", "metric": "ingest_throughput",
            "unit": "MB/s", "condition": "", "value": value, "raw_value": f"{value:g}", "raw_unit": "MB/s",
            "evidence_id": ev, "source_id": source, "published_at": published, "domain": "zeta.example"}


def test_an_edit_pairs_the_previous_versions_values_with_the_new_ones() -> None:
    src = SourceItem(id="S-doc", url="https://zeta.example/bench", title="ZetaMQ benchmark", published_at=T0 + DAY)
    other = "N-omegabus|ingest_throughput|MB/s"
    gone_key = "N-zetamq|latency_p99|ms"
    old = [row("o1", 605, "E-old1"), row("o2", 470, "E-old2", key=other), row("o3", 12, "E-old3", key=gone_key)]
    new = [row("n1", 720, "E-new1", published=T0 + DAY), row("n2", 470, "E-new2", key=other, published=T0 + DAY)]
    change, restated = document_change(src, T0, old, new, text_changed=True)
    assert [(c.old_value, c.new_value, c.old_evidence, c.new_evidence) for c in change.changed] == [
        ("605 MB/s", "720 MB/s", "E-old1", "E-new1")]
    assert [v.value for v in change.dropped] == ["12 MB/s"]
    assert change.date_changed
    assert sorted((s.old, s.new) for s in restated) == [("o1", "n1"), ("o2", "n2")]  # one lineage: the document
    assert unchanged_quotes({"E-new2": "OmegaBus  moves 470 MB/s.", "E-new1": "ZetaMQ moves 720 MB/s."},
                            ["OmegaBus moves 470 MB/s.", "ZetaMQ moves 605 MB/s."]) == {"E-new2"}
    # a figure whose sentence the new text still holds word for word is still stated (not read this time)
    kept = {**old[2], "quote": "ZetaMQ p99 latency is 12 ms."}
    change, _ = document_change(src, T0, [old[0], kept], new[:1], text_changed=True,
                                new_text="Intro.\nZetaMQ p99  latency is 12 ms.\nZetaMQ moves 720 MB/s.")
    assert change.dropped == []
    # a changed date alone: the same observations on both sides, nothing restated
    same, pairs = document_change(src, T0, old, old, text_changed=False)
    assert same.date_changed and not same.changed and not same.dropped and pairs == []


def test_the_values_that_left_with_a_deleted_document() -> None:
    rows = [row("a", 300, "E-a", source="S-gone"), row("a", 300, "E-a", source="S-gone"), row("b", 720, "E-b")]
    assert [(v.value, v.evidence) for v in values_left(rows, {"S-gone"})] == [("300 MB/s", "E-a")]
