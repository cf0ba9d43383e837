"""What the graph would hold from one document: every evidence unit and each of its observations, with no
question ranking them (`openresearch extract`, and the benches that score extraction). Pure core: the caller
parses the file and builds the extractor.

A question is optional. Given one, its entities and attributes are the plan's, as in a run; without one, the
document's own structure (table row labels, sentence subjects, the document's subject) names the entities.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from openresearch.agents.extract.extract_rules import sentence_units
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.identity import question_id
from openresearch.models import EvidenceItem, ObservationIn, Plan, SourceDoc, SubQuestion


class ReadUnit(BaseModel):
    """One evidence unit: a verbatim span of the stored text and what it states."""

    start: int
    end: int
    quote: str
    kind: str  # "sentence", "table row", "list item"
    type: str
    entities: list[str] = Field(default_factory=list)
    observations: list[ObservationIn] = Field(default_factory=list)


class ReadDocument(BaseModel):
    source_id: str
    url: str
    title: str | None = None
    chars: int
    units: list[ReadUnit] = Field(default_factory=list)

    @property
    def observations(self) -> list[ObservationIn]:
        return [o for u in self.units for o in u.observations]


def plan_for(question: str | None) -> tuple[SubQuestion, Plan]:
    """The plan a run would make for `question` (its entities and attributes), or an empty one."""
    if not question:
        sq = SubQuestion(id=question_id("(document)"), text="(document)")
        return sq, Plan(question="(document)", sub_questions=[sq])
    from openresearch.agents.plan.analysis import analyse

    a = analyse(question)
    sq = SubQuestion(id=question_id(question), text=question, entities=list(a.entities))
    return sq, Plan(question=question, sub_questions=[sq], entities=list(a.entities), kind=a.kind,
                    attributes=list(a.attributes), metrics=list(a.metrics), language=a.language)


def unit_kind(text: str, start: int) -> str:
    line_start = text.rfind("\n", 0, start) + 1
    line = text[line_start:text.find("\n", start) if "\n" in text[start:] else len(text)]
    if " | " in line or line.lstrip().startswith("|"):
        return "table row"
    return "list item" if text[line_start:start].strip() in ("-", "*", "+", "•") else "sentence"


def read_document(ex: DeterministicExtractor, src: SourceDoc, question: str | None = None) -> ReadDocument:
    """Every unit of `src` through the extractor's own item builder (entity linking, document subject, table and
    observation rules), in document order. Units with neither an observation nor an entity are left out."""
    sq, plan = plan_for(question)
    ex.prepare([src])
    units = sentence_units(src.text, ex.max_sentence_chars)
    ex.doc_subject(src)
    mentions = ex.mentions(src.text, units, sq, plan)
    out: list[ReadUnit] = []
    for i, u in enumerate(units):
        prev = i - 1 if i > 0 and units[i - 1].para == u.para else None
        context = (units[prev], mentions[prev]) if prev is not None else None
        item = ex.build_item(src, sq, plan, u.start, u.end, 0.0, mentions[i], context)
        if item.observations or item.entities:
            out.append(_unit(src.text, item))
    return ReadDocument(source_id=src.id, url=src.url, title=src.title, chars=len(src.text), units=out)


def _unit(text: str, item: EvidenceItem) -> ReadUnit:
    return ReadUnit(start=item.start, end=item.end, quote=item.quote, kind=unit_kind(text, item.start),
                    type=item.type, entities=item.entities, observations=item.observations)


def observation_rows(docs: Sequence[ReadDocument]) -> list[dict[str, object]]:
    """One flat row per observation (for tables and scoring)."""
    return [{"source": d.url, "start": u.start, "end": u.end, "entity": o.entity, "metric": o.metric,
             "value": o.value, "unit": o.unit, "condition": o.condition, "role": o.role, "kind": u.kind}
            for d in docs for u in d.units for o in u.observations]
