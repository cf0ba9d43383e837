"""Runs in the background of a long-lived process (the API server, the MCP server): a bounded pool of
workers with a queue beyond it, cancel, resume, and live event streams that replay what a client missed.

Everything a client can ask about a run is read from the graph (status, stage, metrics, events, report), so a
restarted server serves the same answers; `mark_interrupted` turns the runs a dead process left `running` or
`queued` into `interrupted`, and `resume` continues them with nothing duplicated. A run the graph says is
queued or running but whose owner is gone (lease.py: an MCP stdio server whose client exited, a killed server)
can be cancelled or resumed by any manager; one a live process runs elsewhere answers 409 naming it.

A run's event stream goes to its final state: a cancellation or failure followed by a resume is history, and
the stream goes on through the resumed attempt; only the last attempt's terminal event ends it.

All methods are called from the event loop the manager was started in.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Literal

from openresearch.agents.run.events import EventBus, EventRecord, RunFailed
from openresearch.agents.run.lease import HEARTBEAT_S, LEASE_S, keep_alive, run_owner_alive
from openresearch.agents.run.pipeline import replay_events, research
from openresearch.agents.run.research import new_run_id
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.services import Services
from openresearch.agents.run.state import ACTIVE, RunState, end_left_run
from openresearch.boundary import Door, check_run
from openresearch.errors import NotFound, OpenResearchError

log = logging.getLogger(__name__)


class RunConflict(OpenResearchError):
    """The run cannot do that in its current state (resume a running run, cancel a finished one)."""


@dataclass
class _Job:
    run_id: str
    options: RunOptions
    resume: bool
    bus: EventBus = field(default_factory=EventBus)
    task: asyncio.Task[None] | None = None
    listeners: set[asyncio.Queue[EventRecord]] = field(default_factory=set)
    ended: bool = False  # a terminal event (done / failed) went out
    final_seq: int | None = None  # its number: what ends a stream of this attempt
    # every event this process delivered for the run: what a stream needs that the graph's event writer may
    # not have stored yet (event_writer.py stores them in batches, behind the live delivery)
    history: list[EventRecord] = field(default_factory=list)


class RunManager:
    def __init__(self, services: Services, workers: int = 2, *, lease_s: float = LEASE_S,
                 heartbeat_s: float = HEARTBEAT_S) -> None:
        self.services = services
        self.workers = max(1, workers)
        self.lease_s = lease_s
        self.heartbeat_s = heartbeat_s
        self._queue: asyncio.Queue[_Job] = asyncio.Queue()
        self._jobs: dict[str, _Job] = {}
        self._workers: list[asyncio.Task[None]] = []
        self._heartbeat: asyncio.Task[None] | None = None

    # --- lifetime -------------------------------------------------------------------------------------
    async def start(self) -> int:
        """Mark what a previous process left unfinished as interrupted, then start the workers."""
        n = await asyncio.to_thread(self.mark_interrupted)
        self._workers = [asyncio.create_task(self._work(), name=f"run-worker-{i}") for i in range(self.workers)]
        # this process still owns its queued and running runs (lease.py)
        self._heartbeat = asyncio.create_task(keep_alive(self.services.store, lambda: list(self._jobs),
                                                         self.heartbeat_s), name="run-heartbeat")
        return n

    async def stop(self) -> None:
        """Stop the workers; runs in flight are stopped and marked `interrupted` (resumable, as after a crash).
        Queued ones end `interrupted` first, at once (a process that is told to stop may soon be killed): any
        manager may resume them, and their event streams end."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        for job in [j for j in self._jobs.values() if j.task is None]:
            self._jobs.pop(job.run_id, None)
            try:
                await asyncio.to_thread(self._end, job, "interrupted", "the server stopped before the run started")
            except Exception:  # the graph is away: the next manager's start (or the lease) ends it
                log.exception("could not mark queued run %s interrupted", job.run_id)
        for job in list(self._jobs.values()):
            if job.task is not None:
                job.bus.cancel_status = "interrupted"
                job.task.cancel()
        for w in self._workers:
            w.cancel()
        for w in self._workers:
            with contextlib.suppress(asyncio.CancelledError):
                await w
        tasks = [job.task for job in self._jobs.values() if job.task is not None]
        if tasks:
            await asyncio.wait(tasks)

    def mark_interrupted(self) -> int:
        """End, as `interrupted`, every run the graph says is queued or running whose owner is gone."""
        store = self.services.store
        n = 0
        for r in store.list_runs(10_000):
            if r["status"] in ACTIVE and r["id"] not in self._jobs:
                run = store.get_run(r["id"])
                if self._orphaned(run) and self._end_orphan(run, "interrupted", "the process running it stopped"):
                    n += 1
        return n

    def _orphaned(self, run: dict[str, Any]) -> bool:
        """Queued or running in the graph, not by this manager, and its owner process is gone."""
        return run["status"] in ACTIVE and run["id"] not in self._jobs and not run_owner_alive(run, self.lease_s)

    def _end_orphan(self, run: dict[str, Any], status: Literal["cancelled", "interrupted"], error: str) -> bool:
        """Mark an orphaned run `status` with a terminal event (state.end_left_run). False for a run whose
        options cannot be read."""
        return end_left_run(self.services.store, run, status, error)

    def _elsewhere(self, run: dict[str, Any], doing: str) -> RunConflict:
        return RunConflict(f"run {run['id']} is {run['status']} in process {run.get('owner')}, not in this "
                           f"server's queue; {doing} it there")

    # --- operations -----------------------------------------------------------------------------------
    async def submit(self, options: RunOptions, *, door: Door) -> str:
        """Queue a new run asked for through `door` (InputError when the boundary refuses it); its id is known
        (and its Run node stored, status `queued`) before it starts."""
        options = check_run(options, door)
        run_id = new_run_id(options.question)
        await asyncio.to_thread(RunState(self.services.store, run_id, options).save, "queued", status="queued")
        self._enqueue(_Job(run_id, options, resume=False))
        return run_id

    async def resume(self, run_id: str, *, door: Door) -> None:
        """Queue a stopped run again, or one the graph says is queued or running whose owner is gone."""
        run = await asyncio.to_thread(self.services.store.get_run, run_id)  # NotFound for an unknown id
        if run_id in self._jobs:
            raise RunConflict(f"run {run_id} is {run['status']}; only a stopped run can be resumed")
        if run["status"] in ACTIVE and not self._orphaned(run):
            raise self._elsewhere(run, "resume")
        if run["status"] == "done":
            raise RunConflict(f"run {run_id} is done; nothing to resume")
        # the stored options pass the boundary again: a run stored before a rule existed cannot slip past it
        options = check_run(RunOptions.model_validate(run["options"]), door)
        await asyncio.to_thread(RunState(self.services.store, run_id, options, run.get("started_at")).save,
                                run["stage"] or "plan", status="queued")
        self._enqueue(_Job(run_id, options, resume=True))

    async def cancel(self, run_id: str) -> None:
        """Cancel a queued or running run: one of this manager's, or one whose owner is gone."""
        job = self._jobs.get(run_id)
        if job is None:
            run = await asyncio.to_thread(self.services.store.get_run, run_id)
            if run["status"] not in ACTIVE:
                raise RunConflict(f"run {run_id} is {run['status']}; only a queued or running run can be cancelled")
            if not self._orphaned(run):
                raise self._elsewhere(run, "cancel")
            await asyncio.to_thread(self._end_orphan, run, "cancelled", "cancelled after its process had stopped")
            return
        if job.task is None:  # still queued: it never starts (the worker skips a job whose run has ended)
            job.ended = True
            try:
                await asyncio.to_thread(self._end, job, "cancelled", "cancelled before it started")
            finally:
                self._jobs.pop(run_id, None)
            return
        job.task.cancel()

    def active(self, run_id: str) -> bool:
        return run_id in self._jobs

    async def wait(self, run_id: str) -> None:
        """Until the run leaves this manager (done, failed or cancelled)."""
        while run_id in self._jobs:
            job = self._jobs[run_id]
            if job.task is not None:
                await asyncio.wait([job.task])
            await asyncio.sleep(0.05)  # the worker pops the job right after its task ends

    async def events(self, run_id: str, after: int = 0) -> AsyncIterator[EventRecord]:
        """The run's events after `after`: first what the graph holds, then live ones until the run ends.
        A client that reconnects with the last id it saw gets exactly what it missed."""
        store = self.services.store
        await asyncio.to_thread(store.get_run, run_id)  # NotFound for an unknown id
        job = self._jobs.get(run_id)
        live: asyncio.Queue[EventRecord] = asyncio.Queue()
        if job is not None:
            job.listeners.add(live)  # before reading the graph: nothing falls between the two
        async def sources() -> AsyncGenerator[EventRecord, None]:
            """What the graph stored, then what this process delivered (the event writer may be behind), then
            live records; repeats are left to the caller."""
            seen = after
            while True:
                page = await asyncio.to_thread(replay_events, store, run_id, seen, 500)
                for r in page:
                    seen = r.seq
                    yield r
                if len(page) < 500:
                    break
            if job is None:
                return
            for r in list(job.history):
                yield r
            if run_id not in self._jobs and live.empty():
                return
            while True:
                yield await live.get()

        try:
            last = after
            async with contextlib.aclosing(sources()) as records:
                async for r in records:
                    if r.seq <= last:
                        continue
                    last = r.seq
                    yield r
                    # an earlier attempt's end (cancelled, then resumed) is history: only this attempt's ends it;
                    # with no attempt here, the stream ends with what the graph holds
                    if job is not None and r.seq == job.final_seq:
                        return
        finally:
            if job is not None:
                job.listeners.discard(live)

    # --- internals ------------------------------------------------------------------------------------
    def _enqueue(self, job: _Job) -> None:
        self._jobs[job.run_id] = job
        job.bus.subscribe(lambda r: self._deliver(job, r))
        self._queue.put_nowait(job)

    def _end(self, job: _Job, status: Literal["failed", "cancelled", "interrupted"], error: str) -> None:
        """A run that stopped without its own terminal event (it failed before its first one: options, the
        graph, the roles) gets one, persisted, so no event stream waits for it forever."""
        # the status first: a client that reads the terminal event and then asks for the run's status must not
        # find it still running
        try:
            run = self.services.store.get_run(job.run_id)
            if run["status"] in ACTIVE:
                RunState(self.services.store, job.run_id, job.options, run.get("started_at")).save(
                    run["stage"] or "plan", status=status)
        except NotFound:
            pass
        job.bus.bind(job.run_id, self.services.store.last_run_event(job.run_id))  # number after what is stored
        record = job.bus.emit(RunFailed(status=status, error=error[:500]))
        self.services.store.append_run_events(job.run_id, [
            {"seq": record.seq, "type": record.event.type, "at": record.at, "data": record.event.model_dump_json()}])

    def _deliver(self, job: _Job, record: EventRecord) -> None:
        if record.terminal:
            job.ended, job.final_seq = True, record.seq
        job.history.append(record)
        loop = self._loop
        for q in list(job.listeners):
            loop.call_soon_threadsafe(q.put_nowait, record)

    @property
    def _loop(self) -> asyncio.AbstractEventLoop:
        return self._workers[0].get_loop() if self._workers else asyncio.get_event_loop()

    async def _work(self) -> None:
        while True:
            job = await self._queue.get()
            if job.run_id not in self._jobs or job.ended:  # cancelled while queued
                continue
            job.task = asyncio.create_task(self._run(job), name=f"research-{job.run_id}")
            # asyncio.wait neither raises the run's outcome nor swallows this worker's own cancellation
            await asyncio.wait([job.task])
            self._jobs.pop(job.run_id, None)

    async def _run(self, job: _Job) -> None:
        try:
            await research(job.options, self.services, resume=job.run_id if job.resume else None,
                           run_id=None if job.resume else job.run_id, events=job.bus)
        except asyncio.CancelledError:
            if not job.ended:
                await asyncio.to_thread(self._end, job, job.bus.cancel_status, "stopped before it started")
            raise
        except Exception as exc:
            log.exception("run %s failed", job.run_id)
            if not job.ended:
                await asyncio.to_thread(self._end, job, "failed", f"{type(exc).__name__}: {exc}")

    def pending(self) -> int:
        """Runs queued or running in this manager (the API refuses new ones beyond its queue size)."""
        return len(self._jobs)
