"""Deterministic rules for the extractor: sentence units, evidence types and entity mentions. Pure core.

Sentence units are exact slices of the stored text (offsets are the contract of invariant 1); markup
such as list bullets and heading marks is trimmed from the front of a unit, never rewritten.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import Any, NamedTuple

from openresearch.agents.extract.releases import (
    ADDED_SECTION,
    ENTRY_SINCE,
    RELEASE_HEADING,
    VERSION_NOTE,
    Release,
    adds_feature,
    dated_release,
    records_tag,
    release_heading,
)
from openresearch.agents.extract.requirements import states_requirement
from openresearch.agents.extract.signatures import states_defaults
from openresearch.agents.extract.values import find_values
from openresearch.agents.plan.vocabulary import ordinary_word
from openresearch.identity import AliasResolver, entity_key
from openresearch.ingest.benchlines import is_bench_line
from openresearch.ingest.chunk import sentence_spans
from openresearch.ingest.settings_lines import help_entry
from openresearch.models import EvidenceType

MAX_UNIT_CHARS = 600  # a longer "sentence" is a table or a run-on list: cut so a quote stays readable
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LEAD = re.compile(r"(?:#{1,6}\s+|[-*+•]\s+|>\s*|\d{1,2}[.)]\s+|\|\s*)+")
_BLOCK_START = re.compile(r"\s*(?:[-*+•>#|]|\d{1,2}[.)]\s)")
_LINE_END = re.compile(r"[.!?:;。！？：；)）|]\s*$")
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|vs|etc|approx|cf|Dr|Mr|Ms|Mrs|No|Fig|Inc|Ltd|St|Jr|Sr|Gen|Col|Lt|"
                     r"Capt|Rev|Sen|Gov|Prof|[A-Z])\.)$")  # "John H. Bloomer": an initial ends no sentence
_TABLE_RULE = re.compile(r"^[\s|:\-+]+$")


class Unit(NamedTuple):
    start: int
    end: int
    para: int  # paragraph index: "immediate context" never crosses a paragraph


def _split_lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cut at a single newline when the next line is a new block (list, table, heading) or the line is
    complete; join hard-wrapped lines (a plain-text source wraps mid-sentence)."""
    out, pos = [], start
    for m in re.finditer(r"\n", text[start:end]):
        cut = start + m.start()
        line, nxt = text[pos:cut], text[cut + 1:end]
        if _BLOCK_START.match(nxt) or _LINE_END.search(line) or len(line.strip()) < 60:
            out.append((pos, cut))
            pos = cut + 1
    out.append((pos, end))
    return out


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if m := _LEAD.match(text, start, end):
        start = m.end()
    return start, end


def worth_quoting(piece: str) -> bool:
    if _TABLE_RULE.match(piece) or piece.startswith(("---", "```")) or piece.endswith(("?", "？")):
        return False  # a rule line, a fence, or a question: none of them states anything
    cjk = len(_CJK.findall(piece))
    # a short labelled figure ("default: 75s", "Max size: 4 GB") states a value, however few its words
    return cjk >= 6 or len(piece) - cjk >= 15 or labelled_figure(piece)


def labelled_figure(piece: str) -> bool:
    """A short labelled figure ("default: 75s", "Max size: 4 GB", "Default is 70."), a comment or a note after
    it ("default: 1000 # milliseconds", "Default: 0.0 (disabled)") apart."""
    bare = _TRAILING_COMMENT.sub("", piece.rstrip(".")).rstrip(".")  # ("Default: 1024 (1 KB)." too)
    return bool(_LABELLED_FIGURE.fullmatch(bare) or _STATED_DEFAULT.fullmatch(bare) or _CASED_FIGURES.fullmatch(
        piece.rstrip(". ")))


# one figure for each of several cases: "Default: 2048 (libfrob) / 512 (minifrob) / 24 (windows)"
_CASE = r"\S{0,10}\d\S{0,10}\s*\([^()\n]{1,40}\)"
_CASED_FIGURES = re.compile(rf"[A-Za-z][\w .-]{{1,30}}:\s+{_CASE}(?:\s*(?:/|;|,|\bor\b)\s*{_CASE}){{1,5}}")


_TRAILING_COMMENT = re.compile(r"\s+(?:(?:#|//)\s*[^#/\n]{1,40}|\([^()\n]{1,40}\))$")


_LABELLED_FIGURE = re.compile(r"[A-Za-z][\w .-]{1,30}:\s+(?:\S{1,30}\s){0,2}\S{0,30}\d\S{0,10}|"
                              r"[A-Za-z_][\w.-]{1,40}\s*=\s*[\"']?\d[\w.]{0,10}[\"']?")
# a configuration listing's line: a key, "=", its value ("line-length = 88")
_KEY_EQUALS = re.compile(r"\s*[A-Za-z_][\w.-]{1,60}\s*=\s*\S")
# "Default is 70.", "Default: 2": an entry's default, however short
_STATED_DEFAULT = re.compile(r"(?:the\s+)?default(?:\s+value)?(?:\s+is|:)\s+\S{0,20}\d\S{0,10}", re.I)


_CALCULATION = re.compile(r"(\d[\d.,]*)(?:\s?[A-Za-z]{1,3})?\s*\\?[*×/÷+\-−]\s*\(?\d[^=＝。\n]{0,60}[=＝]")
_RESULT = re.compile(r"[=＝]\s*(\d[\d,]*(?:\.\d+)?)")


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "").rstrip("."))
    except ValueError:
        return None


def continues_calculation(before: str, sentence: str) -> bool:
    """Whether `sentence` goes on with the calculation `before` worked out: its formula starts from the result
    of the sentence before ("... = 44851T." then "TDengine needs 44851/5=8970T"), as rounded there ("= 44.8512T."
    then "44.851 / 5 = 8.97024T"). Alone, such a sentence is half a worked example: the quote takes both."""
    m = _CALCULATION.search(sentence)
    first = _number(m.group(1)) if m else None
    if not first:
        return False
    results = [r for r in (_number(x) for x in _RESULT.findall(before)) if r]
    return any(abs(first - r) <= 1e-3 * max(abs(first), abs(r)) for r in results)


_BACK_REFERENCE = re.compile(r"\b(?:the|this|that|its)\s+(?:[\w-]+\s+){0,2}?(?:gap|difference|advantage|lead|margin|"
                             r"ratio|speed-?up)\b|差距|差异|优势", re.I)
_FROM_RATIO = re.compile(r"(?:\bfrom|从)\s*(\d[\d.,]*)\s?(?:x\b|×|times\b|倍)", re.I)


def continues_comparison(before: str, sentence: str) -> bool:
    """Whether `sentence` changes the comparison `before` made: "... up to 70x less storage space compared to
    TimescaleDB ..." then "The gap ... can be decreased from 70x to 3x if ...". Alone, the second names neither
    side of the comparison: the quote takes both."""
    m = _FROM_RATIO.search(sentence)
    return bool(m and _BACK_REFERENCE.search(sentence[:m.start()]) and re.search(
        rf"(?<![\d.]){re.escape(m.group(1))}\s?(?:x\b|×|times\b|倍)", before, re.I))


HEADING_CHARS = 120  # a release heading is short: longer units are not matched against its pattern


def brought_label(text: str, start: int, reach: int = 3000, *, bare: bool = False) -> bool:
    """Whether `start` is in an entry of a release's list of what it brought: under a label such as "New Features"
    or "Added" (the nearest short line of its own above it, without end punctuation; entries above it, however
    long, are the list's), itself under a release heading. `bare`: the entry says itself that it adds ("Add Frob2
    support"), so right under the release heading, without a label, it is one too."""
    pos, low, label = start, max(0, start - reach), False
    while pos > low:
        cut = text.rfind("\n\n", low, pos - 1)
        para = text[cut + 2 if cut >= 0 else low:pos].strip()
        pos = cut if cut >= 0 else low
        if not para:
            continue
        if RELEASE_HEADING.fullmatch(para):
            return label or bare
        if not label and len(para) <= 40 and "\n" not in para and not re.search(r"[.!?;,)]$", para) and \
                len(para.split()) <= 4:
            if not ADDED_SECTION.fullmatch(para):
                return False
            label = True
    return False


# a labelled date line under a release heading ("Release date: 2024-09-20"; an announcement's own, "pub_date:
# 2021-10-13" under "Frob 3.0 released"), or the verb before its date on a line of its own ("Released 2022-11-07")
_DATE_LINE = re.compile(r"\s*\n\s*((?:releas\w*(?:\s+date)?|date|pub\w*?[_ ]?date|published)\s*:\s*[^\n]{4,40}|"
                        r"(?:released|published)(?:\s+on)?\s+[^\n]{4,40})(?=\n|$)", re.I)


def dated_by_line(text: str, start: int, end: int) -> Release | None:
    """The undated release heading a labelled date line at text[start:end] sits right under, or None."""
    cut = text.rfind("\n\n", 0, max(0, start - 1))
    heading = text[cut + 2 if cut >= 0 else 0:start].strip()
    if not heading or "\n" in heading or len(heading) > HEADING_CHARS:
        return None
    release = release_heading(heading)
    under = date_line_under(text, text.find(heading, max(0, cut)) + len(heading)) if release else None
    return release if release is not None and release.date is None and under == (start, end) else None


def date_line_under(text: str, end: int) -> tuple[int, int] | None:
    """The span of a labelled date line ("Release date: 2024-09-20", "Released: ...") right under a heading that
    ends at `end`, or None."""
    m = _DATE_LINE.match(text, end)
    return (m.start(1), m.end(1)) if m and find_values(m.group(1)) else None


# a parenthesis after a sentence's full stop is that sentence's remark: "HTTP timeout. (default: 30 s)"
_ASIDE = re.compile(r"\([^()\n]{1,80}\)\.?")


# a sentence that only gives the default of what the sentence before describes ("Read/write attribute specifying the
# number of rows to fetch at each round trip. The default is 2000.", "... with fetchmany(). It defaults to 1."): one
# unit with it, so its quote says what the figure is of
_ITS_DEFAULT = re.compile(r"(?:(?:the|its)\s+default(?:\s+value)?\s+(?:is|was)|(?:it\s+)?defaults\s+to)\s+"
                          r"[^\s.;][^.;:]{0,90}\.?", re.I)


def sentence_units(text: str, max_len: int = MAX_UNIT_CHARS) -> list[Unit]:
    """Sentences (English and Chinese) as exact (start, end) slices of `text`, headings dropped.

    `para` changes at every line break, so a list item or table row is its own context."""
    raw: list[tuple[int, int]] = []
    for s, e, _ in sentence_spans(text, max_len):
        for ls, le in _split_lines(text, s, e):
            if text[ls:le].lstrip().startswith("#") and not is_bench_line(text[ls:le]):
                continue  # a heading names a topic; it is not evidence ("# Write 68.5ms (14593 op/sec)" is output)
            ts, te = _trim(text, ls, le)
            if te > ts:
                raw.append((ts, te))
    merged: list[Unit] = []
    for start, end in raw:
        prev = merged[-1] if merged else None
        same_line = prev is not None and "\n" not in text[prev.end:start]
        # sentence_spans cuts after "e.g." and before a lower-case continuation: glue those back
        if prev and same_line and (_ABBREV.search(text[prev.start:prev.end]) or (
                text[prev.end - 1] == "." and text[start].islower()) or _ASIDE.fullmatch(text, start, end) or
                                                  continues_calculation(
                text[prev.start:prev.end], text[start:end]) or continues_comparison(
                text[prev.start:prev.end], text[start:end]) or _ITS_DEFAULT.fullmatch(text, start, end)):
            merged[-1] = Unit(prev.start, end, prev.para)
        else:
            merged.append(Unit(start, end, (prev.para if same_line else prev.para + 1) if prev else 0))
    code = code_spans(text)
    from openresearch.agents.extract.tables import table_row  # late: the table reader builds on this module

    out: list[Unit] = []
    rows: set[int] = set()
    for u in merged:
        line_start = text.rfind("\n", 0, u.start) + 1
        if text[line_start:line_start + 1] == "-" and line_start not in rows and help_entry(
                text[line_start:len(text) if (le := text.find("\n", line_start)) < 0 else le]):
            # a command's help entry ("-n Number of frobs to send. Default is 300.") is one unit: its tag says
            # what the default is of
            rows.add(line_start)
            out.append(Unit(*_trim(text, line_start, len(text) if le < 0 else le), u.para))
            continue
        if line_start in rows:
            continue
        if "|" in text[line_start:u.end] and table_row(text, u.start) is not None:
            # a table body row is one unit, whatever its length or wording: structure decides, not prose rules
            if line_start not in rows:
                rows.add(line_start)
                line_end = text.find("\n", u.start)
                rs, re_ = _trim(text, line_start, len(text) if line_end < 0 else line_end)
                out.append(Unit(rs, re_, u.para))
            continue
        if is_bench_line(text[u.start:u.end]):
            out.append(u)  # a line of benchmark output, like a table row: one unit whatever its wording
            continue
        piece = text[u.start:u.end]
        # a change log's dated release heading ("1.19.0 - 2025/07/30") states that release's date
        # and a reference entry's "added in 0.1.7" (or its heading "retry 0.32.3+") the version that brought the
        # entry's setting
        # and so does a date line right under an undated one ("Released 2022-11-07"), and an entry of a release's
        # list of what it brought ("Multi-frob wobbling (A. Author)" under "New Features")
        release = len(piece) <= HEADING_CHARS and (dated_release(piece) is not None or bool(
            VERSION_NOTE.match(piece) or ENTRY_SINCE.fullmatch(piece.strip())) or records_tag(piece) or
            dated_by_line(text, u.start, u.end) is not None or brought_label(
                text, u.start, bare=adds_feature(piece)))
        if (release or (worth_quoting(piece) and not _heading(text, u) and not furniture(piece))) and \
                not any(cs < u.end and u.start < ce for cs, ce in code):
            out.append(u)
    return out


# --- page furniture: never evidence ------------------------------------------------------------------

_FENCE_LINE = re.compile(r"^[ \t]*(?:```|~~~)", re.M)
_LINK_MARKUP = re.compile(r"!?\[[^\]]{0,300}\]\([^)]*\)|<https?://[^>\s]*>|https?://\S+|\{\{[^}]*\}\}|<[^>]{1,200}>")
_INSTRUCTION = re.compile(
    r"^(?:please\s+)?(?:connect|install|run|click|download|clone|navigate|open|log ?in(?:to)?|sign (?:in|up)|see|"
    r"refer to|visit|check out|follow|execute|type|enter|select|copy|paste|import|go to|read|replace|save|"
    r"start(?!\s+to\b)|restart|launch|build|deploy|create a|add the|edit|modify|change to)\b|"
    r"^(?:请|点击|单击|安装|运行|执行|下载|参考|参见|详见|打开|登录|复制|粘贴|进入|切换到|输入|启动)", re.I)
_IMAGE = re.compile(r"!\[[^\]]{0,300}\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]\[]{0,300})\]\([^)]*\)")
_COMMAND = re.compile(r"^\s*(?:(?:bash|sh|shell|console|terminal|zsh|powershell|cmd)\s+)?(?:\$\s|sudo\s|"
                      r"(?:cd|pip3?|npm|npx|yarn|docker|docker-compose|kubectl|helm|curl|wget|git|"
                      r"brew|apt(?:-get)?|make|python3?|java|go|cargo)\s+[\w.-]+)")
_CODEY = re.compile(r"[{}();=<>$\\`]|::|->|=>|&&|\|\|")
_WORD_RX = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def code_spans(text: str) -> list[tuple[int, int]]:
    """Fenced code blocks (``` or ~~~ ... ```), as character spans; an unclosed fence runs to the end."""
    marks = [m.start() for m in _FENCE_LINE.finditer(text)]
    return [(marks[i], marks[i + 1] if i + 1 < len(marks) else len(text)) for i in range(0, len(marks), 2)]


def furniture(piece: str) -> bool:
    """Badges, bare link lists, navigation bars, tables of contents, code lines and how-to instructions: text a
    page carries around its content, which states nothing about the subject."""
    if states_requirement(piece) or states_defaults(piece) or labelled_figure(piece):
        # "Require frob >= 3.9": a bound on a platform's version, however code-like; so are a signature's defaults,
        # and a labelled figure with its note in parentheses ("Default: 1048576 (1 MiB).")
        return False
    no_images = _IMAGE.sub(" ", piece)
    labels = [m.group(1) for m in _LINK.finditer(no_images)]
    prose = _LINK_MARKUP.sub(" ", _LINK.sub(lambda m: m.group(1), no_images))
    words = _WORD_RX.findall(prose)
    cjk = len(_CJK.findall(prose))
    if len(words) < 4 and cjk < 6 and not (not labels and labelled_figure(piece)):
        return True  # a badge row, "[Docs](…) · [API](…)", a link-only list item ("default: 75s" states a value)
    label_words = sum(len(_WORD_RX.findall(label)) for label in labels)
    if len(labels) >= 2 and label_words * 10 >= len(words) * 7 and cjk < 6:
        return True  # "[Quick start](#start) | [Install](#install) | [API](#api)": a list of links
    if _INSTRUCTION.match(piece.lstrip("*_ ")) and not re.search(r"\d", prose):
        return True  # "Connect to the Milvus instance via Milvus GO SDK and get the results"
    if cjk < 6 and (len(_CODEY.findall(prose)) * 12 > len(prose) or _COMMAND.match(piece)) and \
            not labelled_figure(piece):  # ("Default: 0.0 (disabled)" states a value, in few characters)
        return True  # a line of code or a command
    if cjk < 6 and len(words) >= 6 and not re.search(r"[.!?:;,]", prose):
        caps = sum(w[:1].isupper() for w in words)
        if caps * 10 >= len(words) * 7 or (len(words) >= 12 and caps * 2 >= len(words)):
            return True  # "Home About Officers Resources News Contact Us Open Menu": navigation, a table of contents
    return False


def _heading(text: str, u: Unit) -> bool:
    """A short line of its own without end punctuation ("Kafka throughput: close to the vendor figure"):
    parsed Markdown keeps headings as plain paragraphs, and a heading names a topic, it states nothing."""
    line_start = text.rfind("\n", 0, u.start) + 1
    line_end = text.find("\n", u.end)
    alone = not text[line_start:u.start].strip(" \t#*->|") and not text[u.end:len(text) if line_end < 0 else line_end
                                                                       ].strip()
    piece = text[u.start:u.end]
    if (re.search(r"[:：]\s*\S", piece) or _KEY_EQUALS.match(piece)) and re.search(r"\d", piece):
        return False  # "Cardinality: 10k series", "line-length = 88": a key and its value, not a heading
    if re.match(r"\s*[-*+•]\s", text[line_start:u.start + 1]) or states_requirement(piece):
        return False  # "- 2 years of bug fixes": a list item states something ("Frob 3.14 compatibility" too)
    if (first := next(iter(find_values(piece)), None)) is not None and first.unit and not piece[:first.start].strip(
            " -*•(~≈"):
        return False  # "3 years release life cycle": a line that opens with a quantity states it, it names no topic
    words = re.findall(r"[A-Za-z][\w'-]*", piece)
    if len(words) >= 6 and re.search(r"\d", piece) and sum(w[0].isupper() for w in words) * 3 <= len(words):
        return False  # "Change default max-line-length to 100 rather than 80": a list item's sentence, not a title
    # (a change-log entry's trailing reference, "([#1189])" or "(#12, #13)", after its full stop)
    piece = re.sub(r"\s*\((?:\[?#?\d+\]?[,;\s]*)+\)\s*$", "", piece)
    return alone and len(piece) < 60 and not re.search(r"[.!?。！？;；]\W*$", piece)


# --- evidence types ---------------------------------------------------------------------------------

_RISK = re.compile(
    r"\b(?:risks?|risky|vulnerabilit\w*|CVE-\d+-\d+|outages?|downtime|lock-?in|data loss|los[et] data|losing data|"
    r"incidents?|security (?:issue|flaw|hole)s?|exploit\w*|breaking changes?|deprecated|end[- ]of[- ]life|"
    r"pitfalls?|failure modes?|split[- ]brain|painful|burden)\b|风险|漏洞|故障|宕机|锁定|丢失|丢消息|踩坑|隐患|中断",
    re.I)
_COMPARE = re.compile(
    r"\b(?:than|faster|slower|vs\.?|versus|compared (?:to|with)|outperform\w*|whereas|unlike|better|worse|higher|"
    r"lower|beats?)\b|比(?![如较例特])|高于|低于|优于|不如|相比|对比|更快|更慢|胜过", re.I)
_CLAIM = re.compile(
    r"\b(?:I think|we think|I believe|we believe|in my (?:view|opinion|experience)|in our experience|arguably|"
    r"should|recommend\w*|I suspect|we chose|best|worst|clearly|overrated|underrated)\b|"
    r"我认为|我们认为|建议|应该|更合适|最好|我觉得|个人觉得|推荐|依然是", re.I)


def classify(text: str, n_entities: int, has_numbers: bool) -> EvidenceType:
    """risk > comparison (needs two entities) > statistic > claim > background."""
    if _RISK.search(text):
        return "risk"
    if n_entities >= 2 and _COMPARE.search(text):
        return "comparison"
    if has_numbers:
        return "statistic"
    if _CLAIM.search(text):
        return "claim"
    return "background"


# --- entity mentions ---------------------------------------------------------------------------------

class Mention(NamedTuple):
    start: int  # offsets within the text that was linked
    end: int
    surface: str
    canonical: str


def builtin_aliases() -> dict[str, list[str]]:
    """The package alias list (the same file AliasResolver.load reads), as surface names to match."""
    text = resources.files("openresearch").joinpath("data/aliases.json").read_text("utf-8")
    data: dict[str, list[str]] = json.loads(text)
    return data


def _add_patterns(nlp: Any, names: Sequence[tuple[str, str]]) -> None:
    """Token patterns in the pipeline's own tokenisation; names of three letters or fewer ("PG", "MSK") match
    only as written, or every "pg" in a sentence would become PostgreSQL."""
    patterns = []
    for surface, canonical in names:
        attr = "ORTH" if len(surface) <= 3 else "LOWER"
        toks = [{attr: t.text if attr == "ORTH" else t.text.lower()} for t in nlp.make_doc(surface)]
        patterns.append({"label": "ENTITY", "pattern": toks, "id": canonical})
    ruler: Any = nlp.get_pipe("entity_ruler")
    ruler.add_patterns(patterns)


_LINK_TARGET = re.compile(r"!?\[(?=[^\]]{0,200}\]\()|\]\([^)\s]*\)|<https?://[^>\s]*>|https?://\S+")
# product-shaped names no list knows: QuestDB, InfluxDB, ClickHouse, VictoriaMetrics, TDengine, PostgreSQL
# a name shaped like a product: two capitalised parts ("FrobBit"), a part and an acronym ("QuollDB"), an acronym
# and a word ("QLdrive"). Three or more parts ("ActionQueueHighWaterMark") spell an identifier, a setting or a type,
# and a word after "$" or "%" a variable: neither is a product
_PRODUCT = re.compile(r"(?<![\w/.@#$%-])(?!(?:Mc|Mac|De|La|Le|Di|Da|Van|Von|O)[A-Z])"
                      r"(?:[A-Z][a-z]+[A-Z][a-z0-9]+(?![A-Z][a-z])|[A-Z][a-z]+(?:DB|SQL|QL|MQ|ML|AI|IO)|[A-Z]{2}[a-z]{3,}\w*)"
                      r"(?![\w/-]|\s?=|\()")  # "BuildDate=2025-..." is a key, "SomeType(" a call: neither a product


_OPTION_TYPE = re.compile(r"(?:^|\s)--?[A-Za-z][\w.-]*[ =]$")


def _acronym_word(token: str) -> bool:
    """An acronym glued to an ordinary word ("IPaddress", "URLpath"): a description's word, no product's name."""
    m = re.fullmatch(r"[A-Z]{2,}([a-z]{4,})", token)
    return m is not None and ordinary_word(m.group(1))


def mask_links(text: str) -> str:
    """Link targets blanked with spaces (offsets kept): a URL's words are no entity and its digits no value."""
    return _LINK_TARGET.sub(lambda m: " " * len(m.group(0)), text)  # "[label](url)" -> " label      "


_LINK_CACHE = 50_000  # sentences; a few MB


class EntityLinker:
    """spaCy EntityRuler over blank pipelines: `en` for Latin text, `zh` (character segmentation) for
    text with CJK, where words touch without spaces. Canonical names come from the AliasResolver."""

    def __init__(self, aliases: AliasResolver, names: Mapping[str, Iterable[str]] | None = None, *,
                 discover: bool = False) -> None:
        """`discover`: also link product-shaped names no list knows (CamelCase such as "QuestDB", "ClickHouse")."""
        self.aliases = aliases
        self.discover = discover
        self._lock = threading.RLock()  # re-entered: link() holds it while _pipe() builds a pipeline
        self._pipes: dict[str, Any] = {}
        self._known: set[str] = set()
        self._names: list[tuple[str, str]] = []  # (surface, canonical)
        # a source is read once per sub-question that finds it: its sentences are linked once per set of names
        self._cache: OrderedDict[tuple[str, int], list[Mention]] = OrderedDict()
        for canonical, surfaces in (builtin_aliases() if names is None else names).items():
            self.add([canonical, *surfaces])

    def add(self, surfaces: Iterable[str]) -> None:
        """Register surface names (plan entities arrive per call); each resolves through the aliases."""
        with self._lock:
            for s in surfaces:
                clean = " ".join(s.split())
                if clean and entity_key(clean) and clean.lower() not in self._known:
                    self._known.add(clean.lower())
                    self._names.append((clean, self.aliases.canonical(clean)))
                    for nlp in self._pipes.values():
                        _add_patterns(nlp, self._names[-1:])

    def _pipe(self, lang: str) -> Any:
        with self._lock:
            if lang not in self._pipes:
                import spacy  # lazy: a blank pipeline still costs a second to import

                nlp = spacy.blank(lang)
                nlp.add_pipe("entity_ruler")
                _add_patterns(nlp, self._names)
                self._pipes[lang] = nlp
            return self._pipes[lang]

    def link(self, texts: Sequence[str]) -> list[list[Mention]]:
        out: list[list[Mention]] = []
        for raw in texts:
            with self._lock:
                key = (raw, len(self._names))  # a name added since changes what a text links to
                cached = self._cache.get(key)
                if cached is not None:
                    self._cache.move_to_end(key)
            if cached is None:
                cached = self._link_one(raw, key)
            out.append(list(cached))
        return out

    def _link_one(self, raw: str, key: tuple[str, int]) -> list[Mention]:
        text = mask_links(raw)  # "[docs](https://x.io/kafka-vs-pulsar)" names neither broker
        with self._lock:  # research runs extract sources in threads; add() may grow the ruler meanwhile
            doc = self._pipe("zh" if _CJK.search(text) else "en")(text)
        found = []
        for ent in doc.ents:
            s, e = ent.start_char, ent.end_char
            # character segmentation matches inside words ("Kafkaesque"): demand word edges
            if (s > 0 and text[s - 1].isascii() and text[s - 1].isalnum()) or (
                    e < len(text) and text[e].isascii() and text[e].isalnum()):
                continue
            found.append(Mention(s, e, ent.text, ent.ent_id_ or self.aliases.canonical(ent.text)))
        if self.discover:
            taken = [(m.start, m.end) for m in found]
            # (the type an option's help line gives its value, "--frob-size SizeSuffix", names no product)
            found += [Mention(m.start(), m.end(), m.group(0), self.aliases.canonical(m.group(0)))
                      for m in _PRODUCT.finditer(text) if not any(s < m.end() and m.start() < e for s, e in taken)
                      and not _OPTION_TYPE.search(text, 0, m.start()) and not _acronym_word(m.group(0))]
            found.sort(key=lambda m: m.start)
        with self._lock:
            self._cache[key] = found
            if len(self._cache) > _LINK_CACHE:
                self._cache.popitem(last=False)
        return found


# --- what a document is about ------------------------------------------------------------------------

_NAME_TOKEN = re.compile(r"\((?! )[^()]{1,60}(?<! )\)|,|[^\s,()]+")
_CONNECTIVES = frozenset({"of", "the", "de", "du", "da", "del", "la", "le", "von", "van", "der", "den", "y", "and",
                          "&", "on", "upon", "in", "for", "at", "st.", "mc"})


_HONORIFICS = frozenset({"the", "a", "an", "sir", "dame", "lord", "lady", "admiral", "general", "colonel", "captain",
                         "major", "dr.", "saint", "st.", "king", "queen", "prince", "princess", "president", "senator",
                         "judge", "justice", "bishop", "cardinal", "pope", "mount", "fort"})


def _capitalised(token: str) -> bool:
    return bool(token) and (token[0].isupper() or token[0].isdigit() or token[0] in "\"'“") and not token.isdigit()


_LEAD_NAME = r"[\"“]?[A-Z][\w'’.\-]*[\"”]?"
# "Harland Bradley Howe (July 15, 1875 – April 22, 1946) was a United States federal judge.": an encyclopedia
# lead sentence names its subject first, before its dates and its "is a" / "was the"
_LEAD_SENTENCE = re.compile(
    rf"({_LEAD_NAME}(?:\s+(?:(?:of|de|du|da|del|la|le|von|van|der|den|y|and)\s+)?{_LEAD_NAME}){{1,5}})"
    r"\s*(?:[(（][^()（）]{1,120}[)）]\s*){0,2},?\s+(?:is|was|are|were)\s+(?:a|an|the|one)\s")
_NOT_LEAD = frozenset({"the", "a", "an", "in", "on", "it", "this", "that", "there", "he", "she", "they", "his", "her",
                       "its", "our", "we", "from", "for", "after", "before", "during", "when", "at", "by", "as"})


def lead_subject(text: str) -> str | None:
    """The entity a passage opens with, the way encyclopedia extracts do: "Osgood, Indiana Osgood is a town ...",
    "Douglas County Courthouse (Nebraska) The present ...". The name (with its disambiguating qualifier) is
    accepted only when the text after it restates its first word, or when it ends in a qualifier."""
    head = text[:200].split("\n", 1)[0]  # one line: a heading over a paragraph is a title, not a passage
    tokens = [(m.start(), m.end(), m.group(0)) for m in _NAME_TOKEN.finditer(head)]
    if not tokens or not _capitalised(tokens[0][2]) or tokens[0][2].lower() in ("the", "a", "an", "in", "on"):
        return None
    first = tokens[0][2]
    qualified = False
    for i in range(1, min(len(tokens), 14)):
        prev, tok = tokens[i - 1][2], tokens[i][2]
        name = head[:tokens[i - 1][1]].strip()
        ends_qualifier = prev.startswith("(") or qualified
        nxt = tokens[i + 1][2] if i + 1 < len(tokens) else ""
        restated = tok == first or (nxt == first and tok.lower() in _HONORIFICS and i >= 2)  # "X The X", "X Sir X"
        if restated and prev != "," and (ends_qualifier or len(name.split()) <= 6):
            return name if len(name) >= 3 else None  # "Broken Bow Broken Bow is ...": restated
        if prev.startswith("(") and _capitalised(tok) and tok != ",":
            return name  # "Bobby Carpenter (American football) Robert Joseph ..."
        if tok == ",":
            qualified = True
            continue
        if tok.startswith("("):
            continue
        if not (_capitalised(tok) or tok.lower() in _CONNECTIVES):
            break
    return _lead_sentence(head)


def _lead_sentence(head: str) -> str | None:
    """The name a passage's first sentence is about when it opens "Name Name (dates) was a ..." (two words at
    least: "It was a", "Cook is a" name no one)."""
    m = _LEAD_SENTENCE.match(head)
    if not m or m.group(1).split()[0].strip("\"“").lower() in _NOT_LEAD:
        return None
    return m.group(1)


# --- tables ---------------------------------------------------------------------------------------------

_CELL_SEP = " | "


def _paragraph(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end < 0 else end


def table_header(text: str, start: int) -> list[str] | None:
    """The header cells of the table row at `start` (rows are "cell | cell" lines, as ingest writes Markdown and
    HTML tables), or None when `start` is not in a table body row."""
    ps, pe = _paragraph(text, start)
    row = text[ps:pe]
    if _CELL_SEP not in row or start != ps:
        return None
    width = row.count(_CELL_SEP)
    first = None
    pos = ps
    while pos > 0:
        prev_s, prev_e = _paragraph(text, max(0, pos - 1) if text[pos - 1:pos] == "\n" else pos)
        # step over the blank line between paragraphs
        while prev_s == prev_e and prev_s > 0:
            prev_s, prev_e = _paragraph(text, prev_s - 1)
        line = text[prev_s:prev_e]
        if prev_s == pos or _CELL_SEP not in line or line.count(_CELL_SEP) != width:
            break
        first, pos = (prev_s, prev_e), prev_s
    if first is None:
        return None
    return [c.strip() for c in text[first[0]:first[1]].split(_CELL_SEP)]
