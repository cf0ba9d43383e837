"""Pure preparation of write rows: ids, alias resolution and numeric normalisation happen here, once.

`evidence_row` turns one record into the statement's own row shape (short keys, see
`write_evidence_batch.cypher`) plus the shared nodes it needs; `pack_batch` deduplicates those per batch.
Both run for every imported row, so they stay lean: this is most of the client-side cost of a batch write.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any, NamedTuple
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


class PreparedRow(NamedTuple):
    """One evidence record, ready to write.

    row: id, quote, type, start, end, summary, s (source id), m (mentioned entity ids), o (observations:
    id, e entity id, m metric, v value, u unit, rv/ru raw value/unit, c condition, ck condition key,
    a as_of), q (questions answered: id, and the score the extractor gave, None for an import).
    source/entities/questions: the shared nodes the row refers to."""

    row: dict[str, Any]
    source: dict[str, Any]
    entities: list[dict[str, str]]  # id, name, key, alias (the surface form)
    questions: list[dict[str, str]]

    @property
    def id(self) -> str:
        return str(self.row["id"])


@lru_cache(maxsize=65536)
def _domain(url: str) -> str:
    return urlsplit(url).hostname or ""


@lru_cache(maxsize=65536)
def _source_ids(url: str) -> tuple[str, str, str]:
    """(id, canonical url, domain) of a source URL."""
    canon = canonical_url(url)
    return source_id(url), canon, _domain(canon)


@lru_cache(maxsize=65536)
def _entity(canonical_name: str) -> tuple[str, str]:
    return entity_id(canonical_name), entity_key(canonical_name)


def epoch_ms(d: date | datetime | None) -> int | None:
    return None if d is None else _epoch_ms(d)


@lru_cache(maxsize=65536)
def _epoch_ms(d: date | datetime) -> int:
    if not isinstance(d, datetime):
        d = datetime(d.year, d.month, d.day, tzinfo=UTC)
    elif d.tzinfo is None:
        d = d.replace(tzinfo=UTC)
    return int(d.timestamp() * 1000)


def evidence_row(rec: EvidenceRecord, aliases: AliasResolver) -> PreparedRow:
    """One record -> a PreparedRow. Raises ValueError (from number parsing) on a bad observation."""
    src = rec.source
    sid, url, domain = _source_ids(src.url)
    sid = src.stored_id or sid
    eid = evidence_id(src.id_scope or sid, rec.start, rec.end, rec.quote)
    entities: dict[tuple[str, str], dict[str, str]] = {}
    mentioned: set[str] = set()
    observations: dict[str, dict[str, Any]] = {}
    for surface in rec.entities:
        mentioned.add(_add_entity(entities, aliases, surface))
    for ob in rec.observations:
        nid = _add_entity(entities, aliases, ob.entity)
        mentioned.add(nid)  # the evidence mentions what it measures
        q = parse_quantity(ob.value, ob.unit)
        metric = normalise_metric(ob.metric)
        if not metric:  # stored as "" it could never be exported again (ObservationIn needs a metric)
            raise ValueError(f"metric {ob.metric[:40]!r} has no letter or digit")
        cond_key = normalise_condition(ob.condition)
        oid = observation_id(eid, nid, metric, q.value, q.unit, cond_key)
        if oid not in observations:
            observations[oid] = {
                "id": oid, "e": nid, "m": metric, "v": q.value, "u": q.unit, "rv": str(ob.value),
                "ru": ob.unit or "", "c": ob.condition or "", "ck": cond_key,
                "a": None if ob.as_of is None else _epoch_ms(ob.as_of), "r": ob.role,
            }
    questions = []
    if rec.question:
        text = " ".join(rec.question.split())
        questions.append({"id": question_id(text), "text": text, "key": text.lower()})
    row = {
        "id": eid, "quote": rec.quote, "type": rec.type, "start": rec.start, "end": rec.end,
        "summary": rec.summary, "s": sid, "m": sorted(mentioned), "o": list(observations.values()),
        "q": [{"id": q["id"], "score": rec.answer_score} for q in questions],
    }
    source = {"id": sid, "url": url, "domain": domain, "kind": src.kind, "title": src.title,
              "published_at": None if src.published_at is None else _epoch_ms(src.published_at),
              "trust": src.trust}
    return PreparedRow(row, source, list(entities.values()), questions)


def _add_entity(entities: dict[tuple[str, str], dict[str, str]], aliases: AliasResolver, surface: str) -> str:
    alias = " ".join(surface.split())
    name = aliases.canonical(alias)
    nid, key = _entity(name)
    if (nid, alias) not in entities:
        entities[(nid, alias)] = {"id": nid, "name": name, "key": key, "alias": alias}
    return nid


def pack_batch(rows: list[PreparedRow]) -> dict[str, Any]:
    """Prepared rows -> the parameters of `write_evidence_batch` (but `now` and `merge_only`): shared nodes
    and repeated evidence ids deduplicated.

    The parameter text is what FalkorDB parses for every batch, so repeating a source or an entity per row
    cost more than writing it. A repeated evidence id keeps its first row (as MERGE ... ON CREATE would) with
    the union of the mentions, observations and questions of all of its rows."""
    sources: dict[str, dict[str, Any]] = {}
    entities: dict[str, dict[str, Any]] = {}
    questions: dict[str, dict[str, str]] = {}
    packed: dict[str, dict[str, Any]] = {}
    for prepared in rows:
        r = prepared.row
        src = prepared.source
        if src["id"] not in sources:
            sources[src["id"]] = src
        for e in prepared.entities:
            ent = entities.get(e["id"])
            if ent is None:
                entities[e["id"]] = {"id": e["id"], "name": e["name"], "key": e["key"], "aliases": [e["alias"]]}
            elif e["alias"] not in ent["aliases"]:
                ent["aliases"].append(e["alias"])
        for qn in prepared.questions:
            questions.setdefault(qn["id"], qn)
        first = packed.get(r["id"])
        if first is None:
            packed[r["id"]] = dict(r)
        else:
            _fold(first, r)
    return {"sources": list(sources.values()), "entities": list(entities.values()),
            "questions": list(questions.values()), "rows": list(packed.values())}


def _fold(first: dict[str, Any], again: dict[str, Any]) -> None:
    first["m"] = sorted(set(first["m"]) | set(again["m"]))
    seen = {o["id"] for o in first["o"]}
    first["o"] = first["o"] + [o for o in again["o"] if o["id"] not in seen]
    scores = {q["id"]: q["score"] for q in first["q"]}
    for q in again["q"]:  # the same evidence for the same question twice: its best score
        old = scores.get(q["id"])
        if q["id"] not in scores or (q["score"] is not None and (old is None or q["score"] > old)):
            scores[q["id"]] = q["score"]
    first["q"] = [{"id": k, "score": v} for k, v in scores.items()]
