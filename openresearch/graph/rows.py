"""Pure preparation of write rows: ids, alias resolution and numeric normalisation happen here, once."""

from __future__ import annotations

from datetime import UTC, date, datetime
from functools import lru_cache
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


@lru_cache(maxsize=65536)
def _domain(url: str) -> str:
    return urlsplit(url).hostname or ""


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
        "source": {"id": sid, "url": url, "domain": _domain(url), "kind": rec.source.kind,
                   "title": rec.source.title, "published_at": epoch_ms(rec.source.published_at),
                   "trust": rec.source.trust},
        "entities": list(entities.values()),
        "observations": observations,
        "questions": questions,
    }


def pack_batch(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Prepared rows -> the parameters of `write_evidence_batch`: shared nodes deduplicated, short keys.

    The parameter text is what FalkorDB parses for every batch, so repeating a source or an entity per row
    cost more than writing it."""
    sources: dict[str, dict[str, Any]] = {}
    entities: dict[str, dict[str, Any]] = {}
    questions: dict[str, dict[str, Any]] = {}
    packed = []
    for r in rows:
        src = r["source"]
        sources.setdefault(src["id"], src)
        for e in r["entities"]:
            ent = entities.setdefault(e["id"], {"id": e["id"], "name": e["name"], "key": e["key"], "aliases": []})
            if e["alias"] not in ent["aliases"]:
                ent["aliases"].append(e["alias"])
        for q in r["questions"]:
            questions.setdefault(q["id"], q)
        packed.append({
            "id": r["id"], "quote": r["quote"], "type": r["type"], "start": r["start"], "end": r["end"],
            "summary": r["summary"], "s": src["id"], "m": sorted({e["id"] for e in r["entities"]}),
            "o": [{"id": o["id"], "e": o["entity_id"], "m": o["metric"], "v": o["value"], "u": o["unit"],
                   "rv": o["raw_value"], "ru": o["raw_unit"], "c": o["condition"], "ck": o["condition_key"],
                   "a": o["as_of"]} for o in r["observations"]],
            "q": [q["id"] for q in r["questions"]],
        })
    return {"sources": list(sources.values()), "entities": list(entities.values()),
            "questions": list(questions.values()), "rows": packed}
