"""What the web page's templates show, worked out from the API's JSON (pure): the report view's comparison and
conflicts tables and charts (the same as report.md and report.html), a comparison's figures one per line, values
as written, conditions without empty parts, and the topics page's value lines and charts."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime
from typing import Any

from markupsafe import Markup
from pydantic import ValidationError

from openresearch.charts import chart_figure, comparison_charts, series_charts
from openresearch.conflicts import condition_label, value_cell
from openresearch.models import Comparison
from openresearch.numbers import quantity_label


def evidence_href(evidence_id: str) -> str:
    return f"/ui/evidence/{evidence_id}"


def charts_html(charts: Iterable[Any]) -> Markup:
    return Markup("".join(chart_figure(c, evidence_href) for c in charts))  # charts.py escapes every text


def report_view(report: dict[str, Any]) -> dict[str, Any] | None:
    """The report's answer table, conflicts table and charts, as report.html has them; None for a stored report
    this version cannot read (the page then shows its sections only)."""
    from openresearch.agents.write.report import answer_table, comparison_rows, conflict_charts, ordered_conflicts
    from openresearch.agents.write.report import comparison_charts as answer_charts
    from openresearch.agents.write.report_model import Report

    try:
        result = Report.model_validate(report)
    except ValidationError:
        return None
    table = answer_table(result)  # once, for the table and its charts
    header, rows = comparison_rows(result, table)
    conflicts = [{"id": c.id, "entity": c.entity, "metric": c.metric, "condition": condition_label(c),
                  "values": [{"text": value_cell(c, v), "ids": v.evidence_ids} for v in c.values],
                  "difference": f"{c.relative_difference:.0%}", "credibility": c.credibility}
                 for c in ordered_conflicts(result)]
    return {"header": header, "rows": rows, "conflicts": conflicts,
            "answer_charts": charts_html(answer_charts(result, table)),
            "conflict_charts": charts_html(conflict_charts(result))}


def cell_lines(cell: dict[str, Any]) -> list[dict[str, Any]]:
    """A comparison cell's current figures, one per line: the value as written ("2019", "605 MB/s"), its
    condition when it has one, and its evidence id; a figure only reported or disputed says so."""
    values = cell.get("values") or []
    n = len(values)
    unit = str(cell.get("unit") or "")

    def at(key: str, i: int, default: Any) -> Any:
        seq = cell.get(key) or []
        return seq[i] if i < len(seq) else default

    out = []
    for i in range(n):
        if at("superseded_by", i, None):
            continue
        role = str(at("roles", i, "own") or "own")
        out.append({"text": quantity_label(float(values[i]), unit),
                    "condition": str(at("conditions", i, "") or "").strip(),
                    "role": role if role in ("reported", "disputed", "bound") else "",
                    "evidence_id": str(at("evidence_ids", i, "") or "")})
    return out


def compare_charts(comp: dict[str, Any]) -> Markup:
    try:
        return charts_html(comparison_charts(Comparison.model_validate(comp)))
    except ValidationError:
        return Markup("")


def quantity(value: Any, unit: Any = "") -> str:
    """A jinja filter: a canonical value as written, "2019" and not "2019.0 year"."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return quantity_label(float(value), str(unit or ""))
    return str(value)


def conditions(parts: Iterable[Any]) -> str:
    """A jinja filter: the conditions that say something, joined ("3 brokers; 1 KB"), never "(; ; )"."""
    return "; ".join(dict.fromkeys(str(p).strip() for p in parts if p is not None and str(p).strip()))


def when(value: Any) -> str:
    """A jinja filter: an epoch-ms time or an ISO date as a date and time a reader scans ("2026-12-03 14:05")."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        value = datetime.fromtimestamp(value / 1000, UTC)
    if isinstance(value, datetime):  # a publication date is stored as its midnight: the day alone
        return value.strftime("%Y-%m-%d" if (value.hour, value.minute, value.second) == (0, 0, 0) else "%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    return str(value or "")


def value_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`GET /topics/values` rows for the topics page: the value as written and its dates."""
    out = []
    for r in rows:
        unit = "" if r.get("unit") in ("year", "date", "version") else r.get("raw_unit") or ""
        raw = f"{r.get('raw_value') or ''} {unit}".strip()
        out.append({**r, "text": raw or quantity(r.get("value"), r.get("unit")),
                    "condition": str(r.get("condition") or "").strip()})
    return out


def topic_charts(rows: list[dict[str, Any]]) -> Markup:
    return charts_html(series_charts(rows))


def day_end_ms(d: date) -> int:
    """The last millisecond of a day (UTC), as the graph stores times."""
    from openresearch.monitor.asof import day_end_ms as end

    return int(end(d) or 0)


def conflict_figures(conflicts: list[Any]) -> dict[str, Markup]:
    """Conflict id -> its values per source as a chart (the conflicts page)."""
    from openresearch.charts import conflict_chart
    from openresearch.models import ConflictGroup

    out: dict[str, Markup] = {}
    for c in conflicts:
        try:
            chart = conflict_chart(ConflictGroup.model_validate(c))
        except ValidationError:
            continue
        if chart is not None:
            out[str(c.get("id"))] = charts_html([chart])
    return out
