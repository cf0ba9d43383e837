"""Builds PDFs with fpdf2 so the PDF tests read real files whose layout the test controls."""

from __future__ import annotations

import zlib
from typing import Literal

from fpdf import FPDF


class _Paper(FPDF):
    """A page with a running header, a running footer and a page number, like a journal reprint."""

    running_header = "Journal of Synthetic Results, Vol. 12"
    running_footer = "Preprint - do not distribute"

    def header(self) -> None:
        self.set_font("Helvetica", size=8)
        self.cell(0, 6, self.running_header, align="C")
        self.ln(10)

    def footer(self) -> None:
        self.set_y(-15)
        self.set_font("Helvetica", size=8)
        self.cell(0, 5, self.running_footer, align="L")
        self.cell(0, 5, str(self.page_no()), align="R")


def column_text(page: int, column: int, paragraphs: int = 3) -> list[str]:
    """Paragraphs whose words name their page and column, so reading order is checkable."""
    out = []
    for p in range(paragraphs):
        marker = f"P{page}C{column}para{p}"
        body = " ".join(f"word{page}{column}{p}{i}" for i in range(40))
        out.append(f"{marker} begins here. {body}. End of {marker}.")
    return out


def two_column_paper(pages: int = 3, title: str = "A Study of Column Order") -> bytes:
    pdf = _Paper(format="A4")
    pdf.set_auto_page_break(False)
    col_w, gutter, left = 85.0, 10.0, 15.0
    for page in range(1, pages + 1):
        pdf.add_page()
        top = 30.0
        if page == 1:
            # A full-width title spanning both columns, read before either column.
            pdf.set_font("Helvetica", "B", 16)
            pdf.set_xy(left, top)
            pdf.cell(col_w * 2 + gutter, 10, title, align="C")
            top += 18
        pdf.set_font("Helvetica", size=10)
        for column, x in ((1, left), (2, left + col_w + gutter)):
            pdf.set_xy(x, top)
            for para in column_text(page, column):
                pdf.set_x(x)
                pdf.multi_cell(col_w, 5, para)
                pdf.ln(4)
    return bytes(pdf.output())


def single_column_doc(paragraphs: list[str]) -> bytes:
    pdf = FPDF(format="A4")
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    for para in paragraphs:
        pdf.multi_cell(0, 6, para)
        pdf.ln(5)
    return bytes(pdf.output())


def encrypted_doc(text: str, user_password: str) -> bytes:
    pdf = FPDF()
    pdf.set_encryption(owner_password="owner-secret", user_password=user_password)
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, text)
    return bytes(pdf.output())


def blank_doc() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    return bytes(pdf.output())


def flate_stream_pdf(inflated: int, *, eol: bytes = b"\n", content: bool = False,
                     text: str = "Big stream marker sentence.",
                     packing: Literal["flate", "flate-twice", "truncated"] = "flate") -> bytes:
    """A one-page PDF, with a correct xref, holding one Flate stream that inflates to ``inflated`` bytes, ended by
    ``eol`` before ``endstream`` as most writers do.

    ``content=False``: the page shows ``text`` from a small content stream and the big stream is an image XObject
    of zeros (a large scan or photo). ``content=True``: the big stream is the page's content stream itself,
    ``text`` followed by vector drawing operators up to ``inflated`` bytes (a dense chart or map), Flate-packed
    once, twice (``/Filter [/FlateDecode /FlateDecode]``: the raw bytes inflate to little) or cut short at 3/4
    (a damaged download: zlib refuses it whole, pdfminer keeps what inflates).
    """
    shown = b"BT /F1 12 Tf 72 720 Td (%s) Tj ET\n" % text.encode("latin-1")
    packer = zlib.compressobj(6)
    if content:
        filler = b"q 0.5 w 10 10 m 200 200 l S Q\n"
        packed = packer.compress(shown + filler * max(0, (inflated - len(shown)) // len(filler))) + packer.flush()
        flate = b"/FlateDecode"
        if packing == "flate-twice":
            packed, flate = zlib.compress(packed, 9), b"[/FlateDecode /FlateDecode]"
        elif packing == "truncated":
            packed = packed[: len(packed) * 3 // 4]
        page = b"<< /Length %d /Filter %s >>\nstream\n%s%sendstream" % (len(packed), flate, packed, eol)
        xobject = b"<< /Type /XObject /Subtype /Form /BBox [0 0 1 1] /Length 0 >>\nstream\n\nendstream"
    else:
        zeros = bytes(1 << 20)
        parts = [packer.compress(zeros) for _ in range(inflated >> 20)]
        parts.append(packer.compress(bytes(inflated & ((1 << 20) - 1))))
        packed = b"".join(parts) + packer.flush()
        shown += b"q 100 0 0 100 72 500 cm /Im1 Do Q\n"
        page = b"<< /Length %d >>\nstream\n%s%sendstream" % (len(shown), shown, eol)
        side = max(1, int(inflated**0.5))
        xobject = (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                   b"/BitsPerComponent 8 /Length %d /Filter /FlateDecode >>\nstream\n%s%sendstream"
                   % (side, side, len(packed), packed, eol))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >> >>",
        page,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        xobject,
    ]
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, obj)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
