"""Per-run metrics: what `report.json` and `runs show` print."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from openresearch.models import EvidenceView, Verification


class RunMetrics:
    def __init__(self) -> None:
        self.stage_s: dict[str, float] = {}
        self.searches = 0
        self.network_requests = 0
        self.cache_hits = 0
        self.indexed_chunks = 0
        self.evidence_written = 0
        self.rejected_quotes = 0
        self.queries_rejected = 0
        self.retrieved_chunks: set[tuple[str, int, int]] = set()
        self.reflected: set[str] = set()
        self.refused: list[str] = []
        self.sub_questions = 0
        self.extraction_batches: dict[str, int] = {}  # sub-question -> sequential extraction steps
        self.final: dict[str, Any] = {}
        self.enforcement: dict[str, int] = {}  # LLM drafts: sentences rewritten or dropped before publishing
        self.judge = ""  # which claim judge verified the report, and why

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.stage_s[name] = round(self.stage_s.get(name, 0.0) + time.perf_counter() - t0, 3)

    def finish(self, v: Verification, evidence: dict[str, EvidenceView], llm_usage: dict[str, Any],
               sub_questions: int) -> None:
        self.sub_questions = sub_questions
        spans = [(e.source.id, e.start, e.end) for e in evidence.values() if e.start is not None and e.end is not None]
        cited_chunks = sum(1 for (sid, s, e) in self.retrieved_chunks
                           if any(sid == qs and qa is not None and qb is not None and qa < e and qb > s
                                  for (qs, qa, qb) in spans))
        self.final = {
            "retrieval_effective_rate": round(cited_chunks / len(self.retrieved_chunks), 4)
            if self.retrieved_chunks else 0.0,
            "re_search_rate": round(len(self.reflected) / sub_questions, 4) if sub_questions else 0.0,
            "citation_coverage": v.citation_coverage,
            "phantom_citations": v.phantom_citations,
            "numeric_faithfulness": v.numeric_faithfulness,
            "fully_verified": v.fully_verified,
            "llm": llm_usage,
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.final,
            "retrieved_chunks": len(self.retrieved_chunks),
            "sub_questions_reflected": len(self.reflected),
            "searches": self.searches,
            "network_requests": self.network_requests,
            "cache_hits": self.cache_hits,
            "indexed_chunks": self.indexed_chunks,
            "evidence_written": self.evidence_written,
            "rejected_quotes": self.rejected_quotes,
            "rejected_queries": self.queries_rejected,
            "refused_fetches": len(self.refused),
            "max_sequential_extraction_steps": max(self.extraction_batches.values(), default=0),
            "wall_time_s": dict(self.stage_s),
            **({"enforcement": dict(self.enforcement)} if self.enforcement else {}),
            **({"judge": self.judge} if self.judge else {}),
        }
