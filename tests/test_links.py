"""Only http(s) addresses become links: the check itself, and the report writers (HTML, Markdown)."""

from __future__ import annotations

import pytest

from openresearch.agents.write.report import to_html, to_markdown
from openresearch.agents.write.report_model import Report
from openresearch.links import is_http_url
from openresearch.models import EvidenceView, Plan, SourceView

HOSTILE = ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
           "javascript://example.com/%0aalert(1)", "data:text/html,<script>alert(1)</script>",
           "vbscript:msgbox(1)", "file:///etc/passwd", "//evil.example/x", "/ui/evidence/E-1", "http:alert(1)",
           "http://", "https://ex\nample.com/", "http://[::1", "", "mailto:a@b.example"]


@pytest.mark.parametrize("url", ["http://a.example", "https://a.example/x?y=1#z", "HTTPS://A.EXAMPLE/",
                                 "http://127.0.0.1:8000/p", "https://a.example/a b"])
def test_http_addresses_are_links(url: str) -> None:
    assert is_http_url(url)


@pytest.mark.parametrize("url", HOSTILE)
def test_anything_else_is_text(url: str) -> None:
    assert not is_http_url(url)


def report(url: str, title: str | None) -> Report:
    ev = EvidenceView(id="E-0a1b2c3d", quote="Kafka reached 605 MB/s.", type="statistic",
                      source=SourceView(id="S-1", url=url, title=title))
    return Report(run_id="R-1", question="q", title="T", verified=False, plan=Plan(question="q"), evidence=[ev])


@pytest.mark.parametrize("url", ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "data:text/html,x", "java\tscript:x"])
@pytest.mark.parametrize("title", ["Imported", None])
def test_the_report_writers_link_no_other_scheme(url: str, title: str | None) -> None:
    page = to_html(report(url, title))
    assert "href=\"java" not in page.lower() and 'href="data:' not in page
    assert "alert(1)" in page or "data:text/html" in page or "script:x" in page  # still shown, as text
    md = to_markdown(report(url, title))
    assert f"<{url}>" not in md and f"({url})" not in md


def test_the_report_writers_still_link_http() -> None:
    assert '<a href="https://a.example/k">Kafka A</a>' in to_html(report("https://a.example/k", "Kafka A"))
    assert "<https://a.example/k>" in to_markdown(report("https://a.example/k", "Kafka A"))
