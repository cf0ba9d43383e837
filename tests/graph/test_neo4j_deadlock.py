"""Two writers that lock the same nodes in opposite orders deadlock on Neo4j; both writes still land, once each.

The CI failure this guards: concurrent evidence writes of a research run deadlocked, and the error reached the
driver's retry loop wrapped in a ResultFailedError, which it does not retry. A real deadlock here is retried by
the driver itself (the wrapped form needs a timing this test cannot force), so the wrapped form is raised by
the unit of work on its first attempt, against the same real server."""

from __future__ import annotations

import contextlib
import threading

import pytest
from neo4j import ManagedTransaction
from neo4j import exceptions as nexc

from openresearch.graph.neo4j_backend import Neo4jBackend

pytestmark = pytest.mark.integration


def test_a_deadlock_between_two_writers_is_retried_and_nothing_is_written_twice(neo4j_url: str) -> None:
    backend = Neo4jBackend(neo4j_url)
    backend.write("MATCH (n:DeadlockProbe) DETACH DELETE n")
    backend.write("CREATE (:DeadlockProbe {k: 1, v: 0}), (:DeadlockProbe {k: 2, v: 0})")
    barrier = threading.Barrier(2)
    attempts: dict[int, int] = {1: 0, 2: 0}
    errors: list[BaseException] = []

    def writer(first: int, second: int) -> None:
        def work(tx: ManagedTransaction) -> None:
            attempts[first] += 1
            bump = "MATCH (n:DeadlockProbe {k: $k}) SET n.v = n.v + 1 RETURN n.v AS v"
            list(tx.run(bump, k=first))
            if attempts[first] == 1:
                with contextlib.suppress(threading.BrokenBarrierError):
                    barrier.wait(10)  # both hold their first lock: the second ones close the cycle
            list(tx.run(bump, k=second))  # the records are read the way every query here reads them

        try:
            backend._guard(lambda: backend._exec(True, work))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(1, 2)), threading.Thread(target=writer, args=(2, 1))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    rows = backend.read("MATCH (n:DeadlockProbe) RETURN n.k AS k, n.v AS v ORDER BY k")
    assert [(r["k"], r["v"]) for r in rows] == [(1, 2), (2, 2)]  # each transaction committed exactly once
    assert attempts[1] + attempts[2] >= 3, "no deadlock happened: the test proved nothing"
    backend.write("MATCH (n:DeadlockProbe) DETACH DELETE n")
    backend.close()


def test_a_deadlock_that_reaches_the_retry_loop_wrapped_is_retried_too(neo4j_url: str) -> None:
    backend = Neo4jBackend(neo4j_url)
    backend.write("MATCH (n:DeadlockProbe) DETACH DELETE n")
    tries: list[int] = []

    def work(tx: ManagedTransaction) -> None:
        tries.append(1)
        list(tx.run("CREATE (:DeadlockProbe {k: $k})", k=len(tries)))
        if len(tries) == 1:
            wrapped = nexc.ResultFailedError(None, "The result has failed.")
            raise wrapped from nexc.TransientError("Neo.TransientError.Transaction.DeadlockDetected")

    backend._guard(lambda: backend._exec(True, work))
    assert len(tries) == 2
    # the failed attempt was rolled back: only the second one's node exists
    assert [r["k"] for r in backend.read("MATCH (n:DeadlockProbe) RETURN n.k AS k")] == [2]

    def broken(tx: ManagedTransaction) -> None:
        raise nexc.ResultFailedError(None, "The result has failed.") from ValueError("not transient")

    with pytest.raises(Exception, match="not transient"):  # any other cause is an error, reported, not retried
        backend._guard(lambda: backend._exec(True, broken))
    backend.write("MATCH (n:DeadlockProbe) DETACH DELETE n")
    backend.close()
