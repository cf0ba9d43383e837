"""One real embedder for the monitoring tests (the bundled MiniLM, cached per session)."""

from __future__ import annotations

import pytest

from openresearch.ingest.embed import Embedder, SentenceTransformerEmbedder


@pytest.fixture(scope="session")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> Embedder:
    return SentenceTransformerEmbedder(cache_dir=tmp_path_factory.mktemp("emb"))
