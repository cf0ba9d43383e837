from __future__ import annotations

from datetime import date, datetime

import pytest

from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.rank import (
    RankCandidate,
    RankWeights,
    authority,
    keyword_overlap,
    rank_candidates,
    recency,
)

TODAY = date(2024, 6, 1)


def test_recency_halves_every_half_life() -> None:
    assert recency(TODAY, TODAY, 30, 0.3) == 1.0
    assert recency(date(2024, 5, 2), TODAY, 30, 0.3) == pytest.approx(0.5)
    assert recency(datetime(2024, 4, 2, 12), TODAY, 30, 0.3) == pytest.approx(0.25)
    assert recency(date(2025, 1, 1), TODAY, 30, 0.3) == 1.0  # future dates are not a bonus
    assert recency(None, TODAY, 30, 0.3) == 0.3


def test_authority_uses_most_specific_suffix() -> None:
    weights = {"arxiv.org": 0.9, "gov": 0.8, "blog.example.com": 0.1, "example.com": 0.6}
    assert authority("https://www.arxiv.org/abs/1", weights) == 0.9
    assert authority("https://data.census.gov/x", weights) == 0.8
    assert authority("https://blog.example.com/p", weights) == 0.1
    assert authority("https://shop.example.com/p", weights) == 0.6
    assert authority("https://unknown.net/", weights, default=0.4) == 0.4


def test_keyword_overlap_english_and_chinese() -> None:
    assert keyword_overlap("graph database latency", "Latency of a graph database") == 1.0
    assert keyword_overlap("graph database latency", "bread recipes") == 0.0
    assert keyword_overlap("图数据库", "国产图数据库增长迅速") == 1.0


def test_rank_combines_relevance_authority_recency_with_breakdown() -> None:
    cands = [
        RankCandidate(title="Bread recipes", url="https://food.example/bread", published_at=TODAY),
        RankCandidate(
            title="Graph database latency study",
            url="https://arxiv.org/abs/2",
            snippet="graph latency",
            published_at=date(2023, 6, 1),
        ),
        RankCandidate(title="Graph database latency news", url="https://news.example/g", published_at=TODAY),
    ]
    ranked = rank_candidates(
        "graph database latency",
        cands,
        today=TODAY,
        domain_weights={"arxiv.org": 1.0},
        half_life_days=365,
        top_k=2,
    )
    assert [r.candidate.url for r in ranked] == ["https://arxiv.org/abs/2", "https://news.example/g"]
    top = ranked[0].breakdown
    assert top.cosine is None and top.keyword == 1.0 and top.authority == 1.0
    assert top.recency == pytest.approx(0.5, rel=0.01)
    assert ranked[0].score == pytest.approx(top.total)
    assert top.total == pytest.approx(0.6 * 1.0 + 0.25 * 1.0 + 0.15 * top.recency)


def test_feedback_weights_change_the_order() -> None:
    cands = [
        RankCandidate(title="graph", url="https://a.example/1"),
        RankCandidate(title="graph", url="https://b.example/1"),
    ]
    assert (
        rank_candidates("graph", cands, today=TODAY)[0].candidate.url == "https://a.example/1"
    )  # tie -> url
    demoted = rank_candidates("graph", cands, today=TODAY, domain_weights={"a.example": 0.0})
    assert demoted[0].candidate.url == "https://b.example/1"


def test_embedding_cosine_feeds_relevance() -> None:
    emb = HashEmbedder(dim=128)
    query = "knowledge graph evidence"
    texts = ["knowledge graph evidence quotes", "unrelated cooking text"]
    cands = [
        RankCandidate(title=t, url=f"https://x.example/{i}", embedding=v)
        for i, (t, v) in enumerate(zip(texts, emb.embed(texts), strict=True))
    ]
    ranked = rank_candidates(
        query,
        cands,
        today=TODAY,
        query_embedding=emb.embed([query])[0],
        weights=RankWeights(relevance=1.0, authority=0.0, recency=0.0),
    )
    assert ranked[0].candidate.title == texts[0]
    assert ranked[0].breakdown.cosine is not None and ranked[0].breakdown.cosine > 0.5
    assert ranked[1].breakdown.relevance < ranked[0].breakdown.relevance
