"""A run's page in a real headless Chromium follows the run through cancel and resume: its Cancel and Resume
buttons work, the status it shows is the run's (never a cancellation the run has gone past), and a resume made
elsewhere (the API) is followed to the report without a reload by hand."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from .browser_support import Server
from .test_browser_web import Q, _click, _css, _wait, run_web  # noqa: F401 - run_web is the fixture

pytestmark = pytest.mark.integration


def _shown(driver: Any, sel: str) -> bool:
    return any(e.is_displayed() for e in _css(driver, sel))


def _status(driver: Any) -> str:
    found = _css(driver, "#run-status")
    return str(found[0].text) if found else ""


def test_the_run_page_cancels_resumes_and_follows_a_resume_made_elsewhere(
        chrome: Any, run_web: tuple[Server, Path], screenshot: Callable[[Any, str], Path]) -> None:  # noqa: F811
    server, corpus = run_web
    chrome.get(server.url + "/")
    _css(chrome, "#question")[0].send_keys(Q)
    _css(chrome, "#sources")[0].send_keys(f"local:{corpus}")
    _css(chrome, "#offline")[0].click()
    _css(chrome, "#start-run")[0].click()
    _wait(chrome, lambda d: "/ui/runs/" in d.current_url and _css(d, "#events li"))
    run_id = chrome.current_url.rsplit("/", 1)[-1]
    assert _shown(chrome, "#cancel-run") and not _shown(chrome, "#resume-run")

    # Cancel: the page says cancelled and offers Resume
    _click(chrome, "#cancel-run")
    _wait(chrome, lambda d: _status(d) == "cancelled" and _shown(d, "#resume-run"))
    assert not _shown(chrome, "#cancel-run")
    screenshot(chrome, "web-run-cancelled")

    # a resume made elsewhere (the API): the stopped page follows it by itself, with Cancel again, and the
    # replayed cancellation is history, not the run's state
    assert httpx.post(f"{server.url}/runs/{run_id}/resume", timeout=60).status_code == 202
    _wait(chrome, lambda d: _css(d, "#report") or (_status(d) in ("queued", "running") and _shown(d, "#cancel-run")
                                                   and _css(d, "#events li.type-failed")))
    if not _css(chrome, "#report"):  # (a fast machine may have finished it already)
        # Cancel, then Resume, from the page
        _click(chrome, "#cancel-run", unless="#report")
        _wait(chrome, lambda d: _css(d, "#report") or (_status(d) == "cancelled" and _shown(d, "#resume-run")))
        _click(chrome, "#resume-run", unless="#report")
    _wait(chrome, lambda d: _css(d, "#report"))
    assert _status(chrome) == "done" and chrome.current_url.endswith(f"/ui/runs/{run_id}")
    assert not _shown(chrome, "#cancel-run") and not _shown(chrome, "#resume-run")
    screenshot(chrome, "web-run-resumed-report")

    # an unknown run: a 404 page
    chrome.get(server.url + "/ui/runs/run-nope")
    assert "no run with id run-nope" in _wait(chrome, lambda d: (_css(d, ".problem") or [None])[0]).text
