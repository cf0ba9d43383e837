"""What charts add to a report (issue 26 item 4: "chart rendering adds under 100 ms to a report").

A report of made-up products (--entities, --metrics, --figures per entity and metric, --conflicts) is rendered
to report.html with its charts and, interleaved in the same process, with the chart builders turned off. The
figure is the p50 of the charts' own work: building them (from the answer's table, which the page works out
anyway, and the conflicts), drawing them, their figure and table markup; the p50 difference of the two pages is
printed as a cross-check (noisy where a page takes seconds). Also: p50/p95 of drawing one chart, the web page's
report view (tables + charts), and the size the charts add to the file. `--report out/x/report.json` measures a
report a run wrote instead.

    python bench/bench_charts.py [--entities 8] [--metrics 6] [--figures 3] [--conflicts 30] [--repeat 15]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from charts_support import conflict, ev  # noqa: E402

from openresearch.agents.write import report as report_mod  # noqa: E402
from openresearch.agents.write.report_model import Report  # noqa: E402
from openresearch.charts import chart_figure, chart_svg  # noqa: E402
from openresearch.models import ConflictGroup, DraftSection, EvidenceView, Plan, Sentence  # noqa: E402

UNITS = [("throughput", "MB/s"), ("latency", "ms"), ("memory", "MB"), ("cost", "USD"), ("storage", "GB"),
         ("released", "year")]


def synthetic(entities: int, metrics: int, figures: int, conflicts: int) -> Report:
    names = [f"Quillon{chr(65 + i)}" for i in range(entities)]
    chosen = UNITS[:metrics]
    items: list[EvidenceView] = []
    n = 0
    for ei, name in enumerate(names):
        for metric, unit in chosen:
            for f in range(figures):
                n += 1
                value = 2000 + ei + f if unit == "year" else round((ei + 1) * (10 ** (f % 3)) * 1.7, 1)
                raw = str(int(value)) if value == int(value) else str(value)
                word = "" if unit == "year" else f" {unit}"
                items.append(ev(f"E-{n:06x}", f"{name} {metric} was {raw}{word} on setup {f}.",
                                [(name, metric, float(value), unit, raw, unit, f"setup {f}")],
                                f"https://bench-{n}.example/{name.lower()}", f"{name} bench {n}",
                                date(2024, 1 + f % 12, 1)))
    groups: list[ConflictGroup] = []
    for i in range(conflicts):
        a = ev(f"E-c{i:05x}a", f"QuillonZ{i} throughput was {100 + i} MB/s.",
               [(f"QuillonZ{i}", "throughput", 100.0 + i, "MB/s", str(100 + i), "MB/s", "")],
               f"https://c{i}a.example/z", f"Lab A {i}")
        b = ev(f"E-c{i:05x}b", f"QuillonZ{i} throughput was {300 + i} MB/s.",
               [(f"QuillonZ{i}", "throughput", 300.0 + i, "MB/s", str(300 + i), "MB/s", "")],
               f"https://c{i}b.example/z", f"Lab B {i}")
        items += [a, b]
        groups.append(conflict(a, b))
    plan = Plan(question="Compare " + ", ".join(names) + ": " + ", ".join(m for m, _ in chosen) + ".",
                kind="comparison", entities=names, attributes=[m for m, _ in chosen], metrics=[m for m, _ in chosen])
    answer = DraftSection(question_id="answer", title="Answer", sentences=[Sentence(text="See the table.")])
    return Report(run_id="run-bench-charts", question=plan.question, title="Bench", verified=False,
                  sections=[answer], evidence=items, conflicts=groups, plan=plan)


def timed(fn: Callable[[], Any], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def p(xs: list[float], q: float) -> float:
    return sorted(xs)[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entities", type=int, default=8)
    ap.add_argument("--metrics", type=int, default=6)
    ap.add_argument("--figures", type=int, default=3)
    ap.add_argument("--conflicts", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--report", type=Path, help="a report.json a run wrote, instead of the made-up one")
    a = ap.parse_args()
    report = Report.model_validate_json(a.report.read_text(encoding="utf-8")) if a.report else \
        synthetic(a.entities, min(a.metrics, len(UNITS)), a.figures, a.conflicts)
    charts = report_mod.comparison_charts(report) + report_mod.conflict_charts(report)
    print(f"report: {len(report.evidence)} evidence items, {len(report.conflicts)} conflicts, {len(charts)} charts "
          f"({sum(len(c.points) for c in charts)} points)")
    report_mod.to_html(report)  # warm: imports, regexes, the graph layout's first call

    saved = report_mod.comparison_charts, report_mod.conflict_charts

    def charts_off() -> None:
        report_mod.comparison_charts = lambda r, t=None: []  # type: ignore[assignment]
        report_mod.conflict_charts = lambda r: []  # type: ignore[assignment]

    def charts_on() -> None:
        report_mod.comparison_charts, report_mod.conflict_charts = saved

    # interleaved, so a change in the machine's load falls on both alike
    with_charts: list[float] = []
    without: list[float] = []
    try:
        for _ in range(a.repeat):
            charts_on()
            with_charts += timed(lambda: report_mod.to_html(report), 1)
            charts_off()
            without += timed(lambda: report_mod.to_html(report), 1)
        plain_size = len(report_mod.to_html(report).encode())
    finally:
        charts_on()
    size = len(report_mod.to_html(report).encode())
    table = report_mod.answer_table(report)  # the answer's table is worked out once for its rows and its charts
    building = timed(lambda: report_mod.comparison_charts(report, table) + report_mod.conflict_charts(report),
                     a.repeat)
    own = timed(lambda: [chart_figure(c) for c in report_mod.comparison_charts(report, table)
                         + report_mod.conflict_charts(report)], a.repeat)
    drawing = [t for c in charts for t in timed(lambda c=c: chart_svg(c), 5)]
    every = timed(lambda: [chart_svg(c) for c in charts], a.repeat)
    from openresearch.api.web_views import report_view

    body = report.model_dump(mode="json")
    view = timed(lambda: report_view(body), a.repeat)

    med = statistics.median
    added = med(with_charts) - med(without)
    print(f"report.html with charts:    p50 {med(with_charts):7.1f} ms  p95 {p(with_charts, .95):7.1f} ms")
    print(f"report.html without charts: p50 {med(without):7.1f} ms  p95 {p(without, .95):7.1f} ms")
    print(f"charts add: {med(own):.1f} ms per report (p50 of their own work: build, draw, figure and table markup; "
          f"target < 100 ms)")
    print(f"  cross-check, p50 difference of the whole page: {added:.1f} ms (noisy where the page takes seconds)")
    print(f"  building the charts from the answer's table and the conflicts: p50 {statistics.median(building):.1f} ms")
    if drawing:
        print(f"  drawing one chart: p50 {statistics.median(drawing):.2f} ms  p95 {p(drawing, .95):.2f} ms; "
              f"all {len(charts)}: p50 {statistics.median(every):.1f} ms")
    print(f"web report view (tables + charts): p50 {statistics.median(view):.1f} ms  p95 {p(view, .95):.1f} ms")
    print(f"report.html size: {size / 1024:.0f} KiB with charts, {plain_size / 1024:.0f} KiB without "
          f"(+{(size - plain_size) / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
