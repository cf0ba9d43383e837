"""Liveness and readiness: `/healthz` answers while the process runs (with no key: a probe needs none),
`/readyz` when the graph answers too (with the key, when one is set: it says which graph is behind)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from openresearch.api.deps import StateDep
from openresearch.api.problems import PROBLEM_RESPONSES, problem
from openresearch.api.schemas import Health, Ready
from openresearch.errors import OpenResearchError

router = APIRouter(tags=["health"])
ready_router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health)
def healthz() -> Health:
    return Health()


@ready_router.get("/readyz", response_model=Ready, responses={503: PROBLEM_RESPONSES[503]})
def readyz(st: StateDep) -> Ready | JSONResponse:
    try:
        ok = st.store.ping()
    except (OpenResearchError, OSError) as e:
        return problem(503, f"graph unreachable: {type(e).__name__}")
    if not ok:
        return problem(503, "graph unreachable")
    return Ready(graph=st.store.backend.dialect)
