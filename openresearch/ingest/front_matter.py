"""Records a document's front matter holds, read as tables.

A data page keeps its facts in its YAML front matter: a list of records under one key, every record a mapping
of scalars ("releases:" with "- releaseCycle: ..., releaseDate: ..., eol: ..."; "benchmarks:" with "- name:
..., ops: ..."). Such a list is a table whose columns are the keys, in the order they first appear, and whose
first column labels the row. It is written as a Markdown pipe table under a heading that names the list, so the
table reader gives each record's values their column as metric and the record's label as subject. Values are
kept as written (YAML's BaseLoader: "3.10" stays "3.10", a date stays its text). Anything else in the front
matter (title, tags, settings of the page) is no table and stays out of the text.
"""

from __future__ import annotations

import re
import tomllib
from datetime import date
from typing import Any

import yaml

MAX_FRONT_MATTER_CHARS = 2_000_000
MAX_COLUMNS = 24
_CELL = re.compile(r"[|\n\r]+")


def record_tables(front_matter: str) -> str:
    """Markdown for every list of two or more flat records in this YAML front matter ("" when there is none or it
    is not YAML)."""
    if len(front_matter) > MAX_FRONT_MATTER_CHARS:
        return ""
    try:
        data: Any = yaml.load(front_matter, Loader=yaml.BaseLoader)
    except yaml.YAMLError:
        return ""
    if not isinstance(data, dict):
        return ""
    out: list[str] = []
    for key, value in data.items():
        if table := _table(value):
            out += [f"## {_words(str(key)).capitalize()}", "", *table, ""]
    return "\n".join(out)


def toml_fields(front_matter: str) -> dict[str, str]:
    """The scalar top-level fields of TOML front matter (title, date, ...), as text; {} when it is not TOML."""
    data = _toml(front_matter)
    return {str(k).lower(): str(v) for k, v in data.items() if isinstance(v, str | int | float | date)}


def toml_record_tables(front_matter: str) -> str:
    """Markdown for the tables TOML front matter holds: an array of flat tables ("[[releases]]"), or a table whose
    entries are flat tables of figures ("[extra.transfer]" with "recv.alpha = 7407.83", "recv.beta = 6472.3",
    "send.alpha = ..."): a row per entry, a column per key."""
    out: list[str] = []

    def walk(name: str, value: Any) -> None:
        if isinstance(value, list):
            rows = [{str(k): _scalar(v) for k, v in r.items()} for r in value if isinstance(r, dict)]
            if table := _table(rows):
                out.extend([f"## {_words(name).capitalize()}", "", *table, ""])
            return
        if not isinstance(value, dict):
            return
        inner = {k: v for k, v in value.items() if isinstance(v, dict)}
        if len(inner) >= 2 and all(all(not isinstance(x, dict | list) for x in v.values()) for v in inner.values()):
            # an empty corner: the rows ("recv", "send") and the columns ("alpha", "beta") are read against what
            # the question names, as any table with an empty corner is
            rows = [{"": str(k), **{str(c): _scalar(x) for c, x in v.items()}} for k, v in inner.items()]
            if table := _table(rows):
                out.extend([f"## {_words(name).capitalize()}", "", *table, ""])
                return
        for k, v in value.items():
            walk(str(k), v)

    walk("", _toml(front_matter))
    return "\n".join(out)


def _toml(text: str) -> dict[str, Any]:
    if len(text) > MAX_FRONT_MATTER_CHARS:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _scalar(value: Any) -> str:
    return value if isinstance(value, str) else "" if isinstance(value, dict | list) else str(value)


def _table(value: Any) -> list[str]:
    if not isinstance(value, list) or len(value) < 2 or not all(isinstance(r, dict) for r in value):
        return []
    # a record of one field is a list item, not a row ("- purl: ...", "- cpe: ..." under "identifiers")
    rows = [r for r in ({str(k): v for k, v in r.items() if isinstance(v, str) and v.strip()} for r in value)
            if len(r) >= 2]
    if len(rows) < 2:
        return []
    columns: list[str] = []
    for r in rows:
        columns += [k for k in r if k not in columns]
    if len(columns) < 2 or len(columns) > MAX_COLUMNS:
        return []
    label = columns[0]
    rows = [r for r in rows if r.get(label)]
    if len(rows) < 2:
        return []
    lines = ["| " + " | ".join(_words(c) for c in columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_CELL.sub(" ", r.get(c, "")).strip() for c in columns) + " |" for r in rows]
    return lines


def _words(key: str) -> str:
    """A key as words: "latestReleaseDate" and "latest_release_date" are "latest release date"; "eol" stays."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", key).replace("_", " ").replace("-", " ")
    return " ".join(spaced.split()).lower()
