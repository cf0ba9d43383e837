"""Schedules: `1d`, `6h`, `30m` intervals or a cron expression (croniter), next-due times with jitter.

A topic that missed several runs (the machine was off) is due once, then scheduled after *now*: it catches
up a missed day once, not once per missed run. The jitter is a stable hash of the topic id, so a hundred
topics due at 06:00 start spread over a few minutes, and the same topic always gets the same offset.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from croniter import croniter

from openresearch.errors import InputError

_INTERVAL = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_UNIT_MS = {"s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 7 * 86_400_000}
MAX_JITTER_MS = 15 * 60_000


@dataclass(frozen=True)
class Schedule:
    text: str
    interval_ms: int | None  # None: a cron expression

    def next_after(self, after_ms: int) -> int:
        """The first scheduled time strictly after `after_ms`, before jitter."""
        if self.interval_ms is not None:
            return (after_ms // self.interval_ms + 1) * self.interval_ms
        base = datetime.fromtimestamp(after_ms / 1000, tz=UTC)
        nxt: datetime = croniter(self.text, base).get_next(datetime)
        return int(nxt.timestamp() * 1000)

    def period_ms(self) -> int:
        """About how long between two runs (bounds the jitter)."""
        if self.interval_ms is not None:
            return self.interval_ms
        first = self.next_after(0)
        return max(60_000, self.next_after(first) - first)


def parse_schedule(text: str) -> Schedule:
    """`1d`, `6h`, `90m`, `2w`, `daily`/`hourly`/`weekly`, or a five-field cron expression."""
    t = {"daily": "1d", "hourly": "1h", "weekly": "1w"}.get(text.strip().lower(), text.strip())
    m = _INTERVAL.match(t)
    if m:
        ms = int(m.group(1)) * _UNIT_MS[m.group(2)]
        if ms < 60_000:
            raise InputError(f"schedule {text!r}: the shortest interval is one minute")
        return Schedule(t, ms)
    if croniter.is_valid(t):
        return Schedule(t, None)
    raise InputError(f"schedule {text!r} is neither an interval (1d, 6h, 30m) nor a cron expression")


def jitter_ms(topic_id: str, schedule: Schedule) -> int:
    """A stable offset in [0, min(period / 10, 15 min))."""
    span = min(schedule.period_ms() // 10, MAX_JITTER_MS)
    if span <= 0:
        return 0
    h = int.from_bytes(hashlib.sha256(topic_id.encode()).digest()[:8], "big")
    return h % span


def next_due(topic_id: str, schedule: Schedule, now_ms: int) -> int:
    """When the topic is next due after a run that ended at `now_ms` (missed slots are not replayed)."""
    return schedule.next_after(now_ms) + jitter_ms(topic_id, schedule)
