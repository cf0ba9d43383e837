"""Which claim judge a run uses when an LLM is configured: the VERIFY role's model only where it was measured
to beat the offline judge.

A small local model judges worse than the offline rule (bench/bench_verifier.py --llm: Qwen2.5-Coder-0.5B
0.259 vs 0.368 macro-F1 on 60 Climate-FEVER pairs, 0.250 vs 0.578 on 60 SciFact pairs), and a judge that
passes a refuted sentence costs more than any other role's mistake. So with `llm_judge = "auto"` (the default)
the LLM judges only a model whose measurement, recorded by `bench/bench_verifier.py --llm` in the cache dir,
beat the offline judge on every data set; "llm" always asks it (falling back to the offline judge per pair),
"offline" never does. The verdict belongs to the model, not to the endpoint: a local server gets a new port
each time it starts.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import BaseModel, ValidationError

from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import Role

VERDICTS_FILE = "llm_judge_verdicts.json"


class Verdict(BaseModel):
    """One model's claim-judge measurement: macro-F1 per data set, for the LLM and the offline judge on the
    same pairs."""

    model: str
    llm: dict[str, float]
    offline: dict[str, float]
    pairs: int
    measured: str  # ISO date

    @property
    def better(self) -> bool:
        return bool(self.llm) and set(self.llm) == set(self.offline) and \
            all(self.llm[k] > self.offline[k] for k in self.llm)

    def summary(self) -> str:
        sets = ", ".join(f"{k} {self.llm[k]:.3f} vs {self.offline.get(k, 0.0):.3f}" for k in sorted(self.llm))
        return f"measured {self.measured} on {self.pairs} pairs: {sets} macro-F1 (LLM vs offline)"


def load_verdicts(path: Path) -> dict[str, Verdict]:
    """The recorded verdicts by model name; a missing or unreadable file is no verdict (never an error)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    out: dict[str, Verdict] = {}
    for name, row in raw.items() if isinstance(raw, dict) else ():
        try:
            out[str(name)] = Verdict.model_validate(row)
        except ValidationError:
            continue
    return out


def record_verdict(path: Path, verdict: Verdict) -> None:
    """Add or replace one model's verdict (written to a temp file, then renamed)."""
    rows = {k: v.model_dump() for k, v in load_verdicts(path).items()}
    rows[verdict.model] = verdict.model_dump()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(rows, indent=1, sort_keys=True), encoding="utf-8")
    tmp.replace(path)


def use_llm_judge(setting: str, model: str, verdicts: dict[str, Verdict]) -> tuple[bool, str]:
    """(whether the VERIFY role's model judges claims, one line saying why)."""
    if setting == "offline":
        return False, "offline judge (llm_judge=offline)"
    if setting == "llm":
        return True, f"LLM judge {model} (llm_judge=llm)"
    verdict = verdicts.get(model)
    if verdict is None:
        return False, (f"offline judge (llm_judge=auto: no judge measurement for {model}; "
                       "bench/bench_verifier.py --llm records one, llm_judge=llm forces the LLM)")
    if verdict.better:
        return True, f"LLM judge {model} (llm_judge=auto, {verdict.summary()})"
    return False, f"offline judge (llm_judge=auto: {model} judged worse, {verdict.summary()})"


def choose(settings: object, client: LLMClient) -> tuple[bool, str]:
    """use_llm_judge for a configured client: its VERIFY role's model, the settings' `llm_judge`, the verdicts
    in the cache dir; a VERIFY role left out of `llm_roles` never judges."""
    if client.roles_enabled is not None and Role.VERIFY not in client.roles_enabled:
        return False, "offline judge (the verify role is not in llm_roles)"
    cache_dir = getattr(settings, "cache_dir", None)
    verdicts = load_verdicts(Path(cache_dir) / VERDICTS_FILE) if cache_dir is not None else {}
    return use_llm_judge(str(getattr(settings, "llm_judge", "auto")), client.config(Role.VERIFY).model, verdicts)
