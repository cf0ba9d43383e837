"""Only http(s) source addresses become links on the web page: an imported `javascript:` or `data:` url is
shown as text on /ui/evidence/{id} (over real HTTP, real FalkorDB). The citation panel's script is checked
in a real Chromium (tests/browser/test_browser_safety.py)."""

from __future__ import annotations

import httpx
import pytest
from api_support import Server
from records_support import rec

from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration
HOSTILE = ["javascript:alert(document.cookie)", "JavaScript:alert(1)/https:/ok.example",
           "data:text/html,<script>alert(1)</script>"]


def test_a_source_that_is_not_http_is_text_on_the_evidence_page(falkor_store: GraphStore, api: Server) -> None:
    falkor_store.write_evidence([rec(url, f"Hostile reached {i} MB/s.", "Hostile", "throughput", i, "MB/s")
                                 for i, url in enumerate(HOSTILE, start=1)]
                                + [rec("https://fine.example/a", "Fine reached 9 MB/s.", "Fine", "throughput", 9,
                                       "MB/s")])
    with httpx.Client(base_url=api.url) as c:
        items = c.get("/evidence", params={"limit": 100}).json()["items"]
        by_url = {e["source"]["url"].lower(): e["id"] for e in items}  # the graph keeps a scheme in lower case
        for url in HOSTILE:
            page = c.get(f"/ui/evidence/{by_url[url.lower()]}")
            assert page.status_code == 200
            source = page.text.split('<p class="source">', 1)[1].split("</p>", 1)[0]
            assert "<a " not in source and "href" not in source, source
            assert "alert(" in source  # shown, escaped, as text
            assert "<script>" not in source
        fine = c.get(f"/ui/evidence/{by_url['https://fine.example/a']}").text
        assert '<a href="https://fine.example/a" rel="noreferrer noopener" target="_blank">' in fine
