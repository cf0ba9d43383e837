"""Claim judges: does this evidence SUPPORT, REFUTE, or not address this claim?

`EmbeddingJudge` is the offline default (invariant 7): sentence-embedding cosine plus the lexical cues
of judge_cues.py, with thresholds calibrated on training splits of the shared fact-checking data sets.
With `learned=True` it runs the small classifier of judge_model.py instead (shipped weights over the same
cosine, the cues and the rule's own label, trained by bench/train_judge.py) where the embedder is the one
it was trained with and the claim is English. It stays opt-in: on the held-out splits it scored below the
rule (Climate-FEVER 0.466 vs 0.474, COVID-Fact 0.511 vs 0.519, SciFact 0.562 vs 0.596 macro-F1), so
the rule remains the default until a model beats it there. `LLMJudge` asks the VERIFY role and falls back
to another judge when the model is unavailable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Protocol

from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import Role
from openresearch.agents.llm.prompt import render
from openresearch.agents.verify.judge_cues import Thresholds, cues, decide
from openresearch.agents.verify.judge_model import (
    WEIGHTS,
    JudgeModel,
    fits,
    label_of,
    lexical,
    pair_features,
    rule_holds,
)
from openresearch.errors import BudgetExceeded, LLMError
from openresearch.ingest.embed import Embedder
from openresearch.models import ClaimJudgement

# Chosen by `python bench/bench_verifier.py --calibrate`: a grid search maximising the mean macro-F1
# over the TRAIN splits only (Climate-FEVER claims hashed into train, COVID-Fact sources hashed into
# train, SciFact train.tsv), with the all-MiniLM-L6-v2 embedder; figures are reported on the held-out
# splits. Re-run the calibration when the embedder or the cues change.
# Result (train mean macro-F1 0.513): NEI only below a support score of 0.45; above it, any contradiction
# cue (number, negation, antonym, or a substituted word at >= 80% token coverage) means REFUTES.
CALIBRATED = Thresholds(related=0.45, support=0.45, weight_cos=0.7, refute_related=0.3, substitution=0.8)


class Judge(Protocol):
    def judge(self, claim: str, evidence: str) -> ClaimJudgement: ...


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


@cache
def shipped_model() -> JudgeModel | None:
    """The weights in openresearch/data/judge_model.npz, read once per process; None when not installed."""
    return JudgeModel.load() if WEIGHTS.is_file() else None


class EmbeddingJudge:
    """Deterministic and offline. Embeddings go through the embedder (and its cache) in batches.

    `learned`: False = the calibrated rule (default), True = the shipped classifier where it fits (else
    the rule), or a JudgeModel of one's own."""

    def __init__(self, embedder: Embedder, thresholds: Thresholds = CALIBRATED, *,
                 learned: bool | JudgeModel = False) -> None:
        self.embedder = embedder
        self.thresholds = thresholds
        self.model: JudgeModel | None = None
        if isinstance(learned, JudgeModel):
            self.model = learned
        elif learned and (shipped := shipped_model()) is not None and \
                str(getattr(embedder, "model_key", "")).split("@")[0] == shipped.embedding_model:
            self.model = shipped

    def judge(self, claim: str, evidence: str) -> ClaimJudgement:
        return self.judge_many([(claim, evidence)])[0]

    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[ClaimJudgement]:
        """One embedding batch for all pairs: the model call dominates, not the cues."""
        texts = list(dict.fromkeys(t for pair in pairs for t in pair))
        vectors = dict(zip(texts, self.embedder.embed(texts), strict=True))
        out: list[ClaimJudgement] = []
        for claim, evidence in pairs:
            if not claim.strip() or not evidence.strip():
                out.append(ClaimJudgement(label="NOT_ENOUGH_INFO", score=1.0))
                continue
            out.append(self._one(claim, evidence, vectors[claim], vectors[evidence]))
        return out

    def _one(self, claim: str, evidence: str, a: Sequence[float], b: Sequence[float]) -> ClaimJudgement:
        c = cues(claim, evidence)
        cos = cosine(a, b)
        label, score = decide(cos, c, self.thresholds)
        if self.model is not None and fits(self.model, claim, len(a)) and not rule_holds(c):
            row = pair_features(lexical(claim, evidence, cos, c), label)
            label, score = label_of(self.model.proba(row)[0].tolist())
        return ClaimJudgement(label=label, score=score)


class RuleJudge(EmbeddingJudge):
    """The calibrated rule (cosine + cues + thresholds) by name, whatever EmbeddingJudge's default."""

    def __init__(self, embedder: Embedder, thresholds: Thresholds = CALIBRATED) -> None:
        super().__init__(embedder, thresholds, learned=False)


class LearnedJudge(EmbeddingJudge):
    """The shipped classifier (judge_model.npz) where it fits, the rule elsewhere."""

    def __init__(self, embedder: Embedder, thresholds: Thresholds = CALIBRATED) -> None:
        super().__init__(embedder, thresholds, learned=True)


def _fence(text: str) -> str:
    # a closing tag inside the data must not end the data block early (invariant 6)
    return "<source>\n" + text.replace("</source>", "< /source>") + "\n</source>"


class LLMJudge:
    """Asks the VERIFY role; any LLMError or BudgetExceeded hands the pair to `fallback`."""

    def __init__(self, client: LLMClient, fallback: Judge, *, workers: int = 4) -> None:
        self.client = client
        self.fallback = fallback
        self.workers = workers
        self.fallbacks = 0  # observable: how often the deterministic judge answered instead

    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[ClaimJudgement]:
        """Independent judgements in parallel: each is one LLM round trip, the budget is shared and thread-safe."""
        with ThreadPoolExecutor(max_workers=max(1, self.workers)) as pool:
            return list(pool.map(lambda p: self.judge(p[0], p[1]), pairs))

    def judge(self, claim: str, evidence: str) -> ClaimJudgement:
        messages = [
            {"role": "system", "content": render("verify_system") + "\n\n" + render("untrusted_data")},
            {"role": "user", "content": render("verify_claim", claim=claim.strip(), evidence=_fence(evidence))},
        ]
        try:
            answer = self.client.complete_json(Role.VERIFY, messages, ClaimJudgement)
        except (LLMError, BudgetExceeded):
            self.fallbacks += 1
            return self.fallback.judge(claim, evidence)
        return ClaimJudgement(label=answer.label, score=min(1.0, max(0.0, answer.score)))
