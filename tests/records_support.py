"""Helpers that tests in several folders share: a free loopback port, an evidence record in one call."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

from openresearch.models import EvidenceRecord


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rec(url: str, quote: str, entity: str, metric: str, value: Any, unit: str | None = None,
        condition: str | None = None, question: str | None = None, published: str | None = None,
        entities: list[str] | None = None) -> EvidenceRecord:
    return EvidenceRecord.model_validate({
        "source": {"url": url, "title": url.rsplit("/", 1)[-1], "published_at": published},
        "quote": quote, "type": "statistic", "entities": entities or [entity],
        "observations": [{"entity": entity, "metric": metric, "value": value, "unit": unit, "condition": condition}],
        "question": question,
    })


def offline_runs(store: Any, tmp_path: Path) -> tuple[Any, Any]:
    """(run manager, services) of an API that runs research offline on `store`, its data under tmp_path."""
    from openresearch.agents.run.components import Components
    from openresearch.agents.run.manager import RunManager
    from openresearch.agents.run.services import Services
    from openresearch.config import Settings
    from openresearch.ingest.embed import SentenceTransformerEmbedder

    settings = Settings(_env_file=None, data_dir=tmp_path / "data")  # type: ignore[call-arg]
    embedder = SentenceTransformerEmbedder(cache_dir=tmp_path / "emb")
    services = Services(settings, store, embedder,
                        lambda o: Components.build(settings, embedder, offline=True, caps=o.caps, workers=o.workers))
    return RunManager(services, workers=1), services


def offline_run_server(serve: Any, store: Any, tmp_path: Path) -> Any:
    """`serve(...)` (an API or web test server) with an offline run manager, local sources under tmp_path."""
    runs, services = offline_runs(store, tmp_path)
    return serve(store, runs=runs, services=services, data_dir=tmp_path / "data", api_local_roots=[tmp_path],
                 api_monitor=False)
