"""Pure layout logic for PDFs: running headers/footers, column order, lines into paragraphs.

Works on plain line fragments (text + bounding box in PDF points, origin bottom-left), so it is
tested without pdfminer; pdf.py turns pdfminer's layout into these.
"""

from __future__ import annotations

import re
from collections import Counter
from statistics import median

from pydantic import BaseModel

_PAGE_NUMBER = re.compile(
    r"^(?:page|p\.|第)?\s*[-–—]?\s*(?:\d{1,4}|[ivxlcdm]{1,6})\s*[-–—]?\s*(?:(?:/|of|共)\s*\d{1,4})?\s*(?:页)?$",
    re.I,
)
_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"})
_WS = re.compile(r"\s+")


class Fragment(BaseModel):
    """One text line as pdfminer found it; justified lines often arrive as several fragments."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    @property
    def height(self) -> float:
        return max(1.0, self.y1 - self.y0)


class PageLayout(BaseModel):
    page_no: int
    width: float
    height: float
    fragments: list[Fragment]


def _rows(fragments: list[Fragment]) -> list[list[Fragment]]:
    """Fragments grouped by baseline, top to bottom, each row left to right."""
    rows: list[list[Fragment]] = []
    for frag in sorted(fragments, key=lambda f: (-f.cy, f.x0)):
        if rows and abs(rows[-1][0].cy - frag.cy) <= 0.4 * min(rows[-1][0].height, frag.height):
            rows[-1].append(frag)
        else:
            rows.append([frag])
    return [sorted(row, key=lambda f: f.x0) for row in rows]


def _row_text(row: list[Fragment]) -> str:
    return _WS.sub(" ", " ".join(f.text for f in row)).strip()


def _key(text: str) -> str:
    # Page numbers and dates inside a running header change from page to page; the rest repeats.
    return re.sub(r"\d+", "#", _WS.sub("", text.lower()))


def _margin_rows(page: PageLayout, band: float, depth: int) -> list[tuple[str, list[Fragment]]]:
    rows = _rows(page.fragments)
    out: list[tuple[str, list[Fragment]]] = []
    for row in rows[:depth]:
        if row[0].y0 >= page.height * (1 - band):
            out.append(("top", row))
    for row in rows[::-1][:depth]:
        if row[0].y1 <= page.height * band:
            out.append(("bottom", row))
    return out


_DIGITS = re.compile(r"\d+")


def _numbering(numbers: list[tuple[int, int]], min_repeats: int, pages: int) -> set[int]:
    """The pages whose lone-number margin line is their page number, from (page_no, number) pairs: the number's
    offset from the page's own is shared by `min_repeats` pages ("3" on page 1 of a reprint that starts at page
    3); on a document of one page, the number is its page number. Anything else ("605" at the top of one page)
    is content."""
    if pages == 1:
        return {page_no for page_no, n in numbers if n == page_no}
    offsets = Counter(n - page_no for page_no, n in numbers)
    common = {o for o, c in offsets.items() if c >= min_repeats}
    return {page_no for page_no, n in numbers if n - page_no in common}


def drop_running_lines(pages: list[PageLayout], band: float = 0.1, depth: int = 2) -> list[PageLayout]:
    """Remove page-number lines and lines repeated in the top/bottom margin of most pages.

    A repeated line may change one number from page to page ("Annals 2024, p. 2", "Annals 2024, p. 3"); two
    lines that differ in more of their numbers ("2024 revenue 12%", "2023 revenue 15%") are content. A lone
    number is a page number only where it counts pages (`_numbering`)."""
    seen: Counter[tuple[str, str]] = Counter()
    groups: dict[tuple[str, str], set[tuple[str, ...]]] = {}
    numbers: dict[str, list[tuple[int, int]]] = {}
    for page in pages:
        keys: dict[tuple[str, str], tuple[str, ...]] = {}
        for where, row in _margin_rows(page, band, depth):
            text = _row_text(row)
            keys[(where, _key(text))] = tuple(_DIGITS.findall(text))
            if (lone := re.fullmatch(r"\D{0,8}?(\d{1,4})\D{0,8}", text)) and _PAGE_NUMBER.match(text):
                numbers.setdefault(where, []).append((page.page_no, int(lone.group(1))))
        seen.update(list(keys))  # each key once per page
        for k, digits in keys.items():
            groups.setdefault(k, set()).add(digits)
    min_repeats = max(2, (len(pages) + 1) // 2)
    counted = {where: _numbering(found, min_repeats, len(pages)) for where, found in numbers.items()}

    def running(where: str, text: str, page_no: int) -> bool:
        if _PAGE_NUMBER.match(text):
            return page_no in counted.get(where, set()) if _DIGITS.search(text) else True  # "iv", "xii"
        key = (where, _key(text))
        if seen[key] < min_repeats:
            return False
        variants = groups[key]
        lengths = {len(v) for v in variants}
        varying = sum(1 for i in range(min(lengths)) if len({v[i] for v in variants}) > 1) if lengths else 0
        return len(lengths) == 1 and varying <= 1

    out = []
    for page in pages:
        dropped: set[int] = set()
        for where, row in _margin_rows(page, band, depth):
            if running(where, _row_text(row), page.page_no):
                dropped.update(id(f) for f in row)
        kept = [f for f in page.fragments if id(f) not in dropped]
        out.append(page.model_copy(update={"fragments": kept}))
    return out


def find_gutter(page: PageLayout) -> float | None:
    """The x of the gap between two text columns, or None when the page reads as one column."""
    frags = page.fragments
    if len(frags) < 6:
        return None
    best: tuple[int, float, float] | None = None
    x = page.width * 0.3
    while x <= page.width * 0.7:
        crossing = sum(1 for f in frags if f.x0 < x < f.x1)
        candidate = (crossing, abs(x - page.width / 2), x)
        best = candidate if best is None or candidate < best else best
        x += 2.0
    assert best is not None
    gutter = best[2]
    left = sum(1 for f in frags if f.x1 <= gutter)
    right = sum(1 for f in frags if f.x0 >= gutter)
    # Both sides must carry real text, and full-width lines (titles, abstracts) must be the minority.
    if min(left, right) < 3 or min(left, right) < 0.25 * max(left, right) or best[0] > 0.5 * (left + right):
        return None
    return gutter


def reading_order(page: PageLayout) -> list[list[list[Fragment]]]:
    """Blocks of rows in reading order: spanning rows cut the page into bands, each band is read
    left column then right column."""
    gutter = find_gutter(page)
    if gutter is None:
        return [_rows(page.fragments)] if page.fragments else []
    spanning = [f for f in page.fragments if f.x0 < gutter < f.x1]
    groups: dict[tuple[int, int], list[Fragment]] = {}
    for frag in page.fragments:
        # Band = how many spanning lines sit above; within a band: left column, right column, then
        # the spanning line that closes the band (it has exactly `band` spanning lines above it).
        band = sum(1 for s in spanning if s.cy > frag.cy)
        side = 2 if frag.x0 < gutter < frag.x1 else (0 if frag.x1 <= gutter else 1)
        groups.setdefault((band, side), []).append(frag)
    return [_rows(groups[key]) for key in sorted(groups)]


def _join_lines(lines: list[str]) -> str:
    out = ""
    for line in lines:
        line = line.translate(_LIGATURES).strip()
        # "exam-" + "ple" was one word broken by the typesetter; "state-of-" + "the-art" keeps its hyphen.
        if out.endswith("-") and len(out) > 1 and out[-2].isalpha() and line[:1].islower():
            out = out[:-1] + line
        else:
            out = f"{out} {line}" if out else line
    return _WS.sub(" ", out).strip()


def page_paragraphs(page: PageLayout, gap_factor: float = 1.4) -> list[str]:
    """Paragraph texts of one page in reading order; a paragraph ends where the line pitch jumps."""
    blocks = reading_order(page)
    pitches = [rows[i][0].cy - rows[i + 1][0].cy for rows in blocks for i in range(len(rows) - 1)]
    heights = [f.height for f in page.fragments]
    # When every paragraph is one line, all pitches are paragraph gaps; the line height bounds them.
    usual = min(median([p for p in pitches if p > 0] or [0.0]), 1.6 * median(heights or [0.0]))
    paragraphs: list[str] = []
    for rows in blocks:
        current: list[str] = []
        for i, row in enumerate(rows):
            if current and usual > 0 and rows[i - 1][0].cy - row[0].cy > gap_factor * usual:
                paragraphs.append(_join_lines(current))
                current = []
            current.append(_row_text(row))
        if current:
            paragraphs.append(_join_lines(current))
    return [p for p in paragraphs if p]
