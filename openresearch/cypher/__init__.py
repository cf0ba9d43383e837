"""The Cypher catalogue: one statement per `.cypher` file, loaded by name.

Each file starts with `// purpose: ...` and `// params: a, b` (or `// params: -`). The loader rejects a
file whose declared params and `$params` disagree. A portable statement lives at the top level; a
statement whose dialects differ lives in `neo4j/NAME.cypher` and `falkordb/NAME.cypher` (both required).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from typing import Literal

from openresearch.errors import QueryError

Dialect = Literal["neo4j", "falkordb"]
DIALECTS: tuple[Dialect, ...] = ("neo4j", "falkordb")

_PARAM_RE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_STRING_RE = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


@dataclass(frozen=True)
class Query:
    name: str
    dialect: Dialect | None  # None: portable
    purpose: str
    params: tuple[str, ...]
    text: str  # the statement without its header comments


def parse_query(name: str, source: str, dialect: Dialect | None = None) -> Query:
    purpose: str | None = None
    params: tuple[str, ...] | None = None
    body: list[str] = []
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith("//"):
            comment = stripped[2:].strip()
            if comment.startswith("purpose:"):
                purpose = comment.removeprefix("purpose:").strip()
            elif comment.startswith("params:"):
                raw = comment.removeprefix("params:").strip()
                params = () if raw in {"", "-"} else tuple(p.strip() for p in raw.split(",") if p.strip())
            continue
        body.append(line)
    text = "\n".join(body).strip()
    if not purpose:
        raise QueryError(f"{name}: missing '// purpose:' header")
    if params is None:
        raise QueryError(f"{name}: missing '// params:' header")
    if not text:
        raise QueryError(f"{name}: empty statement")
    if ";" in _STRING_RE.sub("", text).rstrip(";"):
        raise QueryError(f"{name}: more than one statement")
    used = set(_PARAM_RE.findall(_STRING_RE.sub("''", text)))
    declared = set(params)
    if used != declared:
        raise QueryError(
            f"{name}: header params {sorted(declared)} do not match statement params {sorted(used)}")
    return Query(name, dialect, purpose, params, text.rstrip(";"))


class Catalogue:
    """All statements for one dialect, keyed by name."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self._queries: dict[str, Query] = {}
        root = resources.files("openresearch.cypher")
        for entry in _cypher_files(root):
            self._queries[entry.name.removesuffix(".cypher")] = parse_query(
                entry.name.removesuffix(".cypher"), entry.read_text("utf-8"))
        for entry in _cypher_files(root.joinpath(dialect)):
            qname = entry.name.removesuffix(".cypher")
            if qname in self._queries and self._queries[qname].dialect is None:
                raise QueryError(f"{qname}: both a portable and a {dialect} file exist")
            self._queries[qname] = parse_query(qname, entry.read_text("utf-8"), dialect)

    def __getitem__(self, name: str) -> Query:
        try:
            return self._queries[name]
        except KeyError:
            raise QueryError(f"no catalogue query named {name!r} for {self.dialect}") from None

    def names(self) -> list[str]:
        return sorted(self._queries)


def _cypher_files(folder: Traversable) -> list[Traversable]:
    if not folder.is_dir():
        return []
    return sorted((f for f in folder.iterdir() if f.name.endswith(".cypher")), key=lambda f: f.name)


def dialect_specific_names() -> dict[Dialect, set[str]]:
    root = resources.files("openresearch.cypher")
    return {d: {f.name.removesuffix(".cypher") for f in _cypher_files(root.joinpath(d))} for d in DIALECTS}
