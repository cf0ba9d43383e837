"""Relation types of the knowledge graph (DESIGN.md §3): name, start label, end label."""

from __future__ import annotations

from typing import NamedTuple


class Relation(NamedTuple):
    type: str
    start: str
    end: str


RELATIONS: tuple[Relation, ...] = (
    Relation("ASKS", "Run", "Question"),
    Relation("DEPENDS_ON", "Question", "Question"),
    Relation("PART_OF", "Chunk", "Source"),
    Relation("FROM", "Evidence", "Source"),
    Relation("ANSWERS", "Evidence", "Question"),  # score: how well the quote answers it (the extractor's, best kept)
    Relation("MENTIONS", "Evidence", "Entity"),
    Relation("REPORTS", "Evidence", "Observation"),
    Relation("OF", "Observation", "Entity"),
    Relation("PRODUCED", "Run", "Report"),
    Relation("HAS_SECTION", "Report", "Section"),
    Relation("CITES", "Section", "Evidence"),
    Relation("ON", "Verdict", "Evidence"),
    Relation("ON", "Feedback", "Evidence"),
    Relation("TRACKS", "Topic", "Run"),
    Relation("EMITTED", "Run", "RunEvent"),
    Relation("EXAMINED", "Question", "Source"),  # extraction read this source (resume skips it)
)

RELATION_TYPES: tuple[str, ...] = tuple(sorted({r.type for r in RELATIONS}))

RELATIONS = (
    *RELATIONS,
    Relation("SUPERSEDES", "Observation", "Observation"),  # newer value -> the value it replaced (both kept)
    Relation("HAS_DIGEST", "Topic", "Digest"),
    Relation("OF_RUN", "Digest", "Run"),
    Relation("CITES", "Digest", "Evidence"),
    Relation("PREVIOUS_VERSION", "Source", "Source"),  # a source whose text changed -> its kept earlier version
)
RELATION_TYPES = tuple(sorted({r.type for r in RELATIONS}))
