"""Conflicts: the graph's conflict groups (stable ids), each with its resolution if someone gave one."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from fastapi import APIRouter, Body, Path, Query, Response
from fastapi.concurrency import run_in_threadpool

from openresearch.api.deps import StateDep, StoreDep, page_size
from openresearch.api.pagination import CursorParam, LimitParam, Page, after_key, decode_cursor, keyset_page
from openresearch.api.problems import PROBLEM_RESPONSES
from openresearch.api.schemas import ConflictOut
from openresearch.graph.judgements import NoValue, Resolution, ValueCorrect
from openresearch.graph.store import GraphStore
from openresearch.monitor import asof

router = APIRouter(prefix="/conflicts", tags=["conflicts"], responses={400: PROBLEM_RESPONSES[400]})


def conflicts_out(store: GraphStore, entity: str | None = None, metric: str | None = None,
                  as_of: date | None = None) -> list[ConflictOut]:
    """All conflict groups (for an entity and/or metric; among the values current at `as_of`), by id, each with
    its latest resolution."""
    groups = asof.conflicts(store, as_of, entity=entity or None, metric=metric or None)
    resolved = store.conflict_resolutions([g.id for g in groups])
    out = [ConflictOut(**g.model_dump(), status="resolved" if g.id in resolved else "open",
                       resolution=resolved.get(g.id)) for g in groups]
    return sorted(out, key=lambda c: c.id)


@router.get("", response_model=Page[ConflictOut])
async def list_conflicts(
    st: StateDep,
    entity: Annotated[str | None, Query(max_length=200, description="Only this entity (aliases resolve).")] = None,
    metric: Annotated[str | None, Query(max_length=200, description="Only this metric.")] = None,
    status: Annotated[Literal["open", "resolved", "all"], Query(description="Resolved by someone or not.")] = "all",
    as_of: Annotated[date | None, Query(description="Among the values current at the end of this day (default: "
                                                    "now; a superseded value is never in conflict).")] = None,
    cursor: CursorParam = None, limit: LimitParam = None,
) -> Response:
    size = page_size(st, limit)
    after = after_key(decode_cursor(cursor))

    def page() -> bytes:
        rows = [c for c in conflicts_out(st.store, entity, metric, as_of)
                if c.id > after and (status == "all" or c.status == status)][:size + 1]
        return keyset_page(rows, size, rows[size - 1].id if len(rows) > size else None).model_dump_json().encode()

    key = ("conflicts", entity, metric, status, as_of, after, size)
    body = st.cache.lookup(key, page) or await run_in_threadpool(st.cache.get, key, page)
    return Response(body, media_type="application/json")


@router.get("/{conflict_id}", response_model=ConflictOut, responses={404: PROBLEM_RESPONSES[404]})
def get_conflict(store: StoreDep, conflict_id: Annotated[str, Path(max_length=100)]) -> ConflictOut:
    g = store.conflict_group(conflict_id)
    res = store.conflict_resolutions([g.id]).get(g.id)
    return ConflictOut(**g.model_dump(), status="resolved" if res else "open", resolution=res)


@router.post("/{conflict_id}/resolution", response_model=Resolution, status_code=201,
             responses={404: PROBLEM_RESPONSES[404], 413: PROBLEM_RESPONSES[413], 422: PROBLEM_RESPONSES[422]})
def resolve(st: StateDep, conflict_id: Annotated[str, Path(max_length=100)],
            body: Annotated[ValueCorrect | NoValue, Body(discriminator="decision")]) -> Resolution:
    """Record that one value is right, that both hold under different conditions, or that it is no conflict."""
    res = st.store.resolve_conflict(conflict_id, body)
    st.cache.invalidate()  # whoever resolved it sees the resolution in their next read
    return res
