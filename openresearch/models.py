"""Domain types passed between stages. No I/O library is imported here."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

EvidenceType = Literal["statistic", "comparison", "background", "risk", "claim"]
# who stands behind a figure: the source's own finding, one it reports from someone else (and disputes), a bound
# ("up to", "more than", "about ... or more"), or a setting under which something else was measured
ObservationRole = Literal["own", "reported", "disputed", "bound", "setting"]
SourceKind = Literal["web", "academic", "internal", "docs", "blog", "news", "paper", "pdf", "local", "record"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


# --- the evidence exchange format (evidence import / export) --------------------------------------

class SourceRef(_Strict):
    url: str = Field(min_length=1)
    title: str | None = None
    published_at: date | None = None
    kind: SourceKind = "web"
    trust: float | None = Field(default=None, ge=0.0, le=1.0)
    # the id of the stored source this evidence was read from, when the run knows it (a local file's id comes
    # from its path while its url is the page it names); private, so no imported line can set it
    _stored_id: str | None = PrivateAttr(default=None)
    _id_scope: str | None = PrivateAttr(default=None)

    def from_stored(self, source_id: str, id_scope: str | None = None) -> SourceRef:
        self._stored_id = source_id
        self._id_scope = id_scope
        return self

    @property
    def stored_id(self) -> str | None:
        return self._stored_id

    @property
    def id_scope(self) -> str | None:
        """What this evidence's id is made from besides its offsets (`SourceDoc.id_scope`), when the run knows."""
        return self._id_scope


class ObservationIn(_Strict):
    entity: str = Field(min_length=1)
    metric: str = Field(min_length=1)
    value: int | float | str
    unit: str | None = None
    condition: str | None = None
    as_of: date | None = None
    role: ObservationRole = "own"

    @field_validator("value")
    @classmethod
    def _not_bool(cls, v: int | float | str) -> int | float | str:
        if isinstance(v, str) and not v.strip():
            raise ValueError("value is empty")
        return v

    @field_validator("condition")
    @classmethod
    def _once_each(cls, v: str | None) -> str | None:
        """A condition names each of its parts once ("Default, default" is "Default")."""
        if not v or ", " not in v:
            return v
        seen: dict[str, str] = {}
        for part in v.split(", "):
            seen.setdefault(part.strip().lower(), part)
        return ", ".join(seen.values())


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
    # how well the quote answers `question`, as the extractor scored it (kept on the ANSWERS relation, so a
    # question's evidence is read back best first); private, so no imported line can set it
    _answer_score: float | None = PrivateAttr(default=None)

    def scored(self, score: float | None) -> EvidenceRecord:
        self._answer_score = score
        return self

    @property
    def answer_score(self) -> float | None:
        return self._answer_score

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
    role: ObservationRole = "own"
    superseded_by: str | None = None  # the observation that superseded it (monitoring); None: current


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
    page: int | None = None  # for PDFs: the page the quote starts on (from the stored page offsets)


class ConflictValue(BaseModel):
    """One distinct value of a conflict group (values within tolerance are clustered into one), with all of
    its evidence and what the graph can tell about how well it is supported."""

    value: float  # canonical value (the one most of its evidence gives)
    unit: str  # canonical unit
    raw_values: list[str] = Field(default_factory=list,
                                  description="the values as extracted, each with its unit ('1.2 GB/s'), distinct")
    raw_unit: str = ""  # the unit of the first raw value
    evidence_ids: list[str] = Field(default_factory=list, description="one per source first, newest first")
    quotes: list[str] = Field(default_factory=list, description="the quote of each evidence id, same order")
    source_ids: list[str] = Field(default_factory=list)
    source_urls: list[str] = Field(default_factory=list)
    source_titles: list[str] = Field(default_factory=list)
    conditions: list[str] = Field(default_factory=list, description="the conditions as written, distinct")
    newest: date | None = None  # the newest publication date among its sources
    version: str | None = None  # the newest version its sources' titles or URLs name ('1.23'), if any
    sources: int = 0  # distinct sources
    domains: int = 0  # distinct origins (web domains; a local document is its own origin)
    primary: bool = False  # a source that is the entity's own (its domain or title names the entity)
    trust: float = 0.5  # mean Source.trust of its sources
    support: float = 0.0  # trust-weighted independent support: the order of `ConflictGroup.values`
    # a figure from a data API's own record: how it is labelled ("World Bank API, retrieved 2026-12-03"); such a
    # value leads its group whatever the support of the restatements
    first_hand: str | None = None


class ConflictGroup(BaseModel):
    """One disagreement: entity + metric (+ statistic kind and qualifiers) + unit family + condition, with
    every distinct value, best supported first."""

    id: str  # stable hash of the key
    # "value": the sources give different values under one condition; "condition": they give the same value
    # but state a different set-up for it (each value is one stated set-up, its `conditions` what it says);
    # "implied": a relative claim (its first value) that the per-unit figures the sources give for both sides
    # contradict (its second value: the ratio they allow, worked out from them, with their evidence);
    # "qualified": a figure one source states flatly (its first value) that another gives only with the
    # condition under which it changes (its second value: the changed figure, its condition that clause);
    # "exceeded": a throughput a source gives as the peak under a set-up (its first value) that other sources
    # exceed under the same threads or hardware (the values after it, highest first)
    kind: Literal["value", "condition", "implied", "qualified", "exceeded"] = "value"
    entity: str
    metric: str
    unit: str
    # as written (the group's observations share its normalised form); for kind "condition", the disputed
    # set-up dimension (threads, hardware, cardinality, dataset)
    condition: str = ""
    values: list[ConflictValue] = Field(min_length=2)
    relative_difference: float
    credibility: str = ""  # a plain-language note on which value is better supported

    @property
    def evidence_ids(self) -> list[str]:
        return [e for v in self.values for e in v.evidence_ids]

    def value_of(self, evidence_id: str) -> int | None:
        """The index of the value this evidence supports (None if it is not in the group)."""
        return next((i for i, v in enumerate(self.values) if evidence_id in v.evidence_ids), None)


class ComparisonCell(BaseModel):
    values: list[float]
    unit: str
    evidence_ids: list[str]
    conditions: list[str]
    roles: list[str] = Field(default_factory=list, description="per value: own, bound, reported, disputed")
    superseded_by: list[str | None] = Field(
        default_factory=list, description="per value: the observation that superseded it (None: current); "
                                          "superseded values appear only when asked for")
    first_hand: list[str | None] = Field(
        default_factory=list, description="per value: how a first-hand record's figure is labelled ('World Bank "
                                          "API, retrieved 2026-12-03'; None: a restatement); those lead the cell")

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
    missing: list[str] = Field(default_factory=list, description="entities asked for that the table has no value "
                               "for: not in the graph, or none of their values current (then)")


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


# --- research runs: Question -> Plan -> Source -> Evidence -> Draft -> Verdict -> Report ----------------

Role = Literal["background", "core", "comparison", "impact"]
SourceType = Literal["web", "academic", "internal"]
Style = Literal["brief", "report", "review"]
Label = Literal["SUPPORTS", "REFUTES", "NOT_ENOUGH_INFO"]


class SubQuestion(BaseModel):
    """One node of the plan's DAG. `id` is stable: `question_id(text)` from identity.py."""

    id: str
    text: str
    role: Role = "background"
    keywords: list[str] = Field(default_factory=list)
    entities: list[str] = Field(default_factory=list)
    aspects: list[str] = Field(default_factory=list)
    source_types: list[SourceType] = Field(default_factory=lambda: list[SourceType](["web"]))
    depth: int = Field(default=2, ge=1, le=5)
    depends_on: list[str] = Field(default_factory=list)
    queries: list[str] = Field(default_factory=list, description="2-4 focused search queries")


class Plan(BaseModel):
    question: str
    language: Literal["en", "zh"] = "en"
    kind: str = "overview"  # lookup | comparison | selection | how | why | overview | trend
    entities: list[str] = Field(default_factory=list)
    aspects: list[str] = Field(default_factory=list)
    attributes: list[str] = Field(default_factory=list)  # what the question asks for, in its own words
    metrics: list[str] = Field(default_factory=list)  # canonical metric keys of the attributes
    sub_questions: list[SubQuestion] = Field(default_factory=list)
    candidates_considered: int = 0  # size of the diverge round
    method: Literal["llm", "deterministic"] = "deterministic"


class SourceDoc(BaseModel):
    """A fetched or local source with the exact normalised text that quotes' offsets refer to."""

    id: str
    url: str
    title: str | None = None
    kind: str = "web"
    published_at: date | None = None
    fetched_at: datetime | None = None
    text: str
    content_hash: str
    trust: float = 0.5
    pages: list[tuple[int, int, int]] = Field(default_factory=list, description="(page_no, start, end)")
    version_scope: str | None = Field(default=None, description=(
        "for a source whose text changed since it was first stored: the scope its evidence ids take "
        "(source id @ content hash), so that evidence read in an earlier version, kept with that version, never "
        "shares an id with a quote of this one; None for a first version (ids from the source id, as always)"))

    @property
    def id_scope(self) -> str:
        return self.version_scope or self.id


class EvidenceItem(BaseModel):
    """An extractor's output: a verbatim span of `SourceDoc.text` at [start, end)."""

    id: str
    source_id: str
    source_url: str
    quote: str
    start: int
    end: int
    type: EvidenceType = "claim"
    summary: str | None = None
    entities: list[str] = Field(default_factory=list)
    observations: list[ObservationIn] = Field(default_factory=list)
    question_id: str
    score: float = 0.0


class ExtractionResult(BaseModel):
    items: list[EvidenceItem] = Field(default_factory=list)
    rejected: int = 0  # candidate quotes refused because they were not verbatim spans
    reasons: list[str] = Field(default_factory=list)


class Sentence(BaseModel):
    text: str  # includes its [E-…] markers
    citations: list[str] = Field(default_factory=list)
    key: bool = True  # key sentences must PASS for a report to be "verified"
    kind: Literal["claim", "conflict", "gap", "summary"] = "claim"


class DraftSection(BaseModel):
    question_id: str
    title: str
    role: Role = "background"
    sentences: list[Sentence] = Field(default_factory=list)
    limited: bool = False  # evidence limited: a cap tripped or too little was found
    disclosed_conflicts: list[str] = Field(default_factory=list, description="ids of conflict groups disclosed")


class Draft(BaseModel):
    title: str
    style: Style = "report"
    sections: list[DraftSection] = Field(default_factory=list)
    method: Literal["llm", "deterministic"] = "deterministic"


class SentenceVerdict(BaseModel):
    section: int
    index: int
    text: str
    verdict: Literal["PASS", "DOUBT", "FAIL"]
    reasons: list[str] = Field(default_factory=list)
    support: float = 0.0
    label: Label | None = None
    numbers_ok: bool = True


class Verification(BaseModel):
    verdicts: list[SentenceVerdict] = Field(default_factory=list)
    undisclosed_conflicts: list[str] = Field(default_factory=list)
    fully_verified: bool = False
    citation_coverage: float = 0.0
    phantom_citations: int = 0
    numeric_faithfulness: float = 1.0


class ClaimJudgement(BaseModel):
    label: Label
    score: float
