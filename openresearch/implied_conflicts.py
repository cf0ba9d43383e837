"""Relative claims that the sources' own per-unit figures contradict: "7x less storage space is required than
Prometheus" (a vendor's README) against "Prometheus stores an average of only 1-2 bytes per sample" and the
vendor's own sizing guide, "sample size requires less or around 1 byte": together those put the ratio at 1-2x,
not 7x. Neither figure disagrees with another of its kind, so neither value conflicts nor disputed conditions
show it; the graph holds both sides, and this reads them together. The pure core behind the "implied" groups
of `GraphStore.conflict_groups`; no I/O.

Only quantities measured per unit of work are compared (bytes per sample): those are meant to hold across
workloads, so two documents' figures can be set against each other. Totals (a benchmark's disk usage, its
memory, its throughput) depend on the run they came from, and a ratio from two runs' totals proves nothing.
Every figure of an entity counts: its range over all of them is the ratio's range, so a second figure makes a
dispute less likely, never more. A claim is contradicted only when it lies outside that range by more than
`MARGIN` (ratios are stated loosely: "up to 7x").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openresearch.agents.extract.observations import relative_baseline
from openresearch.conflicts import ObservedValue, cluster, cluster_value, core_name, group_id
from openresearch.identity import entity_key
from openresearch.models import ConflictGroup, ConflictValue

_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
MARGIN = 1.5  # a claimed ratio this many times outside the implied range contradicts it
SAME_CLAIM = 0.05  # claims of one key within this are one claim


@dataclass(frozen=True)
class PerUnit:
    figure: str  # the per-unit metric whose figures imply the ratio
    less: bool  # the claim says the entity needs less of it than the baseline ("7x less storage")


# a relative claim's metric -> the per-unit figures that imply it
CLAIMS: dict[str, PerUnit] = {
    "storage_reduction": PerUnit("bytes_per_sample", less=True),
    "storage_ratio": PerUnit("bytes_per_sample", less=False),
}
FIGURES = tuple(sorted({p.figure for p in CLAIMS.values()}))
METRICS = tuple(sorted({*CLAIMS, *FIGURES}))  # what the graph query reads


def _name_key(name: str) -> str:
    return entity_key(core_name(name))


def figure_range(ob: ObservedValue) -> tuple[float, float]:
    """The low and high ends of a figure in its canonical unit: "1-2 bytes" is 1 to 2, "1 byte" is 1 to 1."""
    written = [float(n.replace(",", "")) for n in _NUMBER.findall(ob.raw_value)]
    written = [n for n in written if n > 0]
    if not written or not ob.value:
        return ob.value, ob.value
    scale = ob.value / written[0]  # the canonical value is the first written number, converted
    ends = [n * scale for n in written[:2]]
    return min(ends), max(ends)


def implied_range(entity: Sequence[ObservedValue], baseline: Sequence[ObservedValue],
                  less: bool) -> tuple[float, float] | None:
    """The range of entity-vs-baseline ratios the two sides' figures allow (baseline / entity for a claim of
    "less"), or None when a side has no positive figure."""
    ends_e = [r for ob in entity for r in figure_range(ob) if r > 0]
    ends_b = [r for ob in baseline for r in figure_range(ob) if r > 0]
    if not ends_e or not ends_b:
        return None
    num, den = (ends_b, ends_e) if less else (ends_e, ends_b)
    return min(num) / max(den), max(num) / min(den)


def _implied_value(claim: ObservedValue, figures: list[ObservedValue], low: float, high: float) -> ConflictValue:
    """The side the figures take: the ratio they allow (its upper end as the value), with their evidence and
    sources, each figure written as its quote gives it with the entity it is about."""
    base = cluster_value(figures)
    by_evidence = {ob.evidence_id: ob for ob in figures}
    # one per evidence item, in the order of its evidence ids: "1-2 bytes per sample (Prometheus)"
    written = [f"{_as_quoted(ob)} ({ob.entity})" for ob in (by_evidence[e] for e in base.evidence_ids)]
    return base.model_copy(update={
        "value": round(high, 4), "unit": claim.unit, "raw_values": written, "raw_unit": "",
        "conditions": [f"implied ratio {_ratio(low, high)}"]})


def _as_quoted(ob: ObservedValue) -> str:
    """A figure as its quote writes it ("1 byte", "1-2 bytes per sample"), else as extracted."""
    m = re.search(re.escape(ob.raw_value) + r"\s?([A-Za-z\u4e00-\u9fff/]+(?: per [A-Za-z]+)?)", ob.quote) \
        if ob.raw_value else None
    return f"{ob.raw_value} {m.group(1)}" if m else f"{ob.raw_value} {ob.raw_unit}".strip()


def _ratio(low: float, high: float) -> str:
    return f"{high:.2g}" if abs(high - low) <= 0.05 * high else f"{low:.2g}-{high:.2g}"


def implied_groups(observations: Iterable[ObservedValue]) -> list[ConflictGroup]:
    """Observations of the claim and figure metrics (`METRICS`) -> one group per claim (entity, metric,
    baseline, figure) that the per-unit figures of both sides contradict, kind "implied": the claim first,
    then the figures with the ratio they allow."""
    claims: dict[tuple[str, str, str], list[ObservedValue]] = {}
    figures: dict[tuple[str, str], list[ObservedValue]] = {}
    for ob in observations:
        if ob.metric in CLAIMS and (baseline := relative_baseline(ob.condition)):
            claims.setdefault((ob.entity_id, ob.metric, _name_key(baseline)), []).append(ob)
        elif ob.metric in FIGURES:
            figures.setdefault((ob.metric, _name_key(ob.entity)), []).append(ob)
    out: list[ConflictGroup] = []
    for (entity_id, metric, baseline_key), obs in sorted(claims.items()):
        rule = CLAIMS[metric]
        own = figures.get((rule.figure, _name_key(obs[0].entity)), [])
        theirs = figures.get((rule.figure, baseline_key), [])
        allowed = implied_range(own, theirs, rule.less)
        if allowed is None or baseline_key == _name_key(obs[0].entity):
            continue
        low, high = allowed
        for c in cluster([o.value for o in obs], SAME_CLAIM):
            members = [obs[i] for i in c]
            claimed = cluster_value(members)
            if low / MARGIN <= claimed.value <= high * MARGIN:
                continue
            implied = _implied_value(members[0], [*theirs, *own], low, high)
            first = members[0]
            out.append(ConflictGroup(
                id=group_id(entity_id, metric, first.unit, f"implied:{baseline_key}:{claimed.value:.3g}"),
                kind="implied", entity=first.entity, metric=metric, unit=first.unit,
                condition=claimed.conditions[0] if claimed.conditions else "", values=[claimed, implied],
                relative_difference=round(abs(claimed.value - high) / (max(claimed.value, high) or 1.0), 4),
                credibility=_note(claimed, implied)))
    return sorted(out, key=lambda g: (g.entity, g.metric, g.condition, g.id))


def _note(claimed: ConflictValue, implied: ConflictValue) -> str:
    plural = "s" if claimed.sources != 1 else ""
    return (f"the claim is made by {claimed.sources} source{plural}; the ratio its per-unit figures allow is worked "
            f"out here from {implied.sources} source{'s' if implied.sources != 1 else ''}, not stated by any")


