"""Retrievers against recorded responses in the real formats, served by the local server."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from netserver import ClientFactory, FaultServer

from openresearch.config import Settings
from openresearch.errors import ConfigError, InputError
from openresearch.ingest.cache import Cache
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.retrievers import (
    Candidate,
    RetrieverDeps,
    available,
    create,
    get,
    register,
    registry,
)
from openresearch.ingest.retrievers.arxiv import ArxivRetriever, build_query
from openresearch.ingest.retrievers.openalex import rebuild_abstract
from openresearch.ingest.retrievers.router import route

pytestmark = pytest.mark.integration  # a real HTTP server on 127.0.0.1


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


@pytest.fixture
def settings(server: FaultServer, tmp_path: Path) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        data_dir=tmp_path,
        searxng_url=f"{server.base}/searxng",
        searxng_engines="duckduckgo,brave",
        arxiv_url=f"{server.base}/arxiv/api/query",
        semantic_scholar_url=f"{server.base}/s2/graph/v1",
        semantic_scholar_key="s2-test-key",
        openalex_url=f"{server.base}/openalex",
        wikipedia_url=f"{server.base}/wiki/w/api.php",
        contact_email="tests@example.org",
        host_intervals={"127.0.0.1": 0.0},
        trusted_hosts=["127.0.0.1"],
    )


async def search(
    name: str, settings: Settings, client: PoliteClient, cache: Cache | None = None, k: int = 5
) -> list[Candidate]:
    return await create(name, RetrieverDeps(settings, client, cache)).search("knowledge graph  RAG", k)


def test_searxng(server: FaultServer, make_client: ClientFactory, settings: Settings) -> None:
    async def go() -> list[Candidate]:
        async with make_client() as client:
            return await search("searxng", settings, client, k=2)

    found = run(go())
    assert [c.title for c in found] == [
        "How to Build a Knowledge Graph RAG Application",
        "Retrieval-augmented generation - Wikipedia",
    ]
    assert found[0].score == 1.0 and found[0].published is not None and found[0].kind == "web"
    assert found[0].extra["engines"] == "duckduckgo,brave"
    query = server.hits()[0].query
    assert (
        query["format"] == ["json"]
        and query["engines"] == ["duckduckgo,brave"]
        and query["q"] == ["knowledge graph RAG"]
    )
    assert query["categories"] == ["general"] and query["language"] == ["auto"]


def test_arxiv_pages_and_keeps_its_interval(
    server: FaultServer, make_client: ClientFactory, settings: Settings
) -> None:
    async def go() -> list[Candidate]:
        async with make_client() as client:
            retriever = ArxivRetriever(client, None, base_url=settings.arxiv_url, page_size=2, min_interval_s=0.2)
            return await retriever.search("graph rag", 3)

    found = run(go())
    assert [c.extra["arxiv_id"] for c in found] == ["2404.16130v1", "2005.11401v4", "2408.08921v1"]
    assert found[1].extra["doi"] == "10.48550/arXiv.2005.11401" and found[1].extra["venue"] == "NeurIPS 2020"
    assert found[0].extra["pdf_url"] == "http://arxiv.org/pdf/2404.16130v1" and found[0].snippet.startswith("The use")
    assert found[0].title == "From Local to Global: A Graph RAG Approach to Query-Focused Summarization"
    hits = server.hits()
    assert [(h.query["start"], h.query["max_results"]) for h in hits] == [(["0"], ["2"]), (["2"], ["1"])]
    assert hits[0].query["search_query"] == ["all:graph AND all:rag"]
    assert hits[1].at - hits[0].at >= 0.2


def test_arxiv_factory_floors_the_real_host_at_3s(make_client: ClientFactory, settings: Settings) -> None:
    real = settings.model_copy(
        update={
            "arxiv_url": "https://export.arxiv.org/api/query",
            "host_intervals": {"export.arxiv.org": 0.5},
        }
    )

    async def go() -> float:
        async with make_client() as client:
            create("arxiv", RetrieverDeps(real, client))
            return client.limiter.interval("export.arxiv.org")

    assert run(go()) >= 3.0
    assert build_query('"graph" AND rag-fusion OR x') == "all:graph AND all:rag-fusion AND all:x"


def test_semantic_scholar(server: FaultServer, make_client: ClientFactory, settings: Settings) -> None:
    async def go() -> list[Candidate]:
        async with make_client() as client:
            return await search("semantic_scholar", settings, client)

    first, second = run(go())
    assert first.extra["doi"] == "10.48550/arXiv.2005.11401" and first.extra["citations"] == 5123
    assert first.extra["pdf_url"] == "https://arxiv.org/pdf/2005.11401" and str(first.published) == "2020-05-22"
    assert second.snippet == "" and str(second.published) == "2024-01-01" and second.extra["pdf_url"] is None
    hit = server.hits()[0]
    assert hit.headers["x-api-key"] == "s2-test-key" and "openAccessPdf" in hit.query["fields"][0]


def test_openalex(server: FaultServer, make_client: ClientFactory, settings: Settings) -> None:
    async def go() -> list[Candidate]:
        async with make_client() as client:
            return await search("openalex", settings, client)

    first, second = run(go())
    assert first.snippet == "Large pre-trained language models have been shown to store factual knowledge."
    assert first.url == "https://doi.org/10.48550/arxiv.2005.11401" and first.extra["citations"] == 4876
    assert first.extra["pdf_url"] == "https://arxiv.org/pdf/2005.11401" and first.extra["authors"] == (
        "Patrick Lewis; Ethan Perez"
    )
    assert second.snippet == "" and second.url == "https://arxiv.org/abs/2408.08921"
    assert server.hits()[0].query["mailto"] == ["tests@example.org"]
    assert rebuild_abstract({"b": [1], "a": [0, 2]}) == "a b a"


def test_wikipedia(server: FaultServer, make_client: ClientFactory, settings: Settings) -> None:
    async def go() -> list[Candidate]:
        async with make_client() as client:
            return await search("wikipedia", settings, client)

    first, _ = run(go())
    assert first.url == f"{server.base}/wiki/Knowledge_graph"
    assert first.snippet.startswith("In knowledge representation and reasoning, a knowledge graph is")
    assert "&" in first.snippet and "<span" not in first.snippet
    query = server.hits()[0].query
    assert query["action"] == ["query"] and query["list"] == ["search"] and query["format"] == ["json"]


@pytest.mark.parametrize("name", ["searxng", "arxiv", "semantic_scholar", "openalex", "wikipedia"])
def test_second_search_makes_zero_requests(
    server: FaultServer, make_client: ClientFactory, settings: Settings, cache: Cache, name: str
) -> None:
    async def go() -> None:
        async with make_client() as client:
            first = await search(name, settings, client, cache)
            before = len(server.hits())
            second = await search(name, settings, client, cache)
            assert second == first and first
            assert len(server.hits()) == before and client.stats.requests == before

    run(go())


def test_registry_builtins_reserved_and_custom(make_client: ClientFactory, settings: Settings) -> None:
    assert {"searxng", "arxiv", "semantic_scholar", "openalex", "wikipedia"} <= set(available())
    with pytest.raises(ConfigError, match="reserved"):
        get("local")
    with pytest.raises(ConfigError, match="unknown retriever"):
        get("nope")

    class Fixed:
        name = "fixed"

        async def search(self, query: str, k: int) -> list[Candidate]:
            return [Candidate(title=query, url="local://1", kind="internal", retriever="fixed")][:k]

    register("fixed", lambda deps: Fixed())
    try:

        async def go() -> list[Candidate]:
            async with make_client() as client:
                return await create("fixed", RetrieverDeps(settings, client)).search("q", 1)

        assert run(go())[0].title == "q" and "fixed" in available()
        with pytest.raises(ConfigError, match="already registered"):
            register("fixed", lambda deps: Fixed())
    finally:
        registry.unregister("fixed")


def test_third_party_entry_point_is_discovered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_client: ClientFactory, settings: Settings
) -> None:
    dist = tmp_path / "echo_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: echo-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[openresearch.retrievers]\necho = echo_plugin:factory\n")
    (tmp_path / "echo_plugin.py").write_text(
        "from openresearch.ingest.retrievers import Candidate\n"
        "class Echo:\n"
        "    name = 'echo'\n"
        "    async def search(self, query, k):\n"
        "        return [Candidate(title=query, url='x://echo', kind='web', retriever='echo')]\n"
        "def factory(deps):\n"
        "    return Echo()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.refresh()
    try:
        assert "echo" in available()

        async def go() -> list[Candidate]:
            async with make_client() as client:
                return await create("echo", RetrieverDeps(settings, client)).search("hello", 3)

        assert run(go())[0].retriever == "echo"
    finally:
        monkeypatch.undo()
        registry.refresh()


def test_searxng_needs_a_url(make_client: ClientFactory, settings: Settings) -> None:
    async def go() -> None:
        async with make_client() as client:
            create("searxng", RetrieverDeps(settings.model_copy(update={"searxng_url": None}), client))

    with pytest.raises(ConfigError, match="SEARXNG_URL"):
        run(go())


def test_router() -> None:
    assert route(["web"], searxng_url="http://searx.local") == ["searxng"]
    assert route(["web"]) == ["wikipedia"]
    assert route(["academic", "web", "academic", "internal"]) == [
        "arxiv",
        "semantic_scholar",
        "openalex",
        "wikipedia",
        "local",
    ]
    with pytest.raises(InputError):
        route(["tv"])


def test_candidates_round_trip_through_json() -> None:
    c = Candidate(title="t", url="u", kind="academic", retriever="r", extra={"citations": 3, "doi": None})
    assert Candidate.model_validate_json(c.model_dump_json()) == c
