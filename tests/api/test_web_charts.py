"""The web page shows what the files show (over real HTTP, real FalkorDB): a finished run's report view has the
answer's comparison table and the conflicts table with their charts; /ui/compare prints each figure as written
with its condition and draws it; /ui/topics lists watched topics with their latest digest and the values and
conflicts as of a date, a monitored value over time as a line; the run form passes style and budget on."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from api_support import Server, serve
from charts_support import save_sample_report
from records_support import offline_run_server, rec

from openresearch.api.web import run_body
from openresearch.graph.monitor_store import MonitorStore
from openresearch.graph.store import GraphStore
from openresearch.monitor.models import Digest, Sentence, Topic

pytestmark = pytest.mark.integration



@pytest.fixture
def run_api(falkor_store: GraphStore, tmp_path: Path) -> Iterator[Server]:
    """The API with its run routes (an offline run manager that runs nothing here)."""
    with offline_run_server(serve, falkor_store, tmp_path) as server:
        yield server


def test_the_report_view_has_the_answer_and_conflicts_tables_and_their_charts(falkor_store: GraphStore,
                                                                               run_api: Server) -> None:
    run_id = save_sample_report(falkor_store)
    with httpx.Client(base_url=run_api.url, timeout=30) as c:
        page = c.get(f"/ui/runs/{run_id}")
        assert page.status_code == 200, page.text[:300]
        html = page.text
        answer = html.split('id="answer-table"', 1)[1].split("</table>", 1)[0]
        assert "Zorkq" in answer and "605 MB/s (3 brokers)" in answer and "1.2 GB/s" in answer
        assert '<a class="cite" href="/ui/evidence/E-a00001"' in answer
        assert ">2019 " in answer or "2019 [" in answer or "2019 <" in answer  # as written
        conflicts = html.split('id="conflicts-table"', 1)[1].split("</table>", 1)[0]
        assert "Zorkq" in conflicts and "605 MB/s" in conflicts and "1.2 GB/s" in conflicts
        charts = html.split('id="answer-charts"', 1)[1].split("</section>", 1)[0]
        assert charts.count('role="img"') == 2 and 'class="chart-data"' in charts
        assert 'id="conflict-charts"' in html and "values per source" in html
        assert "2019.0" not in html and "(; " not in html
        # the same tables as report.md
        md = c.get(f"/runs/{run_id}/report.md").text
        assert "| throughput |" in md and "## Conflicts between sources" in md


def test_the_compare_page_prints_figures_as_written_and_draws_them(falkor_store: GraphStore, api: Server) -> None:
    falkor_store.write_evidence([
        rec("https://w.example/zorkq-1", "Zorkq was first released in 2019.", "Zorkq", "released", "2019", "year"),
        rec("https://w.example/blarnmq-1", "Blarnmq was first released in 2016.", "Blarnmq", "released", "2016",
            "year"),
        rec("https://w.example/zorkq-2", "Zorkq reached 605 MB/s with three brokers.", "Zorkq", "throughput", 605,
            "MB/s", "3 brokers"),
        rec("https://w.example/zorkq-3", "Zorkq reached 1.2 GB/s with three brokers.", "Zorkq", "throughput", "1.2",
            "GB/s", "3 brokers"),
        rec("https://w.example/blarnmq-2", "Blarnmq moved 5 MB/s.", "Blarnmq", "throughput", 5, "MB/s"),
    ])
    with httpx.Client(base_url=api.url, timeout=30) as c:
        html = c.get("/ui/compare", params=[("entity", "Zorkq"), ("entity", "Blarnmq")]).text
    table = html.split('id="compare-table"', 1)[1].split("</table>", 1)[0]
    assert "2019" in table and "2019.0" not in table and "year" not in table.split("</thead>", 1)[1]
    assert "(3 brokers)" in table and "(;" not in table and "()" not in table
    assert table.count('class="figure"') == 5  # each figure on its own line, none merged into a range
    charts = html.split('id="compare-charts"', 1)[1]
    assert charts.count('role="img"') == 2  # throughput (MB/s) and the release year: never one axis
    assert "logarithmic scale" in charts  # 5 to 1200 MB/s spans more than two decades
    with httpx.Client(base_url=api.url, timeout=30) as c:
        page = c.get("/ui/conflicts", params={"entity": "Zorkq"}).text
    group = page.split('class="conflict ', 1)[1].split("</article>", 1)[0]
    assert "values per source" in group and group.count("<circle") == 2  # 605 MB/s and 1.2 GB/s, per source


def test_the_topics_page_lists_topics_with_their_latest_digest_and_values_as_of_a_date(
        falkor_store: GraphStore, api: Server) -> None:
    ms = MonitorStore(falkor_store)
    now = int(time.time() * 1000)
    ms.save_topic(Topic(id="T-zorkq", question="Zorkq throughput news", schedule="1d", created_at=now,
                        next_due=now + 86_400_000, last_run_at=now, runs=1), now)
    ms.save_digest(Digest(id="D-1", topic_id="T-zorkq", run_id="run-t1", question="Zorkq throughput news", at=now,
                          nothing_changed=False,
                          sentences=[Sentence(text="Zorkq throughput is now 700 MB/s [E-zork3].",
                                              evidence_ids=["E-zork3"])]), "# digest")
    falkor_store.write_evidence([
        rec(f"https://w.example/zorkq-t{i}", f"Zorkq reached {v} MB/s.", "Zorkq", "throughput", v, "MB/s",
            published=day)
        for i, (v, day) in enumerate([(605, "2026-01-01"), (650, "2026-02-01"), (700, "2026-03-01")])])
    with httpx.Client(base_url=api.url, timeout=30) as c:
        html = c.get("/ui/topics").text
        assert 'id="topic-T-zorkq"' in html and "Zorkq throughput news" in html
        digest = html.split('class="digest"', 1)[1].split("</div>", 1)[0]
        assert '<a class="cite" href="/ui/evidence/E-zork3" data-evidence="E-zork3">E-zork3</a>' in digest
        assert "every 1d" in html and "next due <span class=\"date\">" in html
        line = html.split('id="topic-charts"', 1)[1].split('id="values-table"', 1)[0]
        assert "chart-line" in line and "Zorkq · throughput over time" in line
        table = html.split('id="values-table"', 1)[1].split("</table>", 1)[0]
        assert "700 MB/s" in table and "2026-03-01" in table  # published dates shown
        early = c.get("/ui/topics", params={"as_of": "2026-01-15", "entity": "Zorkq"}).text
        assert "as of 2026-01-15" in early
        values = early.split('id="values-table"', 1)[1].split("</table>", 1)[0]
        assert "605 MB/s" in values and "700 MB/s" not in values  # published later than the date asked about


def test_the_run_form_passes_style_and_budget() -> None:
    assert run_body("q", "local:/x", True, "brief", "12") == {
        "question": "q", "sources": ["local:/x"], "offline": True, "style": "brief", "budget": 12}
    assert run_body("q") == {"question": "q"}
    assert run_body("q", budget="lots")["budget"] == "lots"  # the API answers 422, shown on the page


def test_the_run_form_takes_style_and_budget_and_the_runs_list_shows_dates(falkor_store: GraphStore,
                                                                             run_api: Server) -> None:
    save_sample_report(falkor_store)
    with httpx.Client(base_url=run_api.url, timeout=30) as c:
        form = c.get("/").text
        assert 'name="style"' in form and 'name="budget"' in form
        runs = form.split('class="runs"', 1)[1].split("</table>", 1)[0]
        assert ">Started<" in runs and 'class="date"' in runs
        token = form.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
        r = c.post("/ui/runs", data={"csrf_token": token, "question": "Zorkq?", "budget": "99"})
    assert r.status_code == 422 and "budget" in r.text, r.text[:300]  # the API's refusal, on the page
