"""The run's hard LLM budget and per-role usage accounting, shared by every role and thread of a run.

A call is reserved before it is sent (calls + estimated tokens/cost, so parallel workers cannot
overshoot together) and settled with the real usage afterwards. Once a limit is reached the budget is
`tripped` for good: the run reads that to finish in low-precision (deterministic) mode.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass

from pydantic import BaseModel

from openresearch.errors import BudgetExceeded


class RoleUsage(BaseModel):
    calls: int = 0  # every request sent, retries and re-asks included: that is what the endpoint sees
    failures: int = 0  # requests that ended in a transport/HTTP error
    retries: int = 0
    reasks: int = 0
    # outcome of each structured (JSON) call: first answer valid as sent, usable after repair (fences,
    # prose, loose JSON), usable after the one re-ask, or handed to the deterministic path
    valid_first: int = 0
    repaired: int = 0
    reask_ok: int = 0
    fallbacks: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class Reservation:
    role: str
    tokens: int
    cost_usd: float


class Budget:
    """Limits for one run; `None` means unlimited. Thread-safe."""

    def __init__(self, max_calls: int | None = None, max_tokens: int | None = None,
                 max_cost_usd: float | None = None) -> None:
        self.max_calls = max_calls
        self.max_tokens = max_tokens
        self.max_cost_usd = max_cost_usd
        self._lock = threading.Lock()
        self._usage: dict[str, RoleUsage] = {}
        self._pending_tokens = 0
        self._pending_cost = 0.0
        self._reason: str | None = None

    # -- state ----------------------------------------------------------------------------------
    @property
    def tripped(self) -> bool:
        return self._reason is not None

    @property
    def reason(self) -> str | None:
        """Why the budget tripped, e.g. "max_calls reached (20/20)"."""
        return self._reason

    def totals(self) -> RoleUsage:
        with self._lock:
            return _sum(self._usage.values())

    def usage_report(self) -> dict[str, dict[str, float | int]]:
        """Per role plus a "total" row; plain numbers so it drops straight into run metrics."""
        with self._lock:
            rows = {role: u.model_copy() for role, u in sorted(self._usage.items())}
        rows["total"] = _sum(rows.values())
        return {role: {**u.model_dump(), "total_tokens": u.total_tokens, "cost_usd": round(u.cost_usd, 6)}
                for role, u in rows.items()}

    # -- accounting -----------------------------------------------------------------------------
    def reserve(self, role: str, est_tokens: int, est_cost_usd: float) -> Reservation:
        """Count one request before it is sent; raise BudgetExceeded if it would break a limit."""
        with self._lock:
            if self._reason is not None:
                raise BudgetExceeded(f"LLM budget exhausted: {self._reason}")
            total = _sum(self._usage.values())
            problem = None
            if self.max_calls is not None and total.calls + 1 > self.max_calls:
                problem = f"max_calls reached ({total.calls}/{self.max_calls})"
            elif (self.max_tokens is not None
                  and total.total_tokens + self._pending_tokens + est_tokens > self.max_tokens):
                problem = (f"max_tokens would be exceeded ({total.total_tokens} used + ~{est_tokens} "
                           f"> {self.max_tokens})")
            elif (self.max_cost_usd is not None
                  and total.cost_usd + self._pending_cost + est_cost_usd > self.max_cost_usd):
                problem = (f"max_cost_usd would be exceeded (${total.cost_usd:.4f} spent + "
                           f"~${est_cost_usd:.4f} > ${self.max_cost_usd})")
            if problem:
                self._reason = problem
                raise BudgetExceeded(f"LLM budget exhausted: {problem}")
            self._role(role).calls += 1
            self._pending_tokens += est_tokens
            self._pending_cost += est_cost_usd
            return Reservation(role, est_tokens, est_cost_usd)

    def settle(self, res: Reservation, prompt_tokens: int, completion_tokens: int, cost_usd: float) -> None:
        """Replace the estimate with what the endpoint reported; trip once a limit is reached."""
        with self._lock:
            self._release(res)
            usage = self._role(res.role)
            usage.prompt_tokens += prompt_tokens
            usage.completion_tokens += completion_tokens
            usage.cost_usd += cost_usd
            self._check_reached()

    def fail(self, res: Reservation, *, retrying: bool) -> None:
        """The request errored: it still counts as a call, but consumed no reported tokens."""
        with self._lock:
            self._release(res)
            usage = self._role(res.role)
            usage.failures += 1
            usage.retries += int(retrying)
            self._check_reached()

    def note_reask(self, role: str) -> None:
        with self._lock:
            self._role(role).reasks += 1

    def note_outcome(self, role: str, outcome: str) -> None:
        """valid | repaired | reask_ok | fallback: one per structured call (see RoleUsage)."""
        field = {"valid": "valid_first", "repaired": "repaired", "reask_ok": "reask_ok",
                 "fallback": "fallbacks"}[outcome]
        with self._lock:
            usage = self._role(role)
            setattr(usage, field, getattr(usage, field) + 1)

    # -- internals (lock held) ------------------------------------------------------------------
    def _role(self, role: str) -> RoleUsage:
        return self._usage.setdefault(role, RoleUsage())

    def _release(self, res: Reservation) -> None:
        self._pending_tokens -= res.tokens
        self._pending_cost -= res.cost_usd

    def _check_reached(self) -> None:
        if self._reason is not None:
            return
        total = _sum(self._usage.values())
        if self.max_calls is not None and total.calls >= self.max_calls:
            self._reason = f"max_calls reached ({total.calls}/{self.max_calls})"
        elif self.max_tokens is not None and total.total_tokens >= self.max_tokens:
            self._reason = f"max_tokens reached ({total.total_tokens}/{self.max_tokens})"
        elif self.max_cost_usd is not None and total.cost_usd >= self.max_cost_usd:
            self._reason = f"max_cost_usd reached (${total.cost_usd:.4f}/${self.max_cost_usd})"


def _sum(rows: Iterable[RoleUsage]) -> RoleUsage:
    total = RoleUsage()
    for u in rows:
        total.calls += u.calls
        total.failures += u.failures
        total.retries += u.retries
        total.reasks += u.reasks
        total.valid_first += u.valid_first
        total.repaired += u.repaired
        total.reask_ok += u.reask_ok
        total.fallbacks += u.fallbacks
        total.prompt_tokens += u.prompt_tokens
        total.completion_tokens += u.completion_tokens
        total.cost_usd += u.cost_usd
    return total
