"""Budget accounting without any endpoint."""

from __future__ import annotations

import pytest

from openresearch.agents.llm.budget import Budget
from openresearch.errors import BudgetExceeded


def test_unlimited_budget_only_counts() -> None:
    budget = Budget()
    for role in ("planner", "extract", "extract"):
        budget.settle(budget.reserve(role, 10, 0.0), 7, 3, 0.001)
    report = budget.usage_report()
    assert report["extract"]["calls"] == 2 and report["extract"]["total_tokens"] == 20
    assert report["total"]["calls"] == 3 and report["total"]["cost_usd"] == pytest.approx(0.003)
    assert not budget.tripped and budget.reason is None


def test_failed_calls_count_against_max_calls() -> None:
    budget = Budget(max_calls=2)
    budget.fail(budget.reserve("verify", 5, 0.0), retrying=True)
    budget.fail(budget.reserve("verify", 5, 0.0), retrying=False)
    assert budget.tripped
    with pytest.raises(BudgetExceeded, match="max_calls"):
        budget.reserve("verify", 5, 0.0)
    usage = budget.usage_report()["verify"]
    assert (usage["calls"], usage["failures"], usage["retries"], usage["total_tokens"]) == (2, 2, 1, 0)


def test_in_flight_estimates_count_until_settled() -> None:
    budget = Budget(max_tokens=100)
    first = budget.reserve("extract", 60, 0.0)
    with pytest.raises(BudgetExceeded, match="would be exceeded"):
        budget.reserve("extract", 60, 0.0)  # 60 in flight + 60 > 100
    budget.settle(first, 10, 5, 0.0)
    assert budget.tripped  # a refused reservation trips the run for good, even if later calls might fit


def test_estimated_cost_is_checked_before_sending() -> None:
    budget = Budget(max_cost_usd=1.0)
    budget.settle(budget.reserve("write", 1, 0.5), 1, 1, 0.9)
    with pytest.raises(BudgetExceeded, match="max_cost_usd"):
        budget.reserve("write", 1, 0.2)
