"""Number and date parsing, URL identity and the SSRF guard, evidence and verify-claims lines, on generated input.

Pure functions: the only acceptable failure of each is its own domain error (NumberFormatError, FetchRefused,
InputError, one line naming the line), never another exception; and what they return keeps its promises
(a formatted number parses back to itself, a canonical URL is a fixed point, a private address is refused).
"""

from __future__ import annotations

import asyncio
import io
import ipaddress
import json
import math
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prop_budget import budget

from openresearch.commands.verify_cmd import parse_lines
from openresearch.errors import FetchError, FetchRefused, InputError
from openresearch.identity import canonical_url, entity_key, source_id
from openresearch.ingest.evidence_io import decoded_lines, parse_line
from openresearch.ingest.metadata import parse_date
from openresearch.ingest.safety import StaticResolver, UrlGuard, forbidden_reason, parse_url
from openresearch.numbers import (
    NumberFormatError,
    Quantity,
    calendar_value,
    canonical_unit,
    find_quantities,
    normalise_condition,
    parse_quantity,
)

UNITS = st.sampled_from([None, "", "MB/s", "GB/s", "ms", "s", "µs", "%", "USD", "USD/hour", "万", "rows/s", "msg/s",
                         "GB", "TB", "people", "threads", "倍", "毫秒", "条/秒", "x", "unknown-unit", "date", "year"])
NUMERIC_TEXT = st.one_of(
    st.text(max_size=30),
    st.from_regex(r"\A\s*(US\$|\$|€|¥)?\s*-?\d{0,12}([.,]\d{0,6})?\s*(k|K|M|B|G|万|亿|million|bn)?\s*[A-Za-z/%万]{0,8}\Z"),
)


# --- numbers ----------------------------------------------------------------------------------------

@budget(100)
@given(NUMERIC_TEXT, UNITS)
def test_parse_quantity_gives_a_finite_quantity_or_its_own_error(raw: str, unit: str | None) -> None:
    try:
        q = parse_quantity(raw, unit)
    except NumberFormatError as e:
        assert "\n" not in str(e)[:200] or "\n" in raw
        return
    assert isinstance(q, Quantity) and isinstance(q.value, float) and isinstance(q.unit, str)


@budget(100)
@given(st.floats(0, 1e15, allow_nan=False), UNITS.filter(lambda u: u not in ("date", "year")))
def test_a_number_written_out_parses_back(value: float, unit: str | None) -> None:
    canon, factor = canonical_unit(unit)
    for text in (repr(value), f"{value:,.3f}", f"{value:.6g}"):
        if "e" in text or "inf" in text:
            continue  # exponent notation is not a form sources write numbers in
        q = parse_quantity(text, unit)
        assert q.unit == canon
        assert math.isclose(q.value, float(text.replace(",", "")) * factor, rel_tol=1e-9, abs_tol=1e-12)


@budget(100)
@given(st.integers(0, 10**12), st.sampled_from([("k", 1e3), ("M", 1e6), ("万", 1e4), ("亿", 1e8), (" million", 1e6)]))
def test_magnitudes_multiply(n: int, mag: tuple[str, float]) -> None:
    assert math.isclose(parse_quantity(f"{n}{mag[0]}").value, n * mag[1], rel_tol=1e-12)


@budget(100)
@given(st.text(max_size=80))
def test_find_quantities_spans_are_in_the_text(text: str) -> None:
    last = -1
    for s, e, q in find_quantities(text):
        assert 0 <= s < e <= len(text) and s >= last and math.isfinite(q.value)
        assert any(ch.isdigit() for ch in text[s:e])
        last = e


@budget(100)
@given(st.dates(date(1000, 1, 1), date(2999, 12, 31)), st.sampled_from(["iso", "dmy", "mdy", "cjk"]))
def test_dates_written_any_way_give_the_same_value(d: date, form: str) -> None:
    month = d.strftime("%B")
    text = {"iso": d.isoformat(), "dmy": f"{d.day} {month} {d.year}", "mdy": f"{month} {d.day}, {d.year}",
            "cjk": f"{d.year}年{d.month}月{d.day}日"}[form]
    assert calendar_value(text, "date") == d.year * 10000 + d.month * 100 + d.day
    assert calendar_value(text, "year") == d.year
    assert parse_quantity(text, "date").value == float(d.year * 10000 + d.month * 100 + d.day)


@budget(100)
@given(st.text(max_size=60))
def test_calendar_and_metadata_dates_never_raise(text: str) -> None:
    for unit in ("date", "year"):
        v = calendar_value(text, unit)
        assert v is None or isinstance(v, int)
    parsed = parse_date(text)
    assert parsed is None or isinstance(parsed, date)


@budget(100)
@given(st.lists(st.sampled_from(["3 brokers", "1 KB messages", "4 threads", "m5.8xlarge", "vs Kafka", "p99",
                                 "北京", "单节点"]), max_size=5, unique=True), st.randoms())
def test_condition_key_ignores_order_and_separators(parts: list[str], rnd: object) -> None:
    shuffled = list(parts)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert normalise_condition(", ".join(parts)) == normalise_condition("; ".join(shuffled))


# --- URL identity and the SSRF guard ----------------------------------------------------------------

HOSTS = st.sampled_from(["Example.COM", "docs.example.org", "xn--fsq.example", "北京.example", "a.b.c.example",
                         "127.0.0.1", "[::1]", "0177.0.0.1", "2130706433", "localhost", "①②⑦.0.0.1", ""])
URLS = st.one_of(
    st.builds(lambda scheme, host, port, path, query, frag: f"{scheme}://{host}{port}{path}{query}{frag}",
              st.sampled_from(["http", "https", "HTTP", "ftp", "file", "javascript"]), HOSTS,
              st.sampled_from(["", ":80", ":443", ":8443", ":0", ":99999", ":-1", ":abc"]),
              st.text(st.characters(blacklist_categories=["Cs"]), max_size=20).map(lambda p: "/" + p),
              st.sampled_from(["", "?b=2&a=1", "?utm_source=x&a=1", "?a=%00", "?q=北京"]),
              st.sampled_from(["", "#frag", "#"])),
    st.text(max_size=60),
)


@budget(150)
@given(URLS)
def test_canonical_url_is_a_fixed_point_and_ids_follow_it(url: str) -> None:
    try:
        canon = canonical_url(url)
    except ValueError:
        # urllib refuses some spellings (a bad port, a broken IPv6 literal): the callers check with parse_url
        with pytest.raises(FetchRefused):
            parse_url(url)
        return
    assert canonical_url(canon) == canon
    assert source_id(url) == source_id(canon)


@budget(150)
@given(URLS)
def test_parse_url_accepts_or_refuses_in_one_line(url: str) -> None:
    try:
        parsed = parse_url(url)
    except FetchRefused as e:
        assert len(str(e)) < 600 and "Traceback" not in str(e)
        return
    assert parsed.host is not None


ADDRESSES = st.one_of(st.ip_addresses(v=4).map(str), st.ip_addresses(v=6).map(str))


@budget(150)
@given(ADDRESSES)
def test_every_non_global_address_is_refused(address: str) -> None:
    reason = forbidden_reason(address)
    ip = ipaddress.ip_address(address)
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    effective = mapped or ip
    # allowed only if global; the guard is stricter than is_global (multicast, reserved ranges Python calls global)
    assert reason is not None or effective.is_global
    if effective.is_global and not (effective.is_multicast or effective.is_reserved):
        assert reason is None


@budget(100)
@given(ADDRESSES, st.sampled_from(["http", "https"]))
def test_the_guard_pins_only_public_addresses(address: str, scheme: str) -> None:
    guard = UrlGuard(resolver=StaticResolver({"site.test": [address]}))

    async def go() -> str | None:
        try:
            target = await guard.check(f"{scheme}://site.test/page")
        except FetchRefused as e:
            return str(e)
        return target.address if target.address == address else "pinned another address"

    outcome = asyncio.run(go())
    if forbidden_reason(address) is None:
        assert outcome == address
    else:
        assert outcome is not None and "refused" in outcome and address in outcome


@budget(100)
@given(st.text(max_size=30))
def test_entity_keys_fold_case_width_and_punctuation(name: str) -> None:
    key = entity_key(name)
    assert entity_key(name.upper()) == key or not name.isascii()
    assert entity_key(key) == key


# --- evidence and verify-claims lines --------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)),
    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=8), kids, max_size=4)),
    max_leaves=20)
FIELDS = st.fixed_dictionaries({}, optional={
    "source": st.one_of(JSON_VALUES, st.fixed_dictionaries({"url": st.text(max_size=30)},
                                                           optional={"title": JSON_VALUES, "kind": JSON_VALUES,
                                                                     "published_at": JSON_VALUES})),
    "quote": JSON_VALUES, "start": st.one_of(st.integers(-5, 2**70), JSON_VALUES), "end": st.integers(-5, 2**70),
    "entities": JSON_VALUES, "question": JSON_VALUES,
    "observations": st.lists(st.fixed_dictionaries({"entity": JSON_VALUES, "metric": JSON_VALUES,
                                                    "value": JSON_VALUES}, optional={"unit": JSON_VALUES}), max_size=3),
    "claim": JSON_VALUES, "evidence": JSON_VALUES,
})


@budget(150)
@given(FIELDS)
def test_evidence_lines_parse_or_name_the_line(data: dict[str, object]) -> None:
    line = json.dumps(data)
    try:
        rec = parse_line(line, 7)
    except InputError as e:
        assert str(e).startswith("line 7: ") and "\n" not in str(e)
        return
    assert rec.quote and (rec.start is None) == (rec.end is None)
    if rec.start is not None and rec.end is not None:
        assert rec.end - rec.start == len(rec.quote) and rec.end < 2**63


@budget(150)
@given(st.lists(st.one_of(FIELDS.map(json.dumps), st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
                          st.text(max_size=40)), max_size=5), st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
def test_verify_claims_lines_in_any_encoding(lines: list[str], encoding: str) -> None:
    blob = "\n".join(line.replace("\n", " ") for line in lines).encode(encoding, "surrogatepass")
    try:
        decoded = list(decoded_lines(io.BytesIO(blob)))
    except UnicodeError:
        pytest.fail("decoded_lines raised instead of marking the line")
    rows, errors, _n = parse_lines(decoded)
    assert all(e.startswith("line ") and "\n" not in e for e in errors)
    for _lineno, row, claim, evidence in rows:
        json.dumps(row, allow_nan=False)
        assert claim.strip() and evidence.strip()


def test_guard_failure_kinds_are_domain_errors() -> None:
    """A name the resolver does not know is a FetchError (skipped), never a crash."""
    guard = UrlGuard(resolver=StaticResolver({}))
    with pytest.raises(FetchError):
        asyncio.run(guard.check("https://unknown.test/"))


# --- what the suite found, pinned ------------------------------------------------------------------

def test_found_us_dollar_prefix_parses() -> None:
    """"US$3" raised KeyError('US$') (the currency table is keyed lower-case)."""
    assert parse_quantity("US$3") == Quantity(3.0, "USD")
    assert parse_quantity("US$0.5/hour") == Quantity(0.5, "USD/hour")


@pytest.mark.parametrize(("url", "canon"), [("http://[::1]/a", "http://[::1]/a"),
                                            ("HTTP://[FE80::1]:80/", "http://[fe80::1]/"),
                                            ("https://[2001:db8::1]:8443/x?b=2&a=1", "https://[2001:db8::1]:8443/x?a=1&b=2")])
def test_found_ipv6_hosts_keep_their_brackets(url: str, canon: str) -> None:
    """canonical_url("http://[::1]/") gave "http://::1/", which is no URL: the stored url could not be read back."""
    assert canonical_url(url) == canon and canonical_url(canon) == canon
