"""Pure preparation of write rows: ids, alias resolution and numeric normalisation happen here, once."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import urlsplit

from openresearch.identity import (
    AliasResolver,
    canonical_url,
    entity_id,
    entity_key,
    evidence_id,
    observation_id,
    question_id,
    source_id,
)
from openresearch.models import EvidenceRecord
from openresearch.numbers import normalise_condition, normalise_metric, parse_quantity


def epoch_ms(d: date | datetime | None) -> int | None:
    if d is None:
        return None
    if not isinstance(d, datetime):
        d = datetime(d.year, d.month, d.day, tzinfo=UTC)
    elif d.tzinfo is None:
        d = d.replace(tzinfo=UTC)
    return int(d.timestamp() * 1000)


def record_ids(rec: EvidenceRecord) -> tuple[str, str]:
    """(source id, evidence id) of a record."""
    sid = source_id(rec.source.url)
    return sid, evidence_id(sid, rec.start, rec.end, rec.quote)


def evidence_row(rec: EvidenceRecord, aliases: AliasResolver) -> dict[str, Any]:
    """One row of `write_evidence_batch`. Raises ValueError (from number parsing) on a bad observation."""
    sid, eid = record_ids(rec)
    url = canonical_url(rec.source.url)
    entities: dict[str, dict[str, str]] = {}

    def add_entity(surface: str) -> dict[str, str]:
        name = aliases.canonical(surface)
        nid = entity_id(name)
        entry = {"id": nid, "name": name, "key": entity_key(name), "alias": " ".join(surface.split())}
        entities.setdefault(f"{nid}|{entry['alias']}", entry)
        return entry

    for surface in rec.entities:
        add_entity(surface)
    observations = []
    for ob in rec.observations:
        ent = add_entity(ob.entity)
        q = parse_quantity(ob.value, ob.unit)
        metric = normalise_metric(ob.metric)
        cond_key = normalise_condition(ob.condition)
        observations.append({
            "id": observation_id(eid, ent["id"], metric, q.value, q.unit, cond_key),
            "entity_id": ent["id"], "entity_name": ent["name"], "entity_key": ent["key"],
            "metric": metric, "value": q.value, "unit": q.unit,
            "raw_value": str(ob.value), "raw_unit": ob.unit or "",
            "condition": ob.condition or "", "condition_key": cond_key,
            "key": f"{ent['id']}|{metric}|{q.unit}", "as_of": epoch_ms(ob.as_of),
        })
    questions = []
    if rec.question:
        text = " ".join(rec.question.split())
        questions.append({"id": question_id(text), "text": text, "key": text.lower()})
    return {
        "id": eid, "quote": rec.quote, "type": rec.type, "start": rec.start, "end": rec.end,
        "summary": rec.summary,
        "source": {"id": sid, "url": url, "domain": urlsplit(url).hostname or "", "kind": rec.source.kind,
                   "title": rec.source.title, "published_at": epoch_ms(rec.source.published_at),
                   "trust": rec.source.trust},
        "entities": list(entities.values()),
        "observations": observations,
        "questions": questions,
    }
