"""Canonical metric names: the words of a question or a document -> one key per quantity. Pure, cheap, no model.

The same quantity written two ways ("ingestion rate", "rows per second inserted", "写入吞吐") gets one key, so
observations from two documents meet in the graph; different quantities get different keys ("p99 latency"
is not "latency", "max columns" is not "columns"). Question analysis calls `canonical_metric` on the words a
question asks about; the extractor calls `metric_mentions` on a value's clause.

Keys are lower-case snake case. A key may carry a statistic prefix (`p99_latency`, `avg_latency`,
`max_series`); `metric_family` strips it so a question about "latency" can still find `p99_latency`.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache
from typing import NamedTuple

from openresearch.agents.plan.vocabulary import ordinary_word

# (canonical key, pattern). Order matters only between patterns that match at the same place with the same
# length; otherwise the earliest, then the longest match wins ("query throughput" beats "throughput").
_RULES: tuple[tuple[str, str], ...] = (
    # --- people, places, things (factoid look-ups) ---------------------------------------------------
    ("population", r"\bpopulations?\b|\binhabitants\b|\bresidents\b|\bpopulous\b|人口|居民"),
    ("households", r"\bhouseholds?\b|户数|家庭户"),
    ("families", r"\bfamilies\b"),
    ("housing_units", r"\bhousing units?\b|住房单元"),
    ("population_density", r"\bpopulation density\b|人口密度"),
    ("area", r"\b(?:total |land )?area\b|面积"),
    ("elevation", r"\belevation\b|\baltitude\b|海拔"),
    ("height", r"\bheight\b|\btall\b|高度"),
    ("length", r"\blength\b|长度"),
    ("capacity", r"\bseating capacity\b|\bseats\b|\bcapacity\b(?! planning)|容纳|座位"),
    ("employees", r"\bemployees\b|\bstaff\b|\bworkforce\b|员工"),
    ("built", r"\b(?:year |date )?built\b|\bbuilt in\b|\bcompleted\b|\bcompletion\b|\bconstructed\b|"
              r"\bconstruction\b|\berected\b|\byear built\b|建成|建造|竣工|修建|落成"),
    ("opened", r"\bopened\b|\bopening date\b|\binaugurated\b|\bbegan (?:operating|operations)\b|"
               r"\bcommenced operations?\b|开业|启用|通车"),
    ("born", r"\bborn\b|\bdate of birth\b|\bbirth ?date\b|\bbirthday\b|\bbirth\b|出生|生于|诞生"),
    ("died", r"\bdied\b|\bdate of death\b|\bdeath\b|逝世|去世|卒于"),
    ("founded", r"\bfounded\b|\bfounding\b|\bestablished\b|\bestablishment\b|\bformed\b|\bincorporated\b|"
                r"\bset up\b|\blaunched\b|\bchartered\b|\bcreated\b|\binception\b|成立|创立|创建|创办"),
    ("released", r"\breleased?\b|\brelease date\b|\bpremiered?\b|\bdebut(?:ed|s)?\b|"
                 r"\b(?:first )?(?:aired|transmitted)\b|"
                 r"\bfirst (?:broadcast|shown|screened)\b|\boriginal release\b|发布|发行|上映|首播"),
    ("published", r"\bpublished\b|\bpublication date\b|出版"),
    ("age", r"\bage\b|\baged\b|年龄|岁"),
    # --- performance ------------------------------------------------------------------------------
    ("ingest_throughput", r"\bingest(?:ion|ed|ing)?(?: throughput| rate| speed| performance)?\b|"
                          r"\bwrite (?:throughput|speed|rate|performance)s?\b|\bwrites per second\b|"
                          r"\bwrite speeds?\b|\binsert(?:ion)? (?:rate|speed|throughput|performance)\b|"
                          r"\binserts? per second\b|\bload(?:ing)? (?:rate|speed|throughput)\b|"
                          r"写入吞吐|写入速度|写入性能|写入速率|插入速度|插入性能|写入能力"),
    ("query_throughput", r"\bquer(?:y|ies) throughput\b|\bqueries per second\b|\bQPS\b|\bquery rate\b|"
                         r"\bsearch throughput\b|\brequests per second\b|查询吞吐|每秒查询"),
    ("throughput", r"\bthroughput\b|\brows? per second\b|\brows/s(?:ec)?\b|\bmessages per second\b|"
                   r"\bsamples per second\b|\bsamples/s(?:ec)?\b|\bdata points per second\b|\bops/s\b|"
                   r"\boperations per second\b|\bTPS\b|吞吐量?|每秒.{0,4}(?:条|行|记录|点)"),
    ("p_latency", r"\bp\s?(?:50|75|90|95|99|999|99\.9)\s?(?:latency|response time)?\b|"
                  r"\b(?:50|90|95|99)(?:th|\.9th) percentile(?: latency)?\b"),
    ("avg_latency", r"\b(?:average|mean|avg\.?) (?:query )?(?:latency|response time)\b|平均(?:查询)?(?:延迟|时延)"),
    ("max_latency", r"\b(?:max(?:imum)?|worst[- ]case|tail) latency\b|最大延迟"),
    ("median_latency", r"\bmedian (?:latency|response time)\b|延迟中位数"),
    ("query_latency", r"\bquery (?:latency|response time|time|speed|performance)\b|\bquery execution time\b|"
                      r"查询(?:延迟|时延|耗时|响应时间|速度|性能)"),
    ("latency", r"\blatency\b|\blatencies\b|\bresponse times?\b|延迟|时延|响应时间"),
    ("speedup", r"\bspeed-?ups?\b|\bfaster\b|快\s?\d*\s?倍|更快"),
    ("recall", r"\brecall(?:@\d+)?\b|召回率?"),
    ("precision", r"\bprecision\b|精确率|准确率"),
    ("accuracy", r"\baccuracy\b|准确度"),
    # --- limits and capacity --------------------------------------------------------------------------
    ("max_dimensions", r"\b(?:max(?:imum)? )?(?:vector )?dimensions?\b|\bdimensionality\b|\bdims\b|最大维度|维度|维数"),
    ("max_series", r"\bseries cardinality\b|\bcardinality\b|\b(?:max(?:imum)? )?(?:number of )?(?:active )?"
                   r"time series(?: per database)?\b|\b(?:max(?:imum)?|active|unique) series\b|\bnumber of series\b|"
                   r"\bseries per (?:database|tenant|node)\b|\bmax-series\b|序列基数|时间线(?:数量?|上限)?|序列数"),
    ("max_columns", r"\b(?:max(?:imum)? )?(?:number of )?columns?(?: per table)?\b|最大列数|列数(?:上限)?|列上限|"
                    r"表结构"),
    ("max_tables", r"\b(?:max(?:imum)? )?(?:number of )?tables? per database\b|最大表数|表数量?上限"),
    ("max_row_size", r"\b(?:max(?:imum)? )?row (?:size|length)\b|最大行长度?|行长度?"),
    ("max_databases", r"\b(?:max(?:imum)? )?(?:number of )?databases\b|数据库数量?上限"),
    ("max_tags", r"\b(?:max(?:imum)? )?(?:number of )?tags\b|标签数"),
    ("bytes_per_sample", r"\b(?:bytes?|storage|disk space) per (?:sample|data ?point|point|value)\b|"
                         r"\bbytes/sample\b|每个?(?:数据)?点.{0,4}字节"),
    ("compression_ratio", r"\bcompression(?: ratio| rate)?\b|\bcompress(?:es|ed)?\b|压缩比|压缩率|压缩"),
    ("raw_data_size", r"\braw data (?:size|volume)\b|\bvolume of raw data\b|原始数据量|原始数据总量"),
    ("storage", r"\bstorage(?: space| size| footprint| usage)?\b|\bdisk (?:space|usage|footprint)\b|"
                r"存储空间|存储容量|磁盘空间|存储"),
    ("memory", r"\bmemory(?: usage| footprint)?\b|\bRAM\b|内存"),
    ("retention", r"\bretention(?: period)?\b|保留(?:时间|期)|数据保留"),
    ("max_message_size", r"\bmax(?:imum)? message size\b|最大消息"),
    ("message_size", r"\bmessage size\b|消息大小"),
    ("partitions", r"\bpartitions?\b|分区"),
    ("cluster_size", r"\bcluster size\b|\bnumber of nodes\b|节点数"),
    ("availability", r"\bavailability\b|\buptime\b|\bSLA\b|可用性"),
    ("error_rate", r"\berror rate\b|错误率|失败率"),
    ("cpu_utilisation", r"\bCPU (?:usage|utili[sz]ation|load)\b|CPU\s?(?:使用率|利用率)"),
    ("price", r"\bprice\b|\bpricing\b|\bcosts?\b|\bfee\b|价格|成本|费用|售价"),
    ("market_share", r"\bmarket share\b|市场份额|市占率"),
    ("revenue", r"\brevenue\b|\bsales\b|营收|收入"),
)
_COMPILED = tuple((key, re.compile(p, re.I)) for key, p in _RULES)
_PCT = re.compile(r"p\s?(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)(?:th)? percentile", re.I)
_STAT_PREFIXES = ("p50_", "p75_", "p90_", "p95_", "p99_", "p999_", "avg_", "max_", "min_", "median_", "query_",
                  "ingest_")


class MetricMention(NamedTuple):
    start: int
    end: int
    key: str


def _key(key: str, text: str) -> str:
    if key == "p_latency":  # "p99", "99th percentile" -> p99_latency
        m = _PCT.search(text)
        return f"p{(m.group(1) or m.group(2)).replace('.', '')}_latency" if m else "latency"
    return key


@lru_cache(maxsize=8192)
def metric_mentions(text: str) -> tuple[MetricMention, ...]:
    """Non-overlapping metric words in `text`, in order: earliest first, the longest where two start together."""
    found = [(m.start(), -(m.end() - m.start()), i, m) for i, (_, rx) in enumerate(_COMPILED)
             for m in rx.finditer(text)]
    found.sort(key=lambda f: f[:3])
    out: list[MetricMention] = []
    for start, _, i, m in found:
        if out and start < out[-1].end:
            continue
        out.append(MetricMention(start, m.end(), _key(_RULES[i][0], m.group(0))))
    return tuple(out)


@lru_cache(maxsize=8192)
def canonical_metric(phrase: str) -> str | None:
    """The canonical key for the first metric a phrase names ("maximum vector dimensions" -> max_dimensions,
    "人口" -> population, "QPS" -> query_throughput); None when it names none ("What is X")."""
    found = metric_mentions(phrase)
    if found and found[0].key in EVENT_KEYS and _HEAD_AFTER.match(phrase, found[0].end):
        return None  # "socket-establishment timeout" is a timeout, not when something was established
    return found[0].key if found else None


# the keys that are a day something happened on
EVENT_KEYS = frozenset({"born", "died", "built", "opened", "founded", "released", "published"})
# a quantity's own noun after a word an event's rule knows: that word only says which one it is
_HEAD_AFTER = re.compile(r"[\s-]+(?:timeouts?|limits?|size|rate|count|interval|delay|duration|port|"
                         r"threshold|deadline|window|budget|cap|ttl)\b(?!-)", re.I)


# the words English documents state a quantity in, where its key's own words are not them
_QUERY_WORDS = {"ingest_throughput": "ingestion rows per second", "query_throughput": "queries per second",
                "max_series": "series cardinality", "max_columns": "columns per table",
                "max_tables": "tables per database", "max_dimensions": "maximum dimensions", "storage": "storage space",
                "max_row_size": "maximum row size", "max_databases": "maximum databases", "max_tags": "maximum tags"}
_KEYS = frozenset(k for k, _ in _RULES)


def metric_query_words(key: str) -> str | None:
    """English search words for a canonical metric key ("max_series" -> "series cardinality"); None for a key
    that is no known quantity (a slug of a question's own words)."""
    if key in _QUERY_WORDS:
        return _QUERY_WORDS[key]
    if key in _KEYS or any(key.startswith(p) and key[len(p):] in _KEYS for p in _STAT_PREFIXES) or \
            re.fullmatch(r"p\d{2,3}_latency", key):
        return key.replace("_", " ")
    return None


def metric_family(key: str) -> str:
    """The quantity without its statistic or scope: p99_latency -> latency, ingest_throughput -> throughput.
    Limits keep their prefix (max_columns is its own quantity, there is no bare `columns`)."""
    for prefix in _STAT_PREFIXES:
        rest = key.removeprefix(prefix)
        if rest != key and rest in ("latency", "throughput", "latency_ms"):
            return rest
    return key


# an institution "opened" when it was established: close enough to answer a question, never merged in a key
_ANSWERS_FOR = {"opened": "founded"}


# quantities a question about one of them is answered by (never merged in a key): what a sample costs on disk is
# a question about storage, and a compression ratio answers it too
_KIN = {"bytes_per_sample": "storage", "compression_ratio": "storage", "compression_saving": "storage",
        "disk_usage": "storage", "raw_data_size": "storage", "storage_required": "storage"}
_COMPRESSION = frozenset({"compression_ratio", "compression_saving"})
_RELATIVE = re.compile(r"_(?:ratio|reduction|increase|saving|change)$")
_SPEED = frozenset({"throughput", "latency"})
_DIRECTION = re.compile(r"^(?:ingest|query|read|write)_")


def _root(key: str) -> str:
    """storage_ratio -> storage, ingest_throughput -> throughput, bytes_per_sample -> storage."""
    family = metric_family(key if key in _KIN else _RELATIVE.sub("", key))
    return _KIN.get(family, family)


def same_family(a: str, b: str) -> bool:
    """Whether an observation's key answers a question's key: the same quantity up to statistic or scope (a
    question's "latency" vs p99_latency), an event that dates the same thing ("established" vs "opened"), a
    relative claim about it ("7x less storage than X" is storage_ratio "vs X"; "1.7x faster" is a speedup of a
    throughput or a latency), or a kindred quantity (bytes per sample for storage). For answering only: keys
    and conflicts stay exact."""
    fa, fb = metric_family(a), metric_family(b)
    if (pa := _DIRECTION.match(a)) and (pb := _DIRECTION.match(b)) and pa.group(0) != pb.group(0):
        return False  # a query rate does not answer a question about ingestion, nor a read latency one about writes
    if fa == fb or _ANSWERS_FOR.get(fa, fa) == _ANSWERS_FOR.get(fb, fb):
        return True
    ra, rb = _root(a), _root(b)
    if a in _KIN and b in _KIN:
        # two kindred quantities answer a question about storage, not each other: a raw data size is no
        # compression ratio, a compression ratio no size per sample; a ratio and a saving are one quantity
        return {fa, fb} <= _COMPRESSION
    if b in _KIN and a == ra:
        return False  # a plain storage figure ("8.9P 空间") answers no question about a ratio or a size per sample
    if ra == rb:
        return True
    return "speedup" in (a, b) and bool({ra, rb} & _SPEED)


# --- a metric no list names, matched by its words and its unit --------------------------------------------

_FILLER = frozenset({"the", "and", "for", "per", "of", "in", "on", "with", "without", "to", "a", "an", "all", "total",
                     "value", "values", "number", "figure", "result", "results", "benchmark", "test", "score"})
# what kind of unit a question's word asks for: a word of a time asks for a time, of a speed for a rate, ...
_ASKS_FOR = (("time", re.compile(r"^(?:time|times|latenc|duration|startup|start|build|hmr|wall|elapsed|delay|interval|"
                                  r"cadence|period|phase|lifetime|window)")),
             ("rate", re.compile(r"^(?:throughput|speed|rate|bandwidth|qps|tps|ops|per_second)")),
             ("size", re.compile(r"^(?:size|memory|disk|storage|footprint|bytes|rss|bundle|output)")),
             # how many times something is done: a count, never a time ("retried for up to 30 days")
             # (and how many things run at once: never a size or a time)
             ("count", re.compile(r"^(?:retries|attempts|tries|restarts|redeliveries|concurrency|parallelism)$")))
# a metric of how often a thing recurs, whose time is a period (the other side of its rate)
_PERIODIC = re.compile(r"(?:^|_)(?:interval|period|rate|frequency|cadence)(?:_|$)")
# an attribute that counts things: "number of ...", or a plural noun at its end ("total connections", "rows per
# network round trip" counts rows; not a unit, "seconds", nor a word that only ends in s, "status", "class")
_COUNTED = re.compile(r"^(?:number|count) of\b|\b(?!(?:seconds|minutes|hours|days|weeks|months|years|bytes|times|"
                      r"series|units|limits|defaults|settings|values|options|sizes)\b)[a-z]{3,}[^sui\W]s(?:$|\s+per\b)")
# a name that says it counts ("default_retry_count", "connection_pool_maximum_number"), unless a unit follows
_COUNT_WORD = re.compile(r"(?:^|[_\s])(?:count|number)(?:$|[_\s])"
                         r"(?!(?:of[_\s])?(?:seconds|minutes|hours|days|ms|bytes))")
_UNIT_KINDS = (("time", re.compile(r"^(?:ns|µs|μs|us|ms|s|sec|secs?|seconds?|min|mins?|minutes?|h|hours?|ns/op|"
                                   r"us/op|ms/op|days?|weeks?|months?|years|个月|天)$", re.I)),
               ("rate", re.compile(r"/s$|/sec$|per second|ps$|^(?:qps|tps)$", re.I)),
               ("size", re.compile(r"^(?:[kmgtp]?i?b|bytes?|kb|mb|gb|tb|b/op|bytes/op)$", re.I)))


_BOUND_FORM = re.compile(r"(?:max|min)(?:imum|imal|ima|size|len|length|count|items|age)?")


def _stems(key: str, synonyms: bool = True) -> set[str]:
    words = re.findall(r"[a-z]+|[\u4e00-\u9fff]+", key.lower().replace("_", " "))
    # a short word and the next one are also the compound they are written as elsewhere ("bug fix", "bugfix")
    joined = {(a + b)[:4] for a, b in itertools.pairwise(words)
              if len(a) < 4 and a not in _FILLER and a.isascii() and b.isascii()}
    plain = {w[:4] for w in words if w not in _FILLER and len(w) >= 3} | joined
    # (a bound written into its quantity's word is that quantity too: "maxsize" is a size, "maxlen" a length)
    plain |= {w[3:][:4] for w in words if re.fullmatch(r"(?:max|min)(?:size|len|length|count|items|age)", w)}
    # (and a bound is one word however it is written: "max" of "max_size" is "maximum" of "maximum cache size")
    plain |= {w[:3] for w in words if _BOUND_FORM.fullmatch(w)}
    if not synonyms:
        return plain
    return plain | {syn for w in words for syn in _SAME_AS.get(w, ())} | \
        {syn for pair in itertools.pairwise(words) for syn in _SAME_AS.get(" ".join(pair), ())}


# a word that a metric's name writes for what other words say (synonyms only: they add a match, never decide one):
# a time to live is how long before it expires, a backoff the delay before the next try
# (a time limit is a timeout; how long results are kept is when they expire)
_SAME_AS = {"ttl": ("expi", "life"), "backoff": ("dela",), "timeout": ("time limit",), "timeouts": ("time limit",),
            "time limit": ("time limit",), "expiry": ("rete",), "expires": ("rete",), "expire": ("rete",),
            "retention": ("expi",),
            # (how many workers or connections run at once is how much concurrency there is)
            "workers": ("conc",), "connections": ("conc",)}


def _words(key: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", key.lower().replace("_", " ")) if w not in _FILLER and len(w) >= 3]


def _compound(a: str, b: str) -> bool:
    """Whether one word is the other with a word of its own after it ("timeout" is "time" + "out"): two words, not
    two forms of one ("timing", "times", "startup" stay forms)."""
    short, long = sorted((a, b), key=len)
    rest = long[len(short):]
    return long.startswith(short) and len(rest) >= 3 and rest not in _SUFFIXES and ordinary_word(rest) and \
        ordinary_word(short)


# endings that make another form of a word, not a word of their own ("connection" is "connect" + "ion")
_SUFFIXES = frozenset({"ion", "ions", "ing", "ings", "ers", "ive", "ity", "ment", "ments", "able", "ation", "ations",
                       "ally", "ness", "ure", "ures", "ors"})


# the kinds of time a name ends with: one never answers another ("retry_duration", how long retrying goes on, is no
# "retry delay"), a bare "time" any; each group is one kind
_TIME_HEADS = ({"duration"}, {"delay", "backoff", "interval", "wait"}, {"latency"}, {"timeout", "timeouts"},
               {"lifetime", "life", "ttl", "expiry", "retention"}, {"period", "window"})


def _other_time(metric: str, wanted: str) -> bool:
    """Whether two names end with different kinds of time ("retry_duration" and "retry delay")."""
    a, b = _words(metric), _words(wanted)
    if not a or not b:
        return False
    ka = next((i for i, g in enumerate(_TIME_HEADS) if a[-1] in g), None)
    # (a question's "duration" is any time: "how long is an idle connection kept open" asks a timeout)
    kb = next((i for i, g in enumerate(_TIME_HEADS) if b[-1] in g and b[-1] != "duration"), None)
    return ka is not None and kb is not None and ka != kb


def _by_synonym_only(metric: str, wanted: str) -> bool:
    """Whether two names meet only through a synonym, and the metric names something more that the question does
    not ("visibility_timeout" for "job run time limit": a timeout, of something else)."""
    if _shared(metric, wanted, synonyms=False):
        return False
    asked = {w[:4] for w in _words(wanted)}
    more = {w[:4] for w in _words(metric) if w not in _SAME_AS} - asked - _BOUND_STEMS
    # (a cap the question does not ask is more too: "max_workers" is no answer to "how much concurrency"; a floor
    # may be where a thing starts, "min_backoff" for "retry delay")
    return bool(more) or (bound_of(metric) == "high" and bound_of(wanted) is None)


def _shared(metric: str, wanted: str, synonyms: bool = True) -> set[str]:
    """The stems two metric names share, leaving out a stem only a compound shares with a word ("timeout" and
    "time": the time one waits is no time something took)."""
    a, b = _words(metric), _words(wanted)

    def only_compounds(stem: str) -> bool:
        xs, ys = [x for x in a if x[:4] == stem], [y for y in b if y[:4] == stem]
        # (a compound the other name writes apart is the same word: "keepalive" and "keep alive")
        return bool(xs and ys) and all(_compound(x, y) and not _apart(x, y) for x in xs for y in ys)

    def _apart(x: str, y: str) -> bool:
        short, long = sorted((x, y), key=len)
        return long[len(short):] in (*a, *b)

    return {stem for stem in _stems(metric, synonyms) & _stems(wanted, synonyms) if not only_compounds(stem)}


def shares_words(metric: str, wanted: str) -> bool:
    """Whether a source's own metric name and an asked one share a content word ("bugfix", "bug-fix phase")."""
    return bool(_shared(metric, wanted))


def names_what_was_measured(metric: str, wanted: str) -> bool:
    """Whether a metric shares with an asked one a word beyond the kind of quantity: "install_time" says the
    "install" of "dependency install time", "add_time" only its "time"."""
    return bool(_shared(metric, wanted) - _QUANTITY_STEMS)


def only_the_kind_of_quantity(metric: str, wanted: str) -> bool:
    """Whether a metric shares with an asked one nothing but the kind of quantity, and names something else:
    "add_time" for "dependency install time"."""
    shared = _shared(metric, wanted)
    return bool(shared) and not shared - _QUANTITY_STEMS and bool({w[:4] for w in _words(metric)} - _QUANTITY_STEMS)


# words that name the kind of quantity, not what was done: "add_time" and "install time" share only "time"
QUANTITY_WORDS = frozenset({"time", "times", "duration", "latency", "latencies", "speed", "rate", "throughput", "size",
                             "memory", "usage", "use", "count", "default", "max", "min", "mean", "median", "average",
                             "peak", "ratio", "percentage", "limit"})
_QUANTITY_STEMS = frozenset(w[:4] for w in QUANTITY_WORDS)


# the words of a bound or a statistic, which say of which quantity nothing
_BOUND_STEMS = frozenset(w[:4] for w in ("max", "maximum", "min", "minimum", "default", "mean", "median", "average",
                                         "peak"))


def _other_head(metric: str, wanted: str, shared: set[str]) -> bool:
    """Whether two names of two words or more share only what their quantities are of, not the quantity itself
    ("zorb_prefetch_factor" for "zorb concurrency", "frob_protocol" for "frob retries": the zorb's, the
    frob's, but a factor is no concurrency). A synonym of a head counts as the head ("frob_ttl" for "frob expiry
    time")."""
    def named(key: str) -> list[str]:
        return [w for w in _words(key) if w not in ("default", "defaults") and w not in BOUND_WORDS]

    a, b = named(metric), named(wanted)
    # (a head that names only the kind of quantity, "duration", "size", leaves the rest to say which)
    if len(a) < 2 or len(b) < 2 or {a[-1], b[-1]} & QUANTITY_WORDS:
        return False
    heads = _stems(a[-1]) | _stems(b[-1])
    return not shared & heads


def _names_more(key: str) -> bool:
    """Whether a metric's name says more than the kind of quantity ("max_message_size": a message's)."""
    return bool({w[:4] for w in _words(key)} - _QUANTITY_STEMS)


def says_what_is_measured(metric: str, attribute: str, said: str) -> bool:
    """Whether a figure can answer an attribute that names what its quantity is of ("connection pool size"): its
    words (`said`: its quote and condition) say one of the attribute's own words, or its metric names nothing else
    than the kind of quantity the attribute shares with it. A "max_message_size" whose quote says no pool answers
    nothing about one."""
    own = {w[:4] for w in _words(attribute)} - _QUANTITY_STEMS
    if not own or not _names_more(metric) or own & _stems(said):
        return True
    # the size of something else that shares only the kind of quantity ("max_message_size" for a pool's size);
    # "total_timeout" names nothing else, and stays an answer to "request timeout"
    if _names_more(metric) and not _shared(metric, attribute) - _QUANTITY_STEMS:
        return False
    # one quantity of two different things: "poll_delay" (a polling delay) for "escalation delay", where neither the
    # figure's name nor its words say what the attribute's delay is of
    return not _other_modifier(metric, attribute)


def _other_modifier(metric: str, attribute: str) -> bool:
    """Whether two names share their head ("delay") and each says in one word what it is of, a word the other does
    not have ("poll_delay", "escalate delay")."""
    a = [w for w in _words(metric) if w != "default" and w not in BOUND_WORDS]
    b = [w for w in _words(attribute) if w != "default" and w not in BOUND_WORDS]
    if len(a) < 2 or len(b) < 2 or not _stems(a[-1]) & _stems(b[-1]):
        return False
    of_a, of_b = {w[:4] for w in a[:-1]} - _QUANTITY_STEMS, {w[:4] for w in b[:-1]} - _QUANTITY_STEMS
    # (one word each: "actor_time_limit" may well be the "per-task execution time limit" of a product that calls its
    # tasks actors)
    return len(of_a) == len(of_b) == 1 and not of_a & of_b


def defines_attribute(metric: str, said: str, attribute: str) -> bool:
    """Whether a setting's own key ("itersize", named by the entry it heads) answers an attribute a question words by
    its meaning ("rows per network round trip"): the key names no known quantity, and the entry's words (`said`: its
    quote) say every content word of the attribute, two or more (a compound written as one word or two: "roundtrip",
    "round trip")."""
    if canonical_metric(metric) is not None or not re.fullmatch(r"[a-z][a-z0-9_]*", metric):
        return False
    words = [w for w in _words(attribute) if w[:4] not in _BOUND_STEMS]
    if len(words) < 2:
        return False
    stems = _stems(said)
    written = set(re.findall(r"[a-z]+", said.lower()))
    joined = {i for i, (a, b) in enumerate(itertools.pairwise(words)) if a + b in written}
    return all(w[:4] in stems or i in joined or i - 1 in joined for i, w in enumerate(words))


def asks_a_release(attribute: str) -> bool:
    """Whether an attribute asks for a release or a version ("Frob 3.7 support dropped", "default max retries
    changed", "minimum Frob version"), which a version alone answers; "total timeout" asks for a value."""
    words = set(re.findall(r"[a-z]+", attribute.lower().replace("_", " ")))
    return bool(words & (_CHANGE_WORDS | _RELEASE_WORDS))


_RELEASE_WORDS = frozenset({"version", "versions", "release", "releases", "dropped", "support", "supported", "since",
                            "available"})


def answers_by_operation(unit: str | None, condition: str | None, wanted: str) -> bool:
    """Whether a speed or a time whose condition names an operation answers a question's attribute that names it
    ("decode performance", "编码 encode" by "195.10 MB/s" under "Decoder Generic"): the operation is the attribute's
    word, the figure one of performance."""
    kind = unit_kind(unit)
    if kind not in ("time", "rate") or not condition:
        return False
    asked = {k for k, rx in _ASKS_FOR for w in re.split(r"[_\s]+", wanted.lower()) if rx.match(w)}
    if not asked and _COUNT_WORD.search(wanted.lower()):
        return False  # "retry count" is never answered by a time
    # (a condition's "default" names no operation: every default would answer every attribute)
    return (not asked or kind in asked) and bool((_stems(wanted) & _stems(condition)) - _BOUND_STEMS)


def word_stems(text: str) -> set[str]:
    """The content words of a name or a phrase, cut to their first four letters ("parsing" ~ "parse")."""
    return _stems(text)


def unit_kind(unit: str | None) -> str | None:
    """time, rate or size for a unit that is one; None for a count, a ratio, a date or no unit."""
    u = (unit or "").strip()
    return next((kind for kind, rx in _UNIT_KINDS if rx.search(u)), None)


# what asks for a bound of a quantity rather than naming one: the lowest ("oldest version", "minimum") or highest
LOW_WORDS = frozenset({"oldest", "minimum", "min", "lowest", "earliest", "least"})
HIGH_WORDS = frozenset({"newest", "latest", "maximum", "max", "highest", "most"})
BOUND_WORDS = LOW_WORDS | HIGH_WORDS | {"supported", "required", "compatible", "current"}
# what a release did to a setting ("frob-limit added", "default max retries changed"): the release answers it
_CHANGE_WORDS = frozenset({"changed", "raised", "lowered", "increased", "decreased", "introduced", "added", "removed",
                           "deprecated"})


def bound_of(name: str) -> str | None:
    """'low' for a name that says a lowest bound ("cache_min_ttl", "minimum TTL"), 'high' for a highest, else None
    (and None for one that says both)."""
    words = set(re.findall(r"[a-z]+", name.lower()))
    low, high = bool(words & (LOW_WORDS - {"oldest", "earliest"})), bool(words & (HIGH_WORDS - {"newest", "latest"}))
    return "low" if low and not high else "high" if high and not low else None


def _opposite_bounds(metric: str, wanted: str) -> bool:
    """Whether one name says a lowest bound and the other a highest ("cache_min_ttl", "maximum TTL")."""
    return {bound_of(metric), bound_of(wanted)} == {"low", "high"}


def answers_metric(metric: str, unit: str | None, wanted: str) -> bool:
    """Whether an observation's metric (a known key, or a source's own words: "parse", "startup", "end_of_life")
    answers a question's metric (a known key, or the question's own words: "parsing throughput", "dev server
    startup time"): the same family, or a content word in common and a unit of the kind the question's words ask
    for ("startup time" is never answered by MB/s, "parsing throughput" never by ms)."""
    if metric == wanted or same_family(metric, wanted):
        return True
    if unit == "version":  # the version that brought a setting answers that setting alone, named whole
        # (the release that changed "the default max retries"; the "oldest Frob version" a product runs on is a bound
        # of the Frob version)
        # (a word and its stem are one: "Frob/2 parallelism" is named by "frob2_parallel_requests")
        named = {w[:6] for w in set(_words(wanted)) - {"default"} - BOUND_WORDS - _CHANGE_WORDS}
        return bool(named) and named <= {w[:6] for w in _words(metric)}
    shared = _shared(metric, wanted)
    if not shared or (not shared - _BOUND_STEMS and _names_more(metric) and _names_more(wanted)):
        return False  # ("max_message_size" shares only the bound with "max redirects": another quantity)
    if _opposite_bounds(metric, wanted):
        return False  # a minimum answers no question for a maximum ("frob_min_ttl" for "maximum TTL")
    if _by_synonym_only(metric, wanted) or _other_time(metric, wanted) or _other_head(metric, wanted, shared):
        return False
    asked = {kind for kind, rx in _ASKS_FOR for w in re.split(r"[_\s]+", wanted.lower()) if rx.match(w)}
    if not asked and (_COUNTED.search(wanted.lower().replace("_", " ")) or _COUNT_WORD.search(wanted.lower())):
        asked = {"count"}  # "total connections", "number of host pools": a count, never a time or a size
    have = unit_kind(unit)
    if "rate" in asked and have == "time" and _PERIODIC.search(metric):
        return True  # how fast a thing recurs is its period: "frob_wobble_interval" 640 ms for "frob wobble speed"
    # a setting without a unit ("encoder_speed" 10) answers an attribute it shares two words with ("AVIF encoder speed")
    return not asked or have in asked or (not unit and len(shared) >= 2) or ("count" in asked and have is None)
