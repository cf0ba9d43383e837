"""A manual page written in scdoc (the ``.scd`` source many projects keep their man pages in) read as the
Markdown the plain-text reader understands.

scdoc's own syntax, not any one page's words, decides: the first line ``NAME(5)`` is the title, ``#``/``##``
lines are headings, ``*bold*`` and ``_underlined_`` words keep their words, a ``++`` at a line's end breaks the
line, tab indentation nests a block, ``. item``/``- item`` lines are list items, lines opening with ``[``, ``|``
or ``:`` are a table's rows and cells (its first row the header), ``;`` lines are comments and fenced blocks
stay fenced. A reference's entry is a tag line over its tab-indented description: a key's ("*limit* =
_<integer>_") is its term over that description, as a definition list writes it ("limit <integer>", what
agents/extract/definitions.py reads the entry's "Default: _100_" as the default of); an option's ("*-z, --zap*")
is one list item, "tag: description", as a roff page's ``.TP`` entry reads, its further paragraphs its own.
"""

from __future__ import annotations

import re

_TITLE = re.compile(r"([\w.:+-]+)\((\d\w*)\)(?:\s+\"[^\"]*\")*\s*$")
_ESCAPED = re.compile(r"\\(.)")
# emphasis: "*bold*", "_underlined_" (an underscore inside a word, "max_lines", is none)
_BOLD = re.compile(r"(?<![\w\\])\*(?=\S)([^*\n]*?\S)\*(?!\w)")
_UNDERLINE = re.compile(r"(?<![\w\\])_(?=\S)([^\n]*?\S)_(?!\w)")
_LIST = re.compile(r"(\t*)([.-])\s+(.*)$")
# an entry's tag: a line of its own that opens with a bold word ("*limit* = _<integer>_", "*--zap*")
_TAG = re.compile(r"\*[^*\s][^*]*\*(?:\s.*)?$")
_ASSIGNED = re.compile(r"\s+=\s+")  # "limit = <integer>": the key, then the values it takes
_TABLE_LINE = re.compile(r"([\[|:\]])([\[\-\]<>\s]|$)(.*)$")


def looks_like_scdoc(text: str) -> bool:
    """An scdoc page names itself on its first line ("NAME(5)") and has a "# " section heading."""
    lines = [ln for ln in text[:4096].splitlines() if ln.strip() and not ln.startswith(";")]
    return bool(lines) and _TITLE.match(lines[0]) is not None and any(ln.startswith("# ") for ln in lines[1:])


def _inline(text: str) -> str:
    text = _UNDERLINE.sub(r"\1", _BOLD.sub(r"\1", text))
    return _ESCAPED.sub(r"\1", text)


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip("\t"))


def scdoc_to_markdown(text: str) -> tuple[str | None, str]:
    """(title, Markdown) of an scdoc page: the title is its first line's name and section ("QUUX(5)")."""
    lines = text.splitlines()
    title: str | None = None
    out: list[str] = []
    n = 0
    while n < len(lines) and (not lines[n].strip() or lines[n].startswith(";")):
        n += 1
    if n < len(lines) and (m := _TITLE.match(lines[n].strip())):
        title = f"{m.group(1)}({m.group(2)})"
        n += 1
    fenced = False
    table: list[list[str]] | None = None
    item = False  # an entry's tag was written: its first indented paragraph joins it
    while n < len(lines):
        raw = lines[n].rstrip()
        n += 1
        if raw.strip().startswith("```"):
            fenced = not fenced
            out.append(raw.strip())
            continue
        if fenced:
            out.append(raw[_depth(raw):])
            continue
        if raw.startswith(";"):
            continue
        if table is not None:
            cell = _TABLE_LINE.match(raw)
            if raw.strip() and cell:
                if cell.group(1) in "[|]":
                    table.append([])
                if table:
                    table[-1].append(_inline(cell.group(3).strip()).replace("|", "/"))
                continue
            out += _table(table)
            table = None
        if not raw.strip():
            out.append("")
            continue
        if raw.startswith("#"):
            out += ["", _inline(raw), ""]
            item = False
            continue
        if raw[:1] == "[" and (not out or not out[-1].strip()) and (first := _TABLE_LINE.match(raw)):
            table = [[_inline(first.group(3).strip())]]
            continue
        line = raw.removesuffix("++").rstrip()
        depth = _depth(raw)
        if (lm := _LIST.match(raw)) and (not out or not out[-1].strip() or out[-1].lstrip().startswith(("- ", "1. "))):
            mark = "1." if lm.group(2) == "." else "-"
            out.append("    " * depth + f"{mark} {_inline(lm.group(3))}")
            item = False
            continue
        following = next((ln for ln in lines[n:] if ln.strip()), "")
        if (not out or not out[-1].strip()) and _TAG.match(raw.strip()) and _depth(following) > depth:
            tag = _inline(line.strip())
            if tag.startswith("-"):
                out.append(f"- {tag}:")  # an option's entry, as a roff page's .TP entry reads: "--zap: Zaps ..."
                item = True
            else:  # a key's entry: its term over its description, as a definition list ("limit <integer>")
                out.append(_ASSIGNED.sub(" ", tag, count=1))
                item = False
            while n < len(lines) and not lines[n].strip():
                n += 1
            continue
        if item and depth > 0 and out and out[-1].startswith("- "):
            out[-1] += " " + _inline(line.strip())  # the tag's description, its first paragraph
            continue
        out.append("    " * min(depth, 1) + _inline(line.strip()))
    if table is not None:
        out += _table(table)
    body = re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
    heading = None if title is None else f"# {title}"
    return title, (f"{heading}\n\n{body}\n" if heading else body + "\n")


def _table(rows: list[list[str]]) -> list[str]:
    """Pipe rows of an scdoc table, its first row the header; no row shorter than the header."""
    rows = [r for r in rows if any(c for c in r)]
    if not rows:
        return []
    width = max(len(r) for r in rows)
    lines = ["", "| " + " | ".join(rows[0] + [""] * (width - len(rows[0]))) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(r + [""] * (width - len(r))) + " |" for r in rows[1:]]
    return [*lines, ""]
