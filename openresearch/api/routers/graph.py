"""`GET /graph/stats`: node counts per label and relation counts per type."""

from __future__ import annotations

from fastapi import APIRouter

from openresearch.api.deps import StoreDep
from openresearch.api.schemas import GraphStats

router = APIRouter(prefix="/graph", tags=["graph"])


@router.get("/stats", response_model=GraphStats)
def stats(store: StoreDep) -> GraphStats:
    s = store.stats()
    return GraphStats(nodes=s["nodes"], relations=s["relations"])
