"""Evidence JSONL import and export (the exchange format documented in the README).

Import behaviour: every line is parsed and validated first; a malformed line is reported with its
line number and nothing of it is written. Valid lines are written in idempotent batches, so running
the same import again changes nothing. With `strict=True` nothing is written when any line is bad.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO

from pydantic import ValidationError

from openresearch.errors import InputError
from openresearch.graph.batch_writer import gc_paused
from openresearch.graph.rows import PreparedRow
from openresearch.graph.store import GraphStore
from openresearch.models import EvidenceRecord, ImportReport
from openresearch.numbers import NumberFormatError


def parse_line(line: str, lineno: int) -> EvidenceRecord:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        raise InputError(f"line {lineno}: invalid JSON: {e.msg} (column {e.colno})") from None
    if not isinstance(data, dict):
        raise InputError(f"line {lineno}: expected a JSON object, got {type(data).__name__}")
    if ("\\u0000" in line or "\x00" in line) and _has_nul(data):  # the walk only when the text hints at one
        raise InputError(f"line {lineno}: a string holds a NUL character (U+0000), which the graph cannot store")
    try:
        return EvidenceRecord.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "line"
        more = f" (+{e.error_count() - 1} more)" if e.error_count() > 1 else ""
        raise InputError(f"line {lineno}: {where}: {first['msg']}{more}") from None


def _has_nul(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def _prepare(store: GraphStore, line: str, lineno: int) -> PreparedRow:
    rec = parse_line(line, lineno)
    try:
        return store.prepare([rec])[0]
    except (NumberFormatError, ValueError) as e:
        raise InputError(f"line {lineno}: observations: {e}") from None


def import_lines(store: GraphStore, lines: Iterable[str], *, strict: bool = False,
                 progress: Callable[[int], None] | None = None) -> ImportReport:
    """Stream lines into the graph in batches. With `strict`, validate everything before writing."""
    source = list(lines) if strict else lines
    report = ImportReport()
    if strict:
        for lineno, line in enumerate(source, start=1):
            if line.strip():
                try:
                    _prepare(store, line, lineno)
                except InputError as e:
                    report.errors.append(str(e))
        if report.errors:
            report.lines = sum(1 for line in source if line.strip())
            report.skipped = len(report.errors)
            return report
    batch: list[PreparedRow] = []
    limits = store.batch_limits()
    limit = next(limits)
    with gc_paused(), store.batch_writer() as writer:  # the next batch is parsed while this one is written

        def flush() -> None:
            nonlocal batch, limit
            if batch:
                writer.submit(batch)
                report.batches += 1
                if progress:
                    progress(len(batch))
                batch, limit = [], next(limits)

        for lineno, line in enumerate(source, start=1):
            if not line.strip():
                continue
            report.lines += 1
            try:
                batch.append(_prepare(store, line, lineno))
            except InputError as e:
                report.errors.append(str(e))
                continue
            if len(batch) >= limit:
                flush()
        flush()
    report.imported = writer.written
    report.skipped = len(report.errors)
    return report


def import_file(store: GraphStore, path: Path, *, strict: bool = False,
                progress: Callable[[int], None] | None = None) -> ImportReport:
    if not path.is_file():
        raise InputError(f"no such file: {path}")
    with path.open(encoding="utf-8") as fh:
        return import_lines(store, fh, strict=strict, progress=progress)


def export_lines(store: GraphStore) -> Iterator[str]:
    for rec in store.export_evidence():
        yield rec.model_dump_json(exclude_none=True)


def export_to(store: GraphStore, out: IO[str]) -> int:
    n = 0
    for line in export_lines(store):
        out.write(line + "\n")
        n += 1
    return n
