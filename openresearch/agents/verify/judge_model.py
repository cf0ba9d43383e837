"""The learned offline judge's pure core: pair features and a small classifier read from shipped arrays.

Features of a (claim, evidence) pair: the cosine of their all-MiniLM-L6-v2 vectors, the lexical cues
of judge_cues.py, a few counts (names and numbers one side has and the other lacks, hedges, lengths)
and the rule judge's own label (one-hot). The raw embedding dimensions (u*v, |u-v|, or a PCA of them)
were tried and dropped: on grouped cross-validation inside the train splits they added nothing over these
features and overfitted (bench/train_judge.py's docstring has the figures). The classifier is a small
network (no hidden layer = multinomial logistic regression) whose weights are plain numpy arrays in
openresearch/data/judge_model.npz, written by `python bench/train_judge.py`; no learning library is
needed at run time. No I/O beyond reading that file, no model call.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import numpy as np
import numpy.typing as npt

from openresearch.agents.verify.claim_text import quantities
from openresearch.agents.verify.judge_cues import Cues, content_tokens, cues, negations
from openresearch.ingest.textnorm import cjk_ratio, words
from openresearch.models import Label

WEIGHTS = Path(__file__).resolve().parents[2] / "data" / "judge_model.npz"
LABELS: tuple[Label, Label, Label] = ("SUPPORTS", "REFUTES", "NOT_ENOUGH_INFO")
Array = npt.NDArray[np.float32]

# A capitalised word that does not open the sentence: a name, an acronym, a place.
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][A-Za-z0-9-]+")
_HEDGE = words("may might could suggest suggests suggested possibly likely unlikely some")
_WORD = re.compile(r"[a-z]+")

LEXICAL = ("cos", "cos2", "coverage", "back_coverage", "novel", "log_novel", "has_numbers", "numbers_ok",
           "number_clash", "negation_clash", "antonym_clash", "claim_neg", "evidence_neg", "log_claim_len",
           "log_evidence_len", "names_missing", "evidence_numbers_extra", "hedge_claim", "hedge_evidence")


def _names(text: str) -> set[str]:
    return {m.group(0).lower() for m in _NAME.finditer(text)}


def lexical(claim: str, evidence: str, cos: float, c: Cues | None = None) -> list[float]:
    """The hand-made features, in LEXICAL's order; `c` saves recomputing cues the caller already has."""
    c = c or cues(claim, evidence)
    c_tok, e_tok = content_tokens(claim), content_tokens(evidence)
    back = len(c_tok & e_tok) / len(e_tok) if e_tok else 0.0
    e_text = evidence.lower()
    names_missing = sum(1 for n in _names(claim) if n not in e_text)
    c_vals = {q.value for _, q in quantities(claim)}
    e_extra = sum(1 for _, q in quantities(evidence) if q.value not in c_vals)
    c_words, e_words = set(_WORD.findall(claim.lower())), set(_WORD.findall(e_text))
    return [cos, cos * cos, c.coverage, back, float(c.novel), math.log1p(c.novel), float(c.numbers > 0),
            float(c.numbers_matched == c.numbers), float(c.number_clash), float(c.negation_clash),
            float(c.antonym_clash), float(min(3, negations(claim))), float(min(3, negations(evidence))),
            math.log1p(len(c_tok)), math.log1p(len(e_tok)), float(min(5, names_missing)),
            float(min(5, e_extra)) / 5.0, float(bool(c_words & _HEDGE)), float(bool(e_words & _HEDGE))]


def pair_features(lex: Sequence[float], rule: Label) -> Array:
    """One row: the lexical features, then the rule judge's label one-hot."""
    return np.asarray([*lex, *(float(rule == k) for k in LABELS)], dtype=np.float32)


N_FEATURES = len(LEXICAL) + len(LABELS)


@dataclass(frozen=True)
class JudgeModel:
    """Standardise, (hidden tanh layer), softmax; `offsets` are per-class logit shifts chosen on the
    training split's out-of-fold predictions to balance the classes for macro-F1."""

    mean: Array
    scale: Array
    layers: tuple[tuple[Array, Array], ...]
    offsets: Array
    embedding_model: str  # the cosine feature was computed with this embedder
    dim: int  # and its vectors have this size

    @classmethod
    def load(cls, path: Path | str = WEIGHTS) -> JudgeModel:
        with np.load(path, allow_pickle=False) as z:
            n = int(z["n_layers"])
            layers = tuple((z[f"W{i}"].astype(np.float32), z[f"b{i}"].astype(np.float32)) for i in range(n))
            return cls(mean=z["mean"].astype(np.float32), scale=z["scale"].astype(np.float32), layers=layers,
                       offsets=z["offsets"].astype(np.float32), embedding_model=str(z["embedding_model"]),
                       dim=int(z["dim"]))

    def save(self, path: Path | str) -> None:
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "mean": self.mean, "scale": self.scale, "offsets": self.offsets,
            "embedding_model": np.array(self.embedding_model), "dim": np.array(self.dim),
            "n_layers": np.array(len(self.layers))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"W{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float32)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    def logits(self, x: Array) -> Array:
        h = (np.atleast_2d(x) - self.mean) / self.scale
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.tanh(h)
        return cast(Array, h + self.offsets)

    def proba(self, x: Array) -> Array:
        z = self.logits(x)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return cast(Array, e / e.sum(axis=1, keepdims=True))


def fits(model: JudgeModel, claim: str, vector_dim: int) -> bool:
    """The model reads English sentence vectors of its own size; anything else goes to the rule judge."""
    return vector_dim == model.dim and cjk_ratio(claim) < 0.2


def rule_holds(c: Cues) -> bool:
    """A number the claim states and the evidence contradicts in the same unit is the verifier's hard
    cue (invariant 2): the rule's REFUTES stands whatever the model says."""
    return c.number_clash


def label_of(p: Sequence[float]) -> tuple[Label, float]:
    k = int(np.argmax(p))
    return LABELS[k], round(float(p[k]), 4)
