"""PDF -> ParsedDocument with pdfminer.six: reading order, no running headers, page offsets kept.

pdfminer's own box ordering (boxes_flow) interleaves columns on many papers, so only its line
geometry is used and the order is rebuilt in pdf_layout.
"""

from __future__ import annotations

import io
import logging
import re
import time
import types
import zlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pdfminer.ascii85 import ascii85decode, asciihexdecode
from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LAParams, LTPage, LTTextBox, LTTextLine
from pdfminer.lzw import lzwdecode
from pdfminer.pdfdocument import PDFDocument, PDFPasswordIncorrect
from pdfminer.pdfinterp import PDFGraphicState, PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser
from pdfminer.pdftypes import (
    LITERALS_ASCII85_DECODE,
    LITERALS_ASCIIHEX_DECODE,
    LITERALS_DCT_DECODE,
    LITERALS_FLATE_DECODE,
    LITERALS_JBIG2_DECODE,
    LITERALS_JPX_DECODE,
    LITERALS_LZW_DECODE,
    LITERALS_RUNLENGTH_DECODE,
    PDFStream,
    resolve1,
)
from pdfminer.psparser import LIT, PSLiteral
from pdfminer.runlength import rldecode
from pdfminer.utils import PathSegment, apply_png_predictor, apply_tiff_predictor

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


def _inflate_steps(raw: bytes) -> Iterator[bytes]:
    """The Flate stream `raw` inflated in steps of at most 1 MB; ends at the end of the zlib stream (whatever
    follows it, such as the end-of-line before `endstream`, is ignored) or where the data stops being Flate (a
    truncated or corrupt stream gives what inflated before the damage, as pdfminer's own fallback does).

    The loop ends on the decompressor's state, not on `unconsumed_tail` running dry: once the stream has ended,
    CPython's zlib leaves the trailing bytes in `unconsumed_tail` for ever (3.11: 2 MB of zeros then "\n"
    looped at 100% CPU), so each step must also make progress.
    """
    inflater = zlib.decompressobj()
    chunk = raw
    try:
        while not inflater.eof:
            out = inflater.decompress(chunk, _INFLATE_STEP)
            tail = inflater.unconsumed_tail
            if not out and len(tail) == len(chunk):
                return  # no input used and nothing out: a truncated stream
            chunk = tail
            yield out
    except zlib.error:
        return  # not Flate from here on (an image codec, a broken stream)


def inflated_size(raw: bytes, limit: int) -> int:
    """How many bytes the Flate stream `raw` inflates to, counted in 1 MB steps and thrown away; stops once
    `limit` is reached (the count is then >= `limit`)."""
    size = 0
    for out in _inflate_steps(raw):
        size += len(out)
        if size >= limit:
            break
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
            raise _stream_refused(max_stream)
        if total > max_total:
            raise _document_refused(max_total)


def _stream_refused(max_stream: int) -> ParseError:
    return ParseError(f"a PDF stream inflates to more than {max_stream:,} bytes "
                      "(OPENRESEARCH_MAX_PDF_PAGE_INFLATED_BYTES): refused as a decompression bomb")


def _document_refused(max_total: int) -> ParseError:
    return ParseError(f"the PDF's streams inflate to more than {max_total:,} bytes "
                      "(OPENRESEARCH_MAX_PDF_INFLATED_BYTES): refused as a decompression bomb")


class _OutOfTime(Exception):
    """The parse's time budget ran out; caught in _open and _layouts, never leaves this module."""


class _Budget:
    """What one parse may still spend: inflated bytes (per stream, per document) and wall-clock seconds."""

    def __init__(self, max_total: int, max_stream: int, seconds: float) -> None:
        self.max_total, self.max_stream, self.seconds = max_total, max_stream, seconds
        self.deadline = time.monotonic() + seconds
        self.inflated = 0
        self._ticks = 0
        self._expired = False

    def check(self) -> None:
        """Raise _OutOfTime past the deadline, and on every later call (pdfminer swallows some exceptions)."""
        if self._expired or time.monotonic() > self.deadline:
            self._expired = True
            raise _OutOfTime

    def tick(self) -> None:
        """A cheap check for hot loops (two per content-stream operator): the clock is read every 256 calls."""
        self._ticks += 1
        if self._expired or not self._ticks & 0xFF:
            self.check()

    def inflate(self, raw: bytes) -> bytes:
        """`raw` inflated, charged to the per-stream and per-document limits (ParseError past either)."""
        parts: list[bytes] = []
        size = 0
        for out in _inflate_steps(raw):
            size += len(out)
            if size > self.max_stream:
                raise _stream_refused(self.max_stream)
            if self.inflated + size > self.max_total:
                raise _document_refused(self.max_total)
            parts.append(out)
            self.check()
        self.inflated += size
        return b"".join(parts)


_IMAGE = LIT("Image")
_PASS_THROUGH = (*LITERALS_DCT_DECODE, *LITERALS_JBIG2_DECODE, *LITERALS_JPX_DECODE)  # image codecs, left encoded
_DECODERS: dict[object, Callable[[bytes], bytes]] = {
    **dict.fromkeys(LITERALS_LZW_DECODE, lzwdecode),
    **dict.fromkeys(LITERALS_ASCII85_DECODE, ascii85decode),
    **dict.fromkeys(LITERALS_ASCIIHEX_DECODE, asciihexdecode),
    **dict.fromkeys(LITERALS_RUNLENGTH_DECODE, rldecode),
}


def _int(params: dict[str, Any], key: str, default: int) -> int:
    value = resolve1(params.get(key, default))
    return value if isinstance(value, int) else default


def _decode_bounded(stream: PDFStream, budget: _Budget) -> None:
    """Decode a stream with Flate in its filter chain the way pdfminer would, but inflating through the budget.

    pdfminer inflates with one zlib.decompress (a stream under a second Flate filter, or in an encrypted file,
    escaped the check on the raw bytes and could take GBs) and retries a corrupt one byte by byte with
    quadratic copying (minutes). Chains with a filter handled here only by pdfminer (CCITT, Crypt, unknown) are
    left to it: they are images or errors, never text.
    """
    if resolve1(stream.attrs.get("Subtype")) is _IMAGE:
        return  # text extraction never decodes an image (check_inflated bounded its raw Flate): keep it packed
    filters = stream.get_filters()
    if not any(f in LITERALS_FLATE_DECODE for f, _ in filters):
        return  # nothing to inflate: pdfminer decodes it on demand, bounded by the file's own size
    data = stream.rawdata
    if data is None:
        return
    if stream.decipher:
        if stream.objid is None or stream.genno is None:
            return  # pdfminer's own decode refuses this one
        data = stream.decipher(stream.objid, stream.genno, data, stream.attrs)
    for f, params in filters:
        if f in LITERALS_FLATE_DECODE:
            data = budget.inflate(data)
        elif f in _DECODERS:
            data = _DECODERS[f](data)
        elif f not in _PASS_THROUGH:
            return
        if not isinstance(params, dict) or "Predictor" not in params:
            continue
        predictor = _int(params, "Predictor", 1)
        colors, columns = _int(params, "Colors", 1), _int(params, "Columns", 1)
        bits = _int(params, "BitsPerComponent", 8)
        if predictor == 2:
            data = apply_tiff_predictor(colors, columns, bits, data)
        elif predictor >= 10:
            data = apply_png_predictor(predictor, colors, columns, bits, data)
        elif predictor != 1:
            return  # pdfminer raises its own error for an unknown predictor
    stream.data, stream.rawdata = data, None


class _BoundedDocument(PDFDocument):
    """A PDFDocument whose streams are inflated through a _Budget as they are first fetched.

    Every stream pdfminer reads for text (page contents, form XObjects, fonts, CMaps, object streams) is an
    indirect object fetched with getobj; only cross-reference streams, read while the document opens, are not,
    and check_inflated has already bounded those.
    """

    def __init__(self, parser: PDFParser, password: str, budget: _Budget) -> None:
        self.budget = budget
        super().__init__(parser, password=password)

    def getobj(self, objid: int) -> object:
        obj = super().getobj(objid)
        if isinstance(obj, PDFStream) and obj.data is None and obj.rawdata is not None:
            _decode_bounded(obj, self.budget)
        return obj


class _TextAggregator(PDFPageAggregator):
    """pdfminer's layout collector for text only (paths are not kept), holding the budget the interpreter
    checks and the page being read, so a page cut short by the deadline can still give the text read so far."""

    def __init__(self, manager: PDFResourceManager, budget: _Budget) -> None:
        super().__init__(manager, laparams=LAParams())
        self.budget = budget
        self.page_item: LTPage | None = None

    def begin_page(self, page: PDFPage, ctm: Any) -> None:
        super().begin_page(page, ctm)
        self.page_item = self.cur_item if isinstance(self.cur_item, LTPage) else None

    def paint_path(self, gstate: PDFGraphicState, stroke: bool, fill: bool, evenodd: bool,
                   path: Sequence[PathSegment]) -> None:
        self.budget.tick()  # lines and curves are never read: skipping them saves a fifth of the time

    def partial_page(self) -> LTPage | None:
        """The page being read when the deadline hit, laid out with what it holds so far."""
        page, self.page_item = self.page_item, None
        if page is not None and self.laparams is not None:
            page.analyze(self.laparams)
        return page


class _Checked:
    """An interpreter operator (`do_Tj`, `do_q`, ...) that ticks the budget each time the interpreter looks it
    up, which it does once per operator in a content stream; the bound method itself is returned unchanged
    (pdfminer reads its `__code__` to count the operands)."""

    def __init__(self, func: Callable[..., None]) -> None:
        self.func = func

    def __get__(self, obj: object, owner: type | None = None) -> Callable[..., None]:
        if obj is None:
            return self.func
        device = getattr(obj, "device", None)
        if isinstance(device, _TextAggregator):
            device.budget.tick()
        return types.MethodType(self.func, obj)


class _TimedInterpreter(PDFPageInterpreter):
    """pdfminer's interpreter with the deadline checked on every operator, known or not: a content stream of
    20 MB takes about a minute to interpret, so it is the step that needs a clock."""

    def __getattr__(self, name: str) -> Any:
        # reached only for names the class lacks, i.e. unknown operators in a content stream
        device = self.__dict__.get("device")
        if name.startswith("do_") and isinstance(device, _TextAggregator):
            device.budget.tick()
        raise AttributeError(name)


for _name in [n for n in dir(PDFPageInterpreter) if n.startswith("do_")]:
    setattr(_TimedInterpreter, _name, _Checked(getattr(PDFPageInterpreter, _name)))


def _out_of_time(budget: _Budget, what: str) -> ParseError:
    return ParseError(f"{what} took more than {budget.seconds:g} s (OPENRESEARCH_MAX_PDF_SECONDS): "
                      "stopped with no text read")


def _open(data: bytes, password: str, budget: _Budget) -> PDFDocument:
    if not data.lstrip()[:5].startswith(b"%PDF-"):
        raise ParseError("not a PDF: the file does not start with %PDF-")
    try:
        return _BoundedDocument(PDFParser(io.BytesIO(data)), password, budget)
    except PDFPasswordIncorrect as exc:
        raise ParseError("encrypted PDF: it needs a password to open") from exc
    except ParseError:
        raise  # a decompression bomb, refused by the budget
    except _OutOfTime:
        raise _out_of_time(budget, "opening the PDF") from None
    except Exception as exc:  # pdfminer raises a zoo of types (PSEOF, KeyError, ...) on broken files
        raise ParseError(f"malformed PDF: {type(exc).__name__}: {exc}") from exc


def _page_layout(number: int, layout: LTPage) -> PageLayout:
    return PageLayout(page_no=number, width=layout.width, height=layout.height, fragments=_fragments(layout))


def _layouts(doc: PDFDocument, max_pages: int | None, budget: _Budget, warnings: list[str]) -> list[PageLayout]:
    """The pages' text lines; past the budget's deadline, the pages read so far, the one being read cut short
    where the clock stopped it, and a warning."""
    manager = PDFResourceManager()
    device = _TextAggregator(manager, budget)
    interpreter = _TimedInterpreter(manager, device)
    pages: list[PageLayout] = []
    number = 0
    try:
        for number, page in enumerate(PDFPage.create_pages(doc), start=1):
            if max_pages is not None and number > max_pages:
                break
            budget.check()
            interpreter.process_page(page)
            pages.append(_page_layout(number, device.get_result()))
            device.page_item = None
    except ParseError:
        raise  # a decompression bomb, refused by the budget
    except _OutOfTime:
        if (partial := device.partial_page()) is not None:
            pages.append(_page_layout(number, partial))
        if not any(p.fragments for p in pages):
            raise _out_of_time(budget, "reading the PDF") from None
        warnings.append(f"PDF reading stopped after {budget.seconds:g} s on page {number} "
                        "(OPENRESEARCH_MAX_PDF_SECONDS): only the text read before then is kept")
        log.warning("PDF reading stopped after %g s on page %d", budget.seconds, number)
    except Exception as exc:  # same zoo as in _open, raised lazily while pages are read
        raise ParseError(f"malformed PDF: {type(exc).__name__}: {exc}") from exc
    return pages


def parse_pdf(data: bytes, *, password: str = "", max_pages: int | None = None,
              max_inflated_bytes: int = 200_000_000, max_stream_inflated_bytes: int = 50_000_000,
              max_seconds: float = 8.0, warnings: list[str] | None = None) -> ParsedDocument:
    """Text in reading order with one PageSpan per page.

    Every step is bounded: `max_pages` bounds work on huge files; the inflated byte limits (per stream, per
    document) refuse decompression bombs with a ParseError, in a check of the raw file and again as pdfminer
    decodes each stream; after `max_seconds` reading stops, keeping the text read so far and adding a line to
    `warnings` (a ParseError if no text was read by then)."""
    if not data.lstrip()[:5].startswith(b"%PDF-"):
        raise ParseError("not a PDF: the file does not start with %PDF-")
    budget = _Budget(max_inflated_bytes, max_stream_inflated_bytes, max_seconds)
    check_inflated(data, max_inflated_bytes, max_stream_inflated_bytes)
    doc = _open(data, password, budget)
    pages = drop_running_lines(_layouts(doc, max_pages, budget, warnings if warnings is not None else []))
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
