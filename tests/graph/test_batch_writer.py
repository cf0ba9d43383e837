"""BatchWriter (pure): one write in flight, preparation overlapping it, errors raised once and in order."""

from __future__ import annotations

import gc
from collections.abc import Callable

import pytest

from openresearch.graph.batch_writer import BatchWriter, Start, gc_paused


class Log:
    def __init__(self, fail_on: int | None = None) -> None:
        self.events: list[str] = []
        self.fail_on = fail_on

    def prepare(self, batch: int) -> Start:
        self.events.append(f"prepare {batch}")

        def start() -> Callable[[], int]:
            self.events.append(f"start {batch}")

            def wait() -> int:
                self.events.append(f"done {batch}")
                if batch == self.fail_on:
                    raise RuntimeError(f"batch {batch} failed")
                return 10
            return wait
        return start


def test_the_next_batch_is_prepared_before_the_one_in_flight_is_waited_for() -> None:
    log = Log()
    with BatchWriter(log.prepare) as w:
        for b in (1, 2, 3):
            w.submit(b)
    assert w.written == 30
    assert log.events == ["prepare 1", "start 1", "prepare 2", "done 1", "start 2", "prepare 3", "done 2",
                          "start 3", "done 3"]


def test_a_failed_batch_is_raised_by_the_next_submit_and_nothing_after_it_starts() -> None:
    log = Log(fail_on=2)
    w = BatchWriter(log.prepare)
    w.submit(1)
    w.submit(2)
    with pytest.raises(RuntimeError, match="batch 2 failed"):
        w.submit(3)
    assert "start 3" not in log.events
    assert w.written == 10


def test_a_failed_last_batch_is_raised_by_close() -> None:
    w = BatchWriter(Log(fail_on=1).prepare)
    w.submit(1)
    with pytest.raises(RuntimeError, match="batch 1 failed"):
        w.close()
    with pytest.raises(RuntimeError, match="closed"):
        w.submit(2)


def test_leaving_on_an_exception_waits_for_the_write_in_flight_and_keeps_the_exception() -> None:
    log = Log(fail_on=1)
    with pytest.raises(KeyError), BatchWriter(log.prepare) as w:
        w.submit(1)
        raise KeyError("caller")
    assert log.events[-1] == "done 1"  # the started write was read, its own error not raised over the caller's


def test_gc_paused_restores_the_collector() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # it was off before: left off
    finally:
        gc.enable()
