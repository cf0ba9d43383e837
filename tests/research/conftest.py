"""Fixtures for end-to-end research runs: a small copy of the example corpus and one real embedder."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from openresearch.agents.run.components import Components
from openresearch.agents.run.services import Services
from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder, SentenceTransformerEmbedder

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "agents"))  # the scripted OpenAI-compatible server lives there
SUBSET = ["bench-confluent-2020.html", "bench-streamnative-2022.md", "bench-omb-reproduction.md",
          "rabbitmq-quorum-queues.md", "zh-kafka-rabbitmq-selection.md", "kafka-overview.md"]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    d.mkdir()
    for name in SUBSET:
        shutil.copy(REPO / "examples" / "corpus" / name, d / name)
    return d


@pytest.fixture(scope="session")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> Embedder:
    """The real bundled MiniLM, with a session cache so each chunk is embedded once per session."""
    return SentenceTransformerEmbedder(cache_dir=tmp_path_factory.mktemp("emb"))


@pytest.fixture
def offline_services(store: GraphStore, embedder: Embedder, tmp_path: Path) -> Services:
    """The shared services of a run over the test's graph, every role deterministic (offline)."""
    settings = Settings(data_dir=tmp_path / "data")
    return Services(settings, store, embedder,
                    lambda o: Components.build(settings, embedder, offline=True, caps=o.caps, workers=o.workers))
