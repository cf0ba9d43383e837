"""PDF streams that inflate to a few MB (images, dense pages) end with their text or a clear ParseError, never a hang.

A Flate stream inflating to 1-50 MB followed by the usual end-of-line before `endstream` looped for ever in the
decompression-bomb check. The timeout mark makes the old code fail here instead of hanging the run.
"""

from __future__ import annotations

import tracemalloc
import zlib
from pathlib import Path

import pytest
from pdf_factory import flate_stream_pdf

from openresearch.errors import ParseError
from openresearch.ingest.documents import Limits, parse_file
from openresearch.ingest.pdf import inflated_size, parse_pdf

pytestmark = pytest.mark.timeout(60)
MB = 1 << 20
MARKER = "Big stream marker sentence."


@pytest.mark.parametrize("eol", [b"\n", b"\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("inflated", [MB, 2 * MB, 20 * MB], ids=["1MB", "2MB", "20MB"])
def test_a_big_image_stream_before_an_end_of_line_still_gives_the_text(inflated: int, eol: bytes) -> None:
    assert parse_pdf(flate_stream_pdf(inflated, eol=eol)).text == MARKER


@pytest.mark.parametrize("eol", [b"\n", b"\r\n"], ids=["lf", "crlf"])
def test_a_60mb_stream_is_refused_as_a_bomb(eol: bytes) -> None:
    with pytest.raises(ParseError, match=r"inflates to more than 50,000,000 bytes.*decompression bomb"):
        parse_pdf(flate_stream_pdf(60 * MB, eol=eol))


def test_ingest_names_the_file_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(flate_stream_pdf(60 * MB, eol=b"\r\n"))
    with pytest.raises(ParseError) as err:
        parse_file(path)
    message = str(err.value)
    assert message.startswith(str(path)) and "decompression bomb" in message and "\n" not in message


@pytest.mark.parametrize("tail", [b"", b"\n", b"\r\n", b"\r\nendstream garbage"])
@pytest.mark.parametrize("size", [0, 100, MB - 1, MB, MB + 1, 2 * MB, 3 * MB + 17])
def test_inflated_size_counts_the_stream_and_ignores_what_follows(size: int, tail: bytes) -> None:
    raw = zlib.compress(bytes(size), 6) + tail
    assert inflated_size(raw, 10 * MB) == size


def test_inflated_size_stops_at_the_limit_and_on_broken_data() -> None:
    raw = zlib.compress(bytes(8 * MB), 6)
    assert MB <= inflated_size(raw, MB) <= 2 * MB  # counted in 1 MB steps
    assert inflated_size(raw[: len(raw) // 2], 100 * MB) < 8 * MB  # truncated: what inflated before the cut
    assert inflated_size(b"\xff\xd8\xff\xe0 a JPEG, not Flate", MB) == 0
    assert inflated_size(b"", MB) == 0


class _Clock:
    """A fake time.monotonic that moves `step` seconds per reading, so a deadline trips after a known amount of
    work instead of after real seconds (the tests never depend on the machine's speed)."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("eol", [b"\n", b"\r\n"], ids=["lf", "crlf"])
def test_a_1mb_content_stream_gives_its_text(eol: bytes) -> None:
    warnings: list[str] = []
    doc = parse_pdf(flate_stream_pdf(MB, eol=eol, content=True), warnings=warnings, max_seconds=600)
    assert doc.text == MARKER and warnings == []


@pytest.mark.parametrize("eol", [b"\n", b"\r\n"], ids=["lf", "crlf"])
def test_a_20mb_content_stream_stops_at_the_deadline_keeping_the_text_read(
        eol: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    # ~700,000 drawing operators after the text; the clock runs out after ~100 readings (~25,000 operators)
    monkeypatch.setattr("openresearch.ingest.pdf.time.monotonic", _Clock(0.01))
    warnings: list[str] = []
    doc = parse_pdf(flate_stream_pdf(20 * MB, eol=eol, content=True), warnings=warnings, max_seconds=1)
    assert doc.text == MARKER
    assert warnings == ["PDF reading stopped after 1 s on page 1 (OPENRESEARCH_MAX_PDF_SECONDS): "
                        "only the text read before then is kept"]


def test_no_text_read_before_the_deadline_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match=r"took more than 0 s \(OPENRESEARCH_MAX_PDF_SECONDS\)"):
        parse_pdf(flate_stream_pdf(MB, content=True), max_seconds=0)


def test_ingest_warns_in_one_line_naming_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("openresearch.ingest.pdf.time.monotonic", _Clock(0.01))
    path = tmp_path / "map.pdf"
    path.write_bytes(flate_stream_pdf(20 * MB, eol=b"\r\n", content=True))
    warnings: list[str] = []
    doc = parse_file(path, limits=Limits(max_pdf_seconds=1), warnings=warnings)
    assert doc.text == MARKER
    assert len(warnings) == 1 and warnings[0].startswith(f"{path}: PDF reading stopped after 1 s on page 1")


def test_a_stream_packed_twice_is_bounded_when_pdfminer_decodes_it() -> None:
    # the raw bytes inflate to ~150 kB, so only a bound on pdfminer's own decoding catches the 60 MB
    data = flate_stream_pdf(60 * MB, content=True, packing="flate-twice")
    assert len(data) < 10_000
    tracemalloc.start()
    try:
        with pytest.raises(ParseError, match=r"more than 50,000,000 bytes.*decompression bomb"):
            parse_pdf(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 150 * MB  # the pieces before the limit, never the whole stream


def test_the_document_limit_counts_what_pdfminer_inflates() -> None:
    data = flate_stream_pdf(3 * MB, content=True, packing="flate-twice")
    with pytest.raises(ParseError, match=r"streams inflate to more than 2,000,000 bytes.*decompression bomb"):
        parse_pdf(data, max_inflated_bytes=2_000_000)


def test_a_truncated_content_stream_keeps_the_text_that_inflates(monkeypatch: pytest.MonkeyPatch) -> None:
    # zlib refuses the cut stream whole; pdfminer's fallback retried it one byte at a time, copying the output
    # each time (hours for 20 MB)
    monkeypatch.setattr("openresearch.ingest.pdf.time.monotonic", _Clock(0.01))
    doc = parse_pdf(flate_stream_pdf(20 * MB, content=True, packing="truncated"), max_seconds=1)
    assert doc.text == MARKER
