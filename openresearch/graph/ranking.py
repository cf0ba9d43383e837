"""Ranking of evidence for a question: relevance, source trust and recency. Pure."""

from __future__ import annotations

from datetime import UTC, date, datetime

from openresearch.ingest.rank import recency
from openresearch.models import EvidenceView

WEIGHTS = {"relevance": 0.6, "trust": 0.25, "recency": 0.15}
UNKNOWN_DATE = 0.5  # an undated source scores a neutral recency


def rank_evidence(items: list[EvidenceView], relevance: dict[str, float], half_life_days: float = 365.0,
                  today: date | None = None) -> list[EvidenceView]:
    """Score = weighted relevance (0..1) + trust (0..1) + recency (0..1); highest first, ties in reading order
    (source, offset), not by id: an id hashes the source's path, so a tie broken by it changed which items a
    limit kept with the folder a corpus was copied to."""
    day = today or datetime.now(tz=UTC).date()
    top = max(relevance.values(), default=0.0) or 1.0
    for ev in items:
        rel = relevance.get(ev.id, 0.0) / top
        ev.score = round(WEIGHTS["relevance"] * rel + WEIGHTS["trust"] * ev.source.trust
                         + WEIGHTS["recency"] * recency(ev.source.published_at, day, half_life_days, UNKNOWN_DATE), 6)
    return sorted(items, key=best_first)


def best_first(e: EvidenceView) -> tuple[float, str, int, str]:
    """Highest score first, ties in reading order (source, offset): the order every ranked list of evidence
    takes, never the ids' hashes."""
    return (-e.score, e.source.url, e.start if e.start is not None else -1, e.id)
