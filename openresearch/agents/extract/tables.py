"""The table reader: a table row read with its header, the rows around it and the sentence before the table.
Pure core.

Ingest writes every table (Markdown pipe and grid tables, reStructuredText simple tables, HTML tables) as one
paragraph per row, "cell | cell | ...", empty cells kept. A row's observations take:
  - the entity from the row label (a name no list knows is still a name; a label several rows share the first
    word of, "RapidJSON insitu" / "RapidJSON UTF8-validation", is that word under a qualifier; a version label,
    "3.11", is the document's subject at that version), or from the column for a transposed table (entities
    across the header, metrics down the first column);
  - the metric and unit from the column header (a unit in the header applies to the bare numbers under it; a
    header that is only a unit takes its quantity from the caption; "vs. X" is the ratio of the column before);
  - a condition from the label's qualifiers, the row's version and note cells, and the caption's setup.
No list decides: a header no lexicon knows names its metric in its own words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from openresearch.agents.extract.definitions import stated_unit, term_metric
from openresearch.agents.extract.extract_rules import Mention
from openresearch.agents.extract.metric_names import canonical_metric, unit_kind
from openresearch.agents.extract.values import Value, find_values
from openresearch.agents.plan.attributes import keyword_like
from openresearch.identity import entity_key
from openresearch.ingest.documents import keyword_shape
from openresearch.models import ObservationIn, ObservationRole
from openresearch.numbers import canonical_unit, known_unit

MAX_CAPTION = 400


class Cell(NamedTuple):
    start: int  # offset of the cell's text in the source text
    text: str


class TableRow(NamedTuple):
    header: list[str]
    cells: list[Cell]
    labels: list[str]  # the first cell of every body row of the table
    caption: str  # the paragraph before the table ("" if none)
    group: str = ""  # the label of the nearest row above with no other cell ("Array with 256 doubles")
    body: tuple[tuple[str, ...], ...] = ()  # every body row's cell texts, this one included (a column read whole)


def is_row(line: str) -> bool:
    s = line.strip()
    return "|" in s and (" | " in s or s.startswith("|") or s.endswith("|"))


def split_cells(text: str, start: int, end: int) -> list[Cell]:
    """The cells of the row text[start:end], split at "|", with their offsets (a leading "|" is an empty cell)."""
    out: list[Cell] = []
    pos = start
    line = text[start:end]
    for piece in line.split("|"):
        lead = len(piece) - len(piece.lstrip())
        out.append(Cell(pos + lead, piece.strip()))
        pos += len(piece) + 1
    if len(out) > 1 and not out[-1].text and line.rstrip().endswith("|") and not line.lstrip().startswith("|"):
        out.pop()  # "sajson | 1.16 |": a trailing pipe closes the row; the empty cell it leaves stays out
    return out


def _line(text: str, pos: int) -> tuple[int, int]:
    s = text.rfind("\n", 0, pos) + 1
    e = text.find("\n", pos)
    return s, len(text) if e < 0 else e


def _prev_paragraph(text: str, start: int) -> tuple[int, int] | None:
    """The paragraph before the line at `start` (paragraphs are separated by blank lines)."""
    pos = start - 1
    while pos > 0 and text[pos - 1] == "\n":
        pos -= 1
    if pos <= 0:
        return None
    return _line(text, pos - 1) if text[pos - 1] != "\n" else None


_IMAGE_ONLY = re.compile(r"(?:!\[[^\]\n]*\]\([^)\n]*\)\s*)+")


def table_row(text: str, pos: int) -> TableRow | None:
    """The table row holding `pos`, with its table's header, labels and caption; None outside a table body row
    (a header row itself, or a lone line with a pipe)."""
    ls, le = _line(text, pos)
    if not is_row(text[ls:le]):
        return None
    rows = [(ls, le)]
    cur = ls
    while (prev := _prev_paragraph(text, cur)) is not None and is_row(text[prev[0]:prev[1]]):
        rows.insert(0, prev)
        cur = prev[0]
    if len(rows) < 2:
        return None
    caption_span = _prev_paragraph(text, rows[0][0])
    for _ in range(2):  # a chart image between the heading and its table ("![ec2_chart](...)") captions nothing
        if caption_span is None or not _IMAGE_ONLY.fullmatch(text[caption_span[0]:caption_span[1]].strip()):
            break
        caption_span = _prev_paragraph(text, caption_span[0])
    caption = text[caption_span[0]:caption_span[1]] if caption_span else ""
    header = [c.text for c in split_cells(text, *rows[0])]
    if _looks_like_data(header):
        return None
    body = [tuple(c.text for c in split_cells(text, *r)) for r in rows[1:]]
    labels = [cells[0] for cells in body]
    group = ""
    for r in reversed(rows[1:-1]):
        cells = split_cells(text, *r)
        if len(cells) > 1 and cells[0].text and not any(c.text for c in cells[1:]):
            group = cells[0].text
            break
    # the rows after this one share the header too: their labels tell a label's shared first word
    nxt = le
    while True:
        m = re.compile(r"\n+").match(text, nxt)
        if not m or m.end() >= len(text):
            break
        ns, ne = _line(text, m.end())
        if not is_row(text[ns:ne]):
            break
        body.append(tuple(c.text for c in split_cells(text, ns, ne)))
        labels.append(body[-1][0])
        nxt = ne
    return TableRow(header, split_cells(text, ls, le), labels, caption if len(caption) <= MAX_CAPTION else "",
                    clean_cell(group), tuple(body))


def _looks_like_data(cells: Sequence[str]) -> bool:
    """A first row with measured values in most of its cells is data, not a header."""
    filled = [c for c in cells[1:] if c]
    return bool(filled) and sum(bool(cell_values(c)) and not re.search(r"[A-Za-z]{4,}", c) for c in filled) * 2 > \
        len(filled)


# --- cells ----------------------------------------------------------------------------------------------

_BARE = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?(?![\w.]*\.\d)(?:\s?(?P<unit>[A-Za-z%µμ][\w/%µμ.-]{0,12}))?")
_BOUND = re.compile(r"^\s*(?:[<>≤≥~≈]|up to\b|about\b|approx|around\b|at least\b|at most\b|over\b|under\b|"
                    r"more than\b|less than\b|约|大约|超过|最多|至少)|\+\s*$", re.I)
_VERSION = re.compile(r"^v\d+(?:\.\d+){1,3}(?:[-+.]?[A-Za-z]\w*)?$|^\d+(?:\.\d+){2,3}(?:[-+.]?[A-Za-z]\w*)?$", re.I)
# a row label that names a version ("3.11", "v1.31", "main"): a label is never a measurement
_VERSION_LABEL = re.compile(r"^v?\d+(?:\.\d+){1,3}(?:[-+.]?[A-Za-z]\w*)?x?$|^(?:main|master|trunk|dev|nightly)$", re.I)
_RELEASE_COLUMN = re.compile(r"\b(?:releases?|versions?|cycles?|branch(?:es)?|series|editions?)\b|版本|发行", re.I)
_VERSION_HEAD = re.compile(r"^(?:(?:[\w.-]+\s)?versions?|ver\.?|tags?|commits?|builds?|rev(?:ision)?s?|版本)$", re.I)
_ID_HEAD = re.compile(r"^(?:#|no\.?|n°|id|rank|issue|pr|ticket|step|index|序号|编号)$", re.I)
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)|<https?://[^>]*>|https?://\S+")
_MARK = re.compile(r"[*_`]+")


def clean_cell(text: str) -> str:
    # a link keeps its text, an image ("![chart](x.svg)") is nothing to read, nor a pictograph ("quollgen 🏆")
    text = _PICTOGRAPH.sub("", text)
    return _MARK.sub("", _LINK.sub(lambda m: "" if m.group(0).startswith("!") else m.group(1) or "", text)).strip()


_PICTOGRAPH = re.compile("[\U0001F000-\U0001FAFF\uFE0F\u200D]")


_REFERENCE = re.compile(r"(?::pep:|:rfc:|\b(?:PEP|RFC|CVE|issue|PR|bug|ticket)[\s#-]*|#)\W{0,2}$", re.I)
_LEAD_WORDS = re.compile(r"^(?:[<>≤≥~≈$€£¥+-]|up to|about|approx\.?|approximately|around|at least|at most|over|under|"
                         r"more than|less than|约|大约|超过|最多|至少|\s)*$", re.I)


def cell_values(cell: str) -> list[Value]:
    """The figures of a cell: values that lead it ("1.80", "~3 GB/s", "> 500", "50.5 % | ..."), read the way the
    sentence reader reads them, or a number standing alone ("0.34", "32.11" are figures in a table where prose
    would not count them). A number inside a name ("Core i5-8259U", "msvc 2019", "C++11"), a reference
    (":pep:`693`", "#123") or a version is no figure."""
    plain = re.sub(r"[*_`]", " ", cell)  # emphasis marks, blanked so offsets stay those of the cell
    lead = len(plain) - len(plain.lstrip())
    found = [v for v in find_values(plain) if _LEAD_WORDS.match(plain[lead:v.start]) or _follows_value(plain, v)]
    # a bare number in parentheses after the cell's figure annotates it (a rank, a run count, "±3"): "220.07 (2)"
    found = [v for v in found if v.unit or not _ANNOTATION.search(plain[:v.start])]
    if found:
        return [_unit_word(plain, v) for v in found]
    if any(not _LEAD_WORDS.match(plain[lead:v.start]) and not _ANNOTATION.search(plain[:v.start])
           for v in find_values(plain)):
        return []
    cell = plain
    m = _BARE.search(cell)
    if not m or _VERSION.match(cell.strip()) or re.search(r"\d[\d.]*\.\d+\.\d", cell) or not _LEAD_WORDS.match(
            cell[lead:m.start()]) or _REFERENCE.search(cell[:m.start()]):
        return []
    raw = m.group(0)[:m.start("unit") - m.start()].rstrip() if m.group("unit") else m.group(0)
    unit = m.group("unit") or ""
    try:
        number = float(raw.replace(",", ""))
    except ValueError:
        return []
    from openresearch.numbers import Quantity

    return [Value(m.start(), m.end(), raw, unit, Quantity(value=number, unit=unit), "bare" if not unit else "count")]


_ANNOTATION = re.compile(r"\d\s*\(\s*[±~+-]?\s*$")


_VERSION_CELL = re.compile(r"v?\d+\.\d+\.\d+(?:\.\d+)?|v\d+\.\d+")


def _version_cell(cell: str) -> str | None:
    """The version a cell holds and nothing else ("3.12.14", "v1.31.2", "`26.7.0`"); a two-part number
    ("3.12") reads as a figure unless written with a "v"."""
    text = clean_cell(cell)
    return text if _VERSION_CELL.fullmatch(text) else None


def _unit_word(cell: str, v: Value) -> Value:
    """"30 months": a bare figure and the one word after it are a figure and its unit."""
    if v.unit or v.kind not in ("bare", ""):
        return v
    m = re.match(r"\s?([A-Za-z%µμ][A-Za-z/%µμ]{0,11})\b(?!\s*[A-Za-z])", cell[v.end:])
    return v._replace(end=v.end + m.end(), unit=m.group(1), kind="count") if m else v


def _follows_value(cell: str, v: Value) -> bool:
    """A second figure of a cell that leads with one ("4.5 ms (p99: 9 ms)", "10-20 ms / 30 ms")."""
    before = cell[:v.start]
    return bool(re.search(r"\d", before)) and not re.search(r"[A-Za-z]\w*\s*$", before.rstrip(" (:/,;")) and \
        _LEAD_WORDS.match(cell[:len(cell) - len(cell.lstrip())]) is not None and bool(re.match(r"\s*[~<>≤≥$]?\d",
                                                                                             cell))


# --- headers --------------------------------------------------------------------------------------------

_HEAD_UNIT = re.compile(r"\s*[(（\[]\s*(?:in\s+)?([^()（）\[\]]{1,20}?)\s*[)）\]]|\s+in\s+([A-Za-z/%µ]{1,12})\s*$")
_VS = re.compile(r"^(?:vs\.?|versus|relative to|compared (?:to|with)|against|对比|相对)\s*(.+)$", re.I)
_UNIT_ONLY = re.compile(r"^(?:[KMGT]?i?B(?:/s(?:ec)?)?|[KMGT]?bps|ms|µs|us|ns|s|sec|%|x|ops/s|req/s|rps|qps|MB|GB|"
                        r"[\w]+/(?:s|sec|op|ms))$", re.I)


def _slug(words: str) -> str:
    return re.sub(r"[^0-9a-z\u4e00-\u9fff]+", "_", words.lower()).strip("_")


class Column(NamedTuple):
    metric: str | None  # None: not a quantity (a name, a note, an id)
    unit: str  # the unit the header gives its bare numbers ("" if none)
    baseline: str | None  # "vs. msgspec": the column is a ratio against this
    version: bool  # a version or release column: a condition, not a value
    condition: str | None = None  # a column per data set ("twitter.json"): the quantity is the caption's


_DATASET = re.compile(r"^[\w.+-]+\.(?:json|jsonl|ndjson|csv|tsv|txt|xml|yaml|yml|bin|dat|parquet|gz|zst|tar|log|"
                      r"html?)$", re.I)


def split_head(text: str) -> tuple[str, str]:
    """A header's words and the unit it gives in brackets or after "in": "Median (ms)" -> ("Median", "ms")."""
    if m := _HEAD_UNIT.search(text):
        return (text[:m.start()] + text[m.end():]).strip(), (m.group(1) or m.group(2) or "").strip()
    return text, ""


def column(head: str, caption: str, before: Column | None) -> Column:
    """What a column header says of the numbers under it."""
    text = clean_cell(head)
    if _ID_HEAD.match(text):
        return Column(None, "", None, False)
    if vs := _VS.match(text):
        base = before.metric if before and before.metric else "value"
        # a bare "vs." names no baseline (the row whose figure is 1.0x is it): the ratio's name says it is one
        named = vs.group(1).strip()
        return Column(f"{base}_ratio", "x", named if re.search(r"\w", named) else None, False)
    text, unit = split_head(text)
    if _DATASET.match(text):  # "canada.json | twitter.json": one column per data set, measured as the caption says
        return Column(canonical_metric(caption) or _caption_metric(caption) or _unit_metric(unit) or "value", unit,
                      None, False, text)
    if not text or _UNIT_ONLY.match(text):  # "GB/s": the quantity is the caption's ("the parsing speeds (in GB/s)")
        unit = unit or text
        return Column(canonical_metric(caption) or _caption_metric(caption) or _unit_metric(unit), unit, None, False)
    if _VERSION_HEAD.match(text):
        return Column(None, unit, None, True)
    if (stat := _STAT_HEAD.match(text)) and not canonical_metric(text):
        # "Median (ms) | Min | Max": statistics of one quantity the header does not name (the caption's, else the
        # unit's: a time); a statistic without a unit has the one of the statistic before it
        if not unit and before and before.metric and before.metric.split("_")[0] in _STAT_NAMES:
            unit = before.unit
        # without a unit ("type | default | max" of a setting) a minimum or maximum is a limit, not a run's
        if unit and (quantity := _named_quantity(caption) or _unit_metric(unit)):
            return Column(f"{stat.lastgroup}_{quantity}", unit, None, False)
    # "Lock+cache (s)" beside "Lock (s)": the same operation, under what the "+" adds
    plus = _PLUS.fullmatch(text)
    base, extra = (plus.group(1), plus.group(2)) if plus else (text, None)
    metric = canonical_metric(base) or _slug(base) or None
    if metric and not canonical_metric(base) and unit_kind(unit) == "time" and not _TIME_WORD.search(base):
        metric = f"{metric}_time"  # "Lock (s)", "Install (s)": how long the operation the header names took
    return Column(metric, unit, None, False, f"with {extra}" if extra and metric else None)


_PLUS = re.compile(r"([A-Za-z][\w -]*?)\s*\+\s*([A-Za-z][\w -]*)")
_TIME_WORD = re.compile(r"\b(?:times?|durations?|latenc(?:y|ies)|elapsed|took|wall|cpu|real|user|sys)\b", re.I)


_STAT_HEAD = re.compile(r"^(?:(?P<avg>mean|average|avg)|(?P<median>median)|(?P<min>min(?:imum)?)|"
                        r"(?P<max>max(?:imum)?)|(?P<stddev>std\.?\s?dev\.?|stddev|σ))$", re.I)
_STAT_NAMES = frozenset(_STAT_HEAD.groupindex)


def _distinct_metrics(columns: list[Column], header: Sequence[str]) -> list[Column]:
    """Two columns are two quantities: where their headers differ but name the same metric ("release date" and
    "latest release date" both say when something was released), the later one keeps its header's own words.
    Columns per data set or per unit under one caption share their metric by design and stay as they are."""
    seen: dict[str, str] = {}
    out: list[Column] = []
    for col, head in zip(columns, header, strict=False):
        text = _HEAD_UNIT.sub("", clean_cell(head)).strip()
        if col.metric and col.condition is None and text and not _UNIT_ONLY.match(text):
            first = seen.setdefault(col.metric, text.lower())
            if first != text.lower() and (own := _slug(text)) and own != col.metric:
                col = col._replace(metric=own)
        out.append(col)
    return out + columns[len(out):]


def _named_quantity(caption: str) -> str | None:
    """The quantity a caption names: "the parsing speeds (in GB/s) of ..." -> parsing_speed."""
    m = re.search(r"\b(?:the\s+)?((?:[a-z]+[- ]){0,2}(?:speeds?|rates?|times?|throughputs?|latenc(?:y|ies)|sizes?|"
                  r"ratios?|usage|memory|performance|scores?|durations?))\b", caption, re.I)
    return _slug(m.group(1)).removesuffix("s") if m else None


def _caption_metric(caption: str) -> str | None:
    """The noun phrase a caption names its figures by, or a short caption as a whole ("Sizes")."""
    if named := _named_quantity(caption):
        return named
    words = re.findall(r"[A-Za-z]+", caption)
    return _slug(caption).removesuffix("s") if 0 < len(words) <= 3 and not re.search(r"\d", caption) else None


def _unit_metric(unit: str) -> str | None:
    u = unit.lower()
    if unit_kind(unit) == "time" and "/" in u:
        return "time_per_op"  # "ns/op": how long one operation takes, not how many are done
    if "/" in u or u.endswith("ps"):
        return "throughput"
    if re.fullmatch(r"[kmgt]?i?b", u):
        return "size"
    if re.fullmatch(r"ms|µs|us|ns|s|sec", u):
        return "time"
    return None


# --- columns read whole ------------------------------------------------------------------------------------

_COUNT_CELL = re.compile(r"\d[\d,]*[kKM]?")


def factor_columns(row: TableRow) -> frozenset[int]:
    """See `_factor_columns`."""
    return _factor_columns(tuple(row.header), row.body)


@lru_cache(maxsize=256)
def _factor_columns(header: tuple[str, ...], body: tuple[tuple[str, ...], ...]) -> frozenset[int]:
    """The columns that say what the rows' figures were measured at, not what was measured: in a table that lists
    entities more than once ("quollgen | 10 | 30", "quollgen | 1000 | 283", "zorbsite | 10 | 13"), a column of
    whole numbers that takes the same few values for every entity, each once (pages, threads, clients, payload
    size), or one value in every row."""
    rows_of: dict[tuple[str, ...], list[int]] = {}
    for n, cells in enumerate(body):
        # a row's key: its label and its other cells that hold no number ("quollgen | blog | 100" and "quollgen |
        # heavy | 100" are two rows of one tool)
        if cells and (label := entity_key(clean_cell(cells[0]))):
            key = (label, *(clean_cell(c).lower() for c in cells[1:] if not re.search(r"\d", c)))
            rows_of.setdefault(key, []).append(n)
    groups = [g for g in rows_of.values() if len(g) >= 2]
    out: set[int] = set()
    for i in range(1, len(header)):
        column_cells = [clean_cell(r[i]) if len(r) > i else "" for r in body]
        if not all(_COUNT_CELL.fullmatch(c) for c in column_cells):
            continue
        head = clean_cell(header[i])
        if len(body) >= 3 and len(set(column_cells)) == 1 and not _HEAD_UNIT.search(head):
            # "Pages" at 1000 in every row: what all of them were measured at; none of any ("Valid documents not
            # deserialized" at 0 in every row) is what each achieved
            if column_cells[0] not in ("0", "1") and len(head.split()) <= 2:
                out.add(i)
            continue
        if len(groups) < 2:
            continue
        per_group = [[column_cells[n] for n in g] for g in groups]
        if len(set(column_cells)) >= 2 and all(len(set(vs)) == len(vs) for vs in per_group) and all(
                sum(v in vs for vs in per_group) >= 2 for v in set(column_cells)):
            out.add(i)
    return frozenset(out)


def _factor_condition(head: str, cell: str) -> str:
    """"Pages" over "1000": "1000 pages"; "Payload (KB)" over "64": "payload 64 KB"."""
    text, unit = split_head(clean_cell(head))
    value = clean_cell(cell)
    return " ".join(filter(None, [text.lower(), value, unit] if unit else [value, text.lower()]))


def year_column(row: TableRow, i: int) -> bool:
    """Whether the numbers of column i may be years: none of its other numbers is anything but a year ("1000" and
    "2008" under a column of "10", "100" are counts and times, not years)."""
    return i not in _not_year_columns(row.body)


@lru_cache(maxsize=256)
def _not_year_columns(body: tuple[tuple[str, ...], ...]) -> frozenset[int]:
    """The columns with a number that is no year, read once per table (every row's cells ask)."""
    out: set[int] = set()
    for cells in body:
        for i, cell in enumerate(cells):
            c = clean_cell(cell)
            if re.fullmatch(r"[\d.,]+", c) and not re.fullmatch(r"(?:1[89]|20)\d\d", c):
                out.add(i)
    return frozenset(out)


# --- rows -----------------------------------------------------------------------------------------------

def _label_entity(label: str, labels: Sequence[str], mentions: Sequence[Mention], label_start: int,
                  subject: str | None, releases: bool = False) -> tuple[str | None, str]:
    """(entity, qualifier) of a row label. Under a column of releases ("Release cycle", "Version") a bare number
    ("26") is a release of the subject too."""
    text = clean_cell(label)
    release = _VERSION_LABEL.match(text) or (releases and re.fullmatch(r"v?\d{1,4}", text))
    if not text or (not re.search(r"[A-Za-z\u4e00-\u9fff]", text) and not release):
        return None, ""
    if release:
        return (f"{subject} {text}" if subject else text), ""
    named = [m for m in mentions if label_start <= m.start < label_start + len(label)]
    if named and named[0].start - label_start <= 2:
        rest = text[text.lower().find(named[0].surface.lower()) + len(named[0].surface):] \
            if named[0].surface.lower() in text.lower() else ""
        return named[0].canonical, rest.strip(" ,;:-()（）")
    m = re.match(r"([^(（,，]+?)\s*[(（]([^)）]*)[)）]\s*(.*)$|([^,，]+?)\s*[,，]\s*(.+)$", text)
    if m and m.group(2) and any(n.surface.lower() == m.group(2).strip().lower() for n in named):
        # "JSON for Modern C++ (nlohmann/json)": the name in parentheses is the one the linker knows, the rest
        # another name of it, not a qualifier
        return next(n.canonical for n in named if n.surface.lower() == m.group(2).strip().lower()), ""
    base, qual = (text, "") if not m else ((m.group(1), " ".join(filter(None, (m.group(2), m.group(3)))))
                                            if m.group(1) else (m.group(4), m.group(5)))
    words = base.split()
    if len(words) > 1:
        first = words[0].lower()
        shared = sum(1 for lab in labels if clean_cell(lab).lower().split()[:1] == [first])
        if shared >= 2 or any(clean_cell(lab).lower() == first for lab in labels):
            base, qual = words[0], " ".join(filter(None, (" ".join(words[1:]), qual)))
    return base.strip(), qual.strip()


_SETUP_WORDS = re.compile(r"\b(?i:on|using|with|under)\s+(?:again\s+)?(?:an?\s+|the\s+)?"
                          r"([A-Z][\w.+-]*(?:\s[A-Z0-9][\w.+-]*){0,3}(?:\s(?:processor|cpu|machine|instance|server|laptop))?)")


def _caption_setup(caption: str) -> str:
    """What a table's caption says of its setup, not the caption itself: its setup phrases (hardware, threads,
    data sets: the sentence reader's), what it names in parentheses ("AWS EC2 (AMD EPYC 7R32, gcc 9.3)"), the
    data files and the capitalised things it says it ran on or with ("On a Skylake processor", "using GNU GCC
    9.1"); a short caption ("Sizes", "iPhone (Apple A14, clang 12)") is kept whole."""
    from openresearch.agents.extract.observations import condition_spans  # late: observations builds on tables

    text = re.sub(r"(?:,\s*)?\bsee\s*$", "", re.sub(r"\s+", " ", clean_cell(caption)).strip(" :：")).strip(" ,:：")
    if not text:
        return ""
    if len(text) <= 60:
        return text
    parts = [c for _, _, c in condition_spans(text, (), False)]
    parts += [p.strip() for p in re.findall(r"[(（]([^()（）]{2,60})[)）]", text) if re.search(r"[A-Za-z\d]", p)
              and not re.fullmatch(r"(?:in\s+)?[\w/%]{1,8}", p.strip())]  # "(in GB/s)" is a unit, not a setup
    parts += re.findall(r"\b[\w-]+\.(?:json|csv|txt|xml|bin|dat|parquet)\b", text)
    parts += [m.group(1) for m in _SETUP_WORDS.finditer(text)]
    return ", ".join(dict.fromkeys(p for p in parts if p))


def subject_layout(subject: str | None, header: Sequence[str], labels: Sequence[str], known: set[str]) -> str:
    """See `_layout`: one answer per table, not per row."""
    return _layout(subject, tuple(header), tuple(labels), frozenset(known))


@lru_cache(maxsize=1024)
def _layout(subject: str | None, header: tuple[str, ...], labels: tuple[str, ...], known: frozenset[str]) -> str:
    """How a table of a document about one product (`subject`) is laid out, from where that product's name is:
    "columns" when most column headers name it ("Zorbly Basic | Zorbly Plus": its editions across, what they
    give down the rows), "terms" when neither the rows nor the columns name it and the row labels are neither
    names the document knows nor versions ("LTS | 30 months" under "Phase | Duration": phases of the product),
    else "" (the rows are the entities: a README's benchmark lists its own product among the others)."""
    key = entity_key(subject or "")
    if len(key) < 2:
        return ""

    def names(cell: str) -> bool:
        return key in entity_key(clean_cell(cell))

    texts = [clean_cell(lab) for lab in labels if clean_cell(lab)]
    across = [h for h in header[1:] if clean_cell(h)]
    if not texts:
        return ""
    if len(across) >= 2 and 2 * sum(names(h) for h in across) >= len(across):
        return "columns"
    if any(names(t) for t in texts):
        return ""
    # a milestone table may start with the release itself ("26.0.0 | April 2026", then "Enters LTS | ...")
    if 2 * sum(bool(_VERSION_LABEL.match(t)) for t in texts) >= len(texts) or any(
            not _VERSION_LABEL.match(t) and (entity_key(t) in known or _NAME_SHAPED.fullmatch(t) or
                                              not re.search(r"[A-Za-z\u4e00-\u9fff]", t)) for t in texts):
        return ""
    return "terms"


# a label shaped like a name, not a phrase: one lower-case or mixed-case token, or one with digits or a path
# ("frobz", "quux", "acme/frobz", "frobz2", "QuuxJSON"); "LTS", "Alpha" and "End of Life" are phrases
_NAME_SHAPED = re.compile(r"[a-z][\w.+#-]*|\w*[a-z]\w*[A-Z]\w*|\S*(?:\d|/|\.\w)\S*")


def row_observations(row: TableRow, quote_start: int, quote: str, mentions: Sequence[Mention],
                     preferred: set[str], context_entity: str | None, named: frozenset[str] = frozenset(),
                     subject: str | None = None) -> list[ObservationIn] | None:
    """Observations of one table row; `quote` is text[quote_start:...] (the row as a unit; raw values are
    verbatim slices of it). None when the row cannot be read against its header (the caller reads it as prose)."""
    header, cells = row.header, row.cells
    if len(cells) < 2 or len(header) < 2 or len(cells) > len(header) + 1:
        return None
    if settings_table(tuple(header), tuple(row.labels)):
        # the asked product the passage is about, else the document's own, else whatever the passage names
        asked = context_entity and entity_key(context_entity) in {entity_key(p) for p in preferred}
        return _setting_row(row, quote_start, quote, context_entity if asked else subject or context_entity)
    header = list(header) + [""] * (len(cells) - len(header))
    columns: list[Column] = []
    for i, head in enumerate(header):
        columns.append(column(head, row.caption, columns[-1] if columns else None) if i else
                       Column(None, "", None, False))
    columns = _distinct_metrics(columns, header)
    label = cells[0]
    label_key = canonical_metric(clean_cell(label.text)) if label.text else None
    # transposed: metrics down the first column, entities across the header
    across = [h for h in header[1:] if h]
    known = {entity_key(p) for p in preferred} | set(named)
    names_across = len(across) >= 1 and all(entity_key(clean_cell(h)) in known for h in across)
    # a label that recurs ("encode", "decode" under each data set) names no entity: a table lists an entity once
    recurring = sum(clean_cell(lab).lower() == clean_cell(label.text).lower() for lab in row.labels) >= 2
    layout = subject_layout(subject, header, row.labels, known)
    # names across the header and none down the rows ("Test | quollship | zorbd | ..." over "TCP to HTTP | ..."):
    # the columns are the entities, whatever the corner cell says
    known_across = sum(entity_key(clean_cell(h)) in known for h in across)
    names_only_across = len(across) >= 2 and 2 * known_across >= len(across) and known_across >= 2 and not any(
        entity_key(clean_cell(lab)) in known for lab in row.labels)
    # or the document's own product is one of the column headers and the row labels are phrases, not names: a README
    # comparing itself with its peers test by test
    own_key = entity_key(subject or "")
    labels = [clean_cell(lab) for lab in row.labels if clean_cell(lab)]
    names_only_across = names_only_across or (
        len(across) >= 2 and len(own_key) >= 2 and any(entity_key(clean_cell(h)) == own_key for h in across) and
        bool(labels) and not any(entity_key(lab) == own_key or _NAME_SHAPED.fullmatch(lab) for lab in labels))
    transposed = (len(across) >= 2 and not clean_cell(header[0]) and (recurring or names_across)) or (
        bool(label_key or _HEAD_UNIT.search(clean_cell(label.text))) and names_across) or layout == "columns" or \
        names_only_across
    setup = _caption_setup(row.caption)
    if transposed:
        entity, qualifier = None, ""
    elif layout == "terms" and subject:
        # "| LTS | 30 months |" under "Phase | Duration" in a page about Zorbly: Zorbly's LTS duration
        entity, qualifier = subject, ""
        term = label_key or _slug(_HEAD_UNIT.sub("", clean_cell(label.text)))
        columns = [col if col.metric is None or col.version or term in col.metric else
                   col._replace(metric=f"{term}_{col.metric}") for col in columns]
    elif label_key and not canonical_metric(clean_cell(header[0])) and len(cells) == 2 and context_entity:
        entity, qualifier = context_entity, ""  # "limit | value": the label is the metric of the page's subject
        columns[1] = Column(label_key, columns[1].unit, None, False)
    else:
        entity, qualifier = _label_entity(label.text, row.labels, mentions, label.start, context_entity,
                                          bool(_RELEASE_COLUMN.search(clean_cell(header[0]))))
        if entity is None:
            return None if not label.text else []
    # a corner cell that names a data file ("twitter.json" above "parse (GB/s)") is what every row was measured on
    corner = clean_cell(header[0])
    data_file = corner if not transposed and _DATASET.match(corner) else ""
    notes = [clean_cell(c.text) for c, col in zip(cells[1:], columns[1:], strict=False)
             if c.text and (col.version or (not cell_values(c.text) and len(c.text) <= 30 and col.metric is None))]
    factors = frozenset() if transposed else factor_columns(row)
    notes = [_factor_condition(header[i], cells[i].text) for i in sorted(factors) if i < len(cells)] + notes
    out: list[ObservationIn] = []
    for i, (cell, col) in enumerate(zip(cells[1:], columns[1:], strict=False), start=1):
        if not cell.text or col.version or (col.metric is None and not transposed) or i in factors:
            continue
        who = clean_cell(header[i]) if transposed else entity
        edition = ""
        if layout == "columns" and subject and who:
            # "Zorbly Basic | Zorbly Plus | Legacy Support": editions of one product, each a condition of its figures
            edition, who = re.sub(r"\s*\[\^?\w+\]", "", who).strip(), subject
        metric = (label_key or _slug(_HEAD_UNIT.sub("", clean_cell(label.text)))) if transposed else col.metric
        if not who or not metric:
            continue
        if not transposed and (version := _version_cell(cell.text)):
            # "3.12.14" under "Latest", "1.18.19" under "Final patch release": the column's value is a version
            at = cell.start - quote_start + cell.text.find(version)
            if at >= 0 and quote[at:at + len(version)] == version:
                # the header's own words: "Final Patch Release" holds a version, not the date "released" names
                own = _slug(_HEAD_UNIT.sub("", clean_cell(header[i]))) or metric
                out.append(ObservationIn(entity=who, metric=own, value=version, unit="version",
                                         condition=", ".join(dict.fromkeys(
                                             p for p in (qualifier, edition, row.group, setup) if p)) or None))
            continue
        for v in cell_values(cell.text):
            if (v.kind == "date" or ((v.kind == "year" or (v.kind == "bare" and re.fullmatch(r"(?:19|20)\d\d", v.raw)))
                    and not (re.fullmatch(r"\d{4}", v.raw) and (col.unit or not year_column(row, i))))):
                unit = "date" if v.kind == "date" else "year"  # a month ("2028-10", "April 2029") reads as its year
            else:
                # a four-digit number read as a year is a count of the column's unit where the column says so
                unit = (v.unit if v.kind != "year" else "") or col.unit
                if v.unit and col.unit.lower().startswith(f"{v.unit.lower()}/"):
                    unit = col.unit  # "35510 ns/op" under "ns/op": the cell writes the header's unit
            if transposed and not label_key and (kind := _unit_metric(unit)) and kind not in metric:
                metric = f"{metric}_{kind}"  # "TCP to HTTP" in MiB/s: the TCP-to-HTTP throughput
            at = cell.start - quote_start + v.start
            if at < 0 or quote[at:at + len(v.raw)] != v.raw:
                continue
            role: ObservationRole = "bound" if _BOUND.search(cell.text[:v.start + 1]) or _BOUND.search(
                cell.text[v.end:]) else "own"
            parts = [qualifier, edition, row.group, *notes, col.condition or "", data_file]
            if col.baseline:
                parts.append(f"vs {col.baseline}")
            parts.append(setup)
            condition = ", ".join(dict.fromkeys(p for p in parts if p)) or None
            out.append(ObservationIn(entity=who, metric=metric, value=v.raw, unit=unit or None, condition=condition,
                                     role=role))
    return out


# a settings table: its first column names settings ("Parameter | Type | Default | Description"), its rows are
# keys ("client_max", "POOL_TTL", "maxRetries"); one column gives each key's default (and maybe its limits)
_SETTING_HEAD = re.compile(r"^(?:(?:config(?:uration)?|env(?:ironment)?|setting|option|parameter|flag)\s+)?"
                           r"(?:parameters?|params?|options?|settings?|names?|keys?|variables?|vars?|directives?|"
                           r"fields?|propert(?:y|ies)|flags?|knobs?|arguments?|args?)$", re.I)
_LIMIT_HEAD = re.compile(r"^(?:(?P<default>default(?:\s+value)?|defaults)|(?P<minimum>min(?:imum)?(?:\s+value)?)|"
                         r"(?P<maximum>max(?:imum)?(?:\s+value)?))$", re.I)
# a column that gives each key a value of its own without saying it is the default ("Example", "Value")
_VALUE_HEAD = re.compile(r"^(?P<example>examples?|sample)$|^(?P<value>values?)$", re.I)
# a description cell that gives the key's default in words ("... defaults to 12", "Default: 0.")
_DEFAULT_SAID = re.compile(r"\bdefaults?(?:\s+(?:value\s+)?(?:is|to|of))?\s*[:=]?\s*(?=[-+]?\d)", re.I)
_TYPE_HEAD = re.compile(r"^(?:type|unit|units|data\s*type|value\s*type|format)$", re.I)
_UNIT_SUFFIX = re.compile(r"[_.-](ms|us|ns|sec|secs|seconds|s|min|mins|minutes|hours|bytes|kb|mb|gb)$", re.I)
_PAREN_UNIT = re.compile(r"\(\s*(?:in\s+)?([A-Za-zµ]{1,12})\s*(?:[,;)]|=)")


def _key_cell(cell: str) -> str:
    """A key as its cell writes it, without its code marks or link ("`client_max`" -> "client_max"): underscores
    are the key's own, no emphasis."""
    return re.sub(r"[*`]+", "", _LINK.sub(r"\1", cell)).strip()


def _limit_kind(head: str) -> str | None:
    """default, minimum or maximum for a column headed as one ("Default", "Default (ms)", "Max value")."""
    m = _LIMIT_HEAD.match(split_head(clean_cell(head))[0])
    return m.lastgroup if m else None


@lru_cache(maxsize=1024)
def settings_table(header: tuple[str, ...], labels: tuple[str, ...]) -> bool:
    """Whether a table lists settings: a first column headed as such, or most of its labels keys, and a column that
    gives each one's default, minimum or maximum."""
    defaults = any(_limit_kind(h) == "default" for h in header[1:])
    if not defaults and not any(_VALUE_HEAD.match(clean_cell(h)) for h in header[1:]):
        return False  # ("Median | Min | Max" of a benchmark are a run's statistics)
    texts = [_key_cell(lab) for lab in labels if _key_cell(lab)]
    # a key is written as one: joined words ("client_max", "POOL_TTL", "maxRetries", "net.timeout")
    keys = sum(bool(re.fullmatch(r"[A-Za-z_][\w.-]*", t)) and keyword_like(t) and keyword_shape(t) for t in texts)
    # (a column of example values lists settings only under a first column headed as their names: "Field")
    return bool(texts) and ((bool(_SETTING_HEAD.match(clean_cell(header[0]))) and 2 * keys >= len(texts)) or
                            (defaults and 3 * keys >= 2 * len(texts) >= 4))


def _row_unit(row: TableRow, key: str) -> str | None:
    """The unit a settings row gives its key's values: its type cell ("integer (ms)"), the key's own suffix
    ("connect_timeout_ms"), or its description's parenthesis ("(seconds, 0 = unlimited)")."""
    def measure(word: str) -> str | None:
        return word if (known_unit(word) and canonical_unit(word)[0] not in ("", word.lower())) or \
            word.lower() in ("ms", "s", "sec", "secs") else None

    for head, cell in zip(row.header[1:], row.cells[1:], strict=False):
        if _TYPE_HEAD.match(clean_cell(head)) and (m := _PAREN_UNIT.search(cell.text)) and measure(m.group(1)):
            return m.group(1)
    if (m := _UNIT_SUFFIX.search(key)) and measure(m.group(1)):
        return m.group(1)
    for head, cell in zip(row.header[1:], row.cells[1:], strict=False):
        if not _limit_kind(head) and not _TYPE_HEAD.match(clean_cell(head)) and \
                (m := _PAREN_UNIT.search(cell.text)) and measure(m.group(1)):
            return m.group(1)
    for head, cell in zip(row.header[1:], row.cells[1:], strict=False):
        # ("time in milliseconds before a worker is stopped hard", "the span in seconds")
        if not _limit_kind(head) and not _TYPE_HEAD.match(clean_cell(head)) and (said := stated_unit(cell.text)) \
                and measure(said):
            return said
    return None


def _setting_row(row: TableRow, quote_start: int, quote: str, owner: str | None) -> list[ObservationIn]:
    """A settings table's row: its key's default (and minimum, maximum), of the document's product, the unit its
    type, key or description gives ("pool_ttl | integer (sec) | 0 | ..." -> pool_ttl = 0 sec, condition default).
    Its type, reload and description cells are no figures."""
    label = _key_cell(row.cells[0].text)
    if not owner or not label or not re.fullmatch(r"[A-Za-z_][\w.-]*", label):
        return []
    metric, unit = term_metric(label), _row_unit(row, label)
    group = [row.group] if row.group else []
    out: list[ObservationIn] = []
    said_default = False
    for head, cell in zip(row.header[1:], row.cells[1:], strict=False):
        if not _limit_kind(head) and not _TYPE_HEAD.match(clean_cell(head)) and (
                said := _DEFAULT_SAID.search(cell.text)) and (
                v := next(iter(cell_values(cell.text[said.end():])), None)):
            # ("number of quick respawns ... defaults to 12": the default the description gives)
            at = cell.start - quote_start + said.end() + v.start
            if v.kind not in ("date", "year") and at >= 0 and quote[at:at + len(v.raw)] == v.raw:
                out.append(ObservationIn(entity=owner, metric=metric, value=v.raw, unit=v.unit or unit,
                                         condition=", ".join(["default", *group])))
                said_default = True
    for head, cell in zip(row.header[1:], row.cells[1:], strict=False):
        value_kind = _VALUE_HEAD.match(clean_cell(head))
        kind = _limit_kind(head) or (value_kind.lastgroup if value_kind and not said_default else None)
        if not kind or not cell.text:
            continue
        _, head_unit = split_head(clean_cell(head))
        for v in cell_values(cell.text)[:1]:  # "7000 (global)": the default, then what it is of
            at = cell.start - quote_start + v.start
            # (a bare "1500" in a settings row is the key's value, however much it looks like a year)
            if (v.kind == "date" or (v.kind == "year" and cell.text.strip() != v.raw)) or at < 0 or \
                    quote[at:at + len(v.raw)] != v.raw:
                continue
            out.append(ObservationIn(entity=owner, metric=metric, value=v.raw,
                                     unit=(None if v.kind == "year" else v.unit) or head_unit or unit,
                                     condition=", ".join([k for k in (kind,) if k != "value"] + group) or None))
    return out

