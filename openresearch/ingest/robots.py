"""robots.txt, fetched once per origin through the PoliteClient and kept in memory.

Follows RFC 9309 on failures: 4xx means "no rules, allow all"; a 5xx or unreachable robots.txt means
"assume complete disallow" for that origin (until the policy object is dropped). A refusal says which of
these it was, so "the site's robots.txt could not be read" is never shown as "the site forbids this page".
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from urllib.robotparser import RobotFileParser

import httpx

from openresearch.errors import FetchError, FetchRefused
from openresearch.ingest.http import PoliteClient

log = logging.getLogger(__name__)

MAX_ROBOTS_BYTES = 500 * 1024  # RFC 9309 asks crawlers to parse at least 500 KiB


def agent_token(user_agent: str) -> str:
    """The product token that robots.txt groups match: "OpenResearch/0.1 (...)" -> "OpenResearch"."""
    return user_agent.split("/", 1)[0].split(" ", 1)[0] or "*"


@dataclass(frozen=True)
class DisallowAll:
    """RFC 9309's "assume complete disallow" after a failed robots.txt request, with why it failed."""

    reason: str


def unreachable_reason(origin: str, cause: str) -> str:
    return (f"robots.txt of {origin} could not be read ({cause}); RFC 9309 says to assume the whole site is "
            "disallowed, so nothing there is fetched (OPENRESEARCH_RESPECT_ROBOTS=false skips the check)")


class RobotsPolicy:
    def __init__(self, client: PoliteClient, *, user_agent: str | None = None) -> None:
        self._client = client
        self._agent = agent_token(user_agent or client.user_agent)
        # True = allow all (4xx), DisallowAll (5xx / unreachable, with the cause), else the parsed rules
        self._rules: dict[str, RobotFileParser | DisallowAll | bool] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def allowed(self, url: str) -> tuple[bool, str | None]:
        """(allowed, reason when not)."""
        parsed = httpx.URL(url)
        origin = f"{parsed.scheme}://{parsed.netloc.decode('ascii')}"
        lock = self._locks.setdefault(origin, asyncio.Lock())
        async with lock:  # one robots.txt fetch per origin even when a batch starts together
            if origin not in self._rules:
                self._rules[origin] = await self._load(origin)
        rules = self._rules[origin]
        if isinstance(rules, DisallowAll):
            return False, rules.reason
        if rules is True or (isinstance(rules, RobotFileParser) and rules.can_fetch(self._agent, url)):
            return True, None
        return False, f"disallowed by the rules in {origin}/robots.txt for user agent {self._agent!r}"

    async def _load(self, origin: str) -> RobotFileParser | DisallowAll | bool:
        try:
            response = await self._client.get(f"{origin}/robots.txt")
        except FetchRefused:
            raise
        except FetchError as exc:
            log.warning("robots.txt of %s unreachable (%s): treating as disallow-all", origin, exc)
            return DisallowAll(unreachable_reason(origin, f"unreachable: {str(exc)[:200]}"))
        if 400 <= response.status < 500:
            return True
        if response.status >= 500:
            log.warning("robots.txt of %s answered %d: treating as disallow-all", origin, response.status)
            return DisallowAll(unreachable_reason(origin, f"the server answered HTTP {response.status}"))
        parser = RobotFileParser(f"{origin}/robots.txt")
        parser.parse(response.content[:MAX_ROBOTS_BYTES].decode("utf-8", errors="replace").splitlines())
        return parser
