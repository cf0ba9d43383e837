"""Numbers in every written form parse to their exact value, or are refused: scientific notation, powers of ten,
thousands separated by spaces, apostrophes, dots or commas, decimal commas. Also through a real evidence import
(the embedded FalkorDB): "1.5e3" is stored as 1500, and a number that cannot be read whole is one error naming
its line, never a cut value."""

from __future__ import annotations

import json

import pytest

from openresearch.graph.store import GraphStore
from openresearch.ingest.evidence_io import import_lines
from openresearch.numbers import NumberFormatError, find_quantities, parse_quantity


@pytest.mark.parametrize(("text", "value", "unit"), [
    ("1.5e3", 1500.0, ""), ("1e3 MB/s", 1000.0, "MB/s"), ("1.5E+03 ms", 1500.0, "ms"), ("2.5e-1 s", 250.0, "ms"),
    ("1.5 × 10^3", 1500.0, ""), ("2x10**3 msg/s", 2000.0, "msg/s"), ("1.5·10⁻³ s", 1.5, "ms"),
    ("1 234,5", 1234.5, ""), ("12\u202f000 MB", 12000.0, "MB"), ("1.234,5", 1234.5, ""), ("1'234.5", 1234.5, ""),
    ("1’234’567", 1234567.0, ""), ("1.234.567", 1234567.0, ""), ("1,234.5", 1234.5, ""), ("1,5", 1.5, ""),
    ("1 234 567,89 €", 1234567.89, "EUR"),
    # the forms that were read before keep their meaning
    ("10,940", 10940.0, ""), ("1.234", 1.234, ""), ("10.9k", 10900.0, ""), ("1.2万", 12000.0, ""), ("60%", 60.0, "%"),
    ("$0.5/hour", 0.5, "USD/hour"), ("3 brokers", 3.0, "brokers"), ("2x", 2.0, ""),
])
def test_written_forms_parse_exactly(text: str, value: float, unit: str) -> None:
    q = parse_quantity(text)
    assert q.value == pytest.approx(value, rel=1e-12) and q.unit == unit


@pytest.mark.parametrize("text", ["1.2.3", "1,5,3", "2e", "2e+", "1 2345", "3.12.0", "1e400", "1e-400", "4^2"])
def test_a_number_that_cannot_be_read_whole_is_refused(text: str) -> None:
    with pytest.raises(NumberFormatError) as err:
        parse_quantity(text)
    assert text in str(err.value) and "\n" not in str(err.value)


def test_free_text_reads_powers_of_ten() -> None:
    found = [q for _, _, q in find_quantities("Kafka did 1.5e3 MB/s and 2 × 10^6 msg/s; COVID-19 v3.2 1e999")]
    assert [(q.value, q.unit) for q in found] == [(1500.0, "MB/s"), (2_000_000.0, "msg/s")]



def _line(value: str, unit: str, n: int) -> str:
    quote = f"The queue moved {value} {unit} in run {n}."
    return json.dumps({"source": {"url": f"https://numbers.example/{n}"}, "quote": quote,
                       "observations": [{"entity": "Queuey", "metric": "throughput", "value": value, "unit": unit}]})


@pytest.mark.integration
def test_an_import_stores_exact_values_and_refuses_unreadable_ones(falkor_store: GraphStore) -> None:
    lines = [_line("1.5e3", "MB/s", 1), _line("1e3 MB/s", "", 2), _line("1 234,5", "MB/s", 3),
             _line("1.2.3", "MB/s", 4)]
    report = import_lines(falkor_store, lines)
    assert report.imported == 3
    assert len(report.errors) == 1 and report.errors[0].startswith("line 4:") and "1.2.3" in report.errors[0]
    rows = falkor_store.backend.read("MATCH (o:Observation) RETURN o.value AS v, o.unit AS u ORDER BY v")
    assert [(r["v"], r["u"]) for r in rows] == [(1000.0, "MB/s"), (1234.5, "MB/s"), (1500.0, "MB/s")]
