"""Topic operations and workers over one graph: add/list/pause/resume/remove/unlock, run one topic now, run every
due topic once, or keep claiming due topics (`monitor worker`). A topic runs only under its lease, which a
heartbeat renews every `lease / 6` while the run goes on. A killed worker's lease is taken over as soon as
it is seen to be dead (its process is gone, on this host) or after the short lease lapses without a
heartbeat (another host); `monitor unlock` breaks one by hand. The run a killed worker left is marked
`interrupted` and what it stored is reported in the next digest (recovery.py)."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from openresearch.agents.run.events import EventRecord
from openresearch.agents.run.lease import owner_alive
from openresearch.agents.run.services import Services
from openresearch.boundary import LOCAL_PREFIX, Door, TopicAsk, check_topic_sync, door_for_topic
from openresearch.errors import InputError, OpenResearchError
from openresearch.graph.monitor_store import MonitorStore
from openresearch.ingest.safety import Resolver
from openresearch.monitor.clock import Clock, SystemClock
from openresearch.monitor.models import Topic, topic_id
from openresearch.monitor.runner import MonitorResult, run_topic
from openresearch.monitor.schedule import next_due, parse_schedule
from openresearch.monitor.webhook import new_secret

log = logging.getLogger(__name__)
RETRY_MS = 15 * 60_000
LEASE_MS = 60_000  # a lease lapses a minute after its holder's last heartbeat (one every 10 s)


class TopicFailed(OpenResearchError):
    """A monitoring run of one topic failed (the others of `run --due` still ran): one line naming it."""


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def make_topic(question: str, *, sources: list[str], entities: list[str] | None = None, every: str = "1d",
               style: str = "digest", options: dict[str, object] | None = None, webhook: str | None = None,
               origin: str | None = None, now: int) -> Topic:
    """A new topic, due now; InputError for an empty question, a bad schedule or style. Pure: what a caller
    asks is checked by `checked_topic` (the boundary) first."""
    if not question.strip():
        raise InputError("a topic needs a question")
    if not sources:
        raise InputError("a topic needs at least one source")
    parse_schedule(every)
    if style not in ("digest", "report"):
        raise InputError("style must be digest or report")
    return Topic(id=topic_id(question, sources), question=question.strip(), sources=sources, entities=entities or [],
                 schedule=every, style=style, options=dict(options or {}), webhook=webhook,  # type: ignore[arg-type]
                 webhook_secret=new_secret() if webhook else None, origin=origin, next_due=now)


def checked_topic(question: str, *, sources: list[str], door: Door, entities: list[str] | None = None,
                  every: str = "1d", style: str = "digest", options: dict[str, object] | None = None,
                  webhook: str | None = None, now: int) -> Topic:
    """A new topic from what a caller asked through `door`: checked by the boundary (local paths resolved,
    the webhook judged by the SSRF rules), remembering the door for the checks at each run."""
    ask = check_topic_sync(TopicAsk(question, sources, every, webhook), door)
    for src in ask.sources:  # checked when added only: a folder unmounted for a day fails that day's run
        if src.startswith(LOCAL_PREFIX) and not Path(src[len(LOCAL_PREFIX):]).exists():
            raise InputError(f"local source {src[:200]!r}: no such file or folder")
    return make_topic(ask.question, sources=ask.sources, entities=entities, every=ask.every, style=style,
                      options=options, webhook=ask.webhook, origin=door.name, now=now)


def recheck(topic: Topic, door: Door) -> None:
    """A stored topic through the boundary again before it runs (it may predate a rule, or have been written
    to the graph by other means); InputError when it would be refused today."""
    check_topic_sync(TopicAsk(topic.question, topic.sources, topic.schedule, topic.webhook), door)


def background_worker(services: Services, *, poll_s: float = 30.0, lease_ms: int = LEASE_MS) -> Callable[[], None]:
    """Run due topics in this process (the API server's own scheduler, APScheduler: scheduler.py): one job per
    active topic at its `next_due` in the graph, topics re-read every `poll_s` seconds. The schedule and leases
    live in the graph, so it coexists with any number of `monitor worker` processes. Returns `stop`."""
    from openresearch.monitor.scheduler import start_scheduler  # scheduler.py imports Monitor from here

    return start_scheduler(Monitor(services, lease_ms=lease_ms), sync_s=poll_s)


@dataclass
class Monitor:
    services: Services
    clock: Clock = field(default_factory=SystemClock)
    lease_ms: int = LEASE_MS
    owner: str = field(default_factory=worker_id)
    before_run: Callable[[str], object] | None = None  # tests: called with the topic id before each run
    on_event: Callable[[EventRecord], None] | None = None  # every event of the research runs
    resolver: Resolver | None = None  # webhook host names (tests inject a static table; None: the system's)

    @property
    def store(self) -> MonitorStore:
        return MonitorStore(self.services.store)

    # --- topics ------------------------------------------------------------------------------------
    def add(self, question: str, *, sources: list[str], entities: list[str] | None = None, every: str = "1d",
            style: str = "digest", options: dict[str, object] | None = None, webhook: str | None = None,
            door: Door | None = None) -> Topic:
        """Add (or update) a topic asked through `door` (default: the CLI's, which reads any local path)."""
        door = door or Door.cli(self.services.settings, self.resolver)
        topic = checked_topic(question, sources=sources, door=door, entities=entities, every=every, style=style,
                              options=options, webhook=webhook, now=self.clock.now_ms())
        self.store.save_topic(topic, self.clock.now_ms())
        return self.store.topic(topic.id)

    def pause(self, tid: str) -> None:
        self.store.set_status(tid, "paused")

    def resume(self, tid: str) -> None:
        t = self.store.topic(tid)
        due = t.next_due if t.next_due > self.clock.now_ms() else self.clock.now_ms()
        self.store.set_status(tid, "active", due)

    # --- runs --------------------------------------------------------------------------------------
    def run_topic(self, tid: str, *, due_only: bool = False) -> MonitorResult | None:
        """Run one topic under its lease; None when another live worker holds it (or, with `due_only`, it is
        not due any more)."""
        ms = self.store
        if not self._claim(tid, due_only):
            return None
        stop = threading.Event()
        beat = threading.Thread(target=self._heartbeat, args=(tid, stop), daemon=True)
        beat.start()
        try:
            topic = ms.topic(tid)
            self._recheck(topic)
            if self.before_run is not None:
                self.before_run(tid)
            from openresearch.monitor.recovery import recover  # recovery.py builds on runner.py

            recovered = recover(ms, topic.undigested)
            rid = f"mon-{tid[2:]}-{self.clock.now_ms()}-{uuid.uuid4().hex[:4]}"
            ms.begin_run(tid, self.owner, rid)
            door = door_for_topic(topic.origin, self.services.settings, self.resolver)
            result = asyncio.run(run_topic(topic, self.services, self.clock, run_id=rid, on_event=self.on_event,
                                           recovered=recovered, door=door))
        except BaseException:
            stop.set()
            ms.release(tid, self.owner, self.clock.now_ms() + RETRY_MS)
            raise
        stop.set()
        beat.join()
        done = self.clock.now_ms()
        ms.finish(tid, self.owner, result.run_id, done, next_due(tid, parse_schedule(topic.schedule), done))
        return result

    def _claim(self, tid: str, due_only: bool) -> bool:
        """Take the lease; a lease whose holder is seen to be dead (a process gone on this host) is taken over
        at once, not when it lapses."""
        ms = self.store
        now = self.clock.now_ms()
        if ms.claim(tid, self.owner, now, self.lease_ms, due_only=due_only):
            return True
        t = ms.topic(tid)
        if t.lease_owner is None or not _dead_here(t.lease_owner):
            return False
        log.warning("taking over the lease of %s from %s (its process is gone)", tid, t.lease_owner)
        ms.release(tid, t.lease_owner, t.next_due)
        return ms.claim(tid, self.owner, now, self.lease_ms, due_only=due_only)

    def unlock(self, tid: str, *, force: bool = False) -> str | None:
        return unlock_topic(self.store, tid, force=force)

    def _recheck(self, topic: Topic) -> None:
        """Refuse (and pause) a stored topic the boundary refuses today, under the door it came through."""
        try:
            recheck(topic, door_for_topic(topic.origin, self.services.settings, self.resolver))
        except InputError as e:
            log.warning("topic %s refused and paused: %s", topic.id, e)
            self.store.set_status(topic.id, "paused")
            raise InputError(f"topic {topic.id} refused and paused: {e}") from None

    def _heartbeat(self, tid: str, stop: threading.Event) -> None:
        while not stop.wait(self.lease_ms / 6000):
            if not self.store.renew(tid, self.owner, self.clock.now_ms() + self.lease_ms):
                log.warning("lost the lease of %s", tid)
                return

    def run_due(self, limit: int | None = None, failed: list[TopicFailed] | None = None) -> list[MonitorResult]:
        """Every due topic once (what `monitor run --due` and each worker poll do). A topic that fails is
        logged in one line (added to `failed` when given) and the others still run."""
        done: list[MonitorResult] = []
        tried: set[str] = set()
        while limit is None or len(done) < limit:
            now = self.clock.now_ms()
            dead = [t for t, owner in self.store.due_held_here(now, socket.gethostname()) if _dead_here(owner)]
            candidates = [t for t in [*self.store.due_topics(now, 20), *dead] if t not in tried]
            if not candidates:
                break
            for tid in candidates:
                tried.add(tid)
                try:
                    result = self.run_topic(tid, due_only=True)
                except InputError as e:  # refused by the boundary (the topic is paused), or a missing folder
                    self._failed(TopicFailed(str(e) if tid in str(e) else f"{tid}: {e}"), failed)
                    continue
                except Exception as e:  # one line; the traceback only at debug level
                    log.debug("monitoring run of %s failed", tid, exc_info=True)
                    self._failed(TopicFailed(f"{tid}: the monitoring run failed: {type(e).__name__}: {e}"), failed)
                    continue
                if result is not None:
                    done.append(result)
        return done

    @staticmethod
    def _failed(err: TopicFailed, failed: list[TopicFailed] | None) -> None:
        """To the caller's list (it reports the line: `run --due`), or to the log (a worker, the scheduler)."""
        if failed is not None:
            failed.append(err)
        else:
            log.warning("%s", err)

    def work(self, stop: threading.Event, poll_s: float = 30.0) -> int:
        """Claim and run due topics until `stop` is set; returns how many ran."""
        n = 0
        while not stop.is_set():
            n += len(self.run_due())
            stop.wait(poll_s)
        return n


def unlock_topic(ms: MonitorStore, tid: str, *, force: bool = False) -> str | None:
    """Break the topic's lease; returns who held it (None: nobody). A holder that is a live process on this host
    is left alone unless `force` (InputError)."""
    t = ms.topic(tid)
    if t.lease_owner and not force and _live_here(t.lease_owner):
        raise InputError(f"{tid} is being run by live process {t.lease_owner}; stop it, or pass --force")
    owner, _ = ms.unlock(tid)
    return owner


def _here(owner: str) -> bool:
    host, _, rest = owner.partition(":")
    return host == socket.gethostname() and rest.partition(":")[0].isdigit()


def _live_here(owner: str) -> bool:
    """A lease holder that is a process alive on this host (a holder elsewhere cannot be asked: not live here)."""
    return _here(owner) and owner_alive(owner, None)


def _dead_here(owner: str) -> bool:
    """A lease holder on this host whose process is gone (elsewhere only the lapsing lease can tell)."""
    return _here(owner) and not owner_alive(owner, None)
