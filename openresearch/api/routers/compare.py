"""`GET /compare`: the metric × entity table, with the quote and source behind every cell."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Query, Response
from fastapi.concurrency import run_in_threadpool

from openresearch.api.deps import StateDep
from openresearch.api.problems import PROBLEM_RESPONSES
from openresearch.api.schemas import CellEvidence, CompareOut
from openresearch.graph.store import GraphStore
from openresearch.monitor import asof

router = APIRouter(tags=["compare"], responses={400: PROBLEM_RESPONSES[400]})


@router.get("/compare", response_model=CompareOut)
async def compare(
    st: StateDep,
    entity: Annotated[list[str], Query(min_length=1, max_length=20,
                                       description="Entity names (aliases resolve); repeat for each.")],
    metric: Annotated[str | None, Query(max_length=200, description="Only this metric.")] = None,
    as_of: Annotated[date | None, Query(description="The values current at the end of this day (default: now).")]
    = None,
    superseded: Annotated[bool, Query(description="Superseded values too, each cell saying which "
                                                  "(`superseded_by`).")] = False,
    known_on: Annotated[date | None, Query(description="As the graph held its values at the end of this day "
                                                       "(recorded by then, not yet retracted; default: now).")] = None,
) -> Response:
    """The current values by default: a value a newer one superseded (monitoring) is left out. An entity asked
    for that the table has no value for is named in `missing`."""
    key = ("compare", tuple(entity), metric, as_of, superseded, known_on)

    def compute() -> bytes:
        return comparison(st.store, entity, metric, as_of, superseded, known_on).model_dump_json().encode()
    body = st.cache.lookup(key, compute) or await run_in_threadpool(st.cache.get, key, compute)
    return Response(body, media_type="application/json")


def comparison(store: GraphStore, entity: list[str], metric: str | None, as_of: date | None = None,
               superseded: bool = False, known_on: date | None = None) -> CompareOut:
    names = [e for e in entity if e.strip()]
    comp = asof.comparison(store, names, metric or None, as_of=as_of, include_superseded=superseded,
                           known_on=known_on) if names else None
    if comp is None:
        return CompareOut(entities=[], metrics=[], cells={}, missing=list(entity))
    ids = sorted({i for row in comp.cells.values() for cell in row.values() for i in cell.evidence_ids})
    evidence = {v.id: CellEvidence(id=v.id, quote=v.quote, start=v.start, end=v.end, source_id=v.source.id,
                                   url=v.source.url, title=v.source.title, trust=v.source.trust)
                for v in (store.evidence(ids) if ids else [])}
    return CompareOut(**comp.model_dump(), evidence=evidence)
