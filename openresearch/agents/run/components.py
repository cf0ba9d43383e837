"""Assemble one implementation per role: the LLM ones when an endpoint is configured (each falls back to
its deterministic twin), the deterministic ones offline."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openresearch.agents.extract.extractor import DeterministicExtractor, Extractor
from openresearch.agents.llm.budget import Budget
from openresearch.agents.llm.client import LLMClient
from openresearch.agents.plan.planner import DeterministicPlanner, Planner
from openresearch.agents.plan.rewrite import RewriteResult, rewrite
from openresearch.agents.run.run_config import Caps
from openresearch.agents.verify.judge import EmbeddingJudge, Judge
from openresearch.agents.write.writer import DeterministicWriter, Writer
from openresearch.config import Settings
from openresearch.identity import AliasResolver
from openresearch.ingest.embed import Embedder
from openresearch.models import Plan, SubQuestion


@dataclass
class Components:
    planner: Planner
    rewrite: Callable[[SubQuestion, Plan], RewriteResult]
    extractor: Extractor
    fallback_extractor: Extractor
    writer: Writer
    fallback_writer: Writer
    judge: Judge
    llm: LLMClient | None = None
    judge_choice: str = "offline judge"  # which judge verifies, and why (judge_choice.choose)

    def budget_tripped(self) -> bool:
        return self.llm is not None and self.llm.budget.tripped

    def budget_reason(self) -> str:
        return (self.llm.budget.reason or "") if self.llm is not None else ""

    def usage(self) -> dict[str, Any]:
        return self.llm.usage_report() if self.llm is not None else {}

    @classmethod
    def build(cls, settings: Settings, embedder: Embedder, *, offline: bool, caps: Caps,
              aliases: AliasResolver | None = None, workers: int = 4) -> Components:
        aliases = aliases or AliasResolver.load(settings.aliases_file)
        planner = DeterministicPlanner(embedder)
        extractor = DeterministicExtractor(embedder, aliases)
        writer = DeterministicWriter()
        judge = EmbeddingJudge(embedder)
        llm = None if offline else LLMClient.from_settings(
            settings, budget=Budget(caps.llm_calls, caps.llm_tokens, caps.llm_cost_usd))
        if llm is None:
            return cls(planner=planner, rewrite=lambda q, p: rewrite(q, p, embedder=embedder),
                       extractor=extractor, fallback_extractor=extractor, writer=writer, fallback_writer=writer,
                       judge=judge)
        from openresearch.agents.extract.extractor import LLMExtractor
        from openresearch.agents.plan.planner import LLMPlanner
        from openresearch.agents.verify.judge import LLMJudge
        from openresearch.agents.verify.judge_choice import choose
        from openresearch.agents.write.writer import LLMWriter

        llm_judges, why = choose(settings, llm)
        return cls(
            planner=LLMPlanner(llm, planner),
            rewrite=lambda q, p: rewrite(q, p, embedder=embedder, client=llm),
            extractor=LLMExtractor(llm, extractor), fallback_extractor=extractor,
            writer=LLMWriter(llm, writer, workers=workers), fallback_writer=writer,
            # sentence judgements are independent
            judge=LLMJudge(llm, judge, workers=workers * 4) if llm_judges else judge, llm=llm, judge_choice=why,
        )
