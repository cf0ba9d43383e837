"""Answers of the heavier read routes (/compare, /conflicts) cached per graph version, with one computation per
key at a time: fifty clients asking the same comparison while a run writes cost one query per version.

The version is a few counts that change whenever evidence, observations, feedback, resolutions or
supersessions are added (`GraphStore.graph_version`).

Freshness is bounded, not strict: no answer is served that was last known to match the graph more than
`stale_s` seconds ago, however rarely a client asks. An answer is known current at the start of each version
read that finds its version. While something else writes (a research run adds evidence every second or so,
and recomputing for every new version made fifty waiting clients wait for each recomputation):
- the version is read at most once per `version_ttl_s` (never less often than `stale_s`);
- an answer the graph moved on from is still served while it was known current within `stale_s`, and one
  background thread computes the answer for the new version; past that, callers wait for the new answer;
- a caller that finds only a version read older than `stale_s` (a quiet server) reads it again itself.
- a write made through this API (a resolution, feedback) calls `invalidate()`: the next read is computed
  fresh, so whoever wrote sees their own write.
`stale_s=0` is strict: the version is read on every request and no outdated answer is ever served.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from openresearch.graph.store import GraphStore

log = logging.getLogger(__name__)
Version = tuple[int, ...]


@dataclass
class _Entry:
    version: Version
    body: bytes
    current_at: float  # the latest time this answer was known to match the graph (a version read began then)


class VersionedCache:
    def __init__(self, store: GraphStore, max_entries: int = 256, *, stale_s: float = 1.0,
                 version_ttl_s: float = 0.1, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.max_entries = max_entries
        self.stale_s = max(0.0, stale_s)
        self.version_ttl_s = min(version_ttl_s, self.stale_s)  # a version read is never trusted past the bound
        self.clock = clock
        self._entries: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._computing: dict[tuple[Hashable, Version], threading.Lock] = {}
        self._refreshing: set[Hashable] = set()
        self._lock = threading.Lock()
        self._version: Version | None = None
        self._version_read_at = float("-inf")  # when the read of `_version` began
        self._version_lock = threading.Lock()  # held briefly: never during a graph read
        self._read_lock = threading.Lock()  # one graph read of the version at a time
        self._version_refreshing = False
        self._generation = 0  # bumped by invalidate: a read begun before it is not kept
        self.hits = 0
        self.stale_hits = 0
        self.misses = 0

    def invalidate(self) -> None:
        """Forget every answer and the version read: the next request of each key is computed fresh."""
        with self._lock:
            self._entries.clear()
        with self._version_lock:
            self._version, self._version_read_at = None, float("-inf")
            self._generation += 1

    def _fresh_version(self) -> tuple[Version, float] | None:
        with self._version_lock:
            if self._version is not None and self.clock() - self._version_read_at < self.version_ttl_s:
                return self._version, self._version_read_at
        return None

    def _read_version(self) -> tuple[Version, float]:
        with self._read_lock:  # one reader at a time; who waited uses what it read
            fresh = self._fresh_version()
            if fresh is not None:
                return fresh
            with self._version_lock:
                generation = self._generation
            began = self.clock()  # the graph was at least this recent when the read answered
            v = self.store.graph_version()
            with self._version_lock:
                if generation == self._generation:
                    self._version, self._version_read_at = v, began
            return v, began

    def version(self) -> Version:
        return self._current()[0]

    def _current(self) -> tuple[Version, float]:
        fresh = self._fresh_version()
        return fresh if fresh is not None else self._read_version()

    def get(self, key: Hashable, compute: Callable[[], bytes]) -> bytes:
        """The answer for `key`: cached, outdated within the bound, or computed (this may read the graph)."""
        version, read_at = self._current()
        body = self._serve(key, version, read_at, compute)
        return body if body is not None else self._compute(key, version, read_at, compute)

    def lookup(self, key: Hashable, compute: Callable[[], bytes]) -> bytes | None:
        """`get` without blocking: the answer when it needs neither a graph read nor a computation, else None
        (an async route calls this on the event loop and `get` in a worker thread only when it is None).
        When the version read is older than `version_ttl_s`, one background thread reads it again and this
        answers by the one it has, if that is within the bound: a read that waits behind a write holds no
        request, and a version read long ago answers nobody."""
        if self.stale_s <= 0:
            return None
        with self._version_lock:
            version, read_at = self._version, self._version_read_at
            due = version is None or self.clock() - read_at >= self.version_ttl_s
            if due and version is not None and not self._version_refreshing:
                self._version_refreshing = True
                threading.Thread(target=self._refresh_version, daemon=True, name="api-cache-version").start()
        if version is None or self.clock() - read_at > self.stale_s:
            return None
        return self._serve(key, version, read_at, compute)

    def _refresh_version(self) -> None:
        try:
            self._read_version()
        except Exception:  # the graph is away: requests fall back to `get`, which reads it and raises
            log.exception("reading the graph version failed")
            with self._version_lock:
                self._version = None
        finally:
            with self._version_lock:
                self._version_refreshing = False

    def _serve(self, key: Hashable, version: Version, read_at: float, compute: Callable[[], bytes]) -> bytes | None:
        """The cached answer if it is current by `version` (read at `read_at`), or outdated but known current
        within `stale_s` (then its new answer is computed in the background); else None."""
        with self._lock:
            e = self._entries.get(key)
            if e is not None and e.version == version:
                e.current_at = max(e.current_at, read_at)
                self._entries.move_to_end(key)
                self.hits += 1
                return e.body
            if e is not None and self.stale_s > 0 and self.clock() - e.current_at <= self.stale_s:
                self.stale_hits += 1
                if key not in self._refreshing:
                    self._refreshing.add(key)
                    threading.Thread(target=self._refresh, args=(key, version, read_at, compute), daemon=True,
                                     name="api-cache-refresh").start()
                return e.body
        return None

    def _refresh(self, key: Hashable, version: Version, read_at: float, compute: Callable[[], bytes]) -> None:
        try:
            self._compute(key, version, read_at, compute)
        except Exception:  # the next request past the staleness bound computes it again, and raises
            log.exception("refreshing a cached API answer failed")
        finally:
            with self._lock:
                self._refreshing.discard(key)

    def _compute(self, key: Hashable, version: Version, read_at: float, compute: Callable[[], bytes]) -> bytes:
        with self._lock:
            gate = self._computing.setdefault((key, version), threading.Lock())
        with gate:  # the first caller computes; the others wait for it and read its answer
            with self._lock:
                e = self._entries.get(key)
                if e is not None and e.version == version:
                    e.current_at = max(e.current_at, read_at)
                    self.hits += 1
                    return e.body
            try:
                body = compute()
            except BaseException:
                with self._lock:
                    self._computing.pop((key, version), None)
                raise
            with self._lock:
                self.misses += 1
                current = self._entries.get(key)
                # a slower computation of an older version never replaces an answer known current later
                if current is None or current.version == version or current.current_at <= read_at:
                    self._entries[key] = _Entry(version, body, read_at)
                    self._entries.move_to_end(key)
                while len(self._entries) > self.max_entries:
                    self._entries.popitem(last=False)
                self._computing.pop((key, version), None)
            return body
