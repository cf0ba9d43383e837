"""PDF -> ParsedDocument with pdfminer.six: reading order, no running headers, page offsets kept.

pdfminer's own box ordering (boxes_flow) interleaves columns on many papers, so only its line
geometry is used and the order is rebuilt in pdf_layout.
"""

from __future__ import annotations

import io
import logging
import re
import zlib

from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LAParams, LTPage, LTTextBox, LTTextLine
from pdfminer.pdfdocument import PDFDocument, PDFPasswordIncorrect
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser
from pdfminer.pdftypes import resolve1
from pdfminer.psparser import PSLiteral

from openresearch.errors import ParseError
from openresearch.ingest.metadata import parse_date
from openresearch.ingest.parsed import Block, PageSpan, ParsedDocument
from openresearch.ingest.pdf_layout import Fragment, PageLayout, drop_running_lines, page_paragraphs
from openresearch.ingest.textnorm import collapse, guess_lang

log = logging.getLogger(__name__)
_AUTHOR_SPLIT = re.compile(r"\s*(?:;|,\s*and\s|\band\b|,|&)\s*")


def _fragments(page: LTPage) -> list[Fragment]:
    out = []
    for box in page:
        if not isinstance(box, LTTextBox):
            continue
        for line in box:
            if isinstance(line, LTTextLine) and (text := line.get_text().strip()):
                out.append(Fragment(text=text, x0=line.x0, y0=line.y0, x1=line.x1, y1=line.y1))
    return out


def _info_text(value: object) -> str | None:
    """A document-info string, or None for anything malformed (a reference loop, a number, odd UTF-16)."""
    try:
        value = resolve1(value)
    except Exception:  # a broken or circular reference: no title rather than no document
        return None
    if isinstance(value, PSLiteral):
        value = value.name
    if isinstance(value, bytes):
        # PDF text strings are UTF-16 with a BOM, or PDFDocEncoding (close enough to Latin-1).
        utf16 = value[:2] in (b"\xfe\xff", b"\xff\xfe")
        value = value.decode("utf-16", "replace") if utf16 else value.decode("latin-1")
    if not isinstance(value, str):
        return None
    text = collapse(value.replace("\x00", " "))
    return text[:1000] or None


_STREAM = re.compile(rb"stream\r?\n")
_INFLATE_STEP = 1 << 20


def inflated_size(raw: bytes, limit: int) -> int:
    """How many bytes the Flate stream `raw` inflates to, counted in 1 MB steps and thrown away; stops once
    `limit` is reached (the count is then >= `limit`), at the end of the zlib stream (whatever follows it, such
    as the end-of-line before `endstream`, is ignored), or where the data stops being Flate.

    The loop ends on the decompressor's own state, not on `unconsumed_tail` running dry: once the stream has
    ended, CPython's zlib leaves the trailing bytes in `unconsumed_tail` for ever (3.11: 2 MB of zeros plus
    "\n" looped at 100% CPU), so each step must also make progress.
    """
    inflater = zlib.decompressobj()
    chunk = raw
    size = 0
    try:
        while not inflater.eof and size < limit:
            out = inflater.decompress(chunk, _INFLATE_STEP)
            tail = inflater.unconsumed_tail
            if not out and len(tail) == len(chunk):
                break  # no input used and nothing out: a truncated stream
            size += len(out)
            chunk = tail
    except zlib.error:
        pass  # not Flate from here on (an image codec, a broken stream): count what inflated before
    return size


def check_inflated(data: bytes, max_total: int, max_stream: int) -> None:
    """Refuse a PDF whose Flate streams inflate past the limits, before pdfminer inflates any of them.

    pdfminer inflates a stream whole, in memory: 1 MB of streams that inflate to 1 GB took 2.1 GB. Here
    each stream is inflated in 1 MB steps and thrown away, so the check itself stays small.
    """
    total = 0
    pos = 0
    while (m := _STREAM.search(data, pos)) is not None:
        start = m.end()
        end = data.find(b"endstream", start)
        if end < 0:
            end = len(data)
        pos = end + 9
        size = inflated_size(data[start:end], min(max_stream, max_total - total) + 1)
        total += size
        if size > max_stream:
            raise ParseError(f"a PDF stream inflates to more than {max_stream:,} bytes "
                             "(OPENRESEARCH_MAX_PDF_PAGE_INFLATED_BYTES): refused as a decompression bomb")
        if total > max_total:
            raise ParseError(f"the PDF's streams inflate to more than {max_total:,} bytes "
                             "(OPENRESEARCH_MAX_PDF_INFLATED_BYTES): refused as a decompression bomb")


def _open(data: bytes, password: str) -> PDFDocument:
    if not data.lstrip()[:5].startswith(b"%PDF-"):
        raise ParseError("not a PDF: the file does not start with %PDF-")
    try:
        return PDFDocument(PDFParser(io.BytesIO(data)), password=password)
    except PDFPasswordIncorrect as exc:
        raise ParseError("encrypted PDF: it needs a password to open") from exc
    except Exception as exc:  # pdfminer raises a zoo of types (PSEOF, KeyError, ...) on broken files
        raise ParseError(f"malformed PDF: {type(exc).__name__}: {exc}") from exc


def _layouts(doc: PDFDocument, max_pages: int | None) -> list[PageLayout]:
    manager = PDFResourceManager()
    device = PDFPageAggregator(manager, laparams=LAParams())
    interpreter = PDFPageInterpreter(manager, device)
    pages = []
    try:
        for number, page in enumerate(PDFPage.create_pages(doc), start=1):
            if max_pages is not None and number > max_pages:
                break
            interpreter.process_page(page)
            layout = device.get_result()
            pages.append(
                PageLayout(
                    page_no=number, width=layout.width, height=layout.height, fragments=_fragments(layout)
                )
            )
    except Exception as exc:  # same zoo as in _open, raised lazily while pages are read
        raise ParseError(f"malformed PDF: {type(exc).__name__}: {exc}") from exc
    return pages


def parse_pdf(data: bytes, *, password: str = "", max_pages: int | None = None,
              max_inflated_bytes: int = 200_000_000, max_stream_inflated_bytes: int = 50_000_000) -> ParsedDocument:
    """Text in reading order with one PageSpan per page; `max_pages` bounds work on huge files, the inflated
    byte limits bound memory on decompression bombs (ParseError)."""
    if not data.lstrip()[:5].startswith(b"%PDF-"):
        raise ParseError("not a PDF: the file does not start with %PDF-")
    check_inflated(data, max_inflated_bytes, max_stream_inflated_bytes)
    doc = _open(data, password)
    pages = drop_running_lines(_layouts(doc, max_pages))
    parts: list[str] = []
    blocks: list[Block] = []
    spans: list[PageSpan] = []
    pos = 0
    for page in pages:
        paragraphs = page_paragraphs(page)
        if not paragraphs:
            continue  # blank or image-only page: nothing to cite on it
        if parts:
            pos += 2
        page_start = pos
        for i, para in enumerate(paragraphs):
            if i:
                pos += 2
            blocks.append(Block(text=para, start=pos, end=pos + len(para)))
            pos += len(para)
        parts.append("\n\n".join(paragraphs))
        spans.append(PageSpan(page_no=page.page_no, start=page_start, end=pos))
    text = "\n\n".join(parts)
    if not text:
        raise ParseError("PDF has no extractable text (empty, or scanned images without OCR)")
    try:
        info = resolve1(doc.info[0]) if doc.info else {}
    except Exception:
        info = {}
    if not isinstance(info, dict):
        info = {}
    title = _info_text(info.get("Title"))
    author = _info_text(info.get("Author"))
    return ParsedDocument(
        title=title,
        authors=[a for a in _AUTHOR_SPLIT.split(author) if a] if author else [],
        # The creation date is the closest a bare PDF gets to a publication date ("D:20230501...").
        published_at=parse_date((_info_text(info.get("CreationDate")) or "").removeprefix("D:")),
        text=text,
        blocks=blocks,
        lang=guess_lang(text),
        pages=spans,
        method="pdf",
    )
