"""A real small model behind llama.cpp's own OpenAI-compatible server (xllamacpp), for tests/llm_real.

Skipped, with the reason printed in the session header, when xllamacpp or the model file is missing
(`bash scripts/install_llm.sh` fetches both) or OPENRESEARCH_SKIP_LLM_REAL=1. One server per session
(1-2 threads by the machine's load, one slot, loopback only), stopped at the end of the session.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder, SentenceTransformerEmbedder
from openresearch.llm_local import MODELS, RunningServer, model_path, start

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "agents"))
SPEC = MODELS["0.5b"]


def unavailable() -> str | None:
    if os.environ.get("OPENRESEARCH_SKIP_LLM_REAL") == "1":
        return "OPENRESEARCH_SKIP_LLM_REAL=1"
    if importlib.util.find_spec("xllamacpp") is None:
        return "xllamacpp is not installed (bash scripts/install_llm.sh)"
    if not model_path(SPEC).is_file():
        return f"model file missing: {model_path(SPEC)} (bash scripts/install_llm.sh)"
    return None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "llm_real: runs a real small model on a local llama.cpp server")


def pytest_report_header(config: pytest.Config) -> str:
    why = unavailable()
    return f"llm_real: {'skipped: ' + why if why else 'the ' + SPEC.name + ' model on a local llama.cpp server'}"


@pytest.fixture(scope="session")
def local_llm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    why = unavailable()
    if why:
        pytest.skip(why)
    server = start(SPEC, ctx=4096, parallel=1, log=tmp_path_factory.mktemp("llm") / "server.log")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def falkor_store(request: pytest.FixtureRequest) -> Iterator[GraphStore]:
    from openresearch.graph.falkor import FalkorBackend

    backend = FalkorBackend(f"t_{uuid.uuid4().hex[:10]}", unix_socket=request.getfixturevalue("falkor_socket"))
    st = GraphStore(backend)
    st.init_schema()
    try:
        yield st
    finally:
        backend.drop()  # the whole key: clear() keeps an emptied key's indexes (about 2 MB)
        backend.close()


@pytest.fixture(scope="session")
def embedder(tmp_path_factory: pytest.TempPathFactory) -> Embedder:
    return SentenceTransformerEmbedder(cache_dir=tmp_path_factory.mktemp("emb"))
