"""RunManager: a bounded pool with a queue, live event streams that replay what a client missed, cancel of a
queued and of a running run, interrupted runs after a restart, and resume with nothing duplicated."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from openresearch.agents.run.components import Components
from openresearch.agents.run.events import EventRecord
from openresearch.agents.run.lease import process_owner
from openresearch.agents.run.manager import RunConflict, RunManager
from openresearch.agents.run.pipeline import replay_events, stored_report
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.services import Services
from openresearch.boundary import Door
from openresearch.errors import NotFound
from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration
ANY = Door("test", None)  # the CLI's door: any local path
Q = "Which message broker has the highest throughput: Kafka, RabbitMQ or Pulsar?"


def opts(corpus: Path, question: str = Q) -> RunOptions:
    return RunOptions(question=question, sources=[f"local:{corpus}"], offline=True, workers=1)


async def collect(manager: RunManager, run_id: str, after: int = 0, stop_after: int | None = None
                  ) -> list[EventRecord]:
    out: list[EventRecord] = []
    async for r in manager.events(run_id, after):
        out.append(r)
        if stop_after is not None and len(out) >= stop_after:
            break
    return out


def test_queue_stream_reconnect_and_cancel(store: GraphStore, corpus: Path, offline_services: Services,
                                           tmp_path: Path) -> None:
    services = offline_services

    async def main() -> None:
        manager = RunManager(services, workers=1)
        await manager.start()
        try:
            first = await manager.submit(opts(corpus), door=ANY)
            second = await manager.submit(opts(corpus, "Kafka 和 RabbitMQ 哪个吞吐量更高?"), door=ANY)
            third = await manager.submit(opts(corpus, "How does Pulsar store messages?"), door=ANY)
            # one worker: the second and third wait in the queue, and are visible as queued
            assert store.get_run(second)["status"] == "queued" and store.get_run(third)["status"] == "queued"
            await manager.cancel(third)  # a queued run never starts
            # a client reads a few events, drops, and reconnects with the last id it saw
            head = await collect(manager, first, stop_after=3)
            rest = await collect(manager, first, after=head[-1].seq)
            seqs = [r.seq for r in head + rest]
            assert seqs == list(range(1, len(seqs) + 1)), "nothing missed, nothing twice"
            assert rest[-1].event.type == "done"
            assert store.get_run(first)["status"] == "done"
            # the second run is cancelled while it runs
            async for r in manager.events(second):
                if r.event.type == "question_progress":
                    await manager.cancel(second)
                if r.terminal:
                    break
            await manager.wait(second)
            assert store.get_run(second)["status"] == "cancelled"
            assert store.get_run(third)["status"] == "cancelled"
            assert [r.event.type for r in replay_events(store, third)] == ["failed"]
            with pytest.raises(RunConflict):
                await manager.cancel(first)  # done: nothing to cancel
            with pytest.raises(NotFound):
                await collect(manager, "run-nope")
            # a finished run replays its whole history
            assert [r.seq for r in await collect(manager, first)] == seqs
            # resume the cancelled run: it finishes, numbering goes on, one report
            await manager.resume(second, door=ANY)
            with pytest.raises(RunConflict):
                await manager.resume(second, door=ANY)  # already queued or running
            await manager.wait(second)
            events = replay_events(store, second)
            assert [r.seq for r in events] == list(range(1, len(events) + 1))
            assert store.get_run(second)["status"] == "done" and stored_report(store, second).sections
        finally:
            await manager.stop()

    asyncio.run(main())


def dead_owner() -> str:
    """The owner a run records (lease.py) of a process of this host that has exited."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return f"{socket.gethostname()}:{child.pid}:gone"


def left_by(store: GraphStore, run_id: str, corpus: Path, status: str, owner: str, heartbeat_at: int = 0) -> None:
    """A run stored `status` by the process `owner` (as that process's RunState would have)."""
    o = opts(corpus)
    store.save_run(run_id, o.question, status=status, stage="gather" if status == "running" else "queued",
                   options=o.model_dump(mode="json"), started_at=1, owner=owner, heartbeat_at=heartbeat_at)


def test_runs_left_running_by_a_dead_process_are_interrupted(store: GraphStore, corpus: Path,
                                                             offline_services: Services, tmp_path: Path) -> None:
    services = offline_services
    gone = dead_owner()
    left_by(store, "run-dead-1", corpus, "running", gone)
    left_by(store, "run-dead-2", corpus, "queued", gone)
    # a run of another process that is alive (this test's parent) is not touched
    left_by(store, "run-alive", corpus, "running", f"{socket.gethostname()}:{os.getppid()}:x")

    async def main() -> None:
        manager = RunManager(services, workers=1)
        assert await manager.start() >= 2
        try:
            assert store.get_run("run-dead-1")["status"] == "interrupted"
            assert store.get_run("run-dead-2")["status"] == "interrupted"
            assert store.get_run("run-alive")["status"] == "running"
            # each stream of them ends, with the interruption
            ended = await asyncio.wait_for(collect(manager, "run-dead-1"), 60)
            assert [(r.event.type, getattr(r.event, "status", None)) for r in ended] == [("failed", "interrupted")]
            await manager.resume("run-dead-2", door=ANY)  # never planned: resumes from the start
            await manager.wait("run-dead-2")
            assert store.get_run("run-dead-2")["status"] == "done"
        finally:
            await manager.stop()

    asyncio.run(main())


def test_a_server_stopping_mid_run_leaves_it_interrupted_and_resumable(store: GraphStore, corpus: Path,
                                                                       offline_services: Services,
                                                                       tmp_path: Path) -> None:
    services = offline_services

    async def main() -> str:
        manager = RunManager(services, workers=1)
        await manager.start()
        run_id = await manager.submit(opts(corpus), door=ANY)
        async for r in manager.events(run_id):
            if r.event.type == "evidence_added":
                break
        await manager.stop()  # the API shutting down
        return run_id

    run_id = asyncio.run(main())
    assert store.get_run(run_id)["status"] == "interrupted"
    last = replay_events(store, run_id)[-1].event
    assert last.type == "failed" and last.status == "interrupted"

    async def later() -> None:
        manager = RunManager(services, workers=1)  # the next server
        await manager.start()
        try:
            await manager.resume(run_id, door=ANY)
            await manager.wait(run_id)
        finally:
            await manager.stop()

    asyncio.run(later())
    assert store.get_run(run_id)["status"] == "done"


def test_a_run_failing_before_its_first_event_still_ends_its_stream(store: GraphStore, corpus: Path,
                                                                   offline_services: Services) -> None:
    def broken(_: RunOptions) -> Components:
        raise RuntimeError("no roles today")

    services = Services(offline_services.settings, store, offline_services.embedder, broken)

    async def main() -> list[EventRecord]:
        manager = RunManager(services, workers=1)
        await manager.start()
        try:
            run_id = await manager.submit(opts(corpus), door=ANY)
            return await asyncio.wait_for(collect(manager, run_id), 120)
        finally:
            await manager.stop()

    events = asyncio.run(main())
    assert [r.event.type for r in events] == ["failed"]
    assert "no roles today" in events[0].event.error  # type: ignore[union-attr]
    assert store.get_run(events[0].run_id)["status"] == "failed"


def test_a_run_whose_process_left_is_cancellable_and_resumable(store: GraphStore, corpus: Path,
                                                               offline_services: Services) -> None:
    """A manager already running (so its start did not see them) is asked about runs another process left
    queued: that process is gone (an MCP stdio server whose client exited), so cancel and resume work; a run a
    live process owns elsewhere is refused with a line that says where it runs."""
    gone = dead_owner()
    elsewhere = "another-host.example:4242:live"

    async def main() -> None:
        manager = RunManager(offline_services, workers=1, lease_s=3600)  # however slow this machine is today
        await manager.start()
        try:
            left_by(store, "run-left-1", corpus, "queued", gone)
            left_by(store, "run-left-2", corpus, "queued", gone)
            left_by(store, "run-busy", corpus, "running", elsewhere, heartbeat_at=int(time.time() * 1000))
            left_by(store, "run-silent", corpus, "running", elsewhere, heartbeat_at=1)  # no heartbeat for ages
            for op in (manager.cancel("run-busy"), manager.resume("run-busy", door=ANY)):
                with pytest.raises(RunConflict, match=r"in process another-host\.example:4242:live, not in this"):
                    await op
            assert store.get_run("run-busy")["status"] == "running"
            await manager.cancel("run-silent")  # its lease ran out: taken as gone
            assert store.get_run("run-silent")["status"] == "cancelled"

            await manager.cancel("run-left-1")
            assert store.get_run("run-left-1")["status"] == "cancelled"
            assert [r.event.type for r in await asyncio.wait_for(collect(manager, "run-left-1"), 60)] == ["failed"]
            await manager.resume("run-left-1", door=ANY)  # and, cancelled, it resumes like any other
            await manager.wait("run-left-1")
            assert store.get_run("run-left-1")["status"] == "done"

            await manager.resume("run-left-2", door=ANY)
            events = await asyncio.wait_for(collect(manager, "run-left-2"), 600)
            assert events[-1].event.type == "done" and store.get_run("run-left-2")["status"] == "done"
        finally:
            await manager.stop()

    asyncio.run(main())


def test_stopping_a_manager_ends_its_queued_runs(store: GraphStore, corpus: Path,
                                                 offline_services: Services) -> None:
    """Queued runs of a manager that stops end `interrupted` with their event, at once: not `queued` forever."""

    async def main() -> tuple[str, str]:
        manager = RunManager(offline_services, workers=1)
        await manager.start()
        first = await manager.submit(opts(corpus), door=ANY)
        second = await manager.submit(opts(corpus, "How does Pulsar store messages?"), door=ANY)
        await manager.stop()
        return first, second

    first, second = asyncio.run(main())
    for run_id in (first, second):
        assert store.get_run(run_id)["status"] == "interrupted", run_id
    last = replay_events(store, second)
    assert [(r.event.type, getattr(r.event, "status", None)) for r in last] == [("failed", "interrupted")]


def test_an_owner_renews_only_the_runs_it_owns(store: GraphStore, corpus: Path, offline_services: Services) -> None:
    """A manager's heartbeat (every 0.05 s here) renews its runs; a run another process took over keeps that
    process's heartbeat."""
    left_by(store, "run-theirs", corpus, "running", "another-host.example:1:x", heartbeat_at=5)
    store.heartbeat_runs(["run-theirs"], process_owner(), 10**13)
    assert store.get_run("run-theirs")["heartbeat_at"] == 5

    async def main() -> None:
        manager = RunManager(offline_services, workers=1, heartbeat_s=0.05)
        await manager.start()
        try:
            run_id = await manager.submit(opts(corpus), door=ANY)
            first = store.get_run(run_id)
            assert first["owner"] == process_owner()
            for _ in range(600):  # until the next beat (a bound, not a measured figure)
                if (store.get_run(run_id)["heartbeat_at"] or 0) > first["heartbeat_at"]:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the heartbeat was never renewed")
            await manager.cancel(run_id)
        finally:
            await manager.stop()

    asyncio.run(main())


class StatusAtEnd(GraphStore):
    """Records a run's stored status at the moment its terminal event is stored: what a client that read that
    event and then asked for the run's status would be told."""

    def __init__(self, store: GraphStore) -> None:
        super().__init__(store.backend)
        self.seen: dict[str, str] = {}

    def append_run_events(self, run_id: str, rows: Sequence[dict[str, Any]]) -> None:
        if any(r["type"] == "failed" for r in rows):
            self.seen[run_id] = self.get_run(run_id)["status"]
        super().append_run_events(run_id, rows)


def test_a_run_that_ends_without_its_own_terminal_event_has_its_status_stored_first(
        store: GraphStore, corpus: Path, offline_services: Services) -> None:
    """A run that fails before its first event, and a run whose process left that is cancelled, are given a
    terminal event: by then the run's status is already the one the event says (not 'running' or 'queued')."""
    def broken(_: RunOptions) -> Components:
        raise RuntimeError("no roles today")

    watching = StatusAtEnd(store)
    services = Services(offline_services.settings, watching, offline_services.embedder, broken)

    async def main() -> str:
        manager = RunManager(services, workers=1, lease_s=3600)
        await manager.start()
        try:
            left_by(watching, "run-left", corpus, "queued", dead_owner())
            await manager.cancel("run-left")
            run_id = await manager.submit(opts(corpus), door=ANY)
            await asyncio.wait_for(collect(manager, run_id), 120)
            await manager.wait(run_id)
            return run_id
        finally:
            await manager.stop()

    failed = asyncio.run(main())
    assert watching.seen == {"run-left": "cancelled", failed: "failed"}


def test_a_save_still_in_flight_when_a_run_ended_does_not_store_it_running_again(store: GraphStore,
                                                                                 corpus: Path) -> None:
    """A cancelled task's thread goes on: its 'running' save, arriving after the run was ended, is not stored."""
    from openresearch.agents.run.state import RunState

    state = RunState(store, "run-late", opts(corpus))
    state.save("plan")
    state.save("plan", status="cancelled")
    state.save("gather")  # the thread of a save that started before the cancel
    assert store.get_run("run-late")["status"] == "cancelled"
    RunState(store, "run-late", opts(corpus)).save("plan", status="queued")  # a resume: a state of its own
    assert store.get_run("run-late")["status"] == "queued"
