"""On-disk cache (one sqlite3 file): HTTP responses and retriever search results.

Responses are keyed by method + URL + sorted params, fresh for `ttl_s`; a stale entry with an ETag or
Last-Modified is revalidated (If-None-Match / If-Modified-Since) and a 304 reuses the stored body.
Search results are keyed by retriever name + query + k and simply expire.

sqlite calls are synchronous on purpose: they are sub-millisecond local reads and writes, and a
thread hop per call would cost more than it saves.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from openresearch.config import Settings

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY, method TEXT NOT NULL, url TEXT NOT NULL, final_url TEXT NOT NULL,
    status INTEGER NOT NULL, headers TEXT NOT NULL, content BLOB NOT NULL,
    etag TEXT, last_modified TEXT, stored_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS searches (
    key TEXT PRIMARY KEY, retriever TEXT NOT NULL, query TEXT NOT NULL, k INTEGER NOT NULL,
    payload TEXT NOT NULL, stored_at REAL NOT NULL
);
"""

Params = Mapping[str, str | int | float] | Sequence[tuple[str, str | int | float]]


class CachedResponse(BaseModel):
    key: str
    url: str
    final_url: str
    status: int
    headers: dict[str, str]
    content: bytes
    etag: str | None
    last_modified: str | None
    stored_at: float
    fresh: bool

    def validators(self) -> dict[str, str]:
        """Conditional-request headers that let the server answer 304 Not Modified."""
        out: dict[str, str] = {}
        if self.etag:
            out["If-None-Match"] = self.etag
        if self.last_modified:
            out["If-Modified-Since"] = self.last_modified
        return out


class CacheStats(BaseModel):
    path: str
    responses: int
    searches: int
    bytes: int
    oldest: float | None


def response_key(method: str, url: str, params: Params | None = None) -> str:
    items = sorted((str(k), str(v)) for k, v in (params.items() if isinstance(params, Mapping) else params or ()))
    raw = json.dumps([method.upper(), url, items], ensure_ascii=False)
    return hashlib.sha256(raw.encode()).hexdigest()


def search_key(retriever: str, query: str, k: int) -> str:
    return hashlib.sha256(json.dumps([retriever, query.strip(), k], ensure_ascii=False).encode()).hexdigest()


class Cache:
    def __init__(
        self, path: Path | str, *, ttl_s: float = 7 * 24 * 3600, clock: Callable[[], float] = time.time
    ) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.ttl_s = ttl_s
        self._clock = clock
        self._db = sqlite3.connect(str(path))
        # WAL + synchronous=NORMAL: no fsync per commit (20 ms each). A cache may lose its last writes
        # on power loss; it must not make every fetch wait for the disk.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    @classmethod
    def in_dir(cls, cache_dir: Path, *, ttl_s: float = 7 * 24 * 3600) -> Cache:
        return cls(cache_dir / "http.sqlite", ttl_s=ttl_s)

    @classmethod
    def from_settings(cls, settings: Settings) -> Cache:
        return cls.in_dir(settings.cache_dir, ttl_s=settings.cache_ttl_s)

    def close(self) -> None:
        self._db.close()

    # --- responses ---------------------------------------------------------------------------------
    def lookup(self, key: str) -> CachedResponse | None:
        row = self._db.execute(
            "SELECT key, url, final_url, status, headers, content, etag, last_modified, stored_at "
            "FROM responses WHERE key = ?",
            (key,),
        ).fetchone()
        if row is None:
            return None
        stored_at = float(row[8])
        return CachedResponse(
            key=row[0],
            url=row[1],
            final_url=row[2],
            status=row[3],
            headers=json.loads(row[4]),
            content=bytes(row[5]),
            etag=row[6],
            last_modified=row[7],
            stored_at=stored_at,
            fresh=self._clock() - stored_at < self.ttl_s,
        )

    def store(
        self,
        key: str,
        *,
        method: str,
        url: str,
        final_url: str,
        status: int,
        headers: Mapping[str, str],
        content: bytes,
    ) -> None:
        lowered = {k.lower(): v for k, v in headers.items()}
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    method.upper(),
                    url,
                    final_url,
                    status,
                    json.dumps(dict(headers)),
                    content,
                    lowered.get("etag"),
                    lowered.get("last-modified"),
                    self._clock(),
                ),
            )

    def touch(self, key: str) -> None:
        """A 304 confirmed the entry: it is fresh again for another TTL."""
        with self._db:
            self._db.execute("UPDATE responses SET stored_at = ? WHERE key = ?", (self._clock(), key))

    # --- search results ----------------------------------------------------------------------------
    def get_search(self, retriever: str, query: str, k: int) -> list[dict[str, Any]] | None:
        row = self._db.execute(
            "SELECT payload, stored_at FROM searches WHERE key = ?", (search_key(retriever, query, k),)
        ).fetchone()
        if row is None or self._clock() - float(row[1]) >= self.ttl_s:
            return None
        payload: list[dict[str, Any]] = json.loads(row[0])
        return payload

    def put_search(self, retriever: str, query: str, k: int, payload: list[dict[str, Any]]) -> None:
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO searches VALUES (?, ?, ?, ?, ?, ?)",
                (
                    search_key(retriever, query, k),
                    retriever,
                    query,
                    k,
                    json.dumps(payload, ensure_ascii=False),
                    self._clock(),
                ),
            )

    # --- maintenance (openresearch cache stats|clear) ----------------------------------------------
    def stats(self) -> CacheStats:
        responses, size, oldest_r = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(content)), 0), MIN(stored_at) FROM responses"
        ).fetchone()
        searches, payload, oldest_s = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(payload)), 0), MIN(stored_at) FROM searches"
        ).fetchone()
        stamps = [t for t in (oldest_r, oldest_s) if t is not None]
        return CacheStats(
            path=str(self.path),
            responses=responses,
            searches=searches,
            bytes=int(size) + int(payload),
            oldest=min(stamps) if stamps else None,
        )

    def clear(self, *, expired_only: bool = False) -> int:
        """Delete entries (all, or only those past the TTL); returns how many were removed."""
        cutoff = self._clock() - self.ttl_s if expired_only else float("inf")
        with self._db:
            removed = self._db.execute("DELETE FROM responses WHERE stored_at < ?", (cutoff,)).rowcount
            removed += self._db.execute("DELETE FROM searches WHERE stored_at < ?", (cutoff,)).rowcount
        return int(removed)
