"""Files and fetched bodies -> SourceDoc: the exact normalised text that quotes' offsets refer to.

Markdown and plain text may start with a header (YAML-style front matter between `---` lines, or
`Key: value` lines up to the first blank line) giving title, author, date, url and kind.
"""

from __future__ import annotations

import csv
import html
import logging
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from itertools import takewhile
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from openresearch.errors import NotADocument, ParseError
from openresearch.identity import content_hash, source_id
from openresearch.ingest.asciidoc import asciidoc_to_markdown
from openresearch.ingest.benchlines import BANNER, is_bench_line
from openresearch.ingest.chart_data import without_scripts
from openresearch.ingest.encoding import decode_bytes
from openresearch.ingest.front_matter import record_tables, toml_fields, toml_record_tables
from openresearch.ingest.manpage import looks_like_roff, man_to_markdown
from openresearch.ingest.metadata import announces_release, dateline, header_date, parse_date
from openresearch.ingest.rst import rst_blocks
from openresearch.ingest.safe_open import LocalFile, read_regular
from openresearch.ingest.scdoc import looks_like_scdoc, scdoc_to_markdown
from openresearch.ingest.settings_lines import FENCE as _FENCE
from openresearch.ingest.settings_lines import closes_fence, fence_at, setting_lines
from openresearch.ingest.sniff import looks_like_markup, looks_like_prose
from openresearch.ingest.textnorm import collapse
from openresearch.ingest.xmldoc import xml_to_markdown
from openresearch.models import SourceDoc

if TYPE_CHECKING:
    from openresearch.config import Settings

log = logging.getLogger(__name__)

# .mdx (Markdown with JSX components, as documentation sites write it) is read as Markdown; AsciiDoc through
# ingest/asciidoc.py, XML references through ingest/xmldoc.py, scdoc manual pages through ingest/scdoc.py; a file
# whose name does not say ("ChangeLog", "NEWS", "site.org__CHANGES") by its content (a script or build file is not a
# document, see sniff.py)
SUFFIXES = {".md": "text", ".markdown": "text", ".mdx": "text", ".rst": "text", ".txt": "text", ".text": "text",
            ".adoc": "asciidoc", ".asciidoc": "asciidoc",
            **{f".{n}": "man" for n in range(1, 10)}, ".man": "man", ".scd": "scdoc",
            ".html": "html", ".htm": "html", ".xhtml": "html", ".pdf": "pdf", ".xml": "xml"}
# what is never a document to read: code, data, images, archives and binaries. A name that ends any other way
# ("NEWS", "quollgate1.4__NEWS", "site.org__en_CHANGES", "guide.mt") is read when its content shows a document
# (prose, a page, a manual page): the last dot of a name is often no file type at all
_NOT_DOCUMENTS = frozenset(
    f".{x}" for x in (
        "py", "pyi", "pyc", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "java", "class", "jar", "js", "mjs", "cjs",
        "ts", "tsx", "jsx", "go", "rs", "rb", "php", "pl", "pm", "sh", "bash", "zsh", "fish", "ps1", "bat", "cmd",
        "lua", "swift", "kt", "kts", "scala", "cs", "fs", "vb", "m", "mm", "r", "jl", "hs", "ml", "ex", "exs",
        "erl", "clj", "dart", "zig", "nim", "sql", "css", "scss", "sass", "less", "vue", "svelte", "json",
        "jsonl", "ndjson", "yaml", "yml", "toml", "ini", "cfg", "csv", "tsv", "lock", "sum", "mod", "proto", "cmake",
        "mk", "gradle", "bzl", "nix", "tf", "patch", "diff", "log", "map", "svg", "png", "jpg", "jpeg", "gif",
        "webp", "ico", "bmp", "tif", "tiff", "zip", "gz", "tgz", "bz2", "xz", "zst", "7z", "tar", "war", "o", "a",
        "so", "dylib", "dll", "exe", "bin", "wasm", "whl", "deb", "rpm", "iso", "dmg", "mp3", "mp4", "wav",
        "ogg", "webm", "mov", "avi", "ttf", "otf", "woff", "woff2", "eot", "db", "sqlite", "parquet", "pem",
        "crt", "key"))


def reader_for(path: Path) -> str | None:
    """The reader a file's name calls for ("text", "man", "html", "pdf", "asciidoc", "xml", "scdoc"); "sniff" when only
    its content can tell; None for a kind of file that is never a document."""
    suffix = path.suffix.lower()
    if suffix in SUFFIXES:
        return SUFFIXES[suffix]
    return None if suffix in _NOT_DOCUMENTS else "sniff"


def may_be_document(path: Path) -> bool:
    """Whether a walk over a folder should offer `path` to the readers (they still decide by its content)."""
    return reader_for(path) is not None


_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.S)
_FRONT_TOML = re.compile(r"\A\+\+\+\s*\n(.*?)\n\+\+\+\s*\n", re.S)  # static-site generator pages
_BLOCK_SCALAR = re.compile(r"[|>][+-]?")
_HEADER_LINE = re.compile(r"^([A-Za-z][A-Za-z _-]{0,30}):\s*(.+)$")
# a heading or quote mark (at most three spaces in), or a list item's marker at any depth: a nested item and a
# change log's indented "    - BUG: ..." entries are items of their own
_NUMBER_MARK = re.compile(r"^\s*(\d+)[.)]\s+")
_MD_MARK = re.compile(r"^(?:\s{0,3}(?:#{1,6}\s+|>\s?)|\s*(?:[-*+]\s+|\d{1,3}[.)]\s+))")
_MD_INLINE = re.compile(r"(\*\*|__|`)")
# a reStructuredText reference or role is its text: "`1.17.0`_ -- 2024-05-09" heads release 1.17.0, "`docs
# <https://x.org>`_" says "docs", ":ref:`result-key-format`" says "result-key-format"
_RST_REFERENCE = re.compile(r"(?::[\w:.-]+:)?`([^`\n<]+?)(?:\s*<[^>\n]*>)?`(?:__?(?!\w))?")


def _reference_text(m: re.Match[str]) -> str:
    """What a reference shows: its text; Sphinx's "!name" (no link) shows "name"; "~pkg.Class" keeps its dotted
    path (the page shows "Class", but the package it names is what the page is about, address_name.py)."""
    text = m.group(1)
    return text[1:] if text.startswith(("!", "~")) else text


_SELF_CLOSING = re.compile(r"<[A-Za-z][\w.-]*(?:\s[^<>]*)?/>")
_INLINE_ELEMENT = re.compile(r"<([A-Za-z][\w-]*)(\s[^<>]*)?>([^<>]*)</\1\s*>")
_HEADING_MARK = re.compile(r"^\s{0,3}#{1,6}\s")
_ATTR_LIST = re.compile(r"\s*\{:?\s*(?:[#.][\w-]+\s*|[\w-]+=\S+\s*)+\}\s*$")
# a word or a few emphasised inside a line ("_Quux_", "*not*"), never inside a word ("snake_case_name") or around
# spaces ("2 * 3 * 4")
_WORD_EMPHASIS = re.compile(r"(?<![\w*_\\])([_*])(?=[^\s_*])([^_*\n]{1,80}?)(?<=[^\s_*\\])\1(?![\w*_])")
_EMPHASIS = re.compile(r"^(\s*)[_*](\S(?:.*\S)?)[_*](?=\s*$)")
# MDX module lines ("import Screenshot from '@theme/Screenshot'") and a JSX or HTML tag standing alone on its
# line(s) ("<Screenshot alt=... />", "<TabItem value=\"py\">", "</details>"): markup, never text to quote
_MDX_MODULE = re.compile(r"^(?:import\s+(?:[\w{}*,\s]+\s+from\s+)?['\"][^'\"]+['\"];?|"
                         r"export\s+(?:const|default|function)\b.*)$")
# a link reference definition ("[docs]: https://example.org/docs", "[1]: <./x.md> \"Title\"") or a
# reStructuredText link target (".. _docs: https://example.org/docs") is where a link goes, not text
_LINK_DEFINITION = re.compile(r"^\s{0,3}(?:\[[^\]\n]+\]:\s*(?:<[^>\s]*>|\S+)(?:\s+[\"'(].*)?|"
                              r"\.\.\s+_[^:]+:\s*\S+)\s*$")
# a content tab's label ('=== "pyproject.toml"', MkDocs and its Material theme): markup, no text
_TAB_LABEL = re.compile(r"^\s*===\+?\s+\"[^\"\n]*\"\s*$")
_TAG_START = re.compile(r"^</?[A-Za-z][\w.:-]*(?=[\s/>]|$)")


def markup_lines(lines: list[str], settings: set[int] | frozenset[int] = frozenset()) -> set[int]:
    """Indexes of lines that are code or markup rather than prose: fenced code blocks with their fences, MDX
    import/export lines, and tags that stand alone (a multi-line self-closing component to its `/>`). The
    prose between an opening and a closing tag stays."""
    out: set[int] = set()
    fence: str | None = None
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        m = _FENCE.match(lines[i])
        if fence is not None:
            # benchmark output in a code block is a table of figures: kept, with the banner that names what ran
            # over its rows and the line of column groups over that
            banner = BANNER.match(stripped) or (i + 1 < len(lines) and BANNER.match(lines[i + 1].strip()) and
                                                0 < len(stripped.split()) <= 4 and "=" not in stripped)
            if not is_bench_line(stripped) and not banner and i not in settings:
                out.add(i)  # a setting with its default (settings_lines.py) stays
            if closes_fence(fence, lines[i]):
                fence = None
        elif m and fence_at(lines, i) and not _LIST_TABLE.match(lines[i]):
            # (a list-table in a MyST fence is a table, not code; an underline of tildes no fence)
            fence = lines[i]  # (the opening line: its run of backticks or tildes is what closes the block)
            out.add(i)
        elif _MDX_MODULE.match(stripped) or _LINK_DEFINITION.match(lines[i]) or _TAB_LABEL.match(lines[i]):
            out.add(i)
        elif _TAG_START.match(stripped):
            j = i
            text = stripped
            while ">" not in text and j + 1 < len(lines) and j - i < 40 and lines[j + 1].strip():
                j += 1
                text += " " + lines[j].strip()
            rest = text[text.find(">") + 1:].strip() if ">" in text else ""
            if ">" in text and (not rest or re.fullmatch(r"(?:</?[A-Za-z][^>]*>\s*)+", rest)):
                out.update(range(i, j + 1))  # only tags on these lines: no prose lost
                i = j
        i += 1
    return out

MAX_FILE_BYTES = 512_000_000
_KINDS = {"web", "academic", "internal", "docs", "blog", "news", "paper", "pdf", "local"}


_FIELD_RULE = re.compile(r"^---[ \t]*$", re.M)
_FIELD = re.compile(r"\A\s*(_?[A-Za-z][\w-]{0,30}):[ \t]*(.*)\Z", re.S)
_BODY_FIELDS = ("body", "content", "text", "main")


def _field_blocks(text: str) -> tuple[dict[str, str], str] | None:
    """A page written as fields between "---" lines (a flat-file CMS's contents file: "title: Frob 3.0 released",
    "---", "pub_date: 2021-10-13", "---", "body:", then its text): the one-line fields, and the body field's text
    (else the longest multi-line field's); None unless every block is a field and one holds several lines."""
    if not _FIELD.match(text.split("\n", 1)[0]):
        return None
    blocks = _FIELD_RULE.split(text)
    if len(blocks) < 2:
        return None
    fields: dict[str, str] = {}
    long: dict[str, str] = {}
    for block in blocks:
        m = _FIELD.match(block)
        if m is None:
            return None
        key, value = m.group(1).lower(), m.group(2)
        if "\n" in value.strip():
            long[key] = re.sub(r"^----", "---", value, flags=re.M)  # (a "---" line of the text is written "----")
        else:
            fields[key] = value.strip()
    if not long:
        return None
    body = next((long[k] for k in _BODY_FIELDS if k in long), max(long.values(), key=len))
    return fields, body


def _indented_after(lines: list[str], n: int) -> list[str]:
    """The lines after line `n` indented deeper than it (blank ones among them): a block that line opens."""
    depth = _indent(lines[n])
    return list(takewhile(lambda ln: not ln.strip() or _indent(ln) > depth, lines[n + 1:]))


def split_header(text: str) -> tuple[dict[str, str], str]:
    """Header fields (lower-case keys) and the body after the header."""
    if toml := _FRONT_TOML.match(text):
        return toml_fields(toml.group(1)), text[toml.end():]
    if blocks := _field_blocks(text):
        return blocks
    m = _FRONT.match(text)
    if m:
        fields = {}
        lines = m.group(1).splitlines()
        for n, line in enumerate(lines):
            if hm := _HEADER_LINE.match(line.strip()):
                value = hm.group(2).strip()
                if _BLOCK_SCALAR.fullmatch(value):
                    # "description: |-" over indented lines: the field's value is those lines (YAML's block scalar)
                    value = " ".join(ln.strip() for ln in _indented_after(lines, n) if ln.strip())
                fields[hm.group(1).strip().lower()] = value.strip('"').strip("'")
        return fields, text[m.end():]
    fields = {}
    lines = text.splitlines(keepends=True)
    consumed = 0
    for line in lines:
        hm = _HEADER_LINE.match(line.strip())
        if not hm:
            break
        fields[hm.group(1).strip().lower()] = hm.group(2).strip()
        consumed += len(line)
    if {"title", "url"} & fields.keys() and len(fields) >= 2:
        return fields, text[consumed:]
    return {}, text


_GFM_DELIMITER = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)+\|?\s*$|^\s*\|\s*:?-{2,}:?\s*\|\s*$")
_GRID_RULE = re.compile(r"^\s*\+(?:[-=:]+\+)+\s*$")
_RST_RULE = re.compile(r"^\s*=+(?:\s+=+)+\s*$")


def table_rows(lines: list[str]) -> dict[int, list[str]]:
    """The table rows among `lines`, as cells, by line index; rule lines map to an empty list (dropped). Reads
    Markdown pipe tables (with or without outer pipes: a header line, then a `---|---` delimiter row), grid
    tables (`+----+` rules, `| cell |` rows) and reStructuredText simple tables (`=====  =====` rules; the
    columns are where the rule's runs are). Every row keeps its empty cells, so a cell stays under its header."""
    out: dict[int, list[str]] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if _LIST_TABLE.match(line):
            i = _list_table(lines, i, out)
            continue
        if _CSV_TABLE.match(line):
            i = _csv_table(lines, i, out)
            continue
        if _GRID_RULE.match(line):
            out[i] = []
        elif i + 1 < len(lines) and "|" in line and _GFM_DELIMITER.match(lines[i + 1]):
            out[i], out[i + 1] = _pipe_cells(line), []
            i += 2
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                out[i] = _pipe_cells(lines[i])
                i += 1
            continue
        elif _RST_RULE.match(line):
            i = _rst_simple(lines, i, out)
            continue
        elif line.strip().startswith("|") and line.strip().endswith("|") and len(line.strip()) > 1:
            out[i] = _pipe_cells(line)
        i += 1
    return out


def _pipe_cells(line: str) -> list[str]:
    stripped = line.strip()
    if stripped.startswith("|"):
        stripped = stripped[1:]
    if stripped.endswith("|") and not stripped.endswith("\\|"):
        stripped = stripped[:-1]
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", stripped)]
    return cells if any(c.strip(":- ") for c in cells) else []


_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+.:_])\1{2,}$")
_MD_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\s]*\)")
# a Markdown backslash escape ("\\[number]", "\\*"): the character, not the backslash; inside a code span the
# backslash is the text ("`\\.[jt]sx?$`")
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+.!<>|-])")
_CODE_SPAN = re.compile(r"(`+)[^`]*?\1")


def _unescaped(line: str) -> str:
    out, at = [], 0
    for m in _CODE_SPAN.finditer(line):
        out += [_MD_ESCAPE.sub(r"\1", line[at:m.start()]), m.group()]
        at = m.end()
    return "".join([*out, _MD_ESCAPE.sub(r"\1", line[at:])])
_LIST_TABLE = re.compile(r"^\s*(?:\.\.\s+list-table::|(?::{3,}|`{3,})\s*\{list-table\})")
_LIST_ROW = re.compile(r"^(\s*)\*\s+-\s?(.*)$")
_LIST_CELL = re.compile(r"^(\s+)-\s?(.*)$")


def _list_table(lines: list[str], i: int, out: dict[int, list[str]]) -> int:
    """A reStructuredText or MyST list-table from its directive line at `i` (its options, then one `* - cell` line
    per row with `  - cell` lines for the other cells); each row becomes the cells of its first line, every other
    line of the directive an empty (dropped) one. Returns the index after the table."""
    out[i] = []
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or re.match(r"^\s*:[\w-]+:", lines[j])):
        out[j] = []
        j += 1
    row_at: int | None = None
    while j < len(lines):
        line = lines[j]
        if m := _LIST_ROW.match(line):
            row_at = j
            out[j] = [m.group(2).strip()]
        elif row_at is not None and (m := _LIST_CELL.match(line)):
            out[row_at].append(m.group(2).strip())
            out[j] = []
        elif row_at is not None and line.strip() and line[:1].isspace() and not re.match(r"^\s*(?::{3,}|`{3,})",
                                                                                          line):
            out[row_at][-1] = f"{out[row_at][-1]} {line.strip()}".strip()  # a cell's text continued
            out[j] = []
        elif not line.strip():
            out[j] = []
        else:
            if re.match(r"^\s*(?::{3,}|`{3,})\s*$", line):
                out[j] = []  # the directive's closing fence
                j += 1
            break
        j += 1
    return j


_CSV_TABLE = re.compile(r"^\s*\.\.\s+csv-table::")
_SUBSTITUTION = re.compile(r"\|([\w .-]{1,40})\|")  # a reStructuredText substitution, "|ObsoleteName|"


def _csv_row(line: str) -> list[str]:
    cells = next(csv.reader([line], skipinitialspace=True), [])
    return [_SUBSTITUTION.sub(r"\1", c).replace("|", "/").strip() for c in cells]


def _csv_table(lines: list[str], i: int, out: dict[int, list[str]]) -> int:
    """A reStructuredText csv-table from its directive line at `i`: the `:header:` option is the header row, each
    indented line of the body a row of comma-separated (quoted) cells; the directive's other lines carry no text.
    Returns the index after the table."""
    out[i] = []
    j = i + 1
    indent: int | None = None
    while j < len(lines):
        line = lines[j]
        if not line.strip():
            out[j] = []
            j += 1
            continue
        if not line[:1].isspace() or (indent is not None and _indent(line) < indent):
            break
        indent = _indent(line) if indent is None else indent
        if m := re.match(r"^\s*:header:\s*(.*)$", line):
            out[j] = _csv_row(m.group(1))
        elif re.match(r"^\s*:[\w-]+:", line):
            out[j] = []
        else:
            out[j] = _csv_row(line.strip())
        j += 1
    return j


def _rst_simple(lines: list[str], i: int, out: dict[int, list[str]]) -> int:
    """A reStructuredText simple table from its top rule at `i`; returns the index after it."""
    rule = lines[i]
    cols = [(m.start(), m.end()) for m in re.finditer(r"=+", rule)]
    rules = 0
    j = i
    while j < len(lines):
        line = lines[j]
        if _RST_RULE.match(line):
            out[j] = []
            rules += 1
            j += 1
            if rules == 3 or (rules == 2 and (j >= len(lines) or not lines[j].strip())):
                return j
            continue
        if not line.strip() or re.match(r"^\s*(?:`{3,}|~{3,})", line):
            # a blank line ends the table after its header rule; with one rule only (a program's output that
            # underlines its header, "ID  TYPE" over "==  ===="), it ends its rows too, as a code fence does
            if rules >= 2 or (rules == 1 and j > i + 1) or line.strip():
                return j
            j += 1
            continue
        bounds = [s for s, _ in cols[1:]]
        cells, prev = [], 0
        for b in bounds:
            cells.append(line[prev:b].strip())
            prev = b
        cells.append(line[prev:].strip())
        out[j] = cells
        j += 1
    return j


# a character reference of Markdown or plain text ("450&nbsp;KB", "&lt;1 ms", "&#8805; 2"): a renderer shows the
# character, so the text holds it (only complete references, with their semicolon, so "?a=1&copy=2" stays)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _para(text: str) -> str:
    return collapse(_ENTITY.sub(lambda m: html.unescape(m.group(0)), text) if "&" in text else text)


def normalise_plain(body: str) -> str:
    """Paragraphs separated by one blank line, whitespace collapsed, Markdown markers removed. A table row is
    its own paragraph, "cell | cell | ...", empty cells kept ("| version | size" has an empty first cell)."""
    paragraphs: list[str] = []
    item_open = False  # whether the paragraph being read opened with a list item's mark
    current: list[str] = []
    lines = without_scripts(body.splitlines()) if "<s" in body or "<S" in body else body.splitlines()
    lines = rst_blocks(lines)
    settings = setting_lines(lines)
    markup = markup_lines(lines, set(settings))
    rows = table_rows(lines)
    terms = definition_terms(lines, markup | rows.keys())
    heads, items = indented_entries(lines, markup | rows.keys() | terms | set(settings))
    for n, line in enumerate(lines):
        if n in markup:
            line = ""  # ends the paragraph, as the block did
        stripped = line.strip()
        if n in settings:  # "port : 4000" in a listing of defaults, "-p, --port int ... (default 1313)"
            if current:
                paragraphs.append(_para(" ".join(current)))
                current = []
            if settings[n]:  # (a help entry's lines under its first are in its paragraph)
                paragraphs.append(_para(settings[n]))
            continue
        if (n in heads or n in items) and current:
            paragraphs.append(_para(" ".join(current)))  # an entry under a dated line starts a paragraph
            current = []
        if n in heads:
            paragraphs.append(_para(stripped))  # "2019-03-11: v4.2.0" over its entries is a heading of its own
            continue
        if n in terms:
            # a definition list's term ("quoll.bufsize <size>" over its indented description) stands alone, as a
            # heading of the entry: what the description's figures are of (agents/extract/definitions.py)
            if current:
                paragraphs.append(_para(" ".join(current)))
                current = []
            paragraphs.append(_para(stripped))
            continue
        if n not in markup and (is_bench_line(stripped) or BANNER.match(stripped) or (
                n + 1 < len(lines) and BANNER.match(lines[n + 1].strip()) and n + 1 not in markup)):
            # a line of benchmark output is its own paragraph, like a table row (and so are a banner over such
            # lines and the line of column groups over the banner)
            if current:
                paragraphs.append(_para(" ".join(current)))
                current = []
            paragraphs.append(_para(stripped))
            continue
        if n in rows and n not in markup:
            # a table row is its own paragraph (a quotable unit); a rule line carries no text
            if current:
                paragraphs.append(_para(" ".join(current)))
                current = []
            if cells := rows[n]:
                # a link in a cell is its text: "[Apr 23, 2026](https://.../2026-April/000323.html)" is a date
                # and emphasis around a whole cell ("_**86mib/s**_") is no part of its text
                paragraphs.append(_para(" | ".join(_EMPHASIS.sub(r"\2", _MD_INLINE.sub("", _MD_LINK.sub(r"\1", c)))
                                                   for c in cells)))
            continue
        if current and _UNDERLINE.match(stripped) and n > 0 and lines[n - 1].strip():
            # a reStructuredText or Setext heading's underline ("Abstract" over "========"): the heading is its
            # own paragraph, the underline no text
            paragraphs.append(_para(" ".join(current)))
            current = []
            continue
        if not stripped or stripped in {"---", "***"}:
            if current:
                paragraphs.append(_para(" ".join(current)))
                current = []
            continue
        # "... this value should be set to / 2. If there are more ...": a number other than 1 that opens a line
        # inside a paragraph of prose goes on with it (only "1." may start a list there); a list's next item
        # starts one
        going_on = bool(current) and (num := _NUMBER_MARK.match(line)) is not None and num.group(1) != "1" and \
            not item_open
        clean = line if going_on else _MD_MARK.sub("", _unescaped(line) if "\\" in line else line)
        clean = _MD_INLINE.sub("", _RST_REFERENCE.sub(_reference_text, clean) if "`" in clean else clean)
        # emphasis is no part of the words: "_Quux_ is the uncompromising formatter" opens with the name Quux
        clean = _WORD_EMPHASIS.sub(r"\2", clean) if "_" in clean or "*" in clean else clean
        # an inline element's tags are no text: '<small class="added-in">added in 0.1.7</small>' says "added in
        # 0.1.7" (a tag standing alone on its line is markup, markup_lines; "<size>" without a closing tag stays)
        clean = _INLINE_ELEMENT.sub(r"\3", clean) if "</" in clean else clean
        # a self-closing element ("<NonProjectOption />", "<br/>") is markup, no word
        clean = _SELF_CLOSING.sub("", clean) if "/>" in clean else clean
        heading = bool(_HEADING_MARK.match(line))
        if heading:
            # "### [`max-retries`](#max-retries) {: #max-retries }": a heading's words, without its own anchor
            # link or attribute list (what a reference page's entry heading names is the keyword)
            clean = _MD_LINK.sub(r"\1", _ATTR_LIST.sub("", clean))
        if _MD_MARK.match(line) and current and not going_on:
            # a heading or list item starts its own paragraph
            paragraphs.append(_para(" ".join(current)))
            current = []
        if not current:
            item_open = bool(_MD_MARK.match(line)) and not going_on
        current.append(clean)
        if heading:  # and a heading is one line: the line under it starts a paragraph of its own
            paragraphs.append(_para(" ".join(current)))
            current = []
    if current:
        paragraphs.append(_para(" ".join(current)))
    return "\n\n".join(p for p in paragraphs if p)


# a term a definition list defines: a keyword, option or setting ("maxconn", "quoll.bufsize", "--max-depth",
# "IdleWaitTimeout", "timeout client"), then what it takes ("<size>", "[on|off]", "N")
TERM = re.compile(r"-{0,2}[A-Za-z][\w.:/+=-]*(?:(?<==)[<\[{][^\n]*)?"  # ("--max-line-length=<n>")
                  r"(?:[ \t]+(?:[a-z][\w.:/+-]*|[<\[{(|][^\n]*|[A-Z]{1,8}\b[^\n]*)){0,4}")


def indented_entries(lines: list[str], skip: set[int] | frozenset[int] = frozenset()) -> tuple[set[int], set[int]]:
    """A plain-text change log's entries: a short line that holds a number (a release's date or version, "2019-03-11:
    v4.2.0"), after a blank line, with the lines right under it indented deeper, each capitalised line one entry
    ("  Add QXP2 support"; a lower-case line goes on with the entry above). (heads, entries' first lines)."""
    heads: set[int] = set()
    items: set[int] = set()
    for n in range(len(lines) - 1):
        line, stripped = lines[n], lines[n].strip()
        if n in skip or not stripped or len(stripped) > 80 or (n and lines[n - 1].strip()) or \
                not re.search(r"\d", line):
            continue
        if _MD_MARK.match(line) or re.search(r"[.,;!?]$", stripped) or (depth := _indent(line)) > 4:
            continue
        under = list(takewhile(lambda k: lines[k].strip() != "" and k not in skip and _indent(lines[k]) >= depth + 2,
                               range(n + 1, len(lines))))
        if not under or not re.match(r"[A-Z(\[*-]", lines[under[0]].strip()):
            continue
        heads.add(n)
        items.update(k for k in under if re.match(r"[A-Z(\[*-]", lines[k].strip()))
    return heads, items


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def keyword_shape(word: str) -> bool:
    """A word that names a setting or option rather than starting a sentence: lower case, or with a code mark
    ("quoll.bufsize", "max_conn", "--depth"), or written in camel case ("IdleWaitTimeout")."""
    return word[:1].islower() or word[:1] == "-" or bool(re.search(r"[._:/]|[a-z][A-Z]", word))


def definition_terms(lines: list[str], skip: set[int] | frozenset[int] = frozenset()) -> set[int]:
    """Indexes of the lines that are a definition list's terms: a short keyword-shaped line after a blank one
    (or at the start), no sentence punctuation at its end, over a description indented deeper that reads as
    prose (reStructuredText definition lists, plain-text configuration and option references)."""
    out: set[int] = set()
    for n in range(len(lines) - 1):
        line, nxt = lines[n], lines[n + 1]
        stripped = line.strip()
        if n in skip or n + 1 in skip or not stripped or len(stripped) > 80 or (n and lines[n - 1].strip()):
            continue
        if not nxt.strip() or _indent(nxt) < _indent(line) + 2 or _indent(line) > 8:
            continue
        if re.search(r"[.,;:!?。：]$", stripped) or _MD_MARK.match(line) or not TERM.fullmatch(stripped):
            continue
        first = stripped.split()[0]
        described = nxt.strip()
        if not keyword_shape(first) or not re.match(r"[A-Za-z\"'`(]", described) or len(described.split()) < 3:
            continue
        out.add(n)
    return out


def _kind(value: str | None, default: str) -> str:
    v = (value or "").strip().lower()
    return v if v in _KINDS else default


@dataclass(frozen=True)
class Limits:
    """Bounds on one document (Settings: max_document_chars, max_pdf_inflated_bytes, ...)."""

    max_chars: int = 1_000_000
    max_pdf_inflated_bytes: int = 200_000_000
    max_pdf_page_inflated_bytes: int = 50_000_000
    max_pdf_seconds: float = 8.0

    @classmethod
    def from_settings(cls, s: Settings) -> Limits:
        return cls(s.max_document_chars, s.max_pdf_inflated_bytes, s.max_pdf_page_inflated_bytes, s.max_pdf_seconds)

    @property
    def max_markup_bytes(self) -> int:
        # a page's text is a fraction of its markup; parsing costs seconds per MB, so stop reading early
        return 4 * self.max_chars


def parse_bytes(data: bytes, *, kind: str, url: str, content_type: str | None = None,
                fetched_at: datetime | None = None, default_kind: str = "web", limits: Limits | None = None,
                warnings: list[str] | None = None, name: str | None = None) -> SourceDoc:
    """Parse one body (a file's bytes or a fetched response) into a SourceDoc.

    Errors (ParseError) and ``warnings`` (a lossy decode, text cut at ``limits.max_chars``) name ``name``
    (default: the URL).
    """
    label = name or url
    try:
        return _parse_bytes(data, kind=kind, url=url, content_type=content_type, fetched_at=fetched_at,
                            default_kind=default_kind, limits=limits or Limits(),
                            warnings=warnings if warnings is not None else [], label=label)
    except ParseError as exc:
        message = str(exc)
        raise ParseError(message if message.startswith(label) else f"{label}: {message}") from None


def _parse_bytes(data: bytes, *, kind: str, url: str, content_type: str | None, fetched_at: datetime | None,
                 default_kind: str, limits: Limits, warnings: list[str], label: str) -> SourceDoc:
    title: str | None = None
    published: date | None = None
    pages: list[tuple[int, int, int]] = []
    doc_kind = default_kind
    if kind == "pdf":
        from openresearch.ingest.pdf import parse_pdf

        pdf_warnings: list[str] = []
        parsed = parse_pdf(data, max_inflated_bytes=limits.max_pdf_inflated_bytes,
                           max_stream_inflated_bytes=limits.max_pdf_page_inflated_bytes,
                           max_seconds=limits.max_pdf_seconds, warnings=pdf_warnings)
        warnings.extend(f"{label}: {w}" for w in pdf_warnings)
        text, title, published = parsed.text, parsed.title, parsed.published_at
        pages = [(p.page_no, p.start, p.end) for p in parsed.pages]
        doc_kind = "paper" if default_kind in {"local", "web"} else default_kind
    elif kind == "html":
        from openresearch.ingest.html import drop_huge_attributes, parse_html

        data = drop_huge_attributes(data)  # inline data in attributes is no text: it must not crowd the text out
        if len(data) > limits.max_markup_bytes:
            warnings.append(f"{label}: only the first {limits.max_markup_bytes:,} of {len(data):,} bytes of HTML "
                            "were read (OPENRESEARCH_MAX_DOCUMENT_CHARS)")
            data = data[:limits.max_markup_bytes]
        parsed = parse_html(data, url=url, content_type=content_type)
        text, title, published = parsed.text, parsed.title, parsed.published_at
        if parsed.decode_note:
            warnings.append(f"{label}: {parsed.decode_note}")
    else:
        decoded = decode_bytes(data, content_type)
        if note := decoded.note():
            warnings.append(f"{label}: {note}")
            log.warning("%s: %s", label, note)
        raw = decoded.text
        fields, body = split_header(raw)
        if (front := _FRONT.match(raw)) and (tables := record_tables(front.group(1))):
            body = tables + "\n" + body  # records of a data page's front matter are its tables
        elif (front := _FRONT_TOML.match(raw)) and (tables := toml_record_tables(front.group(1))):
            body = tables + "\n" + body
        heading: str | None = None
        if kind == "asciidoc":
            heading, body = asciidoc_to_markdown(body)
        elif kind == "man":
            heading, body = man_to_markdown(body)
        elif kind == "scdoc":
            heading, body = scdoc_to_markdown(body)
        elif kind == "xml":
            heading, body = xml_to_markdown(body)
        named = fields.get("url")
        if named and _usable_url(named):
            url = named
        elif named:
            warnings.append(f"{label}: header url {named[:100]!r} is not a usable URL; ignored")
        title = fields.get("title") or heading
        dated = header_date(fields)
        published = parse_date(dated[1]) if dated else None
        if title and dated and announces_release(title):
            # "Frob 3.0 released" dated 2021-10-13: the announcement's date is the release's, a fact its text keeps
            # (the title over the header's own date line, as written)
            day = re.match(r"\d{4}-\d{1,2}-\d{1,2}(?=[T\s]|$)", dated[1])  # (its day, not its clock time)
            body = f"{title}\n\n{dated[0]}: {day.group() if day else dated[1]}\n\n{body.lstrip()}"
        elif title and (about := fields.get("description") or fields.get("summary")) and re.search(
                r"\d\.\d", title) and re.search(r"\breleased\b", about, re.I) and parse_date(about):
            # a release's page titled "Frob 3.0" whose header describes it as "released on March 4, 2025": the
            # description says the release's date, a fact its text keeps under the title (the release its notes are of)
            body = f"{title}\n\n{about}\n\n{body.lstrip()}"
        doc_kind = _kind(fields.get("kind"), default_kind)
        text = normalise_plain(body)
        published = published or dateline(body)
        if title is None and text.startswith(("# ", "Title")):
            title = text.split("\n", 1)[0]
    if not text.strip():
        raise ParseError(f"{label}: no readable text")
    if len(text) > limits.max_chars:
        cut = text.rfind(" ", limits.max_chars * 9 // 10, limits.max_chars)
        kept = text[:cut if cut > 0 else limits.max_chars].rstrip()
        warnings.append(f"{label}: text cut at {len(kept):,} of {len(text):,} characters "
                        "(OPENRESEARCH_MAX_DOCUMENT_CHARS)")
        text = kept
        pages = [(n, a, min(b, len(text))) for n, a, b in pages if a < len(text)]
    return SourceDoc(id=source_id(url), url=url, title=title, kind=doc_kind, published_at=published,
                     fetched_at=fetched_at or datetime.now(tz=UTC), text=text, content_hash=content_hash(text),
                     pages=pages)


def local_url(path: Path) -> str:
    """A local file's identity: the file:// URL of its resolved absolute path (two folders' corpus/x.md differ)."""
    return path.resolve().as_uri()


def parse_file(path: Path, url: str | None = None, *, limits: Limits | None = None,
               warnings: list[str] | None = None, file: LocalFile | None = None) -> SourceDoc:
    """A local file. Its id always comes from ``url`` (default: the file:// URL of its resolved path), so no
    two files share a source; its url is the page it names (front matter, canonical link, PDF metadata) if any.
    ``file``: the file as the caller read it already (ingest/safe_open.py), else it is read here.
    """
    url = url or local_url(path)
    kind = reader_for(path)
    if kind is None:
        raise ParseError(f"{path}: unsupported file type {path.suffix!r}")
    lim = limits or Limits()
    if file is None:
        file = read_regular(path, MAX_FILE_BYTES)  # once, no link followed, a regular file only
    data = file.data
    if kind == "sniff":
        kind = _kind_by_content(path, data, file.mode)
    elif kind == "man" and not looks_like_roff(data):  # "app.log.1", "data.2": a numbered file, no manual page
        raise NotADocument(f"{path}: a file named like a manual page that holds no roff (.TH, .SH); not read")
    doc = parse_bytes(data, kind=kind, url=url, default_kind="local", limits=lim, warnings=warnings, name=str(path))
    if doc.url == url:
        # an HTML page's canonical link, or a PDF's metadata, names the page it was saved from
        named = _canonical_link(data) if kind == "html" else _pdf_url(data) if kind == "pdf" else None
        if named and _usable_url(named):
            doc = doc.model_copy(update={"url": named})
    return doc.model_copy(update={"id": source_id(url)}) if doc.id != source_id(url) else doc


def _kind_by_content(path: Path, data: bytes, mode: int) -> str:
    """The reader for a file whose name does not say: a page, a manual page or prose text; anything else (a
    script, a build or data file, a binary, a hidden or executable file) is no document."""
    if not path.name.startswith(".") and not mode & 0o111:
        if looks_like_markup(data):
            return "html"  # a page or a page template ("guide.mt", "index.tmpl")
        if looks_like_roff(data) and not looks_like_prose(data):
            return "man"
        if looks_like_scdoc(data[:4096].decode("utf-8", "replace")):
            return "scdoc"
        if looks_like_prose(data):
            return "text"
        fields = _field_blocks(data[:65536].decode("utf-8", "replace"))
        if fields and looks_like_prose(fields[1].encode("utf-8")):
            return "text"  # a flat-file CMS's contents file: its fields, then a body of prose
    raise NotADocument(f"{path}: neither prose text nor a page by its content; not read")


def _usable_url(url: str) -> bool:
    """An absolute URL that the id and domain code can take (no broken IPv6 literal, no control characters)."""
    try:
        parts = urlsplit(url)
        source_id(url)
        _ = parts.port
    except ValueError:
        return False
    return bool(parts.scheme and (parts.hostname or parts.scheme == "file")) and url.isprintable() and len(url) < 8192


def _pdf_url(data: bytes) -> str | None:
    m = re.search(rb"/(?:Subject|Keywords|URI)\s*\(([^)]*https?://[^)]*)\)", data)
    if not m:
        return None
    url = re.search(rb"https?://[^\s)>\]]+", m.group(1))
    return url.group(0).decode("ascii", "replace").rstrip(".,;") if url else None


def _canonical_link(data: bytes) -> str | None:
    m = re.search(rb'<link[^>]+rel=["\']canonical["\'][^>]*href=["\']([^"\']+)["\']', data, re.I)
    if not m:
        m = re.search(rb'<meta[^>]+property=["\']og:url["\'][^>]*content=["\']([^"\']+)["\']', data, re.I)
    return m.group(1).decode("ascii", "replace") if m else None
