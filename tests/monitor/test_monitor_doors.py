"""Monitoring's doors: topics stored before the boundary existed (written straight to the graph) are checked
again when they run, under the door they came through (none recorded: the strict one), refused with one line
and paused, by `run_topic`, `run_due` and the scheduler alike; a good topic still gets to its run."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from doors_support import QUESTION, Rooms

from openresearch.agents.run.services import Services
from openresearch.config import Settings
from openresearch.errors import InputError
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.monitor.models import Topic, topic_id
from openresearch.monitor.scheduler import TopicScheduler
from openresearch.monitor.service import Monitor

pytestmark = pytest.mark.integration


class Reached(Exception):
    """Raised by `before_run`: the topic passed the boundary and its research run was about to start."""


def reached(_: str) -> None:
    raise Reached


def stored(m: Monitor, question: str, sources: list[str], *, every: str = "1d", webhook: str | None = None,
           origin: str | None = None) -> str:
    """A topic as an older version stored it: no check, no door recorded (unless `origin`)."""
    t = Topic(id=topic_id(question + str(webhook) + every, sources), question=question, sources=sources,
              schedule=every, webhook=webhook, origin=origin, next_due=0)
    m.store.save_topic(t, 0)
    return t.id


def bad_topics(m: Monitor, rooms: Rooms) -> dict[str, str]:
    out = {name: stored(m, f["question"], f["sources"], webhook=f.get("webhook"))
           for name, f in rooms.attacks(webhook=True).items()}
    out["interval 1000000d"] = stored(m, QUESTION, ["web"], every="1000000d")
    out["api topic, symlink out"] = stored(m, QUESTION, [f"local:{rooms.root}/escape"], origin="api")
    return out


@pytest.fixture
def rooms(tmp_path: Path) -> Rooms:
    return Rooms.make(tmp_path)


@pytest.fixture
def monitor(store: GraphStore, embedder: Embedder, rooms: Rooms, tmp_path: Path) -> Monitor:
    settings = Settings(_env_file=None, data_dir=tmp_path / "data", api_local_roots=[rooms.root])  # type: ignore[call-arg]
    return Monitor(Services(settings, store, embedder), lease_ms=60_000, before_run=reached)


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_a_stored_bad_topic_is_refused_and_paused_when_it_runs(monitor: Monitor, rooms: Rooms) -> None:
    bad = bad_topics(monitor, rooms)
    for name, tid in bad.items():
        with pytest.raises(InputError, match=f"topic {tid} refused and paused: ") as e:
            monitor.run_topic(tid)
        assert "\n" not in str(e.value), name
        t = monitor.store.topic(tid)
        assert t.status == "paused" and t.lease_owner is None, name
    # a good topic stored the same way, and a CLI topic (its user named the path) get to their runs
    good = stored(monitor, QUESTION, [f"local:{rooms.docs}"])
    cli = stored(monitor, QUESTION, [f"local:{rooms.outside}"], origin="cli")
    for tid in (good, cli):
        with pytest.raises(Reached):
            monitor.run_topic(tid)


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_run_due_and_the_scheduler_skip_refused_topics(monitor: Monitor, rooms: Rooms) -> None:
    bad = bad_topics(monitor, rooms)
    assert monitor.run_due() == []  # each refused with a warning, none raised
    assert all(monitor.store.topic(t).status == "paused" for t in bad.values())
    again = bad_topics(monitor, rooms)  # stored once more (active, due): now for the scheduler
    assert set(again.values()) == set(bad.values())
    sched = TopicScheduler(monitor, sync_s=0.3)
    sched.start()
    try:
        end = time.monotonic() + 30
        while any(monitor.store.topic(t).status != "paused" for t in bad.values()):
            assert time.monotonic() < end, "the scheduler did not refuse the stored topics"
            time.sleep(0.1)
    finally:
        sched.stop()
    assert sched.ran == []


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_monitor_add_as_a_library_is_the_clis_door(monitor: Monitor, rooms: Rooms) -> None:
    t = monitor.add(QUESTION, sources=[f"local:{rooms.root}/escape"], every="6h")
    assert t.origin == "cli" and t.sources == [f"local:{rooms.outside.resolve()}"]
    for kw in ({"sources": ["ftp://x"]}, {"sources": ["web"], "every": "1000000d"},
               {"sources": ["web"], "webhook": "http://169.254.169.254/latest"}):
        with pytest.raises(InputError):
            monitor.add(QUESTION, **kw)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        monitor.add("  ", sources=["web"])
