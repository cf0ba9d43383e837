"""Without Chromium: the Neo4j Browser assets (saved queries, guide, style, conf block) and the web page's
pure helpers; every saved query runs on both real backends and finds the seeded graph."""

from __future__ import annotations

from html import escape as html_escape
from pathlib import Path

import pytest

from openresearch.api.web import link_citations, resolution_body
from openresearch.graph import neo4j_browser
from openresearch.graph.backend import GraphBackend
from openresearch.graph.store import GraphStore

from .browser_support import seed


def test_every_saved_query_loads_with_a_title_and_matching_params() -> None:
    queries = neo4j_browser.load_queries()
    assert [q.name for q in queries] == sorted(p.name for p in (neo4j_browser.ASSETS / "queries").glob("*.cypher"))
    assert len(queries) == 6
    for q in queries:
        assert q.title and q.purpose and not q.text.startswith("//")
        assert set(q.params) <= set(neo4j_browser.EXAMPLES) | set(neo4j_browser.guide_params())


def test_a_query_whose_header_and_params_disagree_is_refused() -> None:
    with pytest.raises(ValueError, match="uses"):
        neo4j_browser.parse_query("x.cypher", "// title: t\n// params: a\nMATCH (n {id: $b}) RETURN n")
    with pytest.raises(ValueError, match="title"):
        neo4j_browser.parse_query("x.cypher", "// params:\nMATCH (n) RETURN n")


def test_the_guide_has_a_slide_per_saved_query_with_runnable_param_and_query_blocks() -> None:
    queries = neo4j_browser.load_queries()
    html = neo4j_browser.render_guide(queries, "http://127.0.0.1:7474/browser/openresearch/style.grass")
    assert html.count("<slide") == len(queries) + 1
    assert ':style http://127.0.0.1:7474/browser/openresearch/style.grass</pre>' in html
    assert ":param entity =&gt; &#x27;Apache Kafka&#x27;" in html
    for q in queries:
        assert f'data-query="{q.name}"' in html
        assert html_escape(q.text) in html  # the query exactly, as HTML text


def test_the_style_captions_by_name_title_or_quote_and_colours_every_label() -> None:
    grass = (neo4j_browser.ASSETS / "style.grass").read_text(encoding="utf-8")
    for label, caption in [("Entity", "{name}"), ("Source", "{title}"), ("Evidence", "{quote}"),
                           ("Run", "{question}"), ("Question", "{text}"), ("Section", "{title}")]:
        block = grass.split(f"node.{label} {{", 1)[1].split("\n}", 1)[0]
        assert f"caption: '{caption}'" in block and "color: #" in block
    colours = [ln.split(":")[1].strip() for ln in grass.splitlines() if ln.strip().startswith("color:")]
    assert len(set(colours[2:])) == len(colours[2:])  # one colour per label (after node and relationship)


def test_conf_block_is_rewritten_and_leaves_the_users_lines_and_overrides(tmp_path: Path) -> None:
    conf = tmp_path / "conf" / "neo4j-extra.conf"
    conf.parent.mkdir()
    conf.write_text("dbms.memory.transaction.total.max=1g\nbrowser.post_connect_cmd=play movies\n")
    for port in (7474, 7475):  # twice: the block is replaced, not appended again
        neo4j_browser.write_conf(tmp_path, f"http://127.0.0.1:{port}")
    lines = conf.read_text().splitlines()
    assert lines.count(neo4j_browser.BLOCK_BEGIN) == 1
    assert "browser.remote_content_hostname_whitelist=guides.neo4j.com,localhost,127.0.0.1" in lines
    assert [ln for ln in lines if ln.startswith("browser.post_connect_cmd")] == ["browser.post_connect_cmd=play movies"]
    assert "dbms.memory.transaction.total.max=1g" in lines


def test_citations_become_links_and_text_is_escaped() -> None:
    out = str(link_citations("<b>605 MB/s</b> [E-1a2b] and [E-3c4d, E-5e6f]; [not-a-cite]"))
    assert out.startswith("&lt;b&gt;605 MB/s&lt;/b&gt; [")
    assert out.count('class="cite"') == 3
    assert 'href="/ui/evidence/E-5e6f" data-evidence="E-5e6f"' in out
    assert out.endswith("; [not-a-cite]")


def test_resolve_buttons_map_to_the_api_body() -> None:
    assert resolution_body("value_correct|605.0", "n", "") == {"decision": "value_correct", "value": 605.0,
                                                              "note": "n", "author": "web"}
    assert resolution_body("both_hold") == {"decision": "both_hold", "note": "", "author": "web"}
    assert resolution_body("value_correct|abc")["value"] == "abc"  # left for the API's 422


@pytest.mark.integration
def test_every_saved_query_runs_and_finds_the_seeded_graph(backend: GraphBackend) -> None:
    store = seed(GraphStore(backend))
    ev = store.evidence_page("", 10, None)
    backend.write("MERGE (r:Run {id: 'R-1'}) SET r.question = 'q', r.status = 'done', r.started_at = 1 "
                  "MERGE (q:Question {id: 'Q-1'}) SET q.text = 'Which broker is fastest?' MERGE (r)-[:ASKS]->(q) "
                  "WITH q MATCH (e:Evidence) MERGE (e)-[:ANSWERS]->(q)")
    params = {"runId": "R-1", "entity": "Kafka", "source": "", "evidenceId": ev[0].id,
              **neo4j_browser.guide_params(store.aliases, store.tolerance)}
    counts = {}
    for q in neo4j_browser.load_queries():
        rows = backend.read(q.text, {p: params[p] for p in q.params})
        counts[q.name] = len(rows)
    assert all(n > 0 for n in counts.values()), counts
    disagree = backend.read(next(q.text for q in neo4j_browser.load_queries() if q.name.startswith("05")),
                            {"source": "bench-b", "tolerance": params["tolerance"]})
    assert {(r["value_a"], r["value_b"]) for r in disagree} == {("605", "1.2")}


def test_neo4j_start_prints_a_browser_address_that_skips_the_login_and_the_guide_commands() -> None:
    from openresearch.commands.neo4j_cmd import _browser_links

    links = _browser_links("http://127.0.0.1:7474", "bolt://127.0.0.1:7687")
    assert links["open"] == ("http://127.0.0.1:7474/browser/?dbms=bolt://127.0.0.1:7687"
                             "&preselectAuthMethod=NO_AUTH")
    assert links["guide_command"] == ":guide http://127.0.0.1:7474/browser/openresearch/guide.html"
    assert links["style_command"] == ":style http://127.0.0.1:7474/browser/openresearch/style.grass"


def test_a_report_renders_its_sections_conflicts_and_evidence_with_citation_links() -> None:
    from openresearch.api.web import templates

    ev = {"id": "E-1", "quote": "Kafka reached 605 MB/s.", "source": {"url": "https://a.example", "title": "A"}}
    report = {"title": "T", "verified": False, "method": "deterministic",
              "sections": [{"title": "Throughput", "limited": True,
                            "sentences": [{"text": "Kafka reached 605 MB/s [E-1].", "kind": "claim"}]}],
              "conflicts": [{"entity": "Kafka", "metric": "throughput", "condition": "3 brokers", "values": [
                  {"value": 605.0, "raw_values": ["605 MB/s"], "evidence_ids": ["E-1"]},
                  {"value": 1200.0, "raw_values": ["1.2 GB/s"], "evidence_ids": ["E-2"]}]}],
              "evidence": [ev]}
    html = templates.get_template("report.html").render(report=report, run_id="run-1")
    assert html.count('data-evidence="E-1"') == 3  # the sentence, the conflict value, the evidence list
    assert "605 MB/s" in html and "1.2 GB/s" in html and "evidence limited" in html
    assert 'href="/runs/run-1/report.md"' in html
