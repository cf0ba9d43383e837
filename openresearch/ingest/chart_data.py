"""The figures of a chart a page draws with a script, as the table a reader would read off the chart.

A benchmark page may give its results only as a chart: a script hands a charting library the categories of the x
axis ("Lock", "Install"), one series of values per thing measured ("Poetry": [76.95, 17.82]) and the axis title
with its unit ("Time (s)"). The script is code and is dropped; its data is the page's result. Read here, it becomes
a Markdown table, one row per series and one column per category, each header with the axis unit, under the chart's
title as caption. The configuration's shape decides (categories or labels, then series or datasets with a name or
label and a data list of numbers); no library, product or vendor is named.
"""

from __future__ import annotations

import re

_STRING = r"""(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")"""
_NUMBER = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
# the x axis's categories: "categories: ['Lock', 'Install']" (also "labels:" and an axis's "data:" of strings)
_CATEGORIES = re.compile(r"\b(?:categories|labels|data)\s*:\s*\[\s*((?:" + _STRING + r"\s*,?\s*){2,60})\]")
# one series: "{ name: 'Poetry', data: [76.95, 39.08] }" (also "label:"), the name first or last
_SERIES = re.compile(r"\{[^{}\[\]]*?\b(?:name|label)\s*:\s*" + _STRING + r"[^{}\[\]]*?\bdata\s*:\s*\[\s*((?:" +
                     _NUMBER + r"|null)(?:\s*,\s*(?:" + _NUMBER + r"|null))*)\s*,?\s*\]|"
                     r"\{[^{}\[\]]*?\bdata\s*:\s*\[\s*((?:" + _NUMBER + r"|null)(?:\s*,\s*(?:" + _NUMBER +
                     r"|null))*)\s*,?\s*\][^{}\[\]]*?\b(?:name|label)\s*:\s*" + _STRING)
_TITLE = re.compile(r"\btitle\s*:\s*\{[^{}]*?\btext\s*:\s*" + _STRING)
_AXIS_TITLE = re.compile(r"\byAxis\s*:\s*\{[^{}]*?(?:\{[^{}]*\}[^{}]*?)*?\btitle\s*:\s*\{[^{}]*?\btext\s*:\s*" +
                         _STRING, re.I)
_UNIT = re.compile(r"\(([^()]{1,12})\)\s*$|\bin\s+([A-Za-z/%]{1,12})\s*$")
MAX_SCRIPT = 200_000  # characters of one script read for its chart


def _text(m: re.Match[str], first: int) -> str:
    raw = m.group(first) if m.group(first) is not None else m.group(first + 1) or ""
    return raw.replace("\\'", "'").replace('\\"', '"').strip()


def _cell(text: str) -> str:
    return text.replace("|", "/").strip()


def chart_table(script: str) -> list[str]:
    """The Markdown lines of the table a script's chart shows: its title as caption, then a header of the
    categories (each with the axis unit) and one row per named series with as many values as categories. []
    when the script draws no such chart."""
    script = script[:MAX_SCRIPT]
    cats = _CATEGORIES.search(script)
    if cats is None:
        return []
    categories = [_cell(_text(m, 1)) for m in re.finditer(_STRING, cats.group(1))]
    rows: list[tuple[str, list[str]]] = []
    for m in _SERIES.finditer(script, cats.end()):
        name = _cell(_text(m, 1) if m.group(3) is not None else _text(m, 5))
        data = m.group(3) if m.group(3) is not None else m.group(4)
        values = [v.strip() for v in data.split(",") if v.strip()]
        if name and len(values) == len(categories):
            rows.append((name, ["" if v == "null" else v for v in values]))
    if not rows or not categories:
        return []
    axis = _AXIS_TITLE.search(script)
    axis_title = _text(axis, 1) if axis else ""
    unit_m = _UNIT.search(axis_title)
    unit = next((g for g in unit_m.groups() if g), "") if unit_m else ""
    title = next((_text(t, 1) for t in _TITLE.finditer(script) if not axis or t.start() != axis.start()), "")
    # the axis title's unit is in every header; its words name the quantity only where no unit says it
    caption = title if unit else ", ".join(p for p in (title, axis_title) if p)
    header = [f"{c} ({unit})" if unit and f"({unit})" not in c else c for c in categories]
    lines = [caption, ""] if caption else []
    lines += ["| | " + " | ".join(header) + " |", "|---" * (len(header) + 1) + "|"]
    lines += [f"| {name} | " + " | ".join(values) + " |" for name, values in rows]
    return lines


_SCRIPT_OPEN = re.compile(r"^\s*<(script|style)\b[^>]*>", re.I)


def without_scripts(lines: list[str]) -> list[str]:
    """A Markdown page's lines with each inline `<script>` or `<style>` element (code, never text) taken out, and a
    script that draws a chart replaced by the table of its figures, with blank lines around it."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _SCRIPT_OPEN.match(lines[i])
        if m is None:
            out.append(lines[i])
            i += 1
            continue
        close = re.compile(rf"</{m.group(1)}\s*>", re.I)
        j = i
        while j < len(lines) and not close.search(lines[j]):
            j += 1
        if j == len(lines):  # never closed: a tag written in prose or a broken page, not an element to drop
            out.append(lines[i])
            i += 1
            continue
        body = "\n".join(lines[i:j + 1])
        table = chart_table(body) if m.group(1).lower() == "script" else []
        out += ["", *table, ""] if table else [""]
        i = j + 1
    return out
