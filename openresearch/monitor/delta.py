"""What a monitoring run changed, from the graph before and after it (pure): new and removed sources, new
evidence, supersessions, new and resolved conflicts, observed under the time rules of timefacts.py."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from openresearch.condition_conflicts import condition_groups, exceeded_groups, qualified_groups, together
from openresearch.conflicts import ObservedValue, conflict_groups
from openresearch.implied_conflicts import implied_groups
from openresearch.models import ConflictGroup
from openresearch.monitor.models import ConflictItem, SourceItem, ValueChange
from openresearch.monitor.timefacts import OWN_ROLES, Supersession, TimedObservation, current_as_of, timed
from openresearch.numbers import number_text, written_with_unit

Row = Mapping[str, Any]


@dataclass
class Snapshot:
    sources: dict[str, SourceItem] = field(default_factory=dict)
    evidence: set[str] = field(default_factory=set)
    evidence_of: dict[str, set[str]] = field(default_factory=dict)  # source id -> its evidence ids
    hash_of: dict[str, str | None] = field(default_factory=dict)  # source id -> its stored text's hash

    @classmethod
    def from_rows(cls, rows: Iterable[Row]) -> Snapshot:
        snap = cls()
        for r in rows:
            snap.sources[r["id"]] = SourceItem(id=r["id"], url=r.get("url") or "", title=r.get("title"),
                                               published_at=r.get("published_at"))
            ids = {e for e in r.get("evidence") or [] if e}
            snap.evidence.update(ids)
            snap.evidence_of[r["id"]] = ids
            snap.hash_of[r["id"]] = r.get("content_hash")
        return snap


def timed_observations(rows: Iterable[Row]) -> list[TimedObservation]:
    """One per observation: the earliest source date and learned time over its evidence rows."""
    merged: dict[str, dict[str, Any]] = {}
    for r in rows:
        m = merged.setdefault(r["id"], dict(r))
        for k in ("published_at", "learned_at"):
            if r.get(k) is not None and (m.get(k) is None or r[k] < m[k]):
                m[k] = r[k]
    return [timed(m) for m in merged.values()]


def with_supersessions(rows: Sequence[Row], items: Sequence[Supersession], released: Iterable[str] = ()
                       ) -> list[Row]:
    """`rows` as `MonitorStore.observation_rows()` reads them once `MonitorStore.write_supersessions(items,
    released=released)` has run: the old side of each supersession points at its successor, a released one at
    nothing (the only field of a row the write sets), so the pass's result needs no second read of the graph."""
    successor: dict[str, str | None] = {**{o: None for o in released}, **{s.old: s.new for s in items}}
    return [{**r, "superseded_by": successor[r["id"]]} if r["id"] in successor else r for r in rows]


def changed_entities(before: Iterable[Row], after: Iterable[Row]) -> set[str]:
    """Entity ids whose observation rows differ between two reads. Conflict groups are keyed by entity first
    (conflicts.py, condition_conflicts.py), so an entity whose rows are all the same has the same groups: only
    the others can hold a new or a resolved conflict."""
    def by_entity(rows: Iterable[Row]) -> dict[str, set[tuple[tuple[str, Any], ...]]]:
        out: dict[str, set[tuple[tuple[str, Any], ...]]] = {}
        for r in rows:
            out.setdefault(str(r["entity_id"]), set()).add(tuple(sorted((k, _hashable(v)) for k, v in r.items())))
        return out
    a, b = by_entity(before), by_entity(after)
    return {e for e in a.keys() | b.keys() if a.get(e) != b.get(e)}


def _hashable(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


def _ms_date(ms: int | None) -> Any:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC).date()


def observed(r: Row) -> ObservedValue:
    return ObservedValue(
        entity_id=r["entity_id"], entity=r.get("entity") or "", metric=r["metric"], unit=r.get("unit") or "",
        condition=r.get("condition") or "", condition_key=r.get("condition_key") or "", value=float(r["value"]),
        raw_value=str(r.get("raw_value") or ""), raw_unit=r.get("raw_unit") or "", evidence_id=r["evidence_id"],
        quote=r.get("quote") or "", source_id=r["source_id"], url=r.get("url") or "", domain=r.get("domain") or "",
        title=r.get("title"), published=_ms_date(r.get("published_at")),
        trust=float(r["trust"]) if r.get("trust") is not None else 0.5)


def conflicts_as_of(rows: Sequence[Row], as_of_ms: int | None, tolerance: float) -> list[ConflictGroup]:
    """Conflict groups among the values current at `as_of_ms` (None: now): superseded values never conflict
    with their successors; values of the same time that disagree do."""
    keep = current_as_of(timed_observations(rows), as_of_ms)
    # a figure a source only reports from someone else, or a setting of a measurement, is no side of a conflict
    current = [observed(r) for r in rows if r["id"] in keep and (r.get("role") or "own") in OWN_ROLES]
    return together(conflict_groups(current, tolerance), condition_groups(current), qualified_groups(current),
                    exceeded_groups(current), implied_groups(current))


def values_as_of(rows: Sequence[Row], as_of_ms: int | None) -> list[Row]:
    """The observation rows current at `as_of_ms` (None: now)."""
    keep = current_as_of(timed_observations(rows), as_of_ms)
    return [r for r in rows if r["id"] in keep]


def superseded_keys(rows: Iterable[Row]) -> set[tuple[str, str]]:
    """(evidence id, observation key) of every superseded observation, from `MonitorStore.observation_rows()`:
    the set `drop_superseded` takes."""
    return {(str(r["evidence_id"]), str(r["key"])) for r in rows if r.get("superseded_by")}


def drop_superseded(values: Iterable[ObservedValue], superseded: set[tuple[str, str]]) -> list[ObservedValue]:
    """The filter conflict grouping should apply so superseded values are not shown as conflicts:
    `superseded` holds (evidence id, entity id + '|' + metric + '|' + unit) of superseded observations."""
    return [v for v in values if (v.evidence_id, f"{v.entity_id}|{v.metric}|{v.unit}") not in superseded]


def conflict_item(g: ConflictGroup) -> ConflictItem:
    return ConflictItem(id=g.id, entity=g.entity, metric=g.metric, unit=g.unit, condition=g.condition,
                        values=[v.raw_values[0] if v.raw_values else f"{v.value:g}" for v in g.values],
                        evidence_ids=[list(v.evidence_ids) for v in g.values])


def value_changes(items: Sequence[Supersession], rows: Sequence[Row]) -> list[ValueChange]:
    """The supersessions with the values, evidence and dates on both sides (for the digest)."""
    by_id: dict[str, Row] = {}
    for r in rows:
        by_id.setdefault(r["id"], r)
    dates = {o.id: o.valid_ms for o in timed_observations(rows)}
    out: list[ValueChange] = []
    for s in items:
        old, new = by_id.get(s.old), by_id.get(s.new)
        if old is None or new is None:
            continue
        out.append(ValueChange(
            entity=old.get("entity") or "", metric=old["metric"], unit=old.get("unit") or "",
            condition=old.get("condition") or "", old_observation=s.old, old_value=raw_value(old),
            old_evidence=old["evidence_id"], old_date=dates.get(s.old), new_observation=s.new, new_value=raw_value(new),
            new_evidence=new["evidence_id"], new_date=dates.get(s.new), late=s.late))
    return out


def raw_value(r: Row) -> str:
    """A value as its source writes it, with its unit when the written form lacks one: "October 2028" (not "October
    2028 year"), "six months" (not "six months months"), "605 MB/s"."""
    written, value = r.get("raw_value"), r.get("value")
    raw = str(written).strip() if written else number_text(value) if isinstance(value, int | float) else str(value)
    return written_with_unit(raw, str(r.get("raw_unit") or ""))
