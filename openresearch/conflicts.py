"""Conflict groups from observations: the pure core behind `GraphStore.conflict_groups` (DESIGN.md §4).

Cypher finds the candidate keys (entity + metric + unit family + condition, with values far enough apart,
from at least two sources) and returns their observations; here they become one `ConflictGroup` per key,
its values clustered within a relative tolerance, each value with all its evidence
and sources, and a note on which value the graph supports better. No I/O.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from urllib.parse import urlsplit

from openresearch.identity import entity_key
from openresearch.models import ConflictGroup, ConflictValue
from openresearch.numbers import (
    Quantity,
    calendar_value,
    find_quantities,
    quantity_label,
    version_key,
    written_with_unit,
)

# years and dates (values are the year, or YYYYMMDD) are facts, not measurements: any difference counts
EXACT_UNITS = frozenset({"year", "date", "version"})
# metric names that say only what kind of number it is ("size" from "10 MB", "percentage" from "90%"): two
# values of one do not measure a known same quantity, so they are never a conflict
GENERIC_METRICS = frozenset({
    "percentage", "percent", "size", "count", "port", "storage", "number", "value", "duration", "amount",
    "quantity", "ratio", "total", "大小", "数量", "百分比", "比例",
})
# the statistic or scope a quote states for its number, when the metric name does not ("the average message
# size ... 2 KB" vs "the maximum message size is 5 MB"): values with different ones are different quantities
_QUALIFIERS: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple((dim, tag, re.compile(p, re.I)) for dim, tag, p in (
    # not "peak": a benchmark's "peak throughput" is its throughput, as "topped out at" is
    ("statistic", "max", r"\b(?:max(?:imum)?|up to|at most|limit(?:ed)? (?:of|to))\b|最大|最多|上限"),
    ("statistic", "avg", r"\b(?:average|avg|mean|typical(?:ly)?)\b|平均"),
    ("statistic", "median", r"\b(?:median|p50)\b|中位"),
    ("statistic", "min", r"\b(?:minimum|at least)\b|最小|最少"),
    ("statistic", "p99", r"\b(?:p99|99th)\b"),
    ("statistic", "p95", r"\b(?:p95|95th)\b"),
    ("scope", "indexed", r"\bindex(?:ed|es|ing)?\b|索引"),
    ("scope", "stored", r"\bstor(?:ed|es|e|ing)\b"),
))
_METRIC_SETS = {"statistic": re.compile(r"(?:^|_)(?:max|maximum|min|minimum|avg|average|mean|median|peak|p\d{2,3})"
                                        r"(?:_|$)|最大|平均|峰值", re.I),
                "scope": re.compile(r"(?:^|_)(?:indexed|stored|index|storage)(?:_|$)|索引|存储", re.I)}
_WINDOW = 60  # characters before a number that its qualifier is read from
_RATE_METRIC = re.compile(r"throughput|(?:^|_)(?:qps|tps|rate)(?:_|$)", re.I)
# words that name a kind of place or project rather than the entity itself ("Douglas County Courthouse")
_GENERIC = frozenset({
    "apache", "the", "project", "inc", "corp", "company", "city", "county", "township", "town", "village",
    "state", "river", "lake", "mount", "saint", "north", "south", "east", "west", "new", "united", "national",
    "database", "server", "cloud", "open", "source", "www", "docs", "com", "org", "net", "io", "github",
})
_COMPARISON = re.compile(r"\b(vs\.?|versus|compared?|comparison|against)\b|对比|比较|相比", re.IGNORECASE)
# a version in a title or URL path: 'v1.23', '/docs/3.7/', 'Kafka 3.7 documentation' (not a date or an IP)
_VERSION = re.compile(r"(?:^|[\s/_(-])[vV]?(\d{1,3}(?:\.\d{1,4}){1,2})(?=$|[\s/_),-])")
_YEAR_TEXT = re.compile(r"(?<![\d.,])\d{3,4}(?![\d.,]\d)")
_DATE_TEXT = re.compile(r"\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Za-z]{3,9}\.?,?\s+\d{3,4}"
                        r"|[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{3,4}"
                        r"|\d{4}-\d{2}-\d{2}|\d{3,4}\s?年\s?\d{1,2}\s?月\s?\d{1,2}\s?日")
# "Osgood, Indiana" / "Douglas County Courthouse (Nebraska)", full-width forms too
_QUALIFIER = re.compile(r"\s*([(（][^)）]*[)）]|[,，].*)$")
_WORDS = {"en": ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve"],
          "zh": ["零", "一", "两", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"]}


@dataclass(frozen=True)
class ObservedValue:
    """One observation as the conflict query returns it, with its evidence and source."""

    entity_id: str
    entity: str
    metric: str
    unit: str
    condition: str
    condition_key: str
    value: float
    raw_value: str
    raw_unit: str
    evidence_id: str
    quote: str
    source_id: str
    url: str
    domain: str = ""
    title: str | None = None
    published: date | None = None
    trust: float = 0.5


def group_id(entity_id: str, metric: str, unit: str, condition_key: str, qualifiers: tuple[str, ...] = ()) -> str:
    key = "\x1f".join((entity_id, metric, unit, condition_key, *qualifiers))
    return "C-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]


def apart(a: float, b: float, tolerance: float) -> bool:
    """Two values differ beyond a relative tolerance (of the larger magnitude); tolerance 0: any difference."""
    return abs(a - b) > tolerance * max(abs(a), abs(b))


def cluster(values: Sequence[float], tolerance: float) -> list[list[int]]:
    """Indexes of `values` in clusters, ascending: a cluster holds the values within `tolerance` of its
    smallest one, so a cluster is never wider than the tolerance (no chaining of 100, 104, 108, 112)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out: list[list[int]] = []
    for i in order:
        if out and not apart(values[out[-1][0]], values[i], tolerance):
            out[-1].append(i)
        else:
            out.append([i])
    return out


def core_name(entity: str) -> str:
    """The name without the qualifier the sources distinguish it by: 'Osgood, Indiana' -> 'Osgood'."""
    return _QUALIFIER.sub("", entity).strip() or entity


def is_primary(entity: str, url: str, domain: str, title: str | None) -> bool:
    """The entity's own source: its title starts with the entity's name ('Apache Kafka documentation',
    'Osgood, Indiana - Wikipedia'), or a distinctive word of the name is a label of its domain
    (kafka.apache.org for Apache Kafka). A title comparing it with others ('Pulsar vs. Kafka') is not its own."""
    if title and entity_key(title).startswith(entity_key(entity)) and not _COMPARISON.search(title):
        return True
    host = domain or urlsplit(url).hostname or ""
    labels = {entity_key(p) for p in host.split(".")}
    words = {entity_key(w) for w in re.split(r"[\s\-_/]+", core_name(entity))}
    return any(len(w) >= 4 and w not in _GENERIC and w in labels for w in words)


def version_of(title: str | None, url: str) -> tuple[int, ...] | None:
    """The highest version a source's title or URL path names, as numbers; None when it names none."""
    found = [tuple(int(p) for p in m.group(1).split(".")) for text in (title or "", urlsplit(url).path)
             for m in _VERSION.finditer(text)]
    return max(found) if found else None


def origin(ob: ObservedValue) -> str:
    """What makes two sources independent: their web domain; a local document (no domain) is its own."""
    return ob.domain or ob.source_id


def cluster_value(group: list[ObservedValue]) -> ConflictValue:
    by_value: dict[float, int] = {}
    for ob in group:
        by_value[ob.value] = by_value.get(ob.value, 0) + 1
    rep = max(sorted(by_value), key=lambda v: by_value[v])  # the value most of its evidence gives
    newest_first = sorted(group, key=lambda o: (o.published is None, -(o.published or date.min).toordinal(),
                                                o.source_id, o.evidence_id))
    sources: dict[str, ObservedValue] = {}
    for ob in newest_first:
        sources.setdefault(ob.source_id, ob)
    by_origin: dict[str, float] = {}
    for ob in sources.values():
        by_origin[origin(ob)] = max(by_origin.get(origin(ob), 0.0), ob.trust)
    dates = [ob.published for ob in sources.values() if ob.published is not None]
    versions = [v for ob in sources.values() if (v := version_of(ob.title, ob.url)) is not None]
    primary = any(is_primary(ob.entity, ob.url, ob.domain, ob.title) for ob in sources.values())
    # one evidence item of each source first, newest source first: a sentence citing the first few cites
    # as many sources as it can, and the newest date it names is a cited source's
    evidence = {ob.evidence_id: ob for ob in [*sources.values(), *newest_first]}
    first = next(ob for ob in newest_first if ob.value == rep)
    written = [first, *(ob for ob in newest_first if ob is not first)]
    return ConflictValue(
        value=rep, unit=group[0].unit,
        # a year or a date is written without its unit ('1912', 'May 4, 1912'), as its quote writes it
        raw_values=list(dict.fromkeys(ob.raw_value.strip() if ob.unit in EXACT_UNITS
                                      else written_with_unit(ob.raw_value, ob.raw_unit) for ob in written)),
        raw_unit="" if first.unit in EXACT_UNITS else first.raw_unit,
        evidence_ids=list(evidence), quotes=[ob.quote for ob in evidence.values()],
        source_ids=list(sources), source_urls=[ob.url for ob in sources.values()],
        source_titles=[ob.title or "" for ob in sources.values()],
        conditions=list(dict.fromkeys(ob.condition for ob in group if ob.condition)),
        newest=max(dates) if dates else None, version=".".join(map(str, max(versions))) if versions else None,
        sources=len(sources), domains=len(by_origin), primary=primary,
        trust=round(sum(ob.trust for ob in sources.values()) / len(sources), 3),
        # each origin counts once, weighed by its most trusted source; its own docs count a little more
        support=round(sum(by_origin.values()) + (0.5 if primary else 0.0), 3),
    )


def support_rank(v: ConflictValue) -> tuple[float, int, int, int, tuple[int, ...], float]:
    """Best supported first; ties go to the newer date, then the newer version."""
    version = (0, *(-p for p in _version_key(v.version))) if v.version else (1,)
    return (-v.support, -v.domains, -v.sources, -(v.newest.toordinal() if v.newest else 0), version, v.value)


def build_group(observations: list[ObservedValue], tolerance: float,
                qualifiers: tuple[str, ...] = ()) -> ConflictGroup | None:
    """One key's observations (entity, metric, unit, condition) -> its conflict group, or None when they do
    not disagree: fewer than two distinct values, or the values differ only within one source (a document
    disagreeing with itself is usually stating two quantities, not two claims). A quote giving two of the
    values is left out."""
    first = observations[0]
    tol = 0.0 if first.unit in EXACT_UNITS else tolerance
    clusters = [[observations[i] for i in c] for c in cluster([o.value for o in observations], tol)]
    # a quote that gives two values for one key tells them apart by something the key lacks (a setting,
    # a row of a table): those observations are not comparable, with each other or with others
    seen: dict[str, int] = {}
    for i, c in enumerate(clusters):
        for o in c:
            seen[o.evidence_id] = i if seen.get(o.evidence_id, i) == i else -1
    clusters = [kept for c in clusters if (kept := [o for o in c if seen[o.evidence_id] != -1])]
    if len(clusters) < 2:
        return None
    src = [{o.source_id for o in c} for c in clusters]
    if not any(a != b or len(a) > 1 for i, a in enumerate(src) for b in src[i + 1:]):
        return None
    values = sorted((cluster_value(c) for c in clusters), key=support_rank)
    lo, hi = min(v.value for v in values), max(v.value for v in values)
    conditions = sorted({o.condition for o in observations if o.condition})
    return ConflictGroup(
        id=group_id(first.entity_id, first.metric, first.unit, first.condition_key, qualifiers), entity=first.entity,
        metric=first.metric, unit=first.unit, condition=conditions[0] if conditions else "", values=values,
        relative_difference=round(abs(hi - lo) / (max(abs(hi), abs(lo)) or 1.0), 4),
        credibility=credibility_note(values),
    )


def quote_qualifiers(ob: ObservedValue) -> tuple[str, ...]:
    """The statistic and scope words nearest before the observation's number in its quote ('average',
    'maximum', 'up to', 'indexed'), one per dimension the metric name does not already fix."""
    if ob.unit in EXACT_UNITS:
        return ()
    target = Quantity(ob.value, ob.unit)
    found = find_quantities(ob.quote)
    # the quote's number in the same unit, else the same number with a unit the text reader does not know
    at = next((start for start, _, q in found if q.close_to(target)), None)
    if at is None:
        at = next((start for start, _, q in found if abs(q.value - ob.value) <= 0.01 * abs(ob.value)), None)
    if at is None:
        return ()
    window = ob.quote[max(0, at - _WINDOW):at]
    tags: list[str] = []
    # "we hit maximum ingestion throughput of 904k rows/sec" is what the benchmark reached, as "peak" is
    # ("up to 1.4 million rows per second" stays a maximum)
    rate = _RATE_METRIC.search(ob.metric) is not None
    for dim, fixed in _METRIC_SETS.items():
        if fixed.search(ob.metric):
            continue
        words = [(m.end(), tag) for d, tag, rx in _QUALIFIERS if d == dim
                 for m in rx.finditer(window) if not (rate and m.group(0).lower().startswith("max"))]
        if words:
            tags.append(max(words)[1])  # the nearest one
    return tuple(tags)


# a version a product supports or dropped support for: one of many, never the one value of a quantity
_SET_MEMBER = re.compile(r"(?:supported|dropped)(?:,|$)")


def conflict_groups(observations: Iterable[ObservedValue], tolerance: float) -> list[ConflictGroup]:
    """Observations of any keys -> the conflict groups among them, ordered by entity, metric, condition.

    Conditions are compatible when equal after normalisation ('3 brokers, 1 KB messages' = '1KB messages;
    3 Brokers'). A condition is not compatible with a sub- or superset of it, nor a figure without a
    set-up with one under a stated set-up: the missing parts may be another dataset, version or hardware.
    A generic metric name ('size', 'percentage') is not a quantity two sources can disagree on, and a
    statistic or scope a quote states for its number ('average', 'maximum', 'indexed') is part of the key."""
    keyed: dict[tuple[str, str, str, str, tuple[str, ...]], list[ObservedValue]] = {}
    for ob in observations:
        if ob.metric in GENERIC_METRICS or (_SET_MEMBER.match(ob.condition) and ob.unit == "version"):
            continue  # (two platform versions a product supports are two members of a set, no disagreement)
        keyed.setdefault((ob.entity_id, ob.metric, ob.unit, ob.condition_key, quote_qualifiers(ob)), []).append(ob)
    groups = [build_group(obs, tolerance, qualifiers) for (*_, qualifiers), obs in sorted(keyed.items())]
    return sorted((g for g in groups if g is not None), key=lambda g: (g.entity, g.metric, g.condition, g.id))


# --- the credibility note ---------------------------------------------------------------------------------

def word_number(word: str) -> int | None:
    """'four' -> 4: a count written in English words up to twelve ("four threads"); None otherwise."""
    words = _WORDS["en"]
    return words.index(word.casefold()) if word.casefold() in words[1:] else None


def count_word(n: int, lang: str = "en") -> str:
    """Counts in words: a sentence's digits must appear in its quotes (the verifier's numeric check)."""
    words = _WORDS["zh" if lang == "zh" else "en"]
    if n < len(words):
        return words[n]
    return "十多" if lang == "zh" else "more than twelve"


def calendar_surface(quote: str, value: float, unit: str) -> str | None:
    """The quote's own text for a year (1912) or a date (YYYYMMDD 19120504: 'May 4, 1912', '4 May 1912',
    '1912-05-04', '1912年5月4日'), or None if the quote lacks it."""
    if unit == "year":
        return next((m.group(0) for m in _YEAR_TEXT.finditer(quote) if int(m.group(0)) == value), None)
    if unit == "version":
        return next((m.group(0) for m in re.finditer(r"(?<![\w.])v?\d+(?:\.\d+){1,3}(?![\w.]*\d)", quote)
                     if version_key(m.group(0)) == value), None)
    return next((m.group(0) for m in _DATE_TEXT.finditer(quote) if calendar_value(m.group(0), "date") == value),
                None)


def value_label(v: ConflictValue) -> str:
    """The value as extracted, in its own unit ('1.2 GB/s'), else the canonical value."""
    return v.raw_values[0] if v.raw_values else quantity_label(v.value, v.unit)


def credibility_note(values: list[ConflictValue], lang: str = "en", labels: list[str] | None = None) -> str:
    """'1,624 is given by three independent sources, including the newest (2020); 2,500 by one source.'

    Counts are independent origins (domains); a primary source, the newest date and the newest version
    (when one value alone has it; named without its number, which the quotes may not hold) and clearly
    higher trust are named. `labels` are the values as the sentence writes them."""
    names = labels or [value_label(v) for v in values]
    newest = [v.newest for v in values if v.newest]
    # named when one value alone holds the newest date and every value is dated (an undated one may be newer)
    newest_at = max(newest) if len(newest) == len(values) and newest.count(max(newest)) == 1 else None
    trusts = [v.trust for v in values]
    versions = [_version_key(v.version) for v in values if v.version]
    newest_version = max(versions) if len(versions) == len(values) and versions.count(max(versions)) == 1 else None
    parts = []
    for i, (v, name) in enumerate(zip(values, names, strict=True)):
        flags = []
        if newest_at is not None and v.newest == newest_at:
            flags.append(("最新的来源（{y}）" if lang == "zh" else "the newest ({y})").format(y=newest_at.year))
        if newest_version is not None and v.version and _version_key(v.version) == newest_version:
            flags.append("最新版本的文档" if lang == "zh" else "the newest version")
        if v.first_hand:
            # named without its retrieval date, which no quote holds (the conflicts table gives it whole)
            who = v.first_hand.split(",")[0]
            flags.append(f"一手记录（{who}）" if lang == "zh" else f"first-hand ({who})")
        elif v.primary:
            flags.append("一手来源" if lang == "zh" else "a primary source")
        if len(values) > 1 and v.trust >= max(t for j, t in enumerate(trusts) if j != i) + 0.2:
            flags.append("可信度更高的来源" if lang == "zh" else "more trusted sources")
        parts.append(_support_phrase(lang, i == 0, name, v, flags))
    return ("；" if lang == "zh" else "; ").join(parts)


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def _support_phrase(lang: str, first: bool, name: str, v: ConflictValue, flags: list[str]) -> str:
    n, docs = v.domains, v.sources
    if lang == "zh":
        text = f"{name} 有{count_word(n, lang)}个{'独立' if n > 1 else ''}来源支持"
        if docs > n:
            text += f"（共{count_word(docs, lang)}份文档）"
        return text + (("，其中包括" if n > 1 else "，为") + "和".join(flags) if flags else "")
    noun = "independent sources" if n > 1 else "source"
    text = f"{name} {'is given ' if first else ''}by {count_word(n)} {noun}"
    if docs > n:
        text += f" ({count_word(docs)} documents)"
    if flags:
        text += (", including " if n > 1 else ", ") + " and ".join(flags)
    return text


def value_summary(v: ConflictValue) -> str:
    """'1,624 (3 sources, 2 origins, newest 2020-05-01, primary)': a value and its support, for tables."""
    plural = "s" if v.sources != 1 else ""
    facts = [f"{v.sources} source{plural}"]
    if v.domains != v.sources:
        facts.append(f"{v.domains} origin{'s' if v.domains != 1 else ''}")
    if v.newest:
        facts.append(f"newest {v.newest.isoformat()}")
    if v.version:
        facts.append(f"version {v.version}")
    if v.first_hand:
        facts.append(f"first-hand: {v.first_hand}")
    elif v.primary:
        facts.append("primary")
    return f"{value_label(v)} ({', '.join(facts)})"


def condition_label(g: ConflictGroup) -> str:
    """The group's condition for a table ('-' for none); for a disputed condition, the dimension in dispute."""
    if g.kind == "condition":
        return f"disputed: {g.condition}"
    if g.kind == "implied":
        return f"{g.condition or '-'}; claim vs per-unit figures"
    if g.kind == "qualified":
        return f"{g.condition or '-'}; stated flatly vs with the condition it changes under"
    if g.kind == "exceeded":
        return f"{g.condition or '-'}; a stated peak vs higher figures under the same set-up"
    return g.condition or "-"


def value_cell(g: ConflictGroup, v: ConflictValue) -> str:
    """A value and its support for a table, with the set-up it is stated under when that is what is disputed."""
    if g.kind == "implied" and v is not g.values[0]:  # the figures, and the ratio worked out from them
        plural = "s" if v.sources != 1 else ""
        return f"{'; '.join(v.raw_values)} ({v.sources} source{plural}): {'; '.join(v.conditions)}"
    stated = f" under {'; '.join(v.conditions)}" if g.kind in ("condition", "qualified", "exceeded") and v.conditions \
        else ""
    return value_summary(v) + stated
