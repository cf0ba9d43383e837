"""Node types of the knowledge graph (DESIGN.md §3), as pydantic models.

These describe what is stored; the writer builds rows from them and `schema.py` derives the
constraints and indexes. Times are epoch milliseconds (portable across Neo4j and FalkorDB).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field


class Node(BaseModel):
    model_config = ConfigDict(extra="forbid")
    label: ClassVar[str]
    lookups: ClassVar[tuple[str, ...]] = ()
    id: str


class Run(Node):
    label: ClassVar[str] = "Run"
    lookups: ClassVar[tuple[str, ...]] = ("started_at",)
    question: str
    status: str = "running"
    stage: str = "plan"
    started_at: int = 0
    finished_at: int | None = None
    options: str = "{}"  # JSON: maps are not property values on either backend
    plan: str | None = None  # JSON of the Plan
    metrics: str | None = None  # JSON of the run metrics
    progress: str | None = None  # JSON of the counters a resumed run continues from (searches, reflect rounds)


class Question(Node):
    label: ClassVar[str] = "Question"
    lookups: ClassVar[tuple[str, ...]] = ("key",)
    text: str
    key: str = Field(description="normalised text, so the same question text finds its node")
    role: str = "background"
    depth: int = 1
    keywords: list[str] = Field(default_factory=list)


class Source(Node):
    label: ClassVar[str] = "Source"
    lookups: ClassVar[tuple[str, ...]] = ("url", "root", "content_hash")
    url: str
    domain: str = ""
    kind: str = "web"
    title: str | None = None
    published_at: int | None = None
    fetched_at: int | None = None
    content_hash: str | None = None
    trust: float = 0.5
    text: str | None = None
    headers: str | None = None  # JSON of the response headers that matter (content-type, etag, last-modified)
    pages: str | None = None  # JSON [[page_no, start, end], ...] for PDFs
    root: str | None = None  # the local document root it was indexed from
    # a source whose text changed: the scope of its current evidence ids (source id @ content hash)
    evidence_scope: str | None = None
    # a kept earlier version (S-…@hash): the source it is a version of, and when it was kept
    version_of: str | None = None
    archived_at: int | None = None


class Chunk(Node):
    label: ClassVar[str] = "Chunk"
    lookups: ClassVar[tuple[str, ...]] = ("source_id",)
    source_id: str
    text: str
    start: int
    end: int
    embedding: list[float] | None = None


class Evidence(Node):
    label: ClassVar[str] = "Evidence"
    quote: str
    start: int | None = None
    end: int | None = None
    summary: str | None = None
    type: str = "claim"
    source_id: str
    extracted_at: int = 0


class Entity(Node):
    label: ClassVar[str] = "Entity"
    lookups: ClassVar[tuple[str, ...]] = ("key",)
    name: str
    key: str
    type: str = "thing"
    aliases: list[str] = Field(default_factory=list)


class Observation(Node):
    label: ClassVar[str] = "Observation"
    lookups: ClassVar[tuple[str, ...]] = ("key",)
    entity_id: str
    metric: str
    value: float
    unit: str
    raw_value: str
    raw_unit: str = ""
    condition: str = ""
    condition_key: str = ""
    key: str = Field(description="entity_id|metric|unit: the conflict join key, index-backed")
    as_of: int | None = None  # the first clock: when it held (else its source's date)
    # the second clock (epoch ms, monitoring's clock): when the graph recorded it (else its evidence's
    # extracted_at) and when it stopped holding it (its document edited or deleted; else its version's archived_at)
    recorded_at: int | None = None
    retracted_at: int | None = None


class Report(Node):
    label: ClassVar[str] = "Report"
    run_id: str
    title: str
    created_at: int = 0
    markdown: str = ""
    verified: bool = False
    report_json: str | None = None  # the Report model as JSON: what report.json and the API's report route serve


class Section(Node):
    label: ClassVar[str] = "Section"
    title: str
    position: int = 0
    text: str = ""


class Verdict(Node):
    label: ClassVar[str] = "Verdict"
    verdict: str = "PASS"
    score: float = 0.0
    sentence: str = ""


class Feedback(Node):
    label: ClassVar[str] = "Feedback"
    rating: int = 0
    comment: str = ""
    created_at: int = 0


class RunEvent(Node):
    """One event of a run, numbered: what the API's event stream replays to a client that reconnects."""
    label: ClassVar[str] = "RunEvent"
    lookups: ClassVar[tuple[str, ...]] = ("run_id",)
    run_id: str
    seq: int
    type: str
    at: int = 0
    data: str = "{}"  # JSON of the event


class Topic(Node):
    label: ClassVar[str] = "Topic"
    lookups: ClassVar[tuple[str, ...]] = ("name",)
    name: str
    query: str
    schedule: str = "daily"
    last_run_at: int | None = None


NODE_TYPES: tuple[type[Node], ...] = (
    Run, Question, Source, Chunk, Evidence, Entity, Observation, Report, Section, Verdict, Feedback, Topic, RunEvent,
)


class Digest(Node):
    """What one monitoring run changed (monitor/digest.py), linked to its topic, run and cited evidence."""

    label: ClassVar[str] = "Digest"
    lookups: ClassVar[tuple[str, ...]] = ("topic_id",)
    topic_id: str
    run_id: str
    at: int = 0
    nothing_changed: bool = False
    data: str = "{}"  # JSON of the Digest model
    markdown: str = ""


NODE_TYPES = (*NODE_TYPES, Digest)
