"""PDF streams that inflate to a few MB (images, dense pages) end with their text or a clear ParseError, never a hang.

A Flate stream inflating to 1-50 MB followed by the usual end-of-line before `endstream` looped for ever in the
decompression-bomb check. The timeout mark makes the old code fail here instead of hanging the run.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from pdf_factory import flate_stream_pdf

from openresearch.errors import ParseError
from openresearch.ingest.documents import parse_file
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
