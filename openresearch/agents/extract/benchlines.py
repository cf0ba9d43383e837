"""Observations of a benchmark output line (ingest/benchlines.py reads its structure): the label names what ran
(the entity among its words, the rest is the condition), each figure's unit says what it measures."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from openresearch.ingest.benchlines import figures, is_bench_line, label_words
from openresearch.models import ObservationIn


def unit_metric(unit: str) -> str:
    """What a figure measures, from its unit alone: time per operation, throughput, memory per operation, ..."""
    u = unit.lower()
    if re.fullmatch(r"(?:ns|us|µs|ms|s)/(?:op|iter|call|hash|item)", u):
        return "time_per_op"
    if re.fullmatch(r"[kmgt]?i?b/s|[kmgt]?bps|ops/s|op/s|req/s|rps|qps|msg/s", u):
        return "throughput"
    if re.fullmatch(r"[kmgt]?i?b/op", u):
        return "memory_per_op"
    if u.startswith("alloc"):
        return "allocations_per_op"
    if u in ("%",):
        return "percentage"
    if "/" in u:
        return re.sub(r"[^a-z0-9]+", "_", u).strip("_")
    return ""


def line_observations(line: str, entity_of: Callable[[Sequence[str]], str | None]) -> list[ObservationIn] | None:
    """Observations of one benchmark line; `entity_of` picks the entity among the label's words (None: the line
    names none the caller knows, and it yields no observation). None when the line is no benchmark output."""
    read = figures(line)
    if read is None:
        return None
    label, found = read
    words = label_words(label)
    entity = entity_of(words)
    if entity is None:
        return []
    rest = [w for w in words if w.lower() not in ("benchmark", "bench", "test") and
            w.lower() not in entity.lower().replace("-", " ").split() and w.lower() not in entity.lower()]
    condition = " ".join(rest) or None
    out: list[ObservationIn] = []
    for f in found:
        metric = unit_metric(f.unit)
        if not metric:
            continue
        out.append(ObservationIn(entity=entity, metric=metric, value=f.raw, unit=f.unit, condition=condition))
    return out


def label_slots(label: str) -> list[str]:
    """A label's segments: "BenchmarkEncoder_Generic_Frobz-16" -> Encoder, Generic, Frobz (the tool's word and
    the thread count dropped)."""
    label = re.sub(r"-\d+$", "", label.strip())
    parts = [p for p in re.split(r"[_/:.]+", label) if p]
    if parts:
        parts[0] = re.sub(r"^(?:Benchmark|Bench|Test)(?=[A-Z_]|$)", "", parts[0])
    return [p for p in parts if p]


@lru_cache(maxsize=4096)
def block_labels(text: str, start: int) -> tuple[str, ...]:
    """The labels of the benchmark lines in the run of lines around `start` (one tool's output)."""
    lines = text.split("\n")
    at = text.count("\n", 0, start)
    lo = at  # blank lines between them do not end a run (ingest keeps each line a paragraph of its own)
    while lo > 0 and (is_bench_line(lines[lo - 1]) or (not lines[lo - 1].strip() and lo > 1 and
                                                        is_bench_line(lines[lo - 2]))):
        lo -= 1
    hi = at
    while hi + 1 < len(lines) and (is_bench_line(lines[hi + 1]) or (
            not lines[hi + 1].strip() and hi + 2 < len(lines) and is_bench_line(lines[hi + 2]))):
        hi += 1
    return tuple(read[0] for line in lines[lo:hi + 1] if (read := figures(line)) is not None)


def alternative_of_known(labels: Sequence[str], own: str, known: Callable[[str], str | None]) -> str | None:
    """The segment of label `own` that takes a known name's place in its sibling lines: two labels alike but for
    one segment ran alternatives in it ("Encoder_Generic_Frobz" and "Encoder_Generic_QuuxLib": Frobz and QuuxLib),
    so a segment that alternates with a known name is a name too, one no list knows. None when none does."""
    rows = [[p.lower() for p in label_slots(x)] for x in labels]
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for a, b in itertools.combinations(rows, 2):
        if len(a) == len(b) and len(diff := [i for i in range(len(a)) if a[i] != b[i]]) == 1:
            parent[root(a[diff[0]])] = root(b[diff[0]])
    named_roots = {root(p.lower()) for r in labels for p in label_slots(r) if known(p) is not None}
    return next((seg for seg in label_slots(own) if root(seg.lower()) in named_roots and known(seg) is None), None)
