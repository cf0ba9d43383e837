"""The hard LLM budget, through real calls to the scripted endpoint."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from llm_server import ScriptedLLMServer, answer  # tests/agents is on sys.path (rootdir-less import mode)

from openresearch.agents.llm.budget import Budget
from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import LLMConfig, Role
from openresearch.errors import BudgetExceeded

pytestmark = pytest.mark.integration
ASK = [{"role": "user", "content": "Rewrite the query."}]


def client_for(server: ScriptedLLMServer, budget: Budget, **cfg: Any) -> LLMClient:
    return LLMClient(LLMConfig(base_url=server.base_url, model="m", timeout_s=5, **cfg), budget=budget,
                     backoff_base_s=0.01)


def test_budget_trips_on_calls(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer("ok", repeat=True))
    budget = Budget(max_calls=2)
    with client_for(llm_server, budget) as client:
        client.complete_text(Role.REWRITE, ASK)
        assert not budget.tripped
        client.complete_text(Role.EXTRACT, ASK)
        assert budget.tripped and "max_calls" in (budget.reason or "")
        with pytest.raises(BudgetExceeded):
            client.complete_text(Role.REWRITE, ASK)
    assert len(llm_server.requests) == 2


def test_budget_trips_on_tokens(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer("ok", prompt_tokens=100, completion_tokens=50, repeat=True))
    budget = Budget(max_tokens=250)
    with client_for(llm_server, budget) as client:
        client.complete_text(Role.REWRITE, ASK)
        assert not budget.tripped
        client.complete_text(Role.REWRITE, ASK)  # 300 reported: over, but this answer was already paid for
        assert budget.tripped and "max_tokens" in (budget.reason or "")
        with pytest.raises(BudgetExceeded):
            client.complete_text(Role.REWRITE, ASK)
        assert client.usage_report()["rewrite"]["total_tokens"] == 300
    assert len(llm_server.requests) == 2


def test_a_prompt_larger_than_the_token_budget_is_never_sent(llm_server: ScriptedLLMServer) -> None:
    budget = Budget(max_tokens=1000)
    with client_for(llm_server, budget) as client, pytest.raises(BudgetExceeded, match="would be exceeded"):
        client.complete_text(Role.EXTRACT, [{"role": "user", "content": "word " * 5000}])
    assert budget.tripped and llm_server.requests == []


def test_budget_trips_on_cost(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer("ok", prompt_tokens=100, completion_tokens=50, repeat=True))
    budget = Budget(max_cost_usd=0.5)
    # $1000 / $2000 per 1M tokens: 100 in + 50 out = $0.10 + $0.10 per call
    with client_for(llm_server, budget, input_price_per_mtok=1000, output_price_per_mtok=2000) as client:
        for _ in range(3):
            client.complete_text(Role.WRITE, ASK)
        assert budget.tripped and "max_cost_usd" in (budget.reason or "")
        with pytest.raises(BudgetExceeded):
            client.complete_text(Role.WRITE, ASK)
        report = client.usage_report()
    assert report["write"]["cost_usd"] == pytest.approx(0.6)
    assert report["total"]["calls"] == 3


def test_budget_holds_under_parallel_callers(llm_server: ScriptedLLMServer) -> None:
    llm_server.latency_s = 0.05  # calls overlap, so the limit must hold before requests are sent
    llm_server.script(answer("ok", repeat=True))
    budget = Budget(max_calls=5)
    outcomes: list[str] = []

    def worker(client: LLMClient) -> None:
        try:
            client.complete_text(Role.EXTRACT, ASK)
            outcomes.append("ok")
        except BudgetExceeded:
            outcomes.append("budget")

    with client_for(llm_server, budget) as client:
        threads = [threading.Thread(target=worker, args=(client,)) for _ in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert sorted(outcomes).count("ok") == 5 and len(llm_server.requests) == 5
    assert budget.usage_report()["extract"]["calls"] == 5
