"""Facts that know their time: supersession and "as of" reads, decided by observation keys and dates only.

An observation's key is entity + canonical metric + unit family (`Observation.key`) and its condition key
the normalised condition; its *valid time* is the date it describes (`as_of`: a version's release or an
"as of" date) or else its source's publication date. Within one key + condition, every observation whose
valid time is older than another's is superseded by the observations of the next later time; the old one is
kept and marked. Observations of the same time are never superseded by each other: if they disagree that is
a conflict. Undated observations are never superseded (nothing says when they held). No text similarity.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TimedObservation:
    id: str
    key: str
    condition_key: str
    valid_ms: int | None  # when it was true
    learned_ms: int  # when the graph learned it
    superseded_by: str | None = None


@dataclass(frozen=True)
class Supersession:
    old: str
    new: str
    at_ms: int  # the successor's valid time: when the old value stopped being current
    late: bool  # the old value was learned after its successor (a late value describing an earlier time)


def timed(row: Mapping[str, Any]) -> TimedObservation:
    valid = row.get("as_of") if row.get("as_of") is not None else row.get("published_at")
    return TimedObservation(id=str(row["id"]), key=str(row["key"]), condition_key=str(row.get("condition_key") or ""),
                            valid_ms=None if valid is None else int(valid),
                            learned_ms=int(row.get("learned_at") or 0), superseded_by=row.get("superseded_by"))


def _groups(obs: Iterable[TimedObservation]) -> dict[tuple[str, str], list[TimedObservation]]:
    groups: dict[tuple[str, str], list[TimedObservation]] = defaultdict(list)
    for o in obs:
        groups[(o.key, o.condition_key)].append(o)
    return groups


def plan_supersessions(obs: Iterable[TimedObservation]) -> list[Supersession]:
    """Every supersession the dates imply (one per superseded observation: its successor is the lowest id of
    the next later time), whether or not it is stored yet."""
    out: list[Supersession] = []
    for members in _groups(obs).values():
        dated = sorted((o for o in members if o.valid_ms is not None), key=lambda o: (o.valid_ms, o.id))
        times = sorted({o.valid_ms for o in dated if o.valid_ms is not None})
        for o in dated:
            later = [t for t in times if o.valid_ms is not None and t > o.valid_ms]
            if not later:
                continue
            succ = min((s for s in dated if s.valid_ms == later[0]), key=lambda s: s.id)
            out.append(Supersession(o.id, succ.id, later[0], late=o.learned_ms > succ.learned_ms))
    return sorted(out, key=lambda s: s.old)


def changes(obs: Iterable[TimedObservation]) -> list[Supersession]:
    """The supersessions not yet stored as they should be (what the pass writes; empty on a re-run)."""
    items = list(obs)
    current = {o.id: o.superseded_by for o in items}
    return [s for s in plan_supersessions(items) if current.get(s.old) != s.new]


def current_as_of(obs: Iterable[TimedObservation], as_of_ms: int | None) -> set[str]:
    """The ids of the observations that were current at `as_of_ms` (None: now): per key + condition, those of
    the latest valid time not after it, plus the undated ones."""
    keep: set[str] = set()
    for members in _groups(obs).values():
        dated = [o for o in members if o.valid_ms is not None
                 and (as_of_ms is None or o.valid_ms <= as_of_ms)]
        keep.update(o.id for o in members if o.valid_ms is None)
        if dated:
            latest = max(o.valid_ms for o in dated if o.valid_ms is not None)
            keep.update(o.id for o in dated if o.valid_ms == latest)
    return keep
