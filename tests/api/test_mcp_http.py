"""The MCP tools at /mcp (streamable HTTP) of a real uvicorn, through the SDK's own client: graph tools over
seeded evidence, a research run started by a tool and visible in GET /runs (one run manager), and the API key
guarding /mcp like every other route."""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_support import Server, rec, serve
from mcp import Client

from openresearch.agents.run.components import Components
from openresearch.agents.run.manager import RunManager
from openresearch.agents.run.services import Services
from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder, SentenceTransformerEmbedder

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]
DOCS = ["bench-confluent-2020.html", "rabbitmq-quorum-queues.md"]


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> Embedder:
    return SentenceTransformerEmbedder(cache_dir=tmp_path_factory.mktemp("emb"))


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    d.mkdir()
    for name in DOCS:
        shutil.copy(REPO / "examples" / "corpus" / name, d / name)
    return d


def services_for(store: GraphStore, embedder: Embedder, tmp_path: Path) -> Services:
    settings = Settings(_env_file=None, data_dir=tmp_path / "data")  # type: ignore[call-arg]
    return Services(settings, store, embedder,
                    lambda o: Components.build(settings, embedder, offline=True, caps=o.caps, workers=o.workers))


@pytest.fixture
def mcp_api(falkor_store: GraphStore, embedder: Embedder, corpus: Path, tmp_path: Path) -> Iterator[Server]:
    services = services_for(falkor_store, embedder, tmp_path)
    with serve(falkor_store, runs=RunManager(services, workers=1), services=services,
               api_local_roots=[corpus.parent]) as server:
        yield server


def structured(result: Any) -> Any:
    assert not result.is_error, result.content
    data = result.structured_content
    return data["result"] if isinstance(data, dict) and set(data) == {"result"} else data


def test_mcp_tools_over_streamable_http(mcp_api: Server, corpus: Path) -> None:
    store = mcp_api.store
    store.write_evidence([
        rec("https://a.example/mcp-bench", "Zorbulon sustained 605 MB/s with three brokers.", "Zorbulon",
            "throughput", 605, "MB/s"),
        rec("https://b.example/mcp-bench", "Zorbulon reached 420 MB/s with three brokers.", "Zorbulon",
            "throughput", 420, "MB/s"),
    ])

    async def session() -> str:
        async with Client(f"{mcp_api.url}/mcp", read_timeout_seconds=600) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"start_research", "run_status", "get_report", "search_evidence", "compare_entities",
                    "list_conflicts", "provenance"} <= names
            hits = structured(await client.call_tool("search_evidence", {"query": "Zorbulon brokers"}))
            assert sum("Zorbulon" in h["quote"] for h in hits) == 2, hits
            assert len(structured(await client.call_tool("search_evidence", {"query": "brokers",
                                                                              "entity": "Zorbulon"}))) == 2
            prov = structured(await client.call_tool("provenance", {"evidence_id": hits[0]["id"]}))
            assert prov["evidence"]["quote"] == hits[0]["quote"]
            conflicts = structured(await client.call_tool("list_conflicts", {"entity": "Zorbulon"}))
            assert conflicts and {v["value"] for v in conflicts[0]["values"]} >= {605.0, 420.0}
            cmp = structured(await client.call_tool("compare_entities", {"entities": ["Zorbulon"],
                                                                          "metric": "throughput"}))
            assert cmp["cells"]
            started = structured(await client.call_tool("start_research", {
                "question": "How fast is Kafka?", "sources": [f"local:{corpus}"], "offline": True}))
            run_id = str(started["run_id"])
            deadline = time.time() + 900
            while structured(await client.call_tool("run_status", {"run_id": run_id}))["status"] != "done":
                assert time.time() < deadline
                await asyncio.sleep(1)
            report = structured(await client.call_tool("get_report", {"run_id": run_id}))
            assert report["content"].startswith("# ")
            return run_id

    run_id = asyncio.run(session())
    with mcp_api.client() as c:  # the run an MCP client started is one of the API's runs
        assert run_id in [r["id"] for r in c.get("/runs").json()["items"]]


def test_mcp_requires_the_api_key_when_one_is_set(falkor_store: GraphStore, embedder: Embedder,
                                                   tmp_path: Path) -> None:
    services = services_for(falkor_store, embedder, tmp_path)
    with serve(falkor_store, runs=RunManager(services, workers=1), services=services, api_key="s3cret") as server:
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
        hdrs = {"Accept": "application/json, text/event-stream"}
        r = httpx.post(f"{server.url}/mcp", json=init, headers=hdrs)
        assert r.status_code == 401 and r.headers["content-type"].startswith("application/problem+json")
        r = httpx.post(f"{server.url}/mcp", json=init, headers={**hdrs, "Authorization": "Bearer wrong"})
        assert r.status_code == 401
        r = httpx.post(f"{server.url}/mcp", json=init, headers={**hdrs, "Authorization": "Bearer s3cret"})
        assert r.status_code == 200, r.text


# --- MCP as a first-class client: schemas, the API's validation and aliases, judgements, cancel and events ---

NEW_TOOLS = {"resolve_conflict", "give_feedback", "cancel_run", "run_events"}


def tool_error(result: Any) -> str:
    """The one line a refused call answers with."""
    assert result.is_error, result.structured_content
    text = " ".join(getattr(b, "text", "") for b in result.content)
    assert "\n" not in text and "Traceback" not in text and "validation error for" not in text, text
    return text


@pytest.fixture
def alias_api(falkor_socket: str, tmp_path: Path) -> Iterator[Server]:
    """An API with an offline run manager over a graph whose alias list maps 'Zorbo' to 'Zorbulon Streams'."""
    import uuid

    from records_support import offline_runs

    from openresearch.graph.falkor import FalkorBackend
    from openresearch.identity import AliasResolver

    backend = FalkorBackend(f"mcp_{uuid.uuid4().hex[:10]}", unix_socket=falkor_socket)
    store = GraphStore(backend, aliases=AliasResolver({"Zorbulon Streams": ["Zorbo"]}))
    store.init_schema()
    store.write_evidence([
        rec("https://a.example/zs-bench", "Zorbulon Streams sustained 605 MB/s with three brokers.",
            "Zorbulon Streams", "throughput", 605, "MB/s", "3 brokers", None, "2024-03-01"),
        rec("https://b.example/zs-bench", "Zorbo reached 420 MB/s with three brokers.", "Zorbo", "throughput",
            420, "MB/s", "3 brokers", None, "2024-04-01"),
    ])
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(REPO / "examples" / "corpus" / DOCS[1], docs / DOCS[1])
    runs, services = offline_runs(store, tmp_path)
    try:
        with serve(store, runs=runs, services=services, data_dir=tmp_path / "data", api_local_roots=[tmp_path],
                   api_monitor=False) as server:
            yield server
    finally:
        backend.clear()
        backend.close()


def test_mcp_tool_schemas_are_typed_described_and_bounded(alias_api: Server) -> None:
    async def session() -> tuple[dict[str, Any], dict[str, Any]]:
        async with Client(f"{alias_api.url}/mcp", read_timeout_seconds=120) as client:
            listed = (await client.list_tools()).tools
            return {t.name: t.input_schema for t in listed}, {t.name: t.annotations for t in listed}

    tools, notes = asyncio.run(session())
    assert set(tools) >= NEW_TOOLS
    # what a client may assume: reads change nothing, cancel stops work
    assert all(notes[n].read_only_hint for n in ("run_status", "run_events", "get_report", "search_evidence",
                                                 "compare_entities", "list_conflicts", "provenance"))
    assert not notes["resolve_conflict"].read_only_hint and notes["cancel_run"].destructive_hint

    def prop(tool: str, name: str) -> dict[str, Any]:
        p: dict[str, Any] = tools[tool]["properties"][name]
        return next((a for a in p.get("anyOf", []) if a.get("type") != "null"), p) | \
            {k: v for k, v in p.items() if k != "anyOf"}

    for tool, schema in tools.items():  # every parameter says what it is
        for name in schema["properties"]:
            assert prop(tool, name).get("description"), (tool, name)
    assert prop("list_conflicts", "as_of")["format"] == "date"
    assert prop("compare_entities", "as_of")["format"] == "date"
    assert prop("list_conflicts", "status")["enum"] == ["open", "resolved", "stale", "all"]
    assert prop("resolve_conflict", "decision")["enum"] == ["value_correct", "both_hold", "not_conflict"]
    assert prop("give_feedback", "verdict")["enum"] == ["accept", "dispute"]
    assert prop("give_feedback", "target")["enum"] == ["evidence", "source"]
    assert prop("start_research", "style")["enum"] == ["brief", "report", "review"]
    assert prop("list_conflicts", "limit")["maximum"] == 500 and prop("search_evidence", "limit")["maximum"] == 100
    assert prop("run_events", "limit")["maximum"] == 500 and prop("run_events", "wait_s")["maximum"] == 30
    assert prop("compare_entities", "entities")["maxItems"] == 20
    # the same bounds as the API's own request models
    from openresearch.api.schemas import RunRequest
    from openresearch.graph.judgements import FeedbackIn

    api_fb = FeedbackIn.model_json_schema()["properties"]
    for name in ("target_id", "note", "author"):
        assert prop("give_feedback", name).get("maxLength") == api_fb[name]["maxLength"], name
    api_run = RunRequest.model_json_schema()["properties"]
    assert prop("start_research", "question")["maxLength"] == api_run["question"]["maxLength"]
    assert (prop("start_research", "budget")["minimum"], prop("start_research", "budget")["maximum"]) == \
        (api_run["budget"]["minimum"], api_run["budget"]["maximum"])


def test_mcp_resolves_aliases_refuses_bad_values_and_records_judgements(alias_api: Server) -> None:
    async def session() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with Client(f"{alias_api.url}/mcp", read_timeout_seconds=120) as client:
            call = client.call_tool
            # aliases and case resolve as the API resolves them
            out["by_alias"] = structured(await call("search_evidence", {"query": "brokers", "entity": "zorbo"}))
            out["by_name"] = structured(await call("search_evidence", {"query": "brokers",
                                                                       "entity": "ZORBULON STREAMS"}))
            out["entity_only"] = structured(await call("search_evidence", {"entity": "Zorbo"}))
            out["conflicts"] = structured(await call("list_conflicts", {"entity": "zorbo"}))
            out["compare"] = structured(await call("compare_entities", {"entities": ["zorbo"],
                                                                         "as_of": "2030-01-01"}))
            # bad values: one line naming what is wrong, nothing stored
            out["errors"] = {
                "as_of": tool_error(await call("list_conflicts", {"as_of": "yesterday"})),
                "limit": tool_error(await call("list_conflicts", {"limit": 100000})),
                "status": tool_error(await call("list_conflicts", {"status": "closed"})),
                "entities": tool_error(await call("compare_entities", {"entities": []})),
                "empty search": tool_error(await call("search_evidence", {"query": "  "})),
                "decision": tool_error(await call("resolve_conflict", {"conflict_id": "C-x", "decision": "maybe"})),
                "unknown conflict": tool_error(await call("resolve_conflict", {"conflict_id": "C-000000000000",
                                                                               "decision": "both_hold"})),
                "unknown evidence": tool_error(await call("give_feedback", {
                    "target": "evidence", "target_id": "E-000000000000", "verdict": "dispute"})),
                "nul": tool_error(await call("give_feedback", {"target": "evidence", "target_id": "E-1",
                                                               "verdict": "accept", "note": "a\x00b"})),
                "unknown run": tool_error(await call("run_events", {"run_id": "run-nope"})),
                "budget": tool_error(await call("start_research", {"question": "q?", "budget": 1000})),
            }
            group = out["conflicts"][0]
            out["wrong value"] = tool_error(await call("resolve_conflict", {
                "conflict_id": group["id"], "decision": "value_correct", "value": 123}))
            out["value on both_hold"] = tool_error(await call("resolve_conflict", {
                "conflict_id": group["id"], "decision": "both_hold", "value": 605}))
            out["no value"] = tool_error(await call("resolve_conflict", {
                "conflict_id": group["id"], "decision": "value_correct"}))
            out["resolution"] = structured(await call("resolve_conflict", {
                "conflict_id": group["id"], "decision": "value_correct", "value": 605, "note": "own benchmark",
                "author": "tester"}))
            out["resolved"] = structured(await call("list_conflicts", {"status": "resolved"}))
            out["open"] = structured(await call("list_conflicts", {"status": "open"}))
            eid = out["by_alias"][0]["id"]
            out["feedback"] = structured(await call("give_feedback", {
                "target": "evidence", "target_id": eid, "verdict": "dispute", "note": "quote out of context",
                "author": "tester"}))
            out["provenance"] = structured(await call("provenance", {"evidence_id": eid}))
        return out

    out = asyncio.run(session())
    with alias_api.client() as c:
        api_hits = c.get("/evidence", params={"q": "brokers", "entity": "zorbo"}).json()["items"]
        api_upper = c.get("/evidence", params={"q": "brokers", "entity": "ZORBULON STREAMS"}).json()["items"]
        api_groups = c.get("/conflicts", params={"entity": "Zorbo"}).json()["items"]
        resolved = c.get("/conflicts", params={"status": "resolved"}).json()["items"]
        feedback = c.get("/feedback", params={"target_id": out["feedback"]["target_id"]}).json()["items"]
    # aliases: the alias, the name in another case and the API find the same two items
    assert len(out["by_alias"]) == 2 and {h["id"] for h in out["by_alias"]} == {h["id"] for h in api_hits}
    assert {h["id"] for h in out["by_name"]} == {h["id"] for h in out["entity_only"]} == {h["id"] for h in api_hits} \
        == {h["id"] for h in api_upper}
    assert [g["id"] for g in out["conflicts"]] == [g["id"] for g in api_groups] and len(api_groups) == 1
    assert {v["value"] for v in out["conflicts"][0]["values"]} == {605.0, 420.0}
    assert out["conflicts"][0]["status"] == "open" and out["conflicts"][0]["resolution"] is None
    assert out["compare"]["entities"] == ["Zorbulon Streams"] and out["compare"]["evidence"]
    errors = out["errors"]
    for name, needle in {"as_of": "as_of", "limit": "limit", "status": "status", "entities": "entities",
                         "empty search": "query", "decision": "decision", "unknown conflict": "no conflict",
                         "unknown evidence": "no evidence", "nul": "NUL", "unknown run": "no run",
                         "budget": "budget"}.items():
        assert needle in errors[name], (name, errors[name])
    assert "is not one of the values" in out["wrong value"] and "value_correct only" in out["value on both_hold"]
    assert "needs `value`" in out["no value"]
    # the resolution given through MCP is the API's at once
    assert out["resolution"]["decision"] == "value_correct" and out["resolution"]["value"] == 605.0
    assert [g["id"] for g in resolved] == [out["conflicts"][0]["id"]]
    assert resolved[0]["resolution"]["author"] == "tester" and resolved[0]["status"] == "resolved"
    assert [g["id"] for g in out["resolved"]] == [g["id"] for g in resolved] and out["open"] == []
    # feedback stored: the API lists it, the source's trust fell, provenance shows it
    assert [f["id"] for f in feedback] == [out["feedback"]["id"]] and feedback[0]["verdict"] == "dispute"
    assert out["feedback"]["source_trust"] < 0.5 + 1e-9
    assert [f["id"] for f in out["provenance"]["feedback"]] == [out["feedback"]["id"]]


def test_mcp_cancels_a_run_and_reads_its_events(alias_api: Server, tmp_path: Path) -> None:
    docs = tmp_path / "docs"

    async def session() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with Client(f"{alias_api.url}/mcp", read_timeout_seconds=300) as client:
            call = client.call_tool
            ask = {"question": "How fast is the queue under load?", "sources": [f"local:{docs}"], "offline": True}
            first = structured(await call("start_research", ask))["run_id"]
            second = structured(await call("start_research", ask))["run_id"]
            # one worker: the second waits while the first runs (or, if the first is already done, it stops)
            out["cancelled"] = structured(await call("cancel_run", {"run_id": second}))
            events: list[dict[str, Any]] = []
            after, finished = 0, False

            async def read_on() -> None:  # each call waits up to 5 s for what comes next
                nonlocal after, finished
                page = structured(await call("run_events", {"run_id": first, "after": after, "wait_s": 5}))
                events.extend(page["events"])
                after, finished = page["next_after"], page["finished"]

            for _ in range(100):  # the live stream of the running run: at least its first event
                await read_on()
                if events:
                    break
            out["unknown"] = tool_error(await call("cancel_run", {"run_id": "run-nope"}))
            out["first_cancelled"] = not (await call("cancel_run", {"run_id": first})).is_error
            for _ in range(200):  # then on to its final event; the count bounds the loop
                if finished:
                    break
                await read_on()
            out["first_events"], out["finished"] = events, finished
            for _ in range(100):  # the second's final event (a moment after cancel_run, had it started)
                out["second_events"] = structured(await call("run_events", {"run_id": second, "wait_s": 5}))
                if out["second_events"]["finished"]:
                    break
            out["again"] = tool_error(await call("cancel_run", {"run_id": second}))
            out["replay"] = structured(await call("run_events", {"run_id": first, "after": 0, "limit": 2}))
            out["status"] = structured(await call("run_status", {"run_id": first}))
        return out

    out = asyncio.run(session())
    # queued: cancelled at once; already running: stopping (its final event follows)
    assert out["cancelled"]["status"] in ("cancelled", "running"), out["cancelled"]
    assert "only a queued or running run can be cancelled" in out["again"] and "no run" in out["unknown"]
    second = out["second_events"]
    assert second["finished"] and second["events"][-1]["event"]["type"] == "failed"
    assert second["events"][-1]["event"]["status"] == "cancelled"
    events = out["first_events"]
    assert out["finished"] and [e["seq"] for e in events] == list(range(1, len(events) + 1))
    final = "cancelled" if out["first_cancelled"] else "done"  # it could only have finished first
    assert events[-1]["event"].get("status", "done") == final and out["status"]["status"] == final
    assert out["status"]["last_event"] >= events[-1]["seq"]
    assert [e["seq"] for e in out["replay"]["events"]] == [1, 2] and out["replay"]["next_after"] == 2
    with alias_api.client() as c:  # the API sees the same runs and the same final events
        runs = {r["id"]: r["status"] for r in c.get("/runs").json()["items"]}
        assert runs[out["cancelled"]["run_id"]] == "cancelled" and runs[out["status"]["run_id"]] == final
