"""Politeness: per-host and global concurrency, a minimum gap between request starts to one host,
and the retry timing rules (exponential backoff with jitter, Retry-After). Clock and sleep are
injected so the interval logic is tested without waiting.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

Clock = Callable[[], float]

# The host measures gaps at its end, shifted by network and server-side jitter (a fresh connection's
# accept and thread start alone cost ~1 ms locally). Keeping a small margin above the configured
# interval means that jitter does not put two arrivals closer than the host asked for.
JITTER_MARGIN = 0.02
JITTER_FLOOR_S = 0.005
Sleep = Callable[[float], Awaitable[None]]


@dataclass
class _HostState:
    slots: asyncio.Semaphore
    start_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    next_start: float = 0.0  # clock time before which no request to this host may start


class HostLimiter:
    """Gate every request start: host slot -> global slot -> wait for the host's interval -> go.

    The global slot is taken *before* the interval wait on purpose: if it were taken after, a request
    could be held at the global gate past its reserved start and then start right next to the following
    one, breaking the minimum gap.
    """

    def __init__(
        self,
        *,
        per_host: int = 2,
        global_limit: int = 8,
        min_interval_s: float = 0.0,
        host_intervals: Mapping[str, float] | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self._per_host = max(1, per_host)
        self._global = asyncio.Semaphore(max(1, global_limit))
        self._default_interval = min_interval_s
        self._intervals = {h.lower(): v for h, v in (host_intervals or {}).items()}
        self._hosts: dict[str, _HostState] = {}
        self.clock = clock
        self.sleep = sleep

    def interval(self, host: str) -> float:
        """The gap kept between starts: the configured one plus a jitter margin (see JITTER_MARGIN)."""
        configured = self._intervals.get(host.lower(), self._default_interval)
        return configured + max(JITTER_FLOOR_S, JITTER_MARGIN * configured) if configured > 0 else 0.0

    def _state(self, host: str) -> _HostState:
        key = host.lower()
        if key not in self._hosts:
            self._hosts[key] = _HostState(asyncio.Semaphore(self._per_host))
        return self._hosts[key]

    def ensure_interval(self, host: str, seconds: float) -> None:
        """Raise (never lower) the configured interval for a host: an API's published rate limit."""
        key = host.lower()
        self._intervals[key] = max(seconds, self._intervals.get(key, self._default_interval))

    def defer(self, host: str, until: float) -> None:
        """Hold every later request to this host until clock time `until` (a Retry-After)."""
        state = self._state(host)
        state.next_start = max(state.next_start, until)

    @asynccontextmanager
    async def slot(self, host: str) -> AsyncIterator[StartGate]:
        """Hold a request slot for `host`; the caller calls `gate.mark()` once the request is on the wire."""
        state = self._state(host)
        interval = self.interval(host)
        async with state.slots, self._global:
            await state.start_lock.acquire()
            try:
                wait = state.next_start - self.clock()
                while wait > 0:  # loop: a Retry-After may push next_start while we sleep
                    await self.sleep(wait)
                    wait = state.next_start - self.clock()
            except BaseException:
                state.start_lock.release()
                raise
            gate = StartGate(self, state, interval)
            if interval <= 0:
                gate.mark()  # no gap to keep: don't serialise connection set-up for this host
            try:
                yield gate
            finally:
                gate.mark()  # the request failed before reaching the wire: still counts as a start


class StartGate:
    """The start of one request. Until `mark()` the host's start lock stays held, so the next request's
    interval counts from when this one's headers were *sent* (after any TCP/TLS set-up), which is what
    the server measures, not from when it was handed to the HTTP library."""

    def __init__(self, limiter: HostLimiter, state: _HostState, interval: float) -> None:
        self._limiter = limiter
        self._state = state
        self._interval = interval
        self.started = limiter.clock()
        self.marked = False

    def mark(self) -> None:
        if self.marked:
            return
        self.marked = True
        now = self._limiter.clock()
        self._state.next_start = max(self._state.next_start, now + self._interval)
        self._state.start_lock.release()


def backoff_delay(attempt: int, base_s: float, cap_s: float, rng: random.Random) -> float:
    """Exponential backoff with "equal jitter": uniform in [c/2, c] where c = min(cap, base*2^attempt).

    Half fixed, half random: retries never bunch at zero, yet clients that failed together spread out.
    """
    ceiling = min(cap_s, base_s * (2.0**attempt))
    return ceiling / 2 + rng.uniform(0, ceiling / 2)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP-date); None if absent/garbled."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    now = now or datetime.now(UTC)
    return max(0.0, (when - now).total_seconds())
