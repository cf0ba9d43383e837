"""The planner: a question becomes a DAG of 5-8 sub-questions within a budget.

Two rounds in both implementations: DIVERGE proposes many candidates, CONVERGE (plan_converge, shared)
scores, dedupes and trims them. The LLM planner asks the model for both rounds and falls back to the
deterministic one on any LLMError or BudgetExceeded; `Plan.method` says which produced the plan.
"""

from __future__ import annotations

import re
from typing import Protocol, cast

import networkx as nx
from pydantic import BaseModel, Field

from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import Role as LLMRole
from openresearch.agents.llm.prompt import render
from openresearch.agents.plan.analysis import Analyzer, QuestionAnalysis, default_analyzer
from openresearch.agents.plan.plan_converge import ROLE_ORDER, PlanBudget, converge
from openresearch.agents.plan.plan_diverge import Candidate, diverge, keywords_for, plan_aspects
from openresearch.agents.plan.records_plan import with_records
from openresearch.errors import BudgetExceeded, LLMError
from openresearch.ingest.embed import Embedder
from openresearch.ingest.textnorm import guess_lang
from openresearch.models import Plan, Role

__all__ = ["DeterministicPlanner", "LLMPlanner", "PlanBudget", "Planner", "is_question", "schedule"]
LANGUAGE_NAMES = {"en": "English", "zh": "Simplified Chinese (简体中文)"}
_EN_ASK = re.compile(r"^(what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|"
                     r"should|would|will|has|have|had|compare)\b", re.I)
_ZH_ASK = re.compile(r"[吗呢么]|什么|哪|如何|怎样|怎么|多少|几|是否|为何|为什么|有何|有没有|对比|比较")


class Planner(Protocol):
    def plan(self, question: str, *, budget: PlanBudget) -> Plan: ...


def schedule(plan: Plan) -> list[list[str]]:
    """Waves of sub-question ids: every id's dependencies are in earlier waves (plan order within one)."""
    order = {q.id: i for i, q in enumerate(plan.sub_questions)}
    graph = nx.DiGraph()
    graph.add_nodes_from(order)
    graph.add_edges_from((d, q.id) for q in plan.sub_questions for d in q.depends_on if d in order)
    if not nx.is_directed_acyclic_graph(graph):
        raise ValueError("the plan's dependencies contain a cycle")
    return [sorted(wave, key=order.__getitem__) for wave in nx.topological_generations(graph)]


def is_question(text: str) -> bool:
    """A sub-question must ask, not answer: "The population of X is approximately 10,256" is no question.

    A question mark, an interrogative opening (or "Compare ..."), or a Chinese question word."""
    t = text.strip()
    if not t:
        return False
    first = min((i for i in (t.find("?"), t.find("？")) if i >= 0), default=-1)
    if 0 <= first < len(t) - 1:
        return False  # "What is X? According to ..., X is 12,345.": a question followed by a made-up answer
    if t.endswith(("?", "？")):
        return True
    return bool(_EN_ASK.match(t) or _ZH_ASK.search(t))


def fit_budget(a: QuestionAnalysis, budget: PlanBudget) -> PlanBudget:
    """A look-up needs one or two sub-questions, not the five a comparison does."""
    if a.kind == "lookup":
        return budget.model_copy(update={"min_sub_questions": 1, "max_sub_questions": min(2, budget.max_sub_questions)})
    return budget


def _plan(a: QuestionAnalysis, candidates: list[Candidate], embedder: Embedder, budget: PlanBudget,
          method: str) -> Plan:
    aspects = plan_aspects(a)
    subs = converge(candidates, embedder, fit_budget(a, budget), a.entities, aspects)
    return Plan(question=a.question, language=a.language, kind=a.kind, entities=a.entities, aspects=aspects,
                attributes=a.attributes, metrics=a.metrics,
                sub_questions=subs, candidates_considered=len(candidates),
                method="llm" if method == "llm" else "deterministic")


class DeterministicPlanner:
    def __init__(self, embedder: Embedder, analyzer: Analyzer | None = None) -> None:
        self.embedder = embedder
        self.analyzer = analyzer or default_analyzer()

    def plan(self, question: str, *, budget: PlanBudget) -> Plan:
        a = with_records(self.analyzer.analyse(question))
        return _plan(a, diverge(a), self.embedder, budget, "deterministic")


# --- the LLM planner: what the model may answer in each round --------------------------------------

class LLMCandidate(BaseModel):
    text: str = Field(min_length=5)
    role: str = "core"  # free text on purpose: an odd role becomes "core" instead of failing the round
    entities: list[str] = Field(default_factory=list)
    aspects: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    academic: bool = False


class LLMDiverge(BaseModel):
    candidates: list[LLMCandidate] = Field(min_length=1)


class LLMChoice(BaseModel):
    id: str
    importance: float = 0.5
    depth: int = 2
    depends_on: list[str] = Field(default_factory=list)


class LLMConverge(BaseModel):
    selected: list[LLMChoice] = Field(min_length=1)


class LLMPlanner:
    def __init__(self, client: LLMClient, fallback: DeterministicPlanner, *, candidates: int = 16) -> None:
        self.client = client
        self.fallback = fallback
        self.candidates = candidates
        self.not_questions = 0  # LLM candidates dropped because they were not questions

    def plan(self, question: str, *, budget: PlanBudget) -> Plan:
        a = with_records(self.fallback.analyzer.analyse(question))
        try:
            pool = self._diverge(a)
            if not pool:
                self.client.note_fallback(LLMRole.PLANNER, "no candidate sub-question was a question")
                return self.fallback.plan(question, budget=budget)
            chosen = self._converge(a, pool, budget)
        except (LLMError, BudgetExceeded):
            return self.fallback.plan(question, budget=budget)
        if len(chosen) < fit_budget(a, budget).min_sub_questions:
            # too few usable answers: deterministic candidates top up, ranked below every LLM pick
            chosen += [c.model_copy(update={"priority": c.priority - 1.0}) for c in diverge(a)]
        return _plan(a, chosen, self.fallback.embedder, budget, "llm")

    def _messages(self, user: str) -> list[dict[str, str]]:
        system = render("planner_system", untrusted=render("untrusted_data"))
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def _diverge(self, a: QuestionAnalysis) -> list[Candidate]:
        prompt = render("planner_diverge", question=a.question, language=LANGUAGE_NAMES[a.language], kind=a.kind,
                        entities=", ".join(a.entities) or "(none found)",
                        aspects=", ".join(plan_aspects(a)) or "(none named)",
                        attributes=", ".join(a.attributes) or "(none named)",
                        count=2 if a.kind == "lookup" else self.candidates)
        answer = self.client.complete_json(LLMRole.PLANNER, self._messages(prompt), LLMDiverge)
        resolver = self.fallback.analyzer.resolver
        out: dict[str, Candidate] = {}
        for c in answer.candidates:
            text = " ".join(c.text.split())
            if (guess_lang(text) == "zh") != (a.language == "zh"):
                continue  # a Chinese question gets a Chinese report: off-language candidates are dropped
            if not is_question(text):
                self.not_questions += 1
                continue  # an answer (or a guess at one) written as a sub-question searches for itself
            role = c.role.strip().lower()
            entities = list(dict.fromkeys(resolver.canonical(e) for e in c.entities if e.strip()))
            aspects = [k.strip().lower() for k in c.aspects if k.strip()][:4]
            keywords = [k.strip() for k in c.keywords if k.strip()][:8] or keywords_for(entities, aspects, a)
            cand = Candidate(text=text, role=cast(Role, role) if role in ROLE_ORDER else "core",
                             entities=entities, aspects=aspects, keywords=keywords, academic=c.academic)
            out.setdefault(cand.id, cand)
        return list(out.values())

    def _converge(self, a: QuestionAnalysis, pool: list[Candidate], budget: PlanBudget) -> list[Candidate]:
        if not pool:
            return []
        labels = {f"C{i}": c for i, c in enumerate(pool, 1)}
        listing = "\n".join(f"{label} [{c.role}] {c.text}" for label, c in labels.items())
        prompt = render("planner_converge", question=a.question, candidates=listing,
                        min_n=budget.min_sub_questions, max_n=budget.max_sub_questions,
                        max_depth=budget.max_total_depth)
        answer = self.client.complete_json(LLMRole.PLANNER, self._messages(prompt), LLMConverge)
        chosen: dict[str, Candidate] = {}
        for choice in answer.selected:
            cand = labels.get(choice.id.strip())
            if cand is None or cand.id in chosen:
                continue  # an id the model made up
            deps = [labels[d.strip()].id for d in choice.depends_on if d.strip() in labels]
            chosen[cand.id] = cand.model_copy(update={
                "priority": 1.0 + min(1.0, max(0.0, choice.importance)),
                "depth": min(3, max(1, choice.depth)), "depends_on": deps})
        # candidates the model passed over stay available below its picks, only to reach the minimum
        rest = [c.model_copy(update={"priority": -1.0}) for c in pool if c.id not in chosen]
        return [*chosen.values(), *rest]
