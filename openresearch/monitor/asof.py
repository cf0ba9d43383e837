""""As of DATE" reads over the graph: the values current at a date (superseded ones on request) and the
conflicts among them. Superseded values are kept; these reads decide by the dates (timefacts.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from openresearch.graph.backend import Row
from openresearch.graph.monitor_store import MonitorStore
from openresearch.graph.store import GraphStore
from openresearch.identity import entity_key
from openresearch.models import ConflictGroup
from openresearch.monitor.delta import conflicts_as_of, values_as_of
from openresearch.numbers import normalise_metric


def day_end_ms(d: date | None) -> int | None:
    """The end of a UTC day in epoch ms: "as of 2026-02-01" includes what was published that day."""
    if d is None:
        return None
    return int(datetime(d.year, d.month, d.day, tzinfo=UTC).timestamp() * 1000) + 86_400_000 - 1


def values(store: GraphStore, *, entity: str | None = None, metric: str | None = None, as_of: date | None = None,
           include_superseded: bool = False) -> list[Row]:
    """Observation rows (entity, metric, value, evidence, dates) current at `as_of` (default: now)."""
    rows = MonitorStore(store).observation_rows()
    if entity is not None:
        key = entity_key(store.aliases.canonical(entity))
        ids = {i for i in store.resolve_entities([entity]).values() if i}
        rows = [r for r in rows if r["entity_id"] in ids or entity_key(r.get("entity") or "") == key]
    if metric is not None:
        m = normalise_metric(metric)
        rows = [r for r in rows if r["metric"] == m]
    if include_superseded:
        return rows
    return [dict(r) for r in values_as_of(rows, day_end_ms(as_of))]


def conflicts(store: GraphStore, as_of: date | None = None) -> list[ConflictGroup]:
    """Conflict groups among the values current at `as_of` (default: now)."""
    return conflicts_as_of(MonitorStore(store).observation_rows(), day_end_ms(as_of), store.tolerance)
