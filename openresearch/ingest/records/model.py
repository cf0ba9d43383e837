"""First-hand records: a data API's answer as a source whose text is a canonical rendering of it (pure).

A record is rendered one fact per line, so every figure's quote is a verbatim span of the stored text with
its offsets, and its observation is written straight from the API's fields (entity, metric, value, unit,
period), never read back out of the text. The text holds no retrieval time: fetched again unchanged it has
the same content hash (nothing new in the graph); a revised figure changes the text, and the stored-source
versioning keeps the old text and its evidence as the earlier version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from openresearch.identity import content_hash, evidence_id, source_id
from openresearch.models import EvidenceItem, ObservationIn, SourceDoc

RECORD_KIND = "record"  # Source.kind of a first-hand record (SourceKind)
RECORD_TRUST = 0.9  # an API's own figure: above a page's default 0.5, below certainty (feedback can lower it)
_UNIT_IN_NAME = re.compile(r"\(([^()]{1,40})\)\s*$")


@dataclass(frozen=True)
class Fact:
    """One line of a record. With a metric it states a figure (an observation); without, a plain statement."""

    text: str
    entity: str
    metric: str | None = None
    value: int | float | str | None = None
    unit: str | None = None
    period: str | None = None  # the period the value is for ("2022", "week of 2026-03-01"): its condition
    valid_from: date | None = None  # when the value held (the period's start; the retrieval day for a current fact)


@dataclass(frozen=True)
class Record:
    """What one API request (all its pages) answered, ready to render."""

    url: str  # the API URL read: the source's url and provenance
    title: str
    publisher: str  # "World Bank API": how a first-hand figure is labelled
    entities: tuple[str, ...]
    facts: tuple[Fact, ...]
    heading: str = ""
    published: date | None = None  # the API's own "last updated" date, when it gives one
    notes: tuple[str, ...] = field(default_factory=tuple)  # limits met (pages not read, statistics computing)


def unit_of(name: str) -> str | None:
    """The unit an indicator's name ends with: 'Life expectancy at birth, total (years)' -> 'years'."""
    m = _UNIT_IN_NAME.search(name)
    return m.group(1).strip() if m else None


def value_text(value: int | float | str) -> str:
    """A value as the line writes it: integers without a decimal point, others as the API gave them."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def render(record: Record, fetched_at: datetime | None = None) -> tuple[SourceDoc, list[tuple[Fact, int, int]]]:
    """The record as a stored source and each fact's [start, end) in its text."""
    lines = [record.heading or record.title]
    spans: list[tuple[Fact, int, int]] = []
    pos = len(lines[0]) + 1
    for fact in record.facts:
        text = " ".join(fact.text.split())
        spans.append((fact, pos, pos + len(text)))
        lines.append(text)
        pos += len(text) + 1
    lines.extend(" ".join(n.split()) for n in record.notes)
    text = "\n".join(lines)
    doc = SourceDoc(id=source_id(record.url), url=record.url, title=record.title, kind=RECORD_KIND,
                    published_at=record.published, fetched_at=fetched_at or datetime.now(tz=UTC), text=text,
                    content_hash=content_hash(text), trust=RECORD_TRUST)
    return doc, spans


def observation(fact: Fact) -> ObservationIn | None:
    if fact.metric is None or fact.value is None:
        return None
    return ObservationIn(entity=fact.entity, metric=fact.metric, value=fact.value, unit=fact.unit or None,
                         condition=fact.period, as_of=fact.valid_from, role="own")


def record_items(doc: SourceDoc, spans: list[tuple[Fact, int, int]], question_id: str,
                 entities: list[str] | None = None) -> list[EvidenceItem]:
    """Evidence straight from the facts: each line is its quote. When the question names some of the record's
    entities, only their lines answer it (a section on one country does not cite another's figures)."""
    asked = {e.casefold() for e in entities or []}
    named = {f.entity.casefold() for f, _, _ in spans} & asked
    out: list[EvidenceItem] = []
    for fact, start, end in spans:
        if named and fact.entity.casefold() not in named:
            continue
        quote = doc.text[start:end]
        ob = observation(fact)
        out.append(EvidenceItem(
            id=evidence_id(doc.id_scope, start, end, quote), source_id=doc.id, source_url=doc.url, quote=quote,
            start=start, end=end, type="statistic" if ob is not None else "background",
            entities=[fact.entity], observations=[ob] if ob is not None else [], question_id=question_id,
            score=0.9 if named else 0.7))
    return out


def first_hand_label(publisher: str, fetched: datetime | date | None) -> str:
    """'World Bank API, retrieved 2026-12-03': how a first-hand figure is labelled beside its value."""
    if fetched is None:
        return publisher
    day = fetched.date() if isinstance(fetched, datetime) else fetched
    return f"{publisher}, retrieved {day.isoformat()}"


def publisher_of(title: str | None) -> str:
    """A record's title starts with its publisher ('World Bank API: ...')."""
    return (title or "").split(":", 1)[0].strip() or "first-hand API"
