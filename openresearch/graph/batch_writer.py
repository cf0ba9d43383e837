"""Keep one batch write in flight while the caller prepares the next.

Preparing a batch (ids, aliases, numbers, the statement's encoding) is pure Python; writing it is the
database's work. `submit` prepares batch k+1 while batch k is still being written, then waits for k and
starts k+1, so on a 2-core machine the two costs overlap instead of adding up (bench/bench_graph.py). The
FalkorDB adapter starts a write by sending it and returns at once, with no thread, so nothing contends for
the GIL (a writer thread waited ~5 ms for the GIL after every socket call: 9-10k instead of 15k+ rows/s).
The Neo4j adapter writes at once when started: its driver has no send/receive split, and a worker thread
measured slower there, as the driver encodes in Python too.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Generic, TypeVar

T = TypeVar("T")
Wait = Callable[[], int]  # waits for a started write; returns the rows written
Start = Callable[[], Wait]  # starts a prepared write


class BatchWriter(Generic[T]):
    """Batches are written in submission order, at most one at a time.

    The first failure stops the writing: the error is raised by the next `submit` or by `close`, and no batch
    submitted after the failed one is started (batches are idempotent, so running the whole import again is
    the recovery). Leaving the `with` block on an exception waits for the write in flight, starts nothing more
    and keeps the original exception.
    """

    def __init__(self, prepare: Callable[[T], Start]) -> None:
        self._prepare = prepare
        self._pending: Wait | None = None
        self._closed = False
        self.written = 0

    def submit(self, batch: T) -> None:
        if self._closed:
            raise RuntimeError("the batch writer is closed")
        start = self._prepare(batch)  # overlaps with the write in flight
        self._finish()
        self._pending = start()

    def _finish(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            self.written += pending()

    def close(self) -> int:
        """Wait for the write in flight; returns the number of rows written, or raises its error."""
        self._closed = True
        self._finish()
        return self.written

    def __enter__(self) -> BatchWriter[T]:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            self.close()
            return
        self._closed = True
        with contextlib.suppress(Exception):  # the caller's exception is the one to see
            self._finish()


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a bulk write prepares rows.

    Preparing allocates many small containers that reference counting frees; the cyclic collector would
    meanwhile scan every live object (the caller's records included) again and again: without it,
    preparation took 10.5 instead of 16-32 ms per 1,000 rows (bench/bench_graph.py). Nothing prepared forms a
    reference cycle, so nothing accumulates; the collector's state is restored on exit."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
