"""LLM-written sub-questions must be questions; answers written as sub-questions fall back (counted)."""

from __future__ import annotations

import pytest
from llm_server import ScriptedLLMServer, answer

from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import LLMConfig
from openresearch.agents.plan.planner import DeterministicPlanner, LLMPlanner, PlanBudget, is_question
from openresearch.ingest.embed import HashEmbedder

LOOKUP = "What is the population of Blue Lake Township, Michigan?"


@pytest.mark.parametrize(("text", "ok"), [
    ("What is the population of Blue Lake Township?", True),
    ("How many people live in Blue Lake Township", True),
    ("Compare Kafka and Pulsar on throughput", True),
    ("Blue Lake Township 的人口是多少", True),
    ("The population of Blue Lake Township, Michigan is approximately 10,256", False),
    ("Blue Lake Township population", False),
    ("", False),
    # seen from the 1.5B model (bench_llm): a question with its own invented answer appended
    ("What is the population of Broken Bow? According to the latest census data, the population of Broken Bow "
     "is 12,345.", False),
])
def test_is_question(text: str, ok: bool) -> None:
    assert is_question(text) is ok


@pytest.mark.integration
def test_statements_from_the_model_fall_back_to_the_deterministic_plan(llm_server: ScriptedLLMServer) -> None:
    statement = "The population of Blue Lake Township, Michigan is approximately 10,256"
    llm_server.script(answer({"candidates": [{"text": statement, "role": "core"},
                                             {"text": "Blue Lake Township has 428 residents.", "role": "core"}]}))
    client = LLMClient(LLMConfig(base_url=llm_server.base_url, model="m", timeout_s=5), max_retries=0)
    planner = LLMPlanner(client, DeterministicPlanner(HashEmbedder()))
    budget = PlanBudget()
    plan = planner.plan(LOOKUP, budget=budget)
    assert plan.method == "deterministic"
    assert all(is_question(q.text) for q in plan.sub_questions)
    assert planner.not_questions == 2
    assert client.usage_report()["planner"]["fallbacks"] == 1
    assert "not a question" in (client.unusable_reason() or "") or "was a question" in (client.unusable_reason() or "")
    assert len(llm_server.requests) == 1  # no converge round for an empty pool


@pytest.mark.integration
def test_a_mixed_pool_keeps_only_the_questions(llm_server: ScriptedLLMServer) -> None:
    good = "What was the population of Blue Lake Township, Michigan at the 2010 census?"
    llm_server.script(answer({"candidates": [{"text": good, "role": "core"},
                                             {"text": "Blue Lake Township has 428 residents.", "role": "core"}]}),
                      answer({"selected": [{"id": "C1", "importance": 0.9, "depth": 1}]}))
    client = LLMClient(LLMConfig(base_url=llm_server.base_url, model="m", timeout_s=5), max_retries=0)
    planner = LLMPlanner(client, DeterministicPlanner(HashEmbedder()))
    plan = planner.plan(LOOKUP, budget=PlanBudget())
    assert plan.method == "llm" and plan.sub_questions[0].text == good
    assert all(is_question(q.text) for q in plan.sub_questions) and planner.not_questions == 1
