"""On-disk embedding cache: sqlite3 keyed by (model, sha256(text)), vectors stored as float32."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import sqlite3
import threading
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path

_SCHEMA = """CREATE TABLE IF NOT EXISTS embeddings (
    model TEXT NOT NULL, text_sha256 TEXT NOT NULL, dim INTEGER NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY (model, text_sha256)) WITHOUT ROWID"""
log = logging.getLogger(__name__)
# SQLite caps host parameters per statement; look keys up in slices below that limit.
_BATCH = 500


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def to_float32(vector: Sequence[float]) -> list[float]:
    """The float32 round trip the cache applies, so fresh and cached vectors compare equal."""
    return array("f", vector).tolist()


class EmbeddingCache:
    """A cache only: when its disk is full (or unwritable) it is switched off with one warning and embedding goes
    on uncached, so a read command such as a search still answers."""

    def __init__(self, cache_dir: Path | str) -> None:
        path = Path(cache_dir)
        self.path = path / "embeddings.sqlite3"
        self._lock = threading.Lock()
        self.disabled: str | None = None
        try:
            path.mkdir(parents=True, exist_ok=True)
            # One connection shared by threads under a lock: the cache is small and writes are batched.
            self._db = sqlite3.connect(self.path, check_same_thread=False)
            with self._lock, self._db:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute(_SCHEMA)
        except (sqlite3.Error, OSError) as e:
            self._disable(e)

    def _disable(self, e: BaseException) -> None:
        if self.disabled is None:
            self.disabled = str(e)
            log.warning("embedding cache %s switched off: %s (embedding goes on uncached)", self.path, e)

    def get_many(self, model: str, keys: Sequence[str]) -> dict[str, list[float]]:
        if self.disabled:
            return {}
        try:
            return self._get_many(model, keys)
        except sqlite3.Error as e:
            self._disable(e)
            return {}

    def _get_many(self, model: str, keys: Sequence[str]) -> dict[str, list[float]]:
        found: dict[str, list[float]] = {}
        unique = list(dict.fromkeys(keys))
        with self._lock:
            for i in range(0, len(unique), _BATCH):
                part = unique[i : i + _BATCH]
                marks = ",".join("?" * len(part))
                sql = (
                    f"SELECT text_sha256, vector FROM embeddings WHERE model = ? AND text_sha256 IN ({marks})"
                )
                rows = self._db.execute(sql, [model, *part])
                for key, blob in rows:
                    vec = array("f")
                    vec.frombytes(blob)
                    found[key] = vec.tolist()
        return found

    def put_many(self, model: str, items: Iterable[tuple[str, Sequence[float]]]) -> None:
        if self.disabled:
            return
        rows = [(model, key, len(vec), array("f", vec).tobytes()) for key, vec in items]
        try:
            with self._lock, self._db:
                self._db.executemany("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?)", rows)
        except sqlite3.Error as e:  # "database or disk is full"
            self._disable(e)

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error, AttributeError):
            self._db.close()
