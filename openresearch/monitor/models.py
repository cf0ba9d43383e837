"""The monitoring domain: topics and digests (pydantic; no I/O)."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, Field

TopicStatus = Literal["active", "paused"]


def topic_id(question: str, sources: list[str]) -> str:
    """The same question over the same sources is the same topic (`monitor add` twice adds one)."""
    key = json.dumps([" ".join(question.lower().split()), sorted(sources)], ensure_ascii=False)
    return "T-" + hashlib.sha256(key.encode()).hexdigest()[:12]


class Topic(BaseModel):
    id: str
    question: str
    sources: list[str] = Field(default_factory=lambda: ["web"])
    entities: list[str] = Field(default_factory=list)
    schedule: str = "1d"
    style: Literal["digest", "report"] = "digest"
    status: TopicStatus = "active"
    options: dict[str, Any] = Field(default_factory=dict)  # RunOptions overrides: offline, budget, caps…
    webhook: str | None = None
    origin: str | None = None  # the door it came through (boundary.py): cli reads any path; None: before doors
    created_at: int = 0
    next_due: int = 0
    last_run_at: int | None = None
    last_run_id: str | None = None
    runs: int = 0
    lease_owner: str | None = None
    lease_until: int | None = None
    # runs started under a lease that never reached a digest (killed, or failed): the next run reports their news
    undigested: list[str] = Field(default_factory=list)
    # the webhook's signing key (HMAC-SHA256 of the body), made at `monitor add` and shown once
    webhook_secret: str | None = Field(default=None, exclude=True, repr=False)
    webhook_empty: bool = False  # post a digest that has nothing to say too


class SourceItem(BaseModel):
    id: str
    url: str
    title: str | None = None
    published_at: int | None = None


class EvidenceItem(BaseModel):
    id: str
    quote: str
    source_id: str
    url: str = ""


class ValueChange(BaseModel):
    """An older value superseded by a newer one for the same entity + metric + condition."""

    entity: str
    metric: str
    unit: str
    condition: str = ""
    old_observation: str
    old_value: str
    old_evidence: str
    old_date: int | None
    new_observation: str
    new_value: str
    new_evidence: str
    new_date: int | None
    late: bool = False  # the old value arrived after the new one (recorded as already superseded)

    @property
    def changed(self) -> bool:
        return self.old_value != self.new_value


class ValueItem(BaseModel):
    """One value as a source stated it: what left with a deleted document, or an edit no longer states."""

    entity: str
    metric: str
    unit: str
    condition: str = ""
    value: str
    evidence: str
    source_id: str
    title: str | None = None  # its source's, to name and link it
    url: str = ""


class DocumentChange(BaseModel):
    """What changed in one document since its previous version: its figures (old -> new, both cited; the
    value, or the previous version's evidence, on each side), the figures it no longer states, and its date."""

    source: SourceItem
    changed: list[ValueChange] = Field(default_factory=list)
    dropped: list[ValueItem] = Field(default_factory=list)
    old_published_at: int | None = None
    new_published_at: int | None = None
    text_changed: bool = True  # False: only its date changed

    @property
    def date_changed(self) -> bool:
        return self.old_published_at != self.new_published_at


class ConflictItem(BaseModel):
    id: str
    entity: str
    metric: str
    unit: str
    condition: str = ""
    values: list[str]
    evidence_ids: list[list[str]]


class Sentence(BaseModel):
    text: str
    evidence_ids: list[str] = Field(default_factory=list)
    # "status": about the run itself ("Nothing changed", "Source no longer available"), cites nothing
    kind: Literal["claim", "status"] = "claim"
    # spans of `text` the digest states about its own records, not figures from the quotes: the dates it
    # files values under ("as of 2026-02-10"), how many items a source gave, a removed source's name. The
    # number check skips them (digest_verify.py)
    metadata: list[str] = Field(default_factory=list)
    section: Section = "other"
    links: dict[str, str] = Field(default_factory=dict)  # a span of `text` (a source's name) -> its URL


Section = Literal["known", "new", "changed", "new_conflicts", "resolved", "left", "other"]
SECTION_TITLES: dict[str, str] = {"known": "What is known", "new": "New figures", "changed": "Changed figures",
                                  "new_conflicts": "New conflicts", "resolved": "Resolved conflicts",
                                  "left": "Values that left", "other": "Other changes"}

SentenceStatus = Literal["PASS", "FAIL"]


class SentenceCheck(BaseModel):
    """One digest sentence after the report verifier's citation and number checks."""

    text: str
    evidence_ids: list[str] = Field(default_factory=list)
    status: SentenceStatus
    reasons: list[str] = Field(default_factory=list)
    published: bool = True  # False: withheld from the digest's sentences (it failed)


class DigestVerification(BaseModel):
    checked: int = 0
    passed: int = 0
    failed: int = 0
    phantom_citations: int = 0
    sentences: list[SentenceCheck] = Field(default_factory=list)

    @property
    def withheld(self) -> list[SentenceCheck]:
        return [s for s in self.sentences if not s.published]


class Digest(BaseModel):
    id: str
    topic_id: str
    run_id: str
    question: str
    at: int
    nothing_changed: bool
    first: bool = False  # the topic's first digest: it states what is known, not only what is new
    new_values: list[ValueItem] = Field(default_factory=list)  # figures new in this run (first: all known)
    new_sources: list[SourceItem] = Field(default_factory=list)
    removed_sources: list[SourceItem] = Field(default_factory=list)
    values_left: list[ValueItem] = Field(default_factory=list)  # the values that left with removed sources
    edited: list[DocumentChange] = Field(default_factory=list)  # documents whose text or date changed
    new_evidence: list[EvidenceItem] = Field(default_factory=list)
    changed_values: list[ValueChange] = Field(default_factory=list)
    superseded: list[ValueChange] = Field(default_factory=list)  # every supersession this run, equal values too
    new_conflicts: list[ConflictItem] = Field(default_factory=list)
    resolved_conflicts: list[ConflictItem] = Field(default_factory=list)
    # conflict groups found before whose values changed (a value joined or left): their values now
    changed_conflicts: list[ConflictItem] = Field(default_factory=list)
    sentences: list[Sentence] = Field(default_factory=list)  # the published (verified) sentences
    verification: DigestVerification | None = None  # None: a digest stored before digests were verified

    @property
    def evidence_ids(self) -> list[str]:
        return sorted({e for s in self.sentences for e in s.evidence_ids})
