"""Observations of a benchmark output line (ingest/benchlines.py reads its structure): the label names what ran
(the entity among its words, the rest is the condition), each figure's unit says what it measures."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import NamedTuple

from openresearch.ingest.benchlines import BANNER, figures, is_bench_line, label_words
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


class Banner(NamedTuple):
    """The line over a block of benchmark lines that names what ran and its columns."""

    name: str  # "quill_json", "zorbjson-gcc"
    columns: tuple[str, ...]  # ("parse", "stringify", "parse", "stringify")
    groups: tuple[str, ...]  # each column's group from the line above the banner ("TREE", "TREE", "TYPED", ...)


@lru_cache(maxsize=4096)
def block_banner(text: str, start: int, reach: int = 40) -> Banner | None:
    """The banner over the run of benchmark lines holding `start`: output that names the program once, over its
    rows ("data/sample.json  300 MB/s  910 MB/s"), and its columns by name. None when the run has none."""
    lines = text.split("\n")
    at = text.count("\n", 0, start)
    i = at - 1
    while i >= 0 and at - i <= reach and (is_bench_line(lines[i]) or not lines[i].strip()):
        i -= 1
    m = BANNER.match(lines[i]) if i >= 0 and at - i <= reach else None
    if m is None:
        return None
    columns = _columns(m)
    groups: tuple[str, ...] = ()
    while not groups and i >= 0:  # the groups a banner's columns are in, or those of the banner above in the run
        j = i - 1
        while j > 0 and not lines[j].strip() and i - j <= 2:
            j -= 1  # paragraphs are apart by a blank line in the stored text
        above = lines[j].split() if j >= 0 and lines[j].strip() and "=" not in lines[j] and \
            not is_bench_line(lines[j]) else []
        per = len(columns) // len(above) if above and columns and len(columns) % len(above) == 0 else 0
        groups = tuple(above[k // per] for k in range(len(columns))) if per and len(above) <= 4 else ()
        while j >= 0 and (is_bench_line(lines[j]) or not lines[j].strip()):
            j -= 1
        up = BANNER.match(lines[j]) if j >= 0 and not groups else None
        i = j if up is not None and len(_columns(up)) == len(columns) else -1
    return Banner(m.group("name").strip(), columns, groups)


def _columns(m: re.Match[str]) -> tuple[str, ...]:
    return tuple(c.strip() for part in re.split(r"=+", m.group("cols")) for c in part.split("|") if c.strip())


@lru_cache(maxsize=256)
def banner_names(text: str) -> tuple[str, ...]:
    """The names of every benchmark banner in a text ("zorbjson-clang", "zorbjson-gcc", "quill_json")."""
    return tuple(m.group("name").strip() for line in text.split("\n") if (m := BANNER.match(line)))


def shared_stem(name: str, others: Sequence[str]) -> tuple[str, str] | None:
    """(stem, variant) when another banner runs the same program in another build: "zorbjson-gcc" beside
    "zorbjson-clang" is zorbjson, built with gcc. None when no sibling shares the name's first piece."""
    m = re.fullmatch(r"([A-Za-z][\w.+]*?)[-_ ]([\w.+-]+)", name)
    if m is None:
        return None
    stem = m.group(1)
    if any(o != name and (s := re.fullmatch(rf"{re.escape(stem)}[-_ ]([\w.+-]+)", o)) and s.group(1) != m.group(2)
           for o in others):
        return stem, m.group(2)
    return None


def line_observations(line: str, entity_of: Callable[[Sequence[str]], str | None],
                      banner: Banner | None = None, banner_entity: str | None = None) -> list[ObservationIn] | None:
    """Observations of one benchmark line; `entity_of` picks the entity among the label's words (None: the line
    names none the caller knows, and it yields no observation). Under a `banner`, what the banner names ran
    (`banner_entity`; the line's label is then a condition, "data/sample.json", with the banner's other words,
    "gcc") and its columns say what each figure is, when they are as many as the figures. None when the line is
    no benchmark output."""
    read = figures(line)
    if read is None:
        return None
    label, found = read
    words = label_words(label)
    entity = banner_entity or entity_of(words)
    if entity is None:
        return []
    if banner is not None and banner_entity:
        taken = {w.lower() for w in label_words(entity)} | {entity.lower()}
        own = [w for w in re.split(r"[-_ ]+", banner.name) if w.lower() not in taken and
               banner.name.lower() != entity.lower()]
        # a row labelled by a file ("data/sample.json") ran on that file, wherever it was kept
        ran_on = re.sub(r"^(?:[\w.-]+/)+(?=[\w.-]+\.\w+$)", "", label.strip())
        condition = ", ".join(filter(None, [ran_on, *own])) or None
    else:
        rest = [w for w in words if w.lower() not in ("benchmark", "bench", "test") and
                w.lower() not in entity.lower().replace("-", " ").split() and w.lower() not in entity.lower()]
        condition = " ".join(rest) or None
    columns = banner.columns if banner is not None and len(banner.columns) == len(found) else ()
    out: list[ObservationIn] = []
    for k, f in enumerate(found):
        metric = re.sub(r"[^a-z0-9]+", "_", columns[k].lower()).strip("_") if columns else unit_metric(f.unit)
        if not metric:
            continue
        group = banner.groups[k] if columns and banner is not None and banner.groups else ""
        out.append(ObservationIn(entity=entity, metric=metric, value=f.raw, unit=f.unit,
                                 condition=", ".join(filter(None, [condition, group])) or None))
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
