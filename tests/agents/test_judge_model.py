"""The learned offline judge: shipped weights load, outputs are deterministic, real sentences get sane labels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from openresearch.agents.verify.judge import EmbeddingJudge, LearnedJudge, RuleJudge, shipped_model
from openresearch.agents.verify.judge_cues import cues
from openresearch.agents.verify.judge_model import (
    LABELS,
    LEXICAL,
    N_FEATURES,
    WEIGHTS,
    JudgeModel,
    fits,
    label_of,
    lexical,
    pair_features,
)
from openresearch.ingest.embed import DEFAULT_MODEL, HashEmbedder, SentenceTransformerEmbedder

QUOTE = "In the benchmark, Kafka sustained 605 MB/s on three brokers."


def test_shipped_weights_load_and_are_small() -> None:
    model = JudgeModel.load()
    assert WEIGHTS.stat().st_size < 300_000
    assert model.embedding_model == DEFAULT_MODEL and model.dim == 384
    assert model.mean.shape == model.scale.shape == (N_FEATURES,)
    assert model.layers[0][0].shape[0] == N_FEATURES and model.layers[-1][0].shape[1] == len(LABELS)
    assert model.offsets.shape == (3,)
    assert np.all(model.scale > 0)


def shipped() -> JudgeModel:
    model = shipped_model()
    assert model is not None
    return model


def test_save_load_round_trip(tmp_path: Path) -> None:
    model = shipped()
    model.save(tmp_path / "m.npz")
    again = JudgeModel.load(tmp_path / "m.npz")
    row = pair_features(lexical("Kafka is fast.", QUOTE, 0.5), "NOT_ENOUGH_INFO")
    assert np.allclose(model.proba(row), again.proba(row), atol=1e-3)


def test_features_and_probabilities() -> None:
    row = pair_features(lexical("Kafka sustained 420 MB/s on three brokers.", QUOTE, 0.9), "REFUTES")
    assert row.shape == (N_FEATURES,) and row.dtype == np.float32
    named = dict(zip(LEXICAL, row.tolist(), strict=False))
    assert named["number_clash"] == 1.0 and named["numbers_ok"] == 0.0 and row[-2] == 1.0
    p = shipped().proba(np.stack([row, row]))
    assert p.shape == (2, 3) and np.allclose(p.sum(axis=1), 1.0) and np.array_equal(p[0], p[1])
    label, score = label_of(p[0].tolist())
    assert label in LABELS and 0.0 <= score <= 1.0
    # cues passed in or recomputed give the same features
    c = cues("Kafka is fast.", QUOTE)
    assert lexical("Kafka is fast.", QUOTE, 0.3, c) == lexical("Kafka is fast.", QUOTE, 0.3)


def test_the_model_fits_english_vectors_of_its_size_only() -> None:
    model = shipped()
    assert fits(model, "Kafka sustained 605 MB/s.", 384)
    assert not fits(model, "Kafka sustained 605 MB/s.", 256)
    assert not fits(model, "RocketMQ 的吞吐量达到每秒十万条", 384)


def test_rule_judge_stays_selectable_and_hash_vectors_use_it(tmp_path: Path) -> None:
    hashed = HashEmbedder(cache_dir=tmp_path)
    assert LearnedJudge(hashed).model is None  # not the vectors the model was trained on
    assert RuleJudge(hashed).model is None and EmbeddingJudge(hashed).model is None
    assert EmbeddingJudge(hashed, learned=shipped()).model is shipped()


@pytest.fixture(scope="module")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(cache_dir=tmp_path_factory.mktemp("emb"))


def test_learned_judge_is_selectable_and_deterministic(embedder: SentenceTransformerEmbedder) -> None:
    judge = LearnedJudge(embedder)
    assert judge.model is shipped()
    pairs = [("Kafka sustained 605 MB/s on three brokers.", QUOTE),
             ("Arctic sea ice extent has declined since 1979.",
              "Satellite records show Arctic sea ice extent has declined in every month since 1979.")]
    first = judge.judge_many(pairs)
    assert first == judge.judge_many(pairs) == LearnedJudge(embedder).judge_many(pairs)
    assert [judge.judge(c, e) for c, e in pairs] == first
    assert RuleJudge(embedder).model is None and EmbeddingJudge(embedder).model is None  # the rule by default


@pytest.mark.parametrize(("claim", "evidence", "label"), [
    ("Kafka sustained 605 MB/s on three brokers.", QUOTE, "SUPPORTS"),
    ("Kafka sustained 420 MB/s on three brokers.", QUOTE, "REFUTES"),
    ("The vaccine does not reduce hospital admissions.",
     "The vaccine reduced hospital admissions by 70% in adults over 65.", "REFUTES"),
    ("Polar bear populations are declining.", "The Eiffel Tower was completed in 1889 for the World's Fair.",
     "NOT_ENOUGH_INFO"),
])
def test_learned_judge_on_real_sentences(embedder: SentenceTransformerEmbedder, claim: str, evidence: str,
                                         label: str) -> None:
    assert LearnedJudge(embedder).judge(claim, evidence).label == label
