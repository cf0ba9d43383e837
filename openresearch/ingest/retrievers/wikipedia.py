"""Wikipedia's keyless search API (action=query&list=search): the web fallback when no SearXNG is set."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx

from openresearch.errors import ParseError
from openresearch.ingest.cache import Cache
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.retrievers.base import (
    CachedRetriever,
    Candidate,
    RetrieverDeps,
    rank_score,
    strip_tags,
)

MAX_LIMIT = 50


def article_url(api_url: str, title: str) -> str:
    """https://en.wikipedia.org/w/api.php + "Knowledge graph" -> https://en.wikipedia.org/wiki/Knowledge_graph"""
    api = httpx.URL(api_url)
    return f"{api.scheme}://{api.netloc.decode('ascii')}/wiki/{quote(title.replace(' ', '_'), safe='()_,:')}"


def parse_search(payload: Any, api_url: str) -> list[Candidate]:
    if not isinstance(payload, dict):
        raise ParseError("Wikipedia answer is not a JSON object")
    if "error" in payload:
        raise ParseError(f"Wikipedia API error: {payload['error']}")
    hits = [h for h in (payload.get("query") or {}).get("search") or [] if isinstance(h, dict) and h.get("title")]
    return [
        Candidate(
            title=str(h["title"]),
            url=article_url(api_url, str(h["title"])),
            snippet=strip_tags(str(h.get("snippet") or "")),
            kind="web",
            score=rank_score(i, len(hits)),
            retriever="wikipedia",
            extra={
                "pageid": h.get("pageid"),
                "wordcount": h.get("wordcount"),
                "last_edited": h.get("timestamp"),
            },
        )
        for i, h in enumerate(hits)
    ]


class WikipediaRetriever(CachedRetriever):
    name = "wikipedia"

    def __init__(self, client: PoliteClient, cache: Cache | None, *, api_url: str) -> None:
        super().__init__(client, cache, scope=api_url)
        self.api_url = api_url

    async def _search(self, query: str, k: int) -> list[Candidate]:
        response = await self.client.get(
            self.api_url,
            params={
                "action": "query",
                "list": "search",
                "srsearch": query,
                "srlimit": min(k, MAX_LIMIT),
                "format": "json",
                "utf8": 1,
            },
        )
        return parse_search(response.raise_for_status().json_body(), self.api_url)


def factory(deps: RetrieverDeps) -> WikipediaRetriever:
    return WikipediaRetriever(deps.client, deps.cache, api_url=deps.settings.wikipedia_url)
