"""Fixtures for the network half of ingest: a real local fault-injecting server and client factories."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from netserver import PUBLIC_ANSWER, UA, ClientFactory, FaultServer

from openresearch.ingest.cache import Cache
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.safety import StaticResolver, UrlGuard


@pytest.fixture
def server() -> Iterator[FaultServer]:
    srv = FaultServer().start()
    yield srv
    srv.stop()


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[Cache]:
    store = Cache(tmp_path / "cache" / "http.sqlite")
    yield store
    store.close()


@pytest.fixture
def make_client(server: FaultServer) -> ClientFactory:
    """Build a client for the test server: 127.0.0.1/localhost trusted, fast retries, small limits."""

    def build(**overrides: Any) -> PoliteClient:
        resolver = StaticResolver({"localhost": ["127.0.0.1"], "public.test": [PUBLIC_ANSWER]})
        trusted = overrides.pop("trusted_hosts", ["127.0.0.1", "localhost"])
        kwargs: dict[str, Any] = dict(
            user_agent=UA,
            guard=UrlGuard(trusted, resolver),
            max_retries=3,
            backoff_base_s=0.01,
            connect_timeout_s=1.0,
            read_timeout_s=1.0,
            max_body_bytes=200_000,
            connect_to={"public.test:80": f"127.0.0.1:{server.port}"},
        )
        kwargs.update(overrides)
        return PoliteClient(**kwargs)

    return build


@pytest.fixture(autouse=True)
def _info_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="openresearch")
