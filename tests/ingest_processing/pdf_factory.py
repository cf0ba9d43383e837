"""Builds PDFs with fpdf2 so the PDF tests read real files whose layout the test controls."""

from __future__ import annotations

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
