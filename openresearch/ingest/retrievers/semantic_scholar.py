"""Semantic Scholar Graph API (/paper/search); an API key raises the rate limit but is optional."""

from __future__ import annotations

from datetime import date
from typing import Any

from openresearch.errors import ParseError
from openresearch.ingest.cache import Cache
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.retrievers.base import (
    CachedRetriever,
    Candidate,
    RetrieverDeps,
    parse_date,
    rank_score,
)

FIELDS = "title,abstract,year,venue,externalIds,citationCount,openAccessPdf,url,publicationDate"
MAX_LIMIT = 100  # the endpoint's cap per call


def to_candidate(paper: dict[str, Any], rank: int, total: int) -> Candidate:
    ids = paper.get("externalIds") or {}
    pdf = paper.get("openAccessPdf") or {}
    year = paper.get("year")
    published = parse_date(paper.get("publicationDate")) or (date(year, 1, 1) if isinstance(year, int) else None)
    return Candidate(
        title=str(paper.get("title") or ""),
        url=str(paper.get("url") or f"https://www.semanticscholar.org/paper/{paper.get('paperId', '')}"),
        snippet=str(paper.get("abstract") or ""),
        kind="academic",
        published=published,
        score=rank_score(rank, total),
        retriever="semantic_scholar",
        extra={
            "doi": ids.get("DOI"),
            "arxiv_id": ids.get("ArXiv"),
            "venue": paper.get("venue") or None,
            "citations": paper.get("citationCount"),
            "pdf_url": pdf.get("url"),
            "year": year,
            "paper_id": paper.get("paperId"),
        },
    )


def parse_search(payload: Any) -> list[Candidate]:
    if not isinstance(payload, dict):
        raise ParseError("Semantic Scholar answer is not a JSON object")
    papers = [p for p in payload.get("data") or [] if isinstance(p, dict) and p.get("title")]
    return [to_candidate(p, i, len(papers)) for i, p in enumerate(papers)]


class SemanticScholarRetriever(CachedRetriever):
    name = "semantic_scholar"

    def __init__(self, client: PoliteClient, cache: Cache | None, *, base_url: str, api_key: str | None = None):
        super().__init__(client, cache, scope=base_url)
        self.base_url = base_url.rstrip("/")
        self.headers = {"x-api-key": api_key} if api_key else {}

    async def _search(self, query: str, k: int) -> list[Candidate]:
        response = await self.client.get(
            f"{self.base_url}/paper/search",
            headers=self.headers,
            params={"query": query, "limit": min(k, MAX_LIMIT), "fields": FIELDS},
        )
        return parse_search(response.raise_for_status().json_body())


def factory(deps: RetrieverDeps) -> SemanticScholarRetriever:
    key = deps.settings.semantic_scholar_key
    return SemanticScholarRetriever(
        deps.client,
        deps.cache,
        base_url=deps.settings.semantic_scholar_url,
        api_key=key.get_secret_value() if key else None,
    )
