"""Observations of a benchmark output line (ingest/benchlines.py reads its structure): the label names what ran
(the entity among its words, the rest is the condition), each figure's unit says what it measures."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from openresearch.ingest.benchlines import figures, label_words
from openresearch.models import ObservationIn


def unit_metric(unit: str) -> str:
    """What a figure measures, from its unit alone: time per operation, throughput, memory per operation, ..."""
    u = unit.lower()
    if re.fullmatch(r"(?:ns|us|µs|ms|s)/(?:op|iter|call|hash|item)", u):
        return "time_per_op"
    if re.fullmatch(r"[kmgt]?i?b/s|[kmgt]?bps|ops/s|op/s|req/s|rps|qps|msg/s", u):
        return "throughput"
    if re.fullmatch(r"[kmgt]?i?b/op", u):
        return "memory_per_op"
    if u.startswith("alloc"):
        return "allocations_per_op"
    if u in ("%",):
        return "percentage"
    if "/" in u:
        return re.sub(r"[^a-z0-9]+", "_", u).strip("_")
    return ""


def line_observations(line: str, entity_of: Callable[[Sequence[str]], str | None]) -> list[ObservationIn] | None:
    """Observations of one benchmark line; `entity_of` picks the entity among the label's words (None: the line
    names none the caller knows, and it yields no observation). None when the line is no benchmark output."""
    read = figures(line)
    if read is None:
        return None
    label, found = read
    words = label_words(label)
    entity = entity_of(words)
    if entity is None:
        return []
    rest = [w for w in words if w.lower() not in ("benchmark", "bench", "test") and
            w.lower() not in entity.lower().replace("-", " ").split() and w.lower() not in entity.lower()]
    condition = " ".join(rest) or None
    out: list[ObservationIn] = []
    for f in found:
        metric = unit_metric(f.unit)
        if not metric:
            continue
        out.append(ObservationIn(entity=entity, metric=metric, value=f.raw, unit=f.unit, condition=condition))
    return out
