"""`openresearch llm check`: what the configured endpoint supports, and one sample answer per role.

Each structured-output mode is probed with one tiny request (a few output tokens), then every role is asked
its real prompt over a made-up sample (no realistic names or figures), through the same client the run uses,
so what this prints is what a run would get. What was learned is saved in the capability cache.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from pydantic import BaseModel, Field

from openresearch.agents.extract.extract_llm import LLMExtraction
from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import Role
from openresearch.agents.llm.prompt import render
from openresearch.errors import BudgetExceeded, LLMError
from openresearch.models import ClaimJudgement

SAMPLE_QUESTION = "How many crates does the Zorblat 3 hold, and how fast does it load them?"
SAMPLE_TEXT = ("The Zorblat 3 is a fictional loader used in this self-test. It holds up to 40 crates. "
               "In the vendor's own test it loaded 12 crates per minute.")
SAMPLE_ID = "E-selftest0001"


class ModeProbe(BaseModel):
    mode: str
    accepted: bool
    detail: str = ""


class RoleSample(BaseModel):
    role: str
    ok: bool
    seconds: float
    answer: str = ""
    error: str = ""


class CheckReport(BaseModel):
    endpoint: str
    model: str
    models_listed: list[str] = Field(default_factory=list)
    modes: list[ModeProbe] = Field(default_factory=list)
    token_param: str = "max_tokens"
    learned_mode: str | None = None
    notes: list[str] = Field(default_factory=list)
    samples: list[RoleSample] = Field(default_factory=list)
    usage: dict[str, dict[str, float | int]] = Field(default_factory=dict)
    judge: str = ""  # which claim judge runs verify with this endpoint, and why (verify/judge_choice.py)

    @property
    def usable(self) -> bool:
        return any(s.ok for s in self.samples) or (not self.samples and any(m.accepted for m in self.modes))


def _untrusted(name: str) -> str:
    return render(name, untrusted=render("untrusted_data"))


def role_prompts() -> dict[Role, tuple[list[dict[str, str]], type[BaseModel]]]:
    """The run's own prompts, rendered over the sample."""
    from openresearch.agents.plan.planner import LLMDiverge
    from openresearch.agents.plan.rewrite import LLMQueries
    from openresearch.agents.write.writer import SectionOut

    fenced = f"<source>\n{SAMPLE_TEXT}\n</source>"
    return {
        Role.PLANNER: ([{"role": "system", "content": _untrusted("planner_system")},
                        {"role": "user", "content": render(
                            "planner_diverge", question=SAMPLE_QUESTION, language="English", kind="lookup",
                            entities="Zorblat 3", aspects="capacity, performance", attributes="crates, speed",
                            count=2)}], LLMDiverge),
        Role.REWRITE: ([{"role": "system", "content": _untrusted("rewrite_system")},
                        {"role": "user", "content": render(
                            "rewrite_queries", question=SAMPLE_QUESTION, sub_question=SAMPLE_QUESTION,
                            entities="Zorblat 3", aspects="capacity", language="English", count="3")}], LLMQueries),
        Role.EXTRACT: ([{"role": "system", "content": render("untrusted_data") + "\n\n" + render("extract_system")},
                        {"role": "user", "content": render(
                            "extract_user", question=SAMPLE_QUESTION, queries="Zorblat 3 crates",
                            entities="Zorblat 3", part=1, parts=1, source=fenced)}], LLMExtraction),
        Role.WRITE: ([{"role": "system", "content": render("write_system") + "\n\n" + render("untrusted_data")},
                      {"role": "user", "content": render(
                          "write_section", question=SAMPLE_QUESTION, section=SAMPLE_QUESTION, role="core",
                          style="brief", language="English",
                          evidence=f'<source id="{SAMPLE_ID}" title="Self-test" date="unknown">\n'
                                   "It holds up to 40 crates.\n</source>", conflicts="(none)")}], SectionOut),
        Role.VERIFY: ([{"role": "system", "content": render("verify_system")},
                       {"role": "user", "content": render(
                           "verify_claim", claim="The Zorblat 3 holds up to 40 crates.",
                           evidence="<source>It holds up to 40 crates.</source>")}], ClaimJudgement),
    }


def check(client: LLMClient, *, roles: bool = True, clock: Callable[[], float] = time.monotonic) -> CheckReport:
    cfg = client.default
    report = CheckReport(endpoint=cfg.base_url or "(the SDK default)", model=cfg.model)
    try:
        report.models_listed = client.list_models()
    except LLMError as exc:
        report.notes.append(f"listing models failed: {exc}")
    for mode in ("json_schema", "json_object", "prompt"):
        ok, detail = client.probe_mode(mode)
        report.modes.append(ModeProbe(mode=mode, accepted=ok, detail=detail))
    if roles:
        for role, (messages, schema) in role_prompts().items():
            start = clock()
            try:
                value = client.complete_json(role, messages, schema)
                report.samples.append(RoleSample(role=role.value, ok=True, seconds=round(clock() - start, 2),
                                                 answer=json.dumps(value.model_dump(mode="json"),
                                                                   ensure_ascii=False)[:400]))
            except (LLMError, BudgetExceeded) as exc:
                report.samples.append(RoleSample(role=role.value, ok=False, seconds=round(clock() - start, 2),
                                                 error=str(exc)[:300]))
    caps = client.capabilities.get(cfg.base_url, cfg.model)
    report.token_param, report.learned_mode = caps.token_param, caps.json_mode
    report.notes.extend(caps.notes)
    report.usage = client.usage_report()
    return report


def render_report(r: CheckReport) -> list[str]:
    lines = [f"endpoint: {r.endpoint}", f"model: {r.model}"]
    if r.models_listed:
        lines.append("models listed: " + ", ".join(r.models_listed[:5]))
    for m in r.modes:
        lines.append(f"{m.mode}: {'accepted' if m.accepted else 'not usable'}" + (f" ({m.detail})" if m.detail else ""))
    lines.append(f"output-token parameter: {r.token_param}")
    lines.append(f"structured output used by runs: {r.learned_mode or 'json_schema (not learned yet)'}")
    lines.extend(f"learned: {n}" for n in r.notes)
    for s in r.samples:
        body = s.answer if s.ok else f"FAILED: {s.error}"
        lines.append(f"{s.role} ({s.seconds:g} s): {body}")
    if r.judge:
        lines.append(f"claim judge in runs: {r.judge}")
    total = r.usage.get("total", {})
    if total:
        lines.append(f"calls {total.get('calls', 0)}, prompt tokens {total.get('prompt_tokens', 0)}, "
                     f"completion tokens {total.get('completion_tokens', 0)}")
    return lines
