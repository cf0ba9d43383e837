"""Seeded hostile evidence batches and the server churn around them, for the FalkorDB crash hunt (issue 25).

Generation is pure: `batch(rng, ...)` returns JSONL lines of the kinds tests/ingest_processing and tests/property
write (huge strings, lone surrogates and escapes, NULs, deep unicode, Cypher-looking text, long lists, big and
non-finite numbers, empty keys), and `plan(rng)` says what happens to the graph around a batch (nothing, a
GRAPH.DELETE and schema re-creation first, a GRAPH.DELETE right after). The same seed gives the same batches,
so a crash is replayed from its seed. `Driver` runs them through the package's own write path (`import_lines`
-> GraphStore -> FalkorBackend) on a real server. Used by bench/bench_falkor_hostile.py (many seeds, under
load) and tests/graph/test_falkor_hostile.py (CI: a few fixed seeds).
"""

from __future__ import annotations

import json
import random
import uuid
from collections import Counter
from dataclasses import dataclass
from typing import Any

from openresearch.errors import QueryError
from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.store import GraphStore
from openresearch.ingest.evidence_io import import_lines

HOSTILE = ['"', "'", "\\", "`", "\\u0000", "\\'", '\\"', "}", "{", "$x", "//", "/*", "*/", "\n", "\r", "\t",
           "\x1b", "\x7f", "\u2028", "北京", "吞吐量", "𝔘", "🙂", "é", "\u0301", "\ufeff", "\u202e", "\ufffd",
           "') DETACH DELETE n //", "` MATCH (n) DETACH DELETE n //", "CYPHER a=1 ", "%s", "\\x00",
           "\"}) RETURN 1 //", "$rows", "`}", "UNWIND [1,2] AS x", "*", "|", "%%", "@title:x", "-", "~"]
# strings the graph cannot hold: the import must refuse them per line, never send them
REFUSED = ["\x00", "\ud800", "a\udfffb", "\udbff", "x\x00y"]


def text(rng: random.Random, max_parts: int = 12) -> str:
    parts = []
    for _ in range(rng.randint(1, max_parts)):
        k = rng.random()
        if k < 0.45:
            parts.append(rng.choice(HOSTILE))
        elif k < 0.75:
            parts.append("".join(chr(rng.randint(0x20, 0x7e)) for _ in range(rng.randint(1, 8))))
        else:  # anything but NUL and surrogates, astral planes included
            parts.append("".join(_char(rng) for _ in range(rng.randint(1, 6))))
    return "".join(parts)


def _char(rng: random.Random) -> str:
    while True:
        c = rng.randint(1, 0x10FFFF) if rng.random() < 0.3 else rng.randint(1, 0xFFFF)
        if not 0xD800 <= c <= 0xDFFF:
            return chr(c)


def huge(rng: random.Random, max_chars: int) -> str:
    unit = text(rng, 4) or "x"
    n = rng.choice([1_000, 10_000, 100_000, max_chars])
    return (unit * (n // max(1, len(unit)) + 1))[: min(n, max_chars)]


def value(rng: random.Random) -> Any:
    return rng.choice([
        lambda: rng.randint(-(10**12), 10**12),
        lambda: rng.choice([2**63 - 1, -(2**63), 2**63, 2**64, 10**30, -(10**19)]),
        lambda: rng.uniform(-1e12, 1e12),
        lambda: rng.choice([1e308, -1e308, 5e-324, 1e-300, 0.0, -0.0]),
        lambda: f"{rng.uniform(0, 1e6):.3g}",
        lambda: rng.choice(["12万", "1.2M", "60%", "1.5e3", "1e3 MB/s", "NaN", "inf", "-0", "0x10", "１２３"]),
        lambda: text(rng, 3),
        lambda: rng.choice([True, False, None, [], {}, [1, 2], {"a": 1}]),
    ])()


def row(rng: random.Random, i: int, max_chars: int) -> dict[str, Any]:
    quote = huge(rng, max_chars) if rng.random() < 0.04 else text(rng)
    r: dict[str, Any] = {
        "source": {"url": f"https://hostile-{rng.randint(0, 9)}.example/{text(rng, 3)}",
                   "title": rng.choice([None, text(rng), "", huge(rng, max_chars // 10)])},
        "quote": quote,
        "entities": [text(rng, 3) for _ in range(rng.choice([0, 1, 3, 50 if rng.random() < 0.1 else 2]))],
    }
    if rng.random() < 0.5:
        r["observations"] = [
            {"entity": rng.choice(["Kafka", text(rng, 3), text(rng, 2), "Kafka", "Kafka", ""]),
             "metric": rng.choice(["throughput", text(rng, 3)]),
             "value": value(rng), "unit": rng.choice([None, "MB/s", "ms", "%", "万", "GB", "TB", text(rng, 2)]),
             "condition": rng.choice([None, text(rng)])}
            for _ in range(rng.choice([1, 2, 30 if rng.random() < 0.1 else 1]))]
    if rng.random() < 0.3:
        r["question"] = rng.choice([text(rng), huge(rng, max_chars // 10)])
    if rng.random() < 0.3:
        start = rng.choice([0, 5, 2**40, 2**63 - 1 - len(quote), 2**63, -1])
        r["start"], r["end"] = start, start + len(quote) + rng.choice([0, 0, 0, 1])
    if rng.random() < 0.08:  # one string the graph cannot hold, somewhere
        field = rng.choice(["quote", "summary", "question"])
        r[field] = str(r.get(field) or "q") + rng.choice(REFUSED)
    if rng.random() < 0.05:
        r[rng.choice(["", " ", "`", "extra"])] = 1  # empty and odd keys: refused by the model (extra=forbid)
    if rng.random() < 0.1:
        r["summary"] = text(rng)
    if rng.random() < 0.05:
        r["type"] = rng.choice(["statistic", "claim", "nope", ""])
    return r


def batch(rng: random.Random, rows: int, max_chars: int) -> list[str]:
    """JSONL lines; some are malformed on purpose (the import reports them and writes the rest)."""
    out = []
    for i in range(rows):
        k = rng.random()
        if k < 0.03:
            out.append(rng.choice(["[" * 5000 + "]" * 5000, "{", "null", '"x"', '{"quote": 1}', "\ufeff{}"]))
        else:
            # escaped or raw: a lone surrogate arrives as "\\ud800" in a file, raw from a Python caller
            out.append(json.dumps(row(rng, i, max_chars), ensure_ascii=rng.random() < 0.5))
    return out


@dataclass(frozen=True)
class Plan:
    recreate: bool  # GRAPH.DELETE, then the schema again, before the batch (the hostile test file does this)
    delete_after: bool  # GRAPH.DELETE right after the batch (every test's fixture teardown does this)
    fresh_graph: bool  # a new graph key for the batch, with its own schema
    drop_big: bool  # GRAPH.DELETE of another, bigger graph (indexed quotes) just before: freed in the background


def plan(rng: random.Random) -> Plan:
    return Plan(recreate=rng.random() < 0.3, delete_after=rng.random() < 0.2, fresh_graph=rng.random() < 0.2,
                drop_big=rng.random() < 0.15)


def plain_lines(n: int, tag: str) -> list[str]:
    """Ordinary evidence lines (a bigger graph for the background delete)."""
    return [json.dumps({"source": {"url": f"https://big-{tag}-{i % 50}.example/doc"},
                        "quote": f"Broker {i} of {tag} moved {i} MB/s in a test of throughput and latency.",
                        "entities": [f"Broker{i % 37}", "Kafka"],
                        "observations": [{"entity": "Kafka", "metric": "throughput", "value": i, "unit": "MB/s"}]})
            for i in range(n)]


def adapter_batch(rng: random.Random, backend: FalkorBackend) -> str:
    """Hostile parameter maps straight to the adapter: written, or refused with a QueryError."""
    rows = []
    for _ in range(rng.randint(1, 20)):
        keys = [k for k in (text(rng, 2) for _ in range(rng.randint(1, 4))) if k and "`" not in k]
        rows.append({k: value(rng) for k in keys})
    try:
        backend.write("UNWIND $rows AS r CREATE (n:Hostile) SET n += r", {"rows": rows})
        return "written"
    except QueryError:
        return "refused"


class Driver:
    """One seed's batches on the server at `socket`: the same seed, the same batches and churn."""

    def __init__(self, socket: str, seed: int, *, rows: int = 40, max_chars: int = 200_000, big_rows: int = 2000,
                 counts: Counter[str] | None = None, reset: str = "clear") -> None:
        self.socket, self.seed, self.rows, self.max_chars, self.big_rows = socket, seed, rows, max_chars, big_rows
        self.reset = reset  # "clear" (keeps the key and its indexes) or "drop" (GRAPH.DELETE: how clear was)
        self.rng = random.Random(seed)
        self.counts: Counter[str] = Counter() if counts is None else counts
        self.batch_size = self.rng.choice([5, 20, 2000])
        self.store = self._store(f"hostile_{seed}")

    @property
    def graph(self) -> str:
        """The graph the batches go to now (readers follow it)."""
        return self.store.backend.graph_name  # type: ignore[attr-defined,no-any-return]

    def _reset(self, backend: object) -> None:
        getattr(backend, self.reset)()

    def _store(self, graph: str) -> GraphStore:
        store = GraphStore(FalkorBackend(graph, unix_socket=self.socket, timeout_s=120), batch_size=self.batch_size)
        store.init_schema()
        return store

    def next_batch(self) -> tuple[Plan, list[str]]:
        return plan(self.rng), batch(self.rng, self.rows, self.max_chars)

    def run(self, p: Plan, lines: list[str], tag: str) -> None:
        """One batch with its churn. A QueryError of the whole batch (a validation gap) is counted and raised."""
        counts, backend = self.counts, self.store.backend
        if p.fresh_graph:
            backend.drop()  # never used again
            self.store.close()
            self.store = self._store(f"hostile_{self.seed}_{uuid.uuid4().hex[:6]}")
            backend = self.store.backend
        if p.drop_big and self.big_rows:
            big = self._store(f"big_{self.seed}_{tag}")
            import_lines(big, plain_lines(self.big_rows, f"{self.seed}-{tag}"))
            big.backend.drop()
            big.close()
            counts["big_drops"] += 1
        if p.recreate:
            self._reset(backend)
            self.store.init_schema()
            counts["recreates"] += 1
        if self.rng.random() < 0.1:
            assert isinstance(backend, FalkorBackend)
            counts["adapter_" + adapter_batch(self.rng, backend)] += 1
        try:
            report = import_lines(self.store, lines)
        except QueryError:
            counts["batch_errors"] += 1
            raise
        counts["lines"] += report.lines
        counts["imported"] += report.imported
        counts["line_errors"] += len(report.errors)
        if p.delete_after:
            self._reset(backend)
            self.store.init_schema()
            counts["deletes"] += 1
        self.store.stats()

    def close(self) -> None:
        self.store.backend.drop()
        self.store.close()
