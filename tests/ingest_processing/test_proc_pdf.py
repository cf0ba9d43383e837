from __future__ import annotations

import re

import pytest
from pdf_factory import (
    _Paper,
    blank_doc,
    column_text,
    encrypted_doc,
    single_column_doc,
    two_column_paper,
)

from openresearch.errors import ParseError
from openresearch.ingest.pdf import parse_pdf
from openresearch.ingest.pdf_layout import (
    Fragment,
    PageLayout,
    drop_running_lines,
    find_gutter,
    reading_order,
)


def test_two_column_paper_reads_column_one_before_column_two() -> None:
    doc = parse_pdf(two_column_paper(pages=3))
    text = doc.text
    markers = re.findall(r"P\dC\dpara\d(?= begins)", text)
    expected = [f"P{p}C{c}para{i}" for p in (1, 2, 3) for c in (1, 2) for i in range(3)]
    assert markers == expected
    assert text.startswith("A Study of Column Order\n\nP1C1para0 begins here.")
    # Paragraphs come back whole: justified lines split by pdfminer are rejoined in order.
    for page in (1, 2, 3):
        for column in (1, 2):
            for para in column_text(page, column):
                assert para in text


def test_running_header_footer_and_page_numbers_are_dropped() -> None:
    doc = parse_pdf(two_column_paper(pages=3))
    assert _Paper.running_header not in doc.text
    assert "Preprint" not in doc.text
    assert not re.search(r"(^|\n)\d+($|\n)", doc.text)


def test_pages_map_offsets_to_page_numbers() -> None:
    doc = parse_pdf(two_column_paper(pages=3))
    assert [p.page_no for p in doc.pages] == [1, 2, 3]
    assert doc.pages[0].start == 0 and doc.pages[-1].end == len(doc.text)
    for span in doc.pages:
        page_text = doc.text[span.start : span.end]
        assert page_text.startswith(("A Study", f"P{span.page_no}C1para0"))
        assert page_text.endswith(f"End of P{span.page_no}C2para2.")
    offset = doc.text.index("P2C2para1")
    assert doc.page_at(offset) == 2
    assert doc.page_at(len(doc.text) + 5) is None
    for block in doc.blocks:
        assert doc.text[block.start : block.end] == block.text


def test_single_column_document() -> None:
    paras = [
        "Knowledge graphs store facts as nodes and relations, which makes multi-hop questions cheap to ask.",
        "A second paragraph explains that every quote keeps its character offsets into the stored text.",
        "The third and last paragraph is short.",
    ]
    doc = parse_pdf(single_column_doc(paras))
    assert doc.text == "\n\n".join(paras)
    assert doc.method == "pdf" and doc.lang == "en"
    assert [(p.page_no, p.start, p.end) for p in doc.pages] == [(1, 0, len(doc.text))]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "not a PDF"),
        (b"<html>not a pdf</html>", "not a PDF"),
        (
            b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF",
            "PDF",
        ),
        (two_column_paper(pages=1)[:600], "malformed PDF"),
    ],
)
def test_malformed_pdfs_raise_parse_error(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_pdf(data)


def test_encrypted_pdf_needs_the_password() -> None:
    data = encrypted_doc("Confidential quarterly figures.", user_password="s3cret")
    with pytest.raises(ParseError, match="password"):
        parse_pdf(data)
    assert parse_pdf(data, password="s3cret").text == "Confidential quarterly figures."


def test_pdf_without_text_raises_parse_error() -> None:
    with pytest.raises(ParseError, match="no extractable text"):
        parse_pdf(blank_doc())


def _frag(text: str, x0: float, y: float, x1: float) -> Fragment:
    return Fragment(text=text, x0=x0, y0=y, x1=x1, y1=y + 10)


def test_gutter_detection_on_plain_fragments() -> None:
    two = [_frag(f"l{i}", 50, 700 - 14 * i, 280) for i in range(8)]
    two += [_frag(f"r{i}", 315, 700 - 14 * i, 550) for i in range(8)]
    page = PageLayout(page_no=1, width=595, height=842, fragments=two)
    gutter = find_gutter(page)
    assert gutter is not None and 280 <= gutter <= 315
    one = [_frag(f"line {i}", 50, 700 - 14 * i, 550 - (i % 3) * 40) for i in range(12)]
    assert find_gutter(PageLayout(page_no=1, width=595, height=842, fragments=one)) is None


def test_running_lines_need_to_repeat_on_most_pages() -> None:
    def page(no: int, header: str) -> PageLayout:
        body = [_frag(f"body text {no} {i}", 50, 600 - 14 * i, 500) for i in range(5)]
        return PageLayout(page_no=no, width=595, height=842, fragments=[_frag(header, 200, 810, 400), *body])

    pages = drop_running_lines(
        [page(1, "Unique title line"), page(2, "Annals 2024, p. 2"), page(3, "Annals 2024, p. 3")]
    )
    assert next(f.text for f in pages[0].fragments) == "Unique title line"
    assert all(not f.text.startswith("Annals") for p in pages[1:] for f in p.fragments)


def test_full_width_lines_cut_the_columns_into_bands() -> None:
    def col(tag: str, x0: float, x1: float, ys: range) -> list[Fragment]:
        return [_frag(f"{tag}{y}", x0, y, x1) for y in ys]

    frags = [
        _frag("TITLE", 60, 780, 540),
        *col("L", 50, 280, range(700, 640, -14)),
        *col("R", 315, 550, range(700, 640, -14)),
        _frag("FIGURE CAPTION", 50, 600, 550),
        *col("L", 50, 280, range(560, 500, -14)),
        *col("R", 315, 550, range(560, 500, -14)),
    ]
    page = PageLayout(page_no=1, width=595, height=842, fragments=frags[::-1])  # input order is irrelevant
    order = [row[0].text for block in reading_order(page) for row in block]
    assert order == [
        "TITLE",
        *(f"L{y}" for y in range(700, 640, -14)),
        *(f"R{y}" for y in range(700, 640, -14)),
        "FIGURE CAPTION",
        *(f"L{y}" for y in range(560, 500, -14)),
        *(f"R{y}" for y in range(560, 500, -14)),
    ]


def test_digit_shaped_first_lines_are_content_unless_they_count_pages_or_repeat() -> None:
    def page(no: int, top: str, bottom: str | None = None) -> PageLayout:
        body = [_frag(f"body text {no} {i}", 50, 600 - 14 * i, 500) for i in range(5)]
        extra = [_frag(bottom, 290, 30, 310)] if bottom else []
        return PageLayout(page_no=no, width=595, height=842, fragments=[_frag(top, 50, 810, 400), *body, *extra])

    def tops(pages: list[PageLayout]) -> list[str]:
        return [f.text for p in drop_running_lines(pages) for f in p.fragments if f.y0 >= 800 or f.y0 <= 40]

    # a figure or a table row at the top of a page, alone or on two pages: kept
    assert tops([page(1, "605")]) == ["605"]
    assert tops([page(1, "2024 revenue 12%"), page(2, "2023 revenue 15%")]) == ["2024 revenue 12%",
                                                                               "2023 revenue 15%"]
    assert tops([page(1, "605"), page(2, "Kafka results"), page(3, "1200")]) == ["605", "Kafka results", "1200"]
    # numbers that count pages (a reprint starting at page 3), at the foot: dropped; the tops stay
    assert tops([page(i, f"Part {chr(64 + i)} text", str(i + 2)) for i in (1, 2, 3)]) == [
        "Part A text", "Part B text", "Part C text"]
    assert tops([page(1, "Kafka results", "1")]) == ["Kafka results"]
