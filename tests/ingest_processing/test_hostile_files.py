"""Hostile and unlucky files through the real parsers and the real local ingest (FalkorDB and Neo4j): every
one ends in a clear message naming the file, within bounded memory, never in a traceback."""

from __future__ import annotations

import asyncio
import tracemalloc
import zlib
from pathlib import Path

import pytest
from fpdf import FPDF

from openresearch.errors import ParseError
from openresearch.graph.store import GraphStore
from openresearch.ingest.documents import Limits, parse_file
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.fetch import Fetcher
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.local import index_documents
from openresearch.ingest.safety import StaticResolver, UrlGuard

TITLE = "T" * 40


def _pdf(title: str | None = None) -> bytes:
    pdf = FPDF(format="A4")
    if title is not None:
        pdf.set_title(title)
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, "Kafka sustained 605 MB/s on three brokers in the vendor's benchmark.")
    return bytes(pdf.output())


def _bomb(inflated: int) -> bytes:
    """A valid PDF with one extra Flate stream of zeros that inflates to ``inflated`` bytes."""
    packer = zlib.compressobj(9)
    zeros = b"\0" * (1 << 20)
    body = b"".join(packer.compress(zeros) for _ in range(inflated >> 20)) + packer.flush()
    base = _pdf()
    obj = b"99 0 obj\n<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream\nendobj\n" % (len(body), body)
    cut = base.rindex(b"xref")
    return base[:cut] + obj + base[cut:]


def test_a_pdf_decompression_bomb_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "bomb.pdf"
    path.write_bytes(_bomb(1 << 30))  # 1 GB of zeros in about 1 MB
    tracemalloc.start()
    try:
        with pytest.raises(ParseError) as err:
            parse_file(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(path) in str(err.value) and "decompression bomb" in str(err.value)
    assert peak < 64 * 2**20  # the check inflates 1 MB at a time (pdfminer held the whole 1 GB)


def test_malformed_pdf_titles_give_no_title_not_a_traceback(tmp_path: Path) -> None:
    base = _pdf(TITLE)
    needle = f"/Title ({TITLE})".encode()
    assert needle in base
    for i, bad in enumerate([b"/Title <FEFF00D8>", b"/Title 12345", b"/Title [1 2 3]", b"/Title 77 0 R",
                             b"/Title <FFFE41>", b"/Title (\\377\\376\\000)", b"/Title /Name", b"/Title <<>>"]):
        path = tmp_path / f"title{i}.pdf"
        path.write_bytes(base.replace(needle, bad.ljust(len(needle))))
        doc = parse_file(path)
        assert "605 MB/s" in doc.text
        assert doc.title is None or isinstance(doc.title, str)


def test_a_corrupt_pdf_error_names_the_file(tmp_path: Path) -> None:
    data = _pdf()
    for i, broken in enumerate([data[: len(data) // 2], b"%PDF-1.4\n" + b"\x00garbage" * 100, b"not a pdf"]):
        path = tmp_path / f"corrupt{i}.pdf"
        path.write_bytes(broken)
        with pytest.raises(ParseError) as err:
            parse_file(path)
        assert str(err.value).startswith(str(path))


def test_invalid_utf8_is_decoded_as_utf8_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    text = "# Grüße aus Köln\n\nDer Broker schaffte 605 MB/s, sagt die Straße.\n"
    path.write_bytes(text.encode() + b"\xff\xfe tail\n")
    warnings: list[str] = []
    doc = parse_file(path, warnings=warnings)
    assert "Grüße" in doc.text and "Straße" in doc.text  # not mojibake
    assert warnings and str(path) in warnings[0] and "invalid UTF-8" in warnings[0]


@pytest.mark.integration
def test_a_huge_single_line_page_is_capped_with_a_clear_message(store: GraphStore, tmp_path: Path) -> None:
    para = "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.</p>"
    page = tmp_path / "docs" / "huge.html"
    page.parent.mkdir()
    page.write_text("<html><head><title>Huge</title></head><body>" + para * 200_000 + "</body></html>")  # 20 MB
    limits = Limits(max_chars=200_000)
    report = index_documents(store, page.parent, HashEmbedder(dim=384), limits=limits, max_chunks=100)
    assert report.added == 1 and not report.errors
    assert report.chunks == 100
    text = " ".join(report.warnings)
    assert "huge.html" in text and "bytes of HTML" in text and "chunks are stored" in text
    assert store.stats()["nodes"]["Chunk"] == 100


def test_odd_urls_are_refused_with_a_reason() -> None:
    resolver = StaticResolver({"example.com": ["93.184.215.14"]})  # no DNS in tests; nothing is fetched

    async def go() -> dict[str, str | None]:
        async with PoliteClient(user_agent="OpenResearch-test/0.1", guard=UrlGuard(resolver=resolver)) as client:
            fetcher = Fetcher(client)
            out = {}
            for url in ("http://0177.0.0.1/", "http://①②⑦.0.0.1/", "http://example.com/" + "a" * 65_536,
                        "http://[::1/", "http://example.com:99999/", "http://\x00.example/", "http://0x7f.1/",
                        "http://2130706433/"):
                out[url] = (await fetcher.fetch(url)).refused_reason
            return out

    reasons = asyncio.run(go())
    assert all(reasons.values()), reasons
    assert "0177.0.0.1" in (reasons["http://0177.0.0.1/"] or "")
    assert "non-canonical" in (reasons["http://2130706433/"] or "")
    assert "longer than the limit" in (reasons["http://example.com/" + "a" * 65_536] or "")
    assert all(len(r or "") < 400 for r in reasons.values())
    assert not any("robots.txt" in (r or "") for r in reasons.values())
