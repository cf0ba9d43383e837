"""`search`, `fetch`, `ingest` and `cache` run as a user runs them: subprocesses against the real local HTTP
server (recorded API responses) and the embedded FalkorDB, with the bundled embedding model offline."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent / "ingest"))  # netserver lives beside the network tests
from netserver import PUBLIC_ANSWER, ROUTES, FaultServer, Handler

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "examples" / "corpus"
ARTICLE = Path(__file__).parent / "fixtures" / "html" / "news_article.html"
SMALL = ("kafka-overview.md", "redis-streams.md", "nats-jetstream.md", "zh-kraft-migration.md")


def _article(h: Handler, query: dict[str, list[str]]) -> None:
    h.send_body(200, ARTICLE.read_bytes(), "text/html; charset=utf-8")


# A real article (the suite's HTML fixture): the server's stock page is too short to keep as text.
ROUTES.setdefault("/article.html", _article)


def run(args: list[str], env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "openresearch.cli", *args], env=env, text=True,
                          capture_output=True, timeout=300, cwd=REPO)
    if check and proc.returncode != 0:
        raise AssertionError(f"{args} exited {proc.returncode}\nstdout:{proc.stdout}\nstderr:{proc.stderr}")
    return proc


def run_json(args: list[str], env: dict[str, str]) -> Any:
    return json.loads(run([*args, "--json"], env).stdout)


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer().start()
    yield srv
    srv.stop()


def make_env(data_dir: Path, base: str, *, trusted: bool = True) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("OPENRESEARCH_")}
    e.update({
        "OPENRESEARCH_DATA_DIR": str(data_dir), "COLUMNS": "200", "HF_HUB_OFFLINE": "1",
        "OPENRESEARCH_SEARXNG_URL": f"{base}/searxng", "OPENRESEARCH_ARXIV_URL": f"{base}/arxiv/api/query",
        "OPENRESEARCH_SEMANTIC_SCHOLAR_URL": f"{base}/s2/graph/v1", "OPENRESEARCH_OPENALEX_URL": f"{base}/openalex",
        "OPENRESEARCH_WIKIPEDIA_URL": f"{base}/wiki/w/api.php",
        "OPENRESEARCH_HOST_INTERVALS": '{"127.0.0.1": 0}',  # arXiv's 3 s gap is for arxiv.org, not this server
    })
    if trusted:
        e["OPENRESEARCH_TRUSTED_HOSTS"] = '["127.0.0.1"]'  # the loopback test server stands in for the web
    return e


@pytest.fixture
def env(tmp_path: Path, server: FaultServer) -> Iterator[dict[str, str]]:
    e = make_env(tmp_path / "data", server.base)
    yield e
    run(["graph", "stop"], e, check=False)


def test_every_command_has_help_with_an_example(env: dict[str, str]) -> None:
    for cmd in (["search"], ["fetch"], ["ingest"], ["cache", "stats"], ["cache", "clear"]):
        out = run([*cmd, "--help"], env).stdout
        assert "Example: openresearch" in out, cmd


def test_repeated_search_makes_no_network_request(env: dict[str, str], server: FaultServer) -> None:
    first = run(["search", "knowledge graph RAG", "-k", "3", "--json"], env)
    found = json.loads(first.stdout)
    assert len(found) == 3 and {c["retriever"] for c in found} == {"searxng"}
    assert "1 network request" in first.stderr
    hits = len(server.hits())
    again = run(["search", "knowledge graph RAG", "-k", "3"], env)
    assert len(server.hits()) == hits, "the repeat went to the network"
    assert "(cached) 0 network requests" in again.stderr
    assert found[0]["title"] in again.stdout and "searxng" in again.stdout


@pytest.mark.parametrize(("flag", "name", "path"), [
    ("arxiv", "arxiv", "/arxiv/api/query"),
    ("s2", "semantic_scholar", "/s2/graph/v1/paper/search"),
    ("openalex", "openalex", "/openalex/works"),
    ("wikipedia", "wikipedia", "/wiki/w/api.php"),
])
def test_each_retriever(env: dict[str, str], server: FaultServer, flag: str, name: str, path: str) -> None:
    found = run_json(["search", "knowledge graph", "--retriever", flag, "-k", "2"], env)
    assert found and len(found) <= 2 and {c["retriever"] for c in found} == {name}
    assert all(c["url"] and c["title"] for c in found)
    assert server.count(path) >= 1


def test_web_search_falls_back_to_wikipedia_without_searxng(env: dict[str, str], server: FaultServer) -> None:
    no_searxng = {k: v for k, v in env.items() if k != "OPENRESEARCH_SEARXNG_URL"}
    found = run_json(["search", "knowledge graph", "-k", "2"], no_searxng)
    assert found and {c["retriever"] for c in found} == {"wikipedia"}
    assert server.count("/searxng/search") == 0


def test_unknown_retriever_is_one_line(env: dict[str, str], server: FaultServer) -> None:
    proc = run(["search", "x", "--retriever", "nope"], env, check=False)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()] and "unknown retriever 'nope'" in proc.stderr
    assert server.hits() == []


def test_fetch_parses_chunks_caches_and_stores(env: dict[str, str], server: FaultServer) -> None:
    url = f"{server.base}/article.html"
    first = run_json(["fetch", url], env)
    assert first["title"] == "Graph databases in production: lessons from three teams"
    assert first["published_at"] == "2024-03-12" and first["kind"] == "html" and first["final_url"] == url
    assert first["chunks"] >= 1 and first["text_chars"] > 500 and first["from_cache"] is False
    assert first["stored"] is None and first["requests"] == 2  # robots.txt and the page
    shown = run(["fetch", url], env)
    assert "Graph databases in production" in shown.stdout and "(cached) 0 network requests" in shown.stderr
    assert server.count("/article.html") == 1
    stored = run_json(["fetch", url, "--store"], env)
    assert stored["stored"] == "added" and stored["from_cache"] is True
    assert run_json(["fetch", url, "--store"], env)["stored"] == "unchanged"
    nodes = run_json(["graph", "stats"], env)["nodes"]
    assert nodes["Source"] == 1 and nodes["Chunk"] == first["chunks"]
    found = run_json(["search", "graph databases in production", "--retriever", "local", "-k", "3"], env)
    assert found[0]["url"] == url and found[0]["retriever"] == "local"


def test_fetch_of_untrusted_loopback_is_refused_before_any_request(tmp_path: Path, server: FaultServer) -> None:
    untrusted = make_env(tmp_path / "data", server.base, trusted=False)
    proc = run(["fetch", f"{server.base}/article.html"], untrusted, check=False)
    assert proc.returncode == 2
    # the page and the rule, not the robots.txt request the politeness check would make first
    assert proc.stderr.strip() == (f"refused: http://127.0.0.1:{server.port}/article.html: host '127.0.0.1' "
                                   f"resolves to 127.0.0.1 (loopback)")
    assert server.hits() == []


def test_redirect_to_cloud_metadata_is_refused_with_the_reason(env: dict[str, str], server: FaultServer) -> None:
    metadata = "http://169.254.169.254/latest/meta-data/iam/security-credentials/"
    proc = run(["fetch", f"{server.base}/redirect?to={metadata}", "--json"], env, check=False)
    assert proc.returncode == 2
    assert json.loads(proc.stdout) == {"url": f"{server.base}/redirect?to={metadata}", "refused": True,
                                       "reason": f"{metadata}: host '169.254.169.254' resolves to "
                                                 "169.254.169.254 (cloud metadata)"}
    assert proc.stderr.strip().splitlines() == [f"refused: {json.loads(proc.stdout)['reason']}"]
    assert [h.path for h in server.hits()] == ["/robots.txt", "/redirect"]  # the metadata hop was never sent


def test_redirect_from_an_untrusted_public_host_is_refused(
    tmp_path: Path, server: FaultServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In process: a public *name* that reaches the test server needs the resolver seam tests/ingest uses."""
    from typer.testing import CliRunner

    from openresearch.cli import app
    from openresearch.config import get_settings
    from openresearch.ingest.http import PoliteClient
    from openresearch.ingest.safety import StaticResolver

    for key, value in make_env(tmp_path / "data", server.base, trusted=False).items():
        if key.startswith("OPENRESEARCH_"):
            monkeypatch.setenv(key, value)
    get_settings.cache_clear()
    original = PoliteClient.from_settings.__func__  # type: ignore[attr-defined]

    def seamed(cls: type[PoliteClient], /, settings: Any, **kwargs: Any) -> PoliteClient:
        kwargs.update(resolver=StaticResolver({"public.test": [PUBLIC_ANSWER]}),
                      connect_to={"public.test:80": f"127.0.0.1:{server.port}"})
        client: PoliteClient = original(cls, settings, **kwargs)
        return client

    monkeypatch.setattr(PoliteClient, "from_settings", classmethod(seamed))
    try:
        result = CliRunner().invoke(app, ["fetch", "http://public.test/redirect?to=http://169.254.169.254/latest/"])
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 2, result.output
    assert "refused: http://169.254.169.254/latest/: host '169.254.169.254' resolves to 169.254.169.254 " \
           "(cloud metadata)" in result.output
    assert [(h.path, h.headers["host"]) for h in server.hits()] == [("/robots.txt", "public.test"),
                                                                     ("/redirect", "public.test")]


def test_ingest_rerun_is_unchanged_and_deleted_files_are_removed(env: dict[str, str], tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in SMALL:
        shutil.copy(CORPUS / name, corpus / name)
    [first] = run_json(["ingest", str(corpus)], env)
    assert (first["added"], first["updated"], first["unchanged"], first["removed"]) == (4, 0, 0, 0)
    assert first["chunks"] > 4 and first["errors"] == []
    [again] = run_json(["ingest", str(corpus)], env)
    assert (again["added"], again["unchanged"], again["chunks"]) == (0, 4, 0)
    (corpus / "redis-streams.md").unlink()
    with (corpus / "kafka-overview.md").open("a", encoding="utf-8") as fh:
        fh.write("\n\nAn added closing paragraph about Kafka.\n")
    [third] = run_json(["ingest", str(corpus)], env)
    assert (third["updated"], third["unchanged"], third["removed"], third["added"]) == (1, 2, 1, 0)
    assert third["chunks"] >= 1
    table = run(["ingest", str(corpus)], env).stdout
    assert str(corpus.resolve()) in table and "unchanged" in table
    nodes = run_json(["graph", "stats"], env)["nodes"]
    # three current sources, plus the kept earlier version of the changed file and the last version of the
    # deleted one (their evidence stays citable; ingest_processing/test_source_versions.py)
    assert nodes["Source"] == 5
    found = run_json(["search", "NATS JetStream", "--retriever", "local", "-k", "2"], env)
    assert found and found[0]["title"] == "NATS and JetStream: Concepts" and found[0]["kind"] == "internal"


def test_ingest_example_corpus_twice(env: dict[str, str]) -> None:
    [first] = run_json(["ingest", "examples/corpus"], env)
    assert first["added"] == 38 and first["errors"] == [] and first["chunks"] > 38
    [again] = run_json(["ingest", "examples/corpus"], env)
    assert (again["unchanged"], again["added"], again["updated"], again["removed"], again["chunks"]) == \
        (38, 0, 0, 0, 0)


def test_cache_stats_and_clear(env: dict[str, str], server: FaultServer) -> None:
    empty = run_json(["cache", "stats"], env)
    assert (empty["responses"], empty["searches"]) == (0, 0)
    run(["search", "knowledge graph", "-k", "2"], env)
    run(["fetch", f"{server.base}/article.html"], env)
    full = run_json(["cache", "stats"], env)
    assert full["searches"] == 1 and full["responses"] == 3  # search page, robots.txt, article
    assert full["bytes"] > 0 and full["oldest"] is not None and "http.sqlite" in full["path"]
    assert "3 responses, 1 searches" in run(["cache", "stats"], env).stdout
    assert run_json(["cache", "clear", "--expired-only"], env)["removed"] == 0
    assert "removed 4 cache entries" in run(["cache", "clear"], env).stdout
    assert (run_json(["cache", "stats"], env)["responses"]) == 0
    before = server.count("/searxng/search")
    run(["search", "knowledge graph", "-k", "2"], env)
    assert server.count("/searxng/search") == before + 1  # cleared: the network again
