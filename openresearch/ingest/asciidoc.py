"""AsciiDoc read as the Markdown the plain-text reader understands: headings, tables, and no markup lines.

Only what changes what a reader quotes is translated: ``= Title`` / ``== Section`` headings (the first level-0
heading is the document's title), ``|===`` tables (each row one "cell | cell" line under its header, so a
figure keeps its column), attribute entries (``:toc:``), block attributes (``[cols="1,2"]``), anchors,
thematic breaks and block delimiters are dropped; inline passthrough (``+x+``) and ``[#id]#Text#`` keep
their text.
"""

from __future__ import annotations

import re

_HEADING = re.compile(r"^(={1,6})\s+(\S.*)$")
_ATTRIBUTE = re.compile(r"^:!?[\w][\w-]*!?:(?:\s.*)?$")
_BLOCK_ATTR = re.compile(r"^\[[^\]]*\]$")
_ANCHOR = re.compile(r"^\[\[[^\]]*\]\]$")
_BREAK = re.compile(r"^(?:'{3,}|<{3,}|-{4,}|\.{4,}|\*{4,}|_{4,}|={4,}|\+{4,})$")
_ID_SPAN = re.compile(r"\[#[\w-]+\]#([^#\n]*)#")
_PASS = re.compile(r"(?<![\w+])\+([^+\n]+)\+(?![\w+])")
_TABLE_EDGE = re.compile(r"^\|===\s*$")
_SPEC = r"\d*[+*]?[<^>]?(?:\.[<^>])?[a-z]?"  # a cell's span, alignment and style before its bar ("2+|", "a|")
_CELL_START = re.compile(rf"^{_SPEC}\|")
_COLS = re.compile(r"cols\s*=\s*\"?([^\"\]]+)")


def _cells(line: str) -> list[str]:
    """The cells a table line starts: "|a |b" -> ["a", "b"] (a cell spec such as "2+|" before a bar is dropped)."""
    parts = re.split(rf"(?:^|\s){_SPEC}\|", " " + line)
    return [_inline(p.strip()) for p in parts[1:]]


def _inline(text: str) -> str:
    return _PASS.sub(r"\1", _ID_SPAN.sub(r"\1", text))


def _table(block: list[str], columns: int | None, header: bool) -> list[str]:
    """A |=== block as Markdown pipe rows of ``columns`` cells (default: the first line's count); a line that
    starts no cell continues the cell before it. The first row is a header when the options say so or when a
    blank line follows it (AsciiDoc's implicit header)."""
    cells: list[str] = []
    width = columns
    implicit = False
    for n, line in enumerate(block):
        stripped = line.strip()
        if not stripped:
            continue
        if _CELL_START.match(stripped):
            found = _cells(stripped)
            if width is None:
                width = len(found)
                implicit = n + 1 < len(block) and not block[n + 1].strip()
            cells.extend(found)
        elif cells:
            cells[-1] = f"{cells[-1]} {stripped}"
    if not cells or not width:
        return []
    rows = [cells[k:k + width] for k in range(0, len(cells), width)]
    out = ["| " + " | ".join(r + [""] * (width - len(r))) + " |" for r in rows]
    if header or implicit:
        out.insert(1, "|" + "---|" * width)
    return out


def asciidoc_to_markdown(text: str) -> tuple[str | None, str]:
    """(title, Markdown) of an AsciiDoc document."""
    title: str | None = None
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    pending_cols: int | None = None
    pending_header = False
    while i < len(lines):
        raw = lines[i]
        line = raw.rstrip()
        stripped = line.strip()
        if _TABLE_EDGE.match(stripped):
            end = next((j for j in range(i + 1, len(lines)) if _TABLE_EDGE.match(lines[j].strip())), len(lines))
            out.append("")
            out.extend(_table(lines[i + 1:end], pending_cols, pending_header))
            out.append("")
            pending_cols, pending_header = None, False
            i = end + 1
            continue
        if _BLOCK_ATTR.match(stripped) and not _ANCHOR.match(stripped):
            cols = _COLS.search(stripped)
            if cols:
                spec = cols.group(1).strip()
                pending_cols = int(spec.split("*")[0]) if re.fullmatch(r"\d+\*.*", spec) else len(spec.split(","))
            pending_header = "header" in stripped
            out.append("")
            i += 1
            continue
        if _ATTRIBUTE.match(stripped) or _ANCHOR.match(stripped) or _BREAK.match(stripped) \
                or stripped.startswith("//"):
            out.append("")
            i += 1
            continue
        heading = _HEADING.match(stripped)
        if heading:
            words = _inline(heading.group(2)).strip()
            if len(heading.group(1)) == 1 and title is None:
                title = words
            out.extend(["", "#" * len(heading.group(1)) + " " + words, ""])
            i += 1
            continue
        out.append(_inline(line))
        i += 1
    return title, "\n".join(out)
