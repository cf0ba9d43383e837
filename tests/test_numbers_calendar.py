"""Calendar values, counted units and condition compatibility in numbers.py."""

from __future__ import annotations

import pytest

from openresearch.numbers import (
    NumberFormatError,
    calendar_value,
    canonical_unit,
    condition_dimensions,
    conditions_compatible,
    normalise_condition,
    parse_quantity,
)


@pytest.mark.parametrize(("raw", "unit", "value"), [
    ("2 July 1829", "date", 18290702), ("August 1, 1983", "date", 19830801), ("1983-08-01", "date", 19830801),
    ("1983年8月1日", "date", 19830801), ("1918-1919", "year", 1918), ("August 1417", "year", 1417),
    ("2010年", "year", 2010),
])
def test_calendar_values(raw: str, unit: str, value: int) -> None:
    assert calendar_value(raw, unit) == value
    q = parse_quantity(raw, unit)
    assert (q.value, q.unit) == (value, unit)


def test_a_date_without_a_month_is_no_date() -> None:
    with pytest.raises(NumberFormatError):
        parse_quantity("sometime in spring", "date")


def test_counted_things_are_their_own_families() -> None:
    assert canonical_unit("people")[0] == canonical_unit("inhabitants")[0] == "people"
    assert canonical_unit("households")[0] == "households" != canonical_unit("people")[0]
    assert canonical_unit("column")[0] == canonical_unit("列")[0] == "columns"
    assert parse_quantity("959k", "rows/sec") == parse_quantity("959,000", "rows per second")
    assert parse_quantity("1-2", "bytes per sample").unit == "bytes/sample"
    assert parse_quantity("44.8512", "TB").value == pytest.approx(44851200.0)


def test_condition_dimensions_and_compatibility() -> None:
    dims = condition_dimensions("4 threads, m5.8xlarge, vs ClickHouse")
    assert set(dims) == {"threads", "hardware", "vs"}
    assert conditions_compatible("4 threads", "4 threads, m5.8xlarge")  # unstated hardware compares
    assert conditions_compatible(None, "2010 census")
    assert not conditions_compatible("4 threads", "8 threads")
    assert not conditions_compatible("vs ClickHouse", "vs InfluxDB")
    assert not conditions_compatible("2000 census", "2010 census")
    assert not conditions_compatible("Free Plan", "Usage-Based Plan")
    assert not conditions_compatible("default", "configurable")
    assert normalise_condition("1000 万台智能电表") == normalise_condition("1000万台智能电表")
