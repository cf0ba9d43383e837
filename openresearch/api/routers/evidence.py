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
from openresearch.identity import entity_key
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
    ids = entity_ids(store, entity) if entity else None
    if q and q.strip():
        return search_page(store, q, entity_keys(store, entity) if entity else None, offset_of(state), size)
    if ids is not None and not ids:
        return Page[EvidenceView](items=[])
    rows = store.evidence_page(after_key(state), size + 1, ids)
    return keyset_page(rows, size, rows[size - 1].id if len(rows) > size else None)


def entity_ids(store: GraphStore, names: list[str]) -> list[str]:
    return sorted({i for i in store.resolve_entities([n for n in names if n.strip()]).values() if i})


def entity_keys(store: GraphStore, names: list[str]) -> set[str]:
    """The folded keys of the entities these names resolve to (aliases and case resolve, as everywhere)."""
    return {entity_key(store.aliases.canonical(n)) for n in names if n.strip()}


def search_page(store: GraphStore, q: str, keys: set[str] | None, offset: int, size: int) -> Page[EvidenceView]:
    """Full-text hits best first (ties by id, so pages never overlap), optionally only those that mention one
    of the entities (by folded key, `entity_keys`); views are read for the page only. The MCP tool
    `search_evidence` answers with this too."""
    hits = sorted(store.fulltext_evidence(q, MAX_TEXT_HITS), key=lambda h: (-h[1], h[0]))
    ids = [eid for eid, _ in hits]
    if keys is not None:
        ids = [v.id for v in store.evidence(ids) if keys & {entity_key(e) for e in v.entities}] if ids else []
        keep = set(ids)
        hits = [h for h in hits if h[0] in keep]
    page = offset_page(hits, offset, size)
    scores = dict(page.items)
    views = {v.id: v for v in (store.evidence(list(scores)) if scores else [])}
    items = []
    for eid, score in page.items:
        if eid in views:
            views[eid].score = round(float(score), 6)
            items.append(views[eid])
    return Page[EvidenceView](items=items, next_cursor=page.next_cursor)


@router.get("/{evidence_id}", response_model=EvidenceDetail, responses={404: PROBLEM_RESPONSES[404]})
def get_evidence(store: StoreDep, evidence_id: Annotated[str, Path(max_length=200)]) -> EvidenceDetail:
    prov = store.provenance(evidence_id)
    return EvidenceDetail(**prov.model_dump(), feedback=store.feedback_on([evidence_id]))
