"""The Browser guide's conflict queries decide as the API does: on one graph (both real backends), the groups of
"An entity's conflicts" and the pairs of "Where two sources disagree" are those of GET /conflicts (its own
function, `conflicts_out`): values within the tolerance agree, superseded values are history, a generic metric
is no quantity, a resolution shows (stale once the group's values change), and a name resolves through the
alias list in any case."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from records_support import rec

from openresearch.api.routers.conflicts import conflicts_out
from openresearch.api.schemas import ConflictOut
from openresearch.graph import neo4j_browser
from openresearch.graph.backend import GraphBackend
from openresearch.graph.judgements import ValueCorrect
from openresearch.graph.store import GraphStore
from openresearch.identity import AliasResolver

pytestmark = pytest.mark.integration
Q = "How fast are the made-up queues?"


def seed(backend: GraphBackend) -> GraphStore:
    store = GraphStore(backend, aliases=AliasResolver({"Zorbulon Streams": ["Zorbo"]}))
    store.init_schema()
    store.write_evidence([
        # a conflict, written once under the alias
        rec("https://a.example/zs", "Zorbulon Streams sustained 605 MB/s with three brokers.", "Zorbulon Streams",
            "throughput", 605, "MB/s", "3 brokers", Q),
        rec("https://b.example/zs", "Zorbo reached 420 MB/s with three brokers.", "Zorbo", "throughput", 420,
            "MB/s", "3 brokers", Q),
        # within the 5% tolerance: no conflict
        rec("https://c.example/zs", "Zorbulon Streams answered in 10 ms.", "Zorbulon Streams", "latency", 10, "ms"),
        rec("https://d.example/zs", "Zorbulon Streams answered in 10.3 ms.", "Zorbulon Streams", "latency", 10.3,
            "ms"),
        # a generic metric ('size') names no quantity two sources can disagree on
        rec("https://c.example/zs-size", "Zorbulon Streams needs 10 MB.", "Zorbulon Streams", "size", 10, "MB"),
        rec("https://d.example/zs-size", "Zorbulon Streams needs 20 MB.", "Zorbulon Streams", "size", 20, "MB"),
        # 100, 104, 108: two values (100-104 agree), not a chain of agreements
        rec("https://e.example/mq", "Mossgrove Queue moved 100 MB/s.", "Mossgrove Queue", "throughput", 100, "MB/s"),
        rec("https://f.example/mq", "Mossgrove Queue moved 104 MB/s.", "Mossgrove Queue", "throughput", 104, "MB/s"),
        rec("https://g.example/mq", "Mossgrove Queue moved 108 MB/s.", "Mossgrove Queue", "throughput", 108, "MB/s"),
        # a value a newer one superseded is history: no conflict left
        rec("https://h.example/qb", "Quillfeather Bus moved 100 MB/s.", "Quillfeather Bus", "throughput", 100,
            "MB/s"),
        rec("https://i.example/qb", "Quillfeather Bus moved 300 MB/s.", "Quillfeather Bus", "throughput", 300,
            "MB/s"),
    ])
    backend.write("MATCH (o:Observation)-[:OF]->(:Entity {name: 'Quillfeather Bus'}) WHERE o.value < 200 "
                  "SET o.superseded_by = 'O-newer', o.superseded_at = 1", {})
    return store


def api_groups(groups: list[ConflictOut]) -> set[tuple[Any, ...]]:
    assert all(g.kind == "value" for g in groups), [g.kind for g in groups]  # all the guide's kind: comparable
    return {(g.entity, g.metric, g.unit, g.condition, frozenset(frozenset(v.evidence_ids) for v in g.values),
             g.status, g.resolution.decision if g.resolution else None) for g in groups}


def guide_groups(rows: list[dict[str, Any]]) -> set[tuple[Any, ...]]:
    return {(r["entity"], r["metric"], r["unit"], r["condition"],
             frozenset(frozenset(v["evidence"]) for v in r["values"]), r["status"],
             r["resolution"]["decision"] if r["resolution"] else None) for r in rows}


def query(name: str) -> str:
    return next(q.text for q in neo4j_browser.load_queries() if q.name.startswith(name))


def test_guide_conflicts_are_the_apis(backend: GraphBackend) -> None:
    store = seed(backend)
    shared = neo4j_browser.guide_params(store.aliases, store.tolerance)
    entities = ["Zorbulon Streams", "Mossgrove Queue", "Quillfeather Bus"]

    def compare() -> set[tuple[Any, ...]]:
        seen: set[tuple[Any, ...]] = set()
        for name in entities:
            api = api_groups(conflicts_out(store, entity=name))
            for asked in (name, name.lower(), name.upper().replace(" ", "  ")):
                rows = backend.read(query("04"), {"entity": asked, **shared})
                assert guide_groups(rows) == api, (asked, rows)
            seen |= api
        assert seen == api_groups(conflicts_out(store))  # nothing outside these entities
        return seen

    before = compare()
    assert {(g[0], g[1]) for g in before} == {("Zorbulon Streams", "throughput"), ("Mossgrove Queue", "throughput")}
    assert next(g for g in before if g[0] == "Mossgrove Queue")[4] != frozenset()  # 100-104 and 108
    assert all(g[5] == "open" for g in before)
    # the alias, in any case, finds the entity through the alias list, as the API resolves it
    by_alias = backend.read(query("04"), {"entity": "ZORBO", **shared})
    assert guide_groups(by_alias) == api_groups(conflicts_out(store, entity="zorbo")) and by_alias
    assert backend.read(query("03"), {"entity": "zorbo", "aliases": shared["aliases"]})

    # a resolution shows in both
    group = next(g for g in conflicts_out(store) if g.entity == "Zorbulon Streams")
    store.resolve_conflict(group.id, ValueCorrect(decision="value_correct", value=605, author="tester"))
    after = compare()
    assert {(g[0], g[5], g[6]) for g in after} == {("Zorbulon Streams", "resolved", "value_correct"),
                                                   ("Mossgrove Queue", "open", None)}

    # the pairs of sources that disagree are the API's groups, side by side
    source_of = {v.id: v.source.id for v in store.evidence([e for g in conflicts_out(store) for e in g.evidence_ids])}
    want = set()
    for g in conflicts_out(store):
        for i, a in enumerate(g.values):
            for b in g.values[i + 1:]:
                want |= {(g.entity, frozenset((x, y))) for x in a.evidence_ids for y in b.evidence_ids
                         if source_of[x] != source_of[y]}
    pairs = backend.read(query("05"), {"source": "", "tolerance": shared["tolerance"]})
    assert {(r["entity"], frozenset((r["evidence_a"], r["evidence_b"]))) for r in pairs} == want
    assert {r["status"] for r in pairs if r["entity"] == "Zorbulon Streams"} == {"resolved: value_correct"}
    only_b = backend.read(query("05"), {"source": "b.example", "tolerance": shared["tolerance"]})
    assert {(r["value_a"], r["value_b"]) for r in only_b} == {("420", "605")}

    # a third value joins the resolved group: its resolution is stale in both, the group still in view
    store.write_evidence([rec("https://j.example/zs", "Zorbulon Streams did 800 MB/s with three brokers.",
                              "Zorbulon Streams", "throughput", 800, "MB/s", "3 brokers", Q)])
    stale = compare()
    assert {(g[0], g[5], g[6]) for g in stale} == {("Zorbulon Streams", "stale", "value_correct"),
                                                   ("Mossgrove Queue", "open", None)}
    pairs = backend.read(query("05"), {"source": "", "tolerance": shared["tolerance"]})
    assert {r["status"] for r in pairs if r["entity"] == "Zorbulon Streams"} == {"stale: value_correct"}


def test_the_guide_sets_the_shared_parameters_from_the_apis_settings() -> None:
    shared = neo4j_browser.guide_params(AliasResolver({"Zorbulon Streams": ["Zorbo", "ZS-1"]}), 0.1)
    assert shared == {"aliases": [["zorbo", "zorbulonstreams"], ["zs1", "zorbulonstreams"]], "tolerance": 0.1}
    html = neo4j_browser.render_guide(neo4j_browser.load_queries(), "http://x/style.grass", shared)
    assert (":param aliases =&gt; [[&#x27;zorbo&#x27;, &#x27;zorbulonstreams&#x27;], [&#x27;zs1&#x27;, "
            "&#x27;zorbulonstreams&#x27;]]") in html
    assert ":param tolerance =&gt; 0.1" in html
    assert neo4j_browser.cypher_literal({"a`b": "it's \\"}) == "{`a``b`: 'it\\'s \\\\'}"


def test_the_guide_served_by_the_api_carries_its_alias_list_and_tolerance(falkor_socket: str) -> None:
    import uuid

    import httpx

    from openresearch.graph.falkor import FalkorBackend

    from .browser_support import serve

    backend = FalkorBackend(f"guide_{uuid.uuid4().hex[:10]}", unix_socket=falkor_socket)
    store = GraphStore(backend, aliases=AliasResolver({"Zorbulon Streams": ["Zorbo"]}), tolerance=0.2)
    store.init_schema()
    try:
        with serve(store) as api:
            html = httpx.get(f"{api.url}/ui/neo4j/guide.html", timeout=30).text
    finally:
        backend.clear()
        backend.close()
    assert ":param aliases =&gt; [[&#x27;zorbo&#x27;, &#x27;zorbulonstreams&#x27;]]" in html
    assert ":param tolerance =&gt; 0.2" in html


def test_neo4j_start_renders_the_guide_with_the_configured_alias_file_again_when_it_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import zipfile

    jar = tmp_path / "neo4j-browser-0.0.0.jar"
    with zipfile.ZipFile(jar, "w") as zf:
        zf.writestr("browser/index.html", "<html></html>")
    aliases = tmp_path / "aliases.json"
    monkeypatch.setenv("OPENRESEARCH_ALIASES_FILE", str(aliases))
    monkeypatch.setenv("OPENRESEARCH_CONFLICT_TOLERANCE", "0.1")
    home = tmp_path / "home"
    home.mkdir()
    guides = []
    for alias in ("Zorbo", "Zorbie"):
        aliases.write_text(json.dumps({"Zorbulon Streams": [alias]}), encoding="utf-8")
        root = neo4j_browser.prepare(home, str(jar), "http://127.0.0.1:7474")
        assert root is not None
        guides.append((root / "browser" / neo4j_browser.MOUNT / "guide.html").read_text(encoding="utf-8"))
    assert "[&#x27;zorbo&#x27;, &#x27;zorbulonstreams&#x27;]" in guides[0] and ":param tolerance =&gt; 0.1" in guides[0]
    assert "[&#x27;zorbie&#x27;, &#x27;zorbulonstreams&#x27;]" in guides[1] and "zorbo&#x27;" not in guides[1]
