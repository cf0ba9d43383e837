"""Train the learned offline claim judge (openresearch/data/judge_model.npz) and report it on held-out splits.

Usage:
  python bench/train_judge.py [--out openresearch/data/judge_model.npz] [--cache-dir DIR] [--limit N]
  python bench/train_judge.py --report-only      # score the shipped weights, train nothing

Same data, splits and embeddings as bench/bench_verifier.py (../shared/data or OPENRESEARCH_SHARED_DATA;
skipped when absent). Only the TRAIN splits are used to fit: hyperparameters (hidden size, L2) are
chosen by grouped 5-fold cross-validation inside the train splits (folds never cut a claim, a source or
a SciFact claim), the per-class logit offsets are chosen on the out-of-fold predictions, and the final
model is refitted on all train pairs. The held-out splits are read once, for the printed table, where
the majority class and today's rule judge (EmbeddingJudge thresholds) are scored beside the model.

What was tried (train-split grouped CV, mean macro-F1 over the three sets; rule judge ~0.513 in-sample):
  u*v, |u-v| (768 dims) + lexical, tanh MLP 32/64 or logistic regression   0.475-0.485
  lexical + rule label, logistic regression                                  0.514-0.516
  the same + 8 or 32 PCA dimensions of u*v, |u-v|                           0.515-0.516
  lexical + rule label, tanh MLP 16 (shipped)                                0.526
Held out, the shipped model still scored below the rule (CF 0.466 vs 0.474, COVID-Fact 0.511 vs 0.519,
SciFact 0.562 vs 0.596; with the number-clash rule, as LearnedJudge runs it, 0.460 / 0.514 / 0.570 in
bench_verifier.py), so EmbeddingJudge keeps the rule by default and LearnedJudge is opt-in. Frozen
all-MiniLM-L6-v2 vectors carry little entailment signal beyond cosine.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from bench_verifier import LABELS3, DataSet, Pair, data_root, embed_all, load_all, macro_f1, to_two_way

from openresearch.agents.verify.judge import CALIBRATED, cosine
from openresearch.agents.verify.judge_cues import cues, decide
from openresearch.agents.verify.judge_model import WEIGHTS, JudgeModel, lexical, pair_features, rule_holds
from openresearch.ingest.embed import DEFAULT_MODEL

F = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]


@dataclass
class Matrix:
    name: str
    x: F
    y: Ints  # index into LABELS3
    groups: list[str]
    n_labels: int
    rule: list[str]  # today's judge on the same pairs
    holds: list[bool]  # a number clash: the rule's label stands (judge_model.rule_holds)


def build(ds: DataSet, pairs: list[Pair], vec: dict[str, np.ndarray]) -> Matrix:
    rows, rule, holds = [], [], []
    for p in pairs:
        cos = cosine(vec[p.claim].tolist(), vec[p.evidence].tolist())  # as the judge computes it
        c = cues(p.claim, p.evidence)
        label = decide(cos, c, CALIBRATED)[0]
        rows.append(pair_features(lexical(p.claim, p.evidence, cos, c), label))
        rule.append(label)
        holds.append(rule_holds(c))
    x = np.stack(rows).astype(np.float32) if rows else np.zeros((0, 1), np.float32)
    y = np.array([LABELS3.index(p.gold) for p in pairs], dtype=np.int64)
    return Matrix(ds.name, x, y, [p.group for p in pairs], len(ds.labels), rule, holds)


# --- the classifier (numpy, minibatch Adam on weighted cross-entropy) ------------------------------

def sample_weights(mats: Sequence[Matrix]) -> F:
    """Classes balanced within each data set; each data set keeps its share of pairs."""
    out = []
    for m in mats:
        counts = Counter(m.y.tolist())
        k = len(counts)
        out.append(np.array([len(m.y) / (k * counts[int(c)]) for c in m.y], dtype=np.float32))
    return np.concatenate(out)


def fit(x: F, y: Ints, w: F, hidden: int, l2: float, dim: int, epochs: int = 40, seed: int = 0) -> JudgeModel:
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-6
    xs = (x - mean) / scale
    dims = [x.shape[1], *([hidden] if hidden else []), 3]
    params: list[F] = []
    for a, b in itertools.pairwise(dims):
        params.append((rng.standard_normal((a, b)) / np.sqrt(a)).astype(np.float32))
        params.append(np.zeros(b, dtype=np.float32))
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    onehot = np.eye(3, dtype=np.float32)[y]
    step, lr, batch = 0, 3e-3, 128
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for s in range(0, len(y), batch):
            idx = order[s:s + batch]
            grads = _grads(params, xs[idx], onehot[idx], w[idx], l2, len(y))
            step += 1
            for i, g in enumerate(grads):
                m1[i] = 0.9 * m1[i] + 0.1 * g
                m2[i] = 0.999 * m2[i] + 0.001 * g * g
                params[i] -= lr * (m1[i] / (1 - 0.9 ** step)) / (np.sqrt(m2[i] / (1 - 0.999 ** step)) + 1e-8)
    layers = tuple((params[i], params[i + 1]) for i in range(0, len(params), 2))
    return JudgeModel(mean=mean.astype(np.float32), scale=scale.astype(np.float32), layers=layers,
                      offsets=np.zeros(3, np.float32), embedding_model=DEFAULT_MODEL, dim=dim)


def _grads(params: list[F], x: F, t: F, w: F, l2: float, n: int) -> list[F]:
    acts = [x]
    h = x
    n_layers = len(params) // 2
    for i in range(n_layers):
        h = h @ params[2 * i] + params[2 * i + 1]
        if i < n_layers - 1:
            h = np.tanh(h)
        acts.append(h)
    z = h - h.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    delta = (p - t) * w[:, None] / w.sum()
    grads: list[F] = [np.zeros(0, np.float32)] * len(params)
    for i in reversed(range(n_layers)):
        grads[2 * i] = acts[i].T @ delta + l2 * params[2 * i] * (len(x) / n)
        grads[2 * i + 1] = delta.sum(axis=0)
        if i:
            delta = (delta @ params[2 * i].T) * (1 - acts[i] ** 2)
    return grads


# --- choosing on the train split ---------------------------------------------------------------------

def fold_of(group: str, k: int = 5) -> int:
    return int(hashlib.sha256(group.encode()).hexdigest()[:8], 16) % k


def predict(logits: F, n_labels: int, offsets: F) -> list[str]:
    pred = [LABELS3[i] for i in np.argmax(logits + offsets, axis=1)]
    return to_two_way(pred) if n_labels == 2 else pred


def mean_f1(mats: Sequence[Matrix], logits: Sequence[F], offsets: F) -> tuple[float, list[float]]:
    f1s = [macro_f1([LABELS3[i] for i in m.y], predict(z, m.n_labels, offsets), LABELS3[:m.n_labels])
           for m, z in zip(mats, logits, strict=True)]
    return float(np.mean(f1s)), f1s


def best_offsets(mats: Sequence[Matrix], logits: Sequence[F]) -> F:
    grid = np.round(np.arange(-2.0, 2.01, 0.1), 2)
    scored = [(mean_f1(mats, logits, np.array([0.0, r, n], np.float32))[0], -abs(r) - abs(n), r, n)
              for r in grid for n in grid]
    _, _, r, n = max(scored)
    return np.array([0.0, r, n], dtype=np.float32)


def out_of_fold(mats: Sequence[Matrix], hidden: int, l2: float, dim: int, k: int = 5) -> list[F]:
    x = np.concatenate([m.x for m in mats])
    y = np.concatenate([m.y for m in mats])
    w = sample_weights(mats)
    folds = np.array([fold_of(g, k) for m in mats for g in m.groups])
    oof = np.zeros((len(y), 3), np.float32)
    for f in range(k):
        model = fit(x[folds != f], y[folds != f], w[folds != f], hidden, l2, dim)
        oof[folds == f] = model.logits(x[folds == f]) - model.offsets
    out, start = [], 0
    for m in mats:
        out.append(oof[start:start + len(m.y)])
        start += len(m.y)
    return out


def train(mats: Sequence[Matrix], dim: int, echo: bool = True) -> JudgeModel:
    best: tuple[float, int, float, F] | None = None
    for hidden, l2 in ((0, 1e-3), (0, 1e-2), (16, 1e-3), (16, 1e-2)):
        t0 = time.perf_counter()
        oof = out_of_fold(mats, hidden, l2, dim)
        offsets = best_offsets(mats, oof)
        f1, per = mean_f1(mats, oof, offsets)
        if echo:
            print(f"  cv hidden={hidden:<3} l2={l2:<5} offsets={offsets.tolist()} train-CV macro-F1 "
                  f"{f1:.4f} ({', '.join(f'{x:.3f}' for x in per)}) [{time.perf_counter() - t0:.0f} s]",
                  file=sys.stderr)
        if best is None or f1 > best[0]:
            best = (f1, hidden, l2, offsets)
    assert best is not None
    _, hidden, l2, offsets = best
    x = np.concatenate([m.x for m in mats])
    y = np.concatenate([m.y for m in mats])
    model = fit(x, y, sample_weights(mats), hidden, l2, dim)
    print(f"chosen: hidden={hidden} l2={l2} offsets={offsets.tolist()} (train-CV mean macro-F1 {best[0]:.4f})")
    return JudgeModel(model.mean, model.scale, model.layers, offsets, model.embedding_model, model.dim)


# --- report ----------------------------------------------------------------------------------------

def report(test: Sequence[Matrix], train_mats: Sequence[Matrix], model: JudgeModel) -> None:
    print("| data set      |     n | method                             |  acc  | macro-F1 |")
    print("|---------------|-------|------------------------------------|-------|----------|")
    for m, tr in zip(test, train_mats, strict=True):
        gold = [LABELS3[i] for i in m.y]
        labels = LABELS3[:m.n_labels]
        majority = Counter(LABELS3[i] for i in tr.y).most_common(1)[0][0]
        rule = to_two_way(m.rule) if m.n_labels == 2 else m.rule
        model_only = predict(model.logits(m.x) - model.offsets, m.n_labels, model.offsets)
        learned = [r if h else p for r, h, p in zip(rule, m.holds, model_only, strict=True)]
        for method, pred in ((f"majority class ({majority})", [majority] * len(gold)),
                             ("EmbeddingJudge (rule, default)", rule),
                             ("model alone (judge_model.npz)", model_only),
                             ("LearnedJudge (model + number rule)", learned)):
            acc = sum(g == p for g, p in zip(gold, pred, strict=True)) / max(1, len(gold))
            f1 = macro_f1(gold, pred, labels)
            print(f"| {m.name:<13} | {len(gold):>5} | {method:<34} | {acc:.3f} | {f1:>8.3f} |")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=WEIGHTS)
    ap.add_argument("--cache-dir", type=Path, default=Path.home() / ".cache" / "openresearch" / "bench_verifier")
    ap.add_argument("--limit", type=int, default=None, help="at most N train and N test pairs per data set")
    ap.add_argument("--report-only", action="store_true", help="score the shipped weights, train nothing")
    args = ap.parse_args(argv)
    root = data_root()
    if root is None:
        print("skipped: shared data not found (../shared/data or OPENRESEARCH_SHARED_DATA)")
        return 0
    sets = load_all(root, args.limit)
    vec, seconds = embed_all(sets, args.cache_dir)
    print(f"data: {root}; embeddings: {len(vec)} texts in {seconds:.1f} s (all-MiniLM-L6-v2)")
    train_mats = [build(ds, [p for p in ds.pairs if p.train], vec) for ds in sets]
    test_mats = [build(ds, [p for p in ds.pairs if not p.train], vec) for ds in sets]
    if args.report_only:
        model = JudgeModel.load(args.out)
    else:
        model = train(train_mats, dim=len(next(iter(vec.values()))))
        model.save(args.out)
        print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
        # what ships is float16: score the reloaded file, not the in-memory float32 model
        model = JudgeModel.load(args.out)
    print("\nHeld-out splits (never used to fit or choose):")
    report(test_mats, train_mats, model)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
