"""The monitoring run's in-memory steps over observation rows (pure): the supersession pass's writes applied to
the rows it read, and which entities' rows changed (the only ones whose conflict groups can change)."""

from __future__ import annotations

from typing import Any

from openresearch.monitor.delta import changed_entities, conflicts_as_of, with_supersessions
from openresearch.monitor.timefacts import Supersession

DAY = 86_400_000


def row(oid: str, entity: str, value: float, published: int, evidence: str | None = None) -> dict[str, Any]:
    ev = evidence or f"E-{oid}"
    return {"id": oid, "key": f"{entity}|ingest_throughput|rows/s", "condition_key": "", "as_of": None,
            "published_at": published, "learned_at": published, "superseded_by": None, "entity_id": entity,
            "entity": entity, "metric": "ingest_throughput", "unit": "rows/s", "condition": "", "value": value,
            "raw_value": f"{value:,.0f}", "raw_unit": "rows per second", "evidence_id": ev,
            "quote": f"{entity} reaches a write throughput of {value:,.0f} rows per second.", "source_id": f"S-{ev}",
            "url": f"https://{ev.lower()}.example", "domain": f"{ev.lower()}.example", "title": None, "trust": 0.5}


def test_supersessions_applied_in_memory() -> None:
    rows = [row("O-1", "N-a", 120_000, 10 * DAY), row("O-2", "N-a", 150_000, 40 * DAY)]
    out = with_supersessions(rows, [Supersession(old="O-1", new="O-2", at_ms=40 * DAY, late=False)])
    assert [r["superseded_by"] for r in out] == ["O-2", None]
    assert rows[0]["superseded_by"] is None  # the read itself is left as it was


def test_changed_entities() -> None:
    a1, b1 = row("O-1", "N-a", 120_000, 10 * DAY), row("O-3", "N-b", 5, 10 * DAY)
    c1 = row("O-4", "N-c", 7, 10 * DAY)
    before = [a1, b1, c1]
    after = with_supersessions([a1, row("O-2", "N-a", 150_000, 40 * DAY), b1],
                               [Supersession(old="O-1", new="O-2", at_ms=40 * DAY, late=False)])
    assert changed_entities(before, after) == {"N-a", "N-c"}  # a: a new value; c: its evidence is gone
    assert changed_entities(before, list(before)) == set()


def test_conflicts_of_unchanged_entities_are_the_same() -> None:
    """What the runner relies on: conflicts computed over the changed entities only differ from the whole
    graph's by the groups of the unchanged entities, which are the same before and after."""
    stable = [row("O-5", "N-b", 5, 10 * DAY), row("O-6", "N-b", 9, 10 * DAY)]  # a conflict nobody touches
    before = [row("O-1", "N-a", 120_000, 10 * DAY), *stable]
    after = [*before, row("O-2", "N-a", 90_000, 10 * DAY)]  # a new conflict on N-a
    touched = changed_entities(before, after)
    whole = {g.id for g in conflicts_as_of(after, None, 0.02)} - {g.id for g in conflicts_as_of(before, None, 0.02)}
    scoped = ({g.id for g in conflicts_as_of([r for r in after if r["entity_id"] in touched], None, 0.02)}
              - {g.id for g in conflicts_as_of([r for r in before if r["entity_id"] in touched], None, 0.02)})
    assert touched == {"N-a"} and whole == scoped and len(scoped) == 1
