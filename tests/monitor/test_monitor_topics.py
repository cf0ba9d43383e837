"""Topics and leases in a real graph (FalkorDB and Neo4j): add/list/pause/resume/remove, the atomic claim."""

from __future__ import annotations

from pathlib import Path

import pytest

from openresearch.agents.run.services import Services
from openresearch.config import Settings
from openresearch.errors import NotFound
from openresearch.graph.monitor_store import MonitorStore
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.monitor.clock import FakeClock
from openresearch.monitor.service import Monitor

pytestmark = pytest.mark.integration
T0 = 1_767_225_600_000


class NoEmbedder:
    """Topic bookkeeping embeds nothing; a research run is not started in these tests."""

    dim = 384

    def embed(self, texts: list[str]) -> list[list[float]]:  # pragma: no cover - never called here
        raise AssertionError("no embedding expected")


def monitor(store: GraphStore, tmp_path: Path, clock: FakeClock, owner: str = "w1") -> Monitor:
    emb: Embedder = NoEmbedder()  # type: ignore[assignment]
    return Monitor(Services(Settings(data_dir=tmp_path / "data"), store, emb), clock=clock, lease_ms=60_000,
                   owner=owner)


def test_topic_lifecycle(store: GraphStore, tmp_path: Path) -> None:
    clock = FakeClock(T0)
    m = monitor(store, tmp_path, clock)
    docs = tmp_path / "docs"
    docs.mkdir()  # `add` refuses a folder that is not there
    t = m.add("Kafka share groups", sources=[f"local:{docs}"], entities=["Kafka"], every="6h")
    again = m.add("kafka  share groups", sources=[f"local:{docs}"], every="1d")
    assert again.id == t.id and again.schedule == "1d"  # the same topic, updated
    assert t.next_due == T0 and t.status == "active" and t.entities == ["Kafka"]
    other = m.add("Pulsar tiered storage", sources=["web"], every="0 6 * * *")
    assert [x.id for x in m.store.topics()] == sorted([t.id, other.id], key=lambda i: (T0, i))
    m.pause(t.id)
    assert m.store.topic(t.id).status == "paused"
    assert m.store.due_topics(T0 + 1) == [other.id]
    clock.advance(1000)
    m.resume(t.id)
    assert m.store.topic(t.id).next_due == T0 + 1000
    m.store.remove_topic(other.id)
    with pytest.raises(NotFound):
        m.store.topic(other.id)
    with pytest.raises(NotFound):
        m.store.remove_topic(other.id)


def test_lease_is_exclusive_expires_and_is_taken_over(store: GraphStore, tmp_path: Path) -> None:
    clock = FakeClock(T0)
    t = monitor(store, tmp_path, clock).add("q", sources=["web"])
    ms = MonitorStore(store)
    assert ms.claim(t.id, "w1", T0, 60_000)
    assert not ms.claim(t.id, "w2", T0 + 1, 60_000)
    assert ms.claim(t.id, "w1", T0 + 2, 60_000)  # our own lease: renewed
    assert ms.due_topics(T0 + 3) == []
    assert ms.renew(t.id, "w1", T0 + 120_000)
    assert not ms.claim(t.id, "w2", T0 + 100_000, 60_000)
    assert ms.claim(t.id, "w2", T0 + 120_001, 60_000)  # w1 stopped renewing: expired, taken over
    assert not ms.renew(t.id, "w1", T0 + 200_000)
    assert not ms.finish(t.id, "w1", "run-x", T0, T0 + 86_400_000)  # a stale owner cannot finish
    assert ms.finish(t.id, "w2", "run-x", T0 + 130_000, T0 + 86_400_000)
    after = ms.topic(t.id)
    assert after.lease_owner is None and after.runs == 1 and after.next_due == T0 + 86_400_000
    assert not ms.claim(t.id, "w3", T0 + 140_000, 60_000)  # not due any more
    assert ms.claim(t.id, "w3", T0 + 140_000, 60_000, due_only=False)  # `monitor run ID` runs it anyway
