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
from openresearch.graph.judgements import NoValue, Resolution, ValueCorrect, status_matches, with_status
from openresearch.graph.store import GraphStore
from openresearch.models import ConflictGroup
from openresearch.monitor import asof

router = APIRouter(prefix="/conflicts", tags=["conflicts"], responses={400: PROBLEM_RESPONSES[400]})


def conflicts_out(store: GraphStore, entity: str | None = None, metric: str | None = None,
                  as_of: date | None = None, known_on: date | None = None) -> list[ConflictOut]:
    """All conflict groups (for an entity and/or metric; among the values current at `as_of`, as the graph held
    them on `known_on`), by id, each with its latest resolution (stale when the group's values changed since)."""
    groups = asof.conflicts(store, as_of, entity=entity or None, metric=metric or None, known_on=known_on)
    resolved = store.conflict_resolutions([g.id for g in groups])
    out = [conflict_out(g, resolved.get(g.id)) for g in groups]
    return sorted(out, key=lambda c: c.id)


def conflict_out(g: ConflictGroup, res: Resolution | None) -> ConflictOut:
    status, shown = with_status(g, res)
    return ConflictOut(**g.model_dump(), status=status, resolution=shown)


@router.get("", response_model=Page[ConflictOut])
async def list_conflicts(
    st: StateDep,
    entity: Annotated[str | None, Query(max_length=200, description="Only this entity (aliases resolve).")] = None,
    metric: Annotated[str | None, Query(max_length=200, description="Only this metric.")] = None,
    status: Annotated[Literal["open", "resolved", "stale", "all"], Query(
        description="Resolved by someone or not; stale: resolved before the group's values changed (open lists "
                    "those too).")] = "all",
    as_of: Annotated[date | None, Query(description="Among the values current at the end of this day (default: "
                                                    "now; a superseded value is never in conflict).")] = None,
    known_on: Annotated[date | None, Query(description="As the graph held its values at the end of this day "
                                                       "(recorded by then, not yet retracted; default: now).")] = None,
    cursor: CursorParam = None, limit: LimitParam = None,
) -> Response:
    size = page_size(st, limit)
    after = after_key(decode_cursor(cursor))

    def page() -> bytes:
        rows = [c for c in conflicts_out(st.store, entity, metric, as_of, known_on)
                if c.id > after and status_matches(c.status, status)][:size + 1]
        return keyset_page(rows, size, rows[size - 1].id if len(rows) > size else None).model_dump_json().encode()

    key = ("conflicts", entity, metric, status, as_of, known_on, after, size)
    body = st.cache.lookup(key, page) or await run_in_threadpool(st.cache.get, key, page)
    return Response(body, media_type="application/json")


@router.get("/{conflict_id}", response_model=ConflictOut, responses={404: PROBLEM_RESPONSES[404]})
def get_conflict(store: StoreDep, conflict_id: Annotated[str, Path(max_length=100)]) -> ConflictOut:
    g = store.conflict_group(conflict_id)
    return conflict_out(g, store.conflict_resolutions([g.id]).get(g.id))


@router.post("/{conflict_id}/resolution", response_model=Resolution, status_code=201,
             responses={404: PROBLEM_RESPONSES[404], 413: PROBLEM_RESPONSES[413], 422: PROBLEM_RESPONSES[422]})
def resolve(st: StateDep, conflict_id: Annotated[str, Path(max_length=100)],
            body: Annotated[ValueCorrect | NoValue, Body(discriminator="decision")]) -> Resolution:
    """Record that one value is right, that both hold under different conditions, or that it is no conflict."""
    res = st.store.resolve_conflict(conflict_id, body)
    st.cache.invalidate()  # whoever resolved it sees the resolution in their next read
    return res
