"""Benchmark output lines: a label, then figures each with its unit, as benchmark tools print them.

    BenchmarkEncoder_Generic_Sonic-16    32393 ns/op    402.40 MB/s    11965 B/op    4 allocs/op

Ingest keeps such lines of a code block (the rest of the block is code) as paragraphs of their own; the extractor
reads them as table rows whose header is in their units (agents/extract/benchlines.py). Pure.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# a figure and its unit: "32393 ns/op", "402.40 MB/s", "4 allocs/op", "1.2 GiB/s", "12.5%", "3.1 cycles/hash"
_FIGURE = re.compile(r"(?<![\w.])(?P<num>\d[\d,]*(?:\.\d+)?)\s?(?P<unit>%|[A-Za-zµ][\w]*(?:/[A-Za-z]+)?)(?![\w/])")
# "BenchmarkX-16   32393 ns/op", "fillrandom   :   2.460 micros/op;", "# Write\t68.5ms\t(14593 op/sec)": a label (after
# a comment mark), then its figures after spaces or a colon
_LABEL = re.compile(r"^\s*(?:#+\s*)?(?P<label>[A-Za-z][\w./:+-]*(?:\s[A-Za-z][\w./:+-]*){0,2}?)"
                    r"(?:\s*:\s*|\s+)(?=\(?\d)")
_IDENT_PIECES = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|_)|[A-Z]?[a-z]+|[A-Z]+|\d+")


class Figure(NamedTuple):
    start: int  # offset in the line
    raw: str
    unit: str


# the line a benchmark program prints over a block of its output, naming what ran and the columns:
# "======= wibble_json ======= parse|stringify ===== parse|stringify ===="
BANNER = re.compile(r"^\s*={2,}\s*(?P<name>[^=|\s][^=|]*?)\s*={2,}(?P<cols>[^=]*(?:=+[^=]*)*?)=*\s*$")


def is_bench_line(line: str) -> bool:
    """A label followed by two or more figures with units, and nothing else of prose: benchmark output."""
    m = _LABEL.match(line)
    if not m:
        return False
    if _PROSE_WORD.search(m.group("label")):
        return False  # "options.buffer_size changes from 4MB to 64MB": a sentence about figures, not a tool's line
    rest = line[m.end():]
    figures = list(_FIGURE.finditer(rest))
    leftover = _FIGURE.sub("", rest)
    return len(figures) >= 2 and not re.search(r"[A-Za-z]{2,}", re.sub(r"\d+", "", leftover))


# the words of a sentence (a verb, a preposition) that no benchmark label is made of
_PROSE_WORD = re.compile(r"\s(?:from|to|by|at|of|in|on|is|are|was|were|with|for|and|or|the|a|an|"
                         r"change[sd]?|increase[sd]?|decrease[sd]?|default)\b", re.I)


def figures(line: str) -> tuple[str, list[Figure]] | None:
    """(label, figures) of a benchmark line, or None."""
    if not is_bench_line(line):
        return None
    m = _LABEL.match(line)
    assert m is not None
    return m.group("label"), [Figure(m.end() + f.start(), f.group("num"), f.group("unit"))
                              for f in _FIGURE.finditer(line[m.end():])]


def label_words(label: str) -> list[str]:
    """"BenchmarkEncoder_Generic_Sonic-16" -> Benchmark, Encoder, Generic, Sonic (the -16 is a thread count)."""
    label = re.sub(r"-\d+$", "", label)
    return [w for part in re.split(r"[_/:.\s-]+", label) for w in _IDENT_PIECES.findall(part) if not w.isdigit()]
