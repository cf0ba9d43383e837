"""GitHub REST: a repository's facts, releases, contributors and weekly commit activity as first-hand records.

Requests go through the PoliteClient (cache, per-host politeness, backoff on 429/5xx). GitHub's own limit is
read from every answer's X-RateLimit-* headers: once it says none are left, no further request is sent until
its reset time, and a 403 or 429 that says the limit is exhausted ends the record with a clear error instead
of a retry storm. A token from the settings (`OPENRESEARCH_GITHUB_TOKEN`) raises the limit; without one the
unauthenticated limit is respected the same way.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from openresearch.errors import FetchError, ParseError
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.records.model import Fact, Record
from openresearch.ingest.response import FetchedResponse

PUBLISHER = "GitHub REST API"
_NEXT = re.compile(r'<([^>]+)>\s*;\s*rel="next"')


class RateLimited(FetchError):
    """The API's own request limit is exhausted until `reset` (epoch seconds)."""

    def __init__(self, message: str, reset: float | None) -> None:
        super().__init__(message)
        self.reset = reset


@dataclass
class RateLimit:
    """What the last answer's X-RateLimit-* headers said."""

    limit: int | None = None
    remaining: int | None = None
    reset: float | None = None  # epoch seconds
    seen: list[tuple[int | None, int | None]] = field(default_factory=list)

    def update(self, headers: dict[str, str]) -> None:
        def num(name: str) -> int | None:
            v = headers.get(name, "")
            return int(v) if v.strip().isdigit() else None

        if "x-ratelimit-remaining" not in headers:
            return
        self.limit, self.remaining = num("x-ratelimit-limit"), num("x-ratelimit-remaining")
        reset = num("x-ratelimit-reset")
        self.reset = float(reset) if reset is not None else None
        self.seen.append((self.limit, self.remaining))

    def exhausted(self, now: float) -> bool:
        return self.remaining == 0 and (self.reset is None or self.reset > now)


class GitHubClient:
    def __init__(self, client: PoliteClient, base_url: str, *, token: str | None = None, max_pages: int = 10,
                 stats_retries: int = 3, stats_wait_s: float = 2.0, fresh: bool = False) -> None:
        self.client = client
        self.base = base_url.rstrip("/")
        self.token = token
        self.max_pages = max_pages
        self.stats_retries = stats_retries
        self.stats_wait_s = stats_wait_s
        self.rate = RateLimit()
        self.fresh = fresh  # every request goes to the API (monitoring), none is answered from the cache

    def _headers(self) -> dict[str, str]:
        h = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
        if self.token:
            h["Authorization"] = f"Bearer {self.token}"
        return h

    async def get(self, url: str, params: dict[str, str | int] | None = None) -> FetchedResponse:
        if self.rate.exhausted(time.time()):
            raise RateLimited(f"GitHub API rate limit exhausted ({self.rate.limit} requests); it resets at "
                              f"{_when(self.rate.reset)}", self.rate.reset)
        res = await self.client.get(url, params=params, headers=self._headers(), use_cache=not self.fresh)
        if not res.from_cache:
            self.rate.update(res.headers)
        if res.status in (403, 429) and (res.headers.get("x-ratelimit-remaining") == "0" or res.status == 429):
            reset = res.headers.get("x-ratelimit-reset", "")
            at = float(reset) if reset.isdigit() else None
            raise RateLimited(f"GitHub API rate limit exhausted: {_message(res)}; it resets at {_when(at)}", at)
        if res.status == 404:
            raise FetchError(f"GitHub: no repository at {url} ({_message(res)})")
        return res

    async def pages(self, url: str, params: dict[str, str | int]) -> tuple[list[Any], bool]:
        """Every item of a paged list (Link: rel="next"), up to max_pages; and whether pages were left."""
        items: list[Any] = []
        next_url: str | None = url
        query: dict[str, str | int] | None = params
        for _ in range(self.max_pages):
            if next_url is None:
                return items, False
            res = (await self.get(next_url, query)).raise_for_status()
            body = res.json_body()
            if not isinstance(body, list):
                raise ParseError(f"GitHub: {next_url} did not answer a list")
            items.extend(body)
            m = _NEXT.search(res.headers.get("link", ""))
            next_url, query = (m.group(1), None) if m else (None, None)
        return items, next_url is not None

    async def records(self, repo: str, since: int | None = None) -> list[Record]:
        base = f"{self.base}/repos/{repo}"
        facts = parse_repo((await self.get(base)).raise_for_status().json_body(), repo)
        out = [Record(url=base, title=f"{PUBLISHER}: repository {repo}", publisher=PUBLISHER, entities=(repo,),
                      facts=tuple(facts), heading=f"GitHub repository {repo}")]
        releases, more = await self.pages(f"{base}/releases", {"per_page": 100})
        out.append(Record(url=f"{base}/releases", title=f"{PUBLISHER}: releases of {repo}", publisher=PUBLISHER,
                          entities=(repo,), facts=tuple(parse_releases(releases, repo)),
                          heading=f"Releases of GitHub repository {repo}, newest first",
                          notes=(f"More releases than {len(releases)} were listed; only these were read.",)
                          if more else ()))
        people, more = await self.pages(f"{base}/contributors", {"per_page": 100})
        out.append(Record(url=f"{base}/contributors", title=f"{PUBLISHER}: contributors of {repo}",
                          publisher=PUBLISHER, entities=(repo,), facts=tuple(parse_contributors(people, repo)),
                          heading=f"Contributors of GitHub repository {repo}, most contributions first",
                          notes=(f"More contributors than {len(people)} were listed; only these were read.",)
                          if more else ()))
        weeks, note = await self.commit_activity(f"{base}/stats/commit_activity")
        out.append(Record(url=f"{base}/stats/commit_activity", title=f"{PUBLISHER}: weekly commits of {repo}",
                          publisher=PUBLISHER, entities=(repo,), facts=tuple(parse_commit_activity(weeks, repo)),
                          heading=f"Weekly commit activity of GitHub repository {repo} (the last 52 weeks)",
                          notes=(note,) if note else ()))
        return out

    async def commit_activity(self, url: str) -> tuple[list[Any], str | None]:
        """202 means GitHub is still computing the statistic: ask again a few times, then say so."""
        for attempt in range(self.stats_retries + 1):
            res = await self.get(url)
            if res.status == 200:
                body = res.json_body()
                if not isinstance(body, list):
                    raise ParseError(f"GitHub: {url} did not answer a list of weeks")
                return body, None
            if res.status == 204:
                return [], "GitHub holds no commit activity for this repository."
            if res.status != 202:
                res.raise_for_status()
            if attempt < self.stats_retries:
                await asyncio.sleep(self.stats_wait_s)
        return [], "GitHub was still computing the weekly commit activity; it was not read."


def _message(res: FetchedResponse) -> str:
    try:
        body = res.json_body()
    except ValueError:
        return f"HTTP {res.status}"
    return str(body.get("message", f"HTTP {res.status}"))[:200] if isinstance(body, dict) else f"HTTP {res.status}"


def _when(epoch: float | None) -> str:
    return datetime.fromtimestamp(epoch, tz=UTC).isoformat() if epoch is not None else "an unknown time"


def _day(value: object) -> date | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).date()
    except ValueError:
        return None


def parse_repo(body: Any, repo: str) -> list[Fact]:
    if not isinstance(body, dict) or "full_name" not in body:
        raise ParseError(f"GitHub: the answer for {repo} is not a repository")
    name = str(body["full_name"])
    today = datetime.now(tz=UTC).date()  # a current count holds on the day it was read
    facts: list[Fact] = []
    for field_name, label, unit in (("stargazers_count", "stars", "stars"), ("forks_count", "forks", "forks"),
                                    ("open_issues_count", "open issues", "issues")):
        v = body.get(field_name)
        if isinstance(v, int) and not isinstance(v, bool):
            facts.append(Fact(f"{name} {label}: {v}", name, label, v, unit, None, today))
    licence = body.get("license")
    if isinstance(licence, dict) and licence.get("name"):
        facts.append(Fact(f"{name} licence: {licence['name']} ({licence.get('spdx_id') or 'no SPDX id'})", name))
    for field_name, label in (("created_at", "created"), ("pushed_at", "last push")):
        d = _day(body.get(field_name))
        if d is not None:
            facts.append(Fact(f"{name} {label}: {d.isoformat()}", name, label, d.isoformat(), "date", None, d))
    return facts


def parse_releases(items: list[Any], repo: str) -> list[Fact]:
    facts: list[Fact] = []
    for r in items:
        if not isinstance(r, dict) or r.get("draft"):
            continue
        tag = str(r.get("tag_name") or r.get("name") or "").strip()
        d = _day(r.get("published_at")) or _day(r.get("created_at"))
        if not tag or d is None:
            continue
        pre = " (pre-release)" if r.get("prerelease") else ""
        facts.append(Fact(f"{repo} release {tag}{pre} published {d.isoformat()}", repo, "release published",
                          d.isoformat(), "date", f"release {tag}", d))
    facts.insert(0, Fact(f"{repo} releases listed: {len(facts)}", repo, "releases listed", len(facts), "releases",
                         None, datetime.now(tz=UTC).date()))
    return facts


def parse_contributors(items: list[Any], repo: str) -> list[Fact]:
    today = datetime.now(tz=UTC).date()
    facts = [Fact(f"{repo} contributors listed: {len(items)}", repo, "contributors listed", len(items),
                  "contributors", None, today)]
    for c in items:
        if not isinstance(c, dict) or not isinstance(c.get("contributions"), int):
            continue
        who = str(c.get("login") or c.get("name") or "anonymous")
        facts.append(Fact(f"{repo} contributor {who}: {c['contributions']} contributions", repo, "contributions",
                          c["contributions"], "contributions", f"contributor {who}", today))
    return facts


def parse_commit_activity(weeks: list[Any], repo: str) -> list[Fact]:
    facts: list[Fact] = []
    total = 0
    last: date | None = None
    for w in weeks:
        if not isinstance(w, dict) or not isinstance(w.get("week"), int) or not isinstance(w.get("total"), int):
            continue
        start = datetime.fromtimestamp(w["week"], tz=UTC).date()
        total += w["total"]
        last = start
        facts.append(Fact(f"{repo} commits in the week of {start.isoformat()}: {w['total']}", repo, "weekly commits",
                          w["total"], "commits", f"week of {start.isoformat()}", start))
    if last is not None:
        facts.append(Fact(f"{repo} commits in the {len(facts)} weeks to the week of {last.isoformat()}: {total}",
                          repo, "commits", total, "commits", f"{len(facts)} weeks to {last.isoformat()}", last))
    return facts
