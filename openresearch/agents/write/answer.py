"""The answer a report opens with, composed from the evidence Cypher returned and the conflict groups.

- a look-up: the value(s) for the entity asked about, each cited, one line per same-name entity the
  sources tell apart, then any disagreement;
- a comparison of named metrics: a metric x entity table, every cell cited with its condition, and a
  sentence per metric;
- a selection: the option the evidence favours on the requirement the question names, with the figures
  and the trade-offs behind it;
- anything else: the best-supported statements from distinct sources.

Pure: a function of the plan, the evidence and the groups. Every number is copied from a cited quote
(`value_text`), so the verifier's numeric check holds.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from openresearch.agents.extract.asked import answer_kind
from openresearch.agents.extract.metric_names import (
    HIGH_WORDS,
    LOW_WORDS,
    QUANTITY_WORDS,
    answers_by_operation,
    answers_metric,
    asks_a_release,
    bound_of,
    canonical_metric,
    defines_attribute,
    metric_mentions,
    names_what_was_measured,
    only_the_kind_of_quantity,
    same_family,
    says_what_is_measured,
    unit_kind,
    word_stems,
)
from openresearch.agents.extract.observations import relative_baseline
from openresearch.agents.extract.releases import (
    BARE_VERSION,
    NOTE_VERBS,
    PRE_RELEASE,
    asked_releases,
    condition_release,
    exact_releases,
    first_releases,
    release_asked,
    release_heading,
    releases_asked_of,
)
from openresearch.agents.plan.attributes import (
    BROUGHT_VERBS,
    CHANGE_VERBS,
    PLATFORM_EVENT,
    key_gloss,
    metric_key,
    named_key,
    owner_key_gloss,
    owner_keys,
    with_english,
)
from openresearch.agents.verify.claim_text import citations_in, quantities
from openresearch.agents.write.writer_templates import Lang, claim, clip_quote, conflict_sentence, grounded, surface
from openresearch.conflicts import EXACT_UNITS, core_name, count_word
from openresearch.graph.ranking import best_first
from openresearch.identity import entity_key
from openresearch.ingest.records.model import RECORD_KIND
from openresearch.ingest.records.spec import since_year
from openresearch.models import ConflictGroup, DraftSection, EvidenceView, ObservationView, Plan, Sentence
from openresearch.numbers import (
    Quantity,
    calendar_value,
    canonical_unit,
    normalise_condition,
    version_key,
    written_with_unit,
)

ANSWER_ID = "answer"
_LOWER_IS_BETTER = ("latency", "price", "cost", "bytes_per_sample", "storage", "memory")
_PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "title": "Answer",
        "one": "The {attr} of {entity} is {values}.",
        "bare": "{attr}: {values}.",
        "event_in": "{entity} was {attr} in {values}.",
        "event_on": "{entity} was {attr} on {values}.",
        "event": "{entity} was {attr}: {values}.",
        "did_in": "{entity} {attr} in {values}.",
        "did_on": "{entity} {attr} on {values}.",
        "did": "{entity} {attr}: {values}.",
        "count": "The number of {attr} of {entity} is {values}.",
        "many": "The sources describe {n} different entities named {base}: {items}.",
        "item": "{entity}, {values}",
        "none": "The evidence gathered gives no {attr} for {entity}.",
        "best": "On {entity} and {attr}, the most relevant statements found are these.",
        "metric": "{metric}: {cells}.",
        "cell": "{entity} {values}",
        "missing": "no figure found for {names}",
        "recommend": "For {req}, the evidence favours {entity}: {why}.",
        "recommend_claim": "For {req}, the sources most often recommend {entity} [{e}].",
        "versus": "{entity} {v}",
        "tradeoff": "Trade-off for {entity}: {text} [{e}].",
        "no_recommend": "The evidence gathered does not single out one option for {req}.",
        "join": "; ",
        "or": " or ",
    },
    "zh": {
        "title": "结论",
        "one": "{entity}的{attr}为 {values}。",
        "bare": "{attr}：{values}。",
        "many": "来源中有 {n} 个同名的“{base}”：{items}。",
        "item": "{entity}：{values}",
        "none": "所收集的证据没有给出{entity}的{attr}。",
        "best": "关于{entity}的{attr}，最相关的陈述如下。",
        "metric": "{metric}：{cells}。",
        "cell": "{entity} {values}",
        "missing": "未找到 {names} 的数字",
        "recommend": "就{req}而言，证据更支持 {entity}：{why}。",
        "recommend_claim": "就{req}而言，来源最常推荐 {entity} [{e}]。",
        "versus": "{entity} {v}",
        "tradeoff": "{entity} 的权衡：{text} [{e}]。",
        "no_recommend": "所收集的证据未能就{req}选出唯一的方案。",
        "join": "；",
        "or": " 或 ",
    },
}


def _p(lang: Lang, key: str, **values: object) -> str:
    return _PHRASES["zh" if lang == "zh" else "en"][key].format(**values)


def base_name(entity: str) -> str:
    """'Osgood, Indiana' -> 'Osgood'; 'Douglas County Courthouse (Nebraska)' -> 'Douglas County Courthouse'."""
    return core_name(entity)


# a person named by office and surname ("Judge Howe", "Attorney General Russell", "Sultan Ahmed")
_TITLES = frozenset({"judge", "justice", "general", "attorney", "governor", "senator", "president", "mayor", "sultan",
                     "king", "queen", "emperor", "empress", "prince", "princess", "bishop", "cardinal", "pope",
                     "admiral", "colonel", "captain", "major", "lieutenant", "sergeant", "sir", "dame", "lord",
                     "lady", "dr", "dr.", "professor", "prof.", "chief", "minister", "prime", "secretary",
                     "chancellor", "commissioner", "sheriff", "representative", "congressman", "saint"})


def _titled_surname(focus: str) -> str | None:
    """'Judge Howe' -> 'howe': the one name left after the titles a question puts before it."""
    words = focus.split()
    rest = list(itertools.dropwhile(lambda w: w.casefold() in _TITLES, words))
    return rest[0].casefold() if len(rest) == 1 and len(words) > 1 and rest[0][:1].isupper() else None


_YEARS = re.compile(r"(?<![\d.])(?:19|20)\d{2}(?![\d.])")
_TRAILING_VERSION = re.compile(r"\s+v?(\d+(?:\.\d+)*)(?:\.x)?\s*$")


def _compound_name(name: str, focus: str) -> bool:
    """Whether the longer of two names is the shorter with more joined to it in one identifier ("zorbq_pool",
    "zorbq-lint" beside "Zorbq"): another package's name, not a fuller form of the same one."""
    short, long = sorted((base_name(name).casefold(), base_name(focus).casefold()), key=len)
    return long.startswith(short) and len(long) > len(short) and long[len(short)] in "_-"


def same_thing(name: str, focus: str) -> bool:
    """Whether an observation's entity is the focus or a same-name variant of it the sources tell apart
    ("Osgood, Indiana" for "Osgood"), the fuller form of the name ("Carl Reinhold Roth" for "Carl Roth"), or
    the full name of a person the question names by title and surname ("Harland Bradley Howe" for "Judge Howe"), or
    the same words in another order."""
    a, b = entity_key(base_name(name)), entity_key(base_name(focus))
    va, vb = _TRAILING_VERSION.search(base_name(name)), _TRAILING_VERSION.search(base_name(focus))
    if va and vb and va.group(1) != vb.group(1):
        return False  # "Quillo 3.1" is not "Quillo 3.12", though one key starts the other
    if bool(a) and (a == b or ((a.startswith(b) or b.startswith(a)) and not _compound_name(name, focus))
                    or _fuller(base_name(name), base_name(focus))):
        return True
    words_a, words_b = sorted(base_name(name).casefold().split()), sorted(base_name(focus).casefold().split())
    if len(words_a) >= 2 and words_a == words_b:
        return True  # the same words in another order: "Republican Turkish Party" for "Turkish Republican Party"
    surname = _titled_surname(base_name(focus))
    if surname is None and len(base_name(focus).split()) == 1 and base_name(focus)[:1].isupper():
        surname = base_name(focus).casefold()  # "Golijska Moravica" for "Moravica"
    words = base_name(name).casefold().split()
    return surname is not None and len(words) >= 2 and words[-1] == surname


def _fuller(name: str, short: str) -> bool:
    """Same first and last word, one or two words between: a middle name the shorter form leaves out."""
    long_words, short_words = name.casefold().split(), short.casefold().split()
    return len(short_words) >= 2 and 1 <= len(long_words) - len(short_words) <= 2 and \
        long_words[0] == short_words[0] and long_words[-1] == short_words[-1]


@dataclass
class Found:
    """One value as the report states it: the quote's own form, its condition, and every evidence behind it."""

    text: str
    obs: ObservationView
    evidence: list[EvidenceView] = field(default_factory=list)
    of: str = ""  # the setting a change note is of, in a row of several settings' changes ("frob-ttl")
    to: str = ""  # the value a change note's change set, when its cell shows it nowhere else ("2500")
    composed: int = 1  # how many of the first evidence items its text is written from (an entry, its heading, ...)

    @property
    def quantity(self) -> Quantity:
        return Quantity(self.obs.value, self.obs.unit)


_TIME_UNITS = frozenset({"ns", "us", "µs", "ms", "s", "min", "h"})


def value_text(ev: EvidenceView, obs: ObservationView) -> str | None:
    """The value as the quote writes it, with the unit its table's header gives it ("2.5 GB/s" for the row
    "simdjson | 2.5" under "GB/s"), or the unit its entry's description gives it ("Default: 5000" of an entry "...
    in milliseconds": "5000 milliseconds")."""
    text = _quote_form(ev, obs)
    unit = obs.raw_unit or obs.unit
    measure = canonical_unit(unit)[0] if unit else ""
    # (a range's figures too: "20-40" of "20-40MB" is "20-40 MB")
    if text is not None and unit and unit not in _COUNT_UNITS and re.fullmatch(r"[\d.,_\s]+(?:[-–]\s?[\d.,_]+)?",
                                                                               text) and (
            "|" in ev.quote or measure in ("ms", "MB") or measure.endswith("/s")):
        return f"{text} {unit}"
    return text


_COUNT_UNITS = frozenset({"people", "households", "year", "date", "count"})


def _release_heading_of(ev: EvidenceView, obs: ObservationView, items: list[EvidenceView]) -> EvidenceView | bool:
    """For a change-log entry's release note ("added in 1.21.0" of an entry that never writes 1.21.0): the
    gathered release heading of the same source that writes it, cited with the entry; False when none was
    gathered (the release would be said where no quote writes it). True for every other observation."""
    raw = (obs.raw_value or "").strip()
    if obs.unit not in ("version", "date") or not raw or raw in ev.quote or (
            obs.unit == "date" and not _stamped_by_heading(obs)):
        return True
    return _heading_quoting(items, ev, raw, own=False) or False


def _stamped_by_heading(obs: ObservationView) -> bool:
    """Whether a figure is one a heading gives the entry under it: a version note ("added in", "default changed on")
    or the date of the release an entry records ("Tag for 2.4.0rc1." under its day)."""
    cond = obs.condition or ""
    return bool(_VERSION_NOTE_WORDS.fullmatch(cond) or (obs.metric == "release_date" and _RELEASE.fullmatch(cond)))


def _release_day(heading: EvidenceView, version: str | None) -> str | None:
    """The date a release heading gives the release it heads, as it writes it."""
    return next((o.raw_value for o in heading.observations if o.unit == "date" and o.raw_value and
                 (o.condition or "").strip("[] ") == (version or "").strip()), None)


def _release_dated(items: list[EvidenceView], heading: EvidenceView, version: str | None) -> EvidenceView | None:
    """The gathered evidence of the same source that dates a release its heading leaves undated ("Release date:
    2024-09-20" under "What's new in Zorbq 3.3.0?")."""
    return next((e for e in items if e.source.id == heading.source.id and e.id != heading.id and
                 _release_day(e, version)), None)


def _quote_form(ev: EvidenceView, obs: ObservationView) -> str | None:
    """The value as the quote writes it: the raw value when it is verbatim there, else the quote's form."""
    raw = (obs.raw_value or "").strip()
    if raw and raw in ev.quote and not re.search(r"\d", raw) and obs.raw_unit and obs.raw_unit not in raw:
        return written_with_unit(raw, obs.raw_unit)  # "a three minute delay": three minutes
    if raw and raw in ev.quote and not re.fullmatch(r"[\d.,½¼¾⅓⅔⅛⅜⅝⅞]+", raw):  # a bare "1½" needs its unit too
        return raw
    if raw and obs.unit in ("version", "date") and _stamped_by_heading(obs):
        # the release a change-log entry is under ("added in 1.21.0"), or the day a dated log's entry was written
        # ("default changed on 12 March 2024", "Tag for 2.4.0rc1." dated 8 May 2025): its heading's
        return raw
    form = surface(ev.quote, obs.value, obs.unit)
    alone = re.search(rf"(?<![\w.,]){re.escape(raw)}(?![\d]|[.,]\d)", ev.quote) if raw else None
    if form is None and alone is not None:
        # "1500 seconds", not a bare "1500": a measure keeps the unit word its quote writes after it (the number
        # itself, not the "2" of a version "3.12" before it)
        after = ev.quote[alone.end():]
        measure = obs.unit in _TIME_UNITS or obs.unit == "days" or obs.unit.endswith(("B", "/s", "/sample"))
        word = re.match(r"\s?[A-Za-zµ/%]{1,14}(?![A-Za-z])", after) if measure else None
        return raw + (word.group(0) if word else "")
    if form is None and obs.unit in ("people", "households", "year", "count", ""):
        # a count's unit is a noun the number reader does not attach ("1,624 at the 2010 census")
        form = next((text for text, q in quantities(ev.quote) if abs(q.value - obs.value) < 1e-9), None)
    return form


def _same_value(a: ObservationView, b: ObservationView) -> bool:
    if a.unit != b.unit:
        return False
    if a.unit in EXACT_UNITS:
        return a.value == b.value
    return Quantity(a.value, a.unit).close_to(Quantity(b.value, b.unit), rel_tol=0.01)


def collect(items: list[EvidenceView], wanted: str | None, focus: str | None,
            attribute: str | None = None, units: frozenset[str] = frozenset()) -> dict[str, list[Found]]:
    """entity -> distinct values of metric `wanted` (any metric when None), each with all its evidence; with the
    `attribute` the question words it in, a source's own name for it counts too ("parse" in GB/s for "parsing
    throughput", "stringify" for "serialization (stringify) throughput")."""
    out: dict[str, list[Found]] = defaultdict(list)
    event = PLATFORM_EVENT.fullmatch(attribute or "")
    changed = bool(_CHANGE_ASKED.search(attribute or ""))
    heading = None
    for ev in items:
        for obs in ev.observations:
            if obs.role == "setting":
                continue  # the load a measurement was taken at answers no question about a result
            if wanted is not None and not answers_metric(obs.metric, obs.unit, wanted) and not (
                    attribute and (answers_metric(obs.metric, obs.unit, attribute)
                                   or answers_by_operation(obs.unit, obs.condition, attribute)
                                   # ("itersize", whose entry says "the number of rows to fetch at each network
                                   # roundtrip", for "rows per network round trip")
                                   or (obs.unit != "version" and defines_attribute(obs.metric, ev.quote, attribute)))):
                continue
            if wanted is not None and obs.unit == "version" and not asks_a_release(attribute or wanted) and \
                    not named_key(attribute or wanted) and key_gloss(attribute or wanted) is None:
                continue  # "Changed in version 3.10.9" under a "timeout" entry says no "total timeout" (the release
                # of a key the question writes itself is said beside its value)
            if attribute and not (wanted and same_family(obs.metric, wanted)) and not says_what_is_measured(
                    obs.metric, attribute, f"{ev.quote} {obs.condition or ''}"):
                continue  # "16086 bytes" (a size) says of no connection pool that it is its size
            if wanted is not None and wanted != "speedup" and obs.metric == "speedup" and not _names_quantity(
                    f"{ev.source.title or ''} {ev.quote}", wanted):
                continue  # "1.7x faster" answers a question about ingestion only where quote or title says so (a
                # question for speed-ups is answered by it)
            if focus is not None and not same_thing(obs.entity, focus):
                continue
            if not _fits_bound(obs, " ".join(filter(None, [wanted, attribute]))):
                continue  # the newest version it supports answers no question for the oldest it runs on
            if event is not None and not _is_event(obs, event):
                continue  # "Frob 3.14 support added": the release that added support for that version
            # "socket connect timeout default changed": the release a change-log entry's value came with
            released = event is not None or (changed and obs.unit != "version" and condition_release(obs.condition))
            text = _event_release(obs) if released else value_text(ev, obs)
            if text is None:
                continue
            if released and (heading := _heading_quoting(items, ev, text.split()[0])) is None:
                continue  # the release is said only where a gathered quote writes it
            if (shown := _release_heading_of(ev, obs, items)) is False:
                continue  # a release no quote gathered writes: not said
            # a release's date on a line of its own under its heading ("Released 2022-11-07" under "Changes in
            # 2.53.0"): the heading, which writes the release, is cited with it
            named = (obs.condition or "").strip("[] ") if obs.metric == "release_date" else ""
            titled = _heading_quoting(items, ev, named, own=False) if BARE_VERSION.fullmatch(
                named) and named not in ev.quote else None
            dated_by = None
            if isinstance(shown, EvidenceView) and not (day := _release_day(shown, obs.raw_value)) and (
                    dated_by := _release_dated(items, shown, obs.raw_value)):
                day = _release_day(dated_by, obs.raw_value)  # the heading's "Release date: ..." line under it
            if isinstance(shown, EvidenceView) and day:
                text = f"{text} ({day})"  # "default changed in 0.5.2 (2017-06-29)": when that release came out
            elif released and text is not None and "(" not in text and (
                    announced := _dated_elsewhere(items, obs.entity, text)) is not None:
                # "Frob 3.8 support dropped: zorbq 3.3.0" under an undated heading, and another source dates zorbq
                # 3.3 ("pub_date: 2025-12-01" under "Zorbq 3.3 released"): when that release came out
                dated_by, day = announced
                text = f"{text} ({day})"
            final = None
            if _VERSION_NOTE_WORDS.fullmatch(obs.condition or "") and obs.unit == "version" and \
                    PRE_RELEASE.search(raw := (obs.raw_value or "").strip()) and (final := _dated_elsewhere(
                        items, obs.entity, PRE_RELEASE.sub("", raw))) is not None:
                # "introduced in 4.1.0-alpha2 (...)": a pre-release first, then the final release of that version
                text = f"{text}; final {PRE_RELEASE.sub('', raw)} ({final[1]})"
            if also := _asked_alongside(ev, obs, units):
                text = f"{text} ({also})"  # "402.40 MB/s (32393 ns/op)": the line's other figure the question asks
            bucket = out[obs.entity]
            # the same value of one quantity under the same condition, however spaced ("带 200 条" is "带200条"), is
            # one entry; the defaults of two settings ("idle_timeout", "send_timeout") stay two
            match = next((f for f in bucket if _same_value(f.obs, obs) and same_family(f.obs.metric, obs.metric)
                          and normalise_condition(f.obs.condition) == normalise_condition(obs.condition)), None)
            if released and match is None:
                # (one entry says both that a version was dropped and the new minimum: the release, once)
                match = next((f for f in bucket if f.text == text), None)
            if match is None:
                made_of = list({e.id: e for e in [ev, *([shown] if isinstance(shown, EvidenceView) else []),
                                                     *([dated_by] if dated_by is not None else []),
                                                     *([final[0]] if final is not None else []),
                                                     *([heading] if released and heading is not None else []),
                                                     *([titled] if titled is not None else [])]
                                }.values())
                bucket.append(Found(text, obs, made_of, composed=len(made_of)))
            elif ev.id not in {e.id for e in match.evidence}:
                match.evidence.append(ev)
    asked_words = word_stems(" ".join(filter(None, [wanted, attribute])))
    for bucket in out.values():  # a first-hand record's figure first (its newest period first), then best supported
        # (a figure of the asked metric itself before one matched by a shared word: "contributions" before a count
        # of contributors; "idle_timeout" before "body_read_timeout" for "default idle timeout")
        # (an event asked, "Frob 3 support added": the release it first happened in before any later one that says
        # it again, "the bug came with ... the changes to add Frob 3 support" under a later release)
        bucket.sort(key=lambda f: (not first_hand(f), _event_order(f.obs) if event is not None else 0,
                                   _bound_rank(f.obs, asked_words), f.obs.metric != wanted,
                                   _extreme(f.obs.metric, wanted),
                                   -len(word_stems(f.obs.metric) & asked_words), -period_year(f),
                                   -len({e.source.id for e in f.evidence}), -_newest(f), -len(f.evidence)))
    return dict(out)


_EXTREMES = ("min", "max", "stddev")
# the bounds a requirement states of a platform's version, and a version whose support was dropped
_BOUNDS = frozenset({"minimum", "maximum", "supported", "dropped"})


_BOUND_STEMS = frozenset(w[:4] for w in HIGH_WORDS | LOW_WORDS)  # (as word_stems cuts them)


def _bound_of(obs: ObservationView) -> str | None:
    """The bound a version observation states ("minimum", "maximum", "supported"), if it is one."""
    kind = (obs.condition or "").split(", ")[0]
    return kind if obs.unit == "version" and kind in _BOUNDS else None


def _asked_bound(asked: str) -> str | None:
    """'low' for words that ask for the lowest ("oldest Frob version"), 'high' for the highest, else None."""
    words = set(re.findall(r"[a-z]+", asked.lower()))
    return "low" if words & LOW_WORDS else "high" if words & HIGH_WORDS else None


def _fits_bound(obs: ObservationView, asked: str) -> bool:
    """Whether a version bound is the kind asked: the oldest a product runs on is a minimum, the newest it supports a
    maximum or a supported version. Every other observation fits."""
    kind = _bound_of(obs)
    bound = _asked_bound(asked) if kind else None
    return bound is None or (kind != "dropped" and (kind == "minimum") == (bound == "low"))


# an attribute that asks what a release did to a setting ("socket connect timeout default changed")
_CHANGE_ASKED = re.compile(rf"\b(?:{CHANGE_VERBS})$")
_BROUGHT_ASKED = re.compile(rf"\b(?:{'|'.join(sorted(BROUGHT_VERBS))})$")


def _event_release(obs: ObservationView) -> str | None:
    """The release an event of a platform's version happened in, from its condition ("supported, 7.3.0 -- 2025-06-20"
    -> "7.3.0 (2025-06-20)"); None when the condition names none (a README's "Frob 3.14 compatibility")."""
    release = condition_release(obs.condition)
    if release is None:
        return None
    return f"{release.version} ({release.date})" if release.date else release.version


def _dated_elsewhere(items: list[EvidenceView], entity: str, version: str) -> tuple[EvidenceView, str] | None:
    """A gathered release date of the same product's release (`version`, "3.3.0" being "3.3"), from any source:
    the evidence and the date as written."""
    want = re.sub(r"(?:\.0)+$", "", version.strip().lstrip("vV"))
    for ev in items:
        for o in ev.observations:
            if o.metric == "release_date" and o.raw_value and same_thing(o.entity, entity) and \
                    re.sub(r"(?:\.0)+$", "", (o.condition or "").split(",")[0].strip().lstrip("vV")) == want:
                return ev, o.raw_value
    return None


def _heading_quoting(items: list[EvidenceView], ev: EvidenceView, version: str,
                     own: bool = True) -> EvidenceView | None:
    """The gathered evidence of the same source that writes a release (its heading), to cite beside an entry under
    it; `ev` itself when its quote writes it (`own`)."""
    writes = re.compile(rf"(?<![\w.]){re.escape(version)}(?![\w]|\.\d)")
    if own and writes.search(ev.quote):
        return ev
    quoting = [h for h in items if h.source.id == ev.source.id and h.id != ev.id and writes.search(h.quote)]
    # (the release's own heading before an entry of another release that names it: "The bug came with
    # 4.0.0" under 4.0.3 writes no day of 4.0.0)
    return next((h for h in quoting if (r := release_heading(h.quote)) is not None and r.version == version),
                quoting[0] if quoting else None)


def _is_event(obs: ObservationView, event: re.Match[str]) -> bool:
    """Whether an observation says what an asked event of a platform's version does ("Frob 3.14 support added": that
    version supported; "... dropped": that version dropped); its condition names the release it happened in."""
    kind = "dropped" if event.group("verb") == "dropped" else "supported"
    asked = version_key(event.group("v"))
    if _bound_of(obs) == kind and asked == int(obs.value):
        return True
    # a release that raised its minimum to the next minor version dropped the one asked ("now requires Frob >= 3.9"
    # under a release heading drops Frob 3.8): the minor after it, of the same major line, and said of a release
    return kind == "dropped" and _bound_of(obs) == "minimum" and asked is not None and \
        int(obs.value) == asked + 1_000_000 and asked % 1_000_000 == 0 and \
        condition_release(obs.condition) is not None


def _event_order(obs: ObservationView) -> int:
    """A sort key of an asked event's figures: the earliest release it is said under first (none said: last)."""
    release = condition_release(obs.condition)
    return (version_key(release.version) or 1 << 62) if release is not None else 1 << 62


def _bound_rank(obs: ObservationView, asked_words: set[str]) -> float:
    """A sort key: for a bound asked, the highest version first (the newest it supports; and of the minimums its
    releases stated, the one its latest release raised it to: a minimum only ever rises); 0 for everything else."""
    if _bound_of(obs) is None or not _BOUND_STEMS & asked_words:
        return 0.0
    return -float(obs.value)


def _sources_first(found: list[Found]) -> list[Found]:
    """The figures in their order, the first of each source before any source's second."""
    seen: set[str] = set()
    first: list[Found] = []
    rest: list[Found] = []
    for f in found:
        source = f.evidence[0].source.id if f.evidence else ""
        (rest if source in seen else first).append(f)
        seen.add(source)
    return first + rest


def _newest(f: Found) -> int:
    """The day its newest dated source was published (0 when none is dated): of two equally supported figures,
    the more recent measurement first."""
    return max((e.source.published_at.toordinal() for e in f.evidence if e.source.published_at), default=0)


def _extreme(metric: str, wanted: str | None) -> bool:
    """A run's fastest, slowest or spread ("min_time", "max_time") says less than its median or mean, unless asked."""
    return metric.split("_")[0] in _EXTREMES and (wanted or "").split("_")[0] not in _EXTREMES


def _extremes_only(metric: str, asked: Sequence[str]) -> bool:
    """Whether `metric` is a run's extreme for every asked metric (for none asked: whether it is one at all)."""
    return all(_extreme(metric, m) for m in asked or [""])


# (a version's parts are no figures: "12.0.0-beta-1", "1.2.0-rc.1")
_FIGURE_WORD = re.compile(r"(?<![\w.,-])(?<!\()(\d{1,3}(?:,\d{3})+|\d+)(?:\s?([kK])(?![\w]))?(?![.,]?\d)(?![A-Za-z])|"
                          r"(?<=\()(\d{1,3}(?:,\d{3})+|\d+)(?![.,]?\d)(?![A-Za-z)])")


def figure_words(text: str) -> set[str]:
    """The whole numbers a phrase says, as words ("a 1,000-page site", "1k pages" and "1000 pages" all say #1000):
    an asked condition that is a number ("for 1,000 pages", "with 64 clients") tells its figures from the others."""
    # a number glued to its unit ("1GiB") is a figure, not a count; an enumeration's "(1)" is neither
    return {f"#{int((m.group(1) or m.group(3)).replace(',', '')) * (1000 if m.group(2) else 1)}"
            for m in _FIGURE_WORD.finditer(text)}


def asked_units(question: str) -> frozenset[str]:
    """The per-unit quantities a question names ("性能（ns/op、MB/s）", "in ns/op and MB/s")."""
    return frozenset(u.lower() for u in re.findall(
        r"(?<![\w/])[A-Za-zµ]{1,8}/(?:s|sec|op|ops|iter|call|query|req|msg|row|sample|day|month|year|h|hour|min|ms)"
        r"(?![\w/])", question, re.I))


def _asked_alongside(ev: EvidenceView, obs: ObservationView, units: frozenset[str]) -> str:
    """The other figures the same statement gives the same entity under the same condition in units the question
    asks for (a benchmark line's time per operation beside its throughput)."""
    own = (obs.raw_unit or obs.unit or "").lower()
    if not units or own not in units:
        return ""
    out: list[str] = []
    for o in ev.observations:
        unit = (o.raw_unit or o.unit or "").lower()
        if o is obs or o.entity != obs.entity or o.condition != obs.condition or unit not in units or unit == own:
            continue
        if (text := value_text(ev, o)) is not None:
            out.append(written_with_unit(text, o.raw_unit or o.unit))
    return ", ".join(out)


def first_hand(f: Found) -> bool:
    """A figure read from a data API's own record (Source.kind 'record'), not restated by a page."""
    return any(e.source.kind == RECORD_KIND for e in f.evidence)


def period_year(f: Found) -> int:
    """The year a first-hand figure's period names (0 for none, or for a restatement)."""
    years = _YEARS.findall(f.obs.condition or "") if first_hand(f) else []
    return int(max(years)) if years else 0


def asked_period_first(found: list[Found], question: str) -> list[Found]:
    """A look-up that names a year ("in 2022") answers with the figures for that year first."""
    asked = set(_YEARS.findall(question)) if not since_year(question) else set()
    return sorted(found, key=lambda f: not asked & set(_YEARS.findall(f.obs.condition or ""))) if asked else found


def _names_quantity(quote: str, wanted: str) -> bool:
    """Whether a quote names the quantity `wanted` (or one of its family): what a bare "faster" is about."""
    return any(m.key != "speedup" and same_family(m.key, wanted) for m in metric_mentions(quote))


_COND_FIGURE = re.compile(r"\d+(?:[.-]\d+)*")


def new_condition(f: Found) -> str:
    """A value's condition, to say beside it; "" when there is none or the value's text says its figures already
    ("7.3.0 (2025-06-20)" under "dropped, 7.3.0 (2025-06-20)": the release its condition names)."""
    c = (f.obs.condition or "").strip()
    figures = set(_COND_FIGURE.findall(c))
    if f.obs.unit == "version" and (release := condition_release(c)) is not None and \
            f.text.startswith(release.version):
        return ""  # (an event said by the release it came in: "4.0.0 (2019-04-05)", its bound cited in the quote)
    return "" if not c or (figures and figures <= set(_COND_FIGURE.findall(f.text))) else c


def _cond(lang: Lang, f: Found) -> str:
    if not (c := new_condition(f)):
        return ""
    piece = f" ({c})" if lang != "zh" else f"（{c}）"
    return piece if grounded(piece, f.evidence) else ""


def cite_ids(f: Found, n: int = 3) -> list[str]:
    """Up to n evidence ids for a value, one per source first; all of those its text is written from, however
    many (an entry, the heading that gives its release, the line that dates it)."""
    composed = [ev.id for ev in f.evidence[:f.composed]]
    first: dict[str, str] = {}
    for ev in f.evidence:
        first.setdefault(ev.source.id, ev.id)
    ids = list(dict.fromkeys([*composed, *first.values(), *(ev.id for ev in f.evidence)]))
    return ids[:max(n, len(composed))]


def _cites(f: Found, n: int = 3) -> str:
    return "".join(f"[{e}]" for e in cite_ids(f, n))


def _relative(f: Found) -> bool:
    return f.obs.metric == "speedup" or relative_baseline(f.obs.condition) is not None


def cell_values(found: list[Found], absolute: int = 4, relative: int = 3) -> list[Found]:
    """A comparison cell: its best supported measured values first, then its relative claims ("1.7x (vs X)"), a
    few of each, so claims against a competitor never crowd out the figures themselves."""
    # a claim against a named product ("vs ClickHouse") before one against a way of doing it ("vs non-vector
    # based execution")
    claims = sorted((f for f in found if _relative(f)),
                    key=lambda f: not (relative_baseline(f.obs.condition) or "")[:1].isupper())
    return [f for f in found if not _relative(f)][:absolute] + claims[:relative]


def figure_text(f: Found, condition: str) -> str:
    """A figure as a cell writes it, its condition in brackets; the version that brought a setting as its
    note says it ("added in 0.1.7", not "0.1.7 (added in)")."""
    if _is_version_note(f):
        return f"{f.of} {f.obs.condition} {f.text}".lstrip() + (f" (to {f.to})" if f.to else "")
    return f"{f.text}{condition}"


# the condition of a version note ("added in", "default changed in")
_VERSION_NOTE_WORDS = re.compile(rf"(?:default\s+)?{NOTE_VERBS}", re.I)
# a question that asks in which release something came or changed ("which Zorbq release changed ...")
_ASKS_VERSION = re.compile(r"\b(?:which|what)\s+(?:[\w.-]+\s+)?(?:release|version)s?\b|\bsince when\b|\bintroduced\b|"
                           r"\bwhen\s+(?:was|were|did)\b[^?]{0,80}\b(?:added|introduced|change[ds]?)\b", re.I)


def _values(lang: Lang, found: list[Found], limit: int = 4) -> str:
    return _p(lang, "join").join(f"{figure_text(f, _cond(lang, f))} {_cites(f)}" for f in found[:limit])


def _releases(found: list[Found]) -> bool:
    """Whether a cell's figures are release dates, each under the release it dates ("1.2.0rc1")."""
    return bool(found) and all(f.obs.unit == "date" and f.obs.condition and _RELEASE.fullmatch(f.obs.condition)
                               for f in found)


def _release_values(lang: Lang, entity: str, found: list[Found], limit: int) -> str:
    """Release dates as a reader looks them up, each release named whole: "Quux 1.1.5: 2021-03-04 [E-1]; Quux
    1.2.0rc1: 2022-08-22 [E-2]" (not "Quux 2021-03-04 (1.1.5)")."""
    colon = "：" if lang == "zh" else ": "
    return _p(lang, "join").join(f"{entity} {(f.obs.condition or '').strip('[] ')}{colon}{f.text} {_cites(f)}"
                                 for f in found[:limit])


def _cited(found: list[Found], limit: int = 4, n: int = 3) -> list[str]:
    return list(dict.fromkeys(e for f in found[:limit] for e in cite_ids(f, n)))


def restate(lang: Lang, ev: EvidenceView, also: Sequence[EvidenceView] = ()) -> Sentence:
    """A statement restated as the source's own sentence, clipped, with its citation (no 'According to'); `also`:
    other sources that state the very same sentence (two versions of one page), cited with it."""
    text = clip_quote(ev.quote)
    end = "。" if lang == "zh" else "."
    marks = "".join(f"[{e.id}]" for e in (ev, *also))
    return claim(f"{text} {marks}{end}", [ev, *also])


def same_words(quote: str) -> str:
    """A quote as words only: two copies of one sentence (two versions of a page) read the same."""
    return " ".join(re.findall(r"\w+", quote.casefold()))


def mentions(ev: EvidenceView, name: str) -> bool:
    key = entity_key(base_name(name))
    return any(same_thing(e, name) for e in ev.entities) or (bool(key) and key in entity_key(ev.quote))


_COPULA = re.compile(r"\s(?:is|was|are|were)\s+(?:a|an|the|one of)\s|\s(?:是|为)(?:一[个家座位所部种])", re.I)


def defines(ev: EvidenceView, focus: str) -> bool:
    """The quote says what the focus is ("Airways International was an airline based in Miami, Florida"): its
    name, then "is a" / "was the". An encyclopedia passage answers "what sport / where / what kind" there."""
    m = _COPULA.search(ev.quote[:300])
    words = base_name(focus).casefold().split()
    return m is not None and bool(words) and words[-1] in ev.quote[:m.start()].casefold()


def best_statements(lang: Lang, items: list[EvidenceView], focus: list[str], words: list[str],
                    n: int = 2, define: bool = False) -> list[Sentence]:
    """The highest-scoring statements from distinct sources, preferring ones naming the focus and the words, then
    (`define`: a look-up's "what sport / where / what kind") ones that say what the focus is."""
    def rank(ev: EvidenceView) -> tuple[int, int, int, float]:
        named = sum(1 for f in focus if mentions(ev, f))
        hits = sum(1 for w in words if w and w.lower() in ev.quote.lower())
        return -named, -hits, -sum(1 for f in focus if define and defines(ev, f)), -ev.score

    out: list[Sentence] = []
    sources: set[str] = set()
    quotes: set[str] = set()
    words_of = {ev.id: same_words(ev.quote) for ev in items}
    for ev in sorted(items, key=rank):
        said = words_of[ev.id]
        if ev.source.id in sources or said in quotes or (focus and not any(mentions(ev, f) for f in focus)):
            continue  # one statement per source, and a sentence two copies share once, citing both
        sources.add(ev.source.id)
        quotes.add(said)
        copies = [c for c in items if c.id != ev.id and c.source.id != ev.source.id and words_of[c.id] == said]
        out.append(restate(lang, ev, copies[:2]))
        if len(out) >= n:
            break
    return out


def _groups_for(groups: list[ConflictGroup], entities: list[str], metrics: list[str]) -> list[ConflictGroup]:
    # runs' fastest or slowest figures that differ are in the conflicts section, not the answer, unless asked
    return [g for g in groups if any(same_thing(g.entity, e) for e in entities)
            and (not metrics or any(g.metric == m or same_family(g.metric, m) for m in metrics))
            and not _extremes_only(g.metric, metrics)]


# past participles a question puts after "was" ("When was X built / first published / called to the Bar?")
_PARTICIPLE = re.compile(r"[a-z]+ed|born|built|held|won|made|written|sold|begun|known|drawn|chosen|given|taken|"
                         r"sworn|laid|shot|hung|sunk|struck|thrown|rebuilt|set|put|led|shown|seen|become|"
                         r"broadcast|cast|run|cut|sent|spent|lost|paid|kept|left|brought|bought|fought|taught|"
                         r"found|done|sung|worn|torn|grown|flown|hidden|ridden|spoken", re.I)
_PASSIVE = re.compile(r"\b(?:was|were)\b", re.I)
_ACTIVE = re.compile(r"\bdid\b", re.I)
_IRREGULAR_PAST = {"become": "became", "begin": "began", "come": "came", "win": "won", "run": "ran", "take": "took",
                   "give": "gave", "get": "got", "go": "went", "make": "made", "build": "built", "hold": "held",
                   "lead": "led", "leave": "left", "meet": "met", "write": "wrote", "sell": "sold", "buy": "bought",
                   "fall": "fell", "rise": "rose", "break": "broke", "find": "found", "hit": "hit", "set": "set",
                   "put": "put", "sing": "sang", "sink": "sank", "fight": "fought", "teach": "taught",
                   "bring": "brought", "send": "sent", "spend": "spent", "lose": "lost", "pay": "paid",
                   "keep": "kept", "draw": "drew", "grow": "grew", "fly": "flew", "know": "knew", "see": "saw",
                   "do": "did", "have": "had", "be": "was", "say": "said", "tell": "told", "swear": "swore"}


def _past(verb: str) -> str:
    """'start' -> 'started', 'become' -> 'became', 'marry' -> 'married', 'stop' -> 'stopped'."""
    low = verb.casefold()
    if low in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[low]
    if low.endswith("ed"):
        return verb
    if low.endswith("e"):
        return verb + "d"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ied"
    if len(low) <= 4 and re.search(r"[^aeiou][aeiou][^aeiouwxy]$", low):
        return verb + verb[-1] + "ed"
    return verb + "ed"


def _as_asked(question: str, attr: str) -> str:
    """The attribute as the question writes it ("start playing for Papua New Guinea", not its lower case)."""
    at = question.casefold().find(attr.casefold())
    return question[at:at + len(attr)] if at >= 0 and attr else attr


def _lookup_phrase(lang: Lang, question: str, attr: str, units: set[str]) -> tuple[str, str]:
    """The sentence a look-up's value is stated in, in the question's own voice, and the attribute as that
    sentence writes it: "X was elected to a public office on 24 July 1900" (asked "When was X elected ...?"),
    "X died in 1900" ("When did X die?"), "Ipi Morea started playing for Papua New Guinea in 1996" ("When did
    Morea start playing ...?"), "The number of libraries of X is 15" ("How many libraries ...?"); otherwise
    "The population of X is 428"."""
    if lang == "zh":
        return "one", attr
    words = attr.split()
    if units <= {"year", "date"} and words:
        on = "on" if units == {"date"} else "in" if units == {"year"} else ""
        asked = _as_asked(question, attr)
        if _PASSIVE.search(question) and any(_PARTICIPLE.fullmatch(w) for w in words[:2]):
            return (f"event_{on}" if on else "event"), asked
        if _ACTIVE.search(question) and re.fullmatch(r"[a-z]+", words[0]):
            verb, _, rest = asked.partition(" ")
            return (f"did_{on}" if on else "did"), " ".join(filter(None, [_past(verb), rest]))
    if not units & {"year", "date"} and answer_kind(question, lang) == "count" and words and words[-1].endswith("s"):
        return "count", attr
    return "one", attr


def _lookup(lang: Lang, plan: Plan, items: list[EvidenceView], groups: list[ConflictGroup]) -> list[Sentence]:
    focus = plan.entities[0]
    attr = plan.attributes[0] if plan.attributes else ""
    metric = (plan.metrics[0] if plan.metrics else None) or canonical_metric(attr)
    found = {e: asked_period_first(vs, plan.question) for e, vs in (collect(items, metric, focus) if metric
                                                                    else {}).items()}
    out: list[Sentence] = []
    if len(found) == 1:
        entity, values = next(iter(found.items()))
        units = {f.obs.unit for f in values[:4]}
        key, stated = _lookup_phrase(lang, plan.question, attr, units)
        text = _p(lang, key, attr=stated, entity=entity, values=_values(lang, values))
        if not grounded(text, [e for f in values[:4] for e in f.evidence]):
            # a name with a number the quotes never write ("302 Squadron" in "The squadron was formed on ..."):
            # the value is stated under the question's own words, not under a name the verifier cannot check
            text = _p(lang, "bare", attr=attr[:1].upper() + attr[1:], values=_values(lang, values))
        out.append(Sentence(text=text, citations=_cited(values)))
    elif found:
        ordered = sorted(found.items(), key=lambda kv: (kv[0] == focus, kv[0]))  # the unqualified name last
        # two values each: among equally supported ones, those that say when they were true ("2010 census") first
        ordered = [(e, sorted(vs, key=lambda f: (-len({x.source.id for x in f.evidence}), not f.obs.condition)))
                   for e, vs in ordered]
        parts = [_p(lang, "item", entity=e, values=_values(lang, vs, 2)) for e, vs in ordered]
        text = _p(lang, "many", n=count_word(len(found), lang), base=base_name(focus),
                  items=_p(lang, "join").join(parts))
        out.append(Sentence(text=text, citations=[c for _, vs in ordered for c in _cited(vs, 2)]))
    else:
        statements = best_statements(lang, items, [focus], attr.split(), define=True)
        if statements:
            out.append(Sentence(text=_p(lang, "best", entity=focus, attr=attr), citations=[], key=False,
                                kind="summary"))
            out.extend(statements)
        else:
            out.append(Sentence(text=_p(lang, "none", attr=attr, entity=focus), citations=[], key=False, kind="gap"))
    out.extend(conflict_sentence(lang, g) for g in _groups_for(groups, [focus], [metric] if metric else []))
    return out


MAX_UNNAMED = 6  # entities in a row when the question names none ("the vendors")


def asked_rows(plan: Plan) -> list[tuple[str, str]]:
    """(label, metric key) per row of a comparison: one per attribute the question names, in its own words
    ("parsing throughput for twitter.json" and "serialization (stringify) throughput" are two rows, though both
    are throughputs); a selection's attribute is its requirement, so its rows are its metrics."""
    if plan.kind == "selection" or not plan.attributes:
        return [(m.replace("_", " "), m) for m in plan.metrics]
    rows = [(a, metric_key(a)) for a in plan.attributes]
    return [(a, k) for a, k in rows if k in plan.metrics] or [(m.replace("_", " "), m) for m in plan.metrics]


def metric_table(plan: Plan, items: list[EvidenceView]) -> dict[str, dict[str, list[Found]]]:
    """label -> entity -> values, per attribute (asked_rows) and the entities the question names; a question
    that names no entity ("What limits do the vendors document?") gets the entities the evidence reports them
    for, best supported first. A row keeps the values that say what its words add to the metric ("parsing",
    "twitter.json") when any do: the figures under the asked condition, not every figure of that kind."""
    table: dict[str, dict[str, list[Found]]] = {}
    quals_of: dict[str, set[str]] = {}
    dated = bool(_ASKS_DATES.search(plan.question))
    glosses = question_glosses(plan.question)  # "server (backend)": words the asker equates
    for label, metric in asked_rows(plan):
        if settings := settings_rows(label, plan, items):
            # "default queue settings": one row per setting the sources give a default or a limit of
            for name, setting_row in settings.items():
                table[name] = setting_row
                quals_of[name] = word_stems(name)
            continue
        row: dict[str, list[Found]] = {}
        words = with_english(label)  # "解码性能" is also "decode performance", as an English source writes it
        # "what are the key dates: the x.y.0 release, ...": a row of a question about dates holds dates (a span
        # is its own attribute: "how long", "period")
        # (a setting the question names by its key asks its value, whatever else the question asks dates of; unless it
        # asks the dated releases that changed it: "Which versions (and dates) changed Quux's page_size?")
        date_row = dated and dated_clause(plan.question, label) and not _SPAN_ATTRIBUTE.search(
            label) and not PLATFORM_EVENT.fullmatch(label) and (
            not named_key(label) or bool(re.search(
            rf"\b(?:chang|rais|lower|increas|decreas|introduc|add|remov|deprecat)\w*\s+(?:[\w.-]+['’]s\s+)?"
            rf"(?:the\s+)?{re.escape(label)}", plan.question, re.I)))
        # the numbers the question asks under ("for a 1,000-page site") say which figures of every row are asked
        asked_numbers = " ".join(w[1:] for w in sorted(figure_words(plan.question) - figure_words(words)))
        # (a word that tells this row from another asked one stays, however many quotes say it: "frame" of "minimum
        # frame size" beside "bundle file size")
        others = [word_stems(with_english(o)) for o, _ in asked_rows(plan) if o != label]
        quals = quals_of[label] = qualifier_stems(f"{words} {asked_numbers}".strip(), metric, items, {
            w for w in word_stems(words) if any(w not in o for o in others)}) if not (
            PLATFORM_EVENT.fullmatch(label)) else set()  # (an event's rows are chosen by what happened, collect)
        # "HTTP read timeout (ZORB_HTTP_TIMEOUT)": the row is that key's, not a key that adds to it
        by_name = named_key(label)  # the question wrote the key itself ("idleTimeout")
        keyed = key_gloss(label) is not None or by_name
        # "retry count (frob_limit / max_frobs)": each compared product's cell holds its own key's figures
        glossed = owner_key_gloss(label)
        changes = bool(_CHANGE_ASKED.search(label)) and not PLATFORM_EVENT.fullmatch(label)
        owned = next((keys for keys in owner_keys(plan.question, plan.entities)
                      if sorted(keys.values()) == sorted(glossed)), {}) if glossed else {}
        if plan.entities:
            for entity in plan.entities:
                own = owned.get(entity)
                cells = collect(items, metric_key(own) if own else metric, entity, own or words,
                                asked_units(plan.question))
                merged = [f for vs in cells.values() for f in vs]
                if not _ASKS_EXAMPLES.search(plan.question):
                    # ("In the following example, a job runs every 7 minutes": no figure the product has)
                    merged = [f for f in merged if "example" not in (f.obs.condition or "").split(", ")]
                if own and named_key(own):
                    if merged := _of_key(merged, metric_key(own), entity, strict=True):
                        row[entity] = merged
                    continue
                if own:
                    # the product's own words for it ("parallel file transfers"): the figures whose quotes say
                    # them, of the row's quantity or of those words; else the row's figures as for any product
                    row_cells = collect(items, metric, entity, words, asked_units(plan.question))
                    pool = [*merged, *(f for vs in row_cells.values() for f in vs if f not in merged)]
                    if described := _described_by(pool, own):
                        row[entity] = described
                        continue
                    merged = [f for vs in row_cells.values() for f in vs]
                # figures that name what was measured ("install_time" for "dependency install time") before
                # figures that share only the kind of quantity ("add_time": a time, of something else)
                if any(names_what_was_measured(f.obs.metric, words) for f in merged):
                    merged = [f for f in merged if same_family(f.obs.metric, metric) or not only_the_kind_of_quantity(
                        f.obs.metric, words)]
                if keyed:
                    merged = _of_key(merged, metric, entity, strict=by_name)
                if merged:
                    row[entity] = merged
            if _ASKS_DEFAULTS.search(plan.question) and metric != "released":  # (a release date is no default)
                # "default settings": a default before any other figure; asked of one product, nothing else is one
                # (before the figures that say the row's words are chosen: the default that says "requests" over a
                # figure that says "reads" and is no default)
                strict = len(plan.entities) == 1
                # (a bound said "by default" is no default: "retried for up to about 9 days ... by default")
                row = {e: [f for f in fs if f.obs.role != "bound" or all(g.obs.role == "bound" for g in fs)]
                       for e, fs in row.items()}
                # (a value the text advises for a goal, "set to 32 MiB to reduce memory", is no default either)
                row = {e: [f for f in fs if _LIMIT_KIND.search(f.obs.condition or "") or _VERSION_NOTE_WORDS.fullmatch(
                    f.obs.condition or "")] or ([] if strict else [
                        f for f in fs if "suggested" not in (f.obs.condition or "").split(", ")])
                       for e, fs in row.items()}
                if not keyed and not changes:  # of several settings' defaults, the ones whose keys say the row's
                    # words best (when they changed asks of each: "the frob defaults changed")
                    row = {e: fs if e in owned else best_keys(fs, words, glosses, e) for e, fs in row.items()}
                row = {e: fs for e, fs in row.items() if fs}
            if changes:  # "the frob defaults changed": the notes of the changes, not the values they set (nor
                # when the settings were added); each named when they are of several settings
                # (what a release brought or took away is answered by that release alone: no default of a
                # setting that shares its words, "multi-frob chunk size 64 MiB" for "multi-frob wobbling added")
                row = {e: [f for f in fs if (_is_version_note(f) and _same_change(f.obs.condition or "", label)) or
                           _sets_default(f.obs)] or ([] if _BROUGHT_ASKED.search(label) else fs)
                       for e, fs in row.items()}
                row = {e: [_named_note(f) if _is_version_note(f) and len({g.obs.metric for g in fs}) > 1 else f
                           for f in fs] for e, fs in row.items()}
            # (a product's own key says what its cell holds: no words of the row's label to say besides)
            focused = focus_row({e: fs for e, fs in row.items() if e not in owned}, quals,
                                date_row) if not changes else row
            row = {e: fs for e, fs in row.items() if e in owned or e in focused} | focused
            if modifiers := _slug_modifiers(label, metric):
                # "bundle file size", no quantity any list names: of a product's figures of some size, those that
                # say what the size is of ("bundles of 20-40MB"), when any does
                row = {e: _most_relevant(fs, modifiers) for e, fs in row.items()}
                if _ASKS_DEFAULTS.search(plan.question):
                    # (asked what each does by default, a figure of the bare kind of quantity that says neither what
                    # it is of nor that it is a default answers nothing: "1.7 GiB" read in a changelog)
                    bare = re.findall(r"[^\W_]+", label.lower())[-1]
                    row = {e: [f for f in fs if f.obs.metric != bare or _relevance(f, modifiers) or _LIMIT_KIND.match(
                        f.obs.condition or "")] for e, fs in row.items()}
                    row = {e: fs for e, fs in row.items() if fs}
            if metric == "released":  # release dates: the latest release first, the one a reader asks about
                row = {e: sorted(fs, key=lambda f: -f.obs.value if f.obs.unit in ("date", "year") else 0.0)
                       for e, fs in row.items()}
                row = {e: asked_release_dates(plan, e, fs) for e, fs in row.items()}
        else:
            found = collect(items, metric, None, words, asked_units(plan.question))
            ranked = sorted(found.items(), key=lambda kv: -len({e.source.id for f in kv[1] for e in f.evidence}))
            row = focus_row(dict(ranked[:MAX_UNNAMED]), quals, date_row)
        # a run's median or mean before its fastest and slowest, whatever their conditions; one figure of each
        # source before a second of any (a cell cross-checks sources before it lists one source's other runs)
        # (dates keep their order: the latest release first)
        spread = _sources_first if metric != "released" and not date_row else list
        table[label] = {e: spread(sorted(fs, key=lambda f: _extreme(f.obs.metric, metric)))
                        for e, fs in comparable_first(row).items()}
    return _new_values(_one_row_each(_dated_by_rows(plan, table), quals_of))


def _new_values(table: dict[str, dict[str, list[Found]]]) -> dict[str, dict[str, list[Found]]]:
    """A change row's notes with the value each change set, from the same entry ("default changed on 12 March 2024
    (to 2500)"), unless the cell shows that value itself; a row of several settings' changes says each one's value
    in its note only."""
    out = dict(table)
    for label, row in table.items():
        if not _CHANGE_ASKED.search(label):
            continue
        cells = {}
        for entity, found in row.items():
            named = any(f.of for f in found)
            shown = set() if named else {f.obs.metric for f in found if _sets_default(f.obs)}
            cells[entity] = [replace(f, to=_value_set(f)) if _is_version_note(f) and f.obs.metric not in shown else f
                             for f in found if not (named and _sets_default(f.obs))]
        out[label] = cells
    return out


def _sets_default(obs: ObservationView) -> bool:
    return (obs.condition or "").startswith("default since ")


def _value_set(f: Found) -> str:
    """The value the change a note says set, as its entry writes it, its unit with it ("4 MiB"; "" when the entry
    says none)."""
    for e in f.evidence[:1]:
        for o in e.observations:
            if o.metric == f.obs.metric and _sets_default(o) and o.raw_value and o.raw_value in e.quote:
                unit = o.raw_unit or ""
                return next((form for form in (f"{o.raw_value} {unit}", f"{o.raw_value}{unit}")
                             if unit and form in e.quote), o.raw_value)
    return ""


def _dated_by_rows(plan: Plan, table: dict[str, dict[str, list[Found]]]) -> dict[str, dict[str, list[Found]]]:
    """A question that asks when the release a change came in was published ("in which release was it changed, and
    when was that release published?") and names no release of its own: the release-date row gives the dates of
    the releases the other rows date already, not the product's latest releases (none, where no change is found);
    an entity whose change row dates its release needs no other."""
    dates = [label for label in table if metric_key(label) == "released"]
    if not dates or asked_releases(plan.question):
        return table
    said: dict[str, set[str]] = {}
    changed_on: dict[str, int] = {}  # the first day a dated log says an asked change was made on
    for label, row in table.items():
        if label in dates or not (PLATFORM_EVENT.fullmatch(label) or _CHANGE_ASKED.search(label)):
            continue
        for entity, found in row.items():
            said.setdefault(entity, set()).update(v for f in found for v in re.findall(r"\d+(?:\.\d+)+", f.text))
            days = [d for f in found if f.obs.unit == "date" and (d := calendar_value(f.obs.raw_value or "", "date"))]
            if days:
                changed_on[entity] = min(days + ([changed_on[entity]] if entity in changed_on else []))
    if not any(PLATFORM_EVENT.fullmatch(label) or _CHANGE_ASKED.search(label) for label in table if label not in dates):
        return table
    out = dict(table)
    for label in dates:
        row = {}
        for entity, found in table[label].items():
            if not said.get(entity) and entity not in changed_on:
                continue  # the date asked is that of the release a change came in: another release's answers nothing
            if not said.get(entity) and entity in changed_on:
                # a change a dated log says was made that day shipped in the first release after it (and, when
                # that is a pre-release, in the first final release after it)
                row[entity] = first_releases(found, changed_on[entity],
                                             lambda f: calendar_value(f.obs.raw_value or "", "date"),
                                             lambda f: (f.obs.condition or "").strip())
            elif kept := [f for f in found if (f.obs.condition or "").strip("[] ") in said[entity]]:
                row[entity] = kept
        if row:
            out[label] = row
        else:
            del out[label]  # (every release asked is dated where its change is said)
    return out


def asked_release_dates(plan: Plan, entity: str, found: list[Found]) -> list[Found]:
    """An entity's release dates for the releases the question names of it ("0.19 to 0.22.1", "4.3.x", "1.1.5,
    1.2.0rc1"), in the question's order: the release named exactly where a source dates it ("1.16", not 1.16.1);
    all of them (the latest first) when it names none, or none of them is dated."""
    named = releases_asked_of(plan.question, entity, plan.entities)
    if not named:
        return found
    asked = [f for f in found if release_asked(f.obs.condition or "", named)]
    exact = set(exact_releases([f.obs.condition or "" for f in asked], named))

    def order(f: Found) -> int:
        return next((i for i, a in enumerate(named) if release_asked(f.obs.condition or "", [a])), len(named))

    return sorted([f for f in asked if (f.obs.condition or "") in exact], key=order) or found


# a one-word gloss the asker gives a word ("server (backend) connections"): the two words name one thing
_GLOSS = re.compile(r"\b([A-Za-z][\w-]{2,})\s+\(([A-Za-z][\w-]{2,})\)")
# "connections per pool": the count per pool is the pool's size, as a key names it ("pool_size")
_PER = re.compile(r"\bper\s+([A-Za-z][\w-]{2,})\b", re.I)
_NO_KEY_WORDS = word_stems("default defaults value max maximum min minimum")  # (the kind of limit a key is)


def question_glosses(question: str) -> dict[str, set[str]]:
    """Stem -> the stems the question equates with it by a one-word gloss ("server (backend)": serv ~ back)."""
    out: dict[str, set[str]] = {}
    for m in _GLOSS.finditer(question):
        a, b = word_stems(m.group(1)), word_stems(m.group(2))
        for x in a:
            out.setdefault(x, set()).update(b)
        for y in b:
            out.setdefault(y, set()).update(a)
    return out


_KIND_STEMS = frozenset({w[:4] for w in QUANTITY_WORDS} | word_stems("timeout"))  # (and "time limit", its synonym)


def best_keys(found: list[Found], words: str, glosses: dict[str, set[str]], entity: str) -> list[Found]:
    """Of the defaults of several settings that share a word with a row, those of the settings whose keys say the
    row's words best: words in common count, words a key adds ("query" of "query_wait_timeout" for "backend
    connection wait timeout") count against it by half; a gloss of the question joins two words ("server
    (backend)"), and a count per something is its size ("connections per pool": "pool_size"). All of them when
    none shares a word beyond the kind of limit."""
    if len({f.obs.metric for f in found}) < 2:
        return found
    stems = word_stems(words)
    asked = stems | {g for w in stems for g in glosses.get(w, ())}
    if per := _PER.search(words):
        asked |= word_stems(f"{per.group(1)} size")
    name = word_stems(entity)

    def score(metric: str) -> float:
        own = word_stems(metric.replace("_", " ")) - name - _NO_KEY_WORDS
        # (a word that names only the kind of quantity, "timeout" of "keep-alive timeout", says less than the one
        # that says which: "keepalive" before a bare "timeout")
        shared = own & asked
        # (the bound the row asks, said by the key: "cache_max_ttl" for "maximum TTL", not "frob_ttl")
        bound = 1.0 if bound_of(metric) is not None and bound_of(metric) == bound_of(words) else 0.0
        return len(shared - _KIND_STEMS) + (0.5 if shared & _KIND_STEMS else 0.0) - 0.5 * len(own - asked) + bound

    def said(f: Found) -> float:
        # (a row's word the figure's own quote says beside its key, "on QXP/2" in "Number of parallel frobs to
        # send on each QXP/2 socket" for "QXP/2 frobs in flight": that setting's words for what the row asks)
        own = word_stems(f.obs.metric.replace("_", " "))
        return 0.75 if (word_stems(" ".join(e.quote for e in f.evidence)) & asked) - own - name - _KIND_STEMS else 0.0

    scores: dict[str, float] = {}
    for f in found:
        scores[f.obs.metric] = max(scores.get(f.obs.metric, -99.0), score(f.obs.metric) + said(f))
    top = max(scores.values())
    if top <= 0:
        return found
    best = [f for f in found if scores[f.obs.metric] == top]
    # of keys that say the row's words equally well, the one that says its first word: the leftmost modifier of a
    # compound is the most specific ("frob" of "frob-drain timeout": frob_timeout, not the drain_timeout of
    # another drain)
    order = [st for w in re.findall(r"[^\W_]+", words.lower()) for st in sorted(word_stems(w))]

    def first(metric: str) -> int:
        own = word_stems(metric.replace("_", " ")) - name - _NO_KEY_WORDS - _KIND_STEMS
        return min((k for k, st in enumerate(order) if st in own), default=len(order))

    lead = min(first(f.obs.metric) for f in best)
    return [f for f in best if first(f.obs.metric) == lead]


def _described_by(found: list[Found], description: str) -> list[Found]:
    """The figures whose metric and quote say the most of a description's words, at least two thirds of them
    ("--frobs int  Number of file frobs to run in parallel (default 4)" for "parallel file frobs"); [] when none."""
    want = word_stems(description)
    if not want:
        return []
    said = {id(f): len(want & word_stems(f"{f.obs.metric} {' '.join(e.quote for e in f.evidence)}")) for f in found}
    best = max(said.values(), default=0)
    return [f for f in found if said[id(f)] == best] if best * 3 >= 2 * len(want) else []


def _of_key(found: list[Found], key: str, entity: str, strict: bool = False) -> list[Found]:
    """The figures of a setting's own key among those that share words with it: the key named whole, with the
    fewest words besides (the product's name apart: "zorb_http_timeout" of zorb for "http_timeout" is it,
    "zorb_upload_http_timeout" another setting); all of them when none names it whole, unless the question named
    the key itself (`strict`: "drainTimeout" asked is no other key's timeout)."""
    name = set(re.findall(r"[a-z0-9]+", entity.lower()))
    own = set(key.split("_")) - name
    extra = {id(f): len(words - own) for f in found
             if own <= (words := set(re.findall(r"[a-z0-9]+", f.obs.metric.lower())) - name)}
    if not extra:
        return [] if strict else found
    least = min(extra.values())
    return [f for f in found if extra.get(id(f)) == least]


# an attribute that asks for a product's settings as a whole ("default queue settings", "connection limits")
_SETTINGS = re.compile(r"\b(?:settings|parameters|options|limits|defaults|configuration|knobs|tunables)\b", re.I)
_SETTINGS_WORDS = word_stems("default defaults setting settings parameter parameters option options limit limits "
                             "configuration knobs tunables value values maximum minimum")
_LIMIT_KIND = re.compile(r"\b(?:default|minimum|maximum)\b")
# (what a product does "out of the box", "with no configuration", is what it does by default)
_ASKS_DEFAULTS = re.compile(r"\bdefaults?\b|\bout[ -]of[ -]the[ -]box\b|"
                            r"\b(?:with|without) (?:any |no )?configuration\b|\bunconfigured\b|"
                            r"\bwithout (?:tuning|configuring|changing) (?:anything|it|them)\b|"
                            # ("if we never edit the settings", "left untouched", "on a fresh install")
                            r"\b(?:don'?t|do not|never|without) (?:touch|touching|chang(?:e|ing)|edit(?:ing)?) "
                            r"(?:the |their |its |any |my )?(?:configs?|configuration|settings?)\b|\buntouched\b|"
                            r"\bfresh(?:ly)? install(?:ed|ation)?\b|"
                            r"\bconfigure nothing\b|\bstock (?:values?|settings?|configuration|limits?)\b|"
                            r"默认|开箱即用", re.I)
MAX_SETTINGS = 8
_ASKS_EXAMPLES = re.compile(r"\bexamples?\b|\bsample\b|示例|例子", re.I)


def settings_rows(label: str, plan: Plan, items: list[EvidenceView]) -> dict[str, dict[str, list[Found]]]:
    """The rows of an attribute that asks for settings as a whole: one per setting (a term's default, minimum or
    maximum, as definition entries and parameter tables give them) whose name says the attribute's other words
    ("queue" of "default queue settings"), at most MAX_SETTINGS; empty when the attribute asks for no settings."""
    if not _SETTINGS.search(label) or not plan.entities or _CHANGE_ASKED.search(label):
        return {}  # ("the frob defaults changed" asks when they changed, not what they are)
    quals = word_stems(label) - _SETTINGS_WORDS
    rows: dict[str, dict[str, list[Found]]] = {}
    for entity in plan.entities:
        for fs in collect(items, None, entity).values():
            for f in fs:
                name = f.obs.metric.replace("_", " ")
                if not _LIMIT_KIND.search(f.obs.condition or "") or (quals and not quals & word_stems(name)):
                    continue
                if name in rows or len(rows) < MAX_SETTINGS:
                    rows.setdefault(name, {}).setdefault(entity, []).append(f)
    return rows


def _found_key(f: Found) -> tuple[tuple[str, ...], float, str, str]:
    return tuple(e.id for e in f.evidence), f.obs.value, f.obs.unit, f.obs.metric


_ANY_COUNT = word_stems("count number total amount value default")


def _one_row_each(table: dict[str, dict[str, list[Found]]],
                  quals_of: dict[str, set[str]]) -> dict[str, dict[str, list[Found]]]:
    """A figure two rows would both show (two attributes of one kind: "granularity of the basic unit" and "size of
    the reservations" are both sizes) stays only in the rows whose own words (those the other rows do not share) its
    quote and condition say most; when it says neither row's words more, it stays in each."""
    rows_of: dict[tuple[str, tuple[tuple[str, ...], float, str, str]], list[str]] = defaultdict(list)
    for label, row in table.items():
        for entity, fs in row.items():
            for f in fs:
                rows_of[(entity, _found_key(f))].append(label)
    drop: set[tuple[str, str, tuple[tuple[str, ...], float, str, str]]] = set()
    for (entity, key), labels in rows_of.items():
        if len(labels) < 2:
            continue
        sample = next(f for f in table[labels[0]][entity] if _found_key(f) == key)
        changed = [label for label in labels if _CHANGE_ASKED.search(label)]
        if _is_version_note(sample) and changed and not any(
                metric_key(c) == metric_key(o) for c in changed for o in labels if o not in changed):
            # the note of a change is the row's that asks when it changed ("the frob defaults changed"; beside the
            # key's value when that row is the key's own: "frob_limit" and "frob_limit changed")
            drop |= {(label, entity, key) for label in labels if label not in changed}
            continue
        stems = {label: quals_of[label] or word_stems(with_english(label)) for label in labels}
        # ... and a row whose every word the figure says ("port" for "--port ... (default 1313)") before one whose
        # words it only partly says ("live-reload port")
        said = _said(" ".join([sample.obs.metric, sample.obs.condition or "", *(e.quote for e in sample.evidence)]))
        # ... and, of rows it says equally, one whose own words it leaves none out of before one whose words it does
        # not say ("retries ... (default 3)" for "retry count", not for "low-level retries": "count" is any count's)
        own = {label: stems[label] - set().union(*(stems[o] for o in labels if o != label)) for label in labels}
        score = {label: (_relevance(sample, own[label]), word_stems(with_english(label)) <= said,
                         not own[label] - _ANY_COUNT - said) for label in labels}
        best = max(score.values())
        drop |= {(label, entity, key) for label in labels if score[label] < best}
    if not drop:
        return table
    out: dict[str, dict[str, list[Found]]] = {}
    for label, row in table.items():
        kept = {e: [f for f in fs if (label, e, _found_key(f)) not in drop] for e, fs in row.items()}
        out[label] = {e: fs for e, fs in kept.items() if fs}
    return out


def _slug_modifiers(label: str, metric: str) -> set[str]:
    """The words before a label's head noun when its metric is the label's own words (no quantity any list names:
    "bundle file size" -> bundle, file); none otherwise."""
    words = re.findall(r"[^\W_]+", label.lower())
    if len(words) < 2 or canonical_metric(label) is not None or metric_key(label) != metric:
        return set()
    return word_stems(" ".join(words[:-1])) - word_stems(words[-1])


def _most_relevant(found: list[Found], words: set[str]) -> list[Found]:
    """The figures that say the most of `words`; all of them when none says any."""
    score = {id(f): _relevance(f, words) for f in found}
    top = max(score.values(), default=0)
    return [f for f in found if score[id(f)] == top] if top else found


def qualifier_stems(label: str, metric: str, items: Sequence[EvidenceView],
                    distinct: set[str] | None = None) -> set[str]:
    """What an attribute's words add to its metric ("parsing", "twitter", not "throughput"), less the words most of
    the evidence shares (every quote of a JSON corpus says "JSON") unless they tell this row from another asked one
    (`distinct`): what tells its figures from other ones."""
    # (a metric's "min_"/"max_" is the label's "minimum"/"maximum": "min_frame_size" adds nothing to "minimum frame
    # size")
    quals = word_stems(label) - word_stems(re.sub(r"(?<![a-z])(min|max)(?=_|$)", r"\1imum", metric)) | \
        figure_words(label)
    if not quals or not items:
        return quals
    seen = [_said(" ".join([ev.quote, *(o.condition or "" for o in ev.observations)])) for ev in items]
    return {q for q in quals if q in (distinct or set()) or sum(q in s for s in seen) * 2 <= len(seen)}


def _relevance(f: Found, quals: set[str]) -> int:
    return len(quals & _said(" ".join([f.obs.metric, f.obs.condition or "", *(e.quote for e in f.evidence)])))


def _said(text: str) -> set[str]:
    return word_stems(text) | figure_words(text)


# a question that asks for dates ("what are the key dates", "when was ... released"), not one that mentions one
# ("... or the date of the policy?")
_ASKS_DATES = re.compile(r"\b(?:dates|deadlines)\b|\bwhen (?:was|were|is|are|did|does|do|will)\b|"
                         r"\b(?:what|which) (?:date|day|month|year)\b|日期分别|哪天|什么时候|何时|时间表", re.I)


_DATE_WORD = re.compile(r"\b(?:dates?|days?|years?|released|published|shipped)\b", re.I)


def dated_clause(question: str, label: str) -> bool:
    """Whether a question that asks for dates asks one of an attribute: the clause that asks when writes it ("when
    does Frob 1.2 reach end of life"), or the question writes it nowhere ("release date" of "When were the 1.0 and 2.0
    releases published?"). "What are the defaults for the total timeout, ...? And when was that release published?"
    asks no date of the timeout."""
    clauses = [c for c in re.split(r"[.?;!]\s+|,\s+and\s+|\band\s+(?=(?:in\s+)?(?:which|what|when|how)\b)", question)
               if _ASKS_DATES.search(c)]

    def writes(clause: str, attribute: str) -> bool:
        return bool(word_stems(with_english(attribute))) and word_stems(with_english(attribute)) <= word_stems(clause)

    # (a row the question does not write is dated when it is a date or an event: "release date", "frob added"; not
    # "chime volume" of "how loud is the chime", asked beside "and when was that")
    return any(writes(c, label) for c in clauses) or (not writes(question, label) and bool(
        canonical_metric(label) == "released" or _DATE_WORD.search(label) or _CHANGE_ASKED.search(label) or
        PLATFORM_EVENT.fullmatch(label)))


_SPAN_ATTRIBUTE = re.compile(r"\b(?:how long|duration|period|span|interval|cadence|length|years|months)\b|"
                             r"多久|时长|周期", re.I)


_DATED = re.compile(r"\b(?:1[89]|20)\d\d\b")


def focus_row(row: dict[str, list[Found]], quals: set[str], dates: bool = False) -> dict[str, list[Found]]:
    """The values of a row that say one of the attribute's own words, most of them first (the row as it is when
    none does: the question's words are not the sources'), in one kind of unit: a row of GB/s figures does not
    also hold an operations count or a time; a row of a question about dates (`dates`) holds only dates."""
    if dates:  # a span beside the asked date is not it: no date found is said as such
        dated = {e: [f for f in fs if f.obs.unit in ("date", "year")] for e, fs in row.items()}
        # ... unless the row's figures are values a dated release set ("64MB (changed from 4MB, 4.7.0 (4/8/2016))"):
        # when asked which versions, with dates, changed a setting, the value is the answer and its date a condition
        # (and the release that changed it, "default changed in 0.5.2", with the value it set: "which release changed
        # the default X, and when?")
        def release_set(f: Found) -> bool:
            cond = f.obs.condition or ""
            return bool(_DATED.search(cond) or _VERSION_NOTE_WORDS.fullmatch(cond)) or cond.startswith("default since ")

        row = dated if any(dated.values()) else {e: [f for f in fs if release_set(f)] for e, fs in row.items()}
    score = {id(f): _relevance(f, quals) for fs in row.values() for f in fs} if quals else {}
    if any(score.values()):
        # figures that say every one of the attribute's own words ("TCP to Blackhole") are the row; one that says
        # some of them ("File to TCP") is another test
        least = len(quals) if len(quals) >= 2 and len(quals) in score.values() else 1
        # (a product's own setting's default stays where none of its figures says the words: each product words
        # its settings its own way, "max_frobs" of a message for the retries of a task)
        row = {e: sorted((f for f in fs if score[id(f)] >= least), key=lambda f: -score[id(f)]) or
               [f for f in fs if _LIMIT_KIND.match(f.obs.condition or "")] for e, fs in row.items()}
    kinds: dict[str, set[str]] = defaultdict(set)
    for entity, fs in row.items():
        for f in fs:
            if not _relative(f):
                kinds[_unit_family(f.obs.unit)].add(entity)
    main = max(kinds, key=lambda k: len(kinds[k]), default=None)
    if main is not None and len(kinds[main]) >= 2:
        # (a product that sets the quantity by a count of its own, "maxsize=128" beside others' "1 GB", keeps that
        # default where it has no figure of the row's unit)
        row = {e: [f for f in fs if _relative(f) or _unit_family(f.obs.unit) == main] or [
            f for f in fs if not f.obs.unit and _LIMIT_KIND.match(f.obs.condition or "")] for e, fs in row.items()}
    return {e: fs for e, fs in row.items() if fs}


def comparable_first(row: dict[str, list[Found]]) -> dict[str, list[Found]]:
    """A row whose entities share a condition ("Encoder Generic", "corpus.json") puts the figure under it first in
    each of their cells, so the headline figures compare like with like: the condition the most entities were
    measured under, the plainest (fewest words) of those."""
    shared: dict[str, set[str]] = defaultdict(set)
    for entity, fs in row.items():
        for f in fs:
            if not _relative(f) and f.obs.role == "own":
                shared[normalise_condition(f.obs.condition)].add(entity)
    best = max(shared, key=lambda c: (len(shared[c]), -len(c.split())), default=None)
    if best is None or len(shared[best]) < 2:
        return row

    def under(f: Found) -> bool:
        return not _relative(f) and f.obs.role == "own" and normalise_condition(f.obs.condition) == best

    return {e: sorted(fs, key=lambda f: not under(f)) for e, fs in row.items()}


def _unit_family(unit: str) -> str:
    return unit_kind(unit) or unit


def _comparison(lang: Lang, plan: Plan, items: list[EvidenceView], groups: list[ConflictGroup]) -> list[Sentence]:
    out: list[Sentence] = []
    versions = bool(_ASKS_VERSION.search(plan.question))

    def notes(vs: list[Found]) -> int:
        """The release notes a question asking in which release needs besides a cell's figures."""
        return sum(map(_is_version_note, vs)) if versions else 0

    def shown_of(vs: list[Found]) -> int:
        return figures_per_cell(plan.question, vs) + notes(vs)

    def stated(vs: list[Found], releases: bool, alone: bool) -> tuple[list[Found], int]:
        """The figures a cell states and how many: each named release's date (`releases`); an entity alone, a
        cell's worth; else the headline (and, asked in which release, the release notes beside it)."""
        if releases:
            return vs, figures_per_cell(plan.question, vs)
        if alone:
            return _headline_first(vs, versions), shown_of(vs)
        return _headline_first(vs, versions)[:1 + notes(vs)], 1 + notes(vs)

    rows = metric_table(plan, items)
    # (a change asked of a key whose own row says the release that changed it: "reload_delay changed" beside
    # "reload-delay: 0.25 (default); default changed in 0.18.3" is said there, no gap of its own)
    def key_of(label: str) -> str:
        return re.sub(r"^_+|_default$", "", metric_key(label))

    noted = {key_of(label) for label, row in rows.items() if any(
        f.obs.unit == "version" for fs in row.values() for f in fs)}
    for label, row in rows.items():
        if not row and _CHANGE_ASKED.search(label) and key_of(label) in noted:
            continue
        # the answer gives each entity's headline figure with its condition; the table below holds up to three
        # one entity (no table below): its figures under their conditions, up to a table cell's worth
        alone = len(plan.entities) <= 1 and len(row) == 1
        asked_of = {e: releases_asked_of(plan.question, e, plan.entities) for e in row}
        # release dates of the releases the question names: each one named whole, for every entity
        listed = {e for e, vs in row.items() if _releases(vs) and (alone or asked_of[e])}
        cells = [_release_values(lang, e, *stated(vs, e in listed, alone)) if e in listed else
                 _p(lang, "cell", entity=e, values=_values(lang, *stated(vs, False, alone))) for e, vs in row.items()]
        missing = [e for e in plan.entities if e not in row]
        # (a name with a number, "Frob 3", is said apart: its "3" would stand in the figures' sentence unquoted)
        apart = bool(row) and any(re.search(r"(?<![\w.])\d", e) for e in missing)  # (not "frob8000")
        if missing and plan.entities and not apart:
            cells.append(_p(lang, "missing", names=", ".join(missing)))
        if not row and not plan.entities:
            continue
        text = _p(lang, "metric", metric=label, cells=_p(lang, "join").join(cells))
        text = text[0].upper() + text[1:]
        if not row:  # asked for, and nothing found: said in one line, not left out
            out.append(Sentence(text=text, citations=[], key=False, kind="gap"))
            continue
        unfound = [f"{e} {a.written}" for e, vs in row.items() if e in listed for a in asked_of[e]
                   if not any(release_asked(f.obs.condition or "", [a]) for f in vs)]
        # it cites the table's figures too (the table is drawn from what the answer cites)
        shown = [c for e, vs in row.items() for c in _cited(stated(vs, e in listed, alone)[0], shown_of(vs))]
        table = [c for vs in row.values() for c in _cited(cell_values(vs, absolute=len(vs)),
                                                          figures_per_cell(plan.question, vs), 1)]
        out.append(Sentence(text=text, citations=list(dict.fromkeys([*shown, *table]))))
        if apart:
            gap = _p(lang, "metric", metric=label, cells=_p(lang, "missing", names=", ".join(missing)))
            out.append(Sentence(text=gap[0].upper() + gap[1:], citations=[], key=False, kind="gap"))
        if unfound:  # a release the question names whose date no source gives: said, not left out
            gap = _p(lang, "missing", names=", ".join(unfound))
            out.append(Sentence(text=gap[0].upper() + gap[1:] + ("。" if lang == "zh" else "."), citations=[],
                                key=False, kind="gap"))
    if not any(s.citations for s in out):
        out.extend(best_statements(lang, items, plan.entities[:4], [w for a in plan.attributes for w in a.split()], 3))
    asked = _groups_for(groups, plan.entities or [g.entity for g in groups], plan.metrics)
    # the disagreements on what was asked, the widest first; every other one is in the conflicts section
    asked.sort(key=lambda g: -g.relative_difference)
    out.extend(conflict_sentence(lang, g) for g in asked[:MAX_ANSWER_CONFLICTS])
    return out


MAX_ANSWER_CONFLICTS = 3
TABLE_FIGURES = 3  # figures per comparison table cell
MAX_RELEASES = 8  # release dates per cell when the question names the releases
_RELEASE = re.compile(r"\[?v?\d+(?:\.\d+)+[\w.+-]*\]?")  # a release's version as a heading writes it


def figures_per_cell(question: str, found: list[Found]) -> int:
    """Three figures a cell; the date of each release a question names, up to MAX_RELEASES or two a release named
    (two sources may date one release differently: both dates are said, and no named release is crowded out)."""
    dates = bool(found) and all(f.obs.unit in ("date", "year") for f in found)
    named = asked_releases(question) if dates else []
    return max(MAX_RELEASES, 2 * len(named)) if named else TABLE_FIGURES


def _headline_first(found: list[Found], versions: bool = False) -> list[Found]:
    """A cell's figures, its headline first; when the question asks in which release (`versions`), the notes of
    the releases that brought or changed it next ("added in 1.21.0", "default changed in 1.24.0")."""
    top = headline(found)
    rest = [f for f in cell_values(found, absolute=len(found)) if f is not top]
    if versions:
        rest = sorted(rest, key=lambda f: not _is_version_note(f))
    return [top, *rest]


def headline(found: list[Found]) -> Found:
    """A cell's headline figure: its first measured value (the row's order: what says the attribute's words, best
    supported), a source's own finding before one it only reports."""
    measured = cell_values(found)
    # the version that brought a setting ("added in 0.1.7") is a note of the cell, never its headline
    return min(measured, key=lambda f: (f.obs.role != "own", _is_version_note(f), measured.index(f)))


def _named_note(f: Found) -> Found:
    """A change note that names its setting as its quote writes it ("frob-ttl", for the metric frob_ttl)."""
    words = {re.sub(r"[^a-z0-9]+", "_", w.lower()).strip("_"): w
             for e in f.evidence for w in re.findall(r"[A-Za-z_][\w.-]*[A-Za-z0-9]", e.quote)}
    return replace(f, of=words.get(f.obs.metric, f.obs.metric.replace("_", " ")))


_CHANGE_KINDS = (re.compile(r"\b(?:changed|raised|lowered|increased|decreased)\b", re.I),
                 re.compile(r"\b(?:added|introduced|new)\b", re.I), re.compile(r"\b(?:removed|deprecated)\b", re.I))


def _same_change(note: str, label: str) -> bool:
    """Whether a version note ("default changed on", "added in") says the kind of change a row asks ("frob defaults
    changed": a change of a value; "frob_limit added": an addition)."""
    asked = next((k for k in _CHANGE_KINDS if k.search(label)), None)
    return asked is None or bool(asked.search(note))


def _is_version_note(f: Found) -> bool:
    return f.obs.unit in ("version", "date") and bool(_VERSION_NOTE_WORDS.fullmatch(f.obs.condition or ""))


_RECOMMEND = re.compile(r"\b(?:recommend\w*|best (?:choice|option|fit)|go with|choose|pick|prefer\w*|ideal for|"
                        r"well suited|better suited|the right choice)\b|推荐|首选|更适合|建议选择|最适合", re.I)


def _selection(lang: Lang, plan: Plan, items: list[EvidenceView], groups: list[ConflictGroup]) -> list[Sentence]:
    req = plan.attributes[0] if plan.attributes else (plan.question.rstrip("?？"))
    out: list[Sentence] = []
    metric = next((m for m in plan.metrics if m), None) or next(
        (k for k in ("throughput", "latency") if k in plan.aspects or k in req.lower()), None)
    best: list[tuple[str, Found]] = []
    if metric:
        per_entity = {e: [f for vs in collect(items, metric, e).values() for f in vs] for e in plan.entities}
        units = [f.obs.unit for vals in per_entity.values() for f in vals[:1]]
        # compare in the unit most options are measured in; per option its best-supported value, not its peak
        unit = max(set(units), key=lambda u: (sum(1 for vals in per_entity.values()
                                                  if any(f.obs.unit == u for f in vals)), units.count(u)),
                   default=None)
        for entity, vals in per_entity.items():
            same = [f for f in vals if f.obs.unit == unit]
            if not same:
                continue
            support = max(len({e.source.id for e in f.evidence}) for f in same)
            tied = sorted((f for f in same if len({e.source.id for e in f.evidence}) == support),
                          key=lambda f: f.quantity.value)
            best.append((entity, tied[(len(tied) - 1) // 2]))  # equally supported values: the median, not the peak
    if len(best) >= 2 and len({f.obs.unit for _, f in best}) == 1:
        lower = any(k in (metric or "") for k in _LOWER_IS_BETTER)
        best.sort(key=lambda ef: ef[1].quantity.value, reverse=not lower)
        top, rest = best[0], best[1:]
        why = ", ".join(_p(lang, "versus", entity=e, v=f"{figure_text(f, _cond(lang, f))} {_cites(f, 1)}")
                        for e, f in [top, *rest])
        text = _p(lang, "recommend", req=req, entity=top[0], why=why)
        out.append(Sentence(text=text, citations=[c for _, f in best for c in cite_ids(f, 1)]))
        chosen = top[0]
    else:
        votes: dict[str, list[EvidenceView]] = defaultdict(list)
        for ev in items:
            if _RECOMMEND.search(ev.quote):
                named = [e for e in plan.entities if mentions(ev, e)]
                if len(named) == 1:
                    votes[named[0]].append(ev)
        if votes:
            chosen, evs = max(votes.items(),
                              key=lambda kv: (len({e.source.id for e in kv[1]}), -plan.entities.index(kv[0])))
            out.append(Sentence(text=_p(lang, "recommend_claim", req=req, entity=chosen, e=evs[0].id),
                                citations=[evs[0].id]))
            out.append(restate(lang, evs[0]))
        else:
            out.append(Sentence(text=_p(lang, "no_recommend", req=req), citations=[], key=False, kind="gap"))
            return out + best_statements(lang, items, plan.entities[:4], req.split(), 2)
    risks = [ev for ev in items if ev.type == "risk" and mentions(ev, chosen)]
    if risks:
        ev = max(risks, key=lambda e: e.score)
        out.append(claim(_p(lang, "tradeoff", entity=chosen, text=clip_quote(ev.quote), e=ev.id), [ev]))
    out.extend(conflict_sentence(lang, g) for g in _groups_for(groups, [chosen], [metric] if metric else []))
    return out


def ranked(items: Iterable[EvidenceView]) -> list[EvidenceView]:
    """Best scored first, ties in reading order (source, offset): what the answer and the comparison table
    take their values from, so both show the same ones whatever the ids hash to."""
    return sorted(items, key=best_first)


def best_of(evidence: dict[str, list[EvidenceView]]) -> dict[str, EvidenceView]:
    """Every item the sections read, once, with its best score over them (an item several sections read
    answered one of them best)."""
    pool: dict[str, EvidenceView] = {}
    for items in evidence.values():
        for ev in items:
            if ev.id not in pool or ev.score > pool[ev.id].score:
                pool[ev.id] = ev
    return pool


def answer_section(plan: Plan, evidence: dict[str, list[EvidenceView]], groups: list[ConflictGroup]) -> DraftSection:
    """The opening section: what the question asked, answered first from everything the run found."""
    lang = plan.language
    pool = best_of(evidence)
    items = ranked(pool.values())
    if plan.kind == "lookup" and plan.entities:
        sentences = _lookup(lang, plan, items, groups)
    elif plan.metrics and plan.kind != "selection":
        sentences = _comparison(lang, plan, items, groups)
    elif plan.kind == "selection" and len(plan.entities) >= 2:
        sentences = _selection(lang, plan, items, groups)
    else:
        words = [w for w in re.findall(r"\w+", plan.question) if len(w) > 3]
        sentences = best_statements(lang, items, plan.entities[:3], words, 3)
    # a composed sentence whose number slipped out of its quotes is dropped, never published
    kept = [s for s in sentences if not s.citations or grounded(s.text, [pool[c] for c in s.citations if c in pool])]
    # a value the text states (its markers; the table's figures are cited in the list) from a disputed group comes
    # with the whole disagreement
    stated = {c for s in kept for c in citations_in(s.text)}
    for g in groups:
        # (a row that states a run's median is no statement of its slowest run: that disagreement is not stated)
        if stated.intersection(g.evidence_ids) and not any(
                s.kind == "conflict" and s.citations and set(s.citations) <= set(g.evidence_ids) for s in kept) \
                and not (plan.metrics and _extremes_only(g.metric, plan.metrics)):
            kept.append(conflict_sentence(lang, g))
    if not kept:
        kept = [Sentence(text=_p(lang, "none", attr=" / ".join(plan.attributes) or "answer",
                                 entity=", ".join(plan.entities) or plan.question), citations=[], key=False,
                         kind="gap")]
    return DraftSection(question_id=ANSWER_ID, title=_p(lang, "title"), role="core", sentences=kept,
                        limited=not any(s.citations for s in kept))
