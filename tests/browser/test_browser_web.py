"""The web page at `/` in a real headless Chromium, against the API on a real uvicorn over a real FalkorDB.

A real offline research run (the API's RunManager over a small local corpus) started from the page's form
shows its live progress (SSE) and then its report; a citation click shows the evidence's quote and source
(GET /evidence/{id}); a conflict's resolve button records a resolution; the comparison table renders.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from openresearch.graph.store import GraphStore

from .browser_support import REPO, Server, serve

pytestmark = pytest.mark.integration
WAIT_S = 240  # an upper bound for a research run on a loaded 2-core machine, never a measured figure
SUBSET = ["bench-confluent-2020.html", "bench-streamnative-2022.md", "rabbitmq-quorum-queues.md",
          "kafka-overview.md"]
Q = "Which message broker has the highest throughput: Kafka, RabbitMQ or Pulsar?"


@pytest.fixture
def web(falkor_store: GraphStore) -> Iterator[Server]:
    with serve(falkor_store) as server:
        yield server


@pytest.fixture
def run_web(falkor_store: GraphStore, tmp_path: Path) -> Iterator[tuple[Server, Path]]:
    """The API with its run manager (offline components), local sources allowed under the corpus folder."""
    from openresearch.agents.run.components import Components
    from openresearch.agents.run.manager import RunManager
    from openresearch.agents.run.services import Services
    from openresearch.config import Settings
    from openresearch.ingest.embed import SentenceTransformerEmbedder

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in SUBSET:
        shutil.copy(REPO / "examples" / "corpus" / name, corpus / name)
    settings = Settings(_env_file=None, data_dir=tmp_path / "data")  # type: ignore[call-arg]
    embedder = SentenceTransformerEmbedder(cache_dir=tmp_path / "emb")
    services = Services(settings, falkor_store, embedder,
                        lambda o: Components.build(settings, embedder, offline=True, caps=o.caps, workers=o.workers))
    with serve(falkor_store, runs=RunManager(services, workers=1), services=services, data_dir=tmp_path / "data",
               api_local_roots=[tmp_path]) as server:
        yield server, corpus


def _wait(driver: Any, cond: Callable[[Any], Any]) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # the run page renders itself again when the run is done: an element read across that is stale, retried
    return WebDriverWait(driver, WAIT_S, poll_frequency=0.1,
                         ignored_exceptions=(StaleElementReferenceException,)).until(cond)


def _click(driver: Any, sel: str, unless: str | None = None) -> None:
    """Clicks the first element `sel` finds, found again if the page rendered itself anew between finding and
    clicking it (the node then belongs to no document, or has no size any more); stops without a click once
    `unless` is on the page."""
    from selenium.common.exceptions import (
        ElementNotInteractableException,
        StaleElementReferenceException,
        WebDriverException,
    )

    def attempt(d: Any) -> bool:
        if unless and _css(d, unless):
            return True
        found = [e for e in _css(d, sel) if e.is_displayed()]
        if not found:
            return False
        try:
            found[0].click()
        except (StaleElementReferenceException, ElementNotInteractableException):
            return False  # (or hidden between finding and clicking: the page moved on; look again)
        except WebDriverException as e:
            if "does not belong to the document" in str(e):
                return False
            raise
        return True

    _wait(driver, attempt)


def _css(driver: Any, sel: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, sel))


def test_run_from_the_page_shows_progress_then_its_report_and_a_citation_shows_its_quote(
        chrome: Any, run_web: tuple[Server, Path], screenshot: Callable[[Any, str], Path]) -> None:
    server, corpus = run_web
    chrome.get(server.url + "/")
    _css(chrome, "#question")[0].send_keys(Q)
    _css(chrome, "#sources")[0].send_keys(f"local:{corpus}")
    _css(chrome, "#offline")[0].click()
    _css(chrome, "#start-run")[0].click()

    # the run's page: its events arrive over SSE while it runs
    _wait(chrome, lambda d: "/ui/runs/" in d.current_url and (_css(d, "#events li") or _css(d, "#report")))
    run_id = chrome.current_url.rsplit("/", 1)[-1]
    first = "(the report came first)"
    items = _wait(chrome, lambda d: [li.text for li in _css(d, "#events li")] or ([first] if _css(d, "#report")
                                                                                 else None))
    assert items != [first], "the run finished before its page showed any progress"
    screenshot(chrome, "web-run-progress")
    assert items[0] == "Stage plan started", items

    # done: the page is rendered again with the report, its sentences citing evidence ids
    _wait(chrome, lambda d: _css(d, "#report") or _css(d, "#events li.type-failed"))
    failed = _css(chrome, "#events li.type-failed")
    assert not failed, f"the run failed: {failed[0].text}"
    report = _css(chrome, "#report")[0]
    assert Q in _css(chrome, "h1")[0].text and _css(chrome, "#run-status")[0].text == "done"
    cites = _css(chrome, "#report .sentence a.cite")
    assert cites, report.text[:500]
    screenshot(chrome, "web-run-report")

    # a citation click shows the quote and the source of that evidence id, read from GET /evidence/{id}
    evidence_id = cites[0].get_attribute("data-evidence")
    expected = server.store.provenance(evidence_id).evidence
    cites[0].click()
    panel = _wait(chrome, lambda d: next((p for p in _css(d, "#evidence-panel") if p.is_displayed()
                                          and _css(d, "#evidence-panel blockquote.quote")), None))
    assert _css(chrome, "#evidence-panel blockquote.quote")[0].text == " ".join(expected.quote.split())
    assert (expected.source.title or expected.source.url) in panel.text
    assert evidence_id in panel.text
    assert chrome.current_url.endswith(f"/ui/runs/{run_id}")  # the click did not navigate away
    screenshot(chrome, "web-citation-quote")

    # the runs list on / shows the finished run
    chrome.get(server.url + "/")
    row = _wait(chrome, lambda d: (_css(d, "table.runs tr.run") or [None])[0])
    assert "done" in row.text and run_id in row.text


def test_conflicts_resolve_button_and_the_comparison_table(
        chrome: Any, web: Server, screenshot: Callable[[Any, str], Path]) -> None:
    server = web
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


def test_the_openapi_page_renders_with_nothing_but_the_server(
        chrome: Any, web: Server, screenshot: Callable[[Any, str], Path]) -> None:
    """Swagger UI comes from the package: with the browser's network closed, /docs still lists the routes."""
    chrome.get(web.url + "/docs")
    title = _wait(chrome, lambda d: (_css(d, ".swagger-ui .info .title") or [None])[0])
    assert "OpenResearch API" in title.text
    paths = _wait(chrome, lambda d: [e.text for e in _css(d, ".opblock-summary-path")] or None)
    assert "/evidence" in paths and "/compare" in paths
    screenshot(chrome, "web-openapi-docs")
