"""What the PoliteClient hands back (FetchedResponse) and what it counts (ClientStats)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from openresearch.errors import FetchError


class FetchedResponse(BaseModel):
    url: str
    final_url: str
    status: int
    headers: dict[str, str]
    content: bytes
    content_type: str  # media type only, lower case ("text/html"), "" when absent
    from_cache: bool
    elapsed: float
    redirects: list[str] = []

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def text(self) -> str:
        charset = "utf-8"
        for part in self.headers.get("content-type", "").split(";")[1:]:
            name, _, value = part.strip().partition("=")
            if name.lower() == "charset" and value:
                charset = value.strip('"')
        try:
            return self.content.decode(charset, errors="replace")
        except LookupError:
            return self.content.decode("utf-8", errors="replace")

    def json_body(self) -> Any:
        return json.loads(self.content)

    def raise_for_status(self) -> FetchedResponse:
        if not self.ok:
            raise FetchError(f"HTTP {self.status} from {self.final_url}")
        return self


@dataclass
class ClientStats:
    requests: int = 0  # requests that went over the wire, retries and redirect hops included
    cache_hits: int = 0  # answered from a fresh cache entry, no network
    revalidated: int = 0  # 304 Not Modified: network round trip, body from cache
    retries: int = 0
    refused: int = 0  # refused by policy (SSRF guard, redirects, body size)


def media_type(headers: Mapping[str, str]) -> str:
    return headers.get("content-type", "").split(";", 1)[0].strip().lower()
