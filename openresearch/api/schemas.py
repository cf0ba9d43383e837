"""Response and request bodies of the API. Domain models (models.py, graph/judgements.py) are reused as they
are where they already say what a client needs; these add what the API shows on top of them."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from openresearch.graph.judgements import ConflictStatus, Feedback, Resolution
from openresearch.models import Comparison, ConflictGroup, Provenance, Style


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
    # "stale": resolved, but the group's values changed since (the resolution needs review)
    status: ConflictStatus = "open"
    resolution: Resolution | None = None


class GraphStats(BaseModel):
    nodes: dict[str, int]
    relations: dict[str, int]


class RunRequest(BaseModel):
    """What to research. Local sources must lie under a folder OPENRESEARCH_API_LOCAL_ROOTS allows."""

    model_config = ConfigDict(extra="forbid")
    question: str = Field(max_length=2000)
    sources: list[str] = Field(default_factory=lambda: ["web"], min_length=1, max_length=10,
                               description="web | arxiv | scholar | local:PATH")
    style: Style = "report"
    budget: int = Field(default=15, ge=3, le=40, description="Sum of sub-question depths.")
    max_sub_questions: int = Field(default=8, ge=1, le=12)
    language: Literal["auto", "en", "zh"] = "auto"
    offline: bool = Field(default=False, description="Deterministic methods only (no LLM).")
    workers: int = Field(default=2, ge=1, le=8, description="Sub-questions investigated in parallel.")

    # the question's and the sources' content is judged by the boundary (boundary.py), as at every door: 400


class RunAccepted(BaseModel):
    id: str
    status: str
    location: str
    events: str
    report: str


class RunSummary(BaseModel):
    id: str
    question: str
    status: str
    stage: str | None = None
    started_at: int | None = None  # epoch ms
    finished_at: int | None = None


class RunDetail(RunSummary):
    options: dict[str, Any] = Field(default_factory=dict)
    metrics: dict[str, Any] | None = None
    progress: dict[str, Any] = Field(default_factory=dict)
    sub_questions: list[str] = Field(default_factory=list)
    active: bool = Field(default=False, description="Queued or running in this server.")
    last_event: int = Field(default=0, description="Sequence number of its last event (SSE id).")
