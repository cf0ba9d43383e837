"""A cell's value as its quote writes it, with its unit: a range keeps its unit ("12-24 MB"), and so does a span
written with a unit letter glued to its number ("3d"). The names are made up."""

from __future__ import annotations

from openresearch.agents.write.answer import value_text
from openresearch.models import EvidenceView, ObservationView, SourceView


def _ev(quote: str, value: float, unit: str, raw: str, raw_unit: str) -> EvidenceView:
    return EvidenceView(
        id="E-000000000101", quote=quote, type="statistic", score=0.5,
        source=SourceView(id="S-a", url="local:///docs/a.txt", title="a.txt"), entities=["Zorbq"],
        observations=[ObservationView(id="O-1", entity="Zorbq", metric="size", value=value, unit=unit,
                                      raw_value=raw, raw_unit=raw_unit, condition="")])


def test_a_range_keeps_its_unit() -> None:
    ev = _ev("Zorbq bundles its frobs into wibbles of 12-24MB before it uploads them.", 12.0, "MB", "12-24", "MB")
    assert value_text(ev, ev.observations[0]) == "12-24 MB"


def test_a_day_glued_to_its_number_stays_as_written() -> None:
    from openresearch.agents.extract.observations import observations
    from openresearch.numbers import parse_quantity

    (o,) = observations("The default frob-max-age is 3d.", [], set(), "Zorbq")  # read as a time, in days
    q = parse_quantity(o.value, o.unit)
    assert (o.unit, q.unit, q.value) == ("d", "days", 3.0)
    ev = _ev("The default frob-max-age is 3d.", q.value, q.unit, o.value, o.unit or "")
    assert value_text(ev, ev.observations[0]) == "3d"


def test_a_product_that_counts_what_others_measure_in_bytes_keeps_its_default() -> None:
    from openresearch.agents.write.answer import Found, focus_row

    def found(entity: str, metric: str, value: float, unit: str, cond: str) -> Found:
        o = ObservationView(id=f"O-{entity}", entity=entity, metric=metric, value=value, unit=unit,
                            raw_value=f"{value:g}", raw_unit=unit, condition=cond)
        return Found(f"{value:g}", o, [_ev("...", value, unit, f"{value:g}", unit)])

    row = {"Zorbq": [found("Zorbq", "size_limit", 1000.0, "MB", "default")],
           "Quux": [found("Quux", "max_size", 64.0, "MB", "")],
           "Wibble": [found("Wibble", "maxsize", 128.0, "", "default, frob_cache"),
                      found("Wibble", "frobs", 3.0, "", "")]}
    kept = focus_row(row, set())
    assert [f.text for f in kept["Wibble"]] == ["128"]  # its default count, not a count said in passing
    assert set(kept) == {"Zorbq", "Quux", "Wibble"}


def test_a_question_for_speed_ups_is_answered_by_a_faster_claim() -> None:
    from openresearch.agents.write.answer import collect

    ev = EvidenceView(
        id="E-000000000102", quote="Zorbq parses frobs roughly 9x faster than Quux.", type="statistic", score=0.5,
        source=SourceView(id="S-b", url="local:///docs/b.txt", title="b.txt"), entities=["Zorbq"],
        observations=[ObservationView(id="O-2", entity="Zorbq", metric="speedup", value=9.0, unit="x",
                                      raw_value="9", raw_unit="x", condition="vs Quux")])
    assert [f.text for f in collect([ev], "speedup", "Zorbq", "frob parsing speed-ups")["Zorbq"]] == ["9"]
