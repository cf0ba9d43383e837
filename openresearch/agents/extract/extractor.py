"""The extractor role: a source + a sub-question -> evidence items, each a verbatim span with offsets.

`Extractor` is the one interface (third parties implement it the same way). `DeterministicExtractor`
works offline (invariant 7): sentences scored by embedding similarity, keyword and entity overlap; the
best non-overlapping ones are quoted exactly as `source.text[start:end]` (invariant 1). Source text only
ever feeds scores and regexes, so nothing written in it can change what this code does (invariant 6).

`LLMExtractor` lets the model propose quotes and keeps only those that locate as exact spans of the part
of the source it was shown; the rest are rejected and counted, never repaired.
"""

from __future__ import annotations

import bisect
import itertools
import logging
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np

from openresearch.agents.extract.address_name import address_subject, address_words, code_use
from openresearch.agents.extract.asked import Asked, asked_metric
from openresearch.agents.extract.benchlines import (
    alternative_of_known,
    banner_names,
    block_banner,
    block_labels,
    line_observations,
    shared_stem,
)
from openresearch.agents.extract.definitions import (
    GENERIC_METRICS,
    defined_term,
    entry_description,
    entry_unit,
    help_column_default,
    of_term,
    prose_term,
    readable_term,
    term_metric,
    term_row,
    term_section,
)
from openresearch.agents.extract.extract_llm import (
    LLMExtraction,
    LLMQuote,
    check_observations,
    evidence_type,
    locate,
    messages,
    windows,
)
from openresearch.agents.extract.extract_rules import (
    HEADING_CHARS,
    EntityLinker,
    Mention,
    Unit,
    brought_label,
    classify,
    date_line_under,
    dated_by_line,
    labelled_figure,
    lead_subject,
    mask_links,
    sentence_units,
)
from openresearch.agents.extract.metric_names import canonical_metric, metric_mentions, same_family, shares_words
from openresearch.agents.extract.observations import (
    LABEL_LINE,
    condition_spans,
    has_statistic,
    label_line,
    metric_words,
    observations,
)
from openresearch.agents.extract.releases import (
    BARE_VERSION,
    ENTRY_SINCE,
    RELEASE_HEADING,
    VERSION_NOTE,
    Release,
    asked_releases,
    brought_entry,
    change_log_notes,
    condition_release,
    dated_release,
    day_heading,
    entry_since,
    first_releases,
    heading_name,
    heading_observations,
    release_asked,
    release_heading,
    tag_notes,
    tagged_releases,
    version_note,
)
from openresearch.agents.extract.requirements import requirement_observations, says_dropped, states_requirement
from openresearch.agents.extract.signatures import defaulted_keys, signature_defaults
from openresearch.agents.extract.tables import cell_values, row_observations, table_row
from openresearch.agents.extract.values import find_values
from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import Role
from openresearch.agents.plan.attributes import PLATFORM_EVENT, metric_key, named_key, with_english
from openresearch.agents.plan.vocabulary import ordinary_word
from openresearch.errors import BudgetExceeded, LLMError
from openresearch.identity import AliasResolver, entity_key, evidence_id
from openresearch.ingest.benchlines import figures, is_bench_line, label_words
from openresearch.ingest.documents import keyword_shape
from openresearch.ingest.embed import Embedder
from openresearch.ingest.settings_lines import help_entry
from openresearch.ingest.textnorm import tokens
from openresearch.models import (
    EvidenceItem,
    EvidenceType,
    ExtractionResult,
    ObservationIn,
    Plan,
    SourceDoc,
    SubQuestion,
)
from openresearch.numbers import NumberFormatError, calendar_value, canonical_unit, parse_quantity

log = logging.getLogger(__name__)
_NUMERIC_ASK = re.compile(r"how (?:many|much|fast)|throughput|latency|cost|price|performance|limit|size|多少|吞吐|"
                          r"延迟|价格|成本|性能|上限", re.I)


# Sources are extracted on a thread pool; eight concurrent encodes of whole documents' sentences took a process
# from 0.7 to 2.0 GB, one at a time to 1.0 GB, for the same vectors (the cores are busy either way)
_EMBED_GATE = threading.Lock()
_RECORD_RATES = frozenset({"rows/s", "samples/s", "writes/s", "field writes/s"})
_CJK_TEXT = re.compile(r"[\u4e00-\u9fff]")
_SUBJECT_CHARS = 30000  # enough of a source to tell what it is about
_FACTS_CACHE = 50_000  # sentences
# a sentence with a figure of a quantity the question asks for ("up to 100 million active time series" for
# "series cardinality") outranks one that only shares its words
_ASKED_METRIC_BONUS = 0.15
_NO_FIGURE_FACTOR = 0.75
_ASKED_RELEASE_BONUS = 0.25
# what a question asks a release to have brought ("frob compression added"), and any release an entry may be under
_BROUGHT = re.compile(r"\s(?:added|introduced|removed|deprecated)$")
_SOME_RELEASE = Release(None, "0", None, -1)
_NOT_FIGURES = frozenset({"port", "year", "date"})
# quantities whose values are dates or years
_EVENT_METRICS = frozenset({"born", "died", "built", "opened", "founded", "released", "published"})
_MIDCAP = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]{3,}(?![\w-])")
# title words that are never the name in it, whatever their case ("A Guide To ...")
_TITLE_FILLERS = frozenset(["the", "a", "an", "of", "for", "and", "to", "in", "on", "with", "about", "how", "what",
                            "why", "guide", "introduction", "overview", "readme", "docs", "documentation"])
_NOT_NAMES = frozenset(["january", "february", "march", "april", "june", "july", "august", "september", "october",
                        "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                        "sunday", "english", "however", "note", "table", "figure", "example", "section", "chapter"])


class _SentenceFacts(NamedTuple):
    tokens: frozenset[str]  # stems and metric words, for keyword overlap
    metrics: frozenset[str]  # canonical keys of the quantities it names
    statistic: bool  # a number with a unit, a percentage or a price
    kinds: frozenset[str]  # the kinds of the values it states (count, bare, year, date, port, ...)


class DocSubject(NamedTuple):
    lead: str | None  # the qualified name a passage opens with
    dominant: str | None  # the entity named at least 3 times and twice as often as any other
    named: frozenset[str]  # entity keys of everything the source names
    throughput: str  # what a bare "rows/sec" measures here: ingest_throughput in a write benchmark


# an API reference's class heading (ingest/rst.py writes a documented class so)
_API_CLASS = re.compile(r"class [A-Za-z_]\w*")
# a heading that sets a plan, edition or version: the values under it hold for that one ("### Free Plan")
_SECTION = re.compile(r"^(?:[\w.+-]+ ){0,4}?(?:(?:free|usage-based|pay-as-you-go|enterprise|oss|open source|"
                      r"community|pro|standard|premium|serverless|dedicated|cloud|self-hosted|managed)\b.{0,30}|"
                      r".{0,30}\b(?:plan|tier|edition)s?|(?:version|v)\s?\d+(?:\.\d+)*\b.{0,20}|.{0,30}版|.{0,20}版本)$",
                      re.I)


_EDITION = re.compile(r"\b(?:cloud[ -](?:serverless|dedicated)|serverless|dedicated|clustered|enterprise|oss|"
                      r"community edition|open source edition|self-hosted)\b", re.I)


_MANUAL_TITLE = re.compile(r"([A-Za-z][\w.+-]*)\(\d\w*\)")


_LOG_TITLE = re.compile(r"(?P<name>[A-Za-z][\w+.-]*(?: [A-Za-z][\w+.-]*)?)\s+(?:news|change\s?log|changes|"
                        r"release\s+notes|releases|release\s+history)", re.I)


def title_name(title: str | None, text: str) -> str | None:
    """The product a document is titled with: a title of one or two name-like words ("orjson", "simdjson",
    "Apache Kafka") that the text itself uses at least three times as a word. A heading such as "Introduction"
    or "Status of Python Versions" is no name: the text does not keep repeating it."""
    name = (title or "").strip()
    if manual := _MANUAL_TITLE.fullmatch(name):
        # a manual page is titled with the command it documents and its section ("QUUX(5)"): the command's name,
        # in the form the text writes it most
        forms = Counter(re.findall(rf"(?<![\w/.-]){re.escape(manual.group(1))}(?![\w-])", text, re.I))
        return str(forms.most_common(1)[0][0]) if forms else manual.group(1)
    if (log := _LOG_TITLE.fullmatch(name)) and len(log.group("name").split()) <= 2:
        # a change log titled with what it logs ("QUUX NEWS", "Zorbq Release Notes"): that name, in the form the
        # text writes it most, a capitalised one first (the title may shout it)
        # ... when it is one: a word no dictionary holds ("zorbq"), or one the text capitalises mid-sentence as a
        # name is ("built with Wibble"; not "Breaking changes")
        logged = log.group("name")
        forms = Counter(re.findall(rf"(?<![\w/.-]){re.escape(logged)}(?![\w-])", text, re.I))
        if forms and (not all(ordinary_word(w) for w in logged.split()) or len(re.findall(
                rf"[a-z,] {re.escape(logged.title())}(?![\w-])", text)) >= 2):
            return str(max(forms, key=lambda f: (f[:1].isupper() and not f.isupper(), forms[f])))
    if not name or len(name.split()) > 2 or len(name) > 40 or not re.search(r"[A-Za-z]", name):
        return None
    uses = len(re.findall(rf"(?<![\w/.-]){re.escape(name)}(?![\w-])", text))
    if uses < 3 and len(name.split()) == 1:  # a title capitalised as a heading ("Wibblet"): the text's own form
        forms = Counter(re.findall(rf"(?<![\w/.-]){re.escape(name)}(?![\w-])", text, re.I))
        # ... when the text also uses it as code does a name ("import wibblet", "wibblet.Struct"): an ordinary
        # word ("Benchmarks") is not imported, installed or dotted into
        if forms and (top := forms.most_common(1)[0])[1] >= 3 and code_use(top[0], text):
            return str(top[0])
    return name if uses >= 3 else None


_TITLE_WORD = re.compile(r"[A-Za-z][\w+#]*(?:[.-][\w+#]+)*")
_VERSION_AFTER = re.compile(r"\s*v?(\d+(?:\.\d+){0,2}(?:\.x)?)\b")


def _uses(word: str, text: str) -> int:
    """How often `text` writes `word` as a word, case as given (not inside a path, address or identifier)."""
    return len(re.findall(rf"(?<![\w/.-]){re.escape(word)}(?![\w/-]|\.\w)", text))


def _name_uses(word: str, text: str) -> int:
    """Uses of a title word as a name: anywhere for a word whose letters mark it ("QRX", "Zorbly.js", "FX3"); for a
    capitalised word, only mid-sentence, where an ordinary word is not capitalised ("... the Quillo release")."""
    if any(c.isupper() for c in word[1:]) or re.search(r"[\d.+#]", word):
        return _uses(word, text)
    return len(re.findall(rf"(?<=[a-z\d,;:)] ){re.escape(word)}(?![\w/-]|\.\w)", text))


def title_subject(title: str | None, text: str) -> str | None:
    """The name inside a longer title ("Evolving the Zorbly.js Release Schedule", "Status of Quillo Versions",
    "Qo-Release-Cycle"): the title word the text keeps writing exactly so (mid-sentence), at least twice and more often
    than in lower case (a name keeps its letters; "Release" and "Schedule" turn up as "release" and "schedule"),
    with the title's adjacent words the text writes with it ("Acme Brantex"), and the version the title gives it
    when the text uses that too ("Quillo 4.2 Release Schedule" is about Quillo 4.2). No list of names decides."""
    title = (title or "").strip()
    if not title:
        return None
    body = mask_links(text)
    if (lead := re.match(r"(.{1,40}?)\s+[:\u2014\u2013-]\s", title)) and (named := title_name(lead.group(1), body)):
        return named  # "frobnik : Parsing gigabytes per second": the name, then what it does
    words = [m for m in _TITLE_WORD.finditer(title)]
    if len(words) == 1 and "-" in words[0].group(0):  # a file name for a title: "Qo-Release-Cycle"
        words = list(re.finditer(r"[A-Za-z][\w.+#]*[\w+#]|[A-Za-z]", title))
    best: tuple[int, int] | None = None
    seen: list[int] = []
    for i, m in enumerate(words):
        w = m.group(0)
        if not (w[0].isupper() or any(c.isupper() for c in w[1:]) or re.search(r"[.+#]", w)) or \
                w.lower() in _NOT_NAMES or w.lower() in _TITLE_FILLERS:
            continue
        cap, low = _name_uses(w, body), (_uses(w.lower(), body) if w != w.lower() else 0)
        if (v := _VERSION_AFTER.match(title, m.end())) and _uses(f"{w} {v.group(1)}", body) >= 1 and \
                _uses(v.group(1), body) >= 3:
            cap = max(cap, 2)  # "Quillo 4.3 Release Schedule" names it once, then writes "4.3" throughout
        if cap >= 2 and cap > 2 * low:
            seen.append(cap)
            if best is None or cap > best[0]:
                best = (cap, i)
    if best is None:
        return None
    i = best[1]
    lo = hi = i

    def joins(w: str) -> bool:  # a word a longer name may hold: no filler ("of JSON"), not lower case
        return w.lower() not in _TITLE_FILLERS and not w.islower()

    while hi + 1 < len(words) and joins(words[hi + 1].group(0)) and \
            _uses(title[words[lo].start():words[hi + 1].end()], body) >= 3:
        hi += 1
    while lo > 0 and joins(words[lo - 1].group(0)) and _uses(title[words[lo - 1].start():words[hi].end()], body) >= 3:
        lo -= 1
    if sum(1 for n in seen if 2 * n >= best[0]) > hi - lo + 1:
        return None  # "Comparing Quillo, Brantex, and Zorbly": several names, none the subject
    name = title[words[lo].start():words[hi].end()]
    if (v := _VERSION_AFTER.match(title, words[hi].end())) and (uses := _uses(f"{name} {v.group(1)}", body)) and (
            uses >= 2 or _uses(v.group(1), body) >= 3):
        name = f"{name} {v.group(1)}"
    return name


def source_edition(source: SourceDoc) -> str | None:
    """The product edition a page documents, from its title or else its address ("InfluxDB Cloud Serverless
    limits", ".../influxdb3/cloud-dedicated/admin/..."): limits of two editions are not a conflict."""
    for text in (source.title or "", source.url.rsplit("://", 1)[-1].replace("_", "/")):
        if m := _EDITION.search(text):
            return m.group(0).replace("-", " ").lower()
    return None


def block_label(text: str, start: int, reach: int = 60) -> str | None:
    """The short label ("Actual:", "Expected:") a run of labelled lines ("3.12.0 beta 1: Monday, 2023-05-22")
    stands under: the paragraph of at most four words ending in a colon above the lines of the run."""
    cur = text.rfind("\n\n", 0, start)
    end = text.find("\n\n", start)
    if not LABEL_LINE.match(text[cur + 2 if cur >= 0 else 0:end if end >= 0 else len(text)]):
        return None  # not itself a labelled line
    for _ in range(reach):
        if cur <= 0:
            return None
        prev = text.rfind("\n\n", 0, cur)
        para = text[prev + 2 if prev >= 0 else 0:cur].strip()
        if re.fullmatch(r"[^:：\n]{1,40}[:：]", para) and len(para.split()) <= 4:
            return para.rstrip(":：").strip()
        if not LABEL_LINE.match(para):
            return None  # the run of labelled lines ended without a label over it
        cur = prev
    return None


def list_intro(text: str, start: int, reach: int = 1500) -> tuple[int, int] | None:
    """The sentence that introduces the list a fragment belongs to ("If you need any of the following, a single
    node may not do:" over "more than 10,000,000 series"): list items are their own paragraphs."""
    para_start = text.rfind("\n\n", 0, start) + 2 if text.rfind("\n\n", 0, start) >= 0 else 0
    if not text[para_start:start + 1].strip()[:1].islower():
        return None
    pos = para_start - 2
    while pos > max(0, start - reach):
        cut = text.rfind("\n\n", 0, pos)
        para = text[cut + 2 if cut >= 0 else 0:pos].strip()
        if re.search(r"[:：]$", para):
            return (pos - len(text[cut + 2 if cut >= 0 else 0:pos].lstrip()), pos)
        if not para[:1].islower():
            return None
        pos = cut
    return None


def listing_intro(text: str, start: int, reach: int = 4000) -> str | None:
    """The paragraph over the configuration listing a "key = value" line belongs to (past the listing's other
    "key = value" and "key: value" lines), or None when `start` is in no such line."""
    para_start = text.rfind("\n\n", 0, start) + 2 if text.rfind("\n\n", 0, start) >= 0 else 0
    if not _KEY_VALUE.match(text, para_start):
        return None
    pos = para_start - 2
    while pos > max(0, start - reach):
        cut = text.rfind("\n\n", 0, pos)
        para = text[cut + 2 if cut >= 0 else 0:pos].strip()
        if not (_KEY_VALUE.match(para) and "\n" not in para and len(para) <= 80 and not re.search(r"\w[.!?]\s", para)):
            return para
        pos = cut
    return None


_KEY_VALUE = re.compile(r"[A-Za-z_][\w.-]{0,60}\s*(?:=|:\s)\s*\S")


def _names_at_top(name: str, source: SourceDoc) -> bool:
    """Whether the title or the opening of `source` names `name` as a word of its own ("PHP" in "the PHP
    language" or "wiki.php.net", "Go" in "the Go team" but not in "to go" or "google")."""
    words = name.strip()
    if not words:
        return False
    flags = 0 if len(words) <= 2 else re.I
    pattern = re.compile(rf"(?<![\w-]){re.escape(words)}(?![\w-])", flags)
    if pattern.search(source.title or "") or pattern.search(source.text[:_SUBJECT_CHARS]):
        return True
    return _addressed(words, source)


# a line that states a new minimum ("now requires Frob >= 3.9", "Frob 3.9 or later is required")
_RAISED_MINIMUM = re.compile(r">=|≥|\brequir\w*|\bminimum\b|\bor\s+(?:later|newer|higher|above)\b", re.I)


def _minor(version: str, step: int) -> str | None:
    """The minor version `step` away on the same major line: ("3.9", -1) -> "3.8", ("3.8", 1) -> "3.9"; None for a
    bare "17" or below ".0"."""
    m = re.fullmatch(r"(\d+)\.(\d+)", version)
    return f"{m.group(1)}.{int(m.group(2)) + step}" if m and int(m.group(2)) + step >= 0 else None


def _under_release(condition: str | None, quote: str) -> bool:
    """Whether a condition names the release a change-log entry sits under ("dropped, 0.25.0 (2023-09-11)") and the
    entry's own words do not write it."""
    release = condition_release(condition)
    # (or is the release's bare version: "Released 2022-11-07" under "Changes in 2.53.0" has condition "2.53.0")
    bare = bool(condition and BARE_VERSION.fullmatch(condition))
    return (release is not None and release.version not in quote) or (bare and str(condition) not in quote)


def _asked_platforms(asked: Sequence[str], attributes: Sequence[str]) -> re.Pattern[str] | None:
    """The platforms whose versions are asked ("python_version" of "Frob 3.7 support dropped"), as a pattern that
    finds one in a sentence; its group "v" holds a version the question names ("Frob 3.7")."""
    names = [m[: -len("_version")].replace("_", r"[\s._-]?") for m in asked if m.endswith("_version")]
    if not names:
        return None
    versions = [v for a in attributes for v in re.findall(r"\d+(?:\.\d+)+", a)]
    # (and the minimum a drop raised: "Frob 3.8 support dropped" is answered by "now requires Frob >= 3.9")
    versions += [v for a in attributes if (e := PLATFORM_EVENT.fullmatch(a)) and e.group("verb") == "dropped"
                 and (v := _minor(e.group("v"), 1))]
    named = "|".join(re.escape(v) for v in dict.fromkeys(versions))
    version = rf"\s*(?:>=|≥)?\s*v?(?P<v>(?:{named})(?![\d.]*\d))?" if named else r"(?P<v>(?!))?"
    return re.compile(rf"(?<![\w-])(?:{'|'.join(names)})(?![\w-]){version}", re.I)


def _about_another(dominant: str | None, named: str, source: SourceDoc) -> bool:
    """Whether a document whose dominant name is another than `named` may be about that other one: neither its own
    address nor its title names `named`."""
    return bool(dominant) and entity_key(dominant or "") != entity_key(named) and not _addressed(named, source) and \
        entity_key(named) not in entity_key(source.title or "")


@lru_cache(maxsize=256)
def _address_keys(url: str) -> frozenset[str]:
    """The keys of the words a source's own address holds (once per source, not once per unit and name)."""
    return frozenset(entity_key(w) for w in address_words(url))


def _addressed(words: str, source: SourceDoc) -> bool:
    """Whether a source's own address names `words`."""
    # its own address: "wibblet.org__docs_core.xml" for "Wibblet", "acme__wibd__core.xml" for "Acme wibd" (the
    # last word of a name tells it from its vendor's other products; "acme__frobq" is no page of "Acme Quillq")
    own = _address_keys(source.url)
    last = words.split()[-1]
    return entity_key(words) in own or (len(last) >= 4 and entity_key(last) in own)


@lru_cache(maxsize=64)
def _is_change_log(text: str) -> bool:
    """A document whose headings are releases ("8.7.0 (2023-09-22)", "[1.3.8] - 2024-03-01"), two or more, or whose
    title is one (the notes of one release, "7.3.0 -- 2025-06-20"): a change log, whose other headings ("Bug Fixes",
    "New Dependency Information") divide a release."""
    heads = _release_headings(text)
    return len(heads) >= 2 or bool(heads and heads[0][0] == 0)


@lru_cache(maxsize=64)
def _is_dated_log(text: str) -> bool:
    """A log whose entries sit under the days they were written ("12 March 2024: A. Writer"): five or more such
    headings, more than release headings (an entry "tag 1.6.7" reads as one)."""
    days = releases = 0
    for m in re.finditer(r"(?:^|\n\n)([^\n]{1,90})(?=\n\n|$)", text):
        if day_heading(m.group(1)) is not None:
            days += 1
        elif len(m.group(1)) <= 60 and release_heading(m.group(1)) is not None:
            releases += 1
    return days >= 5 and days > releases


def _day_heading(text: str, start: int, reach: int = 6000) -> tuple[int, str, str] | None:
    """The heading of a dated log above `start` that gives its entries their day: where it starts, its text and the
    day (None in any other document)."""
    if not _is_dated_log(text):
        return None
    pos = start
    low = max(0, start - reach)
    while pos > low:
        cut = text.rfind("\n\n", low, pos - 1)
        at = cut + 2 if cut >= 0 else low
        para = text[at:pos].strip()
        pos = cut if cut >= 0 else low
        if para and len(para) <= 90 and (day := day_heading(para)) is not None:
            return text.find(para, at), para, day
    return None


class _Tag(NamedTuple):
    day: int  # the day the release came out (calendar_value)
    spans: tuple[tuple[int, int], ...]  # the entry that records it, and the day heading that dates it (if it does)
    version: str


@lru_cache(maxsize=16)
def _log_tags(text: str) -> tuple[_Tag, ...]:
    """A dated log's entries that record a release (a tag under its day, or "became the release of X on DAY"), in
    day order."""
    if not _is_dated_log(text):
        return ()
    day: int | None = None
    heading_at = (0, 0)
    out: list[_Tag] = []
    for m in re.finditer(r"[^\n]+(?:\n[^\n]+)*", text):
        para = m.group()
        if len(para) <= 90 and (heading := day_heading(para)) is not None:
            day, heading_at = calendar_value(heading, "date"), m.span()
            continue
        for version, named in tagged_releases(para) if len(para) <= 400 else []:
            when = calendar_value(named, "date") if named else day
            if when is not None:
                out.append(_Tag(when, (m.span(),) if named else (m.span(), heading_at), version))
    return tuple(sorted(out))


def _shipped_in(text: str, day: int) -> list[tuple[int, int]]:
    """The spans of a dated log that record the releases that shipped a change made on `day` (first_releases)."""
    first = first_releases(_log_tags(text), day, lambda t: t.day, lambda t: t.version)
    return list(dict.fromkeys(span for t in first for span in t.spans))


def _entry_day(text: str, start: int) -> str | None:
    """The day a dated log's heading above `start` gives its entries."""
    return found[2] if (found := _day_heading(text, start)) else None


def section_heading(text: str, start: int, reach: int = 3000) -> str | None:
    """The nearest heading above `start` (a short paragraph of its own without end punctuation) when it names a
    plan, edition or version; None when the nearest heading names something else. In a change log, a release's
    own sub-headings are passed over: its entries hold for the release above them."""
    log = _is_change_log(text)
    pos = start
    low = max(0, start - (reach * 3 if log else reach))
    while pos > low:
        cut = text.rfind("\n\n", low, pos - 1)
        para = text[cut + 2 if cut >= 0 else low:pos].strip()
        pos = cut if cut >= 0 else low
        if para and VERSION_NOTE.match(para):
            continue  # a reference entry's "added in 0.1.7": a fact of its own (releases.version_note), no section
        if para and (since := ENTRY_SINCE.fullmatch(para)) and keyword_shape(since.group("term")):
            return None  # "connect_timeout V3.4 -": a setting's entry, with the version it came in; no release
        if para and RELEASE_HEADING.fullmatch(para):
            return para  # a changelog's "## 0.28.2" or "## [1.3.8] - 2024-03-01": its entries hold for that release
        if para and _API_CLASS.fullmatch(para):
            return para  # "class NullFrobPool": an API reference's entries hold for that class
        if para and len(para) < 60 and "\n" not in para and " | " not in para and ":" not in para and \
                not re.search(r"[.!?。！？;；,，)）]$", para) and not re.match(r"\d", para):
            if _SECTION.match(para):
                return para
            words = para.split()
            if (sum(w[:1].isupper() for w in words) * 2 > len(words) or _CJK_TEXT.search(para)) and not log:
                return None  # a Title Case heading about something else: the section has no plan
    if log and low > 0:
        # (a release's notes may run longer than the reach: a summary, then each entry's details; the release
        # heading above them, however far, is theirs)
        heads = _release_headings(text)
        at = bisect.bisect_left(heads, (low, "")) - 1
        return heads[at][1] if at >= 0 else None
    return None


# the paragraph a list of defaults follows ("..., the default is:", "The defaults are:", "by default:")
_DEFAULTS_LEAD = re.compile(r"(?:\bdefaults?(?:\s+values?|\s+settings?)?\s+(?:is|are)|\bby\s+default|"
                            r"\bdefault\s+(?:values?|settings?))\s*:\s*$", re.I)
_LIMIT_WORD = re.compile(r"\b(?:default|minimum|maximum)\b")


def _listed_defaults(text: str, start: int, items: int = 12) -> bool:
    """Whether the unit at `start` is an item of a list (short one-line paragraphs, as a list is ingested) that a
    paragraph announcing defaults opens ("the default is:")."""
    pos = text.rfind("\n\n", 0, start)
    end = text.find("\n\n", start)
    own = text[pos + 2:end if end >= 0 else len(text)]
    if pos < 0 or "\n" in own or len(own) > 160:
        return False
    for _ in range(items):
        cut = text.rfind("\n\n", 0, pos)
        para = text[cut + 2 if cut >= 0 else 0:pos].strip()
        if _DEFAULTS_LEAD.search(para):
            return True
        if not para or "\n" in para or len(para) > 160 or para.endswith(":") or cut < 0:
            return False  # (a list another lead opens, "the usual values are:", holds no defaults)
        pos = cut
    return False


@lru_cache(maxsize=4096)
def _entry_events(entry: str) -> frozenset[str]:
    """The metrics of what a change log's entry brought ("frob_compression" of "Added frob compression."), read once
    per entry however many sub-questions score it."""
    return frozenset(o.metric for o in change_log_notes(entry, _SOME_RELEASE, "_") or [])


@lru_cache(maxsize=16)
def _release_headings(text: str) -> list[tuple[int, str]]:
    """A change log's release headings, each with where it starts, in order."""
    return [(m.start(1), m.group(1).strip()) for m in re.finditer(r"(?:^|\n\n)([^\n]{1,80})(?=\n\n|$)", text)
            if RELEASE_HEADING.fullmatch(m.group(1).strip()) and not VERSION_NOTE.match(m.group(1).strip())]


_QUALIFIER_CUT = re.compile(r"\s*[(,（，]")


def _plain_name(name: str) -> str:
    """"Port Vincent, Louisiana" -> "Port Vincent"; "Douglas County Courthouse (Nebraska)" -> "Douglas County
    Courthouse"; a name without a qualifier is itself."""
    return _QUALIFIER_CUT.split(name, maxsplit=1)[0].strip() or name


def _qualifier_of(name: str) -> str:
    """"Port Vincent, South Australia" -> "South Australia"; "X (Nebraska)" -> "Nebraska"."""
    rest = name[len(_plain_name(name)):]
    return rest.strip(" ,，()（）")


def name_variant(name: str, text: str) -> str | None:
    """A fuller form of a person-like name in `text`: "Carl Reinhold Roth" for "Carl Roth" (same first and last
    word, one or two capitalised words between), the way a passage writes the name a question shortens."""
    words = name.split()
    if len(words) < 2 or not all(w[:1].isupper() for w in words):
        return None
    m = re.search(rf"(?<![\w-]){re.escape(words[0])}(?: [A-Z][\w.'’-]*){{1,2}} {re.escape(words[-1])}(?![\w-])", text)
    return m.group(0) if m else None


_SUBJECT_STATEMENT = re.compile(r"(?:^|[.!?]\s+)((?:[A-Z][\w'’.-]*\s){0,4}[A-Z][\w'’.-]*) (?:is|was|are|were)"
                                r" (?:a|an|the|one)\b")
_NOT_SUBJECTS = frozenset({"the", "there", "it", "he", "she", "they", "this", "that", "these", "those", "in", "as",
                           "its", "his", "her", "their", "our", "we", "of", "for", "at", "on"})


def states_a_subject(text: str) -> bool:
    """Whether a passage says what it is about in so many words ("Cedar Falls is a city ..."): a sentence that opens
    with a name and "is a". Such a passage is about that name, whatever the question searched for."""
    return any(m.group(1).split()[0].lower() not in _NOT_SUBJECTS for m in _SUBJECT_STATEMENT.finditer(text))


_SHINGLE = 6  # words
_COPY_SHARE = 0.25  # of the smaller text's shingles


def _shingles(text: str) -> set[int]:
    words = re.findall(r"\w+", text[:_SUBJECT_CHARS].casefold())
    return {hash(tuple(words[i:i + _SHINGLE])) for i in range(len(words) - _SHINGLE + 1)}


def twin_leads(sources: Sequence[SourceDoc],
               subject: Callable[[SourceDoc], DocSubject]) -> dict[tuple[str, str], str]:
    """(source id, content hash) -> the name a source takes from the one named source whose text it copies: a
    quarter of the six-word runs of the smaller of the two are shared. Only a source that opens with no name or
    with the plain form of the other's qualified one takes it; two named sources it copies that disagree leave it
    as it is."""
    named = [(s, lead) for s in sources if (lead := subject(s).lead)]
    if not named:
        return {}
    runs = {s.id: _shingles(s.text) for s in sources}
    out: dict[tuple[str, str], str] = {}
    for s in sources:
        own = subject(s).lead
        if own and _plain_name(own) != own:
            continue
        mine = runs[s.id]
        leads = {lead for other, lead in named if other.id != s.id and lead != own
                 and (own is None or _plain_name(lead) == own)
                 and len(mine & runs[other.id]) >= max(15, _COPY_SHARE * min(len(mine), len(runs[other.id])))}
        if len(leads) == 1:
            out[(s.id, s.content_hash)] = leads.pop()
    return out


# what a place is ("Osgood is a town in ...", "Pinehurst is a census-designated place (CDP)"), and what a passage
# calls the place it describes ("... families living in the town", "residing in the CDP")
_PLACE_KINDS = r"city|town|village|township|borough|hamlet|census-designated place|cdp"
_DECLARED_KIND = re.compile(rf"\b(?:is|was) an? (?:small |large )?({_PLACE_KINDS})\b", re.I)
_KIND_USE = re.compile(r"\b(?:in|of|for) the (city|town|village|township|borough|hamlet|cdp)\b", re.I)


def _place_kind(word: str) -> str:
    w = word.lower()
    return "cdp" if w == "census-designated place" else w


def kind_leads(sources: Sequence[SourceDoc],
               subject: Callable[[SourceDoc], DocSubject]) -> dict[tuple[str, str], str]:
    """(source id, content hash) -> the qualified name an excerpt takes from the kind of place it describes.

    When the batch holds same-name places whose sources open with their qualified names and say what they are
    ("Osgood, Indiana Osgood is a town ...", "Osgood, Missouri Osgood is a village ..."), a source that opens with
    no name (or the plain one) and calls its subject by one kind only ("... 2,500 people, 638 households, and 417
    families living in the town") is about the one place of that kind. Two places of that kind, or a source
    using two kinds, leave it as it is."""
    declared: dict[str, dict[str, set[str]]] = {}  # plain name -> kind -> qualified names
    for s in sources:
        lead = subject(s).lead
        if lead and _plain_name(lead) != lead and (m := _DECLARED_KIND.search(s.text[:2000])):
            declared.setdefault(_plain_name(lead), {}).setdefault(_place_kind(m.group(1)), set()).add(lead)
    families = {plain: kinds for plain, kinds in declared.items()
                if len({lead for leads in kinds.values() for lead in leads}) >= 2}
    out: dict[tuple[str, str], str] = {}
    for s in sources:
        own = subject(s).lead
        if own and _plain_name(own) != own:
            continue
        family = families.get(own) if own else (next(iter(families.values())) if len(families) == 1 else None)
        used = {_place_kind(m.group(1)) for m in _KIND_USE.finditer(s.text[:_SUBJECT_CHARS])}
        if family and len(used) == 1 and len(leads := family.get(used.pop(), set())) == 1:
            out[(s.id, s.content_hash)] = next(iter(leads))
    return out


@runtime_checkable
class Extractor(Protocol):
    def extract(self, source: SourceDoc, question: SubQuestion, plan: Plan) -> ExtractionResult: ...


@runtime_checkable
class Preparing(Protocol):
    """An extractor that first looks at a batch of sources together (optional)."""

    def prepare(self, sources: Sequence[SourceDoc]) -> None: ...


@runtime_checkable
class PlanAware(Protocol):
    """An extractor that learns the whole plan before any source is read (optional)."""

    def prepare_plan(self, plan: Plan) -> None: ...


def _stems(text: str) -> set[str]:
    """Tokens with a crude plural fold ("brokers" ~ "broker"): enough for keyword overlap."""
    return {t[:-1] if len(t) > 3 and t.endswith("s") and not t.endswith("ss") else t for t in tokens(text)}


def _best_cosines(rows: Sequence[Sequence[float]], asks: Sequence[Sequence[float]]) -> list[float]:
    """For each row, its best cosine similarity to any of `asks`, floored at 0."""
    if not rows:
        return []
    m, a = np.asarray(rows, dtype=np.float64), np.asarray(asks, dtype=np.float64)
    m_norm, a_norm = np.linalg.norm(m, axis=1), np.linalg.norm(a, axis=1)
    denom = np.outer(m_norm, a_norm)
    sims = np.divide(m @ a.T, denom, out=np.zeros_like(denom), where=denom > 0)
    return [max(0.0, float(x)) for x in sims.max(axis=1)]


class DeterministicExtractor:
    """Embedding + keyword + entity scoring over sentences; rules for type, entities and observations."""

    def __init__(self, embedder: Embedder, aliases: AliasResolver, *, max_items: int = 8, min_score: float = 0.2,
                 names: Mapping[str, Iterable[str]] | None = None, max_sentence_chars: int = 600,
                 discover: bool = True) -> None:
        """`names`: surface names to link ({canonical: [alias, ...]}); default: the package alias list.
        `discover`: also link product-shaped names no list knows ("QuestDB", "VictoriaMetrics")."""
        self.embedder = embedder
        self.aliases = aliases
        self.max_items = max_items
        self.min_score = min_score
        self.max_sentence_chars = max_sentence_chars
        self.linker = EntityLinker(aliases, names, discover=discover)
        self._subjects: dict[tuple[str, str], DocSubject] = {}
        self._qualified: dict[str, set[str]] = {}  # plain name key -> qualified names sources open with
        self._qualified_lock = threading.Lock()
        self._prepared: set[tuple[str, str]] = set()  # sources whose copies prepare() has looked for
        self._facts: OrderedDict[str, _SentenceFacts] = OrderedDict()  # per sentence; sources are read repeatedly

    # -- the role -----------------------------------------------------------------------------------
    def extract(self, source: SourceDoc, question: SubQuestion, plan: Plan) -> ExtractionResult:
        units = sentence_units(source.text, self.max_sentence_chars)
        if not units:
            return ExtractionResult()
        self.doc_subject(source)  # registers a name the source keeps using before sentences are linked
        mentions = self.mentions(source.text, units, question, plan)
        about = self.doc_subject(source)
        scores = self.score(source.text, units, mentions, question, plan, about.lead or about.dominant, source)
        order = sorted(range(len(units)), key=lambda i: (-scores[i], units[i].start))
        items: list[EvidenceItem] = []
        quoted: set[str] = set()
        # a question that names many settings by their keys needs a unit for each of them from one reference
        limit = min(2 * self.max_items, self.max_items + sum(1 for a in plan.attributes if named_key(a)))
        for i in order:
            if len(items) >= limit or scores[i] < self.min_score:
                break
            u = units[i]
            quote = source.text[u.start:u.end]
            if quote in quoted:  # the same sentence repeated (a pull quote, a footer): once is enough
                continue
            quoted.add(quote)
            prev = i - 1 if i > 0 and units[i - 1].para == u.para else None
            context = (units[prev], mentions[prev]) if prev is not None else None
            item = self.build_item(source, question, plan, u.start, u.end, scores[i], mentions[i], context)
            items.append(item)
            if any((o.unit == "version" and str(o.value) not in quote) or _under_release(o.condition, quote)
                   for o in item.observations) and (
                    heading := section_heading(source.text, u.start)) and heading not in quoted and (
                    at := source.text.rfind(heading, 0, u.start)) >= 0:
                # a change-log entry's release is its heading's: the heading is quoted with it, so what the
                # entry says of that release (a version, or a figure it brought) is cited where the release is
                # written
                quoted.add(heading)
                span = [(at, at + len(heading))]
                items.append(self.build_item(source, question, plan, at, at + len(heading), scores[i],
                                             self.mentions(source.text, span, question, plan)[0]))
                if (dated := date_line_under(source.text, at + len(heading))) is not None and \
                        source.text[dated[0]:dated[1]] not in quoted:
                    # "Release date: 2024-09-20" under an undated heading: when that release came out
                    quoted.add(source.text[dated[0]:dated[1]])
                    items.append(self.build_item(source, question, plan, *dated, scores[i],
                                                 self.mentions(source.text, [dated], question, plan)[0]))
            elif any(o.unit == "date" and str(o.value) not in quote and (o.condition or "").endswith(" on")
                     for o in item.observations) and (day := _day_heading(source.text, u.start)) and \
                    day[1] not in quoted:
                # a dated log's entry: the day it was written is its heading's, quoted with it; and the entries
                # that record the first release after that day, which shipped it
                quoted.add(day[1])
                spans = [(day[0], day[0] + len(day[1]))]
                when = calendar_value(day[2], "date")
                for s, e in _shipped_in(source.text, when) if when is not None else []:
                    if source.text[s:e] not in quoted:
                        quoted.add(source.text[s:e])
                        spans.append((s, e))
                for (s, e), found_there in zip(spans, self.mentions(source.text, spans, question, plan), strict=True):
                    items.append(self.build_item(source, question, plan, s, e, scores[i], found_there))
        return ExtractionResult(items=items)

    def prepare_plan(self, plan: Plan) -> None:
        """Register every sub-question's names, in plan order, before any extraction: what a sentence links to
        is then the same whichever sub-question reaches it first (parallel workers, a resumed run whose
        finished sub-questions are not read again), not a function of which ones happened to run before."""
        for sq in plan.sub_questions:
            self.wanted(sq, plan)

    # -- pieces the LLM path reuses -------------------------------------------------------------------
    def wanted(self, question: SubQuestion, plan: Plan) -> set[str]:
        """Canonical names of the entities the plan is about; registered with the linker on the way."""
        names = [*question.entities, *plan.entities]
        self.linker.add(names)
        return {self.aliases.canonical(n) for n in names}

    def mentions(self, text: str, spans: Sequence[tuple[int, int]] | Sequence[Unit], question: SubQuestion,
                 plan: Plan) -> list[list[Mention]]:
        self.wanted(question, plan)
        return self.linker.link([text[s[0]:s[1]] for s in spans])

    def score(self, text: str, spans: Sequence[tuple[int, int]] | Sequence[Unit], mentions: Sequence[Sequence[Mention]],
              question: SubQuestion, plan: Plan, subject: str | None = None,
              source: SourceDoc | None = None) -> list[float]:
        """0.45 embedding similarity (best over the question and its queries) + 0.35 keyword overlap +
        0.2 entity overlap, + 0.05 for a number when the question asks for one. A sentence that names nothing
        in a document about `subject` ("During the first 24 months it receives bugfix updates") is about that."""
        texts = [text[s[0]:s[1]] for s in spans]
        # a table row is ranked as its reader sees it: under its caption and header ("simdjson | 2.5" is a parsing
        # speed in GB/s on twitter.json), and its cells' bare numbers are figures
        rows = [table_row(text, s[0]) if "|" in t else None for s, t in zip(spans, texts, strict=True)]
        # a unit of a definition entry under the term it defines ("idle timeout: default: 75s")
        # (and the first words of its description, which say what the setting is in the reference's own words)
        keys = [defined_term(text, s[0]) if r is None else None for s, r in zip(spans, rows, strict=True)]
        terms = [f"{readable_term(key)} {entry_description(text, s[0], key)}".strip() if key else None
                 for s, key in zip(spans, keys, strict=True)]
        ranked = [f"{r.caption} {' | '.join(r.header)} {t}" if r else f"{term}: {t}" if term else t
                  for r, t, term in zip(rows, texts, terms, strict=True)]
        asks = [question.text, *question.queries]
        with _EMBED_GATE:  # one encode at a time: concurrent ONNX runs each hold their own activations
            vectors = self.embedder.embed([*asks, *ranked])
        sims = _best_cosines(vectors[len(asks):], vectors[:len(asks)])
        q_tokens = _stems(" ".join([question.text, *question.keywords, *question.aspects, *question.queries]))
        want = self.wanted(question, plan)
        focus = {self.aliases.canonical(n) for n in question.entities} or want
        numeric = bool(_NUMERIC_ASK.search(" ".join([question.text, *question.aspects])))
        # the quantities asked: the sub-question's own, or (a sub-question about one entity) every one the
        # question names
        asked = [a for a in question.aspects if a in plan.metrics] or list(plan.metrics)
        own = asked_for(plan)  # a date or count asked under the question's own words
        dated = any(a in _EVENT_METRICS for a in asked) or (own is not None and own.kind == "date")
        releases = asked_releases(plan.question) if dated else []
        values_asked = [a for a in asked if a not in _EVENT_METRICS and a != "release_date"]
        # the asked settings' keys as a sentence may write them ("zorb_cache_size", "zorb-cache-size"), read once
        key_forms = [k for a in asked if "_" in a for k in (re.escape(a), re.escape(a.replace("_", "-")))]
        asked_keys = re.compile(rf"(?<![\w.-])(?:{'|'.join(key_forms)})(?![\w-])") if key_forms else None
        platforms = _asked_platforms(asked, plan.attributes)
        # the things asked as a release brought them ("frob compression added"), and whether this is a change log
        # whose entries may bring them ("added frob compression.")
        brought = {metric_key(a) for a in plan.attributes if _BROUGHT.search(a) and not PLATFORM_EVENT.fullmatch(a)}
        brought = brought if brought and _is_change_log(text) else set()
        # (the events asked of those versions: "Frob 3.8 support dropped" is answered by a drop of 3.8, not by the
        # release that first supported it)
        events = {(e.group("v"), e.group("verb") == "dropped") for a in plan.attributes
                  if (e := PLATFORM_EVENT.fullmatch(a))}
        out = []
        for span, sent, emb, found, row, term, key in zip(spans, ranked, sims, mentions, rows, terms, keys,
                                                           strict=True):
            facts = self._sentence_facts(sent)
            if row is not None and any(cell_values(c.text) for c in row.cells[1:]):
                facts = facts._replace(statistic=True, kinds=facts.kinds | {"table"})
            kw = min(1.0, len(q_tokens & facts.tokens) / max(2, min(len(q_tokens), 6))) if q_tokens else 0.0
            names = {m.canonical for m in found}
            if source is not None and (read := figures(sent)) is not None and (
                    ran := self.label_entity(label_words(read[0]), want, source, span[0], plan.question)):
                names.add(ran)  # a benchmark line names what ran in its label ("Encoder_Generic_QuuxLib")
            if subject and not names & want:
                names.add(self.aliases.canonical(subject))
            # a sub-question about one of the compared names favours sentences about that one
            ent = min(1.0, len(names & focus) / min(len(focus), 2)) if focus else (0.5 if names else 0.0)
            bonus = 0.05 if (numeric or asked) and facts.statistic else 0.0
            score = 0.45 * emb + 0.35 * kw + 0.2 * ent
            if asked:
                # the question asks for quantities: a sentence with no figure of the right kind (a year for
                # "when was X built", a count or measure otherwise) answers it less than one that has one
                # (a question that asks values too, "the defaults ... and when was that release published", is
                # answered by any figure)
                figure = bool(facts.kinds & {"year", "date"}) if dated and not values_asked else bool(
                    facts.kinds - _NOT_FIGURES) or bool(key and values_asked and "year" in facts.kinds and
                                                         labelled_figure(text[span[0]:span[1]]))
                # ("Default: 2048." in a setting's entry is its value, however much it looks like a year)
                # (or it names an asked setting's key itself: "the new zorb_cache_size setting", "zorb-limit")
                keyed = bool(asked_keys and asked_keys.search(sent))
                if keyed and not figure and _is_change_log(text):
                    figure = True  # "Added zorb-limit to ...": a change log's entry dates the key by its release
                if given := defaulted_keys(sent):
                    figure = True  # ".. class:: Frobber(*, zorb_limit=100, ...)": figures, however code-like
                    if any(shares_words(k, a) for k in given for a in asked):
                        bonus += 3 * _ASKED_METRIC_BONUS  # the defaults of the very keys asked
                if platforms and states_requirement(sent) and (on := platforms.search(sent)):
                    # "Drop support for Frob 3.7." where a Frob version is asked: a figure of its own; the most when
                    # it states the very version asked ("which release dropped Frob 3.7")
                    figure = True
                    bonus += _ASKED_METRIC_BONUS + (_ASKED_RELEASE_BONUS if on.group("v") and (
                        not events or (on.group("v"), says_dropped(sent)) in events or (
                            # ("now requires Frob >= 3.9" dropped 3.8: the minor before the new minimum)
                            _RAISED_MINIMUM.search(sent) and (_minor(on.group("v"), -1), True) in events))
                        else 0.0)
                if brought and _entry_events(text[span[0]:span[1]]) & brought:
                    figure = True  # an entry that brings what is asked: its release, and the day it came, answer
                    bonus += _ASKED_METRIC_BONUS + _ASKED_RELEASE_BONUS
                if not figure:
                    score *= _NO_FIGURE_FACTOR
                elif keyed or any(same_family(k, a) or shares_words(k, a) for k in facts.metrics for a in asked) or (
                        term and any(shares_words(term, a) for a in asked)):
                    bonus += _ASKED_METRIC_BONUS  # a figure of a quantity the question asks for
                    if key and term_metric(key) in asked and labelled_figure(text[span[0]:span[1]]):
                        bonus += 2 * _ASKED_METRIC_BONUS  # the default of the very key the question names
                if dated and len(sent) <= HEADING_CHARS and ((release := dated_release(sent)) or (
                        release := dated_by_line(text, span[0], span[1]))):
                    # a change log's dated heading is the date a question for release dates asks for; the most
                    # where it heads a release the question names ("0.19 to 0.22.1", "4.3.x"); so is the labelled
                    # date line right under an undated one ("Frob 3.0 released" over "pub_date: 2021-10-13")
                    bonus += _ASKED_METRIC_BONUS + (_ASKED_RELEASE_BONUS if release_asked(release.version, releases)
                                                    else 0.0)
            out.append(round(score + bonus, 6))
        return out

    def _sentence_facts(self, sent: str) -> _SentenceFacts:
        found = self._facts.get(sent)
        if found is None:
            values = find_values(sent)
            # the quantities it names, and the ones its figures measure ("单核每秒插入 100 万条记录" is an ingest
            # rate though no word of it names one)
            measured = {o.metric for o in observations(sent, [], set(), "_")} if values else set()
            found = _SentenceFacts(frozenset(_stems(sent) | metric_words(sent)),
                                   frozenset({m.key for m in metric_mentions(sent)} | measured), has_statistic(sent),
                                   frozenset(v.kind for v in values))
            self._facts[sent] = found
            if len(self._facts) > _FACTS_CACHE:
                self._facts.popitem(last=False)
        return found

    def title_entity(self, source: SourceDoc, want: set[str]) -> str | None:
        """The one plan entity a source's title names ("Apache Kafka 4.0 Release Notes"): the subject of a
        sentence that names none ("Default client port 9092 ...")."""
        if not source.title:
            return None
        names = {m.canonical for m in self.linker.link([source.title])[0]}
        hits = names & want if want else names
        return next(iter(hits)) if len(hits) == 1 else None

    def doc_subject(self, source: SourceDoc) -> DocSubject:
        """What the source as a whole is about (cached per source): the entity its text opens with ("Osgood,
        Indiana Osgood is a town ..."), and the entity it names far more often than any other."""
        key = (source.id, source.content_hash)
        if key not in self._subjects:
            head = source.text[:_SUBJECT_CHARS]
            lead = lead_subject(source.text)
            counts = Counter(m.canonical for m in self.linker.link([head])[0])
            # a name no list knows that the text keeps using mid-sentence ("... how Prometheus stores ...")
            # a name is never written lower-case in prose (URLs and paths do not count)
            common = _NOT_NAMES | set(re.findall(r"(?<![\w./-])[a-z]{4,}(?![\w/-]|\.\w)", mask_links(head)))
            words = Counter(m.group(0) for m in _MIDCAP.finditer(head) if m.group(0).lower() not in common)
            (word, n), *rest = words.most_common(2) or [("", 0)]
            top = counts.most_common(2)
            dominant = top[0][0] if top and top[0][1] >= 3 and (len(top) == 1 or top[0][1] >= 2 * top[1][1]) \
                else None
            basis = top[0][1] if dominant else 0  # how often the text names the subject chosen so far
            # only a document (not a passage) names its subject often enough to tell; never linked elsewhere
            if named := title_name(source.title, head):
                dominant = dominant if dominant and entity_key(dominant) == entity_key(named) else \
                    self.aliases.canonical(named)  # a README titled "orjson" is about orjson, not its TypeError
                basis = len(head)  # a title's name is never overruled
            elif (named := title_subject(source.title, head)) and (
                    dominant is None or _uses(named, mask_links(head)) > top[0][1]):
                # "Evolving the Zorbly.js Release Schedule" is about Zorbly.js, unless the text names another more
                dominant = self.aliases.canonical(named)
                basis = len(head)
            elif len(head) >= 3000 and n >= 5 and (not rest or n >= 2 * rest[0][1]) and \
                    n > 2 * max(counts.values(), default=0):
                dominant, basis = self.aliases.canonical(word), n
            elif dominant is None and (logged := heading_name(source.text)):
                dominant = self.aliases.canonical(logged)  # a change log whose release headings name its product
            if (addressed := address_subject(source.url, head, source.text)) and (addressed[1] > 2 * basis or (
                    basis < len(head) and _is_change_log(source.text))):
                # a page of github.com/acme/wibblet that keeps writing "Wibblet" is about Wibblet (also when it
                # names another name, if far less often); a change log its address names is that product's, however
                # often its entries name a dependency ("Updated the bundled quux" in frob/HISTORY.md)
                dominant = self.aliases.canonical(addressed[0])
            kinds = Counter(m.key for m in metric_mentions(f"{source.title or ''} {head}")
                            if m.key in ("ingest_throughput", "query_throughput"))
            throughput = "throughput"
            (first, n_first), *other = kinds.most_common(2) or [("throughput", 0)]
            if n_first >= 2 and (not other or n_first >= 3 * other[0][1]):
                throughput = first  # the document is about writes (or queries) throughout
            self._subjects[key] = DocSubject(lead, dominant, frozenset(entity_key(n) for n in counts), throughput)
        return self._subjects[key]

    def context_entity(self, source: SourceDoc, want: set[str], before: Sequence[Mention] = (),
                       lookup: bool = False) -> str | None:
        """The subject of a sentence that names none: the passage's opening entity, the title's single entity,
        the one entity the sentence before it (same paragraph) names, the single plan entity when the source
        mentions it (a look-up question), or the document's dominant one. Never a guess between two."""
        subject = self.doc_subject(source)
        if subject.lead:
            return self.by_qualifier(subject.lead, source)
        if titled := self.title_entity(source, want):
            return titled
        if len(named := {m.canonical for m in self.qualify(before, source)}) == 1:
            return named.pop()
        if len(want) == 1:
            (focus,) = want
            if _about_another(subject.dominant, focus, source):
                # a document about another product that names the asked one in passing ("similar to Zorbd's
                # idle_timeout" in Quuxcat's reference): its unnamed figures are its own product's
                return subject.dominant
            if entity_key(focus) in subject.named or entity_key(focus) in entity_key(source.text[:_SUBJECT_CHARS]) or (
                    subject.dominant is None and _addressed(focus, source)):
                # (a page its own address names it on: "quux-docs-config-requesttimeout.md" that never writes "Quux")
                return self.by_qualifier(focus, source)
            if variant := name_variant(focus, source.text[:_SUBJECT_CHARS]):
                return variant  # "Carl Reinhold Roth" for "Carl Roth": the source's own fuller name
            if lookup and subject.dominant is None and not subject.named - {entity_key(focus)} and \
                    not states_a_subject(source.text[:_SUBJECT_CHARS]):
                # a passage found for a look-up that names nothing at all ("There were 5,000 people ... in the
                # town") is about what it was found for; the name it never states is the plain one, so it
                # meets a qualified same-name entity ("X, Indiana") only in the reader's eyes, never in a key
                return self.by_qualifier(focus, source)
        elif len(want) > 1 and (present := [w for w in sorted(want) if _names_at_top(w, source)]) and (
                len(present) == 1 or len(present := [w for w in present if _addressed(w, source)]) == 1):
            # a question about four products, a document that names one of them at its top (its title, its
            # opening, its own address): the document is about that one; of two it names, the one its own
            # address names ("...-config-requesttimeout.md" of Quux that opens "Default: 5000 in Frobnode")
            if _about_another(subject.dominant, present[0], source) and _addressed(subject.dominant or "", source):
                # unless the document is another product's, its own address says so: "frob-HISTORY.md" that
                # writes "Updated the bundled Quux" near its top keeps Frob's release headings Frob's
                return subject.dominant
            return self.by_qualifier(present[0], source)
        return subject.dominant

    def prepare(self, sources: Sequence[SourceDoc]) -> None:
        """Learn the qualified names a batch of sources open with ("Port Vincent, Louisiana", "Port Vincent,
        South Australia"), before any is extracted, so the order they are read in does not matter. A source that
        opens with no name, or with the plain one, and copies much of one named source's text (a mirror, an
        excerpt, an edited copy) is about what that source is about."""
        for source in sources:
            lead = self.doc_subject(source).lead
            if lead and (plain := _plain_name(lead)) != lead and entity_key(plain):
                with self._qualified_lock:
                    self._qualified.setdefault(entity_key(plain), set()).add(lead)
        with self._qualified_lock:
            todo = [s for s in sources if (s.id, s.content_hash) not in self._prepared]
            self._prepared.update((s.id, s.content_hash) for s in todo)
        # a copy of a named source takes its name; else an excerpt the kind of place it describes names
        named = {**kind_leads(todo, self.doc_subject), **twin_leads(todo, self.doc_subject)}
        for key, lead in named.items():
            self._subjects[key] = self._subjects[key]._replace(lead=lead)

    def by_qualifier(self, name: str, source: SourceDoc) -> str:
        """A plain name ("Port Vincent") in a source that never opens with its qualified form (an infobox comes
        first) takes the one qualified name known from other sources whose qualifier this source states
        ("... is a village in Livingston Parish, Louisiana"); with none or several, the plain name stays."""
        if _plain_name(name) != name:
            return name
        with self._qualified_lock:
            options = sorted(self._qualified.get(entity_key(name), ()))
        head = source.text[:_SUBJECT_CHARS]
        # stated on its own, not as part of the qualified name: "For the 2015 series, see Danger Mouse (2015 TV
        # series)" points away from the page it is on. With one qualified form only, the plain name may be yet
        # another place of that name unless the qualifier is specific ("Canehill, Arkansas", not "Texas")
        hits = [q for q in options if (rest := _qualifier_of(q)) and head.count(rest) > head.count(q)
                and (len(options) >= 2 or len(rest.split()) >= 2)]
        return hits[0] if len(hits) == 1 else name

    def qualify(self, found: Sequence[Mention], source: SourceDoc) -> list[Mention]:
        """A mention of the passage's subject by its plain name takes the qualified name the passage opens
        with ("Osgood" in a passage opening "Osgood, Indiana"): same-name entities stay apart."""
        lead = self.doc_subject(source).lead
        if not lead or _plain_name(lead) == lead:
            found = [m._replace(canonical=q) if (q := self.by_qualifier(m.canonical, source)) != m.canonical else m
                     for m in found]
        if not lead:
            return list(found)
        lead = self.by_qualifier(lead, source)
        lead_words = set(re.findall(r"\w+", re.split(r"\s*[(,]", lead, maxsplit=1)[0].casefold()))

        def same(name: str) -> bool:  # "Princess Xenia" in a passage opening "Princess Xenia Georgievna of Russia"
            words = set(re.findall(r"\w+", name.casefold()))
            return bool(words) and words <= lead_words

        return [m._replace(canonical=lead) if same(m.canonical) or same(m.surface) else m for m in found]

    def _in_context(self, source: SourceDoc, start: int, obs: list[ObservationIn],
                    section: str | None = None) -> list[ObservationIn]:
        """What the document around a sentence says about its values: a bare throughput in a write benchmark
        is an ingest throughput; a plan, edition or version heading above it is a condition (`section`, when the
        caller has found it already)."""
        if not obs:
            return obs
        subject = self.doc_subject(source)
        default = subject.throughput
        section = section or section_heading(source.text, start)
        inherited = [section] if section else []
        edition = source_edition(source)
        if intro := list_intro(source.text, start):  # "... a single node (InfluxDB OSS) may not support:"
            inherited += [c for _, _, c in condition_spans(source.text[intro[0]:intro[1]], (), False)]
        if not inherited and (over := listing_intro(source.text, start)) is not None and _DEFAULTS_INTRO.search(over):
            # "Quux's default configuration is equivalent to:", "These are the default values." over a listing of
            # "line-length = 88" lines: the listed values are defaults
            inherited.append("default")
        out = []
        for o in obs:
            update: dict[str, str] = {}
            if o.metric == "throughput" and default != "throughput" and canonical_unit(o.unit)[0] in _RECORD_RATES:
                update["metric"] = default  # records into a database; a broker's msg/s or MB/s stays as it is
            own = edition if edition and entity_key(o.entity) in {entity_key(n) for n in (subject.dominant,
                                                                                          subject.lead) if n} else None
            extra = [c for c in (*inherited, own) if c and c.lower() not in (o.condition or "").lower()]
            if extra:
                update["condition"] = ", ".join(filter(None, [o.condition, *extra]))
            out.append(o.model_copy(update=update) if update else o)
        return out

    def _release_dated(self, source: SourceDoc, start: int, obs: list[ObservationIn]) -> list[ObservationIn]:
        """A labelled date line under an undated release heading ("What's new in Zorbq 3.3.9?" over "Release date:
        2025-11-05") dates that release: the heading's version is its condition, the product the heading names its
        entity. Dates of a log's releases are one date each, never values of one quantity."""
        if not any(_release_date(o) for o in obs):
            return obs
        para = section_heading(source.text, start)
        release = release_heading(para) if para else None
        if para is None or release is None or release.date is not None:
            return obs
        entity = self.aliases.canonical(release.name) if release.name else None
        out = []
        for o in obs:
            # (the heading itself is the condition the section gave it)
            rest = re.sub(r"\s*,\s*$|^\s*,\s*", "", (o.condition or "").replace(para, "")).strip()
            if _release_date(o) and not re.search(r"\d+\.\d+", rest):
                # (a name the question wrote with a version, "Zorbq 2.53.0", is the product of that release)
                own = entity or re.sub(r"\s+v?\d+(?:\.\d+)+\S*$", "", o.entity) or o.entity
                o = o.model_copy(update={"metric": "release_date", "entity": own,
                                         "condition": ", ".join(filter(None, [release.version, rest]))})
            out.append(o)
        return out

    def build_item(self, source: SourceDoc, question: SubQuestion, plan: Plan, start: int, end: int, score: float,
                   found: Sequence[Mention], context: tuple[tuple[int, int] | Unit, Sequence[Mention]] | None = None,
                   *, kind: EvidenceType | None = None, extra_entities: Iterable[str] = ()) -> EvidenceItem:
        """An evidence item for source.text[start:end] (always the stored text, never a model's copy)."""
        quote = source.text[start:end]
        want = self.wanted(question, plan)
        ctx_conditions: tuple[str, ...] = ()
        if context is not None:
            (cs, ce), ctx_mentions = context[0][:2], context[1]
            ctx_conditions = tuple(c for _, _, c in condition_spans(source.text[cs:ce], ctx_mentions, False))
        # no entity borrowed from the sentence before: "两者在性能上都够用" would credit the business load to
        # whichever broker that sentence named last; only what the whole source is about stands in
        found = self.qualify(found, source)
        # (nor in a reference entry: "--frob-ping <float> - Set the Zorbnet ping interval. Default: 20.0." is a setting
        # of the product the reference documents, whatever its description names)
        entry_term = defined_term(source.text, start)  # (read once: the owner, a table row's setting, the term)
        in_entry = context is not None and "|" not in quote and entry_term is not None
        ctx_entity = self.context_entity(source, want, context[1] if context is not None and not in_entry else (),
                                         lookup=plan.kind == "lookup")
        read: list[ObservationIn] | None = None
        row = None
        if is_bench_line(quote):
            banner = block_banner(source.text, start)
            read = line_observations(quote, lambda words: self.label_entity(words, want, source, start,
                                                                            plan.question),
                                     banner, self.banner_entity(banner.name, want, banner_names(source.text))
                                     if banner else None)
            if read and (called := appositions(plan.question, want)):
                # the label words that abbreviate what the question calls the entity named it: no condition
                read = [o.model_copy(update={"condition": _without_abbreviation(o.condition, called, o.entity)})
                        for o in read]
        elif row := table_row(source.text, start):
            shifted = [m._replace(start=m.start + start, end=m.end + start) for m in found]
            subject = self.doc_subject(source)
            read = row_observations(row, start, quote, shifted, want, ctx_entity, subject.named,
                                    subject.lead or subject.dominant)
            if read and len(row.labels) == 1 and ctx_entity and (term := entry_term):
                read = term_row(read, term, ctx_entity)  # "default | max" of the setting the section defines
        heading = None
        entry = help_entry(quote) if quote.startswith("-") else None  # a command's help entry ("-k, --socks=64 ...")
        if read is None and row is None and entry:
            read = help_column_default(entry, ctx_entity)  # "-k, --sockets=135   Concurrent sockets to ..."
        if read is None and row is None:
            # "## 1.19.0 - 2025/07/30": the release's date (no heading above it makes it conditional)
            heading = read = heading_observations(quote, found, ctx_entity)
        term = entry_term if row is None else None
        if read is None and row is None and (note := version_note(quote, term, ctx_entity)):
            heading = read = note  # "added in 0.1.7" under "ZORB_HTTP_TIMEOUT": since when the setting exists
        if read is None and row is None and (since := entry_since(quote, ctx_entity)):
            heading = read = since  # "retry 0.32.3+": the entry's own heading says since when it exists
        # "Add zorb_idle_timeout setting." under its release: since when the setting exists (beside what else
        # the entry states)
        release = section_heading(source.text, start) if read is None and row is None and _is_change_log(
            source.text) else None
        notes = change_log_notes(quote, release_heading(release), ctx_entity) if release else None
        if release and notes is None and brought_label(source.text, start):
            notes = brought_entry(quote, release_heading(release), ctx_entity)  # an entry under "New Features"
        if read is None and row is None and release is None and (day := _entry_day(source.text, start)):
            # "12 March 2024: A. Writer" over its entries: what changed that day, and the tags it records
            notes = [*(change_log_notes(quote, Release(None, "", day, -1), ctx_entity) or []),
                     *(tag_notes(quote, day, ctx_entity) or [])] or None
        if term:  # the keyword an entry defines is what its figures are of, never an entity of the answer
            found = [m for m in found if entity_key(m.canonical) != entity_key(term)]
        if read is None and row is None and (read := signature_defaults(quote, ctx_entity)):
            term = None  # ".. class:: Frobber(*, limit=100, idle_timeout=15)": each parameter names its own default
        if read is None and (read := label_line(quote, found, ctx_entity, term)) and (
                block := block_label(source.text, start)):
            # "Actual:" / "Expected:" over a run of labelled lines: each line's figure is of that kind
            read = [o.model_copy(update={"condition": ", ".join(filter(None, [o.condition, block]))}) for o in read]
        if read is None and row is None:
            read = requirement_observations(quote, found, ctx_entity)  # "It requires Frob 3.10+ to run"
        obs = read if read is not None else observations(quote, found, want, ctx_entity, ctx_conditions,
                                                          asked=asked_for(plan))
        if obs and not term and row is None and any(o.metric in GENERIC_METRICS for o in obs) and (
                named := prose_term(source.text, start)):
            # "... you can pass *zorb_limit* parameter to the connector. [...] The default is 0.": that parameter's
            obs = [*(o for o in obs if o.metric not in GENERIC_METRICS),
                   *of_term([o for o in obs if o.metric in GENERIC_METRICS], named, None)]
        if obs and ctx_entity and entry:
            # a command's help entry documents the command's own setting, whatever capitalised words its value
            # type and description hold ("--timeout Duration Socket idle timeout")
            obs = [o if o.entity == ctx_entity else o.model_copy(update={"entity": ctx_entity}) for o in obs]
        if obs and term:
            # "The default value is 16384" of quoll.bufsize
            obs = of_term(obs, term, entry_unit(source.text, start), quote, entry_description(source.text, start, term))
            if section := term_section(source.text, start, term):  # "quality" under "AVIF", again under "JPEG"
                obs = [o.model_copy(update={"condition": ", ".join(filter(None, [o.condition, section]))})
                       for o in obs]
        if obs and row is None and _listed_defaults(source.text, start):
            # "... can be used to tune the frobber, the default is:" over a list: each item's figures are defaults
            obs = [o if _LIMIT_WORD.search(o.condition or "") else o.model_copy(
                update={"condition": ", ".join(filter(None, ["default", o.condition]))}) for o in obs]
        obs = [o for o in (obs if heading else self._in_context(source, start, obs, release)) if storable(o)]
        if not heading and row is None:
            obs = self._release_dated(source, start, obs)
        if notes:
            known = {(o.metric, str(o.value)) for o in obs}
            obs += [o for o in notes if (o.metric, str(o.value)) not in known and storable(o)]
        entities = list(dict.fromkeys([*(m.canonical for m in found), *extra_entities, *(o.entity for o in obs)]))
        evidence_type = kind or classify(quote, len(entities), bool(obs) or has_statistic(quote))
        return EvidenceItem(id=evidence_id(source.id_scope, start, end, quote), source_id=source.id,
                            source_url=source.url, quote=quote, start=start, end=end, type=evidence_type,
                            entities=entities, observations=obs, question_id=question.id, score=score)

    def banner_entity(self, name: str, want: set[str], siblings: Sequence[str] = ()) -> str:
        """What a benchmark banner names ("zorbjson-gcc", "quill_json"): an asked or known name among its words
        (the others are the build: "gcc"), else the stem it shares with a sibling banner ("zorbjson" of
        "zorbjson-gcc" beside "zorbjson-clang"), else the banner's name as written, a name no list knows."""
        pieces = [name, *label_words(name)]
        for piece in pieces:
            key = entity_key(piece)
            if hit := next((w for w in sorted(want) if key and entity_key(w) == key), None):
                return hit
        found = self.linker.link([" ".join(label_words(name))])[0]
        if found:
            return found[0].canonical
        stem = shared_stem(name, siblings)
        return stem[0] if stem else name

    def label_entity(self, words: Sequence[str], want: set[str], source: SourceDoc,
                     start: int | None = None, question: str = "") -> str | None:
        """The entity a benchmark label names among its words ("Encoder Generic Sonic" -> sonic): a name the
        question or the document is about, written as one word or two joined ("JsonIter" for jsoniter), else a
        name the linker knows, else the segment of the label where its sibling lines name known ones
        ("Encoder_Generic_QuuxLib" beside "Encoder_Generic_Frobz": QuuxLib, a name no list knows)."""
        subject = self.doc_subject(source)
        named = [*sorted(want), *(n for n in (subject.lead, subject.dominant) if n)]

        def known(*pieces: str) -> str | None:
            for piece in pieces:
                key = entity_key(piece)
                for name in named:
                    other = entity_key(name)
                    if key and (key == other or (min(len(key), len(other)) >= 6 and (
                            other.startswith(key) or key.startswith(other)))):
                        return name
            return None

        pieces = [*words, *(a + b for a, b in itertools.pairwise(words))]
        if got := known(*pieces):
            return got
        for descriptor, name in appositions(question, want).items():
            if any(abbreviates(seg, descriptor) for seg in pieces):
                return name  # "StdLib" in a label; the question calls the name "the standard library"
        found = self.linker.link([" ".join(words)])[0]
        if found:
            return found[0].canonical
        if start is not None and (siblings := block_labels(source.text, start)):
            own = next((x for x in siblings if label_words(x) == list(words)), None)
            if own is not None and (alt := alternative_of_known(
                    siblings, own, lambda seg: known(seg, *label_words(seg)))) is not None:
                return alt
        if len(words) == 1 and (own := subject.lead or subject.dominant) and (words[0].islower() or re.search(
                rf"(?<![\w./-]){re.escape(words[0].lower())}(?![\w-])", source.text)):
            # "fillrandom : 2.460 micros/op", "# Write 68.5ms (14593 op/sec)": a test the document's own product
            # ran, named by a word the document also writes as an ordinary (lower-case) word
            return own
        # else the last of its words the document also writes as a word of its prose ("Frobz is a codec"):
        # "Encoder" and "Generic" name what ran, not who
        prose = prose_words(source.text)
        return next((w for w in reversed(pieces) if len(w) > 2 and w.lower() in prose), None)


def appositions(question: str, want: set[str]) -> dict[str, str]:
    """What the question calls an asked name in apposition right before it, in English words: "the standard library
    zed/json" and "标准库 zed/json" give {"standard library": "zed/json"}. Descriptor -> name."""
    out: dict[str, str] = {}
    for name in want:
        for m in re.finditer(rf"(?:\bthe\s+((?:[a-z]+\s+){{1,3}})|([\u4e00-\u9fff]{{2,6}})\s*){re.escape(name)}"
                             rf"(?![\w/-])", question, re.I):
            words = m.group(1) or with_english(m.group(2) or "").removeprefix(m.group(2) or "")
            words = " ".join(words.lower().split())
            if words and len(words.split()) >= 2:
                out[words] = name
    return out


def abbreviates(segment: str, descriptor: str) -> bool:
    """Whether a label segment abbreviates a descriptor word by word ("StdLib" for "standard library")."""
    parts = [p.lower() for p in label_words(segment)]
    words = descriptor.split()
    return len(parts) == len(words) >= 2 and all(_shortens(p, w) for p, w in zip(parts, words, strict=True))


def _shortens(short: str, word: str) -> bool:
    """"std" shortens "standard", "lib" "library": the same first letter, the rest in order within the word."""
    if not short or short[0] != word[:1]:
        return False
    rest = iter(word[1:])
    return all(c in rest for c in short[1:])


def _without_abbreviation(condition: str | None, called: dict[str, str], entity: str) -> str | None:
    """A benchmark condition without the label words that abbreviate what the question calls `entity`."""
    words = (condition or "").split()
    for descriptor, name in called.items():
        n = len(descriptor.split())
        if name != entity:
            continue
        for i in range(len(words) - n + 1):
            if abbreviates("".join(words[i:i + n]), descriptor):
                words = words[:i] + words[i + n:]
                break
    return " ".join(words) or None


@lru_cache(maxsize=16)
def prose_words(text: str) -> frozenset[str]:
    """The words a text writes as words (lower case), once per text: not the pieces of an identifier."""
    return frozenset(w.lower() for w in re.findall(r"(?<![\w-])[A-Za-z][\w-]*(?![\w-])", text))


_DEFAULTS_INTRO = re.compile(r"\bdefaults?\b(?!\s+(?:to|is|are|was)\b)", re.I)


def _release_date(ob: ObservationIn) -> bool:
    """A date a line gives as a release's: "Release date: 2025-11-05", "Date: 2025-11-05", "Released: ...", or an
    announcement's own ("pub_date: 2021-10-13" under "Frob 3.0 released")."""
    return ob.unit == "date" and bool(re.fullmatch(r"(?:releas\w*_|pub\w*_)?date|releas\w*|published|pub\w*date",
                                                   ob.metric))


def storable(ob: ObservationIn) -> bool:
    """Whether the graph can store an observation's value (a signed change such as "-42.9" in a table is not a
    quantity it reads): a reader's value it cannot read is left out, never a failed run."""
    try:
        parse_quantity(ob.value, ob.unit)
    except NumberFormatError:
        log.info("observation left out, its value is no quantity: %r %r", ob.value, ob.unit)
        return False
    return True


def asked_for(plan: Plan) -> Asked | None:
    """The date or count a look-up asks for under a key of its own words (no known metric names it)."""
    if plan.kind != "lookup" or not plan.metrics or not plan.attributes or canonical_metric(plan.attributes[0]):
        return None
    return asked_metric(plan.question, plan.language, plan.attributes[0], plan.metrics[0],
                        plan.entities[0] if plan.entities else "")


class LLMExtractor:
    """Proposals from the EXTRACT role, checked against the source; the deterministic extractor ranks,
    links and classifies them, and takes over for a source when the model fails or the budget trips."""

    def __init__(self, client: LLMClient, fallback: DeterministicExtractor, *, max_chars: int = 8000,
                 max_items: int = 8) -> None:
        self.client = client
        self.fallback = fallback
        self.max_chars = max_chars
        self.max_items = max_items

    def prepare(self, sources: Sequence[SourceDoc]) -> None:
        self.fallback.prepare(sources)

    def prepare_plan(self, plan: Plan) -> None:
        self.fallback.prepare_plan(plan)

    def extract(self, source: SourceDoc, question: SubQuestion, plan: Plan) -> ExtractionResult:
        proposals: list[tuple[int, int, LLMQuote]] = []
        rejected, reasons = 0, []
        parts = windows(source.text, self.max_chars)
        try:
            for n, (lo, hi) in enumerate(parts, 1):
                asked = messages(source.text[lo:hi], question, plan, n, len(parts))
                answer = self.client.complete_json(Role.EXTRACT, asked, LLMExtraction)
                for lq in answer.quotes:
                    where = locate(source.text, lq.quote, lo, hi, [(s, e) for s, e, _ in proposals])
                    if isinstance(where, str):
                        if where != "duplicate":
                            rejected += 1
                            reasons.append(f"rejected quote ({where}): {lq.quote[:80]!r}")
                        continue
                    proposals.append((*where, lq))
        except (LLMError, BudgetExceeded) as exc:
            result = self.fallback.extract(source, question, plan)
            return ExtractionResult(items=result.items, rejected=rejected + result.rejected,
                                    reasons=[*reasons, f"LLM unavailable, deterministic fallback: {exc}"[:300],
                                             *result.reasons])
        items = self._items(source, question, plan, proposals, reasons)
        items = self._with_rules(items, self.fallback.extract(source, question, plan).items, reasons)
        return ExtractionResult(items=items, rejected=rejected, reasons=reasons)

    def _with_rules(self, chosen: list[EvidenceItem], ruled: list[EvidenceItem],
                    reasons: list[str]) -> list[EvidenceItem]:
        """The model's items, then the rules' items that overlap none of them: every one that states a figure,
        and the others up to the item cap. A small model that skips the sentence with the number asked for
        (or proposes nothing) never leaves the run with less than the offline extractor found."""
        spans = [(it.start, it.end) for it in chosen]
        fresh = [it for it in ruled if not any(s < it.end and it.start < e for s, e in spans)]
        figures = [it for it in fresh if it.observations]
        room = max(0, self.max_items - len(chosen) - len(figures))
        added = [*figures, *[it for it in fresh if not it.observations][:room]]
        if added:
            reasons.append(f"kept {len(added)} rule-extracted items beside the model's {len(chosen)}")
        return [*chosen, *added]

    def _items(self, source: SourceDoc, question: SubQuestion, plan: Plan,
               proposals: list[tuple[int, int, LLMQuote]], reasons: list[str]) -> list[EvidenceItem]:
        if not proposals:
            return []
        fb = self.fallback
        spans = [(s, e) for s, e, _ in proposals]
        mentions = fb.mentions(source.text, spans, question, plan)
        scores = fb.score(source.text, spans, mentions, question, plan)
        units = sentence_units(source.text, fb.max_sentence_chars)
        items = []
        for (s, e, lq), found, score in zip(proposals, mentions, scores, strict=True):
            quote = source.text[s:e]
            before = [u for u in units if u.end <= s]
            context = (before[-1], fb.linker.link([source.text[before[-1].start:before[-1].end]])[0]) \
                if before and "\n" not in source.text[before[-1].end:s] else None
            key = entity_key(quote)
            named = [fb.aliases.canonical(n) for n in lq.entities if entity_key(n) and entity_key(n) in key]
            kind = evidence_type(lq.type)  # an unknown type: the rules decide
            item = fb.build_item(source, question, plan, s, e, score, found, context, kind=kind,
                                 extra_entities=named)
            allowed = {*item.entities, *filter(None, [fb.title_entity(source, fb.wanted(question, plan))])}
            checked, dropped = check_observations(quote, lq.observations, fb.aliases, allowed)
            reasons.extend(f"dropped observation ({why}) in {item.id}" for why in dropped)
            if checked:  # the model's reading, once checked, wins over the rules' reading
                entities = list(dict.fromkeys([*item.entities, *(o.entity for o in checked)]))
                item = item.model_copy(update={"observations": checked, "entities": entities})
            items.append(item)
        items.sort(key=lambda it: (-it.score, it.start))
        return items[:self.max_items]
