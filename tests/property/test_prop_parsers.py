"""HTML, Markdown/plain text and PDF readers on generated and damaged inputs.

The only acceptable failure is the readers' own ParseError (one line, naming the file); a result keeps its
contract (block and page offsets slice the text) and loses no prose it was given.
"""

from __future__ import annotations

import html
import re
import tempfile
from pathlib import Path

from fpdf import FPDF
from hypothesis import given
from hypothesis import strategies as st
from prop_budget import budget

from openresearch.errors import ParseError
from openresearch.ingest.documents import Limits, parse_bytes, parse_file
from openresearch.ingest.html import parse_html
from openresearch.ingest.pdf import parse_pdf
from openresearch.ingest.textnorm import collapse

WORD = st.sampled_from(["Kafka", "sustained", "throughput", "brokers", "replication", "latency", "benchmark",
                        "partition", "cluster", "消息", "吞吐量", "北京", "café", "naïve", "605", "MB/s", "12%"])
SENTENCE = st.lists(WORD, min_size=8, max_size=25).map(lambda ws: " ".join(ws) + ".")
PROSE = st.lists(SENTENCE, min_size=1, max_size=4).map(" ".join)
LIMITS = Limits(max_chars=200_000, max_pdf_inflated_bytes=2_000_000, max_pdf_page_inflated_bytes=1_000_000)


def _splice(data: bytes, edits: list[tuple[int, int, bytes]]) -> bytes:
    """Apply (position, bytes to delete, bytes to insert) edits, positions taken modulo the length."""
    out = bytearray(data)
    for pos, cut, insert in edits:
        at = pos % (len(out) + 1)
        out[at:at + cut] = insert
    return bytes(out)


_HOSTILE = st.sampled_from([b"<", b">", b"</p>", b"<script>", b"<!--", b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b"&#0;",
                            b"&#xD800;", b"]]>", b"<?xml version='1.0' encoding='utf-16'?>", b"stream\n",
                            b"endstream", b"obj", b"/Title (", b"%%EOF", b"\\", b"("])
EDITS = st.lists(st.tuples(st.integers(0, 1 << 16), st.integers(0, 40), st.one_of(st.binary(max_size=12), _HOSTILE)),
                 min_size=1, max_size=6)


# --- HTML ------------------------------------------------------------------------------------------

def _page(paragraphs: list[str], title: str) -> str:
    body = "".join(f"<p>{html.escape(p)}</p>\n" for p in paragraphs)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title></head>"
            f"<body><nav><a href='/'>Home</a> | <a href='/a'>About</a></nav><article><h1>{html.escape(title)}</h1>"
            f"{body}</article><footer>© 2024</footer></body></html>")


@budget(30)
@given(st.lists(PROSE, min_size=1, max_size=6), st.lists(WORD, max_size=3).map(" ".join))
def test_html_article_prose_is_kept_whole(paragraphs: list[str], title: str) -> None:
    doc = parse_html(_page(paragraphs, title or "Title").encode())
    for b in doc.blocks:
        assert doc.text[b.start:b.end] == b.text
    for p in paragraphs:
        assert collapse(p) in doc.text, p


@budget(40)
@given(st.lists(PROSE, min_size=1, max_size=3), EDITS)
def test_damaged_html_parses_or_fails_clearly(paragraphs: list[str], edits: list[tuple[int, int, bytes]]) -> None:
    data = _splice(_page(paragraphs, "T").encode(), edits)
    warnings: list[str] = []
    try:
        doc = parse_bytes(data, kind="html", url="https://fuzz.example/p", limits=LIMITS, warnings=warnings,
                          name="page.html")
    except ParseError as e:
        assert str(e).startswith("page.html") and "\n" not in str(e)
        return
    assert doc.text.strip() and "\x00" not in doc.text


@budget(40)
@given(st.recursive(st.one_of(st.text(max_size=20).map(html.escape), WORD),
                    lambda kids: st.tuples(st.sampled_from(["p", "div", "span", "li", "ul", "td", "tr", "table", "h2",
                                                            "script", "style", "a", "br", "pre", "b"]),
                                           st.lists(kids, max_size=4))
                    .map(lambda t: f"<{t[0]}>{''.join(t[1])}</{t[0]}>"), max_leaves=30))
def test_random_markup_parses_or_fails_clearly(markup: str) -> None:
    try:
        doc = parse_html(f"<html><body>{markup}</body></html>")
    except ParseError as e:
        assert "\n" not in str(e)
        return
    assert all(doc.text[b.start:b.end] == b.text for b in doc.blocks)


# --- Markdown and plain text -----------------------------------------------------------------------

MD_LINE = st.one_of(
    PROSE, PROSE.map(lambda p: "# " + p), PROSE.map(lambda p: "- " + p), PROSE.map(lambda p: "> " + p),
    PROSE.map(lambda p: "1. " + p), PROSE.map(lambda p: f"**{p}**"), st.just(""), st.just("---"),
    st.lists(WORD, min_size=2, max_size=4).map(lambda c: "| " + " | ".join(c) + " |"), st.just("|---|---|"),
    st.text(max_size=30))
_LETTERS = re.compile(r"[^\W\d_]+")


@budget(60)
@given(st.lists(MD_LINE, max_size=25))
def test_markdown_keeps_every_word(lines: list[str]) -> None:
    body = "\n".join(lines)
    data = ("# Notes\n\n" + body + "\n").encode("utf-8", "surrogatepass")
    try:
        doc = parse_bytes(data, kind="text", url="file:///tmp/notes.md", limits=LIMITS, warnings=[], name="notes.md")
    except ParseError as e:
        assert str(e).startswith("notes.md")
        return
    text = doc.text
    for word in _LETTERS.findall(body.replace("\x00", "")):
        assert word in text or not word.isprintable(), word


@budget(40)
@given(st.lists(MD_LINE, min_size=1, max_size=8), EDITS, st.sampled_from([".md", ".txt", ".html"]))
def test_damaged_local_files_read_or_fail_naming_the_file(lines: list[str], edits: list[tuple[int, int, bytes]],
                                                          suffix: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"doc{suffix}"
        seed = ("---\ntitle: T\nurl: https://x.example/a\n---\n" + "\n".join(lines)).encode("utf-8", "replace")
        path.write_bytes(_splice(seed, edits))
        warnings: list[str] = []
        try:
            doc = parse_file(path, limits=LIMITS, warnings=warnings)
        except ParseError as e:
            assert str(e).startswith(str(path)) and "\n" not in str(e)
            return
        assert doc.id.startswith("S-") and doc.text.strip()
        assert all(w.startswith(str(path)) for w in warnings)


# --- PDF -------------------------------------------------------------------------------------------

PDF_WORD = st.sampled_from(["Kafka", "sustained", "throughput", "brokers", "latency", "benchmark", "cluster",
                            "605", "MB/s", "12%", "replication", "partition"])
PDF_PARA = st.lists(PDF_WORD, min_size=3, max_size=12).map(" ".join)


def _pdf(pages: list[list[str]], title: str) -> bytes:
    """Each paragraph starts with a word (of letters) naming its page and place: a line repeated at the top or bottom of
    most pages is a running header by design (pdf_layout.drop_running_lines), which is not what is tested."""
    pdf = FPDF()
    pdf.set_title(title)
    pdf.set_font("Helvetica", size=11)
    for n, paras in enumerate(pages):
        pdf.add_page()
        for i, para in enumerate(paras):
            pdf.multi_cell(0, 6, f"Part{chr(65 + n)}{chr(97 + i)} {para}")  # letters: digits are masked
            pdf.ln(6)
    return bytes(pdf.output())


@budget(20)
@given(st.lists(st.lists(PDF_PARA, min_size=1, max_size=3), min_size=1, max_size=3), PDF_PARA)
def test_pdf_keeps_every_word_and_page_offsets(pages: list[list[str]], title: str) -> None:
    doc = parse_pdf(_pdf(pages, title))
    words = doc.text.split()
    for paras in pages:
        for para in paras:
            for w in para.split():
                assert w in words, w
    assert [s.page_no for s in doc.pages] == list(range(1, len(pages) + 1))
    for span in doc.pages:
        assert doc.page_at(span.start) == span.page_no
    assert all(doc.text[b.start:b.end] == b.text for b in doc.blocks)
    assert doc.title == title


@budget(40)
@given(st.lists(st.lists(PDF_PARA, min_size=1, max_size=2), min_size=1, max_size=2), EDITS)
def test_damaged_pdf_parses_or_fails_clearly(pages: list[list[str]], edits: list[tuple[int, int, bytes]]) -> None:
    data = _splice(_pdf(pages, "T"), edits)
    try:
        doc = parse_bytes(data, kind="pdf", url="https://fuzz.example/p.pdf", limits=LIMITS, warnings=[],
                          name="paper.pdf")
    except ParseError as e:
        assert str(e).startswith("paper.pdf") and "\n" not in str(e)
        return
    assert doc.text.strip()
    assert all(0 <= a <= b <= len(doc.text) for _n, a, b in doc.pages)
