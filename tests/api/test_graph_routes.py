"""The graph routes under a real uvicorn over real FalkorDB (and once over each backend), called with httpx."""

from __future__ import annotations

import pytest
from api_support import SEED, Server, serve

from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration
PROBLEM = "application/problem+json"


def test_health_ready_and_docs(api: Server) -> None:
    with api.client() as c:
        assert c.get("/healthz").json() == {"status": "ok"}
        assert c.get("/readyz").json() == {"status": "ready", "graph": "falkordb"}
        page = c.get("/docs").text
        assert "swagger" in page.lower() and "/docs/assets/swagger-ui-bundle.js" in page and "cdn" not in page
        js = c.get("/docs/assets/swagger-ui-bundle.js")
        assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript") and \
            len(js.content) > 100_000
        assert c.get("/docs/assets/swagger-ui.css").status_code == 200
        assert c.get("/docs/assets/..%2Fapp.py").status_code == 404 and c.get("/docs/assets/LICENSE").status_code == 404
        paths = c.get("/openapi.json").json()["paths"]
    assert "/docs" not in paths and "/docs/assets/{name}" not in paths
    for p in ("/evidence", "/evidence/{evidence_id}", "/entities", "/entities/{entity_id}", "/compare",
              "/conflicts", "/conflicts/{conflict_id}/resolution", "/feedback", "/graph/stats"):
        assert p in paths, p


def test_evidence_provenance_and_lists(api: Server) -> None:
    with api.client() as c:
        page = c.get("/evidence", params={"limit": 100}).json()
        assert len(page["items"]) == len(SEED) and page["next_cursor"] is None
        first = page["items"][0]
        prov = c.get(f"/evidence/{first['id']}").json()
        assert prov["evidence"]["quote"] == first["quote"] and prov["evidence"]["source"]["url"]
        assert {"runs", "extracted_at", "feedback"} <= set(prov)
        kafka = c.get("/evidence", params={"entity": "Kafka"}).json()["items"]
        assert {e["quote"] for e in kafka} == {r.quote for r in SEED[:2]}
        hits = c.get("/evidence", params={"q": "latency"}).json()["items"]
        assert hits and all("latency" in h["quote"] for h in hits)
        both = c.get("/evidence", params={"q": "brokers", "entity": "RabbitMQ"}).json()["items"]
        assert [h["quote"] for h in both] == [SEED[2].quote]
        assert c.get("/evidence", params={"entity": "NoSuchThing"}).json() == {"items": [], "next_cursor": None}


def test_every_list_pages_with_a_cursor_and_misses_nothing(api: Server) -> None:
    with api.client() as c:
        for path, params in (("/evidence", {}), ("/entities", {}), ("/evidence", {"q": "brokers OR latency"}),
                             ("/conflicts", {})):
            seen: list[str] = []
            cursor = None
            for _ in range(20):
                page = c.get(path, params={**params, "limit": 1, **({"cursor": cursor} if cursor else {})}).json()
                seen += [i["id"] for i in page["items"]]
                cursor = page["next_cursor"]
                if cursor is None:
                    break
            whole = [i["id"] for i in c.get(path, params={**params, "limit": 500}).json()["items"]]
            assert seen == whole and len(whole) >= 2, path


def test_entities_search_and_detail(api: Server) -> None:
    with api.client() as c:
        found = c.get("/entities", params={"q": "KAFKA"}).json()["items"]
        assert [e["name"] for e in found] == ["Apache Kafka"] and "Kafka" in found[0]["aliases"]
        detail = c.get(f"/entities/{found[0]['id']}").json()
        assert {o["value"] for o in detail["observations"]} == {605.0, 1200.0}
        assert len(detail["sources"]) == 2 and all(s["url"].startswith("https://") for s in detail["sources"])
        assert c.get("/entities/Kafka").json()["id"] == found[0]["id"]  # a name or alias resolves too


def test_compare_has_evidence_behind_every_cell(api: Server) -> None:
    with api.client() as c:
        comp = c.get("/compare", params=[("entity", "Kafka"), ("entity", "RabbitMQ"), ("entity", "Nope"),
                                         ("metric", "throughput")]).json()
    assert comp["entities"] == ["Apache Kafka", "RabbitMQ"] and comp["missing"] == ["Nope"]
    cells = comp["cells"]["throughput"]
    assert cells["Apache Kafka"]["values"] == [605.0, 1200.0] and cells["RabbitMQ"]["values"] == [50.0]
    for cell in cells.values():
        for eid in cell["evidence_ids"]:
            assert comp["evidence"][eid]["quote"] and comp["evidence"][eid]["url"]


def test_conflicts_filters_and_one_by_id(api: Server) -> None:
    with api.client() as c:
        groups = c.get("/conflicts").json()["items"]
        assert {(g["entity"], g["metric"]) for g in groups} == {("Apache Kafka", "throughput"),
                                                                ("RabbitMQ", "p99_latency")}
        assert all(g["status"] == "open" and g["resolution"] is None for g in groups)
        only = c.get("/conflicts", params={"entity": "kafka", "metric": "Throughput"}).json()["items"]
        assert [g["entity"] for g in only] == ["Apache Kafka"]
        again = c.get("/conflicts").json()["items"]
        assert [g["id"] for g in again] == [g["id"] for g in groups]  # ids are stable
        assert c.get(f"/conflicts/{groups[0]['id']}").json()["id"] == groups[0]["id"]
        assert c.get("/conflicts", params={"status": "resolved"}).json()["items"] == []


def test_graph_stats(api: Server) -> None:
    with api.client() as c:
        s = c.get("/graph/stats").json()
    assert s["nodes"]["Evidence"] == len(SEED) and s["relations"]["FROM"] == len(SEED)


def test_graph_routes_on_each_backend(any_store: GraphStore) -> None:
    """The same routes once over FalkorDB and once over Neo4j."""
    with serve(any_store) as server, server.client() as c:
        assert c.get("/readyz").json()["graph"] == any_store.backend.dialect
        items = c.get("/evidence", params={"limit": 2}).json()
        assert len(items["items"]) == 2 and items["next_cursor"]
        rest = c.get("/evidence", params={"limit": 100, "cursor": items["next_cursor"]}).json()["items"]
        assert len(rest) == len(SEED) - 2
        eid = items["items"][0]["id"]
        assert c.get(f"/evidence/{eid}").json()["evidence"]["id"] == eid
        assert c.get("/evidence", params={"q": "latency"}).json()["items"]
        ent = c.get("/entities", params={"q": "rabbit"}).json()["items"]
        assert [e["name"] for e in ent] == ["RabbitMQ"]
        assert len(c.get(f"/entities/{ent[0]['id']}").json()["observations"]) == 3
        comp = c.get("/compare", params=[("entity", "Kafka"), ("entity", "RabbitMQ")]).json()
        assert comp["cells"]["throughput"]["Apache Kafka"]["values"] == [605.0, 1200.0]
        groups = c.get("/conflicts").json()["items"]
        assert len(groups) == 2
        res = c.post(f"/conflicts/{groups[0]['id']}/resolution", json={"decision": "both_hold", "note": "n"})
        assert res.status_code == 201
        assert c.get("/conflicts", params={"status": "resolved"}).json()["items"][0]["id"] == groups[0]["id"]
        fb = c.post("/feedback", json={"target": "evidence", "target_id": eid, "verdict": "dispute"})
        assert fb.status_code == 201 and fb.json()["source_trust"] < 0.5
        assert c.get("/graph/stats").json()["nodes"]["Feedback"] == 1
