"""The one check every entry point runs on what a caller asks for: the CLI, `POST /runs`, `/topics`, the MCP
tools (stdio and HTTP), a run's resume and every monitoring run (a stored topic is checked again when it runs,
so one stored before a rule existed cannot slip past it).

A `Door` says who is asking. The CLI's user names their own files (`local_roots=None`: any path); the API and
MCP read local files only under the configured roots, and none when no root is configured. Everything else is
the same at every door: a question that is not blank, known source kinds, a sane monitoring interval, and a
webhook URL that passes the fetcher's SSRF guard (`ingest/safety.py`; hosts in `webhook_allow_hosts` are the
explicit opt-in for a local hook). Every refusal is an `InputError` with a one-line message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from openresearch.errors import FetchError, InputError
from openresearch.ingest.records.spec import is_record_source, parse_spec
from openresearch.ingest.safety import Resolver, UrlGuard
from openresearch.monitor.schedule import Schedule, parse_schedule

if TYPE_CHECKING:
    from openresearch.agents.run.run_config import RunOptions
    from openresearch.config import Settings

# the kinds a run understands: these names map to retrievers (agents/run/gather.py), plus local:PATH
SOURCE_RETRIEVERS: dict[str, list[str]] = {"web": ["web"], "arxiv": ["arxiv"],
                                           "scholar": ["semantic_scholar", "openalex"]}
LOCAL_PREFIX = "local:"
RECORD_FORMS = ("github:OWNER/REPO", "worldbank:INDICATOR[:COUNTRIES]", "who:INDICATOR[:COUNTRIES]")
MAX_QUESTION_CHARS = 2000
MAX_INTERVAL_MS = 366 * 86_400_000  # a topic checked less than yearly is not being watched
ROOTS_SETTING = "OPENRESEARCH_API_LOCAL_ROOTS"


@dataclass(frozen=True)
class Door:
    """Who is asking, and what that caller may reach."""

    name: str  # cli | api | mcp: named in messages
    local_roots: tuple[Path, ...] | None  # None: any path; (): no local source at all
    webhook_hosts: tuple[str, ...] = ()  # webhook hosts allowed to be private (OPENRESEARCH_WEBHOOK_ALLOW_HOSTS)
    resolver: Resolver | None = None  # tests inject a static one; None: the system resolver

    @classmethod
    def cli(cls, settings: Settings, resolver: Resolver | None = None) -> Door:
        return cls("cli", None, tuple(settings.webhook_allow_hosts), resolver)

    @classmethod
    def service(cls, settings: Settings, name: str = "api", resolver: Resolver | None = None) -> Door:
        roots = tuple(Path(r).expanduser().resolve() for r in settings.api_local_roots)
        return cls(name, roots, tuple(settings.webhook_allow_hosts), resolver)


def door_for_topic(origin: str | None, settings: Settings, resolver: Resolver | None = None) -> Door:
    """The door a stored topic came through; a topic stored before doors were recorded gets the strict one."""
    if origin == "cli":
        return Door.cli(settings, resolver)
    return Door.service(settings, origin or "api", resolver)


def check_question(question: str) -> str:
    """The question, stripped; refused when blank, too long, or holding NUL."""
    text = question.strip()
    if not text:
        raise InputError("the question is empty")
    if len(text) > MAX_QUESTION_CHARS:
        raise InputError(f"the question is longer than {MAX_QUESTION_CHARS} characters")
    if "\x00" in text:
        raise InputError("the question holds a NUL character")
    return text


def check_local(source: str, door: Door) -> str:
    """`local:PATH` with PATH resolved (`..` and symbolic links followed); refused outside the door's roots."""
    raw = source[len(LOCAL_PREFIX):].strip()
    if not raw or "\x00" in raw:
        raise InputError(f"local source {source[:100]!r} names no path")
    path = Path(raw).expanduser().resolve()
    roots = door.local_roots
    if roots is not None:
        if not roots:
            raise InputError(f"local source {source[:100]!r} refused: {door.name} reads no local files "
                             f"(set {ROOTS_SETTING} to allow folders)")
        if not any(path == r or r in path.parents for r in roots):
            raise InputError(f"local source {source[:100]!r} is not under a folder {ROOTS_SETTING} allows")
    return LOCAL_PREFIX + str(path)


def check_sources(sources: Sequence[str], door: Door) -> list[str]:
    """Known source kinds only (web, arxiv, scholar, local:PATH, github:OWNER/REPO, worldbank:INDICATOR[:COUNTRIES],
    who:INDICATOR[:COUNTRIES]), local paths resolved and inside the roots."""
    if not sources:
        raise InputError("at least one source is needed")
    out: list[str] = []
    for s in sources:
        if s.startswith(LOCAL_PREFIX):
            out.append(check_local(s, door))
        elif s in SOURCE_RETRIEVERS:
            out.append(s)
        elif is_record_source(s):
            out.append(parse_spec(s).source)  # a first-hand record: github:, worldbank:, who:
        else:
            kinds = ", ".join([*SOURCE_RETRIEVERS, "local:PATH", *RECORD_FORMS])
            raise InputError(f"unknown source {s[:100]!r}: use {kinds}")
    return list(dict.fromkeys(out))


def check_schedule(every: str) -> Schedule:
    """An interval between one minute and a year, or a cron expression."""
    schedule = parse_schedule(every)
    if schedule.interval_ms is not None and schedule.interval_ms > MAX_INTERVAL_MS:
        raise InputError(f"schedule {every[:100]!r}: the longest interval is 366 days")
    return schedule


async def check_webhook(url: str, door: Door) -> str:
    """An http(s) URL whose host resolves only to public addresses (the fetcher's own SSRF rules)."""
    guard = UrlGuard(door.webhook_hosts, door.resolver)
    try:
        await guard.check(url.strip())
    except FetchError as e:  # FetchRefused, or a name that does not resolve
        hint = "" if "resolves to" not in str(e) else " (a receiver on your own network: name its host in " \
            "OPENRESEARCH_WEBHOOK_ALLOW_HOSTS)"
        raise InputError(f"webhook refused: {e}{hint}") from None
    return url.strip()


def check_webhook_sync(url: str, door: Door) -> str:
    """`check_webhook` from synchronous code (a CLI command, a sync API handler, a worker thread)."""
    return asyncio.run(check_webhook(url, door))


def check_run(options: RunOptions, door: Door) -> RunOptions:
    """Run options as asked through `door`: question and sources checked, local paths resolved."""
    return options.model_copy(update={"question": check_question(options.question),
                                      "sources": check_sources(options.sources, door)})


@dataclass(frozen=True)
class TopicAsk:
    """What a caller asks to watch (or what a stored topic holds), checked together."""

    question: str
    sources: list[str]
    every: str
    webhook: str | None = None


async def check_topic(ask: TopicAsk, door: Door) -> TopicAsk:
    hook = await check_webhook(ask.webhook, door) if ask.webhook else None
    check_schedule(ask.every)
    return TopicAsk(check_question(ask.question), check_sources(ask.sources, door), ask.every.strip(), hook)


def check_topic_sync(ask: TopicAsk, door: Door) -> TopicAsk:
    return asyncio.run(check_topic(ask, door))
