"""First-hand ranks first: a figure read from a data API's own record (Source.kind 'record') is preferred to a
second-hand restatement of the same entity + metric + period, and a restatement that disagrees with it is a
conflict shown with both (pure; the rows come from `first_hand_observations.cypher`).

A restatement meets a record's figure when it is about the same entity, names the same quantity (the same
metric key, or the same canonical quantity: the indicator "Population, total" and a blog's "population"), in a
compatible unit (the same one, or a plain count beside none), for the same period: its condition is the
period, its valid time falls in it, or the year its quote writes next to the value is the period's year.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from openresearch.agents.extract.metric_names import canonical_metric, unit_kind
from openresearch.conflicts import ObservedValue, apart, cluster_value, credibility_note, group_id
from openresearch.ingest.records.model import RECORD_KIND, first_hand_label, publisher_of
from openresearch.models import ConflictGroup, ConflictValue

_YEAR = re.compile(r"(?<![\d.,])((?:19|20)\d{2})(?![\d.,]\d)")


@dataclass(frozen=True)
class Observed:
    """One observation with what decides whether it is first-hand and for which period."""

    value: ObservedValue
    kind: str  # the source's kind: 'record' is first-hand
    as_of: date | None
    fetched: datetime | None


def label_of(ob: Observed) -> str:
    return first_hand_label(publisher_of(ob.value.title), ob.fetched)


def _quantity(metric: str) -> str:
    return canonical_metric(metric.replace("_", " ")) or metric


def same_quantity(first: str, other: str) -> bool:
    return first == other or _quantity(first) == _quantity(other)


def same_unit(a: str, b: str) -> bool:
    if a == b:
        return True
    plain = b if not a else a if not b else None  # a count beside a unit-less figure ("people" vs none)
    return plain is not None and plain.isalpha() and unit_kind(plain) is None


def _period_year(condition: str) -> str | None:
    m = _YEAR.search(condition)
    return m.group(1) if m else None


def year_beside_value(quote: str, raw_value: str) -> str | None:
    """The year written nearest to the value in its quote ('reached 198.6 million in 2022' -> 2022)."""
    number = raw_value.split()[0] if raw_value.strip() else ""
    at = quote.find(number) if number else -1
    years = [(m.start(), m.group(1)) for m in _YEAR.finditer(quote) if m.group(1) != number]
    if not years:
        return None
    if at < 0:
        return years[0][1] if len(years) == 1 else None
    return min(years, key=lambda y: abs(y[0] - at))[1]


def same_period(first: Observed, other: Observed) -> bool:
    f, o = first.value, other.value
    if f.condition_key == o.condition_key:
        return True
    year = _period_year(f.condition)
    if year is None:
        return not o.condition_key  # a current fact (stars today) meets an undated restatement
    if other.as_of is not None:
        return str(other.as_of.year) == year
    if o.condition_key and _period_year(o.condition) is not None:
        return _period_year(o.condition) == year
    return year_beside_value(o.quote, o.raw_value) == year


def _mark(value: ConflictValue, labels: Mapping[str, str]) -> ConflictValue:
    found = [labels[s] for s in value.source_ids if s in labels]
    return value.model_copy(update={"first_hand": found[0]}) if found else value


def first_hand_groups(rows: Sequence[Observed], tolerance: float) -> list[ConflictGroup]:
    """One group per first-hand figure that second-hand figures of the same entity, quantity and period
    contradict: the first-hand value first (labelled), then each other value, best supported first."""
    firsts = [r for r in rows if r.kind == RECORD_KIND]
    others = [r for r in rows if r.kind != RECORD_KIND]
    labels = {r.value.source_id: label_of(r) for r in firsts}
    out: dict[str, ConflictGroup] = {}
    for f in firsts:
        fv = f.value
        against = [o for o in others if o.value.entity_id == fv.entity_id and same_quantity(fv.metric, o.value.metric)
                   and same_unit(fv.unit, o.value.unit) and same_period(f, o)
                   and apart(fv.value, o.value.value, 0.0 if fv.unit in ("year", "date") else tolerance)]
        if not against:
            continue
        gid = group_id(fv.entity_id, fv.metric, fv.unit, fv.condition_key, ("first-hand",))
        head = _mark(cluster_value([fv]), labels)
        rest = [cluster_value([o.value]) for o in against]
        values = [head, *sorted(rest, key=lambda v: (-v.support, v.value))]
        out[gid] = ConflictGroup(
            id=gid, kind="value", entity=fv.entity, metric=fv.metric, unit=fv.unit, condition=fv.condition,
            values=values, relative_difference=round(max(abs(v.value - fv.value) for v in rest)
                                                     / max(abs(fv.value), 1e-12), 4),
            credibility=credibility_note(values))
    return list(out.values())


def prefer_first_hand(groups: Sequence[ConflictGroup], rows: Sequence[Observed],
                      tolerance: float) -> list[ConflictGroup]:
    """Every group with its first-hand values labelled and leading, and the first-hand groups the keyed query
    cannot see (a restatement with no condition against a record's period) added, each disagreement once."""
    labels = {r.value.source_id: label_of(r) for r in rows if r.kind == RECORD_KIND}
    out: list[ConflictGroup] = []
    for g in groups:
        values = [_mark(v, labels) for v in g.values]
        if any(v.first_hand for v in values) and g.kind == "value":
            values.sort(key=lambda v: v.first_hand is None)
            g = g.model_copy(update={"values": values, "credibility": credibility_note(values)})
        elif any(v.first_hand for v in values):
            g = g.model_copy(update={"values": values})
        out.append(g)
    covered = [set(g.evidence_ids) for g in out]
    for g in first_hand_groups(rows, tolerance):
        if not any(set(g.evidence_ids) <= seen for seen in covered):
            out.append(g)
    return out
