"""Neo4j Browser, served by the tests' real local Neo4j (tests/conftest.py), in a real headless Chromium:
it connects over Bolt, applies the OpenResearch style and opens the guide on connect, and a saved query
run from the guide draws the entity's nodes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from openresearch.graph import neo4j_browser, neo4j_local
from openresearch.graph.store import GraphStore

from .browser_support import seed, serve

pytestmark = pytest.mark.integration
WAIT_S = 90  # an upper bound for a loaded 2-core machine, never a measured figure


@pytest.fixture
def local_neo4j(neo4j_url: str, neo4j_home: Path) -> Iterator[tuple[str, str]]:
    """(bolt uri, http uri) of the session's local Neo4j, seeded; skips for an external test server."""
    st = neo4j_local.status(neo4j_home)
    if not st.running or urlsplit(st.bolt_uri).port != urlsplit(neo4j_url).port:
        pytest.skip("OPENRESEARCH_TEST_NEO4J_URL is an external Neo4j: the Browser assets are served by the "
                    "local one (openresearch neo4j start)")
    from openresearch.graph.neo4j_backend import Neo4jBackend

    backend = Neo4jBackend(neo4j_url)
    backend.clear()
    seed(GraphStore(backend))
    try:
        yield st.bolt_uri, st.http_uri
    finally:
        backend.clear()
        backend.close()


def _wait(driver: Any, cond: Callable[[Any], Any]) -> Any:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_S, poll_frequency=0.2,
                         ignored_exceptions=(StaleElementReferenceException,)).until(cond)


def _css(driver: Any, sel: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, sel))


def test_neo4j_browser_connects_and_a_saved_query_from_the_guide_draws_nodes(
        chrome: Any, local_neo4j: tuple[str, str], screenshot: Callable[[Any, str], Path]) -> None:
    bolt, http = local_neo4j
    try:
        _explore(chrome, bolt, http)
    except Exception:
        screenshot(chrome, "neo4j-browser-failure")  # what the page showed when it failed
        raise
    screenshot(chrome, "neo4j-browser-saved-query")


def _explore(chrome: Any, bolt: str, http: str) -> None:
    urls = neo4j_browser.urls(http)
    chrome.get(f"{urls.browser}?dbms={bolt}&preselectAuthMethod=NO_AUTH")

    # connected (no login form), and the post-connect commands opened the OpenResearch guide
    _wait(chrome, lambda d: _css(d, "[data-testid=guidesDrawer] [data-testid=pagination-4]"))
    drawer = _css(chrome, "[data-testid=guidesDrawer]")[0]
    assert "OpenResearch evidence graph" in drawer.text
    _wait(chrome, lambda d: any(urls.style in f.text for f in _css(d, "[data-testid=frameCommand]")))  # styled

    # slide 4: an entity's observations; set its parameters (the name, the alias list), then run the saved
    # query, all from the guide
    _css(chrome, "[data-testid=pagination-4]")[0].click()
    _wait(chrome, lambda d: "An entity's observations" in _css(d, "[data-testid=guidesDrawer]")[0].text)
    *params, query = _css(chrome, "[data-testid=guidesDrawer] pre.runnable")[:3]
    assert [p.text.split("=>")[0].strip() for p in params] == [":param entity", ":param aliases"]
    for n, param in enumerate(params, 1):
        _run_block(chrome, param)
        # the Browser evaluates a :param on the server: the query may only run once it is set
        _wait(chrome, lambda d, n=n: sum("Successfully set your parameters" in f.text
                                         for f in _css(d, "[data-testid=frame]")) >= n)
    _run_block(chrome, query)
    nodes = _wait(chrome, lambda d: _css(d, "svg g.node") or None)
    labels = _wait(chrome, lambda d: " ".join(n.text for n in _css(d, "svg g.node")) or None)
    assert len(nodes) >= 5  # the entity, its observations, their evidence and sources
    assert "Kafka" in labels  # captioned by name (style), not by id


def _run_block(chrome: Any, block: Any) -> None:
    """Click a guide's runnable block (it fills the editor), then the editor's run button."""
    first = block.text.splitlines()[0].strip()[:12]
    block.click()
    _wait(chrome, lambda d: first in _editor(d))
    _run_editor(chrome, first)


def _editor(driver: Any) -> str:
    return str(_css(driver, "[data-testid=activeEditor]")[0].text.replace("\u00a0", " "))


def _run_editor(chrome: Any, first: str) -> None:
    """Click run until the editor is emptied (the Browser clears it once it takes the command): on a loaded
    machine a click can land while the editor is still settling and be lost."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    for _ in range(10):
        _css(chrome, "[data-testid=editor-Run]")[0].click()
        try:
            WebDriverWait(chrome, 10, poll_frequency=0.2).until(lambda d: first not in _editor(d))
            return
        except TimeoutException:
            continue
    raise AssertionError(f"the Browser never ran {first!r}")


def test_a_neo4j_not_started_by_openresearch_opens_the_guide_served_by_the_api(
        chrome: Any, local_neo4j: tuple[str, str], falkor_store: GraphStore,
        screenshot: Callable[[Any, str], Path]) -> None:
    """docker compose's or Aura's Browser: `:guide http://localhost:<api>/ui/neo4j/guide.html`, fetched
    cross-origin (localhost is on the Browser's default allowlist; the API answers the CORS preflight)."""
    bolt, http = local_neo4j
    with serve(falkor_store) as api:
        try:
            _guide_from_api(chrome, bolt, http, f"http://localhost:{urlsplit(api.url).port}/ui/neo4j/guide.html")
        except Exception:
            screenshot(chrome, "neo4j-browser-failure")
            raise
    screenshot(chrome, "neo4j-browser-guide-from-api")


def _guide_from_api(chrome: Any, bolt: str, http: str, guide: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    chrome.get(f"{neo4j_browser.urls(http).browser}?dbms={bolt}&preselectAuthMethod=NO_AUTH")
    _wait(chrome, lambda d: _css(d, "[data-testid=guidesDrawer] pre.runnable"))
    _css(chrome, "[data-testid=activeEditor]")[0].click()
    ActionChains(chrome).send_keys(f":guide {guide}").perform()
    _wait(chrome, lambda d: guide in _editor(d))
    _run_editor(chrome, guide)
    style = guide.replace("guide.html", "style.grass")
    block = _wait(chrome, lambda d: next((p for p in _css(d, "[data-testid=guidesDrawer] pre.runnable")
                                          if style in p.text), None))
    assert block.text.strip().startswith(":style")
    _run_block(chrome, block)  # the style, fetched from the API the same way
    _wait(chrome, lambda d: any(style in f.text and "node.Evidence" in f.text
                                for f in _css(d, "[data-testid=frame]")))
