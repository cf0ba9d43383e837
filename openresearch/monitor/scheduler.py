"""The API process's own scheduler of monitoring topics, on APScheduler (3.x, `BackgroundScheduler`).

The schedule lives in the graph (`Topic.next_due`, with its stable jitter; schedule.py), never in the
scheduler: each active topic is one APScheduler job whose date trigger is the topic's `next_due`. When it fires
the topic runs under its lease (`Monitor.run_topic(due_only=True)`), so a topic that a `monitor worker` or
another API process claimed first is skipped, and the job is set again at the `next_due` the run wrote. A
sync job re-reads the topics every `sync_s` seconds, so topics added, paused, resumed or removed by the CLI,
the API or another process are picked up. A topic whose `next_due` passed while no process ran (a missed day)
has a trigger in the past: APScheduler runs it once at start (`misfire_grace_time=None`, `coalesce`), not
once per missed run. A restart loses nothing: the jobs are rebuilt from the graph.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime

from apscheduler.events import EVENT_JOB_ERROR, JobExecutionEvent
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from openresearch.errors import InputError
from openresearch.monitor.service import Monitor

log = logging.getLogger(__name__)
SYNC_JOB = "openresearch-sync-topics"


def _at(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


class TopicScheduler:
    """One job per active topic at its `next_due`; `start()` / `stop()`; `workers` topics run at once."""

    def __init__(self, monitor: Monitor, *, sync_s: float = 30.0, workers: int = 1) -> None:
        self.monitor = monitor
        self.sync_s = sync_s
        self.scheduler = BackgroundScheduler(
            executors={"default": ThreadPoolExecutor(max_workers=max(1, workers))},
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
            timezone=UTC)
        self.scheduler.add_listener(self._failed, EVENT_JOB_ERROR)
        self._due: dict[str, int] = {}  # topic id -> the next_due its job is set for
        self._running: set[str] = set()
        self._lock = threading.Lock()
        self.ran: list[str] = []  # topic ids this scheduler ran (for tests and logs)

    def start(self) -> None:
        self.sync()
        self.scheduler.add_job(self.sync, IntervalTrigger(seconds=self.sync_s, timezone=UTC), id=SYNC_JOB,
                               replace_existing=True)
        self.scheduler.start()

    def stop(self, wait: bool = True) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=wait)

    def sync(self) -> None:
        """Jobs for the graph's active topics at their `next_due`; no job for paused or removed ones."""
        try:
            topics = self.monitor.store.topics()
        except Exception:  # the graph is restarting: keep the jobs, try again at the next sync
            log.exception("could not read the monitoring topics")
            return
        active = {t.id: t.next_due for t in topics if t.status == "active"}
        with self._lock:
            for tid in [t for t in self._due if t not in active]:
                self._remove(tid)
            for tid, due in active.items():
                if self._due.get(tid) != due and tid not in self._running:
                    self._set(tid, due)

    def _set(self, tid: str, due: int) -> None:
        self.scheduler.add_job(self._run, DateTrigger(run_date=_at(due), timezone=UTC), args=[tid], id=tid,
                               name=f"monitor {tid}", replace_existing=True)
        self._due[tid] = due

    def _remove(self, tid: str) -> None:
        with contextlib.suppress(JobLookupError):  # it fired and is running or done
            self.scheduler.remove_job(tid)
        self._due.pop(tid, None)

    def _run(self, tid: str) -> None:
        with self._lock:  # the job is spent: the end of this run (or the next sync) sets the next one
            self._due.pop(tid, None)
            self._running.add(tid)
        try:
            result = self.monitor.run_topic(tid, due_only=True)
        except InputError as e:  # refused by the boundary (the topic is paused): one line, no traceback
            log.warning("%s", e)
            return
        except BaseException:
            self._reschedule(tid)  # run_topic released the lease with a retry time
            raise
        finally:
            with self._lock:
                self._running.discard(tid)
        if result is None:
            return  # another worker holds it (or it is no longer due): the next sync sees its new next_due
        self.ran.append(tid)
        self._reschedule(tid)

    def _reschedule(self, tid: str) -> None:
        try:
            t = self.monitor.store.topic(tid)
        except Exception:  # removed meanwhile, or the graph is away: the next sync decides
            return
        if t.status == "active":
            with self._lock:
                self._set(tid, t.next_due)

    def jobs(self) -> dict[str, datetime]:
        """Topic id -> when its job fires (the sync job left out)."""
        return {j.id: j.next_run_time for j in self.scheduler.get_jobs() if j.id != SYNC_JOB}

    @staticmethod
    def _failed(event: JobExecutionEvent) -> None:
        log.error("monitoring job %s failed: %r", event.job_id, event.exception)


def start_scheduler(monitor: Monitor, *, sync_s: float = 30.0, workers: int = 1) -> Callable[[], None]:
    """Start a `TopicScheduler`; returns `stop` (waits for a topic that is running to finish)."""
    sched = TopicScheduler(monitor, sync_s=sync_s, workers=workers)
    sched.start()
    return sched.stop
