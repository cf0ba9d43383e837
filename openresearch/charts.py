"""Charts as server-rendered SVG (pure: strings from the figures, no I/O, nothing fetched): a compared metric as its
figures per entity, a conflict group as its values per source, a monitored value over time as a line.

Every figure is its own point: values that disagree are drawn apart, never averaged. One chart holds one metric in
one canonical unit (a unit family is never mixed); a scale spanning more than two decades is logarithmic. Each SVG
has a title, a description, `role="img"` and `aria-labelledby`; `chart_table` gives the same figures as a table
for screen readers. All text is escaped.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from html import escape
from typing import Literal

from openresearch.models import Comparison, ConflictGroup
from openresearch.numbers import number_text, quantity_label

__all__ = ["Chart", "Point", "chart_figure", "chart_svg", "chart_table", "comparison_charts", "conflict_chart",
           "series_charts"]

FONT = ("system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', "
        "'Hiragino Sans GB', 'Microsoft YaHei', 'WenQuanYi Micro Hei', sans-serif")
MAX_POINTS = 60  # a chart a reader takes in; the table holds every figure
CALENDAR = ("year", "date", "version")
UNDRAWN = ("version",)  # a version is a name in order, not a magnitude: its figures stay in the tables


@dataclass(frozen=True)
class Point:
    """One figure: the row it belongs to (entity, source), its value in the chart's unit, the value as written,
    the condition it holds under, the evidence behind it, and for a line the day it held."""

    series: str
    value: float
    label: str
    note: str = ""
    refs: tuple[str, ...] = ()
    at: date | None = None


@dataclass(frozen=True)
class Chart:
    kind: Literal["dots", "line"]
    title: str
    metric: str
    unit: str
    axis: str  # what a row is: "entity", "source" (dots) or "date" (line)
    points: tuple[Point, ...] = field(default_factory=tuple)

    @property
    def key(self) -> str:
        """A stable id for the chart's title and description elements (several charts share a page)."""
        raw = f"{self.kind}|{self.title}|{self.unit}|{len(self.points)}"
        return "chart-" + hashlib.sha1(raw.encode()).hexdigest()[:10]

    @property
    def axis_label(self) -> str:
        unit = "" if self.unit in CALENDAR else self.unit
        return f"{self.metric.replace('_', ' ')}" + (f" ({unit})" if unit else "")


# --- building charts from the figures --------------------------------------------------------------------------


def comparison_charts(comp: Comparison) -> list[Chart]:
    """One chart per metric and canonical unit of a comparison: every current figure of every entity, with its
    condition. A metric with fewer than two figures in a unit gets no chart (the table says it all)."""
    out = []
    for metric in comp.metrics:
        by_unit: dict[str, list[Point]] = defaultdict(list)
        for entity in comp.entities:
            cell = comp.cells.get(metric, {}).get(entity)
            if cell is None:
                continue
            n = len(cell.values)
            marks = cell.superseded_by or [None] * n
            roles = cell.roles or ["own"] * n
            conds = cell.conditions or [""] * n
            for i in range(n):
                if marks[i] if i < len(marks) else False:
                    continue  # a superseded figure is history, not a figure to compare
                role = roles[i] if i < len(roles) else "own"
                note = "; ".join(x for x in ((conds[i] if i < len(conds) else "").strip(),
                                             role if role in ("reported", "disputed", "bound") else "") if x)
                ref = cell.evidence_ids[i] if i < len(cell.evidence_ids) else ""
                by_unit[cell.unit].append(Point(entity, cell.values[i], readable(cell.values[i], cell.unit),
                                                note, (ref,) if ref else ()))
        out += [dots(f"{metric.replace('_', ' ')} by entity", metric, unit, "entity", pts)
                for unit, pts in by_unit.items() if len(pts) >= 2 and unit not in UNDRAWN]
    return out


def conflict_chart(g: ConflictGroup) -> Chart | None:
    """A conflict group as its values per source: one point per source and value (a source giving two values has
    two points)."""
    if g.kind == "implied" or g.unit in UNDRAWN:
        return None  # a claim against figures worked out per unit: the values are not on one axis
    pts = []
    for v in g.values:
        label = v.raw_values[0] if v.raw_values else quantity_label(v.value, v.unit)
        note = "; ".join(v.conditions) if g.kind in ("condition", "qualified", "exceeded") else ""
        for i, sid in enumerate(v.source_ids):
            name = (v.source_titles[i] if i < len(v.source_titles) else "") or \
                   (v.source_urls[i] if i < len(v.source_urls) else "") or sid
            ref = v.evidence_ids[i] if i < len(v.evidence_ids) else ""
            pts.append(Point(name, v.value, label, note, (ref,) if ref else ()))
        if not v.source_ids:
            pts.append(Point(f"{v.sources} source(s)", v.value, label, note, tuple(v.evidence_ids[:3])))
    if len(pts) < 2:
        return None
    cond = f" ({g.condition})" if g.condition else ""
    return dots(f"{g.entity} · {g.metric.replace('_', ' ')}{cond}: values per source", g.metric, g.unit, "source", pts)


def series_charts(rows: Iterable[dict[str, object]]) -> list[Chart]:
    """Monitored values over time (rows of `GET /topics/values?superseded=true`), one line per entity, metric,
    canonical unit and condition that has figures on at least two days."""
    groups: dict[tuple[str, str, str, str], list[Point]] = defaultdict(list)
    for r in rows:
        when = _day(r.get("as_of")) or _day(r.get("published_at"))
        value = r.get("value")
        if when is None or not isinstance(value, int | float) or isinstance(value, bool) or r.get("unit") in UNDRAWN:
            continue
        entity, metric, unit = str(r.get("entity") or ""), str(r.get("metric") or ""), str(r.get("unit") or "")
        cond = str(r.get("condition") or "").strip()
        written = f"{r.get('raw_value') or ''} {'' if unit in CALENDAR else r.get('raw_unit') or ''}".strip()
        raw = written or quantity_label(float(value), unit)
        ref = str(r.get("evidence_id") or "")
        groups[(entity, metric, unit, cond)].append(Point(entity, float(value), raw, cond, (ref,) if ref else (),
                                                          when))
    out = []
    for (entity, metric, unit, cond), pts in groups.items():
        if len({p.at for p in pts}) < 2:
            continue
        title = f"{entity} · {metric.replace('_', ' ')}" + (f" ({cond})" if cond else "") + " over time"
        out.append(Chart("line", title, metric, unit, "date", tuple(sorted(pts, key=lambda p: (p.at or date.min)))))
    return out


def readable(value: float, unit: str) -> str:
    """A canonical value for a chart label: grouped in thousands from 100,000 up ("7,000,000,000,000 msg/day"
    reads, 7000000000000 does not); a year, a date or a smaller number as `quantity_label` writes it."""
    if unit in CALENDAR or unit == "days" or abs(value) < 1e5 or not math.isfinite(value):
        return quantity_label(value, unit)
    text = f"{int(value):,}" if value == int(value) else f"{value:,.6f}".rstrip("0").rstrip(".")
    return f"{text} {unit}".strip()


def dots(title: str, metric: str, unit: str, axis: str, pts: Sequence[Point]) -> Chart:
    return Chart("dots", title, metric, unit, axis, tuple(pts))


def _day(v: object) -> date | None:
    """A row's day: a date, an ISO string, or epoch milliseconds (as the graph stores times)."""
    if isinstance(v, date):
        return v
    if isinstance(v, int | float) and not isinstance(v, bool):
        return datetime.fromtimestamp(v / 1000, UTC).date() if v > 0 else None
    if isinstance(v, str) and len(v) >= 10:
        try:
            return date.fromisoformat(v[:10])
        except ValueError:
            return None
    return None


# --- scales ---------------------------------------------------------------------------------------------------


def _plotted(v: float, unit: str) -> float:
    """A date (YYYYMMDD) is drawn on a day axis; everything else as it is."""
    if unit == "date":
        d = _yyyymmdd(v)
        return float(d.toordinal()) if d else v
    return v


def _yyyymmdd(v: float) -> date | None:
    n = round(v)
    try:
        return date(n // 10000, n // 100 % 100, n % 100)
    except ValueError:
        return None


@dataclass(frozen=True)
class Scale:
    lo: float
    hi: float
    log: bool
    unit: str

    def frac(self, v: float) -> float:
        if self.log:
            return (math.log10(v) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo))
        return (v - self.lo) / (self.hi - self.lo)

    def ticks(self) -> list[float]:
        if self.log:
            lo, hi = math.floor(math.log10(self.lo)), math.ceil(math.log10(self.hi))
            return [10.0 ** e for e in range(lo, hi + 1)]
        step = _nice((self.hi - self.lo) / 5)
        start = math.ceil(self.lo / step) * step
        n = int((self.hi - start) / step + 1e-9) + 1
        return [start + i * step for i in range(n)]

    def tick_label(self, v: float) -> str:
        if self.unit == "date":
            return date.fromordinal(int(v)).isoformat() if v >= 1 else ""
        if self.unit == "year":
            return str(round(v))
        return short_number(v)


def scale_for(values: Sequence[float], unit: str) -> Scale:
    """Log when every value is positive and they span more than two decades; from zero when every value is
    positive or zero (a calendar axis starts where its values do)."""
    lo, hi = min(values), max(values)
    if lo > 0 and hi / lo > 100 and unit not in CALENDAR:
        return Scale(10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi)), True, unit)
    if unit not in CALENDAR and lo >= 0:
        lo = 0.0
    if hi == lo:  # one value: a range around it (a year either side, a month either side of a day)
        pad = {"year": 1.0, "date": 30.0}.get(unit, abs(hi) * 0.1 or 1.0)
        lo, hi = (lo - pad if unit in CALENDAR or lo < 0 else 0.0), hi + pad
    step = _nice((hi - lo) / 5)
    lo2 = math.floor(lo / step) * step
    hi2 = math.ceil(hi / step) * step
    return Scale(lo2, hi2 if hi2 > lo2 else lo2 + step, False, unit)


def _nice(raw: float) -> float:
    if raw <= 0:
        return 1.0
    exp = math.floor(math.log10(raw))
    f = raw / 10 ** exp
    return float((1 if f <= 1 else 2 if f <= 2 else 5 if f <= 5 else 10) * 10 ** exp)


def short_number(v: float) -> str:
    """Tick labels: 1.2k, 3M, 0.05."""
    a = abs(v)
    for size, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if a >= size:
            return number_text(v / size, 3) + suffix
    return number_text(v, 3)


# --- rendering ------------------------------------------------------------------------------------------------


def _width(text: str) -> float:
    """Rough width in px at 12px: a wide (CJK) character counts twice."""
    return sum(12.0 if ord(c) > 0x2E80 else 6.6 for c in text)


def _clip(text: str, px: float) -> str:
    if _width(text) <= px:
        return text
    out = ""
    for c in text:
        if _width(out + c + "…") > px:
            break
        out += c
    return out + "…"


def _e(text: str) -> str:
    return escape(text, quote=True)


def chart_svg(chart: Chart, width: int = 720) -> str:
    """The chart as one SVG element (no script, no external reference)."""
    return _line_svg(chart, width) if chart.kind == "line" else _dots_svg(chart, width)


def _head(chart: Chart, width: int, height: int, desc: str) -> list[str]:
    k = chart.key
    return [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-labelledby="{k}-t {k}-d" class="chart chart-{chart.kind}" '
            f'font-family="{_e(FONT)}" font-size="12">',
            f'<title id="{k}-t">{_e(chart.title)}</title><desc id="{k}-d">{_e(desc)}</desc>',
            f'<rect width="{width}" height="{height}" fill="#fff"/>',
            f'<text x="12" y="20" font-size="14" font-weight="600" fill="#1d232b">{_e(_clip(chart.title, width - 24))}'
            "</text>"]


def _describe(chart: Chart, pts: Sequence[Point], scale: Scale) -> str:
    figures = "; ".join(f"{p.series}{f' on {p.at.isoformat()}' if p.at else ''}: {p.label}"
                        f"{f' ({p.note})' if p.note else ''}" for p in pts[:12])
    more = f"; and {len(chart.points) - 12} more" if len(chart.points) > 12 else ""
    scale_word = ", logarithmic scale" if scale.log else ""
    return f"{len(chart.points)} figures of {chart.axis_label}{scale_word}. {figures}{more}."


def _x_axis(parts: list[str], scale: Scale, x0: float, x1: float, y0: float, y1: float, label: str) -> None:
    for t in scale.ticks():
        if t < scale.lo - 1e-9 or t > scale.hi + 1e-9:
            continue
        x = x0 + scale.frac(t) * (x1 - x0)
        parts.append(f'<line x1="{x:.1f}" y1="{y0:.1f}" x2="{x:.1f}" y2="{y1:.1f}" stroke="#e5e7eb"/>'
                     f'<text x="{x:.1f}" y="{y1 + 14:.1f}" text-anchor="middle" fill="#667085">'
                     f"{_e(scale.tick_label(t))}</text>")
    parts.append(f'<line x1="{x0:.1f}" y1="{y1:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="#98a2b3"/>'
                 f'<text x="{(x0 + x1) / 2:.1f}" y="{y1 + 32:.1f}" text-anchor="middle" fill="#1d232b">'
                 f"{_e(label)}</text>")


def _dots_svg(chart: Chart, width: int) -> str:
    pts = list(chart.points[:MAX_POINTS])
    scale = scale_for([_plotted(p.value, chart.unit) for p in pts], chart.unit)
    left = min(240.0, max(90.0, max(_width(p.series) for p in pts) + 16))
    row, top = 24, 48
    height = int(top + row * len(pts) + 50)
    x0, x1 = left, width - 24.0
    y0, y1 = top - 4.0, top + row * len(pts) + 4.0
    parts = _head(chart, width, height, _describe(chart, pts, scale))
    label = chart.axis_label + (", logarithmic scale" if scale.log else "")
    _x_axis(parts, scale, x0, x1, y0, y1, label)
    # the rows' axis: what a row is (entity, source)
    parts.append(f'<text x="{left - 8:.1f}" y="{top - 6:.1f}" text-anchor="end" font-size="11" fill="#667085">'
                 f"{_e(chart.axis)}</text>")
    shown: set[str] = set()
    palette = ("#2563eb", "#b45309", "#15803d", "#7c3aed", "#be123c", "#0e7490")
    colour: dict[str, str] = {}
    for i, p in enumerate(pts):
        y = top + row * i + row / 2
        colour.setdefault(p.series, palette[len(colour) % len(palette)])
        if p.series not in shown:  # a row label once per entity or source; its other figures follow below it
            shown.add(p.series)
            parts.append(f'<text x="{left - 8:.1f}" y="{y + 4:.1f}" text-anchor="end" fill="#1d232b">'
                         f"<title>{_e(p.series)}</title>{_e(_clip(p.series, left - 16))}</text>")
        x = x0 + scale.frac(_plotted(p.value, chart.unit)) * (x1 - x0)
        text = p.label + (f" · {p.note}" if p.note else "")
        right = x < (x0 + x1) / 2
        room = (x1 - x - 10) if right else (x - x0 - 10)
        tip = f"{p.series}: {p.label}" + (f" ({p.note})" if p.note else "") + (f" [{', '.join(p.refs)}]" if p.refs
                                                                              else "")
        parts.append(f'<g class="point"><title>{_e(tip)}</title>'
                     f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="{colour[p.series]}"/>'
                     f'<text x="{x + 9 if right else x - 9:.1f}" y="{y + 4:.1f}" '
                     f'text-anchor="{"start" if right else "end"}" fill="#344054">{_e(_clip(text, max(room, 40)))}'
                     "</text></g>")
    parts.append("</svg>")
    return "".join(parts)


def _line_svg(chart: Chart, width: int) -> str:
    pts = [p for p in chart.points if p.at is not None][:MAX_POINTS * 4]
    height = 300
    ys = scale_for([_plotted(p.value, chart.unit) for p in pts], chart.unit)
    days = [float(p.at.toordinal()) for p in pts if p.at]
    lo, hi = min(days), max(days)
    if hi == lo:
        lo, hi = lo - 1, hi + 1
    xs = Scale(lo, hi, False, "date")
    x0, x1, y0, y1 = 70.0, width - 30.0, 40.0, height - 60.0
    parts = _head(chart, width, height, _describe(chart, pts, ys))
    # the day axis: first, last and a few days between
    for t in _day_ticks(lo, hi):
        x = x0 + xs.frac(t) * (x1 - x0)
        parts.append(f'<line x1="{x:.1f}" y1="{y0:.1f}" x2="{x:.1f}" y2="{y1:.1f}" stroke="#f0f2f5"/>'
                     f'<text x="{x:.1f}" y="{y1 + 14:.1f}" text-anchor="middle" fill="#667085">'
                     f"{_e(xs.tick_label(t))}</text>")
    parts.append(f'<line x1="{x0:.1f}" y1="{y1:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="#98a2b3"/>'
                 f'<text x="{(x0 + x1) / 2:.1f}" y="{y1 + 32:.1f}" text-anchor="middle" fill="#1d232b">date</text>')
    for t in ys.ticks():
        if t < ys.lo - 1e-9 or t > ys.hi + 1e-9:
            continue
        y = y1 - ys.frac(t) * (y1 - y0)
        parts.append(f'<line x1="{x0:.1f}" y1="{y:.1f}" x2="{x1:.1f}" y2="{y:.1f}" stroke="#e5e7eb"/>'
                     f'<text x="{x0 - 6:.1f}" y="{y + 4:.1f}" text-anchor="end" fill="#667085">'
                     f"{_e(ys.tick_label(t))}</text>")
    parts.append(f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x0:.1f}" y2="{y1:.1f}" stroke="#98a2b3"/>'
                 f'<text transform="translate(16 {(y0 + y1) / 2:.1f}) rotate(-90)" text-anchor="middle" '
                 f'fill="#1d232b">{_e(chart.axis_label + (", log scale" if ys.log else ""))}</text>')
    coords = [(x0 + xs.frac(float(p.at.toordinal())) * (x1 - x0),
               y1 - ys.frac(_plotted(p.value, chart.unit)) * (y1 - y0), p) for p in pts if p.at]
    parts.append('<polyline fill="none" stroke="#2563eb" stroke-width="2" points="'
                 + " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in coords) + '"/>')
    for x, y, p in coords:
        tip = f"{p.at.isoformat() if p.at else ''}: {p.label}" + (f" [{', '.join(p.refs)}]" if p.refs else "")
        parts.append(f'<g class="point"><title>{_e(tip)}</title><circle cx="{x:.1f}" cy="{y:.1f}" r="4" '
                     f'fill="#2563eb"/></g>')
    parts.append("</svg>")
    return "".join(parts)


def _day_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """The first and the last day, and up to n-2 whole days evenly between."""
    count = int(min(n - 1, hi - lo))
    return list(dict.fromkeys(float(round(lo + (hi - lo) * i / count)) for i in range(count + 1))) if count else [lo]


def chart_table(chart: Chart, cite_href: Callable[[str], str] = lambda e: f"#{e}") -> str:
    """The chart's figures as a table (for screen readers; CSS may hide it visually), every figure with its
    condition and the evidence behind it."""
    cols = [chart.axis, "value", "condition", "evidence"] if chart.kind == "dots" else \
        ["date", "value", "condition", "evidence"]
    head = "".join(f'<th scope="col">{_e(c)}</th>' for c in cols)
    rows = []
    for p in chart.points:
        first = p.at.isoformat() if chart.kind == "line" and p.at else p.series
        cites = ", ".join(f'<a class="cite" href="{_e(cite_href(r))}" data-evidence="{_e(r)}">{_e(r)}</a>'
                          for r in p.refs)
        rows.append(f'<tr><th scope="row">{_e(first)}</th><td>{_e(p.label)}</td><td>{_e(p.note)}</td>'
                    f"<td>{cites}</td></tr>")
    return (f'<table class="chart-data"><caption>{_e(chart.title)} · {_e(chart.axis_label)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def chart_figure(chart: Chart, cite_href: Callable[[str], str] = lambda e: f"#{e}") -> str:
    """A `<figure>`: the SVG, then the same figures as a table (in a `div.chart-table`, which a stylesheet hides
    from sight but not from screen readers: a table itself cannot be made 1px wide)."""
    return (f'<figure class="chart-figure">{chart_svg(chart)}<div class="chart-table">{chart_table(chart, cite_href)}'
            "</div></figure>")


def charts_document(charts: Sequence[Chart], width: int = 720, gap: int = 16) -> str:
    """A standalone SVG file of one or more charts, one under another (each keeps its own title and
    description); an empty document says there is nothing to draw."""
    if not charts:
        return (f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} '
                f'40" width="{width}" height="40" role="img" aria-label="no figures to chart" font-family="{_e(FONT)}">'
                '<text x="12" y="24" font-size="13">No figures to chart.</text></svg>\n')
    parts, y = [], 0
    for c in charts:
        svg = chart_svg(c, width)
        h = int(svg.split('height="', 1)[1].split('"', 1)[0])
        parts.append(svg.replace("<svg ", f'<svg x="0" y="{y}" ', 1))
        y += h + gap
    total = y - gap
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} '
            f'{total}" width="{width}" height="{total}">{"".join(parts)}</svg>\n')
