"""Entities: search by name or alias, and one entity with its aliases, observations and sources."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from openresearch.api.deps import StateDep, StoreDep, page_size
from openresearch.api.pagination import CursorParam, LimitParam, Page, after_key, decode_cursor, keyset_page
from openresearch.api.problems import PROBLEM_RESPONSES
from openresearch.api.schemas import EntityDetail, EntitySummary
from openresearch.errors import NotFound

router = APIRouter(prefix="/entities", tags=["entities"], responses={400: PROBLEM_RESPONSES[400]})


@router.get("", response_model=Page[EntitySummary])
def list_entities(
    st: StateDep, store: StoreDep,
    q: Annotated[str, Query(max_length=200, description="Text the name or an alias contains (any case).")] = "",
    cursor: CursorParam = None, limit: LimitParam = None,
) -> Page[EntitySummary]:
    size = page_size(st, limit)
    rows = [EntitySummary.model_validate(r) for r in
            store.entities_page(q, after_key(decode_cursor(cursor)), size + 1)]
    return keyset_page(rows, size, rows[size - 1].id if len(rows) > size else None)


@router.get("/{entity_id}", response_model=EntityDetail, responses={404: PROBLEM_RESPONSES[404]})
def get_entity(store: StoreDep, entity_id: Annotated[str, Path(max_length=300,
               description="An entity id (N-…) or a name or alias.")]) -> EntityDetail:
    try:
        return EntityDetail.model_validate(store.entity_detail(entity_id))
    except NotFound:
        resolved = store.resolve_entities([entity_id]).get(entity_id)
        if not resolved:
            raise
        return EntityDetail.model_validate(store.entity_detail(resolved))
