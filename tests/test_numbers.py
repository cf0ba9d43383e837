"""Numeric normalisation (pure)."""

from __future__ import annotations

import pytest

from openresearch.numbers import (
    NumberFormatError,
    Quantity,
    find_quantities,
    normalise_condition,
    normalise_metric,
    parse_quantity,
)


@pytest.mark.parametrize(("raw", "unit", "value", "canon"), [
    ("10.9k", None, 10_900, ""),
    ("10,940", None, 10_940, ""),
    ("1.2万", "msg/s", 12_000, "msg/s"),
    ("3亿", None, 300_000_000, ""),
    ("60%", None, 60, "%"),
    ("$0.5/hour", None, 0.5, "USD/hour"),
    ("$0.5 per hour", None, 0.5, "USD/hour"),
    (0.5, "USD/hour", 0.5, "USD/hour"),
    ("1.2M", "msg/s", 1_200_000, "msg/s"),
    ("2 ms", None, 2, "ms"),
    ("0.5", "s", 500, "ms"),
    ("1.5 GB/s", None, 1500, "MB/s"),
    (605, "MB/s", 605, "MB/s"),
    ("1 Gbps", None, 125, "MB/s"),
    ("128 MiB", None, 128, "MB"),
])
def test_parse_quantity(raw: str | float, unit: str | None, value: float, canon: str) -> None:
    q = parse_quantity(raw, unit)
    assert q.unit == canon
    assert q.value == pytest.approx(value)


@pytest.mark.parametrize("bad", ["lots", "", "n/a", float("nan"), float("inf")])
def test_parse_quantity_rejects_non_numbers(bad: str | float) -> None:
    with pytest.raises(NumberFormatError):
        parse_quantity(bad)


def test_equivalent_forms_compare_equal() -> None:
    assert parse_quantity("1.2", "GB/s").close_to(parse_quantity("1,200", "MB/s"))
    assert parse_quantity("10.9k").close_to(parse_quantity("10,940"), rel_tol=0.01)
    assert not parse_quantity("2", "ms").close_to(parse_quantity("2", "%"))


def test_metric_and_condition_normalisation() -> None:
    assert normalise_metric("P99 Latency") == "p99_latency"
    assert normalise_metric("p99-latency") == "p99_latency"
    assert normalise_condition("3 brokers, 1 KB messages") == normalise_condition("1KB messages; 3 Brokers")
    assert normalise_condition("1 KB messages") != normalise_condition("100 KB messages")
    assert normalise_condition(None) == ""


@pytest.mark.parametrize(("text", "expected"), [
    ("Kafka reached 605 MB/s and a p99 of 5 ms", [(605, "MB/s"), (5, "ms")]),
    ("每秒 1.2万 条消息", [(12_000, "")]),
    ("达到1.2万条/秒", [(12_000, "msg/s")]),
    ("10,940 msg/s", [(10_940, "msg/s")]),
    ("It costs $0.21 per hour", [(0.21, "USD/hour")]),
    ("US$5 per hour", [(5, "USD/hour")]),
    ("COVID-19 cases rose 60%", [(60, "%")]),
    ("on i3en.2xlarge nodes", []),
])
def test_find_quantities(text: str, expected: list[tuple[float, str]]) -> None:
    found = [(q.value, q.unit) for _, _, q in find_quantities(text)]
    assert found == [(pytest.approx(v), u) for v, u in expected]


def test_find_quantities_spans_point_at_the_text() -> None:
    text = "Pulsar: 305 MB/s."
    (start, end, q), = find_quantities(text)
    assert text[start:end] == "305 MB/s" and q == Quantity(305.0, "MB/s")


def test_a_span_of_the_calendar_reads_in_the_largest_unit_that_holds_it_whole() -> None:
    from openresearch.numbers import parse_quantity, quantity_label

    assert quantity_label(parse_quantity("30 months").value, "days") == "30 months"
    assert quantity_label(parse_quantity("five years").value, "days") == "5 years"
    assert quantity_label(parse_quantity("six weeks").value, "days") == "6 weeks"
    assert quantity_label(parse_quantity("1 year").value, "days") == "1 year"
    assert quantity_label(10.0, "days") == "10 days" and quantity_label(2.5, "MB/s") == "2.5 MB/s"
    assert parse_quantity("2023", "year").unit == "year"  # a calendar year stays one
