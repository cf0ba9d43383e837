"""`GET /compare`: the metric × entity table, with the quote and source behind every cell."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from openresearch.api.deps import StoreDep
from openresearch.api.problems import PROBLEM_RESPONSES
from openresearch.api.schemas import CellEvidence, CompareOut

router = APIRouter(tags=["compare"], responses={400: PROBLEM_RESPONSES[400]})


@router.get("/compare", response_model=CompareOut)
def compare(
    store: StoreDep,
    entity: Annotated[list[str], Query(min_length=1, max_length=20,
                                       description="Entity names (aliases resolve); repeat for each.")],
    metric: Annotated[str | None, Query(max_length=200, description="Only this metric.")] = None,
) -> CompareOut:
    names = [e for e in entity if e.strip()]
    comp = store.compare(names, metric or None) if names else None
    if comp is None:
        return CompareOut(entities=[], metrics=[], cells={}, missing=list(entity))
    ids = sorted({i for row in comp.cells.values() for cell in row.values() for i in cell.evidence_ids})
    evidence = {v.id: CellEvidence(id=v.id, quote=v.quote, start=v.start, end=v.end, source_id=v.source.id,
                                   url=v.source.url, title=v.source.title, trust=v.source.trust)
                for v in (store.evidence(ids) if ids else [])}
    return CompareOut(**comp.model_dump(), evidence=evidence)
