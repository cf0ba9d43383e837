"""OpenAlex /works search; the abstract is rebuilt from abstract_inverted_index."""

from __future__ import annotations

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

MAX_PER_PAGE = 200


def rebuild_abstract(index: Any) -> str:
    """OpenAlex ships abstracts as {word: [positions]} (licensing); put the words back in order."""
    if not isinstance(index, dict):
        return ""
    slots: dict[int, str] = {}
    for word, positions in index.items():
        for pos in positions if isinstance(positions, list) else ():
            if isinstance(pos, int):
                slots[pos] = str(word)
    return " ".join(slots[i] for i in sorted(slots))


def to_candidate(work: dict[str, Any], rank: int, total: int) -> Candidate:
    location = work.get("primary_location") or {}
    source = location.get("source") or {}
    oa = work.get("open_access") or {}
    authors = [((a.get("author") or {}).get("display_name") or "") for a in work.get("authorships") or []]
    url = work.get("doi") or location.get("landing_page_url") or oa.get("oa_url") or work.get("id") or ""
    return Candidate(
        title=str(work.get("title") or work.get("display_name") or ""),
        url=str(url),
        snippet=rebuild_abstract(work.get("abstract_inverted_index")),
        kind="academic",
        published=parse_date(work.get("publication_date")),
        score=rank_score(rank, total),
        retriever="openalex",
        extra={
            "doi": work.get("doi"),
            "venue": source.get("display_name"),
            "citations": work.get("cited_by_count"),
            "pdf_url": oa.get("oa_url") or location.get("pdf_url"),
            "authors": "; ".join(a for a in authors if a),
            "openalex_id": work.get("id"),
            "year": work.get("publication_year"),
        },
    )


def parse_works(payload: Any) -> list[Candidate]:
    if not isinstance(payload, dict) or not isinstance(payload.get("results"), list):
        raise ParseError("OpenAlex answer has no 'results' list")
    works = [w for w in payload["results"] if isinstance(w, dict) and (w.get("title") or w.get("display_name"))]
    return [to_candidate(w, i, len(works)) for i, w in enumerate(works)]


class OpenAlexRetriever(CachedRetriever):
    name = "openalex"

    def __init__(
        self,
        client: PoliteClient,
        cache: Cache | None,
        *,
        base_url: str,
        api_key: str | None = None,
        mailto: str | None = None,
    ) -> None:
        super().__init__(client, cache, scope=base_url)
        self.base_url = base_url.rstrip("/")
        # mailto puts us in OpenAlex's "polite pool"; api_key is for premium quotas
        self.auth = {k: v for k, v in (("api_key", api_key), ("mailto", mailto)) if v}
        self.filters: dict[str, str] = {}  # a monitoring run: {"filter": "from_publication_date:YYYY-MM-DD"}

    async def _search(self, query: str, k: int) -> list[Candidate]:
        response = await self.client.get(
            f"{self.base_url}/works", params={"search": query, "per-page": min(k, MAX_PER_PAGE), **self.auth,
                                             **self.filters}
        )
        return parse_works(response.raise_for_status().json_body())


def factory(deps: RetrieverDeps) -> OpenAlexRetriever:
    s = deps.settings
    r = OpenAlexRetriever(
        deps.client,
        deps.cache,
        base_url=s.openalex_url,
        mailto=s.contact_email or None,
        api_key=s.openalex_key.get_secret_value() if s.openalex_key else None,
    )
    if deps.since is not None:  # a monitoring run: only works published since then
        r.filters["filter"] = f"from_publication_date:{deps.since.isoformat()}"
        r._cache_name += f"|since={deps.since.isoformat()}"
    return r
