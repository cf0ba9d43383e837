"""Answers of the heavier read routes (/compare, /conflicts) cached per graph version, with one computation per
key at a time: fifty clients asking the same comparison while a run writes cost one query per version, and
nobody is served an answer older than the graph's current version.

The version is a few counts that grow whenever evidence, observations, feedback or resolutions are added
(`GraphStore.graph_version`), read once per request; a changed version is a different key.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from openresearch.graph.store import GraphStore


class VersionedCache:
    def __init__(self, store: GraphStore, max_entries: int = 256) -> None:
        self.store = store
        self.max_entries = max_entries
        self._entries: OrderedDict[Hashable, bytes] = OrderedDict()
        self._computing: dict[Hashable, threading.Lock] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, compute: Callable[[], bytes]) -> bytes:
        full = (key, self.store.graph_version())
        with self._lock:
            if full in self._entries:
                self._entries.move_to_end(full)
                self.hits += 1
                return self._entries[full]
            gate = self._computing.setdefault(full, threading.Lock())
        with gate:  # the first caller computes; the others wait for it and read its answer
            with self._lock:
                if full in self._entries:
                    self.hits += 1
                    return self._entries[full]
            body = compute()
            with self._lock:
                self.misses += 1
                self._entries[full] = body
                while len(self._entries) > self.max_entries:
                    self._entries.popitem(last=False)
                self._computing.pop(full, None)
            return body
