"""Ranking of evidence for a question: relevance, source trust and recency. Pure."""

from __future__ import annotations

import math
import time

from openresearch.models import EvidenceView

WEIGHTS = {"relevance": 0.6, "trust": 0.25, "recency": 0.15}


def recency(published_ms: int | None, now_ms: int, half_life_days: float) -> float:
    """1.0 for today, 0.5 one half-life ago; unknown dates score a neutral 0.5."""
    if published_ms is None:
        return 0.5
    age_days = max(0.0, (now_ms - published_ms) / 86_400_000)
    return math.pow(0.5, age_days / half_life_days)


def rank_evidence(items: list[EvidenceView], relevance: dict[str, float], published_ms: dict[str, int | None],
                  half_life_days: float = 365.0, now_ms: int | None = None) -> list[EvidenceView]:
    """Score = weighted relevance (0..1) + trust (0..1) + recency (0..1); highest first, ties by id."""
    now = now_ms if now_ms is not None else int(time.time() * 1000)
    top = max(relevance.values(), default=0.0) or 1.0
    for ev in items:
        rel = relevance.get(ev.id, 0.0) / top
        ev.score = round(WEIGHTS["relevance"] * rel + WEIGHTS["trust"] * ev.source.trust
                         + WEIGHTS["recency"] * recency(published_ms.get(ev.id), now, half_life_days), 6)
    return sorted(items, key=lambda e: (-e.score, e.id))
