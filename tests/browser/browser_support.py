"""Helpers of the Chromium tests: the API on a real uvicorn over a real graph, and the graph's seed."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from records_support import free_port

from openresearch.graph.store import GraphStore
from openresearch.models import EvidenceRecord

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Services:
    store: GraphStore


@dataclass
class Server:
    url: str
    store: GraphStore


@contextmanager
def serve(store: GraphStore, routers: tuple[Any, ...] = (), runs: Any = None, services: Any = None,
          **overrides: Any) -> Iterator[Server]:
    """create_app (with its run manager when given) on uvicorn at 127.0.0.1:<free port>."""
    import uvicorn

    from openresearch.api.app import create_app
    from openresearch.config import Settings

    settings = Settings(_env_file=None, **overrides)  # type: ignore[call-arg]
    app = create_app(settings, services or Services(store), runs=runs)
    for r in routers:
        app.include_router(r)
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
        yield Server(f"http://127.0.0.1:{port}", store)
    finally:
        server.should_exit = True
        thread.join(10)


def rec(url: str, title: str, quote: str, entity: str, metric: str, value: Any, unit: str,
        condition: str = "3 brokers") -> EvidenceRecord:
    return EvidenceRecord.model_validate({
        "source": {"url": url, "title": title, "published_at": "2024-03-01"},
        "quote": quote, "type": "statistic", "entities": [entity],
        "observations": [{"entity": entity, "metric": metric, "value": value, "unit": unit, "condition": condition}],
        "question": "Which broker has the highest throughput?",
    })


SEED = [
    rec("https://bench-a.example/kafka", "Kafka benchmark A", "Kafka reached 605 MB/s with three brokers.",
        "Kafka", "throughput", 605, "MB/s"),
    rec("https://bench-b.example/kafka", "Kafka benchmark B", "Kafka peaked at 1.2 GB/s with three brokers.",
        "Kafka", "throughput", "1.2", "GB/s"),
    rec("https://bench-c.example/rabbitmq", "RabbitMQ notes", "RabbitMQ moved 50 MB/s with three brokers.",
        "RabbitMQ", "throughput", 50, "MB/s"),
]


def seed(store: GraphStore) -> GraphStore:
    store.init_schema()
    store.write_evidence(SEED)
    return store
