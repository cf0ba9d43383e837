"""Evidence: one item's provenance, and lists by full-text query and/or entity."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from openresearch.api.deps import StateDep, StoreDep, page_size
from openresearch.api.pagination import (
    CursorParam,
    LimitParam,
    Page,
    after_key,
    decode_cursor,
    keyset_page,
    offset_of,
    offset_page,
)
from openresearch.api.problems import PROBLEM_RESPONSES
from openresearch.api.schemas import EvidenceDetail
from openresearch.graph.store import GraphStore
from openresearch.models import EvidenceView

router = APIRouter(prefix="/evidence", tags=["evidence"], responses={400: PROBLEM_RESPONSES[400]})
MAX_TEXT_HITS = 2000  # full-text hits read for one query; pages beyond are empty


@router.get("", response_model=Page[EvidenceView])
def list_evidence(
    st: StateDep, store: StoreDep,
    q: Annotated[str | None, Query(max_length=500, description="Words the quote should contain (full-text).")] = None,
    entity: Annotated[list[str] | None, Query(max_length=20, description="Entity names (aliases resolve); "
                                              "repeatable: evidence mentioning any of them.")] = None,
    cursor: CursorParam = None, limit: LimitParam = None,
) -> Page[EvidenceView]:
    size = page_size(st, limit)
    state = decode_cursor(cursor)
    entity_ids = _entity_ids(store, entity) if entity else None
    if q and q.strip():
        return _search(store, q, entity_ids, offset_of(state), size)
    if entity_ids is not None and not entity_ids:
        return Page[EvidenceView](items=[])
    rows = store.evidence_page(after_key(state), size + 1, entity_ids)
    return keyset_page(rows, size, rows[size - 1].id if len(rows) > size else None)


def _entity_ids(store: GraphStore, names: list[str]) -> list[str]:
    return sorted({i for i in store.resolve_entities([n for n in names if n.strip()]).values() if i})


def _search(store: GraphStore, q: str, entity_ids: list[str] | None, offset: int, size: int) -> Page[EvidenceView]:
    wanted = MAX_TEXT_HITS if entity_ids is not None else min(MAX_TEXT_HITS, offset + size + 1)
    hits = store.fulltext_evidence(q, wanted)
    order = {eid: i for i, (eid, _) in enumerate(hits)}
    views = sorted(store.evidence(list(order)) if order else [], key=lambda v: order[v.id])
    scores = dict(hits)
    for v in views:
        v.score = round(float(scores.get(v.id, 0.0)), 6)
    if entity_ids is not None:
        names = set(_names(store, entity_ids))
        views = [v for v in views if names & set(v.entities)]
    return offset_page(views, offset, size)


def _names(store: GraphStore, entity_ids: list[str]) -> list[str]:
    return [str(store.entity_detail(i)["name"]) for i in entity_ids]


@router.get("/{evidence_id}", response_model=EvidenceDetail, responses={404: PROBLEM_RESPONSES[404]})
def get_evidence(store: StoreDep, evidence_id: Annotated[str, Path(max_length=200)]) -> EvidenceDetail:
    prov = store.provenance(evidence_id)
    return EvidenceDetail(**prov.model_dump(), feedback=store.feedback_on([evidence_id]))
