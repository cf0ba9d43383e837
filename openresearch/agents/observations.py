"""Observations from one sentence: entity + metric + value (as written) + unit + condition. Pure core.

Conditions matter as much as values (invariant 3): "590 MB/s on three brokers with 1 KB messages" and
"420 MB/s on the root volume" are not a conflict. So setup phrases are read as conditions, and the numbers
inside them (1 KB, 100 partitions, "at 30 MB/s" after a latency) are not turned into observations.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence

from openresearch.agents.extract_rules import Mention
from openresearch.agents.values import Value, find_values
from openresearch.models import ObservationIn

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
)]
_AT_RATE = re.compile(r"\bat\s+\d[\d,.]*\s?[kKM]?\s?(?:MB/s|msg/s|msgs/s|messages/s)")
_CLAUSE = re.compile(r"[,;，；。:：]")
_PERCENTILE = re.compile(r"\bp\s?(\d{2}(?:\.\d+)?)\b|\b(\d{2}(?:\.\d+)?)(?:th|st) percentile|(median|中位数?)", re.I)
_PER_SECOND = re.compile(r"每秒|per second|/s\b|a second", re.I)
_PER_DAY = re.compile(r"日均|每天|每日|per day|a day|daily", re.I)
_PER_MONTH = re.compile(r"每月|per month|a month|monthly", re.I)
_LIMIT = re.compile(r"\b(?:max(?:imum)?|limit|up to|default|at most|supports?|cap)\b|最大|上限|不超过|支持|默认", re.I)


def _is_perf(metric: str) -> bool:
    return metric in ("throughput", "price") or metric.endswith(("latency", "_time"))


def _cue(pattern: str, window: str) -> bool:
    return re.search(pattern, window, re.I) is not None


def _latency_metric(before: str, after: str) -> str | None:
    window = before + after
    hits = list(_PERCENTILE.finditer(before))[-1:] or list(_PERCENTILE.finditer(after))[:1]
    if hits:
        h = hits[0]  # the nearest cue, before the value first ("p99 of 8 ms", then "8 ms at p99")
        return "p50_latency" if h.group(3) else f"p{(h.group(1) or h.group(2)).replace('.', '')}_latency"
    if _cue(r"latency|延迟|时延|round[- ]trip", window):
        return "latency"
    if _cue(r"failover|切换|recovery|恢复|election", window):
        return "failover_time"
    if _cue(r"rebalanc", window):
        return "rebalance_time"
    if _cue(r"retention|retain|保留|回溯", window):
        return "retention"
    return None  # a bare duration ("15 minutes") says nothing comparable


def cue_window(sentence: str, v: Value) -> tuple[str, str]:
    """The value's clause: up to 40 characters before it and 30 after, not crossing , ; 。 etc."""
    before = sentence[max(0, v.start - 40):v.start]
    after = sentence[v.end:v.end + 30]
    return _CLAUSE.split(before)[-1], _CLAUSE.split(after)[0]


def metric_for(v: Value, before: str, after: str = "") -> tuple[str, str] | None:
    """(metric, unit) from the value's unit and the cue words around it in its clause; None = not a metric."""
    window = f"{before} {after}"
    if v.kind == "rate":
        network = v.unit.lower() in ("gbps", "mbps", "gbit/s") or _cue(r"network|网卡|带宽|bandwidth", window)
        return ("network_bandwidth" if network else "throughput"), v.unit
    if v.kind == "time":
        metric = _latency_metric(before, after)
        return (metric, v.unit) if metric else None
    if v.kind == "pct":
        for pattern, name in ((r"availability|uptime|SLA|可用性", "availability"), (r"CPU", "cpu_utilisation"),
                              (r"error|loss|失败|丢失", "error_rate"),
                              (r"cost|cheaper|saving|成本|费用", "cost_change"),
                              (r"disk|storage|磁盘", "disk_usage")):
            if _cue(pattern, window):
                return name, v.unit
        return "percentage", v.unit
    if v.kind == "size":
        if _cue(r"message|消息|payload|record|max\.bytes", window):
            return ("max_message_size" if _LIMIT.search(window) else "message_size"), v.unit
        if _cue(r"memory|RAM|heap|内存", window):
            return "memory", v.unit
        return ("storage" if _cue(r"disk|storage|存储|磁盘|retention", window) else "size"), v.unit
    if v.kind == "money":
        return "price", v.unit
    if v.kind == "ratio":
        return ("speedup" if _cue(r"faster|speed|快", window) else "ratio"), v.unit
    if v.kind == "port":
        return "port", ""
    if v.unit == "messages":  # a message count is a rate only with its period
        if _PER_SECOND.search(window):
            return "throughput", "msg/s"
        if _PER_DAY.search(window):
            return "daily_messages", "msg/day"
        return ("monthly_messages", "msg/month") if _PER_MONTH.search(window) else None
    if v.unit == "partitions":
        return ("max_partitions" if _LIMIT.search(window) else "partitions"), v.unit
    return {"brokers": "cluster_size", "nodes": "cluster_size", "replicas": "replication_factor",
            "cores": "cpu_cores", "topics": "topics", "clusters": "clusters"}.get(v.unit, "count"), v.unit


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


def _entity(sentence: str, v: Value, mentions: Sequence[Mention], preferred: set[str],
            fallback: str | None) -> str | None:
    """Who the value belongs to: the nearest mention in the value's own clause (before it, then after it),
    then the nearest before it in the sentence, then after; plan entities win ties.

    "Kafka reached 605 MB/s, Pulsar reached 305 MB/s": 605 is Kafka's although "Pulsar" is closer."""
    if not mentions:
        return fallback
    clause = _clauses(sentence)

    def rank(m: Mention) -> tuple[int, int, int]:
        before = m.end <= v.start
        same = clause(m.start) == clause(v.start)
        distance = v.start - m.end if before else m.start - v.end
        return (0 if same else 2) + (0 if before else 1), distance, 0 if m.canonical in preferred else 1

    return min(mentions, key=rank).canonical


def observations(sentence: str, mentions: Sequence[Mention], preferred: set[str],
                 context_entity: str | None = None, context_conditions: Sequence[str] = ()) -> list[ObservationIn]:
    """Observations for one sentence. `context_entity` stands in where the sentence names no entity;
    `context_conditions` (the sentence before, same paragraph) where a measurement has no condition."""
    values = find_values(sentence)
    measured: list[tuple[Value, str, str]] = []
    for v in values:
        got = metric_for(v, *cue_window(sentence, v))
        if got:
            measured.append((v, *got))
    latency = any(m.endswith(("latency", "_time")) for _, m, _ in measured)
    conds = condition_spans(sentence, mentions, latency)
    owners = _owners(sentence, conds, mentions)
    inside = [any(s <= v.start and v.end <= e for s, e, _ in conds) for v, _, _ in measured]
    # setup numbers are conditions when the sentence measures something; alone they are the finding
    perf = any(_is_perf(metric) and not ins for (_, metric, _), ins in zip(measured, inside, strict=True))
    out: list[ObservationIn] = []
    seen: set[tuple[str, str, str, str]] = set()
    for (v, metric, unit), ins in zip(measured, inside, strict=True):
        if ins and perf:
            continue
        entity = _entity(sentence, v, mentions, preferred, context_entity)
        if entity is None or (entity, metric, v.raw, unit) in seen:
            continue
        seen.add((entity, metric, v.raw, unit))
        parts = list(dict.fromkeys(c for (s, e, c), owner in zip(conds, owners, strict=True)
                                   if not (s <= v.start and v.end <= e) and owner in (None, entity)))
        if not parts and _is_perf(metric):  # a measurement's setup is often the sentence before it
            parts = list(context_conditions)
        if paren := re.match(r"\s?[(（]([^()（）]{1,30})[)）]", sentence[v.end:]):
            parts.append(paren.group(1).strip())  # "38 MB/s (mirrored)": a condition of this value only
        out.append(ObservationIn(entity=entity, metric=metric, value=v.raw, unit=unit or None,
                                 condition=", ".join(parts) or None))
    return out


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
    """A number with a unit, a percentage or a currency (a bare port or count is not a statistic)."""
    return any(v.kind != "port" for v in find_values(sentence))
