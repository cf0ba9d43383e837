"""Write batches on one background thread while the caller prepares the next.

A driver call waits on the database with the GIL released, so preparing batch k+1 (ids, aliases, numbers,
the statement's encoding: pure Python) overlaps with the server writing batch k. On a 2-core machine that
overlap is the difference between adding the two costs and paying the larger one (bench/bench_graph.py).
All Python work happens in the caller's thread (`bind`); the writer thread only sends and waits, because
two threads both running Python just take turns on the GIL.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Generic, TypeVar

T = TypeVar("T")
Job = Callable[[], int]  # sends one bound batch; returns the rows written
_DONE = object()


class BatchWriter(Generic[T]):
    """Batches are bound in the caller's thread and written in submission order on one thread.

    At most `depth` bound batches wait. The first failure stops the writing: nothing submitted after the
    failed batch is written, and the error is raised to the caller by its next `submit` or by `close` (the
    batches are idempotent, so running the whole import again is the recovery). Leaving the `with` block on
    an exception discards what is still queued instead of writing it.
    """

    def __init__(self, bind: Callable[[T], Job], depth: int = 2, name: str = "graph-writer") -> None:
        self._bind = bind
        self._queue: queue.Queue[Job | object] = queue.Queue(maxsize=max(1, depth))
        self._error: BaseException | None = None
        self._cancelled = False
        self.written = 0
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while True:
            job = self._queue.get()
            if job is _DONE:
                return
            if self._error is not None or self._cancelled:
                continue  # drain, so a blocked submit always returns
            try:
                self.written += job()  # type: ignore[operator]
            except BaseException as e:  # handed to the caller's thread and raised there
                self._error = e

    def submit(self, batch: T) -> None:
        self._raise_pending()
        if not self._thread.is_alive():
            raise RuntimeError("the batch writer is closed")
        self._queue.put(self._bind(batch))

    def close(self) -> int:
        """Wait for every submitted batch; returns the number of rows written, or raises the first error."""
        self._stop()
        self._raise_pending()
        return self.written

    def _stop(self) -> None:
        if self._thread.is_alive():
            self._queue.put(_DONE)
            self._thread.join()

    def _raise_pending(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            self._cancelled = True
            raise error

    def __enter__(self) -> BatchWriter[T]:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            self.close()
            return
        self._cancelled = True
        self._stop()
