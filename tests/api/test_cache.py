"""The API's answer cache over a real FalkorDB graph, with an injected clock: one computation per graph
version, an outdated answer served only within the staleness bound while the new one is computed in the
background, strict mode, and `invalidate` for writes made through the API."""

from __future__ import annotations

import threading
import time

import pytest
from api_support import Server
from records_support import rec

from openresearch.api.cache import VersionedCache
from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def add(store: GraphStore, n: int) -> None:
    store.write_evidence([rec(f"https://x.example/{n}", f"AcmeDB does {n} rows per second.", "AcmeDB",
                              "ingest_throughput", n, "rows/s")])


def wait_for(check: object, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_outdated_answers_only_within_the_bound(store: GraphStore) -> None:
    clock = Clock()
    cache = VersionedCache(store, stale_s=1.0, version_ttl_s=0.1, clock=clock)
    calls: list[int] = []
    release = threading.Event()
    release.set()

    def answer() -> bytes:
        release.wait(10)
        n = store.stats()["nodes"].get("Evidence", 0)
        calls.append(n)
        return str(n).encode()

    add(store, 1)
    assert cache.get("k", answer) == b"1" and cache.get("k", answer) == b"1" and calls == [1]
    add(store, 2)
    assert cache.get("k", answer) == b"1"  # the version is read at most every 0.1 s
    clock.t += 0.2
    release.clear()  # the background computation of the new version blocks until released
    assert cache.get("k", answer) == b"1" and cache.stale_hits == 1  # outdated, within the bound
    clock.t += 0.5
    assert cache.get("k", answer) == b"1" and cache.stale_hits == 2  # still within 1 s of the change
    release.set()
    wait_for(lambda: calls == [1, 2])
    wait_for(lambda: cache.get("k", answer) == b"2")
    assert calls == [1, 2]  # one computation per version

    # past the bound, a caller waits for the new answer instead of being served the old one
    add(store, 3)
    clock.t += 0.2
    release.clear()
    assert cache.get("k", answer) == b"2"  # change first seen: within the bound
    clock.t += 1.5
    release.set()
    assert cache.get("k", answer) == b"3"
    wait_for(lambda: 3 in calls)

    # a write made through the API: the next read is fresh at once, whatever the clock
    add(store, 4)
    cache.invalidate()
    assert cache.get("k", answer) == b"4"


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_strict_mode_never_serves_an_outdated_answer(store: GraphStore) -> None:
    cache = VersionedCache(store, stale_s=0)
    add(store, 1)
    assert cache.get("k", lambda: b"one") == b"one"
    assert cache.get("k", lambda: b"other") == b"one"
    add(store, 2)
    assert cache.get("k", lambda: b"two") == b"two" and cache.stale_hits == 0


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_lookup_never_reads_the_graph_on_the_caller(store: GraphStore) -> None:
    clock = Clock()
    reads: list[int] = []

    class Counting(GraphStore):
        def graph_version(self) -> tuple[int, ...]:
            reads.append(1)
            return super().graph_version()

    counting = Counting(store.backend)
    cache = VersionedCache(counting, stale_s=1.0, version_ttl_s=0.1, clock=clock)
    assert cache.lookup("k", lambda: b"x") is None  # nothing known yet: the caller goes to `get`
    add(store, 1)
    assert cache.get("k", lambda: b"one") == b"one" and len(reads) == 1
    assert cache.lookup("k", lambda: b"other") == b"one" and len(reads) == 1  # no graph read
    add(store, 2)
    clock.t += 0.2  # the version is due: read again in the background, answered by the one known
    assert cache.lookup("k", lambda: b"two") == b"one"
    wait_for(lambda: len(reads) == 2)
    wait_for(lambda: cache.lookup("k", lambda: b"two") == b"two")  # the new version, computed in the background
    assert VersionedCache(counting, stale_s=0).lookup("k", lambda: b"x") is None  # strict: always `get`


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_a_client_that_polls_rarely_never_gets_an_answer_older_than_the_bound(store: GraphStore) -> None:
    """The graph changes while nobody asks; the next request, long after, is answered from the new graph (a
    stale-while-revalidate that counted from the request, not from when the answer was last known current,
    served every rare poller the previous state)."""
    clock = Clock()
    cache = VersionedCache(store, stale_s=1.0, version_ttl_s=0.1, clock=clock)
    add(store, 1)
    assert cache.get("k", lambda: b"one") == b"one"
    assert cache.lookup("k", lambda: b"one") == b"one"  # within the bound: no graph read on the caller
    add(store, 2)
    clock.t += 60  # the client comes back a minute later
    assert cache.lookup("k", lambda: b"two") is None  # too old to answer without looking at the graph
    assert cache.get("k", lambda: b"two") == b"two"
    add(store, 3)
    clock.t += 1.5  # past the bound again, however the version reads and answers were timed
    assert cache.lookup("k", lambda: b"three") is None
    assert cache.get("k", lambda: b"three") == b"three" and cache.stale_hits == 0


def test_the_first_read_after_a_quiet_graph_change_shows_the_change(api: Server) -> None:
    """Over real HTTP: /conflicts and /compare answered, the graph changed by a writer outside the API (a run,
    the monitor), and the next request, a minute later by the cache's clock, already shows the change."""
    clock = Clock()
    api.app.state.api.cache.clock = clock  # set before the first request: every time the cache keeps is this clock's
    with api.client() as c:
        before = c.get("/conflicts").json()["items"]
        assert before and not any(g["entity"] == "AcmeDB" for g in before)
        assert c.get("/compare", params=[("entity", "AcmeDB"), ("entity", "RabbitMQ")]).json()["missing"]
        api.store.write_evidence([
            rec("https://x.example/acme-a", "AcmeDB ingests 500 rows per second.", "AcmeDB", "ingest_throughput",
                500, "rows/s"),
            rec("https://y.example/acme-b", "AcmeDB ingests 900 rows per second.", "AcmeDB", "ingest_throughput",
                900, "rows/s")])
        clock.t += 60
        after = c.get("/conflicts").json()["items"]
        assert any(g["entity"] == "AcmeDB" for g in after), [g["entity"] for g in after]
        assert len(after) == len(before) + 1
        cmp = c.get("/compare", params=[("entity", "AcmeDB"), ("entity", "RabbitMQ")]).json()
        assert "AcmeDB" not in cmp["missing"], cmp
