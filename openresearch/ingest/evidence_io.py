"""Evidence JSONL import and export (the exchange format documented in the README).

Import behaviour: every line is parsed and validated first; a malformed line is reported with its
line number and nothing of it is written. Valid lines are written in idempotent batches, so running
the same import again changes nothing. With `strict=True` nothing is written when any line is bad.

"Validated" covers what the graph would refuse later (which used to abort a whole batch with no line
number): offsets of 2^63 or more, offsets that do not span the quote, values that overflow once converted
to their base unit (1e308 GB), integers past 64 bits, booleans given as values. Files may be UTF-8 (with
or without a BOM) or UTF-16 (with a BOM); a line that is not valid UTF-8, nests too deeply or holds a
number too long to parse is one error for that line, never a traceback.
"""

from __future__ import annotations

import codecs
import json
import math
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, BinaryIO

from pydantic import ValidationError

from openresearch.errors import InputError
from openresearch.graph.batch_writer import gc_paused
from openresearch.graph.rows import PreparedRow
from openresearch.graph.store import GraphStore
from openresearch.models import EvidenceRecord, ImportReport
from openresearch.numbers import NumberFormatError

INT64_MAX = 2**63 - 1
MAX_LINE_CHARS = 16_000_000


def parse_line(line: str, lineno: int) -> EvidenceRecord:
    if len(line) > MAX_LINE_CHARS:
        raise InputError(f"line {lineno}: {len(line):,} characters, more than a line may have ({MAX_LINE_CHARS:,})")
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        raise InputError(f"line {lineno}: invalid JSON: {e.msg} (column {e.colno})") from None
    except RecursionError:
        raise InputError(f"line {lineno}: invalid JSON: nested too deeply") from None
    except ValueError as e:  # e.g. an integer of more than 4,300 digits
        raise InputError(f"line {lineno}: invalid JSON: {str(e).split(';')[0]}") from None
    if not isinstance(data, dict):
        raise InputError(f"line {lineno}: expected a JSON object, got {type(data).__name__}")
    if ("\\u0000" in line or "\x00" in line) and _has_nul(data):  # the walk only when the text hints at one
        raise InputError(f"line {lineno}: a string holds a NUL character (U+0000), which the graph cannot store")
    _check_raw(data, lineno)
    try:
        rec = EvidenceRecord.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = _printable(".".join(str(p) for p in first["loc"])) or "line"
        more = f" (+{e.error_count() - 1} more)" if e.error_count() > 1 else ""
        raise InputError(f"line {lineno}: {where}: {_printable(first['msg'], 200)}{more}") from None
    except RecursionError:
        raise InputError(f"line {lineno}: nested too deeply") from None
    _check_offsets(rec, lineno)
    return rec


def _printable(text: str, limit: int = 80) -> str:
    """A key or message from the input, safe on one line: control characters escaped, length capped."""
    clean = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[:limit])
    return clean + ("..." if len(text) > limit else "")


def _check_raw(data: dict[str, object], lineno: int) -> None:
    """What pydantic would coerce silently: a boolean value (true -> 1), an integer past 64 bits."""
    observations = data.get("observations")
    if isinstance(observations, list):
        for i, ob in enumerate(observations):
            value = ob.get("value") if isinstance(ob, dict) else None
            if isinstance(value, bool):
                raise InputError(f"line {lineno}: observations.{i}.value: a boolean ({str(value).lower()}) is "
                                 "not a measured value")
            if isinstance(value, int) and abs(value) > INT64_MAX:
                raise InputError(f"line {lineno}: observations.{i}.value: {_short(value)} does not fit in 64 bits")
            if isinstance(value, float) and not math.isfinite(value):
                raise InputError(f"line {lineno}: observations.{i}.value: {value} is not a finite number")
    for key in ("start", "end"):
        value = data.get(key)
        if isinstance(value, bool):
            raise InputError(f"line {lineno}: {key}: a boolean is not an offset")
        if isinstance(value, int) and value > INT64_MAX:
            raise InputError(f"line {lineno}: {key}: offset {_short(value)} is out of range (at most 2^63-1)")


def _short(value: int) -> str:
    text = str(value) if value.bit_length() < 4000 else f"an integer of {value.bit_length():,} bits"
    return text if len(text) <= 40 else f"{text[:20]}...({len(text)} digits)"


def _check_offsets(rec: EvidenceRecord, lineno: int) -> None:
    if rec.start is None or rec.end is None:
        if (rec.start is None) != (rec.end is None):
            raise InputError(f"line {lineno}: offsets: give both start and end, or neither")
        return
    if rec.end - rec.start != len(rec.quote):
        raise InputError(f"line {lineno}: offsets {rec.start}..{rec.end} span {rec.end - rec.start:,} characters "
                         f"but the quote has {len(rec.quote):,}: offsets must be those of the quote in its source")


def _has_nul(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def _prepare(store: GraphStore, line: str, lineno: int) -> PreparedRow:
    if isinstance(line, _BadLine):
        raise InputError(line.error)
    rec = parse_line(line, lineno)
    try:
        prepared = store.prepare([rec])[0]
    except (NumberFormatError, ValueError, OverflowError) as e:
        raise InputError(f"line {lineno}: observations: {e}") from None
    for i, o in enumerate(prepared.row["o"]):
        v = o["v"]
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) \
                or (isinstance(v, int) and abs(v) > INT64_MAX):
            raise InputError(f"line {lineno}: observations.{i}.value: {o['rv'][:40]} {o['ru']} is {v} "
                             f"once converted to {o['u'] or 'a number'}: out of range")
    return prepared


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
    with path.open("rb") as fh:
        return import_lines(store, decoded_lines(fh), strict=strict, progress=progress)


class _BadLine(str):
    """A line that could not be decoded: it carries its error in place of JSON (import_lines reports it)."""

    __slots__ = ("error",)
    error: str


def _bad(message: str) -> _BadLine:
    line = _BadLine("\x00")  # never valid JSON, never blank
    line.error = message
    return line


def decoded_lines(fh: BinaryIO) -> Iterator[str]:
    """Lines of a JSONL byte stream: UTF-8 (BOM optional) or UTF-16 (BOM, or NULs in the first bytes).

    A UTF-8 line that does not decode is yielded as a _BadLine naming the byte, so only that line fails.
    """
    head = fh.read(4)
    encoding = "utf-8"
    if head.startswith(codecs.BOM_UTF8):
        head = head[3:]
    elif head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    elif len(head) >= 2 and (head[0] == 0) != (head[1] == 0):
        encoding = "utf-16-be" if head[0] == 0 else "utf-16-le"
    if encoding != "utf-8":
        text = (head + fh.read()).decode(encoding, "replace")  # rare enough to read whole
        for lineno, line in enumerate(text.split("\n"), start=1):
            yield _bad(f"line {lineno}: not valid {encoding.upper()}") if "\ufffd" in line else line
        return
    for lineno, raw in enumerate(_Prefixed(head, fh), start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as e:
            yield _bad(f"line {lineno}: not valid UTF-8 (byte 0x{raw[e.start]:02x} at byte {e.start + 1})")


class _Prefixed:
    """A binary stream with some bytes already read put back in front."""

    def __init__(self, head: bytes, rest: BinaryIO) -> None:
        self._head, self._rest = head, rest

    def read(self, size: int = -1) -> bytes:
        if self._head:
            data = self._head if size < 0 else self._head[:size]
            self._head = self._head[len(data):]
            if size < 0 or len(data) < size:
                data += self._rest.read(-1 if size < 0 else size - len(data))
            return data
        return self._rest.read(size)

    def __iter__(self) -> Iterator[bytes]:
        first = self._rest.readline()
        if self._head:
            first, self._head = self._head + first, b""
        if first:
            yield first
        yield from self._rest


def export_lines(store: GraphStore) -> Iterator[str]:
    for rec in store.export_evidence():
        yield rec.model_dump_json(exclude_none=True)


def export_to(store: GraphStore, out: IO[str]) -> int:
    n = 0
    for line in export_lines(store):
        out.write(line + "\n")
        n += 1
    return n
