"""Fixtures of the API tests; the helpers they use live in api_support.py."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from api_support import SEED, Server, rec, seeded, serve  # noqa: F401 - re-exported for the fixtures below

from openresearch.graph.backend import GraphBackend
from openresearch.graph.store import GraphStore


@pytest.fixture
def falkor_store(falkor_socket: str) -> Iterator[GraphStore]:
    """The seed on the session's real FalkorDB, in a graph of its own."""
    from openresearch.graph.falkor import FalkorBackend

    yield from seeded(FalkorBackend(f"api_{uuid.uuid4().hex[:10]}", unix_socket=falkor_socket))


@pytest.fixture
def any_store(backend: GraphBackend) -> Iterator[GraphStore]:
    """The seed on each real backend (FalkorDB and Neo4j)."""
    store = GraphStore(backend)
    store.init_schema()
    store.write_evidence(SEED)
    yield store


@pytest.fixture
def api(falkor_store: GraphStore) -> Iterator[Server]:
    with serve(falkor_store) as server:
        yield server

