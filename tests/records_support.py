"""Helpers that tests in several folders share: a free loopback port, an evidence record in one call."""

from __future__ import annotations

import socket
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
