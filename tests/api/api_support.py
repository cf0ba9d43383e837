"""Helpers of the API tests (a module with its own name: `from conftest import` would find whichever
conftest.py another folder loaded first). A real uvicorn on loopback serving the API over a real graph,
called with httpx.

`api_server(settings_overrides)` starts one on a free port in a thread and returns its base URL; the graph
behind it is the parametrised real backend of tests/conftest.py (or FalkorDB only, for most tests).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
import uvicorn
from records_support import free_port, rec

from openresearch.api.app import create_app
from openresearch.config import Settings
from openresearch.graph.backend import GraphBackend
from openresearch.graph.store import GraphStore


@dataclass
class Services:
    store: GraphStore


@dataclass
class Server:
    url: str
    store: GraphStore
    settings: Settings
    app: Any = None  # the FastAPI app, for a test that reaches its state (the answer cache's clock)

    def client(self, key: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30)


@contextmanager
def serve(store: GraphStore, runs: Any = None, services: Any = None, **overrides: Any) -> Iterator[Server]:
    """uvicorn in a thread on 127.0.0.1:<free port>; stopped (should_exit) on leaving."""
    settings = Settings(_env_file=None, **overrides)  # type: ignore[call-arg]
    app = create_app(settings, services or Services(store), runs=runs)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield Server(f"http://127.0.0.1:{port}", store, settings, app)
    finally:
        server.should_exit = True
        thread.join(10)


SEED = [
    rec("https://bench-a.example/kafka", "Kafka reached 605 MB/s with three brokers.", "Kafka", "throughput",
        605, "MB/s", "3 brokers", "Which broker is fastest?", "2024-03-01"),
    rec("https://bench-b.example/kafka", "Apache Kafka peaked at 1.2 GB/s with three brokers.", "Apache Kafka",
        "throughput", "1.2", "GB/s", "3 brokers", "Which broker is fastest?", "2021-01-01"),
    rec("https://bench-c.example/rabbit", "RabbitMQ moved 50 MB/s with three brokers.", "RabbitMQ", "throughput",
        50, "MB/s", "3 brokers"),
    rec("https://bench-d.example/rabbit", "RabbitMQ p99 latency was 2 ms.", "RabbitMQ", "p99 latency", 2, "ms"),
    rec("https://bench-e.example/rabbit", "RabbitMQ showed a p99 latency of 40 ms under load.", "RabbitMQ",
        "p99 latency", 40, "ms"),
    rec("https://bench-f.example/weird", "The `a' OR 1=1 //` product did 7 ops.", "a' OR 1=1 //", "ops", 7),
]


def seeded(backend: GraphBackend) -> Iterator[GraphStore]:
    store = GraphStore(backend)
    store.init_schema()
    store.write_evidence(SEED)
    try:
        yield store
    finally:
        backend.drop()  # FalkorDB: the whole key (clear() keeps an emptied key's indexes, about 2 MB)
        backend.close()
