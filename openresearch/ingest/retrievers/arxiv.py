"""arXiv through its Atom API, paged with start/max_results, never faster than one request per 3 s."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import date, timedelta

import httpx

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

NS = {
    "a": "http://www.w3.org/2005/Atom",
    "arxiv": "http://arxiv.org/schemas/atom",
    "os": "http://a9.com/-/spec/opensearch/1.1/",
}
ARXIV_MIN_INTERVAL_S = 3.0  # arXiv's API terms: no more than one request every three seconds
_TERM = re.compile(r"[\w.\-]+", re.UNICODE)


def build_query(query: str) -> str:
    """Free text -> arXiv query syntax: every word must appear (all:a AND all:b)."""
    terms = [t for t in _TERM.findall(query) if t.upper() not in ("AND", "OR", "ANDNOT")]
    return " AND ".join(f"all:{t}" for t in terms) or "all:*"


def _text(node: ET.Element, path: str) -> str:
    found = node.find(path, NS)
    return " ".join((found.text or "").split()) if found is not None else ""


def parse_feed(xml: bytes) -> tuple[int, list[Candidate]]:
    """(totalResults, candidates scored by feed position) from one Atom page."""
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as exc:
        raise ParseError(f"arXiv answer is not Atom XML: {exc}") from exc
    total_text = _text(root, "os:totalResults")
    total = int(total_text) if total_text.isdigit() else 0
    entries = root.findall("a:entry", NS)
    out: list[Candidate] = []
    for rank, entry in enumerate(entries):
        entry_id = _text(entry, "a:id")
        if "/api/errors" in entry_id:  # arXiv reports a bad query as a single "Error" entry
            raise ParseError(f"arXiv rejected the query: {_text(entry, 'a:summary')}")
        links = {
            link.get("title") or link.get("rel") or "": link.get("href") or "" for link in entry.findall("a:link", NS)
        }
        category = entry.find("arxiv:primary_category", NS)
        out.append(
            Candidate(
                title=_text(entry, "a:title"),
                url=links.get("alternate") or entry_id,
                snippet=_text(entry, "a:summary"),
                kind="academic",
                published=parse_date(_text(entry, "a:published")),
                score=rank_score(rank, len(entries)),
                retriever="arxiv",
                extra={
                    "arxiv_id": entry_id.rsplit("/abs/", 1)[-1],
                    "doi": _text(entry, "arxiv:doi") or None,
                    "pdf_url": links.get("pdf") or None,
                    "venue": _text(entry, "arxiv:journal_ref") or None,
                    "authors": "; ".join(_text(a, "a:name") for a in entry.findall("a:author", NS)),
                    "category": category.get("term") if category is not None else None,
                },
            )
        )
    return total, out


class ArxivRetriever(CachedRetriever):
    name = "arxiv"

    def __init__(
        self,
        client: PoliteClient,
        cache: Cache | None,
        *,
        base_url: str,
        page_size: int = 100,
        min_interval_s: float = ARXIV_MIN_INTERVAL_S,
    ) -> None:
        super().__init__(client, cache, scope=base_url)
        self.base_url = base_url
        self.page_size = page_size
        self.since: date | None = None
        # enforced here too, so pointing arxiv_url at a mirror does not lose the rate limit
        client.limiter.ensure_interval(httpx.URL(base_url).host, min_interval_s)

    async def _search(self, query: str, k: int) -> list[Candidate]:
        found: list[Candidate] = []
        while len(found) < k:
            start = len(found)
            response = await self.client.get(
                self.base_url,
                params={
                    "search_query": build_query(query) + (f" AND {since_clause(self.since)}" if self.since else ""),
                    "start": start,
                    "max_results": min(self.page_size, k - start),
                    "sortBy": "relevance",
                },
            )
            total, page = parse_feed(response.raise_for_status().content)
            found.extend(page)
            if not page or len(found) >= total:
                break
        for rank, cand in enumerate(found):  # re-score over the whole result list, not per page
            cand.score = rank_score(rank, len(found))
        return found[:k]


def factory(deps: RetrieverDeps) -> ArxivRetriever:
    url = deps.settings.arxiv_url
    host = httpx.URL(url).host
    # arXiv itself always gets its 3 s; a mirror (or a test server) may be given its own interval
    interval = deps.settings.host_intervals.get(host, ARXIV_MIN_INTERVAL_S)
    if host == "arxiv.org" or host.endswith(".arxiv.org"):
        interval = max(interval, ARXIV_MIN_INTERVAL_S)
    r = ArxivRetriever(deps.client, deps.cache, base_url=url, min_interval_s=interval)
    if deps.since is not None:  # a monitoring run: only papers submitted since then
        r.since = deps.since
        r._cache_name += f"|since={deps.since.isoformat()}"
    return r


def since_clause(since: date, today: date | None = None) -> str:
    """arXiv's submission-date range from `since` to tomorrow (its query syntax: YYYYMMDDHHMM, inclusive)."""
    until = (today or date.today()) + timedelta(days=1)
    return f"submittedDate:[{since.strftime('%Y%m%d')}0000 TO {until.strftime('%Y%m%d')}2359]"
