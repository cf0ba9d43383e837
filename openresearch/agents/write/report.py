"""Render a `Report` as report.md, report.json and report.html (pure: strings from the model)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import networkx as nx

from openresearch.agents.write.answer import (
    ANSWER_ID,
    Found,
    cell_values,
    cite_ids,
    figure_text,
    figures_per_cell,
    metric_table,
    new_condition,
    ranked,
    same_thing,
)
from openresearch.agents.write.report_model import Report
from openresearch.charts import Chart, Point, chart_figure, conflict_chart, dots
from openresearch.conflicts import condition_label, value_cell
from openresearch.links import is_http_url
from openresearch.models import ConflictGroup

_CITE = re.compile(r"\[(E-[0-9a-f]{6,})\]")


def verification_summary(result: Report) -> str:
    v = result.verification
    counts = {k: sum(1 for x in v.verdicts if x.verdict == k) for k in ("PASS", "DOUBT", "FAIL")}
    state = "fully verified" if v.fully_verified else "not fully verified"
    return (f"{state}: {counts['PASS']} PASS, {counts['DOUBT']} DOUBT, {counts['FAIL']} FAIL; citation coverage "
            f"{v.citation_coverage:.0%}, phantom citations {v.phantom_citations}, numeric faithfulness "
            f"{v.numeric_faithfulness:.0%}")


def to_json(report: Report) -> dict[str, Any]:
    return report.model_dump(mode="json")


Table = dict[str, dict[str, list[Found]]]


def answer_table(result: Report) -> Table | None:
    """The answer's metric table (label -> entity -> figures), worked out once for its table and its charts; None
    when the question names no metrics to compare."""
    plan = result.plan
    if plan.kind == "lookup" or not plan.metrics or len(plan.entities) == 1:
        return None
    return metric_table(plan, ranked(result.evidence))


def comparison_rows(result: Report, table: Table | None = None) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """The metric x entity table of a comparison: header (entities) and one row per metric, every cell the
    values with their conditions and citations; empty when the question names no metrics to compare."""
    plan = result.plan
    table = table if table is not None else answer_table(result)
    if table is None:
        return [], []
    # a question that names no entity: the columns are the entities the evidence reports the metrics for
    entities = list(plan.entities) or list(dict.fromkeys(e for row in table.values() for e in row))
    if len(entities) < 2:
        return [], []
    rows = []
    for label, row in table.items():
        cells = []
        for entity in entities:
            found = row.get(entity, [])
            cells.append("; ".join(figure_text(f, f" ({c})" if (c := new_condition(f)) else "") + " "
                                   + "".join(f"[{e}]" for e in cite_ids(f))
                                   for f in cell_values(found, absolute=len(found))[
                                       :figures_per_cell(plan.question, found)]) or "—")
        rows.append((label, cells))
    return entities, rows


MAX_CONFLICT_CHARTS = 12  # the widest conflicts get a chart; every one is in the table


def comparison_charts(result: Report, table: Table | None = None) -> list[Chart]:
    """The answer's comparison as charts: per asked row and canonical unit, every figure the row holds per entity
    (as its quote writes it, with its condition and citations); relative claims ("1.7x vs X") are not on the axis."""
    table = table if table is not None else answer_table(result)
    out: list[Chart] = []
    for label, row in (table or {}).items():
        by_unit: dict[str, list[Point]] = {}
        for entity, found in row.items():
            for f in cell_values(found, absolute=8, relative=0):
                if f.obs.metric == "speedup":
                    continue
                by_unit.setdefault(f.obs.unit, []).append(
                    Point(entity, f.obs.value, f.text, (f.obs.condition or "").strip(), tuple(cite_ids(f))))
        out += [dots(f"{label} by entity", label, unit, "entity", pts) for unit, pts in by_unit.items()
                if len(pts) >= 2 and len({p.series for p in pts}) >= 2]
    return out


def conflict_charts(result: Report) -> list[Chart]:
    """The conflicts as their values per source, those on what was asked first."""
    return [c for g in ordered_conflicts(result)[:MAX_CONFLICT_CHARTS] if (c := conflict_chart(g)) is not None]


def ordered_conflicts(result: Report) -> list[ConflictGroup]:
    """The conflicts a reader asked about first (on an entity the question names), the widest first; then the
    others the evidence holds, widest first."""
    asked = result.plan.entities

    def key(c: ConflictGroup) -> tuple[bool, float]:
        return (not any(same_thing(c.entity, e) for e in asked), -c.relative_difference)

    return sorted(result.conflicts, key=key)


def comparison_table_md(result: Report) -> list[str]:
    header, rows = comparison_rows(result)
    if not rows:
        return []
    out = ["| metric | " + " | ".join(_cell(h) for h in header) + " |", "|---|" + "---|" * len(header)]
    out += [f"| {_cell(label)} | " + " | ".join(_cell(c) for c in cells) + " |" for label, cells in rows]
    return [*out, ""]


def comparison_table_html(result: Report, table: Table | None = None) -> str:
    header, rows = comparison_rows(result, table)
    if not rows:
        return ""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(f"<tr><th>{html.escape(label)}</th>" + "".join(f"<td>{_linkify(c)}</td>" for c in cells) + "</tr>"
                   for label, cells in rows)
    return f'<table class="comparison"><tr><th>metric</th>{head}</tr>{body}</table>'


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _source_md(url: str) -> str:
    """`<url>` is an autolink in Markdown, for any scheme: only an http(s) address is written so; any other
    as code, which no renderer links."""
    return f"<{url}>" if is_http_url(url) else "`" + _cell(url).replace("`", "'") + "`"


def to_markdown(result: Report) -> str:
    v = result.verification
    out = [f"# {result.title}", "",
           f"> Question: {result.question}  ",
           f"> Run `{result.run_id}` · style {result.style} · {verification_summary(result)}"]
    if result.low_precision:
        out.append(f"> **Limited run:** {result.low_precision}; finished in low-precision (deterministic) mode.")
    out.append("")
    for sec in result.sections:
        out += [f"## {sec.title}", ""]
        if sec.limited:
            why = result.limited.get(sec.question_id, "too little evidence was found")
            out += [f"_Evidence for this section is limited ({why})._", ""]
        out += [" ".join(s.text for s in sec.sentences), ""]
        if sec.question_id == ANSWER_ID:
            out += comparison_table_md(result)
    if result.conflicts:
        out += ["## Conflicts between sources", "",
                "| entity | metric | condition | values (best supported first) | difference | credibility |",
                "|---|---|---|---|---|---|"]
        for c in ordered_conflicts(result):
            values = "; ".join(f"{_cell(value_cell(c, v))} " + "".join(f"[{e}]" for e in v.evidence_ids)
                               for v in c.values)
            out.append(f"| {_cell(c.entity)} | {_cell(c.metric)} | {_cell(condition_label(c))} | {values} | "
                       f"{c.relative_difference:.0%} | {_cell(c.credibility)} |")
        out.append("")
    out += ["## Evidence", "", "| id | quote | source | published |", "|---|---|---|---|"]
    for e in sorted(result.evidence, key=lambda e: e.id):
        page = f", p. {e.page}" if e.page else ""
        out.append(f"| {e.id} | “{_cell(e.quote)}” | {e.source.title or ''} {_source_md(e.source.url)}{page} | "
                   f"{e.source.published_at or ''} |")
    out += ["", "## Verification", "", "| # | sentence | verdict | reasons |", "|---|---|---|---|"]
    for x in v.verdicts:
        out.append(f"| {x.section + 1}.{x.index + 1} | {_cell(x.text)} | {x.verdict} | {_cell('; '.join(x.reasons))} |")
    if v.undisclosed_conflicts:
        named = {c.id: f"{c.id} ({c.entity} {c.metric})" for c in result.conflicts}
        out += ["", "Undisclosed conflicts: " + ", ".join(named.get(k, k) for k in v.undisclosed_conflicts)]
    m = result.metrics
    out += ["", "## Run metrics", "", "```json", json.dumps(m, indent=2, ensure_ascii=False), "```", ""]
    return "\n".join(out)


def _svg_graph(result: Report, width: int = 900, height: int = 520) -> str:
    """Evidence (dots) linked to their sources (squares) and entities (diamonds)."""
    g: nx.Graph = nx.Graph()
    for e in result.evidence:
        g.add_node(e.id, kind="evidence", label=e.id)
        g.add_node(e.source.id, kind="source", label=e.source.title or e.source.url)
        g.add_edge(e.id, e.source.id)
        for name in e.entities:
            g.add_node(f"ent:{name}", kind="entity", label=name)
            g.add_edge(e.id, f"ent:{name}")
    if not g.nodes:
        return ""
    pos = nx.spring_layout(g, seed=7)
    xs = [float(p[0]) for p in pos.values()]
    ys = [float(p[1]) for p in pos.values()]

    def sx(x: float) -> float:
        return float(30 + (x - min(xs)) / ((max(xs) - min(xs)) or 1) * (width - 60))

    def sy(y: float) -> float:
        return float(30 + (y - min(ys)) / ((max(ys) - min(ys)) or 1) * (height - 60))

    parts = [f'<svg viewBox="0 0 {width} {height}" class="graph" role="img" aria-label="evidence graph">']
    for a, b in g.edges:
        parts.append(f'<line x1="{sx(pos[a][0]):.1f}" y1="{sy(pos[a][1]):.1f}" x2="{sx(pos[b][0]):.1f}" '
                     f'y2="{sy(pos[b][1]):.1f}"/>')
    for n, data in g.nodes(data=True):
        x, y = sx(pos[n][0]), sy(pos[n][1])
        label = html.escape(str(data["label"])[:40])
        if data["kind"] == "evidence":
            parts.append(f'<a href="#{n}"><circle cx="{x:.1f}" cy="{y:.1f}" r="5" class="ev"><title>{label}'
                         f'</title></circle></a>')
        elif data["kind"] == "source":
            parts.append(f'<rect x="{x - 6:.1f}" y="{y - 6:.1f}" width="12" height="12" class="src"><title>{label}'
                         f'</title></rect>')
        else:
            parts.append(f'<polygon points="{x:.1f},{y - 8:.1f} {x + 8:.1f},{y:.1f} {x:.1f},{y + 8:.1f} '
                         f'{x - 8:.1f},{y:.1f}" class="ent"><title>{label}</title></polygon>'
                         f'<text x="{x + 10:.1f}" y="{y + 4:.1f}">{label}</text>')
    parts.append("</svg>")
    return "".join(parts)


_CSS = """body{font:16px/1.55 system-ui,sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222}
h1{font-size:1.7em}.meta{color:#555;font-size:.9em}.limited{color:#a35a00}
a.cite{font-size:.8em;text-decoration:none;background:#eef3ff;border-radius:3px;padding:0 3px}
.ev-card{display:none;border:1px solid #ccd;background:#fafbff;padding:.6em .9em;margin:.5em 0;border-radius:6px}
.ev-card:target{display:block}table{border-collapse:collapse;font-size:.9em;width:100%}
td,th{border:1px solid #ddd;padding:4px 6px;vertical-align:top}.PASS{color:#176d2c}.DOUBT{color:#a35a00}
.FAIL{color:#b00020}svg.graph{width:100%;border:1px solid #eee}svg.graph line{stroke:#bbb}svg .ev{fill:#3b6fd8}
svg .src{fill:#555}svg .ent{fill:#d88a3b}svg.graph text{font-size:10px;fill:#333}
body,svg.chart{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC","Source Han Sans SC","PingFang SC",
"Hiragino Sans GB","Microsoft YaHei","WenQuanYi Micro Hei",sans-serif}
figure.chart-figure{margin:1em 0}svg.chart{max-width:100%;height:auto;border:1px solid #eee}
div.chart-table{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);
white-space:nowrap;border:0}"""


def _linkify(text: str) -> str:
    return _CITE.sub(lambda m: f'<a class="cite" href="#{m.group(1)}">[{m.group(1)}]</a>', html.escape(text))


def _source_html(url: str, title: str | None) -> str:
    """A link only to an http(s) address; any other (javascript:, data:, a local path) is text."""
    if is_http_url(url):
        return f'<a href="{html.escape(url)}">{html.escape(title or url)}</a>'
    return html.escape(title or url) + (f' <span class="meta">({html.escape(url)})</span>' if title else "")


def to_html(result: Report) -> str:
    body = [f"<h1>{html.escape(result.title)}</h1>",
            f'<p class="meta">Question: {html.escape(result.question)}<br>Run {result.run_id} · '
            f"{html.escape(verification_summary(result))}</p>"]
    if result.low_precision:
        body.append(f'<p class="limited">Limited run: {html.escape(result.low_precision)}</p>')
    for sec in result.sections:
        body.append(f"<h2>{html.escape(sec.title)}</h2>")
        if sec.limited:
            why = result.limited.get(sec.question_id, "too little evidence was found")
            body.append(f'<p class="limited">Evidence for this section is limited ({html.escape(why)}).</p>')
        body.append("<p>" + " ".join(_linkify(s.text) for s in sec.sentences) + "</p>")
        if sec.question_id == ANSWER_ID:
            table = answer_table(result)  # once, for the table and its charts
            body.append(comparison_table_html(result, table))
            body += [chart_figure(c) for c in comparison_charts(result, table)]
    body.append("<h2>Evidence</h2>")
    for e in sorted(result.evidence, key=lambda e: e.id):
        body.append(f'<div class="ev-card" id="{e.id}"><b>{e.id}</b> ({e.type}) “{html.escape(e.quote)}”<br>'
                    f"{_source_html(e.source.url, e.source.title)} "
                    f"{e.source.published_at or ''}{f' · page {e.page}' if e.page else ''} · offsets {e.start}–{e.end}"
                    "</div>")
    body.append("<p class='meta'>Click a citation to open its quote and source.</p>")
    if result.conflicts:
        rows = "".join(
            f"<tr><td>{html.escape(c.entity)}</td><td>{html.escape(c.metric)}</td>"
            f"<td>{html.escape(condition_label(c))}</td><td>"
            + "<br>".join(html.escape(value_cell(c, v)) + " " + " ".join(
                f'<a class="cite" href="#{e}">[{e}]</a>' for e in v.evidence_ids) for v in c.values)
            + f"</td><td>{c.relative_difference:.0%}</td><td>{html.escape(c.credibility)}</td></tr>"
            for c in ordered_conflicts(result))
        body.append("<h2>Conflicts between sources</h2><table><tr><th>entity</th><th>metric</th><th>condition</th>"
                    f"<th>values (best supported first)</th><th>difference</th><th>credibility</th></tr>{rows}</table>")
        body += [chart_figure(c) for c in conflict_charts(result)]
    body.append("<h2>Evidence graph</h2>" + _svg_graph(result))
    rows = "".join(f"<tr><td>{x.section + 1}.{x.index + 1}</td><td>{_linkify(x.text)}</td>"
                   f'<td class="{x.verdict}">{x.verdict}</td><td>{html.escape("; ".join(x.reasons))}</td></tr>'
                   for x in result.verification.verdicts)
    body.append("<h2>Verification</h2><table><tr><th>#</th><th>sentence</th><th>verdict</th><th>reasons</th></tr>"
                f"{rows}</table>")
    body.append("<h2>Run metrics</h2><pre>" + html.escape(json.dumps(result.metrics, indent=2,
                                                                      ensure_ascii=False)) + "</pre>")
    return (f'<!DOCTYPE html><html lang="{result.plan.language}"><head><meta charset="utf-8">'
            f"<title>{html.escape(result.title)}</title><style>{_CSS}</style></head><body>{''.join(body)}</body></html>")
