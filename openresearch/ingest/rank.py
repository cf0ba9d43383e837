"""Coarse ranking of search candidates: relevance, source authority and recency, with the breakdown.

Pure: the caller passes the query embedding, the domain weights (feedback adjusts them) and `today`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from urllib.parse import urlsplit

from pydantic import BaseModel

from openresearch.ingest.textnorm import tokens


class RankCandidate(BaseModel):
    title: str = ""
    url: str
    snippet: str = ""
    published_at: date | datetime | None = None
    embedding: list[float] | None = None


class RankWeights(BaseModel):
    relevance: float = 0.6
    authority: float = 0.25
    recency: float = 0.15
    # Inside relevance: how much the embedding cosine counts against keyword overlap.
    cosine_share: float = 0.7


class ScoreBreakdown(BaseModel):
    cosine: float | None
    keyword: float
    relevance: float
    authority: float
    recency: float
    total: float


class Ranked(BaseModel):
    candidate: RankCandidate
    score: float
    breakdown: ScoreBreakdown


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    if len(a) != len(b):
        raise ValueError(f"embedding sizes differ: {len(a)} vs {len(b)}")
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def keyword_overlap(query: str, text: str) -> float:
    """Share of distinct query tokens present in `text` (0..1)."""
    wanted = set(tokens(query))
    return len(wanted & set(tokens(text))) / len(wanted) if wanted else 0.0


def domain_of(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")


def authority(url: str, weights: Mapping[str, float], default: float = 0.5) -> float:
    """Weight of the most specific matching suffix: news.bbc.co.uk -> bbc.co.uk -> co.uk -> uk."""
    labels = domain_of(url).split(".")
    for i in range(len(labels)):
        suffix = ".".join(labels[i:])
        if suffix in weights:
            return weights[suffix]
    return default


def recency(published: date | datetime | None, today: date, half_life_days: float, unknown: float) -> float:
    """Exponential decay: 1.0 today, 0.5 after one half-life; future dates count as today."""
    if published is None:
        return unknown
    day = published.date() if isinstance(published, datetime) else published
    age = max(0, (today - day).days)
    return float(0.5 ** (age / half_life_days))


def rank_candidates(
    query: str,
    candidates: Sequence[RankCandidate],
    *,
    today: date,
    query_embedding: Sequence[float] | None = None,
    domain_weights: Mapping[str, float] | None = None,
    default_authority: float = 0.5,
    half_life_days: float = 365.0,
    unknown_recency: float = 0.3,
    weights: RankWeights | None = None,
    top_k: int = 10,
) -> list[Ranked]:
    """Top `top_k` candidates by weighted score; ties break on URL so the order is reproducible."""
    w = weights or RankWeights()
    ranked = []
    for cand in candidates:
        keyword = keyword_overlap(query, f"{cand.title} {cand.snippet}")
        cos = None
        if query_embedding is not None and cand.embedding is not None:
            cos = max(0.0, cosine(query_embedding, cand.embedding))  # anti-correlated is just irrelevant
        relevance = keyword if cos is None else w.cosine_share * cos + (1 - w.cosine_share) * keyword
        auth = authority(cand.url, domain_weights or {}, default_authority)
        rec = recency(cand.published_at, today, half_life_days, unknown_recency)
        total = w.relevance * relevance + w.authority * auth + w.recency * rec
        breakdown = ScoreBreakdown(
            cosine=cos, keyword=keyword, relevance=relevance, authority=auth, recency=rec, total=total
        )
        ranked.append(Ranked(candidate=cand, score=total, breakdown=breakdown))
    ranked.sort(key=lambda r: (-r.score, r.candidate.url))
    return ranked[:top_k]
