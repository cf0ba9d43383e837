"""Numbers in a sentence as the extractor sees them: raw value as written, unit, and canonical quantity.

numbers.find_quantities is the verifier's reader (every number, no judgement); this one decides which
numbers are *values*: it skips years, dates, versions, list markers and identifiers (KIP-848,
i3en.2xlarge, linger.ms=5), and reads the unit forms that matter for observations (条, 个分区, per hour).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from openresearch.numbers import NUMBER_WORD, NumberFormatError, Quantity, parse_quantity

# a size per second written out ("250 MB/sec", "1 gigabyte per second") is a rate, never a size
_RATE = (r"(?:[KMGT]i?B|kB|bytes?|(?:kilo|mega|giga|tera)bytes?)(?:/sec(?:ond)?\b|\s(?:per|a)\s(?:second|sec)\b)|"
         r"MB/s|GB/s|KB/s|kB/s|MiB/s|GiB/s|Gbps|Mbps|Gbit/s|msgs?/s(?:ec)?|messages?/s(?:ec)?|"
         r"messages per second|events/s|records/s|req/s|requests/s|ops/s|条消息/秒|条/秒|条/s|TPS|QPS|"
         r"rows?/s(?:ec)?|rows per second|samples/s(?:ec)?|samples per second|(?:data )?points per second|"
         r"points/s|field writes per second|writes/s(?:ec)?|writes per second|inserts/s|inserts per second|"
         r"queries per second|queries/s|行/秒|条记录/秒")
_TIME = (r"milliseconds?|microseconds?|nanoseconds?|"
         r"ms|µs|μs|us|ns|毫秒|微秒|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?(?! old)|"
         # (a day or a week as a letter glued to its number, as configurations write them: "1d", "2w")
         r"秒|分钟|小时|天|个月|s|h|(?<=\d)[dw]")
_SPAN = r"days?|weeks?|months?|years?"
_SIZE = (r"bytes? per (?:sample|data point|point)|bytes/sample|TiB|TB|PiB|PB|GiB|GB|MiB|MB|KiB|kiB|KB|kB|Kb|bytes?|"
         r"(?:kilo|mega|giga|tera)bytes?|"
         # (a binary size glued to its number without the B, as Kubernetes and command help write it: "16Mi")
         r"(?<=\d)(?-i:Ki|Mi|Gi|Ti)(?![A-Za-z])|"
         r"字节|T(?=[\s。，,;；)）、\u4e00-\u9fff]|$)|P(?=[\s。，,;；)）、\u4e00-\u9fff]|$)")
_COUNT = (r"partitions?|个分区|分区|brokers?|个\s?broker|nodes?|个节点|节点|bookies|个\s?bookie|replicas?|副本|"
          r"cores?|核|vCPUs?|topics?|个\s?topic|connections?|consumers?|producers?|clusters?|个集群|条消息|"
          r"条记录|条时间线|条|messages?|msgs|threads?|个线程|线程|workers?|columns?|列|tables?|张表|个表|"
          r"(?:active )?time series|series|时间线|dimensions?|维|devices?|台(?:设备|电表)?|hosts?|rows?|行|records?|"
          r"fields?|tags?|databases?|people|persons|inhabitants|residents|households|families|housing units|"
          r"employees|seats|years? old|人|户")
_MONEY = r"美元|元|USD|EUR|dollars"
# one adjective between a number and the noun it counts ("4096 uncompressed bytes", "16 concurrent connections",
# "4 physical cores"): told by its English ending, whatever the word; only before a word unit (_WORD_UNIT)
_ADJECTIVE = r"[a-z]{2,}(?:ed|al|ive|ent|ant|ic|ous|ible|able|ary|ful|less)"
_WORD_UNIT = re.compile(rf"(?:{_SIZE}|{_COUNT}|{_TIME})", re.I)
_UNIT = rf"{_RATE}|%|％|percent|per cent|{_TIME}|{_SIZE}|{_MONEY}|倍|x|times|{_COUNT}"
_PERIOD = (r"(?:\s?/\s?|\s(?:per|a|an)\s)(?:hour|hr|h|month|mo|day|year|GB-month|GB|TiB|TB|million requests|"
           r"million|request|message)\b|/小时|/月|/天|每小时|每月")
_VALUE = re.compile(
    r"(?<![A-Za-z0-9_./#:])(?<![A-Za-z_]=)(?P<cur>US\$|\$|€|¥|￥)?(?P<num>\d*[½¼¾⅓⅔⅛⅜⅝⅞]|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:_\d{3})+(?![\w])|"
    r"\d+(?:\.\d+)?)(?:\s?(?P<mag>万亿|百万|万|亿|千|thousand|million|billion|trillion|bn|mn|[kKMBG](?![A-Za-z0-9])))?"
    rf"(?:(?:\s(?P<adj>{_ADJECTIVE}))?\s{{0,2}}(?P<unit>{_UNIT})(?![A-Za-z]))?(?P<per>{_PERIOD})?")
# (two spaces before a unit: a masked "[" of a link)
_MONTHS = r"Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|January|February|March|April|June|July|August|" \
          r"September|October|November|December"
_DATE_AFTER = re.compile(rf"\s(?:{_MONTHS})\b")
_DATE_BEFORE = re.compile(rf"\b(?:{_MONTHS})\.?\s$")
_VERSION_BEFORE = re.compile(r"(?:\b(?:version|release|v|Java|Python|Log4j|JDK|Go|Erlang|OTP)|版本)\s?$", re.I)
# a label before a decimal ("Default: 600.0", "timeout = 2.5"): the figure it labels, no version ("Version: 3.11" is)
_LABEL_BEFORE = re.compile(r"(?<!\bversion)(?<!\brelease)(?<!\bv)\s?[:=]\s?$|\bdefaults?(?:\s+(?:value\s+)?is)?\s$",
                           re.I)
_PORT = re.compile(r"(?:\bports?|端口)\s?$|^\s?(?:端口|port\b)", re.I)
_Y = r"(?:1[0-9]\d\d|20\d\d)"
_CALENDAR = re.compile(
    rf"(?P<date>\b\d{{1,2}}(?:st|nd|rd|th)?\s(?:of\s)?(?:{_MONTHS})\.?,?\s\d{{3,4}}\b|"
    rf"\b(?:{_MONTHS})\.?\s\d{{1,2}}(?:st|nd|rd|th)?,?\s\d{{3,4}}\b|"
    rf"\b\d{{1,2}}-(?:{_MONTHS})-\d{{4}}\b|"
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{4}/\d{1,2}/\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{4}\b|"
    r"\d{3,4}\s?年\s?\d{1,2}\s?月\s?\d{1,2}\s?日)|"
    rf"(?P<year>\b(?:{_MONTHS})\.?\s{_Y}\b|(?<![\d.,\-/A-Za-z_#]){_Y}(?:\s?(?:–|-|—|to)\s?(?:{_Y}|\d\d)\b)?(?![\d%]|[.,]\d)"
    r"(?:\s?年(?!\s?\d{1,2}\s?月))?)")
_BARE = re.compile(r"(?<![A-Za-z0-9_.\-/=#:$€¥￥])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
                   r"(?:\s?(?:万亿|百万|万|亿|千|thousand|million|billion|[kKM](?![A-Za-z0-9])))?(?![\d.,]?\d|[A-Za-z%])")

# count nouns as written -> one plural English name, so "个分区" and "partitions" compare
_COUNT_NAMES = (("partition", "partitions"), ("分区", "partitions"), ("broker", "brokers"), ("node", "nodes"),
                ("节点", "nodes"), ("bookie", "bookies"), ("replica", "replicas"), ("副本", "replicas"),
                ("core", "cores"), ("核", "cores"), ("vcpu", "cores"), ("topic", "topics"),
                ("connection", "connections"), ("consumer", "consumers"), ("producer", "producers"),
                ("cluster", "clusters"), ("集群", "clusters"), ("条消息", "messages"), ("message", "messages"),
                ("msg", "messages"), ("条记录", "rows"), ("条时间线", "series"), ("条", "messages"),
                ("thread", "threads"), ("线程", "threads"), ("worker", "workers"), ("column", "columns"),
                ("列", "columns"), ("table", "tables"), ("张表", "tables"), ("表", "tables"),
                ("active time series", "series"), ("time series", "series"), ("series", "series"),
                ("时间线", "series"), ("dimension", "dimensions"), ("维", "dimensions"), ("device", "devices"),
                ("台", "devices"), ("host", "hosts"), ("row", "rows"), ("行", "rows"), ("record", "records"),
                ("field", "fields"), ("tag", "tags"), ("database", "databases"), ("people", "people"),
                ("person", "people"), ("inhabitant", "people"), ("resident", "people"), ("人", "people"),
                ("household", "households"), ("户", "households"), ("famil", "families"),
                ("housing unit", "housing units"), ("employee", "employees"), ("seat", "seats"),
                ("year", "years old"))


class Value(NamedTuple):
    start: int
    end: int  # the whole match, number through unit/period
    raw: str  # the value as written: "1.2万", "10.9k", "$0.5/hour", "20,500"
    unit: str  # the unit as written ("MB/s", "条/秒", "ms"), a count noun, or a canonical currency unit
    quantity: Quantity
    kind: str  # rate | time | pct | size | money | ratio | count | port | date | year | bare


def _count_unit(unit: str) -> str:
    key = re.sub(r"\s+", "", unit.lower()).removeprefix("个")
    return next((name for prefix, name in _COUNT_NAMES if key.startswith(prefix.replace(" ", ""))), key)


def _kind(unit: str, cur: str | None) -> str:
    if cur or re.fullmatch(_MONEY, unit):
        return "money"
    for kind, pattern in (("rate", _RATE), ("pct", r"%|％|percent|per cent"), ("time", f"{_TIME}|d|w"), ("size", _SIZE),
                          ("ratio", r"倍|x|times")):
        if re.fullmatch(pattern, unit):
            return kind
    return "count" if unit else ""


def _skipped(text: str, m: re.Match[str], unit: str) -> bool:
    """Versions, list markers and identifiers are not values (years and dates are read by _CALENDAR)."""
    before = text[max(0, m.start() - 20):m.start()]
    after = text[m.end():m.end() + 12]
    if re.match(r"\.\d", text[m.end("num"):]) or (
            re.match(r"[A-Za-z_\-]\w", after) and not unit and not re.match(r"\s?[-–]\s?\d", after)):
        return True  # 3.11.2, 15-minute, 2xlarge (a range "1-2 bytes" is kept)
    if m.start() > 0 and text[m.start() - 1] in "-–" and not re.search(r"\d\s?[-–]$", before):
        return True  # COVID-19, i3en-2
    if unit and re.match(r"[A-Za-z]", unit[-1:]) and re.match(r"[A-Za-z0-9]", text[m.end():m.end() + 1]):
        return True  # "MSVC 2022 x86": a unit runs into the word it begins, so it is no unit there
    if unit or m.group("cur") or m.group("mag"):
        return bool(re.match(r"\s?年", after)) and not m.group("mag")
    return bool(_DATE_AFTER.match(after) or _DATE_BEFORE.search(before) or _VERSION_BEFORE.search(before))


class _Cand(NamedTuple):
    start: int
    end: int
    raw: str  # currency + number + magnitude, as written
    unit: str
    cur: str
    per: str


# a change of a value ("changed from", "increased the limit from", "default raised from"): what follows "from" is
# the old value, and what follows "to" the new one
_CHANGED_FROM = re.compile(r"\b(?:chang|increas|decreas|rais|lower|reduc|bump|mov|grew|grow|went|drop|updat|switch|"
                           r"set|default)\w*\b(?:[^.;:]|::|[.:](?=\w)){0,80}\bfrom\s*$", re.I)
_RANGE_SEP = re.compile(r"\s?(?:到|至|~|–|-|—|to)\s?")


# what makes "N times" a ratio: a comparison after it ("10 times faster", "2.5 times the throughput", "as fast")
_COMPARED_AFTER = re.compile(r"\s*(?:(?!(?:after|per|under|never|ever|other|whenever|either)\b)[a-z]+er\b|"
                             r"more\b|less\b|fewer\b|as\b|the\b|that\b|what\b|over\b|"
                             r"(?:that|the) (?:of|speed|size)\b|[,.;)]|$)", re.I)


_GLUED_BINARY = frozenset({"Ki", "Mi", "Gi", "Ti"})


def _candidates(text: str, taken: list[tuple[int, int]]) -> list[_Cand]:
    out: list[_Cand] = []
    for m in _VALUE.finditer(text.replace("\u2212", "-")):
        if any(s < m.end("num") and m.start() < e for s, e in taken):
            continue  # part of a date or year
        unit, end = (m.group("unit") or "").strip(), m.end()
        if unit in _GLUED_BINARY:
            unit += "B"  # "16Mi" is 16 MiB
        if m.group("adj") and not (len(unit) > 2 and unit.islower() and _WORD_UNIT.fullmatch(unit)):
            unit, end = "", m.end("mag") if m.group("mag") else m.end("num")  # "3 different times" is no ratio
        elif unit.lower() == "times" and not _COMPARED_AFTER.match(text, m.end()):
            unit, end = "", m.end("mag") if m.group("mag") else m.end("num")  # "retried up to 10 times": how often
        if not _skipped(text, m, unit):
            raw = text[m.start():m.end("mag") if m.group("mag") else m.end("num")]
            out.append(_Cand(m.start(), end, raw, unit, m.group("cur") or "", (m.group("per") or "").strip()))
    # `40 万到 50 万条`, `10-20 ms`, `1-2 bytes`: one value, written as a range, with the unit after its second end
    for i in range(len(out) - 2, -1, -1):
        a, b = out[i], out[i + 1]
        lead = text[max(0, a.start - 110):a.start]
        if _CHANGED_FROM.search(lead) and not re.search(r"\b(?:rang|var(?:y|ies|ied)|span)\w*\s+from\s*$", lead, re.I):
            continue  # "changed the default from 0 to 2MB": an old value and a new one ("ranges from" is a range)
        if not a.unit and not a.cur and b.unit and _RANGE_SEP.fullmatch(text[a.end:b.start]):
            out[i] = a._replace(end=b.end, raw=text[a.start:b.start] + b.raw, unit=b.unit, per=b.per)
            del out[i + 1]
    return out


# what a count follows ("up to 1000 open files", "a cap of 1024 entries"), and the noun it counts: a year after "of"
# would name an event ("the elections of 2010"), so only a plural noun after the number makes it a count
_COUNTED = re.compile(r"\b(?:up to|of|than|about|approximately|around|over|under|at (?:least|most)|maximum|max|"
                      r"limit|cap|only|total)\s$", re.I)
_PLURAL_AFTER = re.compile(rf"\s(?:{_ADJECTIVE}\s|[a-z]+\s)?[a-z]{{2,}}s\b")


def _calendar(text: str) -> list[Value]:
    """Dates ("2 July 1829", "August 1, 1983", "2025/07/30", "11/17/2016", "07-June-2024", "1983年8月1日") and
    years ("1912", "1918-1919", "2010年") as written ("#1736" is an issue's number, no year);
    a four-digit number that carries a unit ("2048 columns", "1000 rows") is a count, not a year."""
    out: list[Value] = []
    for m in _CALENDAR.finditer(text):
        kind = "date" if m.group("date") else "year"
        raw = m.group(0).rstrip()
        if kind == "year" and re.match(r"\d", raw):
            after = text[m.end():m.end() + 24]
            counted = bool(_PLURAL_AFTER.match(after)) and (
                raw in ("1024", "2048") or bool(_COUNTED.search(text[max(0, m.start() - 24):m.start()])))
            if re.match(rf"\s?(?:[kKMB]\b|万|亿|千|million|billion|thousand|{_UNIT})(?![A-Za-z])", after) or \
                    re.match(rf"\s?[-–]\s?\d|-(?:bits?|{_UNIT})(?![A-Za-z])", after) or counted:  # "2048-bit"
                continue
        try:
            out.append(Value(m.start(), m.start() + len(raw), raw, kind, parse_quantity(raw, kind), kind))
        except NumberFormatError:
            if kind == "date" and "/" in raw:
                # "03/04/2020" is the 3rd of April or the 4th of March: only its year is certain
                out.append(Value(m.start(), m.start() + len(raw), raw, "year", parse_quantity(raw, "year"), "year"))
    return out


def _money(text: str, c: _Cand) -> tuple[str, Quantity]:
    """Prices keep their period in the value as written: "$0.5/hour", "$0.21 per hour", "0.29 美元/小时"."""
    raw = text[c.start:c.end].strip()
    q = parse_quantity(raw)
    if c.per and "/" not in q.unit:  # a period numbers.py does not know ("per GB-month"): keep it in the unit
        period = re.sub(r"^(?:/|per|an?)\s*", "", c.per)
        q = parse_quantity(raw, f"{q.unit}/{period}")
    return raw, q


# a span written in words or as an adjective: "every six months", "twenty four months", "a three-year cadence",
# "a three minute delay", "2 6-month releases" (the number before a hyphenated unit is otherwise an identifier,
# "15-minute")
_WORD_SPAN = re.compile(rf"(?<![\w-])(?P<num>{NUMBER_WORD}|\d{{1,3}})"
                        # ("two (2) seconds": the number restated in digits)
                        rf"(?:\s\(\d{{1,3}}\)(?=\s))?"
                        rf"(?P<sep>[- ]|\s(?:more|additional|further|extra)\s)"
                        rf"(?P<unit>{_SPAN}|seconds?|minutes?|hours?|(?:kilo|mega|giga|tera)bytes?)(?![\w-])", re.I)


def _spans(text: str, taken: list[tuple[int, int]]) -> list[Value]:
    out: list[Value] = []
    for m in _WORD_SPAN.finditer(text):
        if m.group("num").isdigit() and m.group("sep") == " ":
            continue  # "30 months" is read with the other values
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        unit = m.group("unit").lower()
        unit = unit if unit.endswith("s") else unit + "s"
        try:
            q = parse_quantity(f"{m.group('num')} {unit}")
        except NumberFormatError:
            continue
        if q.unit == "days":
            out.append(Value(m.start(), m.end(), m.group(0), unit, q, "time"))
        elif q.unit == "ms" and not m.group("num").isdigit() and m.group("num").lower() not in ("one", "zero"):
            # "a three minute delay": the number as written, its unit the word after it (in digits, "15-minute runs"
            # says what kind of run it is: no value)
            out.append(Value(m.start(), m.end(), m.group("num"), unit, q, "time"))
        elif q.unit == "MB" and m.group("sep") == " ":  # "smaller than one kilobyte"
            out.append(Value(m.start(), m.end(), m.group(0), unit, q, "size"))
    return out


# a host before a port: "127.0.0.1:1111", "localhost:8080", "example.org:4000"
HOST = r"(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\[[\da-f:]+\]|[a-z][\w-]*(?:\.[a-z][\w-]*)+)"
_HOST_COLON = re.compile(HOST + r":$", re.I)


_HOST_PORT = re.compile(r"(?<![\w.:/-])" + HOST + r":(\d{2,5})(?![\d.:\w])", re.I)


def _port_or_year(text: str, v: Value) -> Value:
    """A four-digit "year" after "port" or a host ("port 1313", "127.0.0.1:1111") is a port number."""
    if v.kind != "year" or not re.fullmatch(r"\d{4}", v.raw):
        return v
    before = text[max(0, v.start - 40):v.start]
    if _PORT.search(before) or _HOST_COLON.search(before):
        return v._replace(unit="", quantity=parse_quantity(v.raw, None), kind="port")
    return v


_POWER = re.compile(r"(?<![\w.])\d+\s?(?:\^|\*\*)\s?\d+(?:\s?[KMGTkmgt]?i?B\b)?")


# a count per a span of time, glued as a command's flags write a rate: "20/1s", "40/s", "600/5m"
_PER_TIME = re.compile(r"(?<![\w./])(\d+(?:\.\d+)?)/(\d+(?:\.\d+)?)?(ms|s|m|h)(?![\w/.])")
_PER_TIME_UNIT = {"ms": "/ms", "s": "/s", "m": "/min", "h": "/h"}


def _per_time(text: str) -> list[Value]:
    """The rates written "<count>/<span>" ("20/1s" is 20 per second): one value, the count over the span."""
    out: list[Value] = []
    for m in _PER_TIME.finditer(text):
        span = float(m.group(2) or 1)
        if span == 0:
            continue
        unit = _PER_TIME_UNIT[m.group(3)]
        out.append(Value(m.start(), m.end(), m.group(0), unit,
                         parse_quantity(f"{float(m.group(1)) / span:g}", unit), "rate"))
    return out


# a time written as its parts glued, as Go and configurations write durations: "2m30s", "5m30s", "1h0m0s", "2h45m"
_COMPOUND_DURATION = re.compile(r"(?<![\w.])(?=\d+(?:\.\d+)?[hms]\d)(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+(?:\.\d+)?)s)?"
                                r"(?![\w.])")


def _compound_durations(text: str) -> list[Value]:
    """Durations written as glued parts ("2m30s" is 150 seconds): one time each, in seconds."""
    out: list[Value] = []
    for m in _COMPOUND_DURATION.finditer(text):
        if m.end() - m.start() < 3 or sum(g is not None for g in m.groups()) < 2:
            continue
        h, mins, secs = (float(g) if g else 0.0 for g in m.groups())
        total = h * 3600 + mins * 60 + secs
        out.append(Value(m.start(), m.end(), m.group(0), "s", parse_quantity(f"{total:g}", "s"), "time"))
    return out


def find_values(text: str) -> list[Value]:
    """Values in reading order. Kinds: rate, time, pct, size, money, ratio, count, port, date, year, and bare
    (a number without a unit: a value only where the words before it name what it counts, "population was 48")."""
    calendar = [_port_or_year(text, v) for v in _calendar(text)]
    out: list[Value] = list(calendar)
    # (a power, "2^17 B", "2**18", is no figure as written: the value a text equates it with is, "= 128 kiB")
    powers = [m.span() for m in _POWER.finditer(text)]
    for c in _candidates(text, [(v.start, v.end) for v in calendar] + powers):
        kind = _kind(c.unit, c.cur or None)
        try:
            if kind == "money":
                raw, q = _money(text, c)
                out.append(Value(c.start, c.end, raw, q.unit, q, kind))
                continue
            if not kind:
                before, after = text[max(0, c.start - 12):c.start], text[c.end:c.end + 8]
                kind = "port" if _PORT.search(before) or _PORT.match(after) else "bare"
            if kind in ("count", "bare") and "." in c.raw and c.raw[-1].isdigit() and not re.search(
                    r"[万亿千kKM]|million|billion", c.raw) and not c.unit.startswith("year") and \
                    not _LABEL_BEFORE.search(text[max(0, c.start - 40):c.start]):
                continue  # "RabbitMQ 3.11 node": a version before a noun, not 3.11 nodes
            unit = _count_unit(c.unit) if kind == "count" else {"T": "TB", "P": "PB", "year": "years"}.get(c.unit,
                                                                                                            c.unit)
            out.append(Value(c.start, c.end, c.raw, unit, parse_quantity(c.raw, unit or None), kind))
        except NumberFormatError:
            continue
    # a port after its host, "localhost:5572", "0.0.0.0:22000" (the colon keeps it out of the candidates above)
    taken = [(v.start, v.end) for v in out]
    out += [Value(m.start(1), m.end(1), m.group(1), "", parse_quantity(m.group(1), None), "port")
            for m in _HOST_PORT.finditer(text) if not any(s < m.end(1) and m.start(1) < e for s, e in taken)]
    if rates := _per_time(text):  # ("20/1s" is one rate, not the bare 20 it starts with)
        out = [v for v in out if not any(r.start <= v.start < r.end for r in rates)] + rates
    if spans := _compound_durations(text):  # ("1m30s" is one time, not a 30 s after a stray 1)
        out = [v for v in out if not any(d.start <= v.start < d.end for d in spans)] + spans
    spans = _spans(text, [(v.start, v.end) for v in out if v.kind != "bare"])
    # "3 more years": the span, not the bare 3 it starts with
    out = [v for v in out if not (v.kind == "bare" and any(s.start <= v.start < s.end for s in spans))] + spans
    out.sort(key=lambda v: v.start)
    return out
