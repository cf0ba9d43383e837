"""The run page follows a run's life over real HTTP (uvicorn, the offline run manager, real FalkorDB): Cancel
while it runs, Resume once it stopped, each a form with this browser's token; the page says what the API
says; an unknown run is a 404 page; unknown ids are 404 problems from the API."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from api_support import Server, serve
from records_support import offline_run_server
from test_runs import read_events
from test_web_csrf import page_token

from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]
DOCS = ["bench-confluent-2020.html", "rabbitmq-quorum-queues.md", "kafka-overview.md"]


@pytest.fixture
def run_web(falkor_store: GraphStore, tmp_path: Path) -> Iterator[Server]:
    with offline_run_server(serve, falkor_store, tmp_path) as server:
        yield server


def shown(page: httpx.Response) -> tuple[str, bool, bool]:
    """The page's status, and whether its Cancel and Resume buttons are shown."""
    assert page.status_code == 200, page.text[:300]
    status = re.search(r'<span id="run-status">([^<]*)</span>', page.text)
    assert status, page.text[:500]
    cancel = re.search(r'<form id="cancel-form"[^>]*>', page.text)
    resume = re.search(r'<form id="resume-form"[^>]*>', page.text)
    assert cancel and resume
    return status[1], " hidden" not in cancel[0], " hidden" not in resume[0]


def test_the_run_page_cancels_resumes_and_follows_the_run(run_web: Server, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in DOCS:
        shutil.copy(REPO / "examples" / "corpus" / name, corpus / name)
    with httpx.Client(base_url=run_web.url, follow_redirects=False, timeout=120) as browser:
        token = page_token(browser)
        r = browser.post("/ui/runs", data={"question": "Which broker has the highest throughput: Kafka or RabbitMQ?",
                                           "sources": f"local:{corpus}", "offline": "true", "csrf_token": token})
        assert r.status_code == 303
        page_url = r.headers["location"]
        run_id = page_url.rsplit("/", 1)[-1]
        read_events(browser, run_id, stop_after=2)  # it runs
        status, cancel, resume = shown(browser.get(page_url))
        assert status in ("queued", "running") and cancel and not resume

        # a Cancel from another site is refused and changes nothing
        evil = browser.post(f"/ui/runs/{run_id}/cancel", data={"csrf_token": token},
                            headers={"Origin": "https://evil.example"})
        assert evil.status_code == 403 and browser.get(f"/runs/{run_id}").json()["status"] in ("queued", "running")

        r = browser.post(f"/ui/runs/{run_id}/cancel", data={"csrf_token": token})
        assert r.status_code == 303 and r.headers["location"] == page_url
        read_events(browser, run_id)  # to its end: the cancellation
        status, cancel, resume = shown(browser.get(page_url))
        assert status == "cancelled" and resume and not cancel

        # the Cancel of a stopped run: the API's 409, shown as a page
        again = browser.post(f"/ui/runs/{run_id}/cancel", data={"csrf_token": token})
        assert again.status_code == 409 and "cancelled" in again.text

        r = browser.post(f"/ui/runs/{run_id}/resume", data={"csrf_token": token})
        assert r.status_code == 303 and r.headers["location"] == page_url
        status, cancel, resume = shown(browser.get(page_url))
        assert status in ("queued", "running", "done") and not resume
        events = read_events(browser, run_id)  # a fresh stream: through the cancellation to the end
        assert [e["event"] for e in events].count("failed") == 1 and events[-1]["event"] == "done"
        done = browser.get(page_url)
        assert shown(done)[0] == "done" and 'id="report"' in done.text

        # unknown ids: a 404 page, a 404 problem
        for path in ("/ui/runs/run-nope", ):
            missing = browser.get(path)
            assert missing.status_code == 404 and "no run with id run-nope" in missing.text
            assert missing.headers["content-type"].startswith("text/html")
        for path in (f"/ui/runs/run-nope/{action}" for action in ("cancel", "resume")):
            missing = browser.post(path, data={"csrf_token": token})
            assert missing.status_code == 404 and "no run with id run-nope" in missing.text, path
        for method, path in (("GET", "/runs/run-nope"), ("DELETE", "/runs/run-nope"),
                             ("POST", "/runs/run-nope/resume"), ("GET", "/runs/run-nope/events")):
            api = browser.request(method, path)
            assert api.status_code == 404 and api.headers["content-type"] == "application/problem+json", path
            assert "run-nope" in api.json()["detail"]
