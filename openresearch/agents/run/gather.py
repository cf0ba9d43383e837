"""Retrieve sources for one query: local documents through the graph, the web and academic APIs through
retrievers, deep fetch, parse, and store every source's exact text in the graph before anything quotes it."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import UTC, date, datetime

from openresearch.boundary import SOURCE_RETRIEVERS
from openresearch.config import Settings
from openresearch.errors import FetchError, OpenResearchError
from openresearch.graph.store import GraphStore
from openresearch.identity import content_hash, source_id
from openresearch.ingest.cache import Cache
from openresearch.ingest.documents import parse_bytes
from openresearch.ingest.embed import Embedder
from openresearch.ingest.fetch import Fetcher
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.local import LocalRetriever
from openresearch.ingest.rank import RankCandidate, rank_candidates
from openresearch.ingest.records import (
    Fact,
    RecordSpec,
    fetch_records,
    is_record_source,
    parse_spec,
    render,
    routed_specs,
)
from openresearch.ingest.retrievers.base import Candidate, RetrieverDeps
from openresearch.ingest.retrievers.registry import create
from openresearch.ingest.retrievers.router import route
from openresearch.ingest.store_doc import store_document
from openresearch.models import SourceDoc

log = logging.getLogger(__name__)
# what is kept of a fetched page's headers, with its text and fetch time, to know later exactly what was read
_KEPT_HEADERS = {"content-type", "etag", "last-modified", "date", "content-language", "content-length"}


@dataclass
class Gathered:
    sources: list[SourceDoc] = field(default_factory=list)
    chunks: list[tuple[str, int, int]] = field(default_factory=list)  # (source id, start, end) retrieved
    searches: int = 0
    fetched: int = 0
    refused: list[str] = field(default_factory=list)
    # first-hand records among `sources`: source id -> each fact's line and its offsets in the stored text
    records: dict[str, list[tuple[Fact, int, int]]] = field(default_factory=dict)


class Gatherer:
    """One per run: owns the polite HTTP client (politeness is global across sub-questions)."""

    def __init__(self, store: GraphStore, embedder: Embedder, settings: Settings, sources: list[str],
                 *, per_query: int = 6, local_per_query: int | None = None, offline: bool = False,
                 since: date | None = None, local_roots: list[str] | None = None) -> None:
        self.store = store
        self.since = since  # monitoring: the retrievers ask only for what is new since then
        self.embedder = embedder
        self.settings = settings
        self.per_query = per_query
        # local hits cost no request: a small plan (a look-up) reads more of the user's own documents per query
        self.local_per_query = local_per_query or per_query
        # the run's own folders only (None: every indexed document, for a caller that indexed none itself)
        self.local = LocalRetriever(store, embedder, roots=local_roots)
        self.remote: list[str] = []
        # first-hand records: named as sources, or (when the network may be used) asked for by a question's words
        self.record_specs = [] if offline else [parse_spec(s) for s in sources if is_record_source(s)]
        self.route_records = not offline and any(not s.startswith("local:") for s in sources)
        self._records: dict[str, list[tuple[SourceDoc, list[tuple[Fact, int, int]]]]] = {}
        self._record_locks: dict[str, asyncio.Lock] = {}
        self.indicator_names: dict[str, str] = {}  # indicator code -> its own name, as the API gave it
        for s in sources:
            if s.startswith("local:") or is_record_source(s):
                continue
            if offline:
                continue  # offline: no network at all, local documents only
            names = route(["web"], searxng_url=settings.searxng_url) if s == "web" else SOURCE_RETRIEVERS.get(s, [])
            self.remote.extend(n for n in names if n not in self.remote)
        self.use_local = any(s.startswith("local:") for s in sources)
        self._client: PoliteClient | None = None
        self._cache: Cache | None = None
        self._lock = asyncio.Lock()

    async def _deps(self) -> RetrieverDeps:
        async with self._lock:
            if self._client is None:
                self._cache = Cache.from_settings(self.settings)
                self._client = PoliteClient.from_settings(self.settings, cache=self._cache)
            return RetrieverDeps(self.settings, self._client, self._cache, since=self.since)

    @property
    def network_requests(self) -> int:
        return self._client.stats.requests if self._client else 0

    @property
    def cache_hits(self) -> int:
        return self._client.stats.cache_hits if self._client else 0

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
        if self._cache is not None:
            self._cache.close()

    async def gather(self, query: str, about: str | None = None) -> Gathered:
        """Sources for one query of a sub-question (`about`: its text, which decides the records routed to it)."""
        out = Gathered()
        specs = list(self.record_specs)
        if self.route_records:
            specs += [s for s in routed_specs(about or query) if s not in specs]
        for spec in specs:
            await self._gather_record(spec, out)
        if self.use_local:
            hits = await asyncio.to_thread(self.local.search_sync, query, self.local_per_query)
            out.searches += 1
            ids = [str(c.extra["source_id"]) for c in hits]
            docs = await asyncio.to_thread(self.store.sources, ids)
            out.sources.extend(docs[i] for i in ids if i in docs)
            out.chunks.extend((str(c.extra["source_id"]), int(str(c.extra["start"])), int(str(c.extra["end"])))
                              for c in hits)
        if self.remote:
            await self._gather_remote(query, out)
        return out

    async def _gather_remote(self, query: str, out: Gathered) -> None:
        deps = await self._deps()
        candidates: list[Candidate] = []
        for name in self.remote:
            try:
                candidates.extend(await create(name, deps).search(query, self.per_query))
                out.searches += 1
            except OpenResearchError as e:
                log.warning("retriever %s failed for %r: %s", name, query, e)
        if not candidates:
            return
        qvec, cvecs = await asyncio.to_thread(self._embed_candidates, query, candidates)
        ranked = rank_candidates(
            query, [RankCandidate(title=c.title, url=c.url, snippet=c.snippet, published_at=c.published,
                                  embedding=v) for c, v in zip(candidates, cvecs, strict=True)],
            today=date.today(), query_embedding=qvec, domain_weights=self.settings.domain_weights,
            half_life_days=self.settings.recency_half_life_days, top_k=self.per_query)
        by_url = {c.url: c for c in candidates}
        chosen = [by_url[r.candidate.url] for r in ranked if r.candidate.url in by_url]
        assert self._client is not None
        fetcher = Fetcher.from_settings(self.settings, self._client)
        for cand in chosen:
            doc = await self._fetch_one(fetcher, cand, out)
            if doc is not None:
                out.sources.append(doc)

    async def _gather_record(self, spec: RecordSpec, out: Gathered) -> None:
        """A record is read and stored once per run (every later query reuses it: no request, no write)."""
        lock = self._record_locks.setdefault(spec.source, asyncio.Lock())
        async with lock:
            if spec.source not in self._records:
                deps = await self._deps()
                assert deps.client is not None
                try:
                    # a monitoring run (since set) asks the API again: a revised figure is what it looks for
                    records = await fetch_records(spec, deps.client, self.settings, fresh=self.since is not None)
                    out.searches += 1
                except OpenResearchError as e:
                    log.warning("first-hand source %s failed: %s", spec.source, e)
                    out.refused.append(f"{spec.source}: {e}")
                    self._records[spec.source] = []
                    return
                name = next((f.metric for r in records for f in r.facts if f.metric), None)
                if spec.kind != "github" and name:
                    self.indicator_names[spec.target] = name
                stored = []
                for rec in records:
                    doc, spans = render(rec)
                    doc = await asyncio.to_thread(self._store, doc, {}, out)
                    stored.append((doc, spans))
                self._records[spec.source] = stored
        for doc, spans in self._records[spec.source]:
            out.sources.append(doc)
            out.records[doc.id] = spans

    def _embed_candidates(self, query: str, cands: list[Candidate]) -> tuple[list[float], list[list[float]]]:
        vecs = self.embedder.embed([query] + [f"{c.title}. {c.snippet}" for c in cands])
        return vecs[0], vecs[1:]

    async def _fetch_one(self, fetcher: Fetcher, cand: Candidate, out: Gathered) -> SourceDoc | None:
        url = str(cand.extra.get("pdf_url") or cand.url)
        try:
            res = await fetcher.fetch(url)
        except FetchError as e:
            out.refused.append(f"{url}: {e}")
            res = None
        doc: SourceDoc | None = None
        if res is not None and res.ok and res.kind in {"html", "pdf", "text"}:
            out.fetched += 1
            try:
                doc = parse_bytes(res.body, kind=res.kind, url=cand.url, content_type=res.content_type,
                                  fetched_at=res.fetched_at, default_kind=cand.kind)
            except OpenResearchError as e:
                out.refused.append(f"{url}: {e}")
        elif res is not None:
            out.refused.append(f"{url}: {res.refused_reason or f'status {res.status}, {res.kind}'}")
        if doc is None and len(cand.snippet) >= 200:
            # an abstract from a scholarly API is itself a quotable text
            text = " ".join(cand.snippet.split())
            doc = SourceDoc(id=source_id(cand.url), url=cand.url, title=cand.title, kind=cand.kind,
                            published_at=cand.published, fetched_at=datetime.now(tz=UTC), text=text,
                            content_hash=content_hash(text))
        if doc is None:
            return None
        if doc.title is None:
            doc = doc.model_copy(update={"title": cand.title})
        headers = {k: v for k, v in (res.headers if res is not None else {}).items() if k.lower() in _KEPT_HEADERS}
        return await asyncio.to_thread(self._store, doc, headers, out)

    def _store(self, doc: SourceDoc, headers: dict[str, str], out: Gathered) -> SourceDoc:
        # the one storing path (chunking, embedding, completion marker); a page already stored whole is not
        # embedded again; a page whose text changed keeps its stored version, and its new evidence the id
        # scope that `stored.doc` carries
        stored = store_document(self.store, self.embedder, doc, headers=headers,
                                max_chunks=self.settings.max_chunks_per_document)
        out.chunks.extend((doc.id, c.start, c.end) for c in stored.chunks)
        return stored.doc or doc
