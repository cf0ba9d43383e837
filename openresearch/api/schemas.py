"""Response and request bodies of the API. Domain models (models.py, graph/judgements.py) are reused as they
are where they already say what a client needs; these add what the API shows on top of them."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from openresearch.graph.judgements import Feedback, Resolution
from openresearch.models import Comparison, ConflictGroup, Provenance

ConflictStatus = Literal["open", "resolved"]


class Health(BaseModel):
    status: Literal["ok"] = "ok"


class Ready(BaseModel):
    status: Literal["ready"] = "ready"
    graph: str = Field(description="The graph backend the API reads (dialect).")


class EntitySummary(BaseModel):
    id: str
    name: str
    type: str | None = None
    aliases: list[str] = Field(default_factory=list)
    evidence: int = Field(default=0, description="Evidence items that mention it.")


class EntityObservation(BaseModel):
    id: str
    metric: str
    value: float
    unit: str
    raw_value: str = ""
    raw_unit: str = ""
    condition: str = ""
    evidence_id: str


class EntitySource(BaseModel):
    id: str
    url: str
    title: str | None = None
    kind: str | None = None
    published_at: date | None = None
    trust: float = 0.5


class EntityDetail(BaseModel):
    id: str
    name: str
    type: str | None = None
    aliases: list[str] = Field(default_factory=list)
    observations: list[EntityObservation] = Field(default_factory=list)
    sources: list[EntitySource] = Field(default_factory=list)


class EvidenceDetail(Provenance):
    """Provenance of an evidence item (quote, offsets, source with fetch time, questions, runs) and the
    feedback people gave on it."""

    feedback: list[Feedback] = Field(default_factory=list)


class CellEvidence(BaseModel):
    id: str
    quote: str
    start: int | None = None
    end: int | None = None
    source_id: str
    url: str
    title: str | None = None
    trust: float = 0.5


class CompareOut(Comparison):
    """The metric × entity table; `evidence` holds the quote and source behind every id a cell cites."""

    evidence: dict[str, CellEvidence] = Field(default_factory=dict)


class ConflictOut(ConflictGroup):
    status: ConflictStatus = "open"
    resolution: Resolution | None = None


class GraphStats(BaseModel):
    nodes: dict[str, int]
    relations: dict[str, int]
