"""Observations from one sentence: entity + metric + value (as written) + unit + condition. Pure core.

Conditions matter as much as values (invariant 3): "590 MB/s on three brokers with 1 KB messages" and
"420 MB/s on the root volume" are not a conflict. So setup phrases are read as conditions, and the numbers
inside them (1 KB, 100 partitions, "at 30 MB/s" after a latency) are not turned into observations.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import Literal, NamedTuple

from openresearch.agents.extract.asked import Asked, closes_range, holds
from openresearch.agents.extract.extract_rules import Mention, mask_links
from openresearch.agents.extract.metric_names import (
    QUANTITY_WORDS,
    MetricMention,
    canonical_metric,
    metric_family,
    metric_mentions,
)
from openresearch.agents.extract.subjects import subject_at, subject_span
from openresearch.agents.extract.values import HOST, Value, find_values
from openresearch.agents.plan.vocabulary import ordinary_word
from openresearch.identity import entity_key
from openresearch.models import ObservationIn, ObservationRole
from openresearch.numbers import NumberFormatError, known_unit, parse_quantity

_N = r"(?:\d[\d,]*(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|a single|single)"
_CONDITIONS = [re.compile(p, re.I) for p in (
    r"\b\d+(?:\.\d+)?\s?(?:KB|KiB|kB|MB|MiB|B|bytes?)\s+(?:persistent\s+)?(?:messages?|payloads?|records?|events?)\b",
    rf"\b{_N}[\s-](?:dedicated\s+)?(?:broker nodes|brokers?|nodes?|bookies|partitions?|replicas?|producers?|"
    r"consumers?|clients?|client machines|topics?|queues?|cores?|vCPUs?|disks?|controllers?|controller nodes)\b",
    r"\breplication factor(?: of)?\s?\d+\b", r"\bRF\s?=?\s?\d+\b", r"\backs\s?=\s?(?:all|-1|0|1)\b",
    r"\b[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+\s?=\s?[\w.\-]+",
    r"\bon (?:local |the )?(?:NVMe|SSDs?|HDDs?|EBS|gp[23]|spinning disks?|tmpfs|root volume)\b"
    r"(?: (?:drives|disks|volumes?))?",
    r"\bfsync(?:ing)?\s(?:on\s|after\s)?(?:every|each|per)\s(?:message|write|batch)\b|\bfsync\s(?:disabled|enabled|off)\b",
    r"\bpublisher confirms?\b", r"\b(?:mirrored|quorum|classic)(?:\s+(?:classic|durable))?\s+queues?\b",
    r"\bpersistent messages\b", r"\b(?:with|without) (?:compression|batching|TLS)\b",
    r"\b(?:lz4|zstd|snappy|gzip) compression\b", r"\b(?:KRaft|ZooKeeper) mode\b",
    r"\bversion\s+\d+(?:\.\d+)+\b", r"\bv\d+\.\d+(?:\.\d+)?\b",
    r"\b[a-z]\d[a-z]{0,3}\.\d{0,2}x?large\b", r"\b\d+\s?Gbps(?: network(?:ing)?)?\b",
    r"\b\d+\s?GB (?:RAM|memory)\b",
    r"\d+(?:\.\d+)?\s?(?:KB|MB|B|字节)\s?(?:的)?(?:小|大)?(?:持久化)?消息",
    r"(?:单个?|[一二三四五六七八九十两]+个?|\d+\s?个?)\s?(?:节点|副本|分区|broker|bookie|消费者|生产者|队列|topic)",
    r"(?:经典|仲裁)?持久化队列|仲裁队列|经典队列|开启\s?(?:publisher confirms?|批量发送|压缩)",
    r"本地\s?SSD|\d+\s?核\s?\d+\s?GB|万兆网络|同步刷盘|异步刷盘",
    # general setups: threads, workers, devices (cardinality), hardware, datasets, stored vs indexed, census
    rf"\b(?:{_N}|\d+(?:\.\d+)?\s?[kKM]|\d+(?:\.\d+)? million)[\s-](?:threads?|workers?|devices?|hosts?|"
    r"concurrent (?:clients|connections|queries))\b",
    r"\b(?:twice|three times|four times|\d+x) as many (?:threads|workers|cores|nodes)(?: as \w+)?",
    r"\b(?:AMD|Intel|Apple)\s+(?:Ryzen\s?\d*|Xeon|EPYC|Core i\d|M\d)\w*(?:\s\d{3,5}\w*)?\b",
    r"\b\d+[\s-](?:core|vCPU)\b", r"\b(?:Azure|AWS|GCP)\s[A-Z][\w.-]*(?:\s?v\d)?\b",
    r"\bscale(?:=|\s)\d+\b", r"\b(?:low|high) cardinality\b(?: of \d[\d,]*\s?\w+)?",
    r"\bcardinality (?:of )?\d[\d,.]*\s?(?:[kKM]|million)?\b",
    r"\b(?:TSBS|SIFT\d*[MK]?|GloVe[\w-]*|GIST\d*[MK]?|cpu-only|devops|YCSB|ClickBench)\b(?: (?:dataset|benchmark))?",
    r"\b(?:indexed|stored)\b(?!\s(?:in|into|on|as|by|at|to|for|with|within)\b)|\bfor indexing\b|"
    r"\bwith (?:an? )?(?:HNSW|IVF\w*|DiskANN) index\b",
    r"\brows? (?:are |of )?(?:around |about |~)?\d+(?:\.\d+)?\s?(?:KB|Kb|kB|bytes?|B)\b(?: in size)?",
    # "the 2010 census", "census [13] of 2010", "As of the 2010 United States Census"
    r"\b(?:the )?\d{4} (?:United States |U\.S\. |US |national )?census\b|\bcensus (?:\[\s?\d+\s?\] )?of \d{4}\b|"
    r"\bas of (?:the )?(?:\d{4}|(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December) \d{4})(?: (?:United States |U\.S\. |US |national )?census)?\b",
    r"\b(?:free|usage-based|pay-as-you-go|enterprise|OSS|open source) (?:plan|tier|edition)\b|\bOSS\b|"
    r"\b(?:Enterprise|Community) edition\b|\bsingle[- ]node(?: version| instance)?\b",
    r"\d+(?:\.\d+)?\s?万?\s?台(?:智能)?(?:电表|设备|服务器|机器|主机)|"
    r"单核|单节点|单机|(?:每个|一个)?(?:插入)?请求(?:带|包含)\s?\d+\s?条(?:以上)?(?:记录)?|\d+\s?个?线程|(?:自|从)\s?v?\d+(?:\.\d+)+\s?(?:版本)?起",
    r"\b(?:since|from|in|as of) v(?:ersion)?\s?\d+(?:\.\d+)+\b",
    # what kind of limit: a default, the configurable ceiling, a recommended (safe) value, a hard limit
    r"\bdefault(?=\s(?:max(?:imum)?|limit|value|number|column|setting|behaviou?r))|\bby default\b|"
    r"\bconfigur(?:able|e|ed)\b|"
    r"\b(?:safe|soft|hard|recommended) limit\b|默认|可配置|最大可配",
    # bounds: "at least 5x" and "as high as 10x" are not two claims about one figure
    r"\bat least\b|\bno less than\b|\bminimum of\b|\bas (?:high|much) as\b|"
    r"不会?低于|至少|不少于|可达到?|最高可?达|高达",
)]
_AT_RATE = re.compile(r"\bat\s+(?:an?\s+(?:\w+\s+)?(?:load|rate|throughput)\s+of\s+)?\d[\d,.]*\s?[kKM]?\s?"
                      r"(?:MB/s|msg/s|msgs/s|messages/s)", re.I)
# "RabbitMQ could not sustain 200 MB/s", "I did not reach the roughly 600 MB/s": a figure someone failed to reach
# is nobody's measurement ("must not exceed 4,096 columns" is a limit, and stays)
_MISSED = re.compile(r"(?:\bnot|\bnever|n't|\bunable to|\bfail(?:ed|s)? to)\s+(?:\w+\s+)?(?:sustain|reach|achieve|hit|"
                     r"attain|match|deliver|get|handle|come close to)\b[^,;.]{0,24}$", re.I)
# a clause that only gives the default of the noun before its comma ("the call timeout, defaulting to 2 s")
_ATTACHED = re.compile(r"\s*(?:which\s+)?(?:defaulting to|defaults? (?:to|is)|default(?: value)?:?)\s", re.I)
_CLAUSE = re.compile(r"[;，；。:：]|,(?!\d{3})")  # "3,559" is one number, not two clauses
_PERCENTILE = re.compile(r"\bp\s?(\d{2}(?:\.\d+)?)\b|\b(\d{2}(?:\.\d+)?)(?:th|st) percentile|(median|中位数?)", re.I)
_PER_SECOND = re.compile(r"每秒|per second|/s\b|a second", re.I)
_PER_DAY = re.compile(r"日均|每天|每日|per day|a day|daily", re.I)
_PER_MONTH = re.compile(r"每月|per month|a month|monthly", re.I)
_LIMIT = re.compile(r"\b(?:max(?:imum)?|limits?|up to|default|at most|supports?|cap|may have|can have|no more than|"
                    r"(?:must|may|can|cannot|can't|should) not exceed|cannot exceed|"
                    r"more than|maximum of)\b|最大|最多|上限|不超过|支持|默认|不能超过", re.I)


_EVENTS = frozenset({"built", "opened", "born", "died", "founded", "released"})  # "published in 2020" dates a figure
_COUNT_METRICS = frozenset({"population", "households", "families", "housing_units", "employees", "capacity",
                            "max_columns", "max_series", "max_dimensions", "max_tables", "max_databases", "max_tags",
                            "partitions", "cluster_size", "max_row_size"})
_UNIT_OF = {"population": "people", "households": "households", "families": "families",
            "housing_units": "housing units", "max_columns": "columns", "max_series": "series",
            "max_dimensions": "dimensions", "max_tables": "tables", "max_databases": "databases", "max_tags": "tags"}
_NOUN_METRIC = {"people": "population", "households": "households", "families": "families",
                "housing units": "housing_units", "employees": "employees", "seats": "capacity"}
_LIMITED_NOUNS = frozenset({"columns", "tables", "series", "dimensions", "tags", "fields", "databases", "partitions",
                            "connections", "topics"})
_SETUP_NOUNS = frozenset({"threads", "workers", "devices", "hosts", "cores", "brokers", "nodes", "replicas",
                          "consumers", "producers", "bookies"})
_CONNECTOR = re.compile(r"(?:\s|\b(?:was|were|is|are|of|at|stood at|reached|totall?ed|estimated at|about|around|"
                        r"approximately|roughly|some|nearly|over|just over|under|of about|count|size)\b|"
                        r"[:：=|约为是达到了共有])*$", re.I)
# "The median age in the city was 41.9", "the population of the town was 48": where, between the words and the count
_SCOPE = re.compile(r"^\s(?:in|of|for|at) (?:the |this |that )?(?:city|town|village|township|county|borough|cdp|"
                    r"municipality|community|district|area|region|country|state|province|parish)\b", re.I)
_CENSUS = re.compile(r"\bcensus\b[^.;]{0,12}$|^\s?census\b|\bas of (?:the )?$|普查", re.I)
_LIFESPAN = re.compile(r"[(（]\s?(?:born\s|b\.\s)?$")
# capitalised words that open a sentence or name no one ("In (1914–2006)" does not happen; "He (born 1950)" does)
_SENTENCE_WORDS = frozenset({"he", "she", "they", "it", "the", "his", "her", "their", "its", "this", "who", "and"})
# the name a parenthesised life is written after: "Matthew C. (Matty) Walsh (1914–2006)", "Gilbert J. Pincus ("
_NAME_BEFORE = re.compile(r"((?:[A-Z][\w'’.-]*|\([A-Z]\w*\))(?:\s+(?:[A-Z][\w'’.-]*|\([A-Z]\w*\)|de|van|von|da|di|"
                          r"del|la|le))*)\s*$")


def _is_perf(metric: str) -> bool:
    return metric in ("throughput", "price") or metric.endswith(("latency", "_time", "_throughput"))


def _cue(pattern: str, window: str) -> bool:
    return re.search(pattern, window, re.I) is not None


# a duration that is a budget, not a latency: "Total query time: 1500 seconds of total query time every 30
# seconds" (a quota of summed time per window), "查询总时长"
_TIME_BUDGET = re.compile(r"(?<![a-z])total(?![a-z])[^.;:]{0,20}\btime\b|\b(?:quota|budget|allowance)\b|总时长|配额",
                          re.I)
_EVERY = re.compile(r"^\s*\S*\s*(?:of\b[^.;]{0,40}?)?\b(?:every|per)\s+\d", re.I)


def _latency_metric(before: str, after: str) -> str | None:
    window = before + after
    if _TIME_BUDGET.search(window) or _EVERY.match(after):
        return None  # summed time allowed per window: no latency, and nothing comparable to one
    hits = list(_PERCENTILE.finditer(before))[-1:] or list(_PERCENTILE.finditer(after))[:1]
    if hits:
        h = hits[0]  # the nearest cue, before the value first ("p99 of 8 ms", then "8 ms at p99")
        return "p50_latency" if h.group(3) else f"p{(h.group(1) or h.group(2)).replace('.', '')}_latency"
    named = [m.key for m in metric_mentions(window) if m.key.endswith("latency")]
    if named:
        return named[0]
    if _cue(r"round[- ]trip", window):
        return "latency"
    if _cue(r"failover|切换|recovery|恢复|election", window):
        return "failover_time"
    if _cue(r"rebalanc", window):
        return "rebalance_time"
    if _cue(r"retention|retain|保留|回溯", window):
        return "retention"
    if (out := _TIMES_OUT.search(before)) or _DONE_WITHIN.search(before):
        # "the request times out after 30 seconds", "raise a TimeoutError after 5 seconds", "jobs should execute
        # within 180 seconds": the time allowed ("the list will expire after 86400 seconds": how long it is kept)
        return "expiry" if out and re.match(r"expir", out.group(), re.I) else "timeout"
    if re.search(r"\bafter\s+$", before) and _INACTIVE_AFTER.match(after):
        return "idle_timeout"  # "connections are closed after 5 seconds of inactivity"
    if done := _DONE_FOR.search(before):
        return f"{_verb_base(done.group(1))}_duration"  # "resolutions will be cached by default for 10 seconds"
    return None  # a bare duration ("15 minutes") says nothing comparable


# an age compared: "older than 45 minutes", "younger than a week"
_OLDER_THAN = re.compile(r"\b(?:older|younger|newer)\s+than\s+(?:about\s+|around\s+|roughly\s+)?$", re.I)
# a time after which something times out, and an idle time after which something ends
_TIMES_OUT = re.compile(r"\b(?:times?\s*out|timed\s*out|\w*timeout\w*|expires?|expired)\b[^.;:]{0,60}?\bafter\s+"
                        r"(?:about\s+|around\s+|roughly\s+|only\s+)?$", re.I)
_DONE_WITHIN = re.compile(r"\b(?:must|should|has\s+to|have\s+to|needs?\s+to|(?:is|are)\s+(?:allowed|expected)\s+to)\s+"
                          r"(?:\w+\s+){0,2}?(?:execute|run|complete|finish|end|return|succeed|be\s+done)\s+within\s+"
                          r"(?:about\s+|around\s+)?$", re.I)
_INACTIVE_AFTER = re.compile(r"\s*of\s+(?:[a-z]+\s+)?(?:inactivity|idleness|idle\s+time|idling)\b", re.I)


# what is done for a time: "cached by default for 10 seconds", "blocked for up to 5 ms"
_DONE_FOR = re.compile(r"\b([a-z]{3,}ed)\s+(?:by default\s+)?for\s+(?:up to\s+|about\s+|around\s+|at most\s+)?$")


def _verb_base(participle: str) -> str:
    """A participle's verb: "cached" -> "cache", "reached" -> "reach", "stored" -> "store"."""
    return next((w for w in (participle[:-1], participle[:-2]) if ordinary_word(w)), _base(participle))


def _is_span(v: Value) -> bool:
    return v.quantity.unit == "days"


_SPAN_FILLER = frozenset({"the", "a", "an", "of", "its", "their", "this", "that", "each", "every", "more", "further",
                          "additional", "other", "first", "next", "last", "and", "or", "to", "for", "with", "from",
                          "in", "on", "at", "by", "is", "are", "was", "be", "been", "will", "total", "only",
                          "approximately", "about", "around", "roughly", "least", "most", "up", "after", "before",
                          "until", "within", "it", "they", "we", "which", "then", "also", "typically", "usually",
                          "generally", "all"})
_SPAN_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")


def _content(words: list[str]) -> list[str]:
    return [w.lower().strip("-") for w in words if w.lower() not in _SPAN_FILLER and len(w) > 1]


_DURING_FIRST = re.compile(r"\b(?:during|for|in|within)\s+(?:the|its)\s+[*_]?(?:first|initial|next|last|final)\s+$",
                           re.I)
_RECEIVES = re.compile(r"[*_]?\s*(?:[(（][^)）]*[)）])?\s*,?\s*(?:it|they|each \w+|the \w+|[A-Z][\w.-]*)\s+"
                       r"(?:receives?|gets?|has|have|enters?|is in|stays in|remains in)\s+((?:[A-Za-z][\w-]*\s?){1,3})")


def _span_metric(before: str, after: str) -> str | None:
    """What a span of the calendar measures, in the source's own words, or None: "released every six months" is a
    release interval, "2 years of full support" full support, "4 years release life cycle" a release life cycle,
    "supported for 30 months" support. No list decides: the words are the clause's own."""
    tail = _SPAN_WORD.findall(before)
    if label := re.search(r"(?:^|[.;:*]\s)\s*([A-Za-z][A-Za-z -]{2,40}?)\s*[:：]\s*$", before):
        named = _content(label.group(1).split())  # "Total support: 36 months": the label names it
        if named:
            return "_".join(named[-3:])
    if _DURING_FIRST.search(before) and (got := _RECEIVES.match(after)) and (named := _content(list(
            itertools.takewhile(lambda w: w.lower() not in ("and", "or", "but", "with", "for", "from"),
                                got.group(1).split())))):
        return "_".join(named)  # "during the first 24 months it receives bugfix updates": bugfix updates
    if re.search(r"\bevery\s*$|\bonce (?:a|per|every)\s*$", before, re.I):
        words = tail[:-1]  # "Go is released every": what happens at that interval
        while words and len(words[-1]) > 4 and words[-1].lower().endswith("ly"):
            words = words[:-1]  # "released predictably every": the adverb says how, the verb what
        if not (named := _content(words)):
            return "interval"
        # a compound noun stays whole ("a feature release every", "bugfix releases every"); a verb is its base
        pair = named[-2:] if len(named) >= 2 and len(words) >= 2 and words[-2].lower() == named[-2] and \
            words[-2].islower() and not words[-2].endswith(("ed", "ly")) and not words[-1].endswith("ed") else []
        return "_".join([*pair[:1], _base(named[-1]), "interval"])
    if (lasting := re.search(r"\b(?:an?|the|its|each)\s+((?:[A-Za-z][\w-]*\s){1,3})(?:lasting|that lasts|which lasts|"
                             r"spanning|of)\s+(?:about\s+|around\s+|roughly\s+|approximately\s+)?$", before)) and \
            (named := _content(lasting.group(1).split())):
        return "_".join(named[-3:])  # "a development phase lasting about 4 months": the development phase
    m = re.match(r"\s*(?:of\s+)((?:[A-Za-z][\w-]*\s?){1,3})", after)
    lead = re.match(r"\s*((?:[A-Za-z][\w-]*\s?){1,3})", after)
    for words in ((m.group(1).split() if m else []), (lead.group(1).split() if lead and not m else [])):
        # a verb ends the phrase: "three months of general development followed by ..."
        words = [w for i, w in itertools.takewhile(
            lambda iw: not re.fullmatch(r"[a-z]{3,}ed" if iw[0] == 0 else r"[a-z]{3,}(?:ed|ing)", iw[1]),
            enumerate(words))]
        named = _content(words)
        if named and not re.match(r"(?:ago|later|earlier|old|before|after|from|since)$", named[0]):
            return "_".join(named[:3])
    words = _content(tail)
    if words and len(words[-1]) > 4 and words[-1].endswith("ed"):
        return _base(words[-1])  # "supported for a total of 30 months": support (grammar: what was done that long)
    if (got := re.search(r"\b[a-z]+s\s+((?:[a-z][\w-]*\s){1,2})for\s+(?:(?:a total of|up to|about|around|at least|"
                         r"at most|another|a further|an additional)\s+)?$", before)) and \
            (named := _content(got.group(1).split())):
        return "_".join(named)  # "receives bug fixes for 1½ years": what it receives that long
    return None


def _base(word: str) -> str:
    """'released' -> 'release', 'supported' -> 'support', 'maintained' -> 'maintain'."""
    w = word.lower()
    for suffix, keep in (("ied", "y"), ("ed", ""), ("ing", ""), ("es", "e"), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            stem = w[:-len(suffix)] + keep
            return stem + "e" if suffix == "ed" and stem.endswith(("as", "us", "at", "iz", "ur")) else stem
    return w


# an arithmetic expression and the "=" that gives the value after it (numbers, each with an optional short unit,
# joined by * × / + -)
_FORMULA = re.compile(r"\d[\d.,]*(?:\s*\\?[*×/+\-−]\s*\(?\d[\d.,]*(?:\s?[A-Za-z]{1,3})?\)?)+\s*[=＝]\s*$")


def cue_window(sentence: str, v: Value) -> tuple[str, str]:
    """The value's clause: up to 40 characters before it and 30 after, not crossing , ; 。 etc. A value that
    is the result of a formula ("原始数据量是：10000000*128*24*60/15*365 = 44851T") takes its cue from before
    the formula."""
    end = v.start
    lead = sentence[max(0, v.start - 120):v.start]
    if ("=" in lead or "＝" in lead) and (formula := _FORMULA.search(lead)):
        end -= len(formula.group(0))
    before = sentence[max(0, end - 40):end]
    after = sentence[v.end:v.end + 30]
    if after[-1:].isalpha():  # whole words: "three months of general development followed" ends on "followed"
        after += re.findall(r"^[A-Za-z]{0,24}", sentence[v.end + 30:])[0]
    pieces = _CLAUSE.split(before)
    own = pieces[-1]
    if len(pieces) > 1 and _ATTACHED.match(own):
        own = f"{pieces[-2]},{own}"  # "the call timeout, defaulting to 2000 ms": the default of the noun before it
    if len(pieces) > 1 and re.search(r"[:：]\W*$", before[:len(before) - len(own)]) and len(own.strip()) < 12:
        own = f"{pieces[-2]}: {own}"  # "Cardinality: 10k series", "最大列数：4096": the key names the value
    return own, _CLAUSE.split(after)[0]


def _nearest(keys: Sequence[MetricMention], allowed: Callable[[str], bool], last: bool) -> str | None:
    hits = [m.key for m in keys if allowed(m.key)]
    return (hits[-1] if last else hits[0]) if hits else None


def _event_metric(before: str, after: str) -> str | None:
    """built / born / founded ... for a date or year: the nearest event word before it, else just after it."""
    if _CENSUS.search(before) or re.match(r"\s?(?:census|普查)", after, re.I):
        return None  # "the 2010 census", "as of 2010": when a count was true, a condition
    got = _nearest(metric_mentions(before), lambda k: k in _EVENTS, last=True)
    if got is None and _LIFESPAN.search(before) and re.match(r"\s?[–—-]", after):
        return "born"  # "Jane Doe (2 July 1829 – 3 November 1913)"; "Pulsar 2.1 (2018)" dates a release, no birth
    if got is None and re.search(r"^\s?[–-]\s?$|[(（][^()（）]{4,40}[–-]\s?$", before):
        return "died"
    if got is None:
        # "1887 the church was built"; but "Cricinfo, 11 July 2009 Geoffrey Cook (born 12 March 1955)": an event
        # word followed by its own date is that date's
        hit = next((m for m in metric_mentions(after[:20]) if m.key in _EVENTS), None)
        if hit and not re.match(r"\s*(?:in|on|c\.|circa|:)?\s*\d", after[hit.end:]):
            got = hit.key
    return got


def _rate_metric(v: Value, window: str) -> str:
    if v.unit.lower() in ("gbps", "mbps", "gbit/s") or _cue(r"network|网卡|带宽|bandwidth", window):
        return "network_bandwidth"
    named = _nearest(metric_mentions(window), lambda k: k.endswith("throughput"), last=False)
    if named:
        return named
    if _cue(r"\b(?:insert|ingest|writ|load)\w*|写入|插入", window):
        return "ingest_throughput"
    if _cue(r"\bquer(?:y|ies)\b|查询", window):
        return "query_throughput"
    return "throughput"


def metric_for(v: Value, before: str, after: str = "") -> tuple[str, str] | None:
    """(metric, unit) from the value's unit and the cue words around it in its clause; None = not a metric."""
    window = f"{before} {after}"
    if v.kind in ("date", "year"):
        if v.kind == "year" and re.search(r"\d\s?[–—-]\s?\d", v.raw) and _LIFESPAN.search(before) and \
                not metric_mentions(before):
            return "born", v.kind  # "Bartholomew Green (1530–1556)": a life in years, dated by its first
        event = _event_metric(before, after)
        if event:
            return event, v.kind
        # a bare four-digit number after "population was" is a count, not a year; "Population 2011 50,000" labels
        # the count after it with its year
        return _bare_metric(before) if v.kind == "year" and re.fullmatch(r"\d{4}", v.raw) and not re.match(
            r"\s+\d", after) else None
    if v.kind == "bare":
        return _bare_metric(before)
    if v.kind == "rate":
        return _rate_metric(v, window), v.unit
    if v.kind == "time":
        if _OLDER_THAN.search(before):
            return "age", v.unit  # "leases stamped older than 45 minutes count as lost": how old a thing is
        if _is_span(v):  # days to years: an age, a retention, or what the clause's own words say it spans
            keys = [m.key for m in metric_mentions(window)]
            metric = "age" if "age" in keys else "retention" if _cue(r"retention|retain|保留|回溯", window) else \
                ("expiry" if re.search(r"expir", before, re.I) else "timeout") if _TIMES_OUT.search(before) else \
                _span_metric(before, after)  # ("results expire after 1 day": how long they are kept)
        else:
            metric = _latency_metric(before, after)
        return (metric, v.unit) if metric else None
    if v.kind == "pct":
        named = _nearest(metric_mentions(window), lambda k: k in ("recall", "precision", "accuracy", "availability",
                                                                  "error_rate", "cpu_utilisation", "market_share"),
                         last=False)
        if named:
            return named, v.unit
        for pattern, name in ((r"CPU", "cpu_utilisation"),
                              (r"performance (?:loss|penalty|hit)|性能损失|性能下降|slowdown", "performance_loss"),
                              (r"error|loss|失败|丢失", "error_rate"),
                              (r"cost|cheaper|saving|成本|费用", "cost_change"),
                              (r"compress|压缩", "compression_saving"), (r"disk|storage|磁盘", "disk_usage")):
            if _cue(pattern, window):
                return name, v.unit
        return "percentage", v.unit
    if v.kind == "size":
        if "sample" in v.unit or "point" in v.unit or _cue(r"per (?:sample|data point)|\bsample size\b|每个?点",
                                                            window):
            # "sample size requires around 1 byte": the size of one sample, in the unit per-sample figures take
            return "bytes_per_sample", "bytes per sample" if v.unit in ("byte", "bytes", "字节") else v.unit
        if _cue(r"message|消息|payload|max\.bytes", window):
            return ("max_message_size" if _LIMIT.search(window) else "message_size"), v.unit
        if _cue(r"\brows?\b|行长|每行", window):
            return ("max_row_size" if _LIMIT.search(window) else "row_size"), v.unit
        if _cue(r"memory|RAM|heap|内存", window):
            return "memory", v.unit
        if _cue(r"raw data|原始数据", window):
            return "raw_data_size", v.unit
        if _cue(r"需要|消耗|占用|\brequire[sd]?\b|\bneed(?:s|ed)?\b|\bconsum(?:es|ed|e)\b|\btakes? up\b", window):
            # "TDengine 大概需要消耗 8.97T 空间", "the cluster needs 2 TB of disk": what it takes, a quantity two
            # sources can disagree on (a bare "storage" or "size" is not)
            return "storage_required", v.unit
        return ("storage" if _cue(r"disk|storage|存储|磁盘|retention|空间", window) else "size"), v.unit
    if v.kind == "money":
        return "price", v.unit
    if v.kind == "ratio":
        if _cue(r"compress|压缩", window):
            return "compression_ratio", v.unit
        if _cue(r"\bmemory\b|\bRAM\b|内存", window):
            return "memory_ratio", v.unit  # "with 0.3x the memory usage of other libraries"
        return ("speedup" if _cue(r"faster|speed|\bas fast\b|快", window) else "ratio"), v.unit
    if v.kind == "port":
        return "port", ""
    return _count_metric(v, before, after)


# the operation a bare rate is of, from the words around it: "validate UTF-8 at 13 GB/s", "600 to 900 megabytes per
# second serialization"
_OP_BEFORE = re.compile(r"(?:^|[,;:*(]\s*|\band\s+)([A-Za-z][\w-]*)(?:\s+[\w.-]+){0,2}\s+at\s+"
                        r"(?:about\s+|around\s+|roughly\s+)?$")
_OP_AFTER = re.compile(r"\s+([a-z][a-z-]{3,}(?:ion|ing))\b")


def _operation(text: str, v: Value, mentions: Sequence[Mention]) -> str | None:
    """The operation a rate measures when the sentence names no kind of throughput: the word opening the clause
    that runs "<operation> [object] at <rate>" (not a name: "BrantexDB at 50k rows/s" is whose rate), or the
    -ion/-ing noun right after the rate."""
    head = text[max(0, v.start - 60):v.start]
    if (m := _OP_BEFORE.search(head)) is not None:
        at = max(0, v.start - 60) + m.start(1)
        word = m.group(1)
        name_like = bool(re.search(r"[a-z].*[A-Z]", word)) or (word[0].isupper() and re.search(r"[a-z]\s+$",
                                                                                              text[:at]))
        if not name_like and not any(at <= x.end and x.start < v.start for x in mentions) and \
                word.lower() not in _OP_NOT:
            return m.group(1).lower()
    if (m := _OP_AFTER.match(text, v.end)) is not None:
        return m.group(1)
    return None


_OP_NOT = frozenset(["we", "i", "you", "they", "he", "she", "it", "this", "that", "which", "and", "or", "but", "runs",
                     "run", "running", "speeds", "speed",
                     "performance", "throughput", "rates", "rate", "peaks", "peak", "tops", "up"])


_UNTIL = re.compile(r"\b(?:until|till|through|up to|ends? (?:on|in))\s+(?:approximately\s+|about\s+|around\s+|"
                    r"roughly\s+|the end of\s+|end of\s+)?$", re.I)
# what is done until then, named by the clause's subject: "security updates (source only) will be released until"
_WHAT_UNTIL = re.compile(r"\b([a-z][a-z-]+)\s+([a-z][a-z-]+)\s*(?:\([^()]{0,30}\)\s*)?(?:will\s+be|are|is|were|was|"
                         r"continue\s+to\s+be|remain)\s+(?:\w+ly\s+)?[a-z]{3,}ed\s+(?:\w+\s+){0,2}?"
                         r"(?:until|till|through)\b", re.I)
_DONE_UNTIL = re.compile(r"\b([a-z]{3,}ed)\s+(?:\w+\s+){0,2}?(?:until|till|through)\b", re.I)


def _singular(noun: str) -> str:
    """'updates' -> 'update', 'fixes' -> 'fix', 'policies' -> 'policy'; 'access' stays."""
    w = noun.lower()
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if re.search(r"(?:x|ch|sh|ss|z)es$", w):
        return w[:-2]
    return w[:-1] if w.endswith("s") and not w.endswith(("ss", "us", "is")) else w


def _until(text: str, v: Value) -> str | None:
    """The end a date is of: "supported until October 2028" is when support ends (support_end), "released
    until 5 years after ..., so until approximately October 2028" when the releases end (release_end)."""
    if v.kind not in ("date", "year") or not _UNTIL.search(text[max(0, v.start - 40):v.start]):
        return None
    before = text[:v.start]
    if who := list(_WHAT_UNTIL.finditer(before)):  # "security updates (source only) will be released until"
        words = _content([who[-1].group(1), who[-1].group(2)])
        if words:
            return "_".join([*(_singular(w) for w in words), "end"])
    done = [m.group(1) for m in _DONE_UNTIL.finditer(before)]
    return f"{_base(done[-1])}_end" if done else "end"


# --- a quantity no list names, by the noun phrase the value is stated for ---------------------------------

_PHRASE_LEAD = re.compile(r"^(max(?:imum)?|min(?:imum)?|default|largest|smallest|highest|lowest)$", re.I)
_PHRASE_LINK = re.compile(
    r"(?:,\s*(?:which\s+)?defaulting to|"
    r"\s+(?:is|are|was|were|of|defaults? to|(?:is|are) (?:set|limited|capped|fixed|restricted) (?:to|at)|"
    # (an equation's chain names the value it ends with: "minimum frame size = 2^17 B = 128 kiB", "~= 2^20 B =")
    r"(?:must|may|can)(?:not| not)? (?:exceed|be))|\s*~?[:=](?:\s+[^\s=]{1,12}(?:\s[^\s=]{1,4})?\s+~?=)?)\s+"
    r"(?:an?\s+|up to\s+|about\s+|around\s+|"
    r"approximately\s+|"
    r"roughly\s+|at most\s+|at least\s+|only\s+)?$"
    # (the value quoted, as a command's help quotes a string it parses: '(default "45s")')
    r"|\s*[(（]\s*(?P<lead>default|max(?:imum)?|min(?:imum)?)s?\s*[:=]?\s*[\"'`]?$", re.I)
# words that end a noun phrase read backwards: verbs, conjunctions, pronouns and prepositions other than "of"
_PHRASE_STOP = frozenset({
    "is", "are", "was", "were", "be", "been", "has", "have", "had", "do", "does", "did", "can", "could", "may",
    "might", "must", "shall", "should", "will", "would", "sets", "set", "gives", "uses", "takes", "and", "or",
    "but", "nor", "so", "yet", "which", "that", "who", "whom", "whose", "when", "where", "while", "if", "then",
    "than", "as", "it", "its", "this", "these", "those", "there", "here", "they", "we", "you", "he", "she", "them",
    "us", "our", "your", "their", "in", "on", "at", "by", "for", "from", "with", "without", "into", "onto", "to",
    "up", "down", "over", "under", "about", "after", "before", "between", "through", "during", "per", "via", "not",
    "no", "each", "every", "all", "any", "some"})
_ARTICLES = frozenset({"a", "an", "the"})
# ("frob_limit, default 64 megabytes": the word right before the value)
_DEFAULT_IS = re.compile(r"\b(?:the default (?:is|was)\s+(?:an?\s+)?|default\s*[:=]?\s*|defaults\s+to\s+|"
                         # ("The default frob_limit is 5")
                         r"the\s+default\s+[\w.-]+\s+(?:is|was)\s+(?:set\s+to\s+)?)"
                         # (a quote mark, and a port's host between: '(default "localhost:5572")')
                         r"[\"'`]?(?:" + HOST + r":)?$", re.I)
# a value supposed, not stated: "If the heartbeat value is 10 seconds, ...", "assuming it is set to 5" (a bound in
# an if-clause, "if the file is larger than 2 GB", is a limit the text states)
_SUPPOSED = re.compile(r"\b(?:if|suppose|supposing|assuming)\b[^,;:.]*\b(?:is|are|equals)\s+(?:set\s+to\s+)?$", re.I)
# what a passage calls the thing it defines ("this option is set to 3", "by default it is 5")
_SELF_NOUNS = frozenset({"it", "option", "setting", "value", "parameter", "variable"})
_COUNT_NOUN_AFTER = re.compile(r"\s+((?:[a-z][a-z-]{1,20}\s)?[a-z][a-z-]{1,20}s)\b(?!\s*(?:of|per)\b)")
_NOT_NOUNS = frozenset({"is", "was", "has", "as", "its", "this", "does", "yes", "thus", "plus", "less", "unless",
                        "us", "always", "perhaps", "whereas", "across", "towards", "afterwards", "sometimes"})


# a measure written before the noun it measures: "a total 300 seconds (5min) timeout", "a 64 KiB read buffer"
_LEAD_IN = re.compile(r"(?:^|\s)(?:a|an|the)\s+((?:[a-z][a-z-]*\s+){0,2})$", re.I)
_NOUN_AFTER = re.compile(r"(?:-[a-z]+)?\s*(?:[(（][^()（）\n]{1,20}[)）]\s*)?"
                         r"((?:[a-z][a-z-]{2,30}\s+)?[a-z][a-z-]{2,30})(?![\w-])")


def _premodified(text: str, v: Value, since: int) -> tuple[str, str, str] | None:
    """(metric, unit, limit kind) of a measure that modifies the noun after it: "uses a total 300 seconds (5min)
    timeout" (total_timeout, seconds), "a 64 KiB read buffer" (read_buffer). None without an article before it and
    a noun after it."""
    lead, after = _LEAD_IN.search(text, since, v.start), _NOUN_AFTER.match(text, v.end)
    if lead is None or after is None:
        return None
    nouns = after.group(1).split()
    if len(nouns) > 1 and nouns[1].lower() in _PHRASE_STOP:
        nouns = nouns[:1]  # "a 30 second timeout for the connect"
    words = [*lead.group(1).split(), *nouns]
    if any(w.lower() in _PHRASE_STOP or w.lower() in _NOT_NOUNS for w in words):
        return None  # "a 5 minutes and ...", "the 2 GB is": no noun phrase
    default = re.search(r"\bdefault", text[since:v.start], re.I) is not None  # "By default ...", "Default is ..."
    return "_".join(w.lower() for w in words), v.unit, "default" if default else ""


_BOUND_OF = re.compile(r"\b(maximum|minimum|max|min|at most|at least|up to)\s+(?:of\s+)?$", re.I)
_COUNTED_AFTER = re.compile(r"\s+((?:[A-Za-z][\w-]*\s+){0,2}[a-z][a-z-]{2,}s)\b(?!\s*(?:of|per)\b)")
_NOT_COUNTED = frozenset({"times", "percent", "others", "ones", "items", "things", "units", "its", "his"})
_CALLED = re.compile(r"\b(?:is|are|be|been|considered|marked|flagged|deemed|treated\s+as)\s+(?:as\s+)?([a-z]{3,})\s*$",
                     re.I)
_FALLBACK_DEFAULT = re.compile(r"\bdefaults?\s+(?:to|is)\s+[^.;\d]{1,80}?,?\s+(?:or|otherwise|else)\s+$", re.I)


def phrase_metric(text: str, v: Value, since: int, mentions: Sequence[Mention] = ()) -> tuple[str, str, str] | None:
    """(metric, unit, limit kind) of a bare count that no known quantity names, by the noun phrase it is stated
    for: "The maximum nesting depth is 250" (max_nesting_depth), "the maximum length of a pattern is 65539 code
    units" (max_pattern_length, in code units), "the default cache is 4096 entries" (cache, default), "Sets the
    maximum depth (default 250)". The phrase must start with a limit word (maximum, minimum, default, ...) or
    the count must name what it counts; "The answer is 42" names nothing."""
    # a measure no list names is its noun phrase's too ("the call timeout is 2000 milliseconds")
    measure = v.kind in ("time", "size") and bool(v.unit)
    if (v.kind not in ("bare", "year") and not measure) or (v.kind == "year" and not v.raw.isdigit()):
        return None
    if measure and re.match(r"\s*(?:of\s+[^,.;]{0,40}?\s+)?(?:every|per|each|a|an)\s+(?:\d|[a-z]+\b)", text[v.end:]):
        return None  # "1500 seconds of query time every 30 seconds": a quota per window, no value of the phrase
    before = text[since:v.start]
    if measure and (written := _premodified(text, v, since)) is not None:
        return written
    if v.kind == "bare" and _FALLBACK_DEFAULT.search(before):
        # "Defaults to the $FROB_COUNT environment variable if available, or 1.": the default when that is unset
        return "value", "", "default"
    if v.kind == "bare" and (bound := _BOUND_OF.search(before)) and (noun := _COUNTED_AFTER.match(text[v.end:])):
        # "it will keep a maximum of 10 FrobPool instances": a bound on a count of the things named after it
        counted = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", noun.group(1)).lower().split()
        if counted[-1] not in _NOT_NOUNS and counted[-1] not in _NOT_COUNTED and not set(counted) & _PHRASE_STOP:
            bound_kind = "min" if re.match(r"min|at least", bound.group(1), re.I) else "max"
            stated = re.search(r"\bby default\b|\bdefault\b", text[:v.start], re.I) is not None
            return f"{bound_kind}_{'_'.join(counted)}", counted[-1], "default" if stated else ""
    link = _PHRASE_LINK.search(before)
    if link is None:
        return None
    end = since + link.start()
    for m in sorted(mentions, key=lambda m: -m.end):
        # "the maximum depth of Zorbly is 250", "the smallest block in Zorbly": the owner is no part of the phrase
        if since <= m.start and m.end <= end and not text[m.end:end].strip(" ’'s"):
            end = m.start
            if owner := re.search(r"\s(?:of|in|for|on)\s+(?:the\s+)?$", text[since:end]):
                end = since + owner.start()
    if (owner := re.search(r"\s(?:for|in|on)\s+(?:the\s+)?[A-Z][\w.+-]*\s*$", text[since:end])) and \
            re.search(r"[a-z]", text[since:since + owner.start()]):
        end = since + owner.start()  # "the default visibility timeout for Zorbq is 1 hour": Zorbq owns it
    words = re.findall(r"[A-Za-z][\w-]*(?:['’]s\b)?|[^\sA-Za-z]", text[since:end])
    phrase: list[str] = []
    for i in range(len(words) - 1, -1, -1):
        w, low = words[i], words[i].lower()
        if not re.match(r"[A-Za-z]", w) or low in _PHRASE_STOP or len(phrase) >= 7 or low.endswith(("'s", "’s")):
            break  # a possessive is the owner ("Zorbly's default cache")
        if low in _ARTICLES:
            if i and words[i - 1].lower() == "of":
                continue  # "length of a pattern": the article inside the phrase
            break
        phrase.insert(0, w)
    while phrase and phrase[0].lower() == "of":
        phrase.pop(0)
    defaults_to = re.match(r",?\s*(?:which\s+)?default(?:s|ing)? to\b", link.group(0), re.I) is not None
    if not phrase and defaults_to:
        phrase = ["default", "value"]  # "... and defaults to 3600": the default of what the passage defines
    # "By default, this option is set to 3", "by default it is 5": the default of what the passage defines
    by_default = re.search(r"\bby default\b", text[since:end], re.I) is not None
    if by_default and len(phrase) <= 1 and words and words[-1].lower() in _SELF_NOUNS:
        phrase = ["value"]
    if not phrase and link.group("lead") and (not words or words[-1] in ".;:"):
        phrase = ["value"]  # "... to always allow. (Defaults 20)": the value of what the passage defines
    elif phrase and link.group("lead") and (called := _CALLED.search(text[since:end])) and \
            v.kind in ("time", "size") and called.group(1).lower() not in _PHRASE_STOP:
        # "flag tests that are slow (default: 75ms)": the measure above which a thing is called that
        phrase = [called.group(1).lower(), "threshold"]
    elif phrase and link.group("lead") and not _PHRASE_LEAD.match(phrase[0]) and not any(
            canonical_metric(w) or w.lower() in QUANTITY_WORDS for w in phrase):
        # "... it is closed and replaced by a new one (default: 30 minutes)": no quantity of "a new one", the
        # default of what the passage defines
        phrase = ["value"]
    if not phrase or phrase[-1].lower() == "of":
        return None
    kind = (link.group("lead") or "").lower().removesuffix("s") or (
        "default" if defaults_to or by_default else "")  # "(default 250)"
    lead = phrase.pop(0).lower() if _PHRASE_LEAD.match(phrase[0]) else kind
    if not phrase and lead and not kind:
        phrase = ["value"]  # "the default is 4": the value of what the passage defines (definitions.py)
    noun = None if measure else _COUNT_NOUN_AFTER.match(text[v.end:])
    unit = v.unit if measure else noun.group(1) if noun and noun.group(1).split()[-1] not in _NOT_NOUNS and \
        noun.group(1).split()[0] not in _PHRASE_STOP else ""  # "250 for patterns" counts nothing
    if not phrase or not (lead or unit) or any(w[0].isdigit() for w in phrase):
        return None
    low = [w.lower() for w in phrase]
    if "of" in low:  # "length of a pattern" is the pattern length
        at = low.index("of")
        low = low[at + 1:] + low[:at]
    stem = "_".join(_singular(w) if i < len(low) - 1 else w for i, w in enumerate(low))
    prefix = "max_" if lead.startswith("max") or lead in ("largest", "highest") else \
        "min_" if lead.startswith("min") or lead in ("smallest", "lowest") else ""
    return f"{prefix}{stem}", unit, "default" if "default" in (lead, kind) else ""


# what a unit alone calls a value: a percentage, a ratio, a size; the clause's own words name it better
_GENERIC = frozenset({"percentage", "ratio", "size"})


def _named_by_subject(text: str, v: Value, metric: str, mentions: Sequence[Mention], rel: Relative | None,
                      context_entity: str | None = None) -> str:
    """A value whose unit alone names its metric takes the common noun phrase its clause states it of: "the
    extra memory introduced by ... is usually 20%" is extra_memory, not a percentage. A subject that is a name
    the sentence links is whose value it is, not what it measures."""
    if rel is not None or (metric not in _GENERIC and not (v.kind == "time" and _is_span(v))):
        return metric
    if (changed := _CHANGED_NOUN.search(text, max(0, v.start - 160), v.start)) and \
            not set(changed.group("n").lower().split()) & (_PHRASE_STOP | _ARTICLES):
        # "cuts the overhead from 21 bytes (...) to 6 bytes": both are the overhead, whatever the sentence's subject
        words = changed.group("n").lower().split()
        return "_".join([*words[:-1], _singular(words[-1])])
    span = subject_span(text, v.start)
    phrase = text[span[0]:span[1]] if span else ""
    if not span or any(m.start < span[1] and span[0] < m.end for m in mentions) \
            or (context_entity and context_entity.lower() in phrase.lower()):
        return metric
    if metric not in _GENERIC and set(metric.split("_")) <= {_singular(w) for w in phrase.lower().split()} | set(
            phrase.lower().split()):
        return metric  # "The median age ... was 41.9 years": the clause's own metric word already names it
    words = [w.lower() for w in re.findall(r"[A-Za-z][\w-]*", phrase)]
    prefix = ""
    while len(words) > 1 and words[0] in _PHRASE_ADJ:
        lead = words.pop(0)  # "the default page size" is the page size ("default" is the value's setting)
        prefix = "max_" if lead in ("maximum", "max", "largest", "highest") else \
            "min_" if lead in ("minimum", "min", "smallest", "lowest") else prefix
    if not words or any(w[0].isdigit() for w in words):
        return metric
    return prefix + "_".join([*words[:-1], _singular(words[-1])])


# what a change is of, before "from X (to Y)": "cuts the overhead from 21 bytes ... to 6 bytes"
_CHANGED_NOUN = re.compile(r"\b(?:(?:reduc|increas|rais|chang|improv|decreas|doubl|halv)(?:es|ed|ing)|"
                           r"(?:lower|cut|drop|grow|shrink|bring)s|lowered|lowering|dropped|dropping|grew|shrank|"
                           r"brought)\s+(?:the\s+|its\s+|their\s+)?(?P<n>(?:[a-z][\w-]*\s+){0,2}?"
                           r"[a-z][\w-]*)\s+from\s+(?:[^.;]{0,100}?\bto\s+)?$", re.I)
_PHRASE_ADJ = frozenset({"default", "current", "new", "old", "typical", "actual", "overall", "total", "maximum", "max",
                         "largest", "highest", "minimum", "min", "smallest", "lowest"})


def _widen(text: str, v: Value, metric: str, mentions: Sequence[Mention] = ()) -> str:
    """Sentence-wide cues: "up to 16,000 dimensions" is a maximum even two clauses on; a sentence about ingestion
    makes each of its bare throughputs an ingest throughput ("InfluxDB ingests 334k, TimescaleDB 145k rows/s")."""
    noun = metric.removeprefix("max_")
    if metric == noun and noun in _LIMITED_NOUNS and _LIMIT.search(text[max(0, v.start - 80):v.start]):
        return f"max_{noun}"
    if metric == "throughput":
        named = {m.key for m in metric_mentions(text) if m.key.endswith("_throughput")}
        if len(named) == 1:
            return named.pop()
        if not named and _cue(r"\b(?:insert|ingest|writ)\w*|写入|插入", text):
            return "ingest_throughput"
        if not named and (op := _operation(text, v, mentions)):
            return f"{op.replace('-', '_')}_throughput"
    return metric


def _census(condition: str) -> str:
    """"census of 2010", "the 2010 census", "census [13] of 2010" -> "2010 census" (one key for one census)."""
    if (m := re.search(r"census", condition, re.I)) and (y := re.search(r"\d{4}", condition)):
        return f"{y.group(0)} {m.group(0).lower()}"
    return condition


def _since_last_value(text: str, v: Value, values: Sequence[Value], reach: int) -> str | None:
    """The text before a value back to the previous value (at most `reach` characters); None across a sentence."""
    lo = max([0, v.start - reach, *(w.end for w in values if w.end <= v.start)])
    before = text[lo:v.start]
    return None if re.search(r"[.;。；]", before) else before


def _event_further(text: str, v: Value, values: Sequence[Value]) -> tuple[str, str] | None:
    """"founded in the western town of Mayagüez, on April 25, 1942": an event word may sit a clause or two before its
    date, as long as no other value stands between them."""
    if v.kind not in ("date", "year") or (before := _since_last_value(text, v, values, 80)) is None:
        return None
    hits = [m for m in metric_mentions(before) if m.key in _EVENTS]
    rest = before[hits[-1].end:] if hits else ""
    opening = hits and not re.search(r"\S", text[:v.start - len(before) + hits[-1].start].split(".")[-1])
    if not hits or _CENSUS.search(before) or (opening and re.match(r",?\s+(?:in|at|near)\s+[A-Z]", rest)) or \
            re.search(r",\s*(?:who|which|whose|where)\b", rest):
        # "Born in Hiram, Maine, Cole read law ... in 1866" (the sentence opens with the event and its place),
        # "built by Heman Goodrich, who was one of the first settlers in 1836": the later date is another
        # clause's. "released by Hear Music on April 12, 2011" is dated by it.
        return None
    return hits[-1].key, v.kind


_OF_SCOPE = re.compile(r"\s(?:of|in|for)\s[^.;:()\d]{1,70}?\s(?:was|is|were|stood at|totall?ed|reached|numbered)"
                       r"(?:\s(?:about|approximately|around|roughly|some|nearly|just over|over))?\s?$", re.I)


def _count_further(text: str, v: Value, values: Sequence[Value]) -> tuple[str, str] | None:
    """"the population of Sherborne parish and the two electoral wards was 9,523": a count's word may sit a long
    scope phrase before it, with only "was" between the phrase and the number and no other value."""
    if v.kind != "bare" or (before := _since_last_value(text, v, values, 120)) is None:
        return None
    keys = [m for m in metric_mentions(before) if m.key in _COUNT_METRICS]
    if not keys or not _OF_SCOPE.fullmatch(before[keys[-1].end:]):
        return None
    return keys[-1].key, _UNIT_OF.get(keys[-1].key, "")


def _bare_metric(before: str) -> tuple[str, str] | None:
    """A number without a unit is a value only right after words naming a count ("The population was 1,624",
    "Population: 838", "最大列数 4096"): nothing but connectors may sit between them."""
    keys = metric_mentions(before)
    if not keys:
        return None
    last = keys[-1]
    if last.key not in _COUNT_METRICS or not _CONNECTOR.fullmatch(_SCOPE.sub("", before[last.end:], count=1)):
        return None
    return last.key, _UNIT_OF.get(last.key, "")


def _count_metric(v: Value, before: str, after: str) -> tuple[str, str] | None:
    window = f"{before} {after}"
    if v.unit == "years":  # "The median age was 40 years": an age only right after its metric word
        keys = metric_mentions(before)
        return ("age", "years") if keys and keys[-1].key == "age" and _CONNECTOR.fullmatch(
            _SCOPE.sub("", before[keys[-1].end:], count=1)) else None
    if v.unit in _NOUN_METRIC:
        return _NOUN_METRIC[v.unit], v.unit
    if v.unit in ("messages", "rows", "records", "samples"):  # a count of records is a rate only with its period
        if _PER_SECOND.search(window):
            return ("throughput", "msg/s") if v.unit == "messages" else (_rate_metric(v, window), "rows/s")
        if _PER_DAY.search(window):
            return f"daily_{v.unit}", f"{'msg' if v.unit == 'messages' else v.unit}/day"
        if _PER_MONTH.search(window):
            return f"monthly_{v.unit}", f"{'msg' if v.unit == 'messages' else v.unit}/month"
        return (f"max_{v.unit}", v.unit) if v.unit == "rows" and _LIMIT.search(window) else None
    if v.unit in _LIMITED_NOUNS:
        # the limit word comes before the count, or names it right after ("250 columns as the safe limit");
        # "a table with 250 columns can have ... up to 249" limits the 249, not the 250
        limit = _LIMIT.search(before) or re.match(r"\s*\S+(?:\s\S+)?\s(?:max(?:imum)?\b|limits?\b|at most\b|上限)",
                                                  after) or _cue(r"cardinality|基数|safe|quota|配额|上限|as (?:the|a) "
                                                                 r"(?:\w+ )?limit", window)
        if v.unit == "partitions":
            return ("max_partitions" if limit else "partitions"), v.unit
        return (f"max_{v.unit}" if limit else v.unit), v.unit
    return {"brokers": "cluster_size", "nodes": "cluster_size", "replicas": "replication_factor",
            "cores": "cpu_cores", "topics": "topics", "clusters": "clusters", "threads": "threads",
            "workers": "threads", "devices": "devices", "hosts": "hosts"}.get(v.unit, "count"), v.unit


def condition_spans(sentence: str, mentions: Sequence[Mention], has_latency: bool) -> list[tuple[int, int, str]]:
    """Setup phrases in the sentence, as written (entity versions such as "Kafka 3.3" included)."""
    found = [(m.start(), m.end(), m.group(0)) for p in _CONDITIONS for m in p.finditer(sentence)]
    for men in mentions:
        if vm := re.match(r"\s?\d+\.\d+(?:\.\d+)?(?![\d.]|\s?(?:%|MB|GB|ms|倍))", sentence[men.end:]):
            found.append((men.start, men.end + vm.end(), sentence[men.start:men.end + vm.end()]))
    if has_latency:  # "p99 of 8 ms at 30 MB/s": the rate is the load the latency was measured at
        found += [(m.start(), m.end(), m.group(0)) for m in _AT_RATE.finditer(sentence)]
    found.sort(key=lambda c: (c[0], -(c[1] - c[0])))
    out: list[tuple[int, int, str]] = []
    for c in found:
        if not out or c[0] >= out[-1][1]:
            out.append((c[0], c[1], c[2].strip()))
    return out


def _clauses(sentence: str) -> Callable[[int], int]:
    """position -> index of its clause (clauses end at , ; : 。 and their full-width forms)."""
    cuts = [m.end() for m in _CLAUSE.finditer(sentence)]
    return lambda pos: bisect_right(cuts, pos)


def _owners(sentence: str, conds: Sequence[tuple[int, int, str]], mentions: Sequence[Mention]) -> list[str | None]:
    """A condition belongs to the entity named last before it in its clause ("RabbitMQ with mirrored
    queues"), or to every value in the sentence when its clause names none ("100 partitions")."""
    clause = _clauses(sentence)
    out: list[str | None] = []
    for start, _, _ in conds:
        same = [m for m in mentions if m.start <= start and clause(m.start) == clause(start)]
        out.append(max(same, key=lambda m: m.start).canonical if same else None)
    return out


_LIMIT_KINDS = {"configure": "configurable", "configured": "configurable", "可配置": "configurable",
                "最大可配": "configurable", "by default": "default", "默认": "default"}
_WE = re.compile(r"\b(?:we|our|us)\b|我们", re.I)
_UP = r"more|higher|faster|quicker|better|larger|bigger|greater"
_DOWN = r"less|fewer|lower|slower|smaller|cheaper|worse"
_REL_EN = re.compile(
    rf"\s*(?:(?P<adj>{_UP}|{_DOWN})\b(?P<mid>[^.;!?]{{0,240}}?)\s?\b|(?P<mid2>[^.;!?]{{0,30}}?)\b(?P<adj2>{_UP}|{_DOWN})"
    r"\b\s?)(?P<than>than|compared (?:to|with)|vs\.?|versus|relative to)\s+(?P<base>[^.;!?()\[\]]{1,60})|"
    r"\s*(?P<mid3>[^.;!?]{0,30}?)\bas\s(?P<adj3>fast|quick|much|many|large|big|high)\sas\s+"
    r"(?P<base3>[^.;!?()\[\]]{1,60})", re.I)
# "4x as fast as", "twice as much as": the comparative they amount to
_AS_AS = {"fast": "faster", "quick": "quicker", "much": "more", "many": "more", "large": "larger", "big": "bigger",
          "high": "higher"}
_REL_OF = re.compile(r"\s+(?:of\s+|that of\s+)?(?P<base>[A-Z][\w.-]*(?: [A-Z][\w.-]*)?)['’]s\s+(?P<what>[\w -]{0,30})")
_REL_ZH_BEFORE = re.compile(r"比\s?(?P<base>[^，。；,比]{1,20}?)\s?(?:的\S{0,4})?(?P<adj>快|慢|高|低|少|多|小|大|省|强)"
                            r"\s?(?:了|出)?\s?$")
_BASELINE_CUE = re.compile(r"(?:\bthan|\bcompared (?:to|with)|\bvs\.?|\bversus|\brelative to|比)\s*$", re.I)
_NOT_A_NAME = re.compile(r"^(?:it|that|this|those|these|before|ever|previously|usual|expected|the previous|"
                         r"its|their|our|we|you|one)\b", re.I)
_THROUGHPUT_STAT = re.compile(r"\b(?:average|mean)\b|平均", re.I)


class Relative(NamedTuple):
    metric: str  # speedup, storage_reduction, throughput_ratio ...
    baseline: str  # the entity (canonical) or the phrase compared against


def _relative(sentence: str, v: Value, mentions: Sequence[Mention]) -> Relative | None:
    """"1.7x faster than ClickHouse", "7x less storage than Prometheus", "比通用数据库快 10 倍": a comparison with
    a named baseline, never an absolute value of either side."""
    if v.kind not in ("ratio", "pct"):
        return None
    base_start, adj, mid = -1, "", ""
    if (m := _REL_EN.match(sentence, v.end)) and m.group("adj3"):
        adj, mid = _AS_AS[m.group("adj3").lower()], m.group("mid3") or ""
        base_start, base_text = m.start("base3"), m.group("base3")
    elif m:
        adj, mid = (m.group("adj") or m.group("adj2") or "").lower(), m.group("mid") or m.group("mid2") or ""
        base_start, base_text = m.start("base"), m.group("base")
    elif v.kind == "ratio" and (m3 := _REL_OF.match(sentence, v.end)):  # "2.5 times Kafka's figure"
        adj, mid, base_start, base_text = "more", m3.group("what"), m3.start("base"), m3.group("base")
    elif (m2 := _REL_ZH_BEFORE.search(sentence[max(0, v.start - 30):v.start])) and v.kind == "ratio":
        adj, base_text = m2.group("adj"), m2.group("base")
        base_start = max(0, v.start - 30) + m2.start("base")
        mid = sentence[max(0, v.start - 30) + m2.end("base"):v.start]
    else:
        return None
    named = [x for x in mentions if base_start <= x.start < base_start + len(base_text) + 1]
    if named:
        baseline = min(named, key=lambda x: x.start).canonical
    else:
        phrase = re.split(r"\s(?:and|or|but|while|which|when|if|for|in|on|at|with)\b|[,，、]", base_text.strip())[0]
        phrase = re.sub(r"^(?:the|a|an)\s+", "", phrase.strip(), flags=re.I)
        if not phrase or _NOT_A_NAME.match(phrase) or len(phrase.split()) > 5:
            return None
        baseline = phrase
    up = adj in ("more", "higher", "faster", "quicker", "better", "larger", "bigger", "greater", "快", "高", "多", "大",
                 "强")
    words = f"{mid} {adj}"
    if re.search(r"more (?:data|data points|samples|metrics)\b", f"{adj}{mid}", re.I) and re.search(
            r"storage|disk|space", sentence[v.end:base_start], re.I):
        base, up = "storage", False  # "70x more data points in the same storage": 70x less storage per point
    elif found := metric_mentions(words):
        base = metric_family(found[0].key)
        base = {"speedup": "speed"}.get(base, base)
    elif re.search(r"faster|quicker|slower|快|慢", adj):
        base = "speed"
    elif adj in ("cheaper",):
        base = "cost"
    else:
        base = "value"
    if base == "speed":
        return Relative("speedup" if up else "slowdown", baseline)
    return Relative(f"{base}_ratio" if up else f"{base}_reduction", baseline)


RELATIVE_PREFIX = "vs "  # a relative claim's condition starts with its baseline: "vs ClickHouse, 4 threads"


def relative_baseline(condition: str | None) -> str | None:
    """The baseline a relative claim's condition names ("vs ClickHouse, 4 threads" -> "ClickHouse"), or None."""
    if not condition or not condition.startswith(RELATIVE_PREFIX):
        return None
    return condition[len(RELATIVE_PREFIX):].split(",", 1)[0].strip()


_LIST_GAP = re.compile(r"\s*(?:[,，、/]\s*)?(?:(?:and|or|and/or|nor|&|和|或|及|与)\s*)?", re.I)


def _baselines(sentence: str, mentions: Sequence[Mention]) -> set[int]:
    """Mentions that a comparison is made against ("than ClickHouse"), and the rest of a list that starts with
    one ("than Prometheus, Thanos or Cortex"): never the subject of a value."""
    out: set[int] = set()
    order = sorted(range(len(mentions)), key=lambda i: mentions[i].start)
    for k, i in enumerate(order):
        m = mentions[i]
        if _BASELINE_CUE.search(sentence[max(0, m.start - 16):m.start]) or (
                k and order[k - 1] in out and _LIST_GAP.fullmatch(sentence[mentions[order[k - 1]].end:m.start])):
            out.add(i)
    return out


_SCOPE_CUE = re.compile(r"\b(?:(?:is|are)\s+)?(?:(?:only\s+)?(?:used|applies|apply|applicable|relevant|honou?red)\s+"
                        r"(?:only\s+)?(?:for|to|by|with)|only\s+(?:for|with|by))\s+(?:the\s+)?$", re.I)


# a sentence that gives an example ("For example, ...", "e.g. ...", "In the following example, ..."): its figures are
# the example's, no setting's default nor anyone's measurement
_EXAMPLE_CUE = re.compile(r"\b(?:for (?:example|instance)|e\.g\.?|in (?:the following|this|that|our|the next) example|"
                          r"as an example|example\s*:)", re.I)
_DEFAULT_WORD = re.compile(r"\bdefaults?\b|\bby default\b", re.I)


def _scoped(sentence: str, mentions: Sequence[Mention]) -> tuple[set[int], str | None]:
    """The mentions a setting's description says it holds for ("Used only for Frob and Quux", "Applies to the Zorb
    backend"), with the list's words as a condition: where the figure holds, not whose it is."""
    out: set[int] = set()
    order = sorted(range(len(mentions)), key=lambda i: mentions[i].start)
    first = last = None
    for k, i in enumerate(order):
        m = mentions[i]
        if _SCOPE_CUE.search(sentence[max(0, m.start - 40):m.start]) or (
                k and order[k - 1] in out and _LIST_GAP.fullmatch(sentence[mentions[order[k - 1]].end:m.start])):
            out.add(i)
            first = m.start if first is None else first
            last = m.end
    return out, (sentence[first:last] if first is not None and last is not None else None)


def _entity(sentence: str, v: Value, mentions: Sequence[Mention], preferred: set[str],
            fallback: str | None, skip: set[int] = frozenset()) -> str | None:  # type: ignore[assignment]
    """Who the value belongs to: the nearest mention in the value's own clause (before it, then after it),
    then the nearest before it in the sentence, then after; plan entities win ties.

    "Kafka reached 605 MB/s, Pulsar reached 305 MB/s": 605 is Kafka's although "Pulsar" is closer."""
    pool = [m for i, m in enumerate(mentions) if i not in skip]
    # a name after the value in a clause of its own about the value ("5 seconds which is the max recommended default
    # in the Zorbq settings", "as Zorbq does", "like Zorbq's") says whose value it matches, not whose it is
    pool = [m for m in pool if m.start < v.end or not _NOT_OWNER_AFTER.search(sentence[v.end:m.start])]
    if not pool:
        return fallback
    clause = _clauses(sentence)
    if fallback:  # "we hit 904k rows/sec, with ClickHouse closest at 548k": "we" is who the document is about
        own = sentence[:v.start]
        we = [w for w in _WE.finditer(own) if clause(w.start()) == clause(v.start) or not own[w.end():].strip(", ")]
        if we and not any(we[-1].end() <= m.start < v.start for m in pool):
            return fallback

    if v.kind in ("date", "year"):  # a date is dated by what comes before it, or by its own clause
        pool = [m for m in pool if m.end <= v.start or clause(m.start) == clause(v.start)] or pool[:0]
        if not pool:
            return fallback

    def rank(m: Mention) -> tuple[int, int, int]:
        before = m.end <= v.start
        same = clause(m.start) == clause(v.start)
        distance = v.start - m.end if before else m.start - v.end
        return (0 if same else 2) + (0 if before else 1), distance, 0 if m.canonical in preferred else 1

    return min(pool, key=rank).canonical


# "the default <quantity> for <Name> is": the name the figure is given for, in a clause of its own
_PLACED_FOR = re.compile(r"\b(?:the\s+)?default\s+[a-z][\w -]{2,40}?\s+(?:for|on|with)\s+(?:the\s+)?"
                         r"([A-Z][\w.+-]*(?:\s+[A-Z][\w.+-]*)?)\s+(?:is|are|was|were)\s+(?:about\s+|around\s+)?$")
_NOT_OWNER_AFTER = re.compile(r"\b(?:which|that|who|whose|as|like|unlike|than|matching|mirroring)\b", re.I)


def _subject_entity(sentence: str, v: Value, mentions: Sequence[Mention], skip: set[int],
                    fallback: str | None) -> str | None:
    """Whose value this is by its clause's subject: a name inside the subject; for "it" after a name in the
    sentence, that name; for "it"/"we"/"this library" otherwise, the document's own product ("" when the document
    names none: the value is left out); a proper noun no list knows; or None to let the nearest-name rule decide
    (no parse: Chinese, or the pipeline is not installed)."""
    pool = [m for i, m in enumerate(mentions) if i not in skip]
    subj = subject_at(sentence, v.start)
    if subj is None:
        return None
    if subj.own:
        earlier = [m for m in pool if m.end <= subj.start]
        if earlier and sentence[subj.start:subj.end].lower() == "it":
            return earlier[-1].canonical  # "Kestrel did not reach 600 MB/s but it reached 420 MB/s"
        return fallback or ""
    inside = [m for m in pool if subj.start <= m.start < subj.end]
    if inside:
        return inside[0].canonical
    # a proper-noun subject no list knows ("Glorp, by contrast, manages 1 GB/s"), unless a name it skips is it; an
    # ordinary word capitalised as a sentence's first ("Default is 70.") names nothing
    # (also a sentence's first inside a unit: "-n Number of frobs to send. Default is 300.")
    if subj.name and " " not in subj.name and ordinary_word(subj.name) and (
            not (lead := sentence[:subj.start].strip(" *_\"'(")) or lead[-1] in ".!?:"):
        return None
    if subj.name and not re.search(r"[^\W\d_]", subj.name):
        return None  # "⚡️ 10-100x faster than ...": a pictograph names nothing
    if subj.name and (amount := re.fullmatch(r"\d[\d.,]*\s*([^\W\d_]+)", subj.name)) and known_unit(amount.group(1)):
        return None  # "Files smaller than 512 KiB are not split": an amount names nothing
    return subj.name if subj.name and not any(subj.start <= m.start < subj.end for m in mentions) else None


def _someone_elses_life(before: str, entity: str) -> bool:
    """A life in parentheses belongs to the name written right before it: "owned by Matthew C. (Matty) Walsh
    (1914–2006) and Jimmy Ryan (1911–1963)" dates Walsh's life, not Jimmy Ryan's; a name sharing a word with the
    entity's is the entity ("Harland Bradley Howe (July 15, 1875 – ..." for Judge Howe)."""
    if not (paren := _LIFESPAN.search(before)):
        return False
    name = _NAME_BEFORE.search(before[:paren.start()])
    if not name or not (words := re.findall(r"[A-Za-z]{2,}", name.group(1))):
        return False
    if len(words) == 1 and words[0].lower() in _SENTENCE_WORDS:
        return False
    own = {w.lower() for w in re.findall(r"\w{2,}", entity)}
    return not own & {w.lower() for w in words}


def _asked_value(text: str, v: Value, previous: Value | None, asked: Asked) -> bool:
    """Whether a value no known metric names is the date or count a look-up asks for (asked.py)."""
    if asked.kind == "date":
        if v.kind not in ("date", "year") or closes_range(text, v.start, previous.end if previous else None):
            return False
        before = _CLAUSE.split(text[max(0, v.start - 80):v.start])[-1]
        return holds(asked, f"{before} {_CLAUSE.split(text[v.end:v.end + 30])[0]}")
    if v.kind not in ("bare", "count"):
        return False
    after = " ".join(text[v.end:v.end + 40].split()[:3])
    # what is counted is named right after the number, or before it ("the number of libraries is 15") where
    # no other number comes first (in "25 libraries and 242 categories" the libraries are the 25)
    before = text[max(0, v.start - 25):v.start]
    before = "" if re.search(r"\d", before) else before
    return holds(asked, f"{before} {after}")


_CHANGE_FROM = re.compile(r"(?:\bfrom|从)\s*$", re.I)
# ... but "sizes range from 4 to 8 MB", "it varies from 4 to 8", "anywhere from 4 to 8" span a range, no change
_RANGE_FROM = re.compile(r"\b(?:range[sd]?|ranging|var(?:y|ies|ied|ying)|anywhere|be|is|are)\s+from\s*$", re.I)
_CHANGE_TO = re.compile(r"\s*(?:\bx\b|×|\btimes\b|倍)?\s*(?:\b(?:down |up )?to\b|到|至|降到|降至|缩小到|缩小至)\s*$",
                        re.I)
# the words that open a clause a figure changes under ("... to 3x if compression is configured"); a condition
# ending in such a clause is what condition_conflicts.qualified_groups reads as a change
_EN_CHANGE, _ZH_CHANGE = "if|when|once|unless|provided", "如果|若|当"
CHANGE_WORDS = rf"(?:{_EN_CHANGE})\s|{_ZH_CHANGE}"
_CHANGE_CLAUSE = re.compile(rf"\s*(?:x\b|×|times\b|倍)?\s*,?\s*((?:{_EN_CHANGE})\s+[^.;:!?()\[\]]{{3,80}}?|"
                            rf"(?:{_ZH_CHANGE})[^。；，,]{{2,40}})\s*(?=[.;:!?()\[\]。；，,]|$)", re.I)


def _changed_claim(text: str, values: Sequence[Value], i: int,
                   measured: Sequence[tuple[Value, str, str, Relative | None]]
                   ) -> Literal["repeat"] | tuple[tuple[Value, Relative], tuple[str, int, int]] | None:
    """A relative claim of the sentence changed under a condition: "... up to 70x less storage space compared
    to TimescaleDB ... The gap can be decreased from 70x to 3x if compression in TimescaleDB is properly
    configured". The "from" value repeats the claim ("repeat"); the "to" value is the same comparison under the
    clause after it: (the claim, its comparison) and (the clause, its span). None: no such change."""
    v = values[i]
    if v.kind != "ratio":
        return None
    claims = [(c, rel) for c, _, _, rel in measured if rel is not None and c.start < v.start]

    def claim_of(value: Value) -> tuple[Value, Relative] | None:
        return next(((c, rel) for c, rel in reversed(claims) if c.quantity.value == value.quantity.value), None)

    if _CHANGE_FROM.search(text[max(0, v.start - 12):v.start]) and claim_of(v) is not None:
        return "repeat"
    prev = values[i - 1] if i else None
    if prev is None or prev.kind != "ratio" or not _CHANGE_FROM.search(text[max(0, prev.start - 12):prev.start]) or \
            not _CHANGE_TO.fullmatch(text[prev.start + len(prev.raw):v.start]):
        return None
    claim = claim_of(prev)
    if claim is None:
        return None
    clause = _CHANGE_CLAUSE.match(text, v.start + len(v.raw))
    return claim, ((" ".join(clause.group(1).split()), clause.start(1), clause.end(1)) if clause else ("", 0, 0))


# a setting as code names it ("Options::compaction_readahead_size", "max_open_files", "maxOpenFiles",
# "MAX_OPEN_FILES"): by its shape, whatever the setting; a call ("open_db(") is a function, not a setting
_SETTING = re.compile(r"(?<![\w/.-])(?:[A-Za-z]\w*(?:::|\.|->))*([a-z][a-z0-9]*(?:_[a-z0-9]+)+|"
                      r"[a-z]+(?:[A-Z][a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w/(]|\.\w)")
# what may join a setting to a bare number it is set to ("max_open_files, default 1000", "max_open_files = 1000")
_SET_TO = re.compile(r"[\s\"'`(]*(?:,?\s*(?:(?:the|its|a|new)\s+)?(?:default(?:s| value)?|value|limit)?\s*"
                     r"(?:(?:is|was|has been)\s+)?(?:is|of|to|=|:|set to|now|changed to|becomes?|"
                     r"(?:chang|increas|decreas|rais|lower|reduc)(?:e|es|ed)(?:\s+from)?)?\s*)$", re.I)


def _setting_named(text: str, at: int, bare: bool, since: int) -> tuple[str, bool] | None:
    """The setting a value is of, when code names it in the value's sentence before it (from `since`, the previous
    value's end): "Changed the default of Options::compaction_readahead_size from 0 to 2MB" is of
    compaction_readahead_size. (name, attached): attached when nothing but "default", "=", "is" or "changes from"
    joins them; a bare number (or a rate: "delayed_write_rate to 2MB/s") takes a setting only so attached."""
    before = text[max(since, at - 120):at]
    if re.search(r"[.;!?。；](?:\s|$)", before):
        before = re.split(r"[.;!?。；](?:\s|$)", before)[-1]
    # (the type a help line gives an option's value, "--frob-addr stringArray ...", is no setting of its own)
    hits = [h for h in _SETTING.finditer(before)
            if not re.search(r"(?:^|\s)--?[A-Za-z][\w.-]*\s+$", before[:h.start()])]
    if not hits:
        return None
    last = hits[-1]
    attached = bool(_SET_TO.fullmatch(before[last.end():]))
    if bare and not attached:
        return None
    return last.group(1), attached


def _old_values(text: str, values: Sequence[Value]) -> dict[int, str]:
    """A change's values: "from 4MB to 64MB" -> {64MB's start: "4MB"}: the old value is the new one's condition,
    never a figure of its own."""
    out: dict[int, str] = {}
    for a, b in itertools.pairwise(values):
        if a.kind != "ratio" and _CHANGE_FROM.search(text[max(0, a.start - 12):a.start]) and \
                re.fullmatch(r"\s*(?:to|->|→|到|至)\s*", text[a.end:b.start]) and \
                not _RANGE_FROM.search(text[max(0, a.start - 30):a.start]):
            out[b.start] = text[a.start:a.end].strip() + ("" if a.unit or not b.unit else f" {b.unit}")
    return out


def _was_values(text: str, values: Sequence[Value]) -> set[int]:
    """"16KB (was 4KB)", "64MB, previously 4MB": the old value written after the new one is its condition (the
    parenthesis is read as one), never a figure of its own."""
    return {b.start for a, b in itertools.pairwise(values)
            if a.kind == b.kind and re.fullmatch(r"\s*[(,]?\s*(?:was|previously|formerly|before|from)\s*",
                                                 text[a.end:b.start], re.I)}


# between two figures of one quantity, each with its own qualifier: "1000 for action queues and 50000"
# (a qualifier's words may hold a dotted name: "in Frobnode", "if proxy.enabled is true"; a comma alone may join
# the pair: "5_000 in Frobnode, 15_000 if proxy.enabled is true")
_QUALIFIER_WORDS = r"(?:for|on|in|with|under|at|if|when|unless)\s+(?:[^,;.()\d]|\.(?=\w)){1,40}?"
_PARALLEL = re.compile(rf"(?P<qualifier>\s+{_QUALIFIER_WORDS})(?:,\s*(?:(?:and|or|while|but)\s+)?|\s+"
                       r"(?:and|or|while|but)\s+)(?:(?:it\s+is|is|was)\s+)?")
_QUALIFIER_AFTER = re.compile(rf"\s+{_QUALIFIER_WORDS}(?=\s*(?:[,;()]|\.(?!\w)|\band\b|$))")


# "builds 1000 pages in 2 s", "parses 1 GB of JSON in 0.5 s", "indexes 1 million documents in 40 minutes": the verb
# names what took that long, the figure before "in" how much of it
_WORKLOAD = re.compile(r"\b(?P<verb>[a-z]{2,}[^s\W]s)\s+(?:a |an |the |about |over |around |~)?"
                       r"(?P<load>\d[\d,.]*(?:\s?(?:[kKM]|thousand|million|billion)\b)?[\s-]?[A-Za-z][\w-]*"
                       r"(?:\s(?:of\s)?[A-Za-z][\w-]*)?)\s+in\s+(?:about |under |just |only |~)?$")
# "it takes 2.5 s to build 1000 pages"
_WORKLOAD_AFTER = re.compile(r"\s+to\s+(?P<verb>[a-z]{3,})\s+(?:a |an |the )?(?P<load>\d[\d,.]*(?:\s?(?:[kKM]|thousand|"
                             r"million|billion)\b)?[\s-]?[A-Za-z][\w-]*(?:\s(?:of\s)?[A-Za-z][\w-]*)?)")
_TAKES = re.compile(r"\b(?:takes?|took|taking|needs?|needed)\s+(?:about |around |only |just |~)?$", re.I)


def _verb_stem(verb: str) -> str:
    """"builds" -> build, "indexes" -> index, "processes" -> process, "parses" -> parse."""
    if verb.endswith(("sses", "xes", "ches", "shes", "zes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def _workloads(text: str, values: Sequence[Value]) -> dict[int, tuple[str, str, int]]:
    """Times that say how long some work took, by the time's start: (metric, the work as written, where the work's
    figure starts). "Quux builds 1000 pages in 2 s": build_time 2 s under "1000 pages"."""
    out: dict[int, tuple[str, str, int]] = {}
    spans = {v.start: v.kind for v in values}
    for v in values:
        if v.kind != "time":
            continue
        before = text[max(0, v.start - 120):v.start]
        if (m := _WORKLOAD.search(before)) and m.group("verb").lower() not in ("was", "has", "is", "its"):
            at = v.start - len(before) + m.start("load")
            verb, load = m.group("verb"), m.group("load")
        elif _TAKES.search(before) and (m := _WORKLOAD_AFTER.match(text, v.end)):
            at, verb, load = m.start("load"), m.group("verb"), m.group("load")
        else:
            continue
        if spans.get(at) != "date" and not re.search(r"\bago\b|^\S+[\s-](?:years?|months?|weeks?|days?|hours?|"
                                                        r"minutes?|seconds?)\b", load):
            # (a span is no work: "released 3 years ago in 2 months")
            out[v.start] = (f"{_verb_stem(verb.lower())}_time", load.strip(), at)
    return out


# a date a release is planned for, not one it came out on
# a value the text advises setting, for a goal it names: "Set to 1 to sync folders sequentially", "consider setting
# it to 64 for lower latency"
# (and the value restated in another unit: "Set to 32768 KiB (32 MiB) to ...")
_SUGGESTED = re.compile(r"(?:^|[.:;]\s+|\b(?:consider|try)\s+)(?i:set(?:ting)?)(?:\s+(?:it|this|them|the\s+\w+))?"
                        r"\s+(?:to|at)\s+(?:[\d.,]+\s?[A-Za-z]{0,4}\s*\(\s*)?$")
_SUGGESTED_FOR = re.compile(r"\s*(?:[A-Za-z]{1,4}\s*)?\)?\s*(?:\([^()]{1,30}\)\s*)?,?\s*(?:to|for|so|in order to)\s",
                            re.I)
_PLANNED = re.compile(r"\b(?:planned|scheduled|expected|slated|targeted|due)\b(?:\s+(?:for|in|on|by|around|at))?"
                      r"(?:\s+(?:release|general availability))?(?:\s+(?:in|on|by|around))?\s*$", re.I)
# what joins the two ends of a range: "256 KiB to 4 MiB", "4-16 MB", "between 2 and 8 workers"
_RANGE_JOIN = re.compile(r"\s?(?:to|[-–—])\s?|\s(?:and)\s")
# ... unless the sentence says the value moved: "raised from 4 to 8" is an old value and a new one
_MOVED = re.compile(r"\b(?:changed|raised|lowered|increased|decreased|reduced|bumped|grew|went|dropped|rose|"
                    r"fell|moved)\b[^.;]{0,40}$", re.I)


def _range_ends(text: str, values: Sequence[Value], olds: dict[int, str]) -> dict[int, str]:
    """The two ends of each range a sentence writes ("frobs are of 256 KiB to 4 MiB", "between 2 and 8
    workers"): its first figure the minimum, its second the maximum, when both are of one kind (or the first bare,
    its unit the second's) and the first is the smaller; none where the sentence says a value moved ("from 4 to
    8")."""
    out: dict[int, str] = {}
    for a, b in itertools.pairwise(values):
        join = _RANGE_JOIN.fullmatch(text[a.end:b.start])
        if join is None or a.start in olds or b.start in olds or b.kind in ("date", "year", "bare") or (
                a.kind != b.kind and a.kind != "bare") or _MOVED.search(text[max(0, a.start - 60):a.start]):
            continue
        if "and" in join.group(0) and not re.search(r"\bbetween\s$", text[max(0, a.start - 9):a.start]):
            continue
        if a.kind == "bare":  # "4 to 16 MB": the first end written with the second's unit, compared as written
            try:
                low, high = a.quantity.value, parse_quantity(b.raw).value
            except NumberFormatError:
                continue
        elif a.quantity.unit == b.quantity.unit:
            low, high = a.quantity.value, b.quantity.value
        else:
            continue
        if low < high:
            out[a.start], out[b.start] = "minimum", "maximum"
    return out


def observations(sentence: str, mentions: Sequence[Mention], preferred: set[str],
                 context_entity: str | None = None, context_conditions: Sequence[str] = (),
                 asked: Asked | None = None) -> list[ObservationIn]:
    """Observations for one sentence. `context_entity` stands in where the sentence names no entity;
    `context_conditions` (the sentence before, same paragraph) where a measurement has no condition; `asked`,
    the date or count a look-up asks for where no known metric names a value.

    The raw value of every observation is a verbatim slice of `sentence`."""
    text = mask_links(sentence)
    mentions = [m for m in mentions if text[m.start:m.end] == sentence[m.start:m.end]]
    values = find_values(text)
    measured: list[tuple[Value, str, str, Relative | None]] = []
    follows: dict[int, tuple[int, str]] = {}  # a changed ratio's start -> (the claim's start, the change's clause)
    clauses: list[tuple[int, int]] = []  # where those clauses are: conditions of the changed value alone
    olds = _old_values(text, values)
    defaults: dict[int, str] = {}  # "the default cache is 4096 entries": the value's own limit kind
    qualifiers: dict[int, str] = {}  # "1000 for action queues and 50000 for ruleset queues": each figure's own
    paired: dict[int, int] = {}  # the second figure of such a pair -> the first (the same setting's, the same owner's)
    old_at = {values[i].start for i in range(len(values) - 1) if values[i + 1].start in olds} | \
        _was_values(text, values)
    ranged = _range_ends(text, values, olds)  # "frobs of 256 KiB to 4 MiB": its least and its most
    loads = _workloads(text, values)  # "builds 1000 pages in 283 ms": a time, and the work it took that long for
    load_at = {start for _, _, start in loads.values()}
    for i, v in enumerate(values):
        if v.start in old_at or v.start in load_at:
            continue  # "from 4MB to 64MB": the old value is the new one's condition
        if _SUPPOSED.search(text, max(0, v.start - 120), v.start):
            continue
        if v.start in loads:
            measured.append((v, loads[v.start][0], v.unit, None))
            qualifiers[v.start] = loads[v.start][1]
            continue
        if i and v.kind == values[i - 1].kind == "time" and v.quantity.close_to(values[i - 1].quantity, 0.05) and \
                re.fullmatch(r"\s?[(（]\s?", text[values[i - 1].end:v.start]):
            continue  # "twenty four months (2 years)": the same span said again
        change = _changed_claim(text, values, i, measured)
        if change == "repeat":
            continue  # "from 70x": the claim the sentence before made, once more
        if change is not None:
            (claim, claim_rel), (clause, clause_start, clause_end) = change
            measured.append((v, claim_rel.metric, v.unit, claim_rel))
            follows[v.start] = (claim.start, clause)
            clauses.append((clause_start, clause_end))
            continue
        rel = _relative(text, v, mentions)
        since = values[i - 2].end if v.start in olds and i >= 2 else values[i - 1].end if i and v.start not in olds \
            else 0
        # a four-digit number a setting is set to ("max_open_files, default 1000") is its value, not a year
        bare = v.kind == "bare" or (v.kind == "year" and v.raw.isdigit())
        named = None if rel else _setting_named(text, values[i - 1].start if v.start in olds else v.start,
                                                 bare, since)
        if named and (named[1] or (v.kind not in ("date", "year", "rate") and not _is_perf(
                (metric_for(v, *cue_window(text, v)) or ("", ""))[0]))) and (v.kind not in ("date", "year") or bare):
            # "write_buffer_size default changed from 4MB to 64MB", "options.delayed_write_rate to 2MB/s"
            measured.append((v, named[0], "" if v.kind == "year" else v.unit, None))
            if _DEFAULT_IS.search(text, max(0, v.start - 40), v.start):
                # "... the zorb_ttl argument, ..., and the default is 10 minutes", ":type zorb_ttl: float, default: 1
                # hour"
                defaults[v.start] = "default"
        elif rel:
            measured.append((v, rel.metric, v.unit, rel))
        elif v.kind == "ratio" and re.match(rf"\s*(?:{_UP}|{_DOWN})\b", text[v.end:], re.I):
            continue  # "2x faster than it used to be": a comparison without a named baseline is no value
        elif got := metric_for(v, *cue_window(text, v)) or _event_further(text, v, values) or \
                _count_further(text, v, values):
            own = phrase_metric(text, v, values[i - 1].end if i else 0, mentions) if v.kind == "size" else None
            if own is not None and (own[0].endswith(f"_{got[0]}") or re.search(r"_(?:size|length)$", own[0])):
                # "minimum frame size = 128 kiB": the size its phrase names (the cue says only the kind of quantity)
                measured.append((v, own[0], own[1], None))
                if own[2]:
                    defaults[v.start] = own[2]
            else:
                measured.append((v, *got, None))
                if _DEFAULT_IS.search(text, max(0, v.start - 40), v.start):
                    defaults[v.start] = "default"  # "buffer size for each frob (default 16 MiB)"
        elif asked is not None and _asked_value(text, v, values[i - 1] if i else None, asked):
            measured.append((v, asked.metric, v.kind if asked.kind == "date" else "count", None))
        elif (end := _until(text, v)) is not None:
            measured.append((v, end, "date" if v.kind == "date" else "year", None))
        elif (own := phrase_metric(text, v, values[i - 1].end if i else 0, mentions)) is not None:
            measured.append((v, own[0], own[1], None))
            if own[2]:
                defaults[v.start] = own[2]
        elif measured and measured[-1][0] is values[i - 1] and measured[-1][2] not in ("year", "date") and (
                v.kind == values[i - 1].kind or (bare and (values[i - 1].kind == "bare" or values[i - 1].raw.isdigit()))
        ) and (pair := _PARALLEL.fullmatch(text[values[i - 1].end:v.start])) and (
                after := _QUALIFIER_AFTER.match(text, v.end)):
            # "the default is 1000 for action queues and 50000 for ruleset queues": the second figure of a pair
            # is of what the first is, each under its own qualifier
            prev = measured[-1]
            measured.append((v, prev[1], prev[2], None))
            if prev[0].start in defaults:
                defaults[v.start] = defaults[prev[0].start]
            qualifiers[prev[0].start] = pair.group("qualifier").strip()
            qualifiers[v.start] = after.group(0).strip()
            paired[v.start] = prev[0].start
    measured = [(v, _named_by_subject(text, v, _widen(text, v, metric, mentions), mentions, rel, context_entity),
                 unit, rel)
                for v, metric, unit, rel in measured if not _MISSED.search(text[max(0, v.start - 60):v.start])]
    # "p99 of 8 ms at 30 MB/s", "writing at 200 MB/s, Pulsar served reads 1.5 times faster": the rate is the load
    latency = any(m.endswith(("latency", "_time")) or rel is not None for _, m, _, rel in measured)
    conds = [c for c in condition_spans(text, mentions, latency)
             if not any(cs <= c[0] and c[1] <= ce for cs, ce in clauses)]
    owners = _owners(text, conds, mentions)
    inside = [any(s <= v.start and v.end <= e for s, e, _ in conds) for v, _, _, _ in measured]
    # setup numbers are conditions when the sentence measures something; alone they are the finding
    perf = any(not ins and (_is_perf(metric) or rel is not None or v.unit not in _SETUP_NOUNS)
               for (v, metric, _, rel), ins in zip(measured, inside, strict=True))
    skip = _baselines(text, mentions)
    # "Used only for Frob and Quux. Defaults to 500.": the names a setting holds for, not whose the figure is (the
    # document's product's, where it has one)
    scoped, scope = _scoped(text, mentions) if context_entity else (set(), None)
    skip |= scoped
    # "16,000 dimensions stored and 2,000 indexed": a qualifier written right after a value is that value's own
    # ("at least 5x": a bound written right before a value is that value's own, too)
    attached = [next((v.start for (v, _, _, _), ins in zip(measured, inside, strict=True) if not ins and (
        0 <= s - v.end <= 2 or (0 <= v.start - e <= 2 and not text[e:v.start].strip()))), None) for s, e, _ in conds]
    # (an example the sentence gives, and a default it says, before which of its values: read once)
    example, default_said = _EXAMPLE_CUE.search(text), _DEFAULT_WORD.search(text)
    out: list[ObservationIn] = []
    seen: set[tuple[str, str, str, str]] = set()
    entity_at: dict[int, str] = {}
    for (v, metric, unit, rel), ins in zip(measured, inside, strict=True):
        if v.start in follows:  # the claim changed under a condition: its entity, its baseline, that condition
            claim_start, clause = follows[v.start]
            if claim_start in entity_at and (entity_at[claim_start], metric, v.raw, unit) not in seen:
                seen.add((entity_at[claim_start], metric, v.raw, unit))
                out.append(ObservationIn(entity=entity_at[claim_start], metric=metric,
                                         value=sentence[v.start:v.start + len(v.raw)], unit=unit or None,
                                         condition=", ".join(filter(None, [f"{RELATIVE_PREFIX}{rel.baseline}"
                                                                           if rel else "", clause])) or None))
            continue
        if ins and (perf or v.kind in ("year", "date")):
            continue
        own_skip = skip | {i for i, m in enumerate(mentions) if rel and m.canonical == rel.baseline}
        by_subject = _subject_entity(text, v, mentions, own_skip, context_entity)
        if by_subject == "":
            continue  # "It ... 40-50x as fast": the document's own product, which this document does not name
        entity = _named_after(text, v, mentions) or by_subject or _entity(text, v, mentions, preferred,
                                                                           context_entity, own_skip)
        if context_entity and entity != context_entity and any(
                m.canonical == entity and m.surface in qualifiers.get(v.start, "") for m in mentions):
            entity = context_entity  # "5_000 in Frobnode, 15_000 if ...": where the figure holds, not whose it is
        if v.start in paired and paired[v.start] in entity_at:
            entity = entity_at[paired[v.start]]
        if entity is None or (entity, metric, v.raw, unit) in seen or (rel and entity == rel.baseline):
            continue
        if metric in ("born", "died") and _someone_elses_life(text[:v.start], entity):
            continue
        seen.add((entity, metric, v.raw, unit))
        entity_at[v.start] = entity
        parts = [f"{RELATIVE_PREFIX}{rel.baseline}"] if rel else []
        parts += [_census(c) for (s, e, c), owner, att in zip(conds, owners, attached, strict=True)
                  if not (s <= v.start and v.end <= e) and owner in (None, entity) and att in (None, v.start)]
        if metric.endswith("throughput") and (st := _THROUGHPUT_STAT.search(cue_window(text, v)[0])):
            # an average is not a peak; "peak", "max" and "up to" are how a throughput is usually reported, so
            # they stay unstated and a peak compares with a plain figure
            parts.append("average" if st.group(0).lower() in ("average", "mean", "平均") else "")
        if len(parts) == (1 if rel else 0) and (_is_perf(metric) or rel):
            parts += list(context_conditions)  # a measurement's setup is often the sentence before it
        if v.start in olds:
            parts.append(f"changed from {olds[v.start]}")
        if v.start in defaults:
            parts.append(defaults[v.start])
        if v.start in ranged and not any(_LIMIT_KINDS.get(p.lower(), p) in ("minimum", "maximum") for p in parts):
            parts.append(ranged[v.start])
        if v.kind in ("date", "year") and _PLANNED.search(text[max(0, v.start - 50):v.start]):
            parts.append("planned")  # "the next release is planned for March 2027": a plan, not a release that was
        if v.start in qualifiers:
            parts.append(qualifiers[v.start])
        if _SUGGESTED.search(text, 0, v.start) and _SUGGESTED_FOR.match(text, v.end):
            parts.append("suggested")  # "Set to 32 MiB to reduce the memory used": advice for a goal, no default
        if scope and entity == context_entity:
            parts.append(scope)
        if example is not None and example.end() <= v.start and not (default_said and default_said.end() <= v.start):
            parts.append("example")  # "In the following example, a job runs every 7 minutes": no default of it
        if (placed := _PLACED_FOR.search(text, max(0, v.start - 120), v.start)) and \
                entity_key(placed.group(1)) != entity_key(entity) and placed.group(1) not in " ".join(parts):
            parts.append(placed.group(1))  # "the default frob timeout for Blarg is 1 hour": where it holds
        if (paren := re.match(r"\s?[(（]([^()（）]{1,30})[)）]", text[v.end:])) and not re.match(
                r"\s*(?:see|e\.g|i\.e|cf|source|ref|\d+\s*$)", paren.group(1), re.I):
            parts.append(paren.group(1).strip())  # "38 MB/s (mirrored)": a condition of this value only
        parts = [_LIMIT_KINDS.get(p.lower(), p) for p in parts if p]
        out.append(ObservationIn(entity=entity, metric=metric, value=sentence[v.start:v.start + len(v.raw)],
                                 unit=unit or None, condition=", ".join(dict.fromkeys(parts)) or None,
                                 role=role_of(text, v.start, v.end)))
    return out


# --- whose figure: the source's own, one it reports from someone else (and disputes), or a bound -----------

_BOUND_BEFORE = re.compile(
    r"(?:\b(?:up to|as (?:much|many|high|low|fast) as|about|around|roughly|approximately|approx\.?|nearly|almost|"
    r"close to|some|more than|over|above|exceed(?:s|ed|ing)?|beyond|at least|at most|less than|under|below|fewer than|"
    r"no more than|in the (?:ballpark|range|order) of|on the order of|upwards of|as little as)\s+(?:the\s+)?|"
    r"[~≈<>≤≥]\s?|"
    r"(?:约|大约|大概|超过|最多|至少|高达|近|逾|不到|低于|高于)\s?)$", re.I)
_BOUND_AFTER = re.compile(r"^[\w/%.]*\s?(?:\+(?!\d)|or (?:more|less|so|higher|lower|above|better)\b|"
                          r"and (?:up|above|beyond)\b|plus\b|以上|左右|上下|以内|多)", re.I)
_REPORTING = re.compile(
    # ("according to the result_ttl parameter" says what decides a value, not who states it)
    r"\b(?:according to(?!\s+(?:the\s+|its\s+|their\s+|your\s+)?[\w.-]+\s+(?:parameter|setting|option|argument|"
    r"configuration|config|field|variable|value)s?\b)|(?:claim|report|state|say|allege)(?:s|ed)? (?:that\b)?|"
    # ("the 2022 claim that", "the figure of"; not "the number of times a worker may respawn", a count)
    r"(?:the|a|an|their|his|her|its) "
    r"(?:\d{4} )?(?:(?:claim|report|statement|figure|number)s? that|(?:claim|report|statement|figure)s? of)\b|"
    r"(?:I|we|they|he|she) (?:also )?"
    r"(?:saw|heard|read)\b|is said to|reportedly|allegedly|supposedly|purportedly|(?:cited|quoted|published) by)|"
    r"(?<![数依证根])据(?:说|称|悉|报道|介绍)|声称|宣称|号称|有人说|(?:成员|用户|网友)(?:说|称|表示)", re.I)
_DISPUTE = re.compile(r"\b(?:but|however|yet)\b.{0,60}\b(?:not|never|wrong|misleading|outdated|doubt|couldn'?t|"
                      r"can'?t|didn'?t|fails?|failed)\b|\b(?:wrong|misleading|dubious|doubtful|disputed?|incorrect|"
                      r"not (?:true|accurate|reproducible)|could not reproduce|only reaches)\b|并不|不准确|有误|不实",
                      re.I)


def _named_after(text: str, v: Value, mentions: Sequence[Mention]) -> str | None:
    """The entity a value is given for right after it ("605 MB/s for Quillo and 305 MB/s for Brantex"), or the name
    right before "at" it ("QuilloDB dropping to 38k rows/sec and BrantexDB at 50k rows/sec")."""
    m = re.match(r"\s*(?:for|by)\s+(?:the\s+)?", text[v.end:v.end + 24])
    if m is not None:
        at = v.end + m.end()
        return next((x.canonical for x in mentions if x.start == at), None)
    b = re.search(r"\s+at\s+(?:about\s+|around\s+|roughly\s+)?$", text[max(0, v.start - 24):v.start])
    if b is not None:
        end = max(0, v.start - 24) + b.start()
        return next((x.canonical for x in mentions if x.end == end), None)
    return None


# the load or rate a measurement was taken at is its setting, not its result: "at a fixed load of 200 MB/s",
# "measured latency ... at 30 MB/s"
_SETTING_BEFORE = re.compile(r"\b(?:load|rate|traffic|concurrency|request rate|offered load)\s+of\s+$|"
                             r"\b(?:measured|tested|benchmarked)\b[^.;]{0,120}\bat\s+(?:an?\s+|the\s+)?$")
_NAME_AT = re.compile(r"[A-Z][\w.-]*\s+at\s+$")  # "BrantexDB at 50k rows/sec": the name's own figure


def role_of(sentence: str, start: int, end: int) -> ObservationRole:
    """Who stands behind the figure at sentence[start:end]: a bound ("up to 3 GB/s", "more than 500", "~10x",
    "30 or more"); a figure the sentence attributes to someone else ("according to ...", "a community member
    says ...", "the 2022 claim that ... 420 MB/s"), disputed where the sentence disputes it; else its own."""
    before = sentence[max(0, start - 40):start]
    if _REPORTING.search(sentence[:start]):
        return "disputed" if _DISPUTE.search(sentence) else "reported"
    if _BOUND_BEFORE.search(before) or _BOUND_AFTER.match(sentence[end:end + 24]):
        return "bound"
    lead = sentence[max(0, start - 160):start]
    if _SETTING_BEFORE.search(lead) and not _NAME_AT.search(lead):
        return "setting"
    return "own"


def metric_words(sentence: str) -> set[str]:
    """Words naming what the sentence's numbers measure ("590 MB/s" -> throughput), so a question about
    throughput finds a sentence that never writes the word."""
    words: set[str] = set()
    for v in find_values(sentence):
        if got := metric_for(v, *cue_window(sentence, v)):
            words.update(got[0].split("_"))
            words.update({"price": ["cost"], "throughput": ["performance"]}.get(got[0], []))
    return words


def has_statistic(sentence: str) -> bool:
    """A number with a unit, a percentage or a currency (a bare number, port, year or date is not a statistic)."""
    return any(v.kind not in ("port", "bare", "year", "date") for v in find_values(sentence))


_HEADER_UNIT = re.compile(r"[(（\[]\s*([^()（）\[\]]{1,20}?)\s*[)）\]]\s*$|\bin\s+([A-Za-z/%]{1,12})\s*$")


def _cells(row: str) -> list[tuple[int, str]]:
    out, pos = [], 0
    for cell in row.split(" | "):
        lead = len(cell) - len(cell.lstrip())
        out.append((pos + lead, cell.strip()))
        pos += len(cell) + 3
    return out


def table_row_observations(header: Sequence[str], row: str, mentions: Sequence[Mention], preferred: set[str],
                           context_entity: str | None = None) -> list[ObservationIn]:
    """Observations for one table row ("cell | cell | ..."): header cells give metric names and units, the row
    label (first cell) gives the entity, or the metric in a two-column "limit | value" table, or the
    configuration the row was measured under. Raw values are verbatim slices of `row`."""
    cells = _cells(row)
    if len(cells) != len(header) or len(cells) < 2:
        return observations(row, mentions, preferred, context_entity)
    label_start, label = cells[0]
    named = [m for m in mentions if label_start <= m.start < label_start + len(label)]
    label_metric = canonical_metric(label)
    # an unlinked capitalised label without digits under a header that names no quantity is a name ("Town")
    is_name = not named and not label_metric and bool(re.match(r"[A-Z\u4e00-\u9fff]", label)) and not re.search(
        r"\d", label) and not canonical_metric(header[0])
    entity = named[0].canonical if named else label if is_name else context_entity
    condition = None if named or label_metric or is_name else (label or None)
    # cells without a value ("default", "configurable") qualify every value of the row
    notes = [c for _, c in cells[1:] if c and not find_values(c) and len(c) <= 30]
    out: list[ObservationIn] = []
    for (start, cell), head in zip(cells[1:], header[1:], strict=True):
        cell_mentions = [m._replace(start=m.start - start, end=m.end - start) for m in mentions
                         if start <= m.start < start + len(cell)]
        head_unit = _HEADER_UNIT.search(head)
        unit_hint = (head_unit.group(1) or head_unit.group(2)).strip() if head_unit else ""
        for v in find_values(cell):
            metric = (canonical_metric(head) if len(cells) > 2 or not label_metric else label_metric) or label_metric
            unit = v.unit
            if v.kind in ("year", "date") and metric in _EVENTS:
                unit = v.kind
            elif v.kind in ("bare", "year"):
                if not metric:
                    continue  # a number under a header that names no quantity (an id, a rank)
                unit = unit_hint or _UNIT_OF.get(metric, "")
            elif metric is None or v.kind == "date":
                got = metric_for(v, f"{label} {head}:", cell[v.end:])
                if got is None:
                    continue
                metric, unit = got
            who = cell_mentions[0].canonical if cell_mentions and not entity else entity
            if who is None:
                continue
            tail = cell[v.end:].strip(" ()（）")
            parts = [p for p in (condition, tail if 0 < len(tail) < 25 and not canonical_metric(tail) else None,
                                 *notes) if p]
            out.append(ObservationIn(entity=who, metric=metric, value=row[start + v.start:start + v.start + len(v.raw)],
                                     unit=unit or None, condition=", ".join(parts) or None))
    return out


# --- a labelled line: "3.13.0 beta 1: Wednesday, 2024-05-08", "End of life: April 2029", "Page size: 64 KiB" -------

# (or a configuration listing's "line-length = 88": a key, then "=")
LABEL_LINE = re.compile(r"^\s*(?:(?P<label>[^:：\n]{2,60}?)\s*[:：]|(?P<key>[A-Za-z_][\w.-]{1,60})\s*=)\s+"
                        r"(?P<rest>[^\n]{1,90})$")
_LABEL_VERSION = re.compile(r"^v?(\d+(?:\.\d+){1,3}(?:\.x)?)\s+")
# what may stand beside the one value of a labelled line without making it a sentence: a weekday, a note in
# parentheses, a word of status
_LINE_EXTRAS = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\([^()]{0,40}\)|\b(?:expected|planned|"
                          r"tentative|estimated|approx(?:imately)?|about|around|roughly|scheduled|tbd)\b|[,;.~*_]",
                          re.I)


def label_line(sentence: str, mentions: Sequence[Mention], context_entity: str | None,
               term: str | None = None) -> list[ObservationIn] | None:
    """A line that is a label and one value, as schedules, fact sheets and definition lists write them: the label
    names what the value is ("3.13.0 beta 1", "End of life"), the value follows the colon alone (a weekday, a
    status word or a note in parentheses beside it). Its entity is a name the label opens with, else the
    document's own subject; a version opening the label is the release it is of (a condition). None when the
    sentence is not such a line (the prose reader reads it). `term`: the keyword the entry defines, which a
    reference repeats beside its value ("default: IdleWaitTimeout 5")."""
    m = LABEL_LINE.match(sentence)
    label_at = "label" if m is not None and m.group("label") is not None else "key"
    bare_version = m is not None and re.fullmatch(r"\s*v?\d+(?:\.\d+){1,3}\s*", m.group(label_at)) is not None
    if m is None or not (bare_version or re.search(r"[A-Za-z\u4e00-\u9fff]", m.group(label_at))):
        return None
    rest_at = m.start("rest")
    values = find_values(m.group("rest"))
    # (or one value for each of several cases: "Default: 2048 (libfrob) / 512 (minifrob)", each its case's)
    cases = _value_cases(m.group("rest"), values) if len(values) > 1 else None
    if len(values) != 1 and not cases:
        return None
    v = values[0]
    left = _LINE_EXTRAS.sub(" ", m.group("rest")[:v.start] + " " + m.group("rest")[v.end:])
    if term:
        left = re.sub(rf"(?<![\w.-]){re.escape(term)}(?![\w.-])", " ", left, flags=re.I)
    if len(left.split()) > 1 and not cases:
        return None  # more than a value: a sentence after a colon, read as prose
    label = m.group(label_at).strip(" *_-")
    at = m.start(label_at) + m.group(label_at).find(label)
    named = next((x for x in mentions if x.start == at), None)
    entity = named.canonical if named else context_entity
    if not entity:
        return None
    if named:
        label = label[named.end - at:].strip(" ,-")
    condition = None
    if bare_version:  # "3.13.16: Tuesday, 2026-10-06": that release's date
        condition, label = label.lstrip("v"), "release"
    elif ver := _LABEL_VERSION.match(label):
        condition, label = ver.group(1), label[ver.end():]
    metric = re.sub(r"[^0-9a-z\u4e00-\u9fff]+", "_", label.lower()).strip("_")
    if not metric:
        return None
    if v.kind == "year" and (term or label_at == "key" or re.fullmatch(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+", label)) \
            and v.raw.isdigit() and not re.search(
            r"date|year|release|since|until|end", metric):
        unit = ""  # "default: MaxFreeSlabs 2048", "max-lines = 1000": a setting's four-digit value, no year
    elif v.kind in ("date", "year"):
        unit = "date" if v.kind == "date" else "year"
        metric = metric if metric.endswith("date") else f"{metric}_date"
    else:
        unit = v.unit or ""
    role: ObservationRole = "bound" if re.search(r"\b(?:approx(?:imately)?|about|around|roughly|up to)\b|~",
                                                  m.group("rest"), re.I) else "own"
    if cases:
        return [ObservationIn(entity=entity, metric=metric, value=c.raw, unit=(c.unit or None) if unit else None,
                              condition=", ".join(filter(None, [condition, case])), role=role) for c, case in cases]
    raw = sentence[rest_at + v.start:rest_at + v.start + len(v.raw)]
    return [ObservationIn(entity=entity, metric=metric, value=raw, unit=unit or None, condition=condition, role=role)]


# one value and its case in parentheses, of a list of them: "2048 (libfrob)", in "2048 (libfrob) / 512 (minifrob)"
_VALUE_CASE = re.compile(r"\s*\(([^()]{1,40})\)\s*(?:(?:/|;|,|\bor\b)\s*|\.?\s*$)")


def _value_cases(rest: str, values: Sequence[Value]) -> list[tuple[Value, str]] | None:
    """The values of a labelled line that gives one value for each of several cases, each followed by its case in
    parentheses and the next after a separator: [(2048, "libfrob"), (512, "minifrob")]; None otherwise."""
    pos = 0
    out: list[tuple[Value, str]] = []
    for v in values:
        if rest[pos:v.start].strip() or not (case := _VALUE_CASE.match(rest, v.end)):
            return None
        out.append((v, case.group(1).strip()))
        pos = case.end()
    return out if pos >= len(rest.rstrip()) else None
