"""Numeric normalisation: one place that turns `10.9k`, `10,940`, `1.2万`, `60%`, `$0.5/hour` into values.

Pure functions, no I/O. Used by the graph writer (observations are stored in canonical units so
conflicts can be compared in Cypher) and by the verifier (numbers in a sentence must appear in a quote).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

# Magnitude words and suffixes. Lower-case `m` is deliberately absent: it means metres or minutes.
_MAGNITUDES: dict[str, float] = {
    "k": 1e3, "K": 1e3, "thousand": 1e3, "千": 1e3,
    "M": 1e6, "mn": 1e6, "million": 1e6, "百万": 1e6,
    "B": 1e9, "bn": 1e9, "billion": 1e9, "G": 1e9,
    "万": 1e4, "亿": 1e8, "万亿": 1e12, "trillion": 1e12,
}

# unit alias (lower-case) -> (canonical unit, factor to canonical)
_UNITS: dict[str, tuple[str, float]] = {}


def _add(canonical: str, factor: float, *aliases: str) -> None:
    for alias in aliases:
        _UNITS[alias.lower()] = (canonical, factor)


_add("MB/s", 1e-6, "b/s", "bytes/s", "bytes/sec", "bps_bytes")
_add("MB/s", 1e-3, "kb/s", "kbps_bytes", "kib/s")
_add("MB/s", 1.0, "mb/s", "mbps_bytes", "mb/sec", "mbytes/s", "mib/s", "megabytes/s", "megabytes per second")
_add("MB/s", 1e3, "gb/s", "gb/sec", "gib/s", "gigabytes/s", "gigabytes per second")
_add("MB/s", 0.125, "mbps", "mbit/s", "megabits/s")
_add("MB/s", 125.0, "gbps", "gbit/s", "gigabits/s")
_add("msg/s", 1.0, "msg/s", "msgs/s", "msg/sec", "msgs/sec", "messages/s", "messages/sec", "messages per second",
     "msg per second", "events/s", "events per second", "records/s", "records/sec", "条/秒", "条消息/秒", "条/s", "tps",
     "ops/s", "ops/sec", "req/s", "requests/s", "requests per second", "rps", "qps")
_add("ms", 1e-6, "ns", "nanoseconds")
_add("ms", 1e-3, "µs", "us", "μs", "microseconds", "微秒")
_add("ms", 1.0, "ms", "millisecond", "milliseconds", "毫秒")
_add("ms", 1e3, "s", "sec", "secs", "second", "seconds", "秒")
_add("ms", 60e3, "min", "mins", "minute", "minutes", "分钟")
_add("ms", 3.6e6, "h", "hr", "hrs", "hour", "hours", "小时")
# spans of the calendar ("30 months", "2 years of security fixes", "every six weeks"): their own family, in days, so a
# support window never meets a latency; "year" alone is a calendar year (a date's unit), its plural a span
_add("days", 1.0, "d", "day", "days", "天")
_add("days", 7.0, "w", "week", "weeks", "wk", "wks", "周", "个星期", "星期")
_add("days", 30.4375, "month", "months", "mo", "mos", "个月", "个月份")
_add("days", 365.25, "years", "yrs", "yr")
_add("%", 1.0, "%", "percent", "per cent", "pct", "％")
_add("MB", 1e-6, "byte", "bytes")
_add("MB", 1e-3, "kb", "kib", "kilobytes")
_add("MB", 1.0, "mb", "mib", "megabytes")
_add("MB", 1e3, "gb", "gib", "gigabytes")
_add("MB", 1e6, "tb", "tib", "terabytes")
_add("USD", 1.0, "usd", "$", "us$", "dollars", "dollar", "美元")
_add("CNY", 1.0, "cny", "rmb", "¥", "元", "人民币")
_add("EUR", 1.0, "eur", "€", "euro", "euros")
_add("", 1.0, "", "x", "times", "倍")
_add("MB", 1e9, "pb", "pib", "petabytes")
_add("rows/s", 1.0, "rows/s", "rows/sec", "rows per second", "row/s", "行/秒", "条记录/秒", "records per second")
_add("samples/s", 1.0, "samples/s", "samples/sec", "samples per second", "data points per second",
     "points per second", "points/s", "datapoints/s")
_add("writes/s", 1.0, "writes/s", "writes/sec", "writes per second", "inserts/s", "inserts per second")
_add("field writes/s", 1.0, "field writes/s", "field writes per second")
_add("bytes/sample", 1.0, "bytes/sample", "bytes per sample", "byte per sample", "bytes per data point",
     "bytes per point", "b/sample", "字节/点")
# calendar values: a date is YYYYMMDD, a year is the year (see parse_quantity); each is its own unit family
_add("date", 1.0, "date")
_add("version", 1.0, "version")
_add("year", 1.0, "year")
# counted things: their own unit families, so 3,559 people never meets 3,559 households
_add("people", 1.0, "people", "persons", "inhabitants", "residents", "人", "名居民")
_add("households", 1.0, "households", "household", "户")
_add("families", 1.0, "families", "family")
_add("housing units", 1.0, "housing units", "housing unit")
for _noun in ("columns", "tables", "series", "dimensions", "threads", "workers", "devices", "hosts", "rows", "tags",
              "fields", "databases", "employees", "seats", "records"):
    _add(_noun, 1.0, _noun, _noun[:-1])
_add("columns", 1.0, "列")
_add("threads", 1.0, "线程", "个线程")
_add("dimensions", 1.0, "维", "dims")
_add("series", 1.0, "time series", "active time series", "时间线", "条时间线")
_add("rows", 1.0, "条记录", "行")

_PERIODS: dict[str, str] = {
    "hour": "hour", "hr": "hour", "h": "hour", "小时": "hour",
    "month": "month", "mo": "month", "月": "month",
    "day": "day", "天": "day", "year": "year", "yr": "year", "年": "year",
    "gb": "GB", "million": "million", "1m": "million", "request": "request", "message": "message",
}

_CURRENCY_PREFIX = {"$": "USD", "us$": "USD", "€": "EUR", "¥": "CNY", "￥": "CNY"}


@dataclass(frozen=True)
class Quantity:
    """A value in a canonical unit. `unit` is '' for plain counts."""

    value: float
    unit: str

    def close_to(self, other: Quantity, rel_tol: float = 0.01) -> bool:
        if self.unit != other.unit:
            return False
        return math.isclose(self.value, other.value, rel_tol=rel_tol, abs_tol=1e-9)


# A number as people write it, each form a group of its own so its separators are read as that form means them:
# thousands by spaces ("1 234,5", "12 000"), apostrophes ("1'234.5"), dots with a decimal comma ("1.234,5",
# "1.234.567"), commas ("10,940.5"), a lone decimal comma ("1,5"), or none ("1234.5", ".5"). No form may stop
# inside a run of digits, so "1,2345" is not read as "1,234" and a "5" left over.
_SPACES = " \u00a0\u202f\u2009"
_FRACTIONS = {"½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1 / 3, "⅔": 2 / 3, "⅛": 0.125, "⅜": 0.375, "⅝": 0.625, "⅞": 0.875}
_NUM = (r"(?P<num>(?P<vf>\d*[" + "".join(_FRACTIONS) + r"])(?![\d.,])"
        r"|(?P<sp>\d{1,3}(?:[" + _SPACES + r"]\d{3})+(?:[.,]\d+)?)(?!\d|[" + _SPACES + r"]\d)"
        r"|(?P<ap>\d{1,3}(?:['\u2019_]\d{3})+(?:\.\d+)?)(?![\d'\u2019_])"
        r"|(?P<eu>\d{1,3}(?:\.\d{3})+,\d+|\d{1,3}(?:\.\d{3}){2,})(?![\d.,])"
        r"|(?P<en>\d{1,3}(?:,\d{3})+(?:\.\d+)?)(?![\d,])"
        r"|(?P<dc>\d+,\d+)(?![\d,.])"
        r"|\d+(?:\.\d+)?|\.\d+)")
# a power of ten: "1.5e3", "1.5E+03", "1.5 × 10^3", "1.5x10**3", "1.5·10⁻³"
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_EXP = (r"(?:[eE](?P<e>[+-]?\d{1,4})(?![\w.])"
        r"|\s*[×xX*·]\s*10\s*(?:\^|\*\*)\s*(?P<p>[+\-−]?\d{1,4})(?![\d.])"
        r"|\s*[×xX·]\s*10(?P<sup>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,4}))?")
_MAG = r"(?P<mag>万亿|万|亿|千|百万|thousand|million|billion|trillion|mn|bn|[kKMBG](?![A-Za-z/]))?"
_VALUE_RE = re.compile(r"^\s*(?P<cur>US\$|\$|€|¥|￥)?\s*" + _NUM + _EXP + r"\s*" + _MAG + r"\s*(?P<rest>.*?)\s*$")
# what is left after a number that means the number was not read whole ("1.2.3", "1,5,3", "2e", "3'4")
_UNREAD = re.compile(r"^(?:[.,'\u2019]?\d|[eE][+-]?(?:\d|$)|\^)")


def number_value(m: re.Match[str]) -> float:
    """The exact value of a match of _NUM (+ _EXP): its separators read as its form means them, its power of ten
    applied. NumberFormatError when the result is not a finite number or a non-zero figure underflows to 0."""
    num = m.group("num")
    if m.group("vf") is not None:  # "1½ years", "¾": a vulgar fraction after the whole part
        return float(num[:-1] or 0) + _FRACTIONS[num[-1]]
    if m.group("sp") is not None:
        digits = re.sub(f"[{_SPACES}]", "", num).replace(",", ".")
    elif m.group("ap") is not None:
        digits = re.sub("['\u2019_]", "", num)  # "1'000" (Swiss), "15_000" (as code writes it)
    elif m.group("eu") is not None:
        digits = num.replace(".", "").replace(",", ".")
    elif m.group("en") is not None:
        digits = num.replace(",", "")
    elif m.group("dc") is not None:
        digits = num.replace(",", ".")
    else:
        digits = num
    groups = m.groupdict()
    power = groups.get("e") or groups.get("p") or (groups["sup"].translate(_SUPERSCRIPT) if groups.get("sup") else None)
    text = digits + (f"e{power.replace('−', '-')}" if power else "")
    value = float(text)
    if not math.isfinite(value) or (value == 0 and float(digits) != 0):
        raise NumberFormatError(f"{m.group(0).strip()!r} is out of range (beyond what a number can hold)")
    return value


_UNITS_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS_WORDS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
NUMBER_WORD = (rf"(?:{'|'.join(_TENS_WORDS)})(?:[- ](?:{'|'.join(_UNITS_WORDS[1:10])}))?|"
               rf"{'|'.join(sorted(_UNITS_WORDS, key=len, reverse=True))}|a dozen")
_NUMBER_WORD_RE = re.compile(rf"^\s*(?P<word>{NUMBER_WORD})\b[- ]?", re.I)


def number_word_value(word: str) -> int | None:
    """'six' -> 6, 'twenty four' / 'twenty-four' -> 24, 'a dozen' -> 12; None for anything else."""
    w = word.lower().replace("-", " ").split()
    if w == ["a", "dozen"]:
        return 12
    if len(w) == 1 and w[0] in _UNITS_WORDS:
        return _UNITS_WORDS.index(w[0])
    if w and w[0] in _TENS_WORDS and (len(w) == 1 or (len(w) == 2 and w[1] in _UNITS_WORDS[1:10])):
        return 20 + 10 * _TENS_WORDS.index(w[0]) + (_UNITS_WORDS.index(w[1]) if len(w) == 2 else 0)
    return None


def quantity_label(value: float, unit: str) -> str:
    """A canonical value as a reader writes it: a span of the calendar (stored in days) in the largest unit that
    holds it whole, "30 months" for 913.125 days, "3 years", "6 weeks"; any other value with its unit."""
    if unit == "days" and value > 0:
        for size, name in ((365.25, "years"), (30.4375, "months"), (7.0, "weeks")):
            n = value / size
            if n >= 1 and abs(n - round(n)) < 0.01:
                return f"{round(n):g} {name if round(n) != 1 else name[:-1]}"
    if unit == "year":
        return number_text(value)  # "2019", as a year is written, never "2019.0 year"
    if unit == "date" and 10000101 <= value <= 99991231 and value == int(value):
        n = int(value)
        return f"{n // 10000:04d}-{n // 100 % 100:02d}-{n % 100:02d}"
    if unit == "version" and value >= 0 and value == int(value):
        return version_text(int(value))
    return f"{number_text(value)} {unit}".strip()


def written_with_unit(raw: str, unit: str | None) -> str:
    """A value as its source writes it, with its unit when the written form lacks one: "six months" (not "six
    months months"), "twenty four months (2 years)", "1 year" (not "1 years"), "605 MB/s"; a year, a date or a
    version stands alone ("October 2028", never "October 2028 year")."""
    raw, unit = raw.strip(), (unit or "").strip()
    # (the unit's singular written already: "one gigabyte" is not "one gigabyte gigabytes")
    if not unit or unit in ("year", "date", "version") or raw.lower().endswith(unit.lower()) or \
            re.search(rf"(?<![\w/]){re.escape(unit)}(?![\w/])", raw, re.I) or \
            (unit.lower().endswith("s") and raw.lower().endswith(unit.lower()[:-1])):
        return raw
    if re.fullmatch(r"[-+]?0*1(?:\.0+)?", raw) and unit.lower() in _PLURAL_SPANS:
        unit = unit[:-1]  # "1 year"
    return f"{raw} {unit}"


_PLURAL_SPANS = frozenset({"years", "months", "weeks", "days", "hours", "minutes", "seconds", "releases"})


def number_text(value: float, digits: int = 12) -> str:
    """A number as people write it: no trailing ".0", no exponent below 10^15, at most `digits` significant
    digits (so float noise such as 0.30000000000000004 reads 0.3)."""
    if not math.isfinite(value):
        return str(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    text = f"{value:.{digits}g}"
    if "e" in text and abs(value) < 1e15:
        text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return text


class NumberFormatError(ValueError):
    """Raised when a string holds no parsable number."""


@lru_cache(maxsize=4096)
def known_unit(word: str) -> bool:
    """Whether a word is a unit this module converts ("bytes", "seconds", "percent"), not one kept verbatim."""
    return word.strip().lower() in _UNITS


def canonical_unit(unit: str | None) -> tuple[str, float]:
    """Map a unit string to (canonical unit, factor); unknown units are kept verbatim (lower-cased)."""
    raw = (unit or "").strip()
    if not raw:
        return "", 1.0
    key = raw.lower().replace(" per ", "/").replace("per ", "/") if "/" not in raw else raw.lower()
    key = key.replace("／", "/").strip()
    if key not in _UNITS and (per_second := re.sub(r"/sec(?:ond)?s?$", "/s", key)) in _UNITS:
        key = per_second  # "MB per second" is MB/s
    if key in _UNITS:
        return _UNITS[key]
    if raw.lower() in _UNITS:
        return _UNITS[raw.lower()]
    # currency with a period: "USD/hour", "$/month", "美元/小时"
    if "/" in key:
        head, _, tail = key.partition("/")
        head_u = _UNITS.get(head.strip()) or _UNITS.get(_CURRENCY_PREFIX.get(head.strip(), "").lower())
        period = _PERIODS.get(tail.strip())
        if head_u and head_u[0] in {"USD", "CNY", "EUR"} and period:
            return f"{head_u[0]}/{period}", head_u[1]
    return key, 1.0


def parse_quantity(raw: str | float | int, unit: str | None = None) -> Quantity:
    """Parse a value (number or string such as '10.9k', '1.2万', '$0.5/hour', '60%') into canonical units.

    `unit` is the declared unit; a unit inside the string wins only when no unit is declared.
    """
    if isinstance(raw, bool):
        raise NumberFormatError(f"not a number: {raw!r}")
    if isinstance(raw, int | float):
        if not math.isfinite(float(raw)):
            raise NumberFormatError(f"not a finite number: {raw!r}")
        canon, factor = canonical_unit(unit)
        return Quantity(float(raw) * factor, canon)
    calendar_unit = canonical_unit(unit)[0] if unit else ""
    if calendar_unit == "version":
        if (key := version_key(raw)) is None:
            raise NumberFormatError(f"no version in {raw!r}")
        return Quantity(float(key), "version")
    if calendar_unit in ("date", "year"):
        calendar = calendar_value(raw, calendar_unit)
        if calendar is None:
            raise NumberFormatError(f"no {calendar_unit} in {raw!r}")
        return Quantity(float(calendar), calendar_unit)
    if (word := _NUMBER_WORD_RE.match(raw)) is not None and (n := number_word_value(word.group("word"))) is not None:
        raw = f"{n} {raw[word.end():]}"  # "six months" is 6 months
    m = _VALUE_RE.match(raw.replace("，", ","))
    if not m:
        raise NumberFormatError(f"no number in {raw!r}")
    value = number_value(m)
    if m.group("mag"):
        value *= _MAGNITUDES[m.group("mag")]
    rest = m.group("rest")
    if _UNREAD.match(rest):
        raise NumberFormatError(f"cannot read {raw[:60]!r} as one number (what follows {m.group('num')!r} is not a "
                                "unit)")
    cur = m.group("cur")
    unit_text = unit if unit else rest
    if cur and not unit:
        currency = _CURRENCY_PREFIX[cur.lower()]  # the table's keys are lower-case: "US$" is "us$"
        rest_clean = rest.lstrip("/").strip().lower()
        rest_clean = rest_clean.removeprefix("per ").strip()
        period = _PERIODS.get(rest_clean)
        unit_text = f"{currency}/{period}" if period else currency
    canon, factor = canonical_unit(unit_text)
    if canon == "year" and not unit and value < 1000:
        canon, factor = canonical_unit("years")  # "1 year of support", "a three-year cadence": a span, not 0001
    return Quantity(value * factor, canon)


_MONTH_NUM = {m: i + 1 for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                              "nov", "dec"))}
_D_MONTH_Y = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?(?:\s+|-)(?:of\s+)?([A-Za-z]{3})[a-z]*\.?,?(?:\s+|-)(\d{3,4})")
_SLASHED = re.compile(r"(?<!\d)(\d{1,4})/(\d{1,2})/(\d{1,4})(?!\d)")
_MONTH_D_Y = re.compile(r"([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{3,4})")
_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_CJK_FULL = re.compile(r"(\d{3,4})\s?年\s?(\d{1,2})\s?月\s?(\d{1,2})\s?日")
_A_YEAR = re.compile(r"(?<!\d)(\d{3,4})(?!\d)")


_VERSION_TEXT = re.compile(r"(?<![\w.])v?(\d{1,5})((?:\.\d{1,5}){0,3})(?![\w.]*\d)", re.I)


def version_key(raw: str) -> int | None:
    """A version as one orderable number: "3.12.14" -> 3_012_014_000, "v1.31" -> 1_031_000_000, so that equal
    versions are equal values and a later release is a larger one (at most four parts, each below 1000)."""
    m = _VERSION_TEXT.search(raw.strip())
    if m is None:
        return None
    parts = [int(m.group(1)), *(int(p) for p in m.group(2).split(".")[1:])]
    if any(p >= 1000 for p in parts[1:]) or parts[0] >= 1_000_000:
        return None
    parts += [0] * (4 - len(parts))
    return ((parts[0] * 1000 + parts[1]) * 1000 + parts[2]) * 1000 + parts[3]


def version_text(key: int) -> str:
    """The version a key stands for, without trailing zero parts beyond major.minor ("3.12.14", "1.31")."""
    parts = [key // 1_000_000_000, key // 1_000_000 % 1000, key // 1000 % 1000, key % 1000]
    while len(parts) > 2 and parts[-1] == 0:
        parts.pop()
    return ".".join(str(p) for p in parts)


def calendar_value(raw: str, unit: str) -> int | None:
    """"2 July 1829" / "August 1, 1983" / "1983-08-01" / "1983/08/01" / "8/1/1983" / "01-Aug-1983" / "1983年8月1日" ->
    18290702 etc. for unit "date";
    the first year written ("1918-1919" -> 1918, "August 1417" -> 1417) for unit "year"."""
    text = raw.strip()
    if unit == "date":
        if (m := _ISO_DATE.search(text)) or (m := _CJK_FULL.search(text)):
            y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        elif m := _SLASHED.search(text):
            # year first (2025/07/30), or month and day before the year: the day is the one above 12 (11/17/2016,
            # 17/11/2016); 03/04/2020 says neither
            a, b, c = (int(g) for g in m.groups())
            if len(m.group(1)) == 4:
                y, mo, d = a, b, c
            elif len(m.group(3)) == 4 and (a > 12) != (b > 12):
                y, mo, d = (c, a, b) if b > 12 else (c, b, a)
            else:
                return None
        elif (m := _D_MONTH_Y.search(text)) and m.group(2).lower() in _MONTH_NUM:
            y, mo, d = int(m.group(3)), _MONTH_NUM[m.group(2).lower()], int(m.group(1))
        elif (m := _MONTH_D_Y.search(text)) and m.group(1).lower() in _MONTH_NUM:
            y, mo, d = int(m.group(3)), _MONTH_NUM[m.group(1).lower()], int(m.group(2))
        else:
            return None
        return y * 10000 + mo * 100 + d if 1 <= mo <= 12 and 1 <= d <= 31 else None
    m = _A_YEAR.search(text)
    return int(m.group(1)) if m else None


@lru_cache(maxsize=4096)
def normalise_metric(metric: str) -> str:
    """`P99 Latency` -> `p99_latency`; keeps CJK characters."""
    m = re.sub(r"[\s\-/]+", "_", metric.strip().lower())
    return re.sub(r"[^\w]+", "", m).strip("_")


# where a condition splits into its parts: "3 brokers, 1 KB messages; replication 3 and acks=all"
_CONDITION_PARTS = re.compile(r"[,;，；]|\band\b")


@lru_cache(maxsize=4096)
def normalise_condition(condition: str | None) -> str:
    """A comparable key for a condition: lower-case parts, numbers glued to units, parts sorted.

    '3 brokers, 1 KB messages' and '1KB messages; 3 brokers' give the same key.
    """
    if not condition:
        return ""
    text = condition.lower().replace("；", ";").replace("，", ",")
    text = re.sub(r"(\d)\s+(?=[a-z%\u4e00-\u9fff])", r"\1", text)
    text = re.sub(r"(?<=[\u4e00-\u9fff])\s+(?=\d)", "", text)
    parts = [re.sub(r"\s+", " ", p).strip(" .") for p in _CONDITION_PARTS.split(text)]
    return " | ".join(sorted(p for p in parts if p))


# --- condition compatibility ---------------------------------------------------------------------

_DIMENSIONS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((d, re.compile(p, re.I)) for d, p in (
    ("vs", r"^(?:vs\.?|versus|compared (?:to|with)|than)\s"),
    ("census", r"census|as of|普查"),
    ("version", r"\bversion\b|^v\d|\b\d+\.\d+(?:\.\d+)*$|版本|起$"),
    ("threads", r"threads?|workers?|线程"),
    ("hardware", r"\d?x?large\b|\b(?:amd|intel|ryzen|xeon|graviton|epyc|arm)\b|\bcores?\b|vcpus?|核|\bram\b|"
                 r"\bssd|\bnvme|\bhdd|\bds\d|\bgb memory"),
    ("cardinality", r"devices?|hosts?|cardinality|\bscale\b|设备|电表"),
    ("dataset", r"\bdataset\b|\bsift|\bglove|\bgist|\btsbs\b|cpu-only|\bdevops\b|\bbenchmark\b|数据集"),
    ("scope", r"\b(?:indexed|stored|per (?:table|database|series|row|request|node|core|hour|month|day))\b|"
              r"单核|单节点|每"),
    ("plan", r"\b(?:free|usage-based|paid|enterprise|oss|serverless|dedicated|cloud)\b|企业版|社区版"),
    ("limit kind", r"^(?:default|configurable|(?:safe|soft|hard|recommended) limit)$"),
    ("statistic", r"\b(?:max(?:imum)?|peak|average|mean|median|minimum|min|p\d{2,3}|at least|no less than|"
                  r"as (?:high|much) as)\b|最大|平均|峰值|低于|至少|不少于|可达|高达"),
))


def dimension_of(part: str) -> str:
    """The dimension one condition part sets ("4 threads" -> threads, "m5.8xlarge" -> hardware, "vs ClickHouse"
    -> vs); a part no rule knows is its own dimension."""
    return next((d for d, rx in _DIMENSIONS if rx.search(part)), part)


def condition_dimensions(condition: str | None) -> dict[str, set[str]]:
    """Each normalised part of a condition under the dimension it sets."""
    out: dict[str, set[str]] = {}
    for part in filter(None, normalise_condition(condition).split(" | ")):
        out.setdefault(dimension_of(part), set()).add(part)
    return out


def written_parts(condition: str | None, dimension: str) -> list[str]:
    """The parts of a condition as written that set one dimension ("high cardinality, 10 million devices" for
    cardinality out of "high cardinality, 10 million devices, four threads")."""
    parts = (p.strip(" .") for p in _CONDITION_PARTS.split(condition or ""))
    return [p for p in parts if p and dimension_of(normalise_condition(p)) == dimension]


def conditions_compatible(a: str | None, b: str | None) -> bool:
    """Two observations' conditions can describe the same measurement: no dimension that both set (threads,
    hardware, dataset, cardinality, version, scope, plan, statistic, the baseline of a ratio) differs. An unstated
    dimension is compatible with any value, so "4 threads" and "4 threads, m5.8xlarge" compare."""
    da, db = condition_dimensions(a), condition_dimensions(b)
    return all(da[d] == db[d] for d in da.keys() & db.keys())


# --- numbers in free text (the verifier's view) ---------------------------------------------------

_TEXT_NUM_RE = re.compile(
    r"(?P<cur>US\$|\$|€|¥|￥)?"
    # not inside a word or an identifier (COVID-19, i3en, v3.2); CJK text directly before a number is fine
    r"(?P<num>(?<![A-Za-z0-9_.])(?<![A-Za-z]-)\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![A-Za-z0-9_.])(?<![A-Za-z]-)\d+(?:\.\d+)?)"
    # a power of ten: "1.5e3 MB/s", "2 × 10^6 messages"
    r"(?:[eE](?P<exp>[+-]?\d{1,3})(?![\w.])|\s?[×xX·]\s?10\^(?P<pow>[+\-−]?\d{1,3})(?![\d.]))?"
    r"\s?(?P<mag>万亿|万|亿|千|百万|thousand|million|billion|trillion|bn|mn|[kKMBG](?![A-Za-z]))?"
    # longer units first: "msg/s" must not be read as "ms"
    r"\s?(?P<unit>%|％|percent|msgs?/s(?:ec)?|messages/s(?:ec)?|messages per second|MB/s|GB/s|KB/s|MiB/s|"
    r"Gbps|Mbps|ms\b|µs|us\b|ns\b|条/秒|条消息/秒|毫秒|微秒|秒|倍|x\b|GB|MB|KB|TB|/hour|/month|/hr|/h\b|"
    r"per hour|per month|元|美元)?"
)


def find_quantities(text: str) -> list[tuple[int, int, Quantity]]:
    """All numbers in a text with their spans, in canonical units where a unit follows the number.

    Years (four digits 1900-2100 without a unit) and list markers are kept: the verifier decides
    what matters; this function only reads.
    """
    found: list[tuple[int, int, Quantity]] = []
    for m in _TEXT_NUM_RE.finditer(text):
        num = m.group("num")
        if not num:
            continue
        power = m.group("exp") or m.group("pow")
        value = float(num.replace(",", "") + (f"e{power.replace('−', '-')}" if power else ""))
        if not math.isfinite(value):
            continue  # "1e999": no figure a quote can match
        if m.group("mag"):
            value *= _MAGNITUDES[m.group("mag")]
        unit = m.group("unit") or ""
        cur = m.group("cur")
        if cur:
            tail = unit.lower().removeprefix("per ").lstrip("/")
            period = _PERIODS.get(tail) if unit.startswith("/") or unit.lower().startswith("per ") else None
            currency = _CURRENCY_PREFIX[cur.lower() if cur.lower() in _CURRENCY_PREFIX else cur]
            unit = f"{currency}/{period}" if period else currency
        canon, factor = canonical_unit(unit)
        found.append((m.start(), m.end(), Quantity(value * factor, canon)))
    return found
