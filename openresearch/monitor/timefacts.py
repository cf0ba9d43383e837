"""Facts that know their time: supersession and "as of" reads, decided by observation keys, lineage and dates.

An observation's key is entity + canonical metric + unit family (`Observation.key`) and its condition key
the normalised condition; its *valid time* is the date it describes (`as_of`: a version's release or an
"as of" date) or else its source's publication date; its *lineage* is who states it: the publisher (the
source's host) or, for a source without one (a local file), the document itself.

A value supersedes another only within one lineage: a new version of the same document, or the same
publisher's own later statement of the same key + condition. Within one lineage, every observation whose
valid time is older than another's is superseded by the observations of the next later time; the old one is
kept and marked. Two lineages that differ are a conflict whatever their dates (the newer one is credibility
information, not a replacement), and so are observations of the same time. A figure a source only reports
from someone else (role `reported`, `disputed`) or a setting of a measurement never supersedes anything and is
never superseded; undated observations are never superseded (nothing says when they held). No text
similarity.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# the roles that are a source's own statement of a value: only these take part in supersession
OWN_ROLES = frozenset({"own", "bound"})


@dataclass(frozen=True)
class TimedObservation:
    id: str
    key: str
    condition_key: str
    valid_ms: int | None  # when it was true
    learned_ms: int  # when the graph learned it (recorded)
    superseded_by: str | None = None
    lineage: str = ""  # who states it (`lineage_of`): values supersede each other only within one lineage
    role: str = "own"
    retracted_ms: int | None = None  # when the graph stopped holding it (its document edited or deleted)
    until_ms: int | None = None  # an earlier version's statement: its document's next version's date

    def known_at(self, ms: int) -> bool:
        """Whether the graph held it at `ms` (the second clock: recorded by then, not yet retracted)."""
        return self.learned_ms <= ms and (self.retracted_ms is None or self.retracted_ms > ms)

    @property
    def restatable(self) -> bool:
        """Whether it can supersede or be superseded: a dated statement of the source's own."""
        return self.valid_ms is not None and self.role in OWN_ROLES


@dataclass(frozen=True)
class Supersession:
    old: str
    new: str
    at_ms: int  # the successor's valid time: when the old value stopped being current
    late: bool  # the old value was learned after its successor (a late value describing an earlier time)


def publisher(domain: str | None) -> str:
    """The publisher a host stands for: the host without a leading `www.` (one site, one publisher)."""
    host = (domain or "").strip().lower().rstrip(".")
    return host[4:] if host.startswith("www.") else host


def lineage_of(row: Mapping[str, Any]) -> str:
    """Whose statement a row's value is: its publisher (the source's host) or, without one (a local file, an
    import without a URL), its document (the source, or the source a kept version belongs to)."""
    pub = publisher(row.get("domain"))
    if pub:
        return f"publisher:{pub}"
    return f"document:{row.get('version_of') or row.get('source_id') or row['id']}"


def timed(row: Mapping[str, Any]) -> TimedObservation:
    valid = row.get("as_of") if row.get("as_of") is not None else row.get("published_at")
    return TimedObservation(id=str(row["id"]), key=str(row["key"]), condition_key=str(row.get("condition_key") or ""),
                            valid_ms=None if valid is None else int(valid),
                            learned_ms=int(row.get("learned_at") or 0), superseded_by=row.get("superseded_by"),
                            lineage=lineage_of(row), role=str(row.get("role") or "own"),
                            retracted_ms=None if row.get("retracted_at") is None else int(row["retracted_at"]),
                            until_ms=None if row.get("valid_until") is None else int(row["valid_until"]))


def _groups(obs: Iterable[TimedObservation]) -> dict[tuple[str, str, str], list[TimedObservation]]:
    """The restatable observations by key + condition + lineage: the groups within which values supersede."""
    groups: dict[tuple[str, str, str], list[TimedObservation]] = defaultdict(list)
    for o in obs:
        if o.restatable:
            groups[(o.key, o.condition_key, o.lineage)].append(o)
    return groups


def plan_supersessions(obs: Iterable[TimedObservation]) -> list[Supersession]:
    """Every supersession the lineages and dates imply (one per superseded observation: its successor is the
    lowest id of its lineage's next later time), whether or not it is stored yet."""
    out: list[Supersession] = []
    for members in _groups(obs).values():
        dated = sorted(members, key=lambda o: (o.valid_ms, o.id))
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


def releases(obs: Iterable[TimedObservation]) -> list[str]:
    """The ids of observations stored as superseded that the rule no longer supersedes: their successor left
    with a deleted document (or was a value of another lineage, marked before supersession kept to lineages).
    What the pass clears: each is current again unless its own lineage has a later value."""
    items = list(obs)
    planned = {s.old for s in plan_supersessions(items)}
    return sorted(o.id for o in items if o.superseded_by and o.id not in planned)


def current_as_of(obs: Iterable[TimedObservation], as_of_ms: int | None) -> set[str]:
    """The ids of the observations that were current at `as_of_ms` (None: now): per key + condition + lineage,
    those of the latest valid time not after it; plus the undated ones and those no lineage restates (a
    figure reported from someone else) valid by then. What an edited document's earlier version stated is a
    candidate only before its next version's date (`until_ms`): never now, and never when the next version
    gives the same date (a correction)."""
    items = [o for o in obs if o.until_ms is None or (as_of_ms is not None and o.until_ms > as_of_ms)]
    keep = {o.id for o in items if not o.restatable
            and (as_of_ms is None or o.valid_ms is None or o.valid_ms <= as_of_ms)}
    for members in _groups(items).values():
        dated = [o for o in members if o.valid_ms is not None and (as_of_ms is None or o.valid_ms <= as_of_ms)]
        if dated:
            latest = max(o.valid_ms for o in dated if o.valid_ms is not None)
            keep.update(o.id for o in dated if o.valid_ms == latest)
    return keep
