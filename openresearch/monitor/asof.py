""""As of DATE" and "known on DATE" reads over the graph: the values current at a date (superseded ones on
request) and the conflicts among them, by the first clock (when a value held: `as_of`) as the graph holds them
now, or as it held them on a day (the second clock: when the graph recorded and retracted each value,
`known_on`). Superseded values and earlier versions of edited documents are kept; these reads decide by the
dates (timefacts.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

from openresearch.errors import InputError
from openresearch.graph.backend import Row
from openresearch.graph.monitor_store import MonitorStore
from openresearch.graph.store import GraphStore
from openresearch.models import Comparison, ConflictGroup
from openresearch.monitor.delta import conflicts_as_of, timed_observations, values_as_of
from openresearch.monitor.timefacts import plan_supersessions
from openresearch.numbers import normalise_metric


def parse_day(text: str | None, what: str = "--as-of") -> date | None:
    """An "as of" date written YYYY-MM-DD (None stays None); InputError for anything else."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError as e:
        raise InputError(f"{what} wants a date like 2026-02-01, not {text!r}") from e


def day_end_ms(d: date | None) -> int | None:
    """The end of a UTC day in epoch ms: "as of 2026-02-01" includes what was published that day."""
    if d is None:
        return None
    return int(datetime(d.year, d.month, d.day, tzinfo=UTC).timestamp() * 1000) + 86_400_000 - 1


def history(store: GraphStore, entity: str | None = None, metric: str | None = None) -> list[Row]:
    """Every observation row of one entity (or the whole graph; optionally one metric), kept earlier versions'
    too, with both clocks: what the reads below decide from."""
    if entity is not None:  # one entity's rows, read for it alone (not the whole graph's, then filtered)
        return store.dated_observations(_entity_ids(store, [entity]), metric)
    return MonitorStore(store).observation_history(normalise_metric(metric) if metric else None)


def held(rows: Sequence[Row], known_on_ms: int | None = None) -> list[Row]:
    """The rows a read decides from: what the graph holds now (by default) or held at `known_on_ms` (the second
    clock: recorded by then), in two kinds. Live: the current versions' observations (then: those not yet
    retracted; each marked superseded as the rule decides over what was live). History: an edited document's
    earlier versions (then: those retracted by then), each marked superseded (by its successor, else by its
    document) and valid only until its next version's date (`valid_until`); not the values of a deleted
    document."""
    timed = {o.id: o for o in timed_observations(rows)}
    live: list[Row] = []
    history: list[Row] = []
    for r in rows:
        o = timed[r["id"]]
        if known_on_ms is not None and o.learned_ms > known_on_ms:
            continue
        is_live = r.get("version_of") is None if known_on_ms is None else o.known_at(known_on_ms)
        if is_live:
            live.append({**r, "valid_until": None})
        elif r.get("version_of") is not None and r.get("document_kept", True):
            history.append({**r, "superseded_by": r.get("superseded_by") or r["version_of"]})
    if known_on_ms is not None:
        marks = {s.old: s.new for s in plan_supersessions(
            replace(o, superseded_by=None, until_ms=None) for o in timed_observations(live))}
        live = [{**r, "superseded_by": marks.get(r["id"])} for r in live]
    return live + history


def values(store: GraphStore, *, entity: str | None = None, metric: str | None = None, as_of: date | None = None,
           include_superseded: bool = False, known_on: date | None = None) -> list[Row]:
    """Observation rows (entity, metric, value, evidence, dates) current at `as_of` (default: now), as the graph
    holds them now or held them on `known_on`."""
    rows = held(history(store, entity, metric), day_end_ms(known_on))
    if include_superseded:
        return rows
    return [dict(r) for r in values_as_of(rows, day_end_ms(as_of))]


def conflicts(store: GraphStore, as_of: date | None = None, *, entity: str | None = None,
              metric: str | None = None, tolerance: float | None = None,
              known_on: date | None = None) -> list[ConflictGroup]:
    """Conflict groups among the values current at `as_of` (default: now, as the supersession pass stored them),
    as the graph holds them now or held them on `known_on`, for one entity and/or metric or the whole graph."""
    if as_of is None and known_on is None:
        return store.conflict_groups(entity, metric, tolerance=tolerance)
    rows = held(history(store, entity, metric), day_end_ms(known_on))
    return conflicts_as_of(rows, day_end_ms(as_of), store.tolerance if tolerance is None else tolerance)


def comparison(store: GraphStore, entities: list[str], metric: str | None = None, *, as_of: date | None = None,
               include_superseded: bool = False, known_on: date | None = None) -> Comparison:
    """The metric x entity table: of the current values (the default), of the values current at `as_of`, or of
    every value, superseded ones too (each cell says which, `ComparisonCell.superseded_by`); as the graph holds
    them now or held them on `known_on`."""
    if as_of is None and known_on is None and not include_superseded:
        return store.compare(entities, metric)
    resolved = store.resolve_entities(entities)
    rows = held(store.dated_observations([i for i in resolved.values() if i], metric), day_end_ms(known_on))
    at = day_end_ms(as_of)
    if at is None:  # every value, marked as the graph holds them (or held them), or only the current ones
        return store.comparison_of(entities, resolved, rows if include_superseded else values_as_of(rows, None))
    # the values that held by then (with superseded ones: every value known to hold by then), each marked
    # superseded only by a successor that held by then too
    valid = {o.id: o.valid_ms for o in timed_observations(rows)}
    kept = [r for r in rows if (valid.get(r["id"]) or 0) <= at] if include_superseded else values_as_of(rows, at)
    return store.comparison_of(entities, resolved,
                               [{**r, "superseded_by": _successor_by(r, valid, at)} for r in kept])


def _successor_by(row: Mapping[str, Any], valid: dict[str, int | None], at: int) -> str | None:
    """The observation that superseded this row's, if that successor already held at `at` (an earlier version's
    statement: once its next version's date is past)."""
    succ = row.get("superseded_by")
    if row.get("valid_until") is not None:
        return succ if int(row["valid_until"]) <= at else None
    when = valid.get(succ) if succ else None
    return succ if when is not None and when <= at else None


def _entity_ids(store: GraphStore, names: list[str]) -> list[str]:
    return sorted({i for i in store.resolve_entities(names).values() if i})
