"""Bytes that are not UTF-8 are never read silently: a one-line warning names the file and the offset of the first
bad byte, whether the text was repaired (U+FFFD) or its encoding guessed. A charset the page declares is trusted
without a word. An HTML page with a 10 MB attribute keeps the text after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from openresearch.ingest.documents import parse_file


def _parse(path: Path) -> tuple[str, list[str]]:
    warnings: list[str] = []
    doc = parse_file(path, warnings=warnings)
    return doc.text, warnings


def test_a_few_bad_bytes_in_utf8_are_named_with_their_offset(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    head = "# Grüße\n\nDie Straße hielt 605 MB/s.".encode()
    path.write_bytes(head + b"\xff tail\n")
    text, warnings = _parse(path)
    assert "Straße" in text
    assert len(warnings) == 1 and warnings[0].startswith(str(path))
    assert f"offset {len(head)}" in warnings[0] and "0xff" in warnings[0] and "\n" not in warnings[0]


@pytest.mark.parametrize("name", ["legacy.txt", "legacy.html"])
def test_a_guessed_encoding_is_reported_not_silent(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    body = "Das Café an der Straße hält 605 Plätze für Gäste aus Köln und Zürich bereit. " * 4
    markup = f"<html><body><p>{body}</p></body></html>" if name.endswith(".html") else body
    path.write_bytes(markup.encode("latin-1"))  # no BOM, no declared charset: not UTF-8
    first_bad = markup.encode("latin-1").index(b"\xe9")
    _, warnings = _parse(path)
    assert len(warnings) == 1 and warnings[0].startswith(str(path))
    assert "invalid UTF-8" in warnings[0] and f"offset {first_bad}" in warnings[0] and "read as" in warnings[0]


def test_a_declared_charset_is_trusted_without_a_word(tmp_path: Path) -> None:
    path = tmp_path / "zh.html"
    page = "<html><head><meta charset='gbk'></head><body><p>" + "消息队列的吞吐量测试结果。" * 10 + "</p></body></html>"
    path.write_bytes(page.encode("gbk"))
    text, warnings = _parse(path)
    assert "吞吐量" in text and warnings == []


def test_a_10_mb_attribute_keeps_the_text_after_it(tmp_path: Path) -> None:
    before = "<p>Before the picture: the queue moved 605 MB/s in the first trial of the week.</p>"
    after = "<p>After the picture: the queue moved 710 MB/s in the second trial of the week.</p>"
    path = tmp_path / "inline.html"
    path.write_text(f"<html><head><title>Trials</title></head><body>{before}"
                    f"<img alt='chart' src=\"data:image/png;base64,{'QUJD' * 2_600_000}\">{after}</body></html>")
    text, warnings = _parse(path)
    assert "Before the picture" in text and "After the picture: the queue moved 710 MB/s" in text
    assert warnings == []
