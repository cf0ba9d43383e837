"""CONVERGE: from many candidates to the 5-8 sub-questions that matter, within the budget, as a DAG.

Shared by both planners, so an LLM's choice is held to exactly the same limits as the deterministic
one: the LLM only changes candidates' priorities, depths and dependencies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import networkx as nx
from pydantic import BaseModel, Field

from openresearch.agents.plan.plan_diverge import Candidate
from openresearch.ingest.embed import Embedder
from openresearch.models import Role, SourceType, SubQuestion

ROLE_ORDER: dict[str, int] = {"background": 0, "core": 1, "comparison": 2, "impact": 3}
DUPLICATE_SIMILARITY = 0.85  # rescaled similarity above which two questions would retrieve the same pages
STOP_SCORE = 0.35  # past the minimum, a candidate scoring below this is not worth a search budget


class PlanBudget(BaseModel):
    max_sub_questions: int = Field(default=8, ge=1)
    min_sub_questions: int = Field(default=5, ge=1)
    max_total_depth: int = Field(default=15, ge=1)
    source_types: list[SourceType] | None = None  # None = web and academic


def _unit(v: Sequence[float]) -> list[float]:
    n = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / n for x in v]


def _cos(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def _score(c: Candidate, chosen: list[Candidate], plan_entities: set[str], plan_aspects: set[str],
           redundancy: float) -> float:
    """Importance + what it adds (entities, aspects, a missing role) - how much it repeats."""
    # coverage counts per role: every entity deserves its own background and every aspect its own
    # comparison, not just a mention somewhere else
    covered_e = {e for s in chosen if s.role == c.role for e in s.entities}
    covered_a = {k for s in chosen if s.role == c.role for k in s.aspects}
    gain = 0.15 * len((set(c.entities) & plan_entities) - covered_e)
    gain += 0.15 * len((set(c.aspects) & plan_aspects) - covered_a)
    same_role = sum(1 for s in chosen if s.role == c.role)
    balance = 0.3 if same_role == 0 else -0.1 * max(0, same_role - 2)
    return c.priority + gain + balance - 0.3 * redundancy


def similarities(vectors: list[list[float]]) -> list[list[float]]:
    """Cosine rescaled against the pool's mean: 0 = as alike as two typical candidates, 1 = identical.

    Raw cosines are not comparable across languages: the bundled English MiniLM puts any two Chinese
    questions above 0.9, so a fixed threshold would call every Chinese candidate a duplicate.
    """
    units = [_unit(v) for v in vectors]
    raw = [[_cos(a, b) for b in units] for a in units]
    n = len(units)
    pairs = [raw[i][j] for i in range(n) for j in range(i + 1, n)]
    mean = min(sum(pairs) / len(pairs), 0.95) if pairs else 0.0
    return [[max(0.0, (x - mean) / (1.0 - mean)) for x in row] for row in raw]


def _duplicate(a: Candidate, b: Candidate, sim: float) -> bool:
    # about different things by construction, however alike the wording ("What is X?" / "What is Y?")
    if a.aspects and b.aspects and not set(a.aspects) & set(b.aspects):
        return False
    if a.entities and b.entities and set(a.entities) != set(b.entities):
        return False
    return sim >= DUPLICATE_SIMILARITY


def select(candidates: list[Candidate], vectors: list[list[float]], budget: PlanBudget,
           entities: list[str], aspects: list[str]) -> list[Candidate]:
    """Greedy: take the best-scoring candidate, rescore the rest against what is taken, repeat."""
    sims = similarities(vectors)
    pool = list(range(len(candidates)))
    taken: list[int] = []
    plan_e, plan_a = set(entities), set(aspects)
    while pool and len(taken) < budget.max_sub_questions:
        best, best_score = -1, -math.inf
        for i in pool:
            if any(_duplicate(candidates[i], candidates[j], sims[i][j]) for j in taken):
                continue
            sim = max((sims[i][j] for j in taken), default=0.0)
            score = _score(candidates[i], [candidates[j] for j in taken], plan_e, plan_a, sim)
            if score > best_score:
                best, best_score = i, score
        if best < 0 or (len(taken) >= budget.min_sub_questions and best_score < STOP_SCORE):
            break
        taken.append(best)
        pool.remove(best)
    # sections read background -> core -> comparison -> impact; within a role, in the candidates' order
    return [candidates[i] for i in sorted(taken, key=lambda i: (ROLE_ORDER[candidates[i].role], i))]


def dependencies(chosen: list[Candidate]) -> dict[str, list[str]]:
    """Comparison and impact questions wait for the background of their entities (or of the topic)."""
    ids = {c.id for c in chosen}
    backgrounds = [c for c in chosen if c.role == "background"]
    deps: dict[str, list[str]] = {}
    for c in chosen:
        wanted = [d for d in c.depends_on if d in ids and d != c.id]  # unknown ids are dropped
        if c.role in ("comparison", "impact"):
            for b in backgrounds:
                if (set(b.entities) & set(c.entities)) or (not b.entities and not c.entities):
                    wanted.append(b.id)
        deps[c.id] = list(dict.fromkeys(wanted))
    return break_cycles(deps, {c.id: c.role for c in chosen})


def break_cycles(deps: dict[str, list[str]], roles: dict[str, Role]) -> dict[str, list[str]]:
    """Remove one edge per cycle until none is left: the one pointing least "backwards" in section order."""
    graph = nx.DiGraph()
    graph.add_nodes_from(deps)
    graph.add_edges_from((d, q) for q, ds in deps.items() for d in ds)
    while True:
        try:
            cycle = nx.find_cycle(graph)
        except nx.NetworkXNoCycle:
            break
        # an edge from a later section to an earlier one is the least plausible dependency
        u, v = max(((e[0], e[1]) for e in cycle), key=lambda e: ROLE_ORDER[roles[e[0]]] - ROLE_ORDER[roles[e[1]]])
        graph.remove_edge(u, v)
    return {q: [d for d in ds if graph.has_edge(d, q)] for q, ds in deps.items()}


def fit_depth(chosen: list[Candidate], max_total_depth: int) -> list[Candidate]:
    """Trim depths (least important first) and, if that is not enough, drop the least important."""
    kept = [c.model_copy() for c in chosen]
    while kept and sum(c.depth for c in kept) > max_total_depth:
        deep = [c for c in kept if c.depth > 1]
        if deep:
            victim = min(deep, key=lambda c: (c.priority, -kept.index(c)))
            victim.depth -= 1
        else:
            kept.remove(min(kept, key=lambda c: (c.priority, -kept.index(c))))
    return kept


def source_types(c: Candidate, allowed: list[SourceType] | None) -> list[SourceType]:
    allow: list[SourceType] = allowed if allowed is not None else ["web", "academic"]
    wanted: list[SourceType] = []
    if c.academic and "academic" in allow:
        wanted.append("academic")
    if "internal" in allow:
        wanted.append("internal")
    if "web" in allow:
        wanted.append("web")
    return wanted or allow[:1] or ["web"]


def converge(candidates: list[Candidate], embedder: Embedder, budget: PlanBudget, entities: list[str],
             aspects: list[str]) -> list[SubQuestion]:
    by_id: dict[str, Candidate] = {}
    for c in candidates:  # the same text twice: keep the first, with the higher priority
        if c.id not in by_id:
            by_id[c.id] = c
        elif by_id[c.id].priority < c.priority:
            by_id[c.id] = by_id[c.id].model_copy(update={"priority": c.priority})
    unique = list(by_id.values())
    vectors = embedder.embed([c.text for c in unique]) if unique else []
    chosen = fit_depth(select(unique, vectors, budget, entities, aspects), budget.max_total_depth)
    deps = dependencies(chosen)
    return [SubQuestion(id=c.id, text=c.text, role=c.role, keywords=c.keywords, entities=c.entities,
                        aspects=c.aspects, source_types=source_types(c, budget.source_types), depth=c.depth,
                        depends_on=deps[c.id]) for c in chosen]
