"""Research runs (POST /runs, events, reports): served once the run manager is wired (see app.py)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(prefix="/runs", tags=["runs"])
