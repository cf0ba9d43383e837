"""Charts in a real headless Chromium: a finished run's report view draws the answer's figures per entity and a
conflict's values per source (every figure a visible point, the axis labelled), the topics page draws a monitored
value over time as a line; screenshots are kept in var/test-artifacts/browser/ (chart-*.png)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from openresearch.graph.store import GraphStore

from .browser_support import REPO, Server, serve

sys.path.insert(0, str(REPO / "tests"))
from charts_support import save_sample_report
from records_support import offline_runs, rec

pytestmark = pytest.mark.integration
WAIT_S = 30  # an upper bound for a page on a loaded machine, never a measured figure


@pytest.fixture
def chart_web(falkor_store: GraphStore, tmp_path: Path) -> Iterator[Server]:
    runs, services = offline_runs(falkor_store, tmp_path)
    with serve(falkor_store, runs=runs, services=services, data_dir=tmp_path / "data", api_monitor=False) as server:
        yield server



def _wait(driver: Any, cond: Callable[[Any], Any]) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_S, poll_frequency=0.1).until(cond)


def _drawn(driver: Any, selector: str) -> dict[str, Any]:
    """What Chromium laid out for the charts under `selector`: sizes, visible points, axis texts."""
    result: dict[str, Any] = driver.execute_script("""
        const svgs = [...document.querySelectorAll(arguments[0] + ' svg.chart')];
        return svgs.map(s => {
          const r = s.getBoundingClientRect();
          return {width: r.width, height: r.height, label: s.getAttribute('aria-labelledby'),
                  title: s.querySelector('title').textContent,
                  points: [...s.querySelectorAll('circle')].filter(c => c.getBoundingClientRect().width > 0).length,
                  texts: [...s.querySelectorAll('text')].map(t => t.textContent),
                  widest: Math.max(...[...s.querySelectorAll('text')].map(t => t.getComputedTextLength()))};
        });""", selector)
    return {"charts": result}


def test_the_report_view_draws_its_figures(chrome: Any, chart_web: Server,
                                           screenshot: Callable[[Any, str], Path]) -> None:
    run_id = save_sample_report(chart_web.store, "en", "run-chart-en")
    chrome.get(f"{chart_web.url}/ui/runs/{run_id}")
    _wait(chrome, lambda d: d.execute_script("return document.querySelectorAll('#answer-charts svg').length"))
    charts = _drawn(chrome, "#answer-charts")["charts"]
    assert [c["title"] for c in charts] == ["throughput by entity", "first release by entity"]
    assert all(c["width"] > 300 and c["height"] > 80 and c["widest"] > 0 for c in charts)
    assert [c["points"] for c in charts] == [3, 2]  # 605 MB/s and 1.2 GB/s stay two points
    assert "throughput (MB/s), logarithmic scale" in charts[0]["texts"]
    # the figures are also a table for screen readers, in the page but not drawn
    hidden = chrome.execute_script("const t = document.querySelector('#answer-charts table.chart-data');"
                                   "return [t.rows.length, t.parentElement.getBoundingClientRect().width]")
    assert hidden[0] == 4 and hidden[1] <= 1
    chrome.execute_script("document.querySelector('#answer-table').scrollIntoView()")
    screenshot(chrome, "chart-report-answer")
    conflict = _drawn(chrome, "#conflict-charts")["charts"]
    assert len(conflict) == 1 and conflict[0]["points"] == 2 and "values per source" in conflict[0]["title"]
    chrome.execute_script("document.querySelector('#conflicts-table').scrollIntoView()")
    screenshot(chrome, "chart-report-conflict")


def test_a_chinese_report_view_draws_its_text(chrome: Any, chart_web: Server,
                                              screenshot: Callable[[Any, str], Path]) -> None:
    run_id = save_sample_report(chart_web.store, "zh", "run-chart-zh")
    chrome.get(f"{chart_web.url}/ui/runs/{run_id}")
    _wait(chrome, lambda d: d.execute_script("return document.querySelectorAll('#answer-charts svg').length"))
    assert chrome.execute_script("return document.querySelector('#report').lang") == "zh"
    width = chrome.execute_script("const t = [...document.querySelectorAll('#answer-charts svg text')]"
                                  ".find(t => t.textContent.includes('三个代理'));"
                                  "return t ? t.getComputedTextLength() : -1")
    assert width > 0
    font = chrome.execute_script("return getComputedStyle(document.body).fontFamily")
    assert "Noto Sans CJK SC" in font
    chrome.execute_script("document.querySelector('#answer-charts').scrollIntoView()")
    screenshot(chrome, "chart-report-zh")


def test_the_topics_page_draws_a_value_over_time(chrome: Any, chart_web: Server,
                                                 screenshot: Callable[[Any, str], Path]) -> None:
    chart_web.store.write_evidence([
        rec(f"https://t.example/zorkq-{i}", f"Zorkq reached {v} MB/s.", "Zorkq", "throughput", v, "MB/s",
            published=day)
        for i, (v, day) in enumerate([(605, "2026-01-01"), (650, "2026-02-01"), (700, "2026-03-01")])])
    chrome.get(f"{chart_web.url}/ui/topics?entity=Zorkq")
    _wait(chrome, lambda d: d.execute_script("return document.querySelectorAll('#topic-charts svg').length"))
    (line,) = _drawn(chrome, "#topic-charts")["charts"]
    assert line["points"] == 3 and "2026-01-01" in line["texts"] and "date" in line["texts"]
    chrome.execute_script("document.querySelector('#topic-charts').scrollIntoView()")
    screenshot(chrome, "chart-topic-line")
