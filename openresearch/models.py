"""Domain types passed between stages. No I/O library is imported here."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

EvidenceType = Literal["statistic", "comparison", "background", "risk", "claim"]
SourceKind = Literal["web", "academic", "internal", "docs", "blog", "news", "paper", "pdf", "local"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


# --- the evidence exchange format (evidence import / export) --------------------------------------

class SourceRef(_Strict):
    url: str = Field(min_length=1)
    title: str | None = None
    published_at: date | None = None
    kind: SourceKind = "web"
    trust: float | None = Field(default=None, ge=0.0, le=1.0)


class ObservationIn(_Strict):
    entity: str = Field(min_length=1)
    metric: str = Field(min_length=1)
    value: int | float | str
    unit: str | None = None
    condition: str | None = None
    as_of: date | None = None

    @field_validator("value")
    @classmethod
    def _not_bool(cls, v: int | float | str) -> int | float | str:
        if isinstance(v, str) and not v.strip():
            raise ValueError("value is empty")
        return v


class EvidenceRecord(_Strict):
    """One line of an evidence JSONL file; also what the extractor hands to the graph."""

    source: SourceRef
    quote: str = Field(min_length=1)
    type: EvidenceType = "claim"
    entities: list[str] = Field(default_factory=list)
    observations: list[ObservationIn] = Field(default_factory=list)
    question: str | None = None
    summary: str | None = None
    start: int | None = Field(default=None, ge=0)
    end: int | None = Field(default=None, ge=0)
    id: str | None = None  # written by export; recomputed and checked on import

    @field_validator("end")
    @classmethod
    def _end_after_start(cls, v: int | None, info: object) -> int | None:
        data = getattr(info, "data", {})
        start = data.get("start")
        if v is not None and start is not None and v <= start:
            raise ValueError("end must be greater than start")
        return v


# --- read models ----------------------------------------------------------------------------------

class ObservationView(BaseModel):
    id: str
    entity: str
    metric: str
    value: float
    unit: str
    raw_value: str
    raw_unit: str
    condition: str


class SourceView(BaseModel):
    id: str
    url: str
    title: str | None = None
    kind: str | None = None
    published_at: date | None = None
    fetched_at: datetime | None = None
    trust: float = 0.5


class EvidenceView(BaseModel):
    id: str
    quote: str
    type: str
    start: int | None = None
    end: int | None = None
    summary: str | None = None
    source: SourceView
    entities: list[str] = Field(default_factory=list)
    observations: list[ObservationView] = Field(default_factory=list)
    questions: list[str] = Field(default_factory=list)
    score: float = 0.0


class ConflictSide(BaseModel):
    evidence_id: str
    source_id: str
    source_url: str
    value: float
    raw_value: str
    unit: str
    condition: str
    quote: str


class Conflict(BaseModel):
    entity: str
    metric: str
    unit: str
    a: ConflictSide
    b: ConflictSide
    relative_difference: float


class ComparisonCell(BaseModel):
    values: list[float]
    unit: str
    evidence_ids: list[str]
    conditions: list[str]

    @property
    def low(self) -> float:
        return min(self.values)

    @property
    def high(self) -> float:
        return max(self.values)


class Comparison(BaseModel):
    entities: list[str]
    metrics: list[str]
    cells: dict[str, dict[str, ComparisonCell]]  # metric -> entity -> cell
    missing: list[str] = Field(default_factory=list, description="entities not found in the graph")


class Provenance(BaseModel):
    evidence: EvidenceView
    runs: list[str] = Field(default_factory=list)
    extracted_at: datetime | None = None


class ImportReport(BaseModel):
    lines: int = 0
    imported: int = 0
    skipped: int = 0
    errors: list[str] = Field(default_factory=list)
    batches: int = 0
