"""`openresearch search`, `fetch`, `ingest` and `cache …`: sources into the graph from the command line.

Network work is async (PoliteClient); each command runs one event loop with `asyncio.run` and closes the
client and the cache before returning. The client's request counters are printed to stderr, so a user
sees that a repeated search or fetch was answered from the cache without touching the network.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from openresearch.commands.common import GraphOpt, JsonOpt, console, err_console, print_json, settings, store
from openresearch.errors import FetchError, ParseError

if TYPE_CHECKING:
    from openresearch.config import Settings
    from openresearch.graph.store import GraphStore
    from openresearch.ingest.embed import SentenceTransformerEmbedder
    from openresearch.ingest.fetch import FetchResult
    from openresearch.ingest.local import IndexReport
    from openresearch.ingest.response import ClientStats
    from openresearch.ingest.retrievers import Candidate
    from openresearch.models import SourceDoc

# Short names users type; anything else goes to the registry as is, so plugins work too.
RETRIEVER_ALIASES = {"s2": "semantic_scholar"}
EXIT_REFUSED = 2

cache_app = typer.Typer(help="The on-disk cache of HTTP responses and search results.", no_args_is_help=True)


# --- shared helpers -------------------------------------------------------------------------------------
def _embedder(s: Settings) -> SentenceTransformerEmbedder:
    from openresearch.ingest.embed import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(s.embedding_model, cache_dir=s.cache_dir / "embeddings")


def _init_schema(st: GraphStore, s: Settings, embedder: SentenceTransformerEmbedder) -> None:
    from openresearch.ingest.embed import resolve_model

    # the default model's width is known: asking the embedder would load the model (~7 s) even when
    # nothing needs embedding (a re-ingest of unchanged files)
    default = resolve_model(s.embedding_model) == resolve_model(None)
    st.init_schema(384 if default else embedder.dim)


def _network_note(stats: ClientStats) -> str:
    note = f"{stats.requests} network request{'s' if stats.requests != 1 else ''}, {stats.cache_hits} cache hits"
    return f"(cached) {note}" if stats.requests == 0 else note


# --- search ---------------------------------------------------------------------------------------------
async def _web_search(s: Settings, names: list[str], query: str, k: int) -> tuple[list[Candidate], ClientStats]:
    from openresearch.ingest.cache import Cache
    from openresearch.ingest.http import PoliteClient
    from openresearch.ingest.retrievers import RetrieverDeps, create

    cache = Cache.from_settings(s)
    try:
        async with PoliteClient.from_settings(s, cache=cache) as client:
            deps = RetrieverDeps(s, client, cache)
            retrievers = [create(name, deps) for name in names]  # unknown names fail before any request
            found: list[Candidate] = []
            for retriever in retrievers:
                found.extend(await retriever.search(query, k))
            return found, client.stats
    finally:
        cache.close()


def _local_search(s: Settings, graph: str | None, query: str, k: int) -> list[Candidate]:
    from openresearch.ingest.local import LocalRetriever

    # `local` is not in the retriever registry: its factory gets settings, an HTTP client and a cache,
    # while this retriever needs a graph store (honouring --graph) and an embedder.
    with store(graph) as st:
        embedder = _embedder(s)
        _init_schema(st, s, embedder)  # a graph nothing was ingested into yet answers "no results"
        return LocalRetriever(st, embedder).search_sync(query, k)


def search(
    query: Annotated[str, typer.Argument(help="What to search for.")],
    retriever: Annotated[str | None, typer.Option(
        "--retriever", "-r", help="searxng, arxiv, s2 (Semantic Scholar), openalex, wikipedia, local (your "
        "ingested documents) or a plugin's name; default: the web (SearXNG if OPENRESEARCH_SEARXNG_URL is "
        "set, else Wikipedia).", show_default=False)] = None,
    k: Annotated[int, typer.Option("-k", help="Results per retriever.", min=1)] = 10,
    graph: GraphOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Search one retriever and list the candidates (title, url, date, score).

    Results are cached (OPENRESEARCH_CACHE_TTL_S), so the same search again makes no network request.

    Example: openresearch search "kafka kraft migration" --retriever arxiv -k 5
    """
    from openresearch.ingest.retrievers.router import route

    s = settings()
    if retriever is None:
        names = route(["web"], searxng_url=s.searxng_url)
    else:
        names = [RETRIEVER_ALIASES.get(retriever.strip().lower(), retriever.strip().lower())]
    if names == ["local"]:
        found, note = _local_search(s, graph, query, k), "searched the graph (no network)"
    else:
        found, stats = asyncio.run(_web_search(s, names, query, k))
        note = _network_note(stats)
    if json_out:
        print_json(found)
    else:
        table = Table(title=f"{len(found)} results for {query!r}")
        for col in ("title", "url", "date", "score", "retriever"):
            table.add_column(col, justify="right" if col == "score" else "left", overflow="fold")
        for c in found:
            table.add_row(escape(c.title), escape(c.url), str(c.published or ""), f"{c.score:.2f}", c.retriever)
        console.print(table)
    err_console.print(f"{', '.join(names)}: {note}", highlight=False, soft_wrap=True)


# --- fetch ----------------------------------------------------------------------------------------------
async def _fetch(s: Settings, url: str) -> tuple[FetchResult, ClientStats]:
    from openresearch.ingest.cache import Cache
    from openresearch.ingest.fetch import Fetcher
    from openresearch.ingest.http import PoliteClient

    cache = Cache.from_settings(s)
    try:
        async with PoliteClient.from_settings(s, cache=cache) as client:
            return await Fetcher.from_settings(s, client).fetch(url), client.stats
    finally:
        cache.close()


def _store_fetched(s: Settings, graph: str | None, doc: SourceDoc, headers: dict[str, str]) -> str:
    """Write the source and its embedded chunks; 'added', 'updated' or 'unchanged' (nothing written)."""
    from openresearch.ingest.store_doc import store_document

    with store(graph, writes=True) as st:
        embedder = _embedder(s)
        _init_schema(st, s, embedder)  # also creates the graph: FalkorDB refuses reads of a missing one
        # an older version is kept (archived with the evidence read from it), as ingest/local.py does
        return store_document(st, embedder, doc, headers=headers, max_chunks=s.max_chunks_per_document).status


def fetch(
    url: Annotated[str, typer.Argument(help="An http(s) URL: an HTML page, a PDF or plain text.")],
    store_: Annotated[bool, typer.Option("--store/--no-store", help="Write the source and its embedded "
                                         "chunks to the graph.")] = False,
    graph: GraphOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Fetch one page under the politeness and SSRF rules, parse and chunk it, and show what came back.

    A page refused by policy (private address, robots.txt, redirect limit, size) prints why and exits 2.

    Example: openresearch fetch https://arxiv.org/abs/2404.16130 --store
    """
    from openresearch.ingest.documents import Limits, parse_bytes
    from openresearch.ingest.store_doc import chunk_document

    s = settings()
    # the refusal is this command's answer, printed below; the fetcher's own log line would repeat it
    logging.getLogger("openresearch.ingest.fetch").setLevel(logging.ERROR)
    result, stats = asyncio.run(_fetch(s, url))
    if result.refused_reason is not None:
        reason = result.refused_reason.removeprefix("refused ")
        if json_out:
            print_json({"url": url, "refused": True, "reason": reason})
        err_console.print(f"refused: {reason}", highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_REFUSED)
    if not result.ok:
        raise FetchError(f"HTTP {result.status} from {result.final_url}")
    if result.kind == "other":
        raise ParseError(f"{result.final_url}: cannot parse {result.content_type or 'untyped'} content")
    warnings: list[str] = []
    doc = parse_bytes(result.body, kind=result.kind, url=result.final_url,
                      content_type=result.headers.get("content-type"), fetched_at=result.fetched_at,
                      limits=Limits.from_settings(s), warnings=warnings)
    chunks, truncated = chunk_document(doc, s.max_chunks_per_document)
    if truncated is not None:
        warnings.append(f"only the first {s.max_chunks_per_document:,} of {truncated:,} chunks are kept "
                        "(OPENRESEARCH_MAX_CHUNKS_PER_DOCUMENT)")
    for warning in warnings:
        err_console.print(f"warning: {warning}", highlight=False, markup=False, soft_wrap=True)
    stored = _store_fetched(s, graph, doc, result.headers) if store_ else None
    info = {
        "url": url, "final_url": result.final_url, "status": result.status, "kind": result.kind,
        "content_type": result.content_type, "from_cache": result.from_cache, "source_id": doc.id,
        "title": doc.title, "published_at": doc.published_at, "text_chars": len(doc.text), "chunks": len(chunks),
        "stored": stored, "requests": stats.requests, "cache_hits": stats.cache_hits,
    }
    if json_out:
        print_json(info)
    else:
        table = Table(show_header=False, box=None)
        for key in ("title", "published_at", "text_chars", "chunks", "final_url", "kind", "from_cache",
                    "source_id", "stored"):
            if key != "stored" or stored is not None:
                table.add_row(key, escape(str(info[key] if info[key] is not None else "-")))
        console.print(table)
    err_console.print(_network_note(stats), highlight=False, soft_wrap=True)


# --- ingest ---------------------------------------------------------------------------------------------
def _index_with_progress(st: GraphStore, s: Settings, spec: str, embedder: SentenceTransformerEmbedder, *,
                         quiet: bool) -> IndexReport:
    from openresearch.ingest.documents import Limits
    from openresearch.ingest.local import expand, index_documents

    found = expand(spec, follow_symlinks=s.follow_symlinks)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=err_console, transient=True, disable=quiet) as bar:
        task = bar.add_task(Path(found.root).name, total=len(found.files))
        return index_documents(st, spec, embedder,
                               progress=lambda name: bar.update(task, advance=1, description=name),
                               follow_symlinks=s.follow_symlinks, limits=Limits.from_settings(s),
                               max_chunks=s.max_chunks_per_document)


def ingest(
    paths: Annotated[list[str], typer.Argument(help="Directories (recursive), files or quoted globs of "
                                               ".md, .txt, .html and .pdf documents.")],
    graph: GraphOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Index local documents into the graph (sources, chunks, embeddings); search them with --retriever local.

    Running it again re-reads every file but writes only those that changed, and removes the sources of
    deleted files; a file whose indexing was cut off (a killed run) is indexed again. A file is identified
    by its absolute path: after moving a folder, ingest it again at its new place. Symbolic links out of a
    folder are not followed (OPENRESEARCH_FOLLOW_SYMLINKS=1 allows it) and are listed. Exits 2 if some
    file could not be read.

    Example: openresearch ingest examples/corpus
    """
    s = settings()
    embedder = _embedder(s)
    with store(graph, writes=True) as st:
        _init_schema(st, s, embedder)
        reports = [_index_with_progress(st, s, spec, embedder, quiet=json_out) for spec in paths]
    if json_out:
        print_json([dataclasses.asdict(r) for r in reports])
    else:
        table = Table()
        for col in ("root", "added", "updated", "unchanged", "removed", "chunks", "errors"):
            table.add_column(col, justify="left" if col == "root" else "right", overflow="fold")
        for r in reports:
            table.add_row(escape(r.root), *(str(v) for v in (r.added, r.updated, r.unchanged, r.removed, r.chunks,
                                                               len(r.errors))))
        console.print(table)
        for r in reports:
            for err in r.errors:
                err_console.print(f"[yellow]skipped[/yellow] {escape(err)}")
            for note in r.skipped:
                err_console.print(f"[yellow]not followed[/yellow] {escape(note)}")
            for warning in r.warnings:
                err_console.print(f"[yellow]warning[/yellow] {escape(warning)}")
    if any(r.errors for r in reports):
        raise typer.Exit(2)


# --- cache ----------------------------------------------------------------------------------------------
@cache_app.command("stats")
def cache_stats(json_out: JsonOpt = False) -> None:
    """Show the cache file, its entries (responses, searches), size and the oldest entry's time.

    Example: openresearch cache stats --json
    """
    from datetime import UTC, datetime

    from openresearch.ingest.cache import Cache

    s = settings()
    cache = Cache.from_settings(s)
    try:
        st = cache.stats()
    finally:
        cache.close()
    if json_out:
        print_json({**st.model_dump(), "ttl_s": s.cache_ttl_s})
        return
    oldest = datetime.fromtimestamp(st.oldest, tz=UTC).isoformat(timespec="seconds") if st.oldest else "-"
    console.print(f"{st.path}\n{st.responses} responses, {st.searches} searches, {st.bytes:,} bytes, "
                  f"oldest {oldest}, TTL {s.cache_ttl_s} s", highlight=False)


@cache_app.command("clear")
def cache_clear(
    expired_only: Annotated[bool, typer.Option("--expired-only", help="Remove only entries older than the TTL "
                                               "(OPENRESEARCH_CACHE_TTL_S).")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Delete cached responses and search results (all of them, or only the expired ones).

    Example: openresearch cache clear --expired-only
    """
    from openresearch.ingest.cache import Cache

    cache = Cache.from_settings(settings())
    try:
        removed = cache.clear(expired_only=expired_only)
    finally:
        cache.close()
    if json_out:
        print_json({"removed": removed, "expired_only": expired_only})
    else:
        console.print(f"removed {removed} {'expired ' if expired_only else ''}cache entries", highlight=False)
