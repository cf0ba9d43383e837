"""Disputed conditions: sources that give the same figure for an entity's metric but state a different set-up
for it ("904k rows/s ... with a low cardinality of 100 devices" against "high cardinality (>10 million) ...
904k rows/s"; "914k rows/s with twice as many threads as QuestDB" against "900k rows/s but four times as many
workers"). One of them misreports the measurement it quotes, which a value conflict cannot show: the values
agree. The pure core behind the condition groups of `GraphStore.conflict_groups`; no I/O.

A dispute needs the same figure (within `SAME_FIGURE`, tighter than the value tolerance: agreement is the
same number, rounded), from different sources, whose conditions both set a set-up dimension (threads,
hardware, cardinality, dataset) and differ in exactly that one of the dimensions both set: two figures whose
set-ups differ in several ways are more likely two experiments that happen to agree. A version, a date or a
census year is no dispute (a figure that stayed the same), nor a plan, scope or statistic (a product can
have the same limit in two plans).

The same observations show two more ways set-ups contradict figures, read here too: a figure one source
states flatly that another gives with the condition it changes under (`qualified_groups`), and a peak that
a figure under the same set-up exceeds (`exceeded_groups`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import combinations

from openresearch.agents.extract.observations import CHANGE_WORDS
from openresearch.conflicts import (
    EXACT_UNITS,
    GENERIC_METRICS,
    ObservedValue,
    apart,
    cluster,
    cluster_value,
    credibility_note,
    group_id,
    quote_qualifiers,
    support_rank,
    word_number,
)
from openresearch.models import ConflictGroup
from openresearch.numbers import condition_dimensions, written_parts

SAME_FIGURE = 0.02
SETUP_DIMENSIONS = ("threads", "hardware", "cardinality", "dataset")


Dimensions = dict[str, set[str]]


def disputed_dimension(da: Dimensions, db: Dimensions) -> str | None:
    """The one set-up dimension two conditions (`condition_dimensions`) both set and state differently, if that
    is their only difference among the dimensions both set."""
    differ = [d for d in da.keys() & db.keys() if da[d] != db[d]]
    return differ[0] if len(differ) == 1 and differ[0] in SETUP_DIMENSIONS else None


def _sides(obs: Sequence[tuple[ObservedValue, Dimensions]],
           dimension: str) -> dict[frozenset[str], list[ObservedValue]]:
    out: dict[frozenset[str], list[ObservedValue]] = {}
    for ob, dims in obs:
        if parts := dims.get(dimension):
            out.setdefault(frozenset(parts), []).append(ob)
    return out


def _groups_of(cluster_obs: list[ObservedValue], qualifiers: tuple[str, ...]) -> list[ConflictGroup]:
    """The disputes within one cluster of equal figures of one key."""
    obs = [(ob, condition_dimensions(ob.condition)) for ob in cluster_obs]  # read each condition once
    dims = sorted({d for (a, da), (b, db) in combinations(obs, 2)
                   if a.source_id != b.source_id and a.evidence_id != b.evidence_id
                   and (d := disputed_dimension(da, db))})
    out = []
    for dim in dims:
        sides = _sides(obs, dim)
        # a source stating two set-ups for one figure is describing two runs, not disputing its own
        owners: dict[str, set[frozenset[str]]] = {}
        for side, members in sides.items():
            for ob in members:
                owners.setdefault(ob.source_id, set()).add(side)
        kept = {side: members for side, members in sides.items()
                if not any(len(owners[ob.source_id]) > 1 for ob in members)}
        if len(kept) < 2 or len({ob.source_id for m in kept.values() for ob in m}) < 2:
            continue
        values = []
        for side in sorted(kept, key=sorted):
            members = kept[side]
            v = cluster_value(members)
            # what each side says about the disputed dimension, as its sources write it
            written = dict.fromkeys(p for ob in members for p in written_parts(ob.condition, dim))
            values.append(v.model_copy(update={"conditions": [", ".join(written)] if written else v.conditions}))
        values.sort(key=support_rank)
        first = cluster_obs[0]
        lo, hi = min(ob.value for ob in cluster_obs), max(ob.value for ob in cluster_obs)
        out.append(ConflictGroup(
            # one key can hold two disputed figures (904k and 640k rows/s, each under two cardinalities)
            id=group_id(first.entity_id, first.metric, first.unit, f"condition:{dim}:{lo:.3g}", qualifiers),
            kind="condition", entity=first.entity, metric=first.metric, unit=first.unit, condition=dim,
            values=values, relative_difference=round(abs(hi - lo) / (max(abs(hi), abs(lo)) or 1.0), 4),
            credibility=credibility_note(values)))
    return out


def condition_groups(observations: Iterable[ObservedValue]) -> list[ConflictGroup]:
    """Observations of any keys -> the disputed-condition groups among them (kind 'condition'), one per key,
    figure and dimension; each value of a group is one stated set-up, its `conditions` what it says about the
    dimension (the group's `condition`)."""
    keyed: dict[tuple[str, str, str, tuple[str, ...]], list[ObservedValue]] = {}
    for ob in observations:
        if ob.metric in GENERIC_METRICS or ob.unit in EXACT_UNITS or not ob.condition:
            continue
        keyed.setdefault((ob.entity_id, ob.metric, ob.unit, quote_qualifiers(ob)), []).append(ob)
    out: list[ConflictGroup] = []
    for (*_, qualifiers), obs in sorted(keyed.items()):
        for c in cluster([o.value for o in obs], SAME_FIGURE):
            if len(c) >= 2:
                out.extend(_groups_of([obs[i] for i in c], qualifiers))
    return sorted(out, key=lambda g: (g.entity, g.metric, g.condition, g.id))


# the last part of a condition that makes it a change of the figure stated without it ("vs TimescaleDB, if
# compression in TimescaleDB is properly configured": observations.py writes the clause after the claim's own)
_CHANGE_CLAUSE = re.compile(rf"^(?:{CHANGE_WORDS})", re.I)


def _split_clause(condition: str) -> tuple[str, str] | None:
    base, _, last = condition.rpartition(", ")
    return (base, last) if _CHANGE_CLAUSE.match(last) else None


def qualified_groups(observations: Iterable[ObservedValue], tolerance: float = SAME_FIGURE) -> list[ConflictGroup]:
    """A figure one source states flatly that another gives only with the condition under which it changes: the
    README's "70x more data points ... than TimescaleDB" against the FAQ's "up to 70x less storage space
    compared to TimescaleDB ... The gap ... can be decreased from 70x to 3x if compression in TimescaleDB is
    properly configured". One group per key and figure (kind "qualified"): the flat statement first, then the
    changed figure under its clause, from the qualifying source. A source that qualifies its own figure is not
    disputing it, and neither is a flat figure from the qualifying source itself."""
    obs = list(observations)
    by_key: dict[tuple[str, str, str], list[ObservedValue]] = {}
    for ob in obs:
        by_key.setdefault((ob.entity_id, ob.metric, ob.unit), []).append(ob)
    out: dict[str, ConflictGroup] = {}
    for key_obs in by_key.values():
        for changed in key_obs:
            split = _split_clause(changed.condition)
            if split is None:
                continue
            base, _clause = split
            # the figure the same quote gives without the clause: what changes
            stated = [o for o in key_obs if o.evidence_id == changed.evidence_id and o.condition == base
                      and apart(o.value, changed.value, tolerance)]
            for before in stated:
                flat = [o for o in key_obs if o.source_id != changed.source_id and o.condition == base
                        and not apart(o.value, before.value, 0.05)]
                if not flat:
                    continue
                claim = cluster_value(flat)
                # the qualifying quote, with the changed figure as its value (the figure it changes from is the
                # flat side's)
                qualified = cluster_value([before, changed]).model_copy(update={
                    "value": changed.value, "raw_values": [f"{changed.raw_value} {changed.raw_unit}".strip()],
                    "raw_unit": changed.raw_unit, "conditions": [changed.condition]})
                gid = group_id(changed.entity_id, changed.metric, changed.unit, f"qualified:{before.value:.3g}",
                               (base.casefold(),))
                out[gid] = ConflictGroup(
                    id=gid, kind="qualified", entity=changed.entity, metric=changed.metric, unit=changed.unit,
                    condition=base, values=[claim, qualified],
                    relative_difference=round(abs(before.value - changed.value) /
                                              (max(abs(before.value), abs(changed.value)) or 1.0), 4),
                    credibility=credibility_note([claim, qualified]))
    return sorted(out.values(), key=lambda g: (g.entity, g.metric, g.condition, g.id))


# a figure a quote states as the peak of what it measures ("peak ingestion throughput of 904k rows/sec", "we hit
# maximum ingestion throughput of 904k rows/sec"): nothing measured under the same set-up can be higher
_PEAK_BEFORE = re.compile(r"(?:\b(?:maximum|max\.?|peak|highest|top|best)\b|最高|峰值|最大)\s*(?:[\w/-]+\s+){0,3}?"
                          r"(?:of\s+|at\s+|was\s+|is\s+|reached\s+|为\s*|达到?\s*)?(?:about\s+|around\s+|约\s*)?$",
                          re.I)


def states_peak(ob: ObservedValue) -> bool:
    """Whether the observation's quote gives its figure as a peak or maximum (the words right before it)."""
    at = ob.quote.find(ob.raw_value) if ob.raw_value else -1
    return at >= 0 and bool(_PEAK_BEFORE.search(ob.quote[max(0, at - 60):at]))


def _counts(parts: set[str]) -> set[int]:
    out = set()
    for p in parts:
        for w in re.findall(r"\d+|[a-z]+(?:-[a-z]+)?", p.casefold()):
            n = int(w) if w.isdigit() else word_number(w)
            if n is not None:
                out.add(n)
    return out


def same_setup(da: Dimensions, db: Dimensions) -> bool:
    """Two conditions state the same set-up: at least one of threads and hardware is set by both, and every
    dimension set by both agrees (threads by their count: "four threads" is "4 threads"; the others, such as
    hardware, dataset or cardinality, by a part both write)."""
    if not any(d in da and d in db for d in ("threads", "hardware")):
        return False
    for d in da.keys() & db.keys():
        if d == "threads":
            if not _counts(da[d]) or _counts(da[d]) != _counts(db[d]):
                return False
        elif not da[d] & db[d]:
            return False
    return True


def exceeded_groups(observations: Iterable[ObservedValue], tolerance: float = SAME_FIGURE) -> list[ConflictGroup]:
    """A throughput one source gives as the peak under a set-up that another source exceeds under the same set-up:
    "peak ingestion throughput of 904k rows/sec ... using four threads on m5.8xlarge" against "QuestDB achieves
    959k rows/sec with 4 threads". One group per key and peak (kind "exceeded"): the peak first, then each higher
    figure stated under the same threads or hardware (and no other of those), from other sources."""
    by_key: dict[tuple[str, str, str], list[ObservedValue]] = {}
    for ob in observations:
        if ob.metric.endswith("throughput") and ob.unit not in EXACT_UNITS:
            by_key.setdefault((ob.entity_id, ob.metric, ob.unit), []).append(ob)
    out: dict[str, ConflictGroup] = {}
    for key_obs in by_key.values():
        dims = {id(o): condition_dimensions(o.condition) for o in key_obs}
        stated_peaks = {id(o) for o in key_obs if states_peak(o)}
        for peak in (o for o in key_obs if id(o) in stated_peaks):
            higher = [o for o in key_obs if o.source_id != peak.source_id and o.value > peak.value * (1 + tolerance)
                      and id(o) not in stated_peaks and same_setup(dims[id(peak)], dims[id(o)])]
            if not higher:
                continue
            peaks = [o for o in key_obs if (id(o) in stated_peaks and not apart(o.value, peak.value, tolerance)
                                            and same_setup(dims[id(peak)], dims[id(o)])) or o is peak]
            gid = group_id(peak.entity_id, peak.metric, peak.unit, f"exceeded:{peak.value:.3g}")
            if gid in out:
                continue
            above = [cluster_value([higher[i] for i in c]) for c in cluster([o.value for o in higher], tolerance)]
            values = [cluster_value(peaks), *sorted(above, key=lambda v: -v.value)]
            hi = max(v.value for v in values)
            out[gid] = ConflictGroup(
                id=gid, kind="exceeded", entity=peak.entity, metric=peak.metric, unit=peak.unit,
                condition=", ".join(dict.fromkeys(p for o in peaks for d in ("threads", "hardware")
                                                  for p in written_parts(o.condition, d))),
                values=values, relative_difference=round((hi - peak.value) / (hi or 1.0), 4),
                credibility=credibility_note(values))
    return sorted(out.values(), key=lambda g: (g.entity, g.metric, g.condition, g.id))


def together(*kinds: list[ConflictGroup]) -> list[ConflictGroup]:
    """Conflict groups of every kind in one list, in the order every reader shows them."""
    return sorted((g for groups in kinds for g in groups),
                  key=lambda g: (g.entity, g.metric, g.condition, g.kind, g.id))
