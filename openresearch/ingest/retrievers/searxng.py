"""SearXNG metasearch via its JSON API (/search?format=json); the instance must enable that format."""

from __future__ import annotations

from datetime import date
from typing import Any

from openresearch.errors import ConfigError, ParseError
from openresearch.ingest.cache import Cache
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.retrievers.base import (
    CachedRetriever,
    Candidate,
    RetrieverDeps,
    parse_date,
    strip_tags,
)

MAX_PAGES = 3  # SearXNG pages hold ~10-30 results; a research query rarely needs more than a few pages


def parse_results(payload: Any) -> list[dict[str, Any]]:
    if not isinstance(payload, dict) or not isinstance(payload.get("results"), list):
        raise ParseError("SearXNG answer has no 'results' list (is format=json enabled on the instance?)")
    return [r for r in payload["results"] if isinstance(r, dict) and r.get("url")]


def to_candidate(result: dict[str, Any], top_score: float) -> Candidate:
    engines = result.get("engines") or [result.get("engine")]
    score = float(result.get("score") or 0.0)
    return Candidate(
        title=strip_tags(str(result.get("title") or result["url"])),
        url=str(result["url"]),
        snippet=strip_tags(str(result.get("content") or "")),
        kind="web",
        published=parse_date(result.get("publishedDate")),
        score=score / top_score if top_score > 0 else 0.0,
        retriever="searxng",
        extra={"engines": ",".join(str(e) for e in engines if e), "category": result.get("category")},
    )


class SearxngRetriever(CachedRetriever):
    name = "searxng"

    def __init__(
        self,
        client: PoliteClient,
        cache: Cache | None,
        *,
        base_url: str,
        engines: str = "",
        categories: str = "general",
        language: str = "auto",
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.params = {"format": "json", "categories": categories, "language": language}
        if engines:
            self.params["engines"] = engines
        super().__init__(client, cache, scope=f"{self.base_url}|{engines}|{categories}|{language}")

    async def _search(self, query: str, k: int) -> list[Candidate]:
        results: list[dict[str, Any]] = []
        seen: set[str] = set()
        for page in range(1, MAX_PAGES + 1):
            response = await self.client.get(
                f"{self.base_url}/search", params={"q": query, "pageno": page, **self.params}
            )
            fresh = [r for r in parse_results(response.raise_for_status().json_body()) if r["url"] not in seen]
            seen.update(r["url"] for r in fresh)
            results.extend(fresh)
            if not fresh or len(results) >= k:
                break
        top = max((float(r.get("score") or 0.0) for r in results), default=0.0)
        return [to_candidate(r, top) for r in results[:k]]


def factory(deps: RetrieverDeps) -> SearxngRetriever:
    s = deps.settings
    if not s.searxng_url:
        raise ConfigError("searxng retriever needs OPENRESEARCH_SEARXNG_URL (or route web to wikipedia)")
    r = SearxngRetriever(
        deps.client,
        deps.cache,
        base_url=s.searxng_url,
        engines=s.searxng_engines,
        categories=s.searxng_categories,
        language=s.searxng_language,
    )
    if deps.since is not None:  # a monitoring run: only results from the covering time range
        r.params["time_range"] = time_range(deps.since, date.today())
        r._cache_name += f"|time_range={r.params['time_range']}"
    return r


def time_range(since: date, today: date) -> str:
    """The narrowest SearXNG `time_range` (day, week, month, year) that covers `since` .. `today`."""
    days = (today - since).days
    return "day" if days <= 1 else "week" if days <= 7 else "month" if days <= 31 else "year"
