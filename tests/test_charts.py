"""Charts as SVG (openresearch/charts.py) and where they are drawn: every figure its own point (never averaged),
one metric and unit per chart, a log scale across more than two decades, titles and axis labels, escaped text,
the figures again as a table; report.html draws them with nothing fetched from elsewhere."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime

from charts_support import ZORK_A, ZORK_B, conflict, sample_report

from openresearch.agents.write.report import comparison_charts as answer_charts
from openresearch.agents.write.report import to_html
from openresearch.charts import (
    Chart,
    Point,
    chart_svg,
    chart_table,
    charts_document,
    comparison_charts,
    conflict_chart,
    scale_for,
    series_charts,
)
from openresearch.models import Comparison, ComparisonCell
from openresearch.numbers import number_text, quantity_label

SVG = "{http://www.w3.org/2000/svg}"


def cell(values: list[float], unit: str, conds: list[str] | None = None, **kw: object) -> ComparisonCell:
    ids = [f"E-{i:06d}" for i in range(len(values))]
    return ComparisonCell(values=values, unit=unit, evidence_ids=ids, conditions=conds or [""] * len(values),
                          **kw)  # type: ignore[arg-type]


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # well-formed XML, or this raises


def test_each_figure_is_its_own_point_and_each_unit_its_own_chart() -> None:
    comp = Comparison(entities=["Zorkq", "Blarnmq"], metrics=["throughput"], cells={"throughput": {
        "Zorkq": cell([605, 1200], "MB/s", ["3 brokers", "3 brokers"]),
        "Blarnmq": cell([50], "MB/s"),
    }})
    comp.cells["throughput"]["Quux"] = cell([9000, 12000], "msg/s")
    comp.entities.append("Quux")
    charts = comparison_charts(comp)
    assert [(c.metric, c.unit, len(c.points)) for c in charts] == [("throughput", "MB/s", 3),
                                                                     ("throughput", "msg/s", 2)]
    mb = charts[0]
    assert sorted(p.value for p in mb.points) == [50, 605, 1200]  # two disagreeing figures: two points, no mean
    root = parsed(chart_svg(mb))
    assert len(root.findall(f".//{SVG}circle")) == 3
    assert "msg/s" not in chart_svg(mb)


def test_superseded_figures_are_not_drawn_and_empty_conditions_are_not_written() -> None:
    comp = Comparison(entities=["Zorkq", "Blarnmq"], metrics=["latency"], cells={"latency": {
        "Zorkq": cell([3, 9], "ms", ["", ""], superseded_by=[None, "O-new"]),
        "Blarnmq": cell([4], "ms"),
    }})
    (chart,) = comparison_charts(comp)
    assert sorted(p.value for p in chart.points) == [3, 4]
    svg = chart_svg(chart)
    assert "(;" not in svg and "· ;" not in svg and "9 ms" not in svg


def test_a_span_over_two_decades_is_drawn_on_a_log_scale_and_a_narrow_one_from_zero() -> None:
    assert scale_for([5, 605, 1200], "MB/s").log
    linear = scale_for([605, 1200], "MB/s")
    assert not linear.log and linear.lo == 0 and linear.hi >= 1200
    years = scale_for([2016, 2019], "year")
    assert not years.log and years.lo >= 2000 and years.tick_label(2016.0) == "2016"
    chart = Chart("dots", "t", "throughput", "MB/s", "entity",
                  (Point("A", 5, "5 MB/s"), Point("B", 1200, "1.2 GB/s")))
    assert "logarithmic scale" in chart_svg(chart)


def test_the_svg_is_labelled_accessible_and_escapes_every_text() -> None:
    chart = Chart("dots", "<script>alert(1)</script> & co", "through<put>", "MB/s", "source",
                  (Point('Evil "quoted" <b>', 5, "5 MB/s", "a < b"), Point("Fine", 7, "7 MB/s")))
    svg = chart_svg(chart)
    assert "<script>" not in svg and "<b>" not in svg and "&lt;script&gt;" in svg
    root = parsed(svg)
    assert root.get("role") == "img" and root.get("viewBox", "").startswith("0 0 ")
    title_id, desc_id = root.get("aria-labelledby", "").split()
    assert root.find(f"{SVG}title").get("id") == title_id  # type: ignore[union-attr]
    assert root.find(f"{SVG}desc").get("id") == desc_id  # type: ignore[union-attr]
    desc = root.find(f"{SVG}desc").text or ""  # type: ignore[union-attr]
    assert "5 MB/s" in desc and "7 MB/s" in desc
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "through<put> (MB/s)" in texts  # the axis names the metric and its unit
    table = chart_table(chart, lambda e: f"/ui/evidence/{e}")
    assert "<b>" not in table and "<th scope=\"col\">source</th>" in table and "7 MB/s" in table


def test_a_conflict_is_drawn_as_its_values_per_source() -> None:
    chart = conflict_chart(conflict(ZORK_A, ZORK_B))
    assert chart is not None and chart.axis == "source"
    assert {(p.series, p.label) for p in chart.points} == {("Zorkq bench A", "605 MB/s"),
                                                           ("Zorkq bench B", "1.2 GB/s")}
    assert {p.refs for p in chart.points} == {("E-a00001",), ("E-b00002",)}


def test_a_monitored_value_over_time_is_a_line_of_its_days() -> None:
    ms = [int(datetime(2026, 1, d, tzinfo=UTC).timestamp()) * 1000 for d in (3, 1, 2)]
    rows = [{"entity": "Zorkq", "metric": "throughput", "unit": "MB/s", "value": v, "raw_value": str(v),
             "raw_unit": "MB/s", "condition": "", "as_of": None, "published_at": t, "evidence_id": f"E-{i}"}
            for i, (v, t) in enumerate(zip([700, 605, 650], ms, strict=True))]
    rows.append({"entity": "Blarnmq", "metric": "throughput", "unit": "MB/s", "value": 5, "published_at": ms[0]})
    (line,) = series_charts(rows)  # one day only: no line for Blarnmq
    assert line.kind == "line" and [p.value for p in line.points] == [605, 650, 700]  # in the order of the days
    root = parsed(chart_svg(line))
    points = root.find(f".//{SVG}polyline").get("points", "").split()  # type: ignore[union-attr]
    assert len(points) == 3 and [float(p.split(",")[0]) for p in points] == sorted(float(p.split(",")[0])
                                                                                   for p in points)


def test_a_chart_file_holds_every_chart_and_parses() -> None:
    comp = Comparison(entities=["Zorkq", "Blarnmq"], metrics=["throughput", "released"], cells={
        "throughput": {"Zorkq": cell([605], "MB/s"), "Blarnmq": cell([50], "MB/s")},
        "released": {"Zorkq": cell([2019], "year"), "Blarnmq": cell([2016], "year")}})
    doc = charts_document(comparison_charts(comp))
    root = parsed(doc.split("?>", 1)[1])
    assert len(root.findall(f"{SVG}svg")) == 2
    assert "2019.0" not in doc and ">2019<" in doc
    assert "No figures" in charts_document([])


def test_values_print_as_written() -> None:
    from openresearch.charts import readable

    assert readable(7e12, "msg/day") == "7,000,000,000,000 msg/day" and readable(2019.0, "year") == "2019"
    assert quantity_label(2019.0, "year") == "2019"
    assert quantity_label(18290702.0, "date") == "1829-07-02"
    assert quantity_label(605.0, "MB/s") == "605 MB/s"
    assert quantity_label(0.1 + 0.2, "%") == "0.3 %"
    assert quantity_label(1234567.0, "rows/s") == "1234567 rows/s"  # never 1.23457e+06
    assert number_text(2.5) == "2.5" and number_text(-3.0) == "-3"


def test_report_html_draws_the_answer_and_the_conflicts_with_nothing_fetched() -> None:
    report = sample_report()
    assert [(c.metric, c.unit) for c in answer_charts(report)] == [("throughput", "MB/s"), ("first release", "year")]
    page = to_html(report)
    assert page.count('role="img"') >= 3  # two answer charts, one conflict chart (and the evidence graph)
    assert 'class="chart-data"' in page and "1.2 GB/s" in page
    assert "2019.0" not in page
    # works offline: no script, no stylesheet or image from anywhere
    assert "<script" not in page and not re.search(r"""(?:src|href)=["']?(?:https?:)?//(?!bench|zorkq|blarnmq)""",
                                                   page)


def test_a_chinese_report_keeps_its_text_and_a_cjk_font() -> None:
    page = to_html(sample_report("zh"))
    assert "三个代理" in page and "Noto Sans CJK SC" in page and 'lang="zh"' in page


def test_dates_are_drawn_on_a_day_axis_labelled_with_days() -> None:
    comp = Comparison(entities=["Zorkq", "Blarnmq"], metrics=["end_of_life"], cells={"end_of_life": {
        "Zorkq": cell([20290430], "date"), "Blarnmq": cell([20270115, 20270115], "date", ["lts", "lts"])}})
    (chart,) = comparison_charts(comp)
    svg = chart_svg(chart)
    texts = [t.text or "" for t in parsed(svg).iter(f"{SVG}text")]
    assert "2029-04-30" in " ".join(texts) and "20290430" not in svg
    assert any(re.fullmatch(r"\d{4}-\d{2}-\d{2}", t) for t in texts)  # ticks are days
    one = scale_for([738000.0], "date")
    assert one.hi - one.lo <= 120  # one day: a month or so either side, not a tenth of the calendar
