"""Offline claim-judge accuracy on real fact-checking data, next to two baselines run in the same process.

Usage:
  python bench/bench_verifier.py [--limit N] [--cache-dir DIR]   # report on the held-out splits
  python bench/bench_verifier.py --calibrate   # grid-search thresholds on TRAIN splits, then report
  python bench/bench_verifier.py --llm 0.5b [--llm-pairs 60]   # also LLMJudge on the local model (llm_local)

Data (read from ../shared/data next to the repository, or OPENRESEARCH_SHARED_DATA; skipped when absent):
  climate-fever/   claim-sentence pairs, 3-way; claims hashed 70/30 into train/test by claim_id
  covid-fact/      claim + evidence sentences, 2-way; hashed 70/30 by the claim's source URL, so a claim
                   and its generated counter-claims share a split
  scifact-rationale-pairs/  2-way; train.tsv for calibration, dev.tsv for the report
On the 2-way sets a NOT_ENOUGH_INFO prediction is mapped to REFUTES ("not supported" is the nearest
class for a verifier: it does not pass the sentence); `strict acc` counts it as wrong. Embeddings: the
real all-MiniLM-L6-v2 (SentenceTransformerEmbedder), batched, cached on disk (--cache-dir).
With --llm the local model's server (openresearch.llm_local) is started and LLMJudge, the VERIFY role as a
research run asks it, judges a stratified sample of each held-out split (the model is slow on CPU), printed
beside the rule on the very same pairs; the local model file must be there (scripts/install_llm.sh).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import hashlib
import itertools
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from openresearch.agents.verify.judge import CALIBRATED
from openresearch.agents.verify.judge_cues import Cues, Thresholds, cues, decide
from openresearch.agents.verify.judge_model import JudgeModel, label_of, lexical, pair_features, rule_holds
from openresearch.ingest.embed import SentenceTransformerEmbedder

REPO = Path(__file__).resolve().parents[1]
LABELS3 = ("SUPPORTS", "REFUTES", "NOT_ENOUGH_INFO")
LABELS2 = ("SUPPORTS", "REFUTES")


@dataclass(frozen=True)
class Pair:
    claim: str
    evidence: str
    gold: str
    train: bool
    group: str = ""  # the split key (claim id, source URL, file): cross-validation folds never cut a group


@dataclass
class DataSet:
    name: str
    folder: str
    labels: tuple[str, ...]
    pairs: list[Pair]


def data_root() -> Path | None:
    env = os.environ.get("OPENRESEARCH_SHARED_DATA")
    root = Path(env) if env else REPO.parent / "shared" / "data"
    return root if root.is_dir() else None


def _in_train(key: str) -> bool:
    return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % 10 < 7


def load_climate_fever(root: Path) -> list[Pair]:
    pairs = []
    with (root / "climate-fever" / "climate-fever.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            for ev in row["evidences"]:
                pairs.append(Pair(row["claim"], ev["evidence"], ev["evidence_label"], _in_train(row["claim_id"]),
                              "cf:" + row["claim_id"]))
    return pairs


def load_covid_fact(root: Path) -> list[Pair]:
    gold = {"SUPPORTED": "SUPPORTS", "REFUTED": "REFUTES"}
    with (root / "covid-fact" / "COVIDFACT_dataset.jsonl").open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    return [Pair(r["claim"], " ".join(r["evidence"]), gold[r["label"]], _in_train(r["gold_source"]),
                 "cv:" + r["gold_source"]) for r in rows]


def load_scifact(root: Path) -> list[Pair]:
    gold = {"entailment": "SUPPORTS", "not_entailment": "REFUTES"}
    pairs = []
    for name, train in (("train.tsv", True), ("dev.tsv", False)):
        with (root / "scifact-rationale-pairs" / name).open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                pairs.append(Pair(row["sentence2"], row["sentence1"], gold[row["entailment"]], train,
                                  "sf:" + row["sentence2"]))
    return pairs


def load_all(root: Path, limit: int | None) -> list[DataSet]:
    sets = [DataSet("Climate-FEVER", "climate-fever", LABELS3, load_climate_fever(root)),
            DataSet("COVID-Fact", "covid-fact", LABELS2, load_covid_fact(root)),
            DataSet("SciFact", "scifact-rationale-pairs", LABELS2, load_scifact(root))]
    if limit:
        for ds in sets:
            rng = random.Random(0)
            train = [p for p in ds.pairs if p.train]
            test = [p for p in ds.pairs if not p.train]
            rng.shuffle(train)
            rng.shuffle(test)
            ds.pairs = train[:limit] + test[:limit]
    return sets


# --- metrics ---------------------------------------------------------------------------------------

def macro_f1(gold: Sequence[str], pred: Sequence[str], labels: Sequence[str]) -> float:
    f1s = []
    for lab in labels:
        tp = sum(1 for g, p in zip(gold, pred, strict=True) if g == lab and p == lab)
        fp = sum(1 for g, p in zip(gold, pred, strict=True) if g != lab and p == lab)
        fn = sum(1 for g, p in zip(gold, pred, strict=True) if g == lab and p != lab)
        f1s.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return sum(f1s) / len(f1s)


def accuracy(gold: Sequence[str], pred: Sequence[str]) -> float:
    return sum(1 for g, p in zip(gold, pred, strict=True) if g == p) / max(1, len(gold))


def to_two_way(pred: Sequence[str]) -> list[str]:
    return ["REFUTES" if p == "NOT_ENOUGH_INFO" else p for p in pred]


# --- features --------------------------------------------------------------------------------------

@dataclass
class Features:
    cos: np.ndarray
    cues: list[Cues]
    gold: list[str]
    labels: tuple[str, ...]
    cue_seconds: float
    texts: list[tuple[str, str]] = field(default_factory=list)  # (claim, evidence), for the learned judge


def featurise(ds: DataSet, train: bool, vec: dict[str, np.ndarray]) -> Features:
    pairs = [p for p in ds.pairs if p.train == train]
    cos = np.array([float(vec[p.claim] @ vec[p.evidence]) for p in pairs])  # unit vectors: dot = cosine
    t0 = time.perf_counter()
    found = [cues(p.claim, p.evidence) for p in pairs]
    return Features(cos, found, [p.gold for p in pairs], ds.labels, time.perf_counter() - t0,
                    [(p.claim, p.evidence) for p in pairs])


def embed_all(sets: list[DataSet], cache_dir: Path) -> tuple[dict[str, np.ndarray], float]:
    texts = list(dict.fromkeys(t for ds in sets for p in ds.pairs for t in (p.claim, p.evidence)))
    embedder = SentenceTransformerEmbedder(cache_dir=cache_dir, batch_size=64)
    out: dict[str, np.ndarray] = {}
    t0 = time.perf_counter()
    for i in range(0, len(texts), 1024):
        part = texts[i:i + 1024]
        for text, v in zip(part, embedder.embed(part), strict=True):
            out[text] = np.asarray(v, dtype=np.float32)
        print(f"  embedded {min(i + 1024, len(texts))}/{len(texts)} texts "
              f"({embedder.computed} computed, {embedder.cached} cached)", file=sys.stderr)
    return out, time.perf_counter() - t0


# --- predictors ------------------------------------------------------------------------------------

def judge_predict(f: Features, t: Thresholds) -> list[str]:
    return [decide(float(c), cue, t)[0] for c, cue in zip(f.cos, f.cues, strict=True)]


def learned_predict(f: Features, t: Thresholds) -> list[str]:
    """The shipped classifier (judge_model.npz) over the same cosines and cues, as EmbeddingJudge runs it."""
    model = JudgeModel.load()
    rows = [pair_features(lexical(claim, ev, float(c), cue), decide(float(c), cue, t)[0])
            for (claim, ev), c, cue in zip(f.texts, f.cos, f.cues, strict=True)]
    learned = [label_of(p)[0] for p in model.proba(np.stack(rows)).tolist()]
    return [decide(float(c), cue, t)[0] if rule_holds(cue) else lab
            for lab, c, cue in zip(learned, f.cos, f.cues, strict=True)]


def cos_predict(f: Features, threshold: float) -> list[str]:
    """The pure-similarity baseline: similar enough = SUPPORTS; below = NEI (3-way) or REFUTES (2-way)."""
    below = "NOT_ENOUGH_INFO" if len(f.labels) == 3 else "REFUTES"
    return ["SUPPORTS" if c >= threshold else below for c in f.cos]


def score(f: Features, pred: list[str]) -> float:
    pred = pred if len(f.labels) == 3 else to_two_way(pred)
    return macro_f1(f.gold, pred, f.labels)


def best_cos_threshold(f: Features) -> float:
    grid = np.arange(0.0, 1.0, 0.02)
    return float(max(grid, key=lambda t: score(f, cos_predict(f, float(t)))))


def _vector_predict(f: Features, t: Thresholds, arrays: dict[str, np.ndarray]) -> np.ndarray:
    """decide() over arrays, for the grid search; the report re-checks the winner with decide() itself."""
    s = t.weight_cos * f.cos + (1 - t.weight_cos) * arrays["coverage"]
    contra = arrays["clash"] | ((arrays["novel"] > 0) & (arrays["coverage"] >= t.substitution))
    out = np.full(len(s), 2)  # NEI
    sup = (s >= t.support) & arrays["nums_ok"]
    out[sup] = 0
    out[contra & (s >= t.refute_related)] = 1
    out[s < t.related] = 2
    return out


def calibrate(train: list[Features]) -> list[tuple[float, Thresholds]]:
    prepared = []
    for f in train:
        arrays = {"coverage": np.array([c.coverage for c in f.cues]), "novel": np.array([c.novel for c in f.cues]),
                  "clash": np.array([c.number_clash or c.antonym_clash or c.negation_clash for c in f.cues]),
                  "nums_ok": np.array([c.numbers_matched == c.numbers for c in f.cues])}
        gold = np.array([LABELS3.index(g) for g in f.gold])
        prepared.append((f, arrays, gold, len(f.labels)))
    results = []
    steps = np.round(np.arange(0.2, 0.85, 0.05), 2)
    for w, rel, sup, ref, sub in itertools.product((0.4, 0.5, 0.6, 0.7, 0.8, 1.0), steps, steps,
                                                   (0.3, 0.4, 0.5, 0.6, 0.7), (0.6, 0.7, 0.8, 0.9, 1.01)):
        if sup < rel:
            continue
        t = Thresholds(related=float(rel), support=float(sup), weight_cos=w, refute_related=ref, substitution=sub)
        f1s = []
        for f, arrays, gold, n in prepared:
            pred = _vector_predict(f, t, arrays)
            if n == 2:
                pred = np.where(pred == 2, 1, pred)
            f1s.append(np.mean([_f1(gold, pred, k) for k in range(n)]))
        results.append((float(np.mean(f1s)), t))
    return sorted(results, key=lambda r: -r[0])


def _f1(gold: np.ndarray, pred: np.ndarray, k: int) -> float:
    g, p = gold == k, pred == k
    tp, fp, fn = int(np.sum(g & p)), int(np.sum(~g & p)), int(np.sum(g & ~p))
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


# --- report ----------------------------------------------------------------------------------------

def _row(name: str, n: int, method: str, f: Features, pred: list[str], strict: bool) -> str:
    two = len(f.labels) == 2
    mapped = to_two_way(pred) if two else pred
    strict_acc = f"{accuracy(f.gold, pred):.3f}" if two and strict else "   - "
    return (f"| {name:<13} | {n:>5} | {method:<34} | {accuracy(f.gold, mapped):.3f} | "
            f"{macro_f1(f.gold, mapped, f.labels):>8.3f} | {strict_acc:>10} |")


def report(sets: list[DataSet], train: list[Features], test: list[Features], t: Thresholds) -> None:
    print("| data set      |     n | method                             |  acc  | macro-F1 | strict acc |")
    print("|---------------|-------|------------------------------------|-------|----------|------------|")
    for ds, tr, te in zip(sets, train, test, strict=True):
        majority = Counter(tr.gold).most_common(1)[0][0]
        ct = best_cos_threshold(tr)
        t0 = time.perf_counter()
        pred = judge_predict(te, t)
        rate = len(te.gold) / max(1e-9, time.perf_counter() - t0 + te.cue_seconds)
        rows = [(f"majority class ({majority})", [majority] * len(te.gold), False),
                (f"embedding cosine >= {ct:.2f}", cos_predict(te, ct), False),
                ("EmbeddingJudge (rule, default)", pred, True),
                ("LearnedJudge (judge_model.npz)", learned_predict(te, CALIBRATED), True)]
        for method, p, strict in rows:
            print(_row(ds.name, len(te.gold), method, te, p, strict))
        speed = f"(cues+decide {rate:,.0f} pairs/s)"
        print(f"| {'':<13} | {'':>5} | {speed:<34} |       |          |            |")


def sample(f: Features, n: int, seed: int = 0) -> list[int]:
    """n indices of a held-out split, as many per gold label as the label's share (at least one each)."""
    rng = random.Random(seed)
    by: dict[str, list[int]] = {}
    for i, g in enumerate(f.gold):
        by.setdefault(g, []).append(i)
    out: list[int] = []
    for _, idx in sorted(by.items()):
        rng.shuffle(idx)
        out += idx[:max(1, round(n * len(idx) / len(f.gold)))]
    return sorted(out)


def llm_report(sets: list[DataSet], test: list[Features], model: str, n: int, timeout: float,
               echo: Callable[[str], None]) -> None:
    """LLMJudge (VERIFY role) on the local model over a stratified sample of each held-out split, beside the
    rule on the same pairs. A failed or unparseable answer falls back to the rule, and is counted."""
    from openresearch.agents.llm.client import LLMClient
    from openresearch.agents.verify.judge import LLMJudge
    from openresearch.agents.verify.judge_choice import VERDICTS_FILE, Verdict, record_verdict
    from openresearch.config import Settings
    from openresearch.llm_local import MODELS, model_path, start
    from openresearch.models import ClaimJudgement

    spec = MODELS[model]
    if not model_path(spec).is_file():
        echo(f"\n--llm {model}: skipped, {model_path(spec)} is missing (bash scripts/install_llm.sh)")
        return

    class Rule:  # the offline judge's own label for a pair, as the fallback LLMJudge hands it to
        def __init__(self, labels: dict[tuple[str, str], str]) -> None:
            self.labels = labels

        def judge(self, claim: str, evidence: str) -> ClaimJudgement:
            return ClaimJudgement(label=self.labels[(claim, evidence)], score=0.5)  # type: ignore[arg-type]

    server = start(spec, ctx=4096, parallel=1)
    scores: dict[str, dict[str, float]] = {"llm": {}, "offline": {}}
    pairs = 0
    try:
        settings = Settings(llm_base_url=server.base_url, llm_model=server.model, llm_timeout_s=timeout,
                            llm_temperature=0.0, llm_max_concurrency=1)
        echo(f"\nLLMJudge on the local {model} model ({server.model}), {n} held-out pairs per data set, "
             "beside the rule on the same pairs:")
        echo("| data set      |     n | method                             |  acc  | macro-F1 | strict acc |")
        echo("|---------------|-------|------------------------------------|-------|----------|------------|")
        for ds, te in zip(sets, test, strict=True):
            idx = sample(te, n)
            rule = judge_predict(te, CALIBRATED)
            sub = Features(te.cos[idx], [te.cues[i] for i in idx], [te.gold[i] for i in idx], te.labels, 0.0,
                           [te.texts[i] for i in idx])
            client = LLMClient.from_settings(settings)
            assert client is not None
            judge = LLMJudge(client, Rule({te.texts[i]: rule[i] for i in idx}), workers=1)
            t0 = time.perf_counter()
            got = [r.label for r in judge.judge_many(sub.texts)]
            wall = time.perf_counter() - t0
            usage = client.usage_report().get("total", {})
            for method, p in ((f"rule on the same {len(idx)} pairs", [rule[i] for i in idx]),
                              (f"LLMJudge {model} ({judge.fallbacks} fell back)", got)):
                echo(_row(ds.name, len(idx), method, sub, p, True))
            two = len(te.labels) == 2
            scores["offline"][ds.name] = round(macro_f1(sub.gold, to_two_way([rule[i] for i in idx]) if two
                                                        else [rule[i] for i in idx], te.labels), 4)
            scores["llm"][ds.name] = round(macro_f1(sub.gold, to_two_way(got) if two else got, te.labels), 4)
            pairs += len(idx)
            echo(f"|               |       | {wall / max(1, len(idx)):.1f} s/pair, "
                 f"{usage.get('prompt_tokens', '?')} prompt + {usage.get('completion_tokens', '?')} completion tokens")
        verdict = Verdict(model=server.model, llm=scores["llm"], offline=scores["offline"], pairs=pairs,
                          measured=datetime.date.today().isoformat())
        path = Settings().cache_dir / VERDICTS_FILE
        record_verdict(path, verdict)
        echo(f"recorded in {path}: {server.model} {'beats' if verdict.better else 'does not beat'} the offline "
             f"judge, so with llm_judge=auto runs {'ask it' if verdict.better else 'keep the offline judge'}")
    finally:
        server.stop()


def cite(root: Path, sets: list[DataSet]) -> None:
    print("\nData (cite as given in each SOURCE.md):")
    for ds in sets:
        lines = (root / ds.folder / "SOURCE.md").read_text(encoding="utf-8").splitlines()
        keep = [ln.strip("# ").strip() for ln in lines if ln.startswith("# ") or ln.startswith("- Source repository")
                or ln.startswith("- Commit")]
        print("  " + "; ".join(keep))


def main(argv: Sequence[str] | None = None, echo: Callable[[str], None] = print) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="at most N train and N test pairs per data set")
    ap.add_argument("--calibrate", action="store_true", help="grid-search thresholds on the train splits")
    ap.add_argument("--cache-dir", type=Path, default=Path.home() / ".cache" / "openresearch" / "bench_verifier")
    ap.add_argument("--llm", choices=("0.5b", "1.5b"), default=None,
                    help="also judge a sample of each held-out split with LLMJudge on this local model")
    ap.add_argument("--llm-pairs", type=int, default=30, help="held-out pairs per data set for --llm (stratified)")
    ap.add_argument("--llm-timeout", type=float, default=300.0)
    args = ap.parse_args(argv)
    root = data_root()
    if root is None:
        echo("skipped: shared data not found (../shared/data or OPENRESEARCH_SHARED_DATA)")
        return 0
    echo(f"data: {root}")
    sets = load_all(root, args.limit)
    vec, seconds = embed_all(sets, args.cache_dir)
    echo(f"embeddings: {len(vec)} texts in {seconds:.1f} s (all-MiniLM-L6-v2, cache {args.cache_dir})")
    train = [featurise(ds, True, vec) for ds in sets]
    test = [featurise(ds, False, vec) for ds in sets]
    if args.calibrate:
        ranked = calibrate(train)
        for f1, t in ranked[:5]:
            echo(f"train mean macro-F1 {f1:.4f}  {t}")
        best = ranked[0][1]
        echo(f"chosen: {best}")
        got = [score(f, judge_predict(f, best)) for f in train]
        echo("check with decide(): train macro-F1 " + ", ".join(f"{x:.4f}" for x in got))
        echo("\nHeld-out figures with the chosen thresholds:")
        report(sets, train, test, best)
    else:
        echo(f"thresholds: {CALIBRATED}")
        report(sets, train, test, replace(CALIBRATED))
    if args.llm:
        llm_report(sets, test, args.llm, args.llm_pairs, args.llm_timeout, echo)
    cite(root, sets)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
