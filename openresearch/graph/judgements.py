"""People's judgements in the graph: feedback on evidence or sources, and resolutions of conflict groups.

Both are nodes with who and when (`Feedback`, `Resolution`), linked ON what they judge. A dispute lowers the
trust of the source it weighs on, which evidence ranking (ranking.py) and conflict credibility (conflicts.py)
read; the trust is recomputed from the source's base trust and all of its feedback, so it never drifts.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from openresearch.errors import InputError, NotFound
from openresearch.graph.base_store import CatalogueStore
from openresearch.models import ConflictGroup

TargetKind = Literal["evidence", "source"]
FeedbackVerdict = Literal["accept", "dispute"]
Decision = Literal["value_correct", "both_hold", "not_conflict"]

# how much one dispute lowers trust: on the source itself, or on one of its evidence items
SOURCE_DISPUTE_STEP = 0.1
EVIDENCE_DISPUTE_STEP = 0.05
MIN_TRUST = 0.05


def _no_nul(text: str) -> str:
    """No graph backend can store a NUL character in a string (FalkorDB ends the query text there)."""
    if "\x00" in text:
        raise ValueError("a NUL character is not allowed")
    return text


class FeedbackIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    target: TargetKind = Field(description="What is judged: an evidence item or a source.")
    target_id: str = Field(min_length=1, max_length=200, description="E-… or S-… id.")
    verdict: FeedbackVerdict
    note: str = Field(default="", max_length=4000)
    author: str = Field(default="anonymous", min_length=1, max_length=200, description="Who gives the feedback.")

    @field_validator("target_id", "note", "author")
    @classmethod
    def _text(cls, v: str) -> str:
        return _no_nul(v)


class Feedback(BaseModel):
    id: str
    target: TargetKind
    target_id: str
    source_id: str
    verdict: FeedbackVerdict
    note: str = ""
    author: str
    created_at: int  # epoch ms
    source_trust: float | None = None  # the source's trust after this feedback (when just recorded)


class _ResolutionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    note: str = Field(default="", max_length=4000)
    author: str = Field(default="anonymous", min_length=1, max_length=200)

    @field_validator("note", "author")
    @classmethod
    def _text(cls, v: str) -> str:
        return _no_nul(v)


class ValueCorrect(_ResolutionBody):
    """One of the group's values is right."""

    decision: Literal["value_correct"]
    value: float = Field(allow_inf_nan=False, description="The value held right (one of the group's values).")


class NoValue(_ResolutionBody):
    """both_hold: the values hold under different conditions; not_conflict: not the same quantity."""

    decision: Literal["both_hold", "not_conflict"]

    @property
    def value(self) -> None:
        return None


ResolutionIn = Annotated[ValueCorrect | NoValue, Field(discriminator="decision")]
RESOLUTION_IN: TypeAdapter[ValueCorrect | NoValue] = TypeAdapter(ResolutionIn)


class Resolution(BaseModel):
    id: str
    conflict_id: str
    entity: str
    metric: str
    unit: str
    condition: str = ""
    decision: Decision
    value: float | None = None
    note: str = ""
    author: str
    created_at: int  # epoch ms
    values: list[float] = Field(default_factory=list, description="the group's values when it was resolved")
    stale: bool = Field(default=False, description="the group's values changed since: the resolution needs review")


ConflictStatus = Literal["open", "resolved", "stale"]


def values_changed(group: ConflictGroup, res: Resolution) -> bool:
    """Whether the group's values are no longer those it was resolved with (pure). A resolution stored before
    the values were kept with it is taken as given for the values shown."""
    if not res.values:
        return False
    now = sorted(v.value for v in group.values)
    then = sorted(res.values)
    return len(now) != len(then) or any(abs(a - b) > 1e-9 * max(abs(a), abs(b), 1.0) for a, b in zip(now, then,
                                                                                                        strict=True))


def with_status(group: ConflictGroup, res: Resolution | None) -> tuple[ConflictStatus, Resolution | None]:
    """A group's status and its latest resolution, marked stale when the group's values changed since: the group
    is in view again (status "stale") with the resolution it had, until someone resolves it again."""
    if res is None:
        return "open", None
    if values_changed(group, res):
        return "stale", res.model_copy(update={"stale": True})
    return "resolved", res


def status_matches(status: str, wanted: str) -> bool:
    """The status filter: "open" lists what needs a person (never resolved, or stale), "resolved" what is
    resolved for the values shown, "stale" the resolutions to review, "all" everything."""
    return wanted == "all" or status == wanted or (wanted == "open" and status == "stale")


def trust_after(base: float, source_disputes: int, source_accepts: int, evidence_disputes: int,
                evidence_accepts: int) -> float:
    """A source's trust from its base trust and the feedback on it. Pure.

    Each dispute lowers it (a dispute of the source more than one of its evidence items); accepts cancel
    disputes one for one but never raise trust above what ingest gave the source."""
    penalty = (SOURCE_DISPUTE_STEP * (source_disputes - min(source_disputes, source_accepts))
               + EVIDENCE_DISPUTE_STEP * (evidence_disputes - min(evidence_disputes, evidence_accepts)))
    return round(max(MIN_TRUST, min(base, base - penalty)), 4)


def matching_value(group: ConflictGroup, value: float) -> float | None:
    """The group's value that `value` names (within 0.1%), or None. Pure."""
    for v in group.values:
        if abs(v.value - value) <= 1e-3 * max(abs(v.value), abs(value), 1e-12):
            return v.value
    return None


def _now() -> int:
    return int(time.time() * 1000)


def record_feedback(store: CatalogueStore, fb: FeedbackIn, now: int | None = None) -> Feedback:
    """Store feedback and recompute the trust of the source it weighs on; NotFound for an unknown target."""
    if fb.target == "evidence":
        rows = store._read("api_evidence_source", id=fb.target_id)
    else:
        rows = store._read("api_source_exists", id=fb.target_id)
    if not rows:
        raise NotFound(f"no {fb.target} with id {fb.target_id}")
    source_id = str(rows[0]["source_id"])
    created = _now() if now is None else now
    fid = f"F-{uuid.uuid4().hex[:16]}"
    store._write("api_create_feedback", id=fid, target_kind=fb.target, target_id=fb.target_id,
                 source_id=source_id, verdict=fb.verdict, note=fb.note, author=fb.author, created_at=created)
    c = store._read("api_source_feedback", source_id=source_id)[0]
    trust = trust_after(float(c["base_trust"]), int(c["source_disputes"]), int(c["source_accepts"]),
                        int(c["evidence_disputes"]), int(c["evidence_accepts"]))
    store._write("api_set_source_trust", source_id=source_id, trust=trust)
    return Feedback(id=fid, target=fb.target, target_id=fb.target_id, source_id=source_id, verdict=fb.verdict,
                    note=fb.note, author=fb.author, created_at=created, source_trust=trust)


def feedback_on(store: CatalogueStore, ids: list[str]) -> list[Feedback]:
    """Feedback given on these evidence or source ids, oldest first."""
    if not ids:
        return []
    return [Feedback(id=r["id"], target=r["target_kind"], target_id=r["target_id"], source_id=r["source_id"],
                     verdict=r["verdict"], note=r.get("note") or "", author=r.get("author") or "anonymous",
                     created_at=int(r.get("created_at") or 0))
            for r in store._read("api_feedback_for_targets", ids=ids)]


def resolution_id(conflict_id: str, res: ValueCorrect | NoValue, created_at: int) -> str:
    digest = hashlib.sha256(f"{conflict_id}|{res.decision}|{res.value}|{res.author}|{created_at}|{res.note}"
                            .encode()).hexdigest()
    return f"X-{digest[:16]}"


def record_resolution(store: CatalogueStore, group: ConflictGroup, res: ValueCorrect | NoValue,
                      now: int | None = None) -> Resolution:
    """Store a resolution of `group`; InputError when `value` is not one of the group's values."""
    value = None
    if res.value is not None and group.kind == "condition":
        raise InputError(f"conflict {group.id} disputes the set-up of one figure ({group.condition}), not a value: "
                         "resolve it without a value")
    if res.value is not None:
        value = matching_value(group, res.value)
        if value is None:
            raise InputError(f"{res.value:g} is not one of the values of conflict {group.id}: "
                             + ", ".join(f"{v.value:g}" for v in group.values))
    created = _now() if now is None else now
    rid = resolution_id(group.id, res, created)
    evidence_ids = sorted({e for v in group.values for e in v.evidence_ids})
    store._write("api_create_resolution", id=rid, conflict_id=group.id, entity=group.entity, metric=group.metric,
                 unit=group.unit, condition=group.condition, decision=res.decision, value=value, note=res.note,
                 author=res.author, created_at=created, evidence_ids=evidence_ids,
                 values=sorted(v.value for v in group.values))
    return Resolution(id=rid, conflict_id=group.id, entity=group.entity, metric=group.metric, unit=group.unit,
                      condition=group.condition, decision=res.decision, value=value, note=res.note,
                      author=res.author, created_at=created, values=sorted(v.value for v in group.values))


def resolutions(store: CatalogueStore, conflict_ids: list[str] | None = None) -> dict[str, Resolution]:
    """The latest resolution of each conflict group (of these ids, or all), by conflict id."""
    if conflict_ids is not None and not conflict_ids:
        return {}
    out: dict[str, Resolution] = {}
    for r in store._read("api_resolutions", conflict_ids=conflict_ids):
        out[r["conflict_id"]] = Resolution(
            id=r["id"], conflict_id=r["conflict_id"], entity=r.get("entity") or "", metric=r.get("metric") or "",
            unit=r.get("unit") or "", condition=r.get("condition") or "", decision=r["decision"],
            value=r.get("value"), note=r.get("note") or "", author=r.get("author") or "anonymous",
            created_at=int(r.get("created_at") or 0), values=[float(x) for x in r.get("values") or []])
    return out
