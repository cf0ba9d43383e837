"""The web page at `/` in a real headless Chromium, against the API on a real uvicorn over a real FalkorDB.

A run started from the page shows its live progress (SSE) and then its report; a citation click shows the
evidence's quote and source (GET /evidence/{id}); a conflict's resolve button records a resolution. Until
the API serves runs itself, the runs routes are the documented-shape stand-in of runs_standin.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from openresearch.graph.store import GraphStore

from .browser_support import Server, serve
from .runs_standin import Standin

pytestmark = pytest.mark.integration
WAIT_S = 60  # an upper bound for a loaded 2-core machine, never a measured figure


@pytest.fixture
def web(falkor_store: GraphStore) -> Iterator[tuple[Server, Standin]]:
    standin = Standin(falkor_store)
    with serve(falkor_store, routers=(standin.router,)) as server:
        yield server, standin


def _wait(driver: Any, cond: Callable[[Any], Any]) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_S, poll_frequency=0.1).until(cond)


def _css(driver: Any, sel: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, sel))


def test_run_from_the_page_shows_progress_then_its_report_and_a_citation_shows_its_quote(
        chrome: Any, web: tuple[Server, Standin], screenshot: Callable[[Any, str], Path]) -> None:
    server, standin = web
    chrome.get(server.url + "/")
    _css(chrome, "#question")[0].send_keys("Which broker has the highest throughput?")
    _css(chrome, "#start-run")[0].click()

    # the run's page, its events arriving over SSE while the run is not done
    _wait(chrome, lambda d: len(_css(d, "#events li")) >= 5)
    assert "/ui/runs/R-" in chrome.current_url
    items = [li.text for li in _css(chrome, "#events li")]
    assert items[0] == "Stage plan started"
    assert any("Which broker has the highest throughput?" in t and "searching" in t for t in items)
    assert not _css(chrome, "#report")
    screenshot(chrome, "web-run-progress")

    (run,) = standin.runs.values()
    run.release.set()  # the run finishes: `done` is sent, the page renders the report
    report = _wait(chrome, lambda d: (_css(d, "#report") or [None])[0])
    assert _css(chrome, "#events li") == []  # the page was rendered again, with the report
    assert "Which broker has the highest throughput?" in report.find_element("css selector", "h2").text
    cites = _css(chrome, "#report .sentence a.cite")
    assert len(cites) == 2
    screenshot(chrome, "web-run-report")

    # a citation click shows the quote and the source of that evidence id, read from GET /evidence/{id}
    evidence_id = cites[0].get_attribute("data-evidence")
    expected = server.store.provenance(evidence_id).evidence
    cites[0].click()
    panel = _wait(chrome, lambda d: next((p for p in _css(d, "#evidence-panel") if p.is_displayed()
                                          and _css(d, "#evidence-panel blockquote.quote")), None))
    assert _css(chrome, "#evidence-panel blockquote.quote")[0].text == expected.quote
    assert expected.source.title in panel.text
    assert evidence_id in panel.text
    assert chrome.current_url.endswith(f"/ui/runs/{run.id}")  # the click did not navigate away
    screenshot(chrome, "web-citation-quote")

    # the runs list on / shows the finished run
    chrome.get(server.url + "/")
    row = _wait(chrome, lambda d: (_css(d, "table.runs tr.run") or [None])[0])
    assert "done" in row.text and run.id in row.text


def test_conflicts_resolve_button_and_the_comparison_table(
        chrome: Any, web: tuple[Server, Standin], screenshot: Callable[[Any, str], Path]) -> None:
    server, _ = web
    chrome.get(server.url + "/ui/compare?entity=Kafka&entity=RabbitMQ")
    table = _wait(chrome, lambda d: (_css(d, "#compare-table") or [None])[0])
    assert "throughput" in table.text and "Kafka" in table.text and "RabbitMQ" in table.text

    chrome.get(server.url + "/ui/conflicts")
    conflict = _wait(chrome, lambda d: (_css(d, "article.conflict.status-open") or [None])[0])
    assert "Kafka" in conflict.text
    conflict_id = conflict.get_attribute("id").removeprefix("c-")
    both = next(b for b in _css(chrome, f"#c-{conflict_id} form.resolve button") if b.text == "Both hold")
    _css(chrome, f"#c-{conflict_id} form.resolve input[name=note]")[0].send_keys("different client settings")
    both.click()
    resolved = _wait(chrome, lambda d: (_css(d, f"#c-{conflict_id}.status-resolved") or [None])[0])
    assert "both hold" in resolved.text and "different client settings" in resolved.text
    screenshot(chrome, "web-conflict-resolved")
    stored = server.store.conflict_resolutions([conflict_id])[conflict_id]
    assert stored.decision == "both_hold" and stored.note == "different client settings"
