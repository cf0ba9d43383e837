"""Pure scoring of research reports against answer keys written by others (bench/bench_answers.py runs them).

Everything here reads a run's ``report.json`` (a dict) and ``report.md`` (a string) and nothing else: no
graph, no files, no clock. The parsing tolerates the report's structure changing (grouped conflicts, an
answer lead paragraph, tables in the body) because other work reshapes it while this yardstick stays put.

Terms used below:

- a *unit* is one body sentence of the report (``sections[].sentences[]`` in report.json) or one row of a
  table in the body of report.md, or one citation-terminated span of a body paragraph that report.json does
  not hold; its *citations* are the ``[E-…]`` ids it carries; section ``0`` (and anything before the first
  section heading) is the *answer part*.
- a *conflict view* is one entry of report.json's ``conflicts`` (any shape: every nested dict with a
  ``raw_value`` or ``value`` is one side), or, when report.json has no ``conflicts`` key, one row of the
  report.md conflicts table; a *disagreement text* is a conflict view's values, or a body unit written as a
  disagreement (kind ``conflict``, or a cue such as "disagree", "differ", "whereas", "矛盾"; "different" is
  not a cue: "two different entities named X" is the separation a report should make).
- numbers are read after removing citations, URLs, version strings (3.0.5.0) and thousands separators; a
  number glued to a preceding letter or digit-dot (p99, m5.8xlarge, docs0) is not a number; "959k" gives 959.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

CITE = re.compile(r"\[(E-[0-9a-f]{6,})\]", re.IGNORECASE)
_CITE_RUN = re.compile(r"((?:\s*\[E-[0-9a-f]{6,}\])+[.。;；!?！？]?)", re.IGNORECASE)
_URL = re.compile(r"<[^>\s]*>|\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
_VERSION = re.compile(r"\b[vV]?\d+(?:\.\d+){2,}\b")
_THOUSANDS = re.compile(r"(?<=\d)[,_\u202f\u2009](?=\d{3}(?!\d))")  # "15_000" as code writes it
_NUMBER = re.compile(r"(?<![A-Za-z0-9.])\d+(?:\.\d+)?")
_TAIL_HEADINGS = ("conflicts between sources", "evidence", "verification", "run metrics")

_MONTHS = {m: i + 1 for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"])}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_MON = r"(january|february|march|april|may|june|july|august|september|october|november|december|" \
       r"jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_ORD = r"(?:st|nd|rd|th)?"
_DATE_PATTERNS = [
    # 2 July 1829, 2nd of July 1829
    (re.compile(rf"\b(\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MON},?\s+(\d{{3,4}})\b", re.I), ("d", "m", "y")),
    # July 2, 1829 / October 1st, 1974
    (re.compile(rf"\b{_MON}\s+(\d{{1,2}}){_ORD},?\s+(\d{{3,4}})\b", re.I), ("m", "d", "y")),
    # 1829-07-02
    (re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b"), ("y", "m", "d")),
    # 1829年7月2日
    (re.compile(r"(\d{3,4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日"), ("y", "m", "d")),
    # July 1829
    (re.compile(rf"\b{_MON},?\s+(\d{{3,4}})\b", re.I), ("m", "y")),
    # 2 July / July 2 (no year)
    (re.compile(rf"\b(\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MON}\b", re.I), ("d", "m")),
    (re.compile(rf"\b{_MON}\s+(\d{{1,2}}){_ORD}\b", re.I), ("m", "d")),
]

_DISAGREEMENT = re.compile(
    r"\b(conflict\w*|disagree\w*|contradict\w*|inconsisten\w*|discrepan\w*|differ|differs|differed|disput\w*|"
    r"whereas|versus|vs\.?|but (?:another|other|a second)|other sources?|another source)\b"
    r"|矛盾|不一致|冲突|分歧|出入|不符",
    re.IGNORECASE)
_RELATIVE_TO = re.compile(r"[(（]\s*(?:vs\.?|versus|compared (?:to|with)|相比|对比)\s[^)）]*[)）]", re.IGNORECASE)
_EXPLANATION = re.compile(
    r"\b(different|differs? in|not (?:directly )?comparable|not a (?:real )?(?:conflict|contradiction|"
    r"disagreement)|near[- ]miss|another (?:metric|dataset|hardware|version|edition|product)|"
    r"(?:hardware|dataset|workload|version|edition|product|scope|setup|condition)s? (?:differ|are not the same))\b"
    r"|口径|不同(?:的)?(?:硬件|版本|产品|指标|条件|数据集|口径|场景|基准)|并非(?:同一|矛盾)|不可比|不是同一",
    re.IGNORECASE)
_QUALIFIERS = {
    "average": "average", "avg": "average", "mean": "average", "median": "median", "typical": "typical",
    "typically": "typical", "maximum": "maximum", "max": "maximum", "up to": "maximum",
    "minimum": "minimum", "at least": "minimum", "p50": "p50", "p90": "p90", "p95": "p95",
    "p99": "p99", "p999": "p99.9", "p99.9": "p99.9", "stored": "stored", "indexed": "indexed",
    "per hour": "per hour", "per day": "per day", "per month": "per month", "per year": "per year",
    "hourly": "per hour", "monthly": "per month", "平均": "average", "最大": "maximum", "最高": "maximum",
    "最小": "minimum", "至少": "minimum", "上限": "maximum",
}
_QUALIFIER = re.compile(r"(?<![a-z0-9])(" + "|".join(sorted((re.escape(k) for k in _QUALIFIERS), key=len,
                                                          reverse=True)) + r")(?![a-z0-9])", re.IGNORECASE)
_RECOMMEND = re.compile(
    r"\b(recommend\w*|choose|chosen|pick|go with|best (?:choice|fit|option|suited)|should (?:use|choose|pick|"
    r"adopt)|is the (?:best|right|strongest)|suits?|suited|prefer\w*|favou?rs?|favou?red|points? to)\b"
    r"|推荐|建议|选择|首选|倾向",
    re.IGNORECASE)


# --- text and numbers ---------------------------------------------------------------------------------------

def strip_refs(text: str) -> str:
    """Text without citations and URLs (their digits are not values)."""
    return _URL.sub(" ", CITE.sub(" ", unicodedata.normalize("NFKC", text)))


def numbers(text: str) -> list[float]:
    """The numbers a reader sees in text: thousands separators removed, versions, ids and URLs left out."""
    t = _THOUSANDS.sub("", _VERSION.sub(" ", strip_refs(text)))
    return [float(m) for m in _NUMBER.findall(t)]


def has_number(found: Iterable[float], x: float) -> bool:
    return any(abs(f - x) <= 1e-9 * max(1.0, abs(x)) for f in found)


def norm_phrase(text: str) -> str:
    """Lower case, NFKC, citations/URLs and thousands separators removed, punctuation to spaces, one space."""
    t = _THOUSANDS.sub("", strip_refs(text)).lower()
    t = re.sub(r"[^\w.]|(?<!\d)\.|\.(?!\d)", " ", t)
    return " ".join(t.split())


def dates(text: str) -> set[str]:
    """Normalised dates mentioned in text: YYYY-MM-DD, YYYY-MM, or --MM-DD when the year is absent."""
    out: set[str] = set()
    t = strip_refs(text)
    for pattern, order in _DATE_PATTERNS:
        for m in pattern.finditer(t):
            parts: dict[str, int] = {}
            groups = [g for g in m.groups() if g is not None]
            for key, g in zip(order, groups, strict=False):
                parts[key] = _MONTHS[g.lower().rstrip(".")] if key == "m" and not g.isdigit() else int(g)
            if not 1 <= parts.get("m", 1) <= 12 or not 1 <= parts.get("d", 1) <= 31:
                continue
            if "y" in parts and "d" in parts:
                out.add(f"{parts['y']:04d}-{parts['m']:02d}-{parts['d']:02d}")
            elif "y" in parts:
                out.add(f"{parts['y']:04d}-{parts['m']:02d}")
            else:
                out.add(f"--{parts['m']:02d}-{parts['d']:02d}")
    return out


@dataclass(frozen=True)
class Value:
    """An answer-key value: a date, a number (with whatever words), or a phrase."""

    raw: str
    kind: str  # "date" | "number" | "text"
    numbers: tuple[float, ...] = ()
    date: str | None = None
    year: int | None = None
    phrase: str = ""


def parse_value(raw: str) -> Value:
    phrase = norm_phrase(raw)
    phrase = re.sub(r"^(a|an|the)\s+", "", phrase)
    found = dates(raw)
    if found:
        best = max(found, key=len)  # the most specific reading: 1829-07-02 over --07-02
        year = int(best[:4]) if not best.startswith("--") else None
        return Value(raw, "date", tuple(numbers(raw)), best, year, phrase)
    nums = tuple(numbers(raw))
    if nums:
        years = [int(n) for n in nums if n.is_integer() and 1000 <= n <= 2100]
        return Value(raw, "number", nums, None, years[0] if len(years) == 1 and len(nums) == 1 else None, phrase)
    return Value(raw, "text", phrase=phrase)


def value_in(v: Value, text: str) -> bool:
    """Is v stated in text? Dates as normalised dates, numbers as all their numbers, phrases as whole words."""
    if v.kind == "date":
        return v.date in dates(text) if v.date else False
    if v.kind == "number":
        found = numbers(text)
        return all(has_number(found, n) for n in v.numbers)
    return bool(v.phrase) and f" {v.phrase} " in f" {norm_phrase(text)} "


def pair_in(g: Value, w: Value, text: str) -> bool:
    """Are two different values both stated in text? Dates also count by year when their years differ."""
    if same_value(g, w):
        return False
    if value_in(g, text) and value_in(w, text):
        return True
    if g.year is not None and w.year is not None and g.year != w.year:
        found = numbers(text)
        return has_number(found, g.year) and has_number(found, w.year)
    return False


def same_value(a: Value, b: Value) -> bool:
    if a.kind == "date" and b.kind == "date":
        return a.date == b.date
    if a.kind == "number" and b.kind == "number":
        return sorted(a.numbers) == sorted(b.numbers)
    return a.phrase == b.phrase


# --- the report ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Unit:
    text: str
    citations: tuple[str, ...]
    section: int  # 0 = the answer part (first section, or anything before the first section heading)
    kind: str = "claim"  # claim | conflict | gap | table | prose
    cells: tuple[tuple[str, str], ...] = ()  # a body table row: (column header, cell) pairs

    def clauses(self) -> list[tuple[str, tuple[str, ...], str]]:
        """(text, citations, context) of each ';'-separated part (of each cell, for a table row, whose column
        header is its context); a part without citations of its own takes the unit's."""
        pieces = self.cells or (("", self.text),)
        out = []
        for context, text in pieces:
            for part in re.split(r"[;；]", text):
                if part.strip():
                    out.append((part, tuple(CITE.findall(part)) or self.citations, context))
        return out


@dataclass(frozen=True)
class ConflictView:
    entity: str
    metric: str
    values: tuple[str, ...]  # every side's value as written (and its normalised number)
    quotes: tuple[str, ...]
    evidence_ids: tuple[str, ...]
    conditions: tuple[str, ...] = ()  # each side's condition ("" when it states none)
    row: str = ""  # a one-line rendering for people
    side_quotes: tuple[tuple[str, ...], ...] = ()  # each side's quotes

    @property
    def text(self) -> str:
        return " ; ".join(self.values)


@dataclass(frozen=True)
class Evidence:
    id: str
    quote: str
    source_url: str
    entities: tuple[str, ...] = ()


@dataclass
class ParsedReport:
    units: list[Unit]
    conflicts: list[ConflictView]
    evidence: dict[str, Evidence]
    first_paragraph: str = ""
    answer_text: str = ""  # all of the answer part, for people

    @property
    def cited(self) -> list[Unit]:
        return [u for u in self.units if u.citations]

    def disagreement_texts(self) -> Iterator[tuple[str, str, tuple[str, ...]]]:
        """(where, text, citations) of everything the report presents as a disagreement."""
        for c in self.conflicts:
            yield "conflict", c.text, c.evidence_ids
        for u in self.units:
            # "6.4x (vs InfluxDB)" is a relative claim's condition, not a disagreement between sources
            if u.kind == "conflict" or _DISAGREEMENT.search(_RELATIVE_TO.sub("", strip_refs(u.text))):
                yield "sentence", u.text, u.citations


def _md_blocks(md: str) -> list[tuple[int, str, list[str]]]:
    """(section index, heading, lines) of report.md's body: -1 is anything before the first section heading."""
    blocks: list[tuple[int, str, list[str]]] = [(-1, "", [])]
    seen_title = False
    for line in md.splitlines():
        if line.startswith("# ") and not seen_title:
            seen_title = True
            continue
        if line.startswith("## "):
            blocks.append((len(blocks) - 1, line[3:].strip(), []))
            continue
        blocks[-1][2].append(line)
    return blocks


def _split_units(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """A paragraph cut after each run of citations (the writer puts them at the end of a sentence)."""
    parts = _CITE_RUN.split(text)
    out: list[tuple[str, tuple[str, ...]]] = []
    for i in range(0, len(parts), 2):
        body = parts[i] + (parts[i + 1] if i + 1 < len(parts) else "")
        if body.strip():
            out.append((body.strip(), tuple(CITE.findall(body))))
    return out


def _is_tail(heading: str) -> bool:
    h = heading.lower()
    return any(h.startswith(t) for t in _TAIL_HEADINGS)


def _table_cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _conflict_sides(node: Any, top: bool = True) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if not top and ("raw_value" in node or ("value" in node and not isinstance(node["value"], dict | list))):
            yield node
            return
        for v in node.values():
            yield from _conflict_sides(v, top=False)
    elif isinstance(node, list):
        for v in node:
            yield from _conflict_sides(v, top=False)


def _plain(x: float) -> str:
    """A number without an exponent (1.2e+06 would read as 1.2 and 6)."""
    return f"{x:.6f}".rstrip("0").rstrip(".") if abs(x) < 1e15 else f"{x:.0f}"


def _strings(side: dict[str, Any], one: str, many: str) -> list[str]:
    """A side's field given as one string (``quote``) or as a list (``quotes``)."""
    got: list[str] = [str(side[one])] if side.get(one) else []
    more = side.get(many)
    if isinstance(more, list):
        got += [str(x) for x in more if x]
    return got


def _conflict_view(c: dict[str, Any]) -> ConflictView:
    values, side_quotes, ids, conds = [], [], [], []
    for side in _conflict_sides(c):
        raw = " / ".join(_strings(side, "raw_value", "raw_values")).strip()
        val = side.get("value")
        unit = str(side.get("raw_unit") or side.get("unit") or c.get("unit") or "")
        shown = raw or (_plain(val) if isinstance(val, int | float) else str(val or ""))
        if isinstance(val, int | float) and raw and not has_number(numbers(raw), float(val)):
            shown += f" ({_plain(val)} {side.get('unit') or c.get('unit') or ''})".rstrip()
        values.append(f"{shown} {unit}".strip() if unit and unit not in shown else shown)
        side_quotes.append(tuple(_strings(side, "quote", "quotes")))
        for key in ("evidence_id", "evidence_ids", "evidence"):
            got = side.get(key)
            if isinstance(got, str):
                ids.append(got)
            elif isinstance(got, list):
                ids += [x if isinstance(x, str) else str(x.get("id", "")) for x in got]
        conds.append("; ".join(sorted(set(_strings(side, "condition", "conditions")))))
    entity, metric = str(c.get("entity") or ""), str(c.get("metric") or "")
    group_condition = str(c.get("condition") or "")
    row = f"{entity} | {metric} | {group_condition or '-'} | " + " vs ".join(
        f"{v} ({cond})" if cond else v for v, cond in zip(values, conds, strict=True))
    return ConflictView(entity, metric, tuple(values), tuple(q for qs in side_quotes for q in qs),
                        tuple(x for x in ids if x), tuple(conds), row, tuple(side_quotes))


def parse_report(report: dict[str, Any], md: str) -> ParsedReport:
    units: list[Unit] = []
    for si, sec in enumerate(report.get("sections") or []):
        for s in sec.get("sentences") or []:
            text = str(s.get("text") or "")
            cites = tuple(s.get("citations") or CITE.findall(text))
            units.append(Unit(text, cites, si, str(s.get("kind") or "claim")))
    known = {norm_phrase(u.text) for u in units}
    json_titles = {str(sec.get("title") or "").strip() for sec in report.get("sections") or []}
    md_conflict_rows: list[ConflictView] = []
    first_paragraph = ""
    answer_lines: list[str] = []
    for index, heading, lines in _md_blocks(md):
        if _is_tail(heading):
            if heading.lower().startswith("conflicts"):
                for line in lines:
                    if line.startswith("|") and not re.match(r"^\|[\s|:-]+\|?$", line):
                        cells = _table_cells(line)
                        if cells and cells[0].lower() != "entity":
                            ids = tuple(CITE.findall(line))
                            md_conflict_rows.append(ConflictView(
                                cells[0], cells[1] if len(cells) > 1 else "",
                                tuple(strip_refs(c) for c in cells[2:]), (), ids, (), " | ".join(cells)))
            continue
        section = max(index, 0)
        prose_in_json = index >= 0 and heading in json_titles  # its sentences are units already
        paragraph: list[str] = []

        def flush() -> None:
            nonlocal first_paragraph
            text = " ".join(paragraph).strip()
            paragraph.clear()
            if not text or (text.startswith("_") and text.endswith("_")):
                return
            if not first_paragraph:
                first_paragraph = text
            if prose_in_json:
                return
            for body, cites in _split_units(text):
                if norm_phrase(body) not in known:
                    units.append(Unit(body, cites, section, "prose"))

        table_header: list[str] | None = None
        for line in lines:
            if section == 0 and line.strip() and not line.startswith(">"):
                answer_lines.append(line)
            if line.startswith(">"):
                continue
            if line.startswith("|"):
                flush()
                if not re.match(r"^\|[\s|:-]+\|?$", line):
                    if not first_paragraph:
                        first_paragraph = line.strip()
                    cells = _table_cells(line)
                    if table_header is None:
                        table_header = cells
                    units.append(Unit(" | ".join(cells), tuple(CITE.findall(line)), section, "table",
                                      tuple(zip(table_header, cells, strict=False))))
                continue
            table_header = None
            if not line.strip():
                flush()
            else:
                paragraph.append(line.strip())
        flush()
    if "conflicts" in report:
        conflicts = [_conflict_view(c) for c in report.get("conflicts") or [] if isinstance(c, dict)]
    else:
        conflicts = md_conflict_rows
    evidence = {}
    for e in report.get("evidence") or []:
        src = e.get("source") or {}
        url = unquote(str(src.get("url") or e.get("source_url") or ""))
        evidence[str(e.get("id"))] = Evidence(str(e.get("id")), str(e.get("quote") or ""), url,
                                              tuple(str(x) for x in e.get("entities") or []))
    return ParsedReport(units, conflicts, evidence, first_paragraph, "\n".join(answer_lines))


# --- RAMDocs: look-up questions with misinformation and same-name entities ---------------------------------

@dataclass
class RamdocsScore:
    eligible_misinfo: bool  # has a misinfo document and a numeric or date gold answer
    disclosed: bool  # a wrong value and a gold value in one disagreement
    gold_any_first: bool
    gold_any_anywhere: bool
    gold_all_first: bool
    gold_all_anywhere: bool
    eligible_ambiguity: bool  # >= 2 disambiguated entities with >= 2 distinct gold values
    ambiguity_conflict: bool  # two gold values reported as a conflict with each other
    evidence: list[str] = field(default_factory=list)  # what matched, for --verbose


def _has_digit(s: str) -> bool:
    return any(ch.isdigit() for ch in s)


def _distinct(values: Iterable[Value]) -> list[Value]:
    out: list[Value] = []
    for v in values:
        if not any(same_value(v, o) for o in out):
            out.append(v)
    return out


def score_ramdocs(item: dict[str, Any], parsed: ParsedReport) -> RamdocsScore:
    golds = _distinct(parse_value(g) for g in item.get("gold_answers") or [])
    docs = item.get("documents") or []
    has_misinfo = any(d.get("type") == "misinfo" for d in docs)
    wrong_raw = list(item.get("wrong_answers") or []) or [
        d.get("answer", "") for d in docs if d.get("type") == "misinfo" and d.get("answer") not in (None, "unknown")]
    wrongs = [w for w in _distinct(parse_value(w) for w in wrong_raw if w)
              if not any(same_value(w, g) for g in golds)]
    notes: list[str] = []
    eligible = has_misinfo and any(_has_digit(g.raw) for g in golds) and bool(wrongs)
    disclosed = False
    texts = list(parsed.disagreement_texts())
    if eligible:
        for where, text, _ in texts:
            hit = next(((g, w) for g in golds for w in wrongs if pair_in(g, w, text)), None)
            if hit:
                disclosed = True
                notes.append(f"disclosed in {where}: {hit[0].raw!r} vs {hit[1].raw!r}: {text[:160]}")
                break

    def stated(g: Value, first: bool) -> bool:
        return any(value_in(g, u.text) for u in parsed.cited if not first or u.section <= 0)

    first = [stated(g, True) for g in golds]
    anywhere = [stated(g, False) for g in golds]
    ents = item.get("disambig_entity") or []
    amb_eligible = len(ents) >= 2 and len(golds) >= 2
    amb = False
    if amb_eligible:
        for where, text, _ in texts:
            hit = next(((a, b) for a, b in itertools.combinations(golds, 2) if pair_in(a, b, text)), None)
            if hit:
                amb = True
                notes.append(f"same-name conflict in {where}: {hit[0].raw!r} vs {hit[1].raw!r}: {text[:160]}")
                break
    return RamdocsScore(eligible, disclosed, any(first), any(anywhere), bool(golds) and all(first),
                        bool(golds) and all(anywhere), amb_eligible, amb, notes)


# --- tsdb docs: key facts, real conflicts and near-misses ---------------------------------------------------

@dataclass
class FactScore:
    name: str
    found: bool
    from_doc: bool  # a matching sentence cites evidence from the fact's document
    quote_supports: bool  # a matching sentence's cited quote itself holds all the numbers
    where: str = ""


def _entity_in(entity: str, text: str, cites: Sequence[str], parsed: ParsedReport) -> bool:
    e = entity.lower()
    if e in text.lower():
        return True
    for c in cites:
        ev = parsed.evidence.get(c)
        if ev and (e in ev.quote.lower() or any(e in x.lower() for x in ev.entities)):
            return True
    return False


def _from_doc(doc: str, cites: Sequence[str], parsed: ParsedReport) -> bool:
    for c in cites:
        ev = parsed.evidence.get(c)
        if ev and (ev.source_url.rsplit("/", 1)[-1] == doc or ev.source_url.endswith(doc)):
            return True
    return False


_NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
                 "twenty"]
_ORDINALS = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
             "eleventh", "twelfth"]
_WORDS = {w: i for i, w in enumerate(_NUMBER_WORDS)} | {w: i for i, w in enumerate(_ORDINALS) if i}


def fact_numbers(written: Iterable[str]) -> list[float]:
    """The numbers a fact lists, as the report's number reader (`numbers`) sees them: "twelve" is 12, a date
    "2023-10-02" is its parts (2023, 10, 2), and a version of three or more parts ("3.12.0") is nothing: the
    reader leaves versions out of text, so a fact must not need one (its entity and other numbers place it)."""
    out: list[float] = []
    for n in written:
        if _VERSION.fullmatch(n.strip()):
            continue
        try:
            out.append(float(n))
        except ValueError:
            if n.strip().lower() in _WORDS:
                out.append(float(_WORDS[n.strip().lower()]))
            else:
                out += [float(p) for p in re.findall(r"\d+", n)]
    return out


def score_fact(fact: dict[str, Any], parsed: ParsedReport, any_form: bool = False) -> FactScore:
    """Whether the report states a key fact: all its numbers (or, `any_form`, one of the forms it lists: "180"
    seconds or "3" minutes; a fact may say so of itself, "match": "any") in a cited clause that names its entity."""
    if (any_form or fact.get("match") == "any") and len(fact["numbers"]) > 1:
        scores = [score_fact({**fact, "numbers": [n]}, parsed) for n in fact["numbers"]]
        return max(scores, key=lambda s: (s.found, s.from_doc, s.quote_supports))
    nums = fact_numbers(fact["numbers"])
    entity, doc = str(fact.get("entity") or ""), str(fact.get("doc") or "")
    found = from_doc = supports = False
    where = ""
    for u in parsed.cited:
        if not all(has_number(numbers(u.text), n) for n in nums):
            continue
        # the entity must be named where a number of the fact is: in that clause (or its column header), or by
        # the evidence that clause cites; "10k [E-1]; no figure found for X" does not give X's 10
        about = [(text, cites) for text, cites, context in u.clauses()
                 if any(has_number(numbers(text), n) for n in nums)
                 and _entity_in(entity, f"{context} {text}", cites, parsed)]
        if not about:
            continue
        found = True
        where = where or u.text[:200]
        cites = tuple(c for _, cs in about for c in cs)
        if _from_doc(doc, cites, parsed):
            from_doc = True
        quote_nums = [x for c in cites if c in parsed.evidence for x in numbers(parsed.evidence[c].quote)]
        supports = supports or all(has_number(quote_nums, n) for n in nums)
    return FactScore(str(fact.get("name") or ""), found, from_doc, supports, where)


@dataclass
class ConflictScore:
    name: str
    found: bool  # both sides' numbers in one disagreement
    found_with_entity: bool  # ... that also names the entity (in its text, its entity field or its cited quotes)
    where: str = ""


def score_conflict(conflict: dict[str, Any], parsed: ParsedReport) -> ConflictScore:
    sides = [fact_numbers([n]) for n in (list(conflict["numbers"]) * 2)[:2]]
    # a side written as a date or a version is its most telling part: the year, or the minor version
    a, b = (max(s, key=lambda x: (x >= 1000, x)) if s else 0.0 for s in sides)
    entity = str(conflict.get("entity") or "")
    found = with_entity = False
    where = ""
    views = {c.text: c for c in parsed.conflicts}
    for kind, text, cites in parsed.disagreement_texts():
        got = numbers(text)
        if not (has_number(got, a) and has_number(got, b)):
            continue
        found = True
        where = where or f"{kind}: {text[:200]}"
        view = views.get(text) if kind == "conflict" else None
        named = _entity_in(entity, text + " " + (view.entity if view else ""), cites, parsed)
        if named:
            with_entity = True
            where = f"{kind}: {text[:200]}"
            break
    return ConflictScore(str(conflict.get("name") or ""), found, with_entity, where)


def near_miss_sides(name: str) -> list[list[float]]:
    """The numbers on each side of a near-miss named 'X: 145k rows/s (…) vs 111K rows/s (…)'.

    Single-digit integers are dropped from a side that has other numbers (product generations such as
    "InfluxDB 3", thread counts); the text before a leading 'topic:' label is ignored."""
    sides = []
    for i, part in enumerate(re.split(r"\s+vs\.?\s+|\s+versus\s+", name)):
        if i == 0 and re.search(r"[:：]", part):
            part = re.split(r"[:：]", part, maxsplit=1)[1]
        nums = numbers(part)
        big = [n for n in nums if not (n.is_integer() and n < 10)]
        sides.append(big or nums)
    return [s for s in sides if s]


@dataclass
class NearMissScore:
    name: str
    flagged: list[str]  # disagreements that set two sides against each other without saying why they differ


def score_near_miss(near_miss: dict[str, Any], parsed: ParsedReport) -> NearMissScore:
    sides = near_miss_sides(str(near_miss.get("name") or ""))
    flagged: list[str] = []
    views = {c.text: c for c in parsed.conflicts}
    for kind, text, _ in parsed.disagreement_texts():
        got = numbers(text)
        hit = [i for i, side in enumerate(sides) if any(has_number(got, n) for n in side)]
        if len(hit) < 2:
            continue
        view = views.get(text) if kind == "conflict" else None
        explained = bool(_EXPLANATION.search(text)) or bool(view and len({x for x in view.conditions if x}) > 1)
        if not explained:
            flagged.append(f"{kind}: {(view.row if view else text)[:200]}")
    return NearMissScore(str(near_miss.get("name") or ""), flagged)


# --- the example corpus -------------------------------------------------------------------------------------

def qualifiers(text: str) -> set[str]:
    """Statistic and scope words of a quote. "peak" is not one: a benchmark's peak is its throughput."""
    return {_QUALIFIERS[m.lower()] for m in _QUALIFIER.findall(text)}


def spurious_by_qualifier(c: ConflictView) -> bool:
    """A conflict whose values' quotes use different qualifier words (average vs maximum, stored vs indexed)."""
    sets = ([set().union(*(qualifiers(q) for q in qs)) for qs in c.side_quotes if qs] if c.side_quotes
            else [qualifiers(q) for q in c.quotes])
    return any(a != b for a, b in itertools.combinations(sets, 2))


@dataclass
class AnswerFirst:
    answers: bool  # a cited sentence of the first paragraph names an option as the recommendation
    names_option: bool  # the first paragraph names one of the options at all
    cited: bool  # the first paragraph carries a citation
    sentence: str = ""


def score_answer_first(parsed: ParsedReport, options: Sequence[str]) -> AnswerFirst:
    para = parsed.first_paragraph
    low = para.lower()
    names = any(o.lower() in low for o in options)
    cited = bool(CITE.search(para))
    for body, cites in _split_units(para):
        text = strip_refs(body)
        if cites and any(o.lower() in text.lower() for o in options) and _RECOMMEND.search(text):
            return AnswerFirst(True, names, cited, body)
    return AnswerFirst(False, names, cited, "")
