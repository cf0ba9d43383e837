"""The Retriever role: its result type, its Protocol, and a base class that adds the search cache."""

from __future__ import annotations

import logging
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import date, datetime
from html import unescape
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from openresearch.ingest.cache import Cache
from openresearch.ingest.http import PoliteClient

if TYPE_CHECKING:
    from openresearch.config import Settings

log = logging.getLogger(__name__)

CandidateKind = Literal["web", "academic", "internal"]
ExtraValue = str | int | float | None


class Candidate(BaseModel):
    """A search hit: enough to decide whether to deep-fetch it, not yet a Source."""

    title: str
    url: str
    snippet: str = ""
    kind: CandidateKind
    published: date | None = None
    score: float = 0.0  # retriever-local relevance in [0, 1]; higher is better
    retriever: str
    extra: dict[str, ExtraValue] = Field(default_factory=dict)  # doi, venue, citations, pdf_url, authors


@runtime_checkable
class Retriever(Protocol):
    name: str

    async def search(self, query: str, k: int) -> list[Candidate]: ...


@dataclass(frozen=True)
class RetrieverDeps:
    """What a retriever factory is given: configuration and the shared I/O."""

    settings: Settings
    client: PoliteClient
    cache: Cache | None = None
    since: date | None = None  # only what appeared since this date (monitoring runs); None: any date


class CachedRetriever(ABC):
    """Answers repeated (query, k) from the search cache; subclasses implement `_search`."""

    name: str = ""

    def __init__(self, client: PoliteClient, cache: Cache | None, *, scope: str = "") -> None:
        self.client = client
        self.cache = cache
        # the endpoint (and options) are part of the key: a different SearXNG must not share entries
        self._cache_name = f"{self.name}|{scope}" if scope else self.name

    async def search(self, query: str, k: int) -> list[Candidate]:
        query = " ".join(query.split())
        if not query or k <= 0:
            return []
        if self.cache is not None:
            hit = self.cache.get_search(self._cache_name, query, k)
            if hit is not None:
                return [Candidate.model_validate(c) for c in hit]
        found = (await self._search(query, k))[:k]
        if self.cache is not None:
            self.cache.put_search(self._cache_name, query, k, [c.model_dump(mode="json") for c in found])
        return found

    @abstractmethod
    async def _search(self, query: str, k: int) -> list[Candidate]: ...


# --- small pure helpers shared by the parsers -------------------------------------------------------
_TAG = re.compile(r"<[^>]+>")


def strip_tags(text: str) -> str:
    """Search snippets carry highlight markup (<span class="searchmatch">); keep the words only."""
    return " ".join(unescape(_TAG.sub("", text)).split())


def rank_score(rank: int, total: int) -> float:
    """Position-based score in (0, 1] for APIs that return an order but no comparable score."""
    return 1.0 - rank / max(total, 1)


def parse_date(value: object) -> date | None:
    """ISO date or datetime ("2024-05-14", "2024-05-14T00:00:00Z") -> date; anything else -> None."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).date()
    except ValueError:
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None
