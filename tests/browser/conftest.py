"""A real headless Chromium (Debian's chromium + chromium-driver, driven by Selenium) for the web page and
Neo4j Browser, and screenshots kept as test artefacts.

Every Chromium test skips, with the reason printed, when chromium, chromedriver or selenium is missing
(scripts/install_browser.sh installs them). Screenshots go to the test's tmp dir and are copied to
`var/test-artifacts/browser/` (gitignored); both paths are printed. (tests/browser is a package so that
this conftest is `browser.conftest`, not a second top-level `conftest` next to tests/api's.)
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from openresearch.graph.store import GraphStore

from .browser_support import seed

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "var" / "test-artifacts" / "browser"
CHROMIUM = os.environ.get("OPENRESEARCH_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("OPENRESEARCH_CHROMEDRIVER", "/usr/bin/chromedriver")
# The flags the machine notes give for a closed network: no background connections, no proxy, a fresh profile.
CHROME_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-extensions", "--disable-dev-shm-usage", "--no-proxy-server", "--window-size=1400,900")


def _missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).is_file() or shutil.which(path)):
            return f"{path} not installed (scripts/install_browser.sh: apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium not installed (pip install selenium)"
    return None


@pytest.fixture(scope="session")
def chrome(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One headless Chromium for the session (starting one costs ~2 s on 2 cores)."""
    why = _missing()
    if why:
        print(f"\nSKIP tests/browser: {why}")
        pytest.skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    opts = Options()
    opts.binary_location = CHROMIUM
    for flag in CHROME_FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(options=opts, service=Service(CHROMEDRIVER))
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def screenshot(tmp_path: Path) -> Callable[[Any, str], Path]:
    """`screenshot(driver, name)`: a PNG in the test's tmp dir and in var/test-artifacts/browser/."""

    def take(driver: Any, name: str) -> Path:
        path = tmp_path / f"{name}.png"
        assert driver.save_screenshot(str(path)), f"screenshot {name} failed"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        kept = ARTIFACTS / path.name
        shutil.copyfile(path, kept)
        print(f"\nscreenshot {name}: {path} (kept as {kept})")
        return kept

    return take


@pytest.fixture
def falkor_store(falkor_socket: str) -> Iterator[GraphStore]:
    """The seed on the session's real FalkorDB, in a graph of its own."""
    from openresearch.graph.falkor import FalkorBackend

    backend = FalkorBackend(f"web_{uuid.uuid4().hex[:10]}", unix_socket=falkor_socket)
    try:
        yield seed(GraphStore(backend))
    finally:
        backend.drop()  # the whole key: clear() keeps an emptied key's indexes (about 2 MB)
        backend.close()
