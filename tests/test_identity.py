"""Stable ids and alias resolution (pure)."""

from __future__ import annotations

import json
from pathlib import Path

from openresearch.identity import (
    AliasResolver,
    canonical_url,
    entity_id,
    entity_key,
    evidence_id,
    observation_id,
    question_id,
    source_id,
)


def test_canonical_url_folds_what_does_not_change_the_resource() -> None:
    a = canonical_url("HTTPS://Example.COM:443/a/b/?utm_source=x&b=2&a=1#frag")
    assert a == "https://example.com/a/b?a=1&b=2"
    assert canonical_url("http://example.com:8080/x") == "http://example.com:8080/x"
    assert canonical_url("local://corpus/a.md") == "local://corpus/a.md"
    assert source_id("https://example.com/a?utm_medium=m") == source_id("https://EXAMPLE.com/a/")


def test_evidence_ids_come_from_source_and_offsets_or_the_quote() -> None:
    sid = source_id("https://example.com/a")
    assert evidence_id(sid, 10, 20, "x") == evidence_id(sid, 10, 20, "other text")
    assert evidence_id(sid, 10, 20, "x") != evidence_id(sid, 10, 21, "x")
    assert evidence_id(sid, None, None, "Kafka  is fast") == evidence_id(sid, None, None, "Kafka is fast")
    assert evidence_id(sid, None, None, "a").startswith("E-") and len(evidence_id(sid, None, None, "a")) == 14


def test_entity_keys_fold_case_width_and_punctuation() -> None:
    assert entity_key("Rabbit MQ") == entity_key("rabbitmq") == entity_key("RabbitMQ")
    assert entity_key("ＫＡＦＫＡ") == entity_key("kafka")
    assert entity_id("Apache Kafka") == entity_id("apache-kafka")
    assert question_id("Which  broker?") == question_id("which broker?")


def test_aliases_builtin_and_user_file(tmp_path: Path) -> None:
    r = AliasResolver.load()
    assert r.canonical("Postgres") == "PostgreSQL"
    assert r.canonical("kafka") == "Apache Kafka"
    assert r.canonical("Unknown Thing") == "Unknown Thing"
    user = tmp_path / "aliases.json"
    user.write_text(json.dumps({"Redpanda": ["RP", "Red Panda"]}), encoding="utf-8")
    r2 = AliasResolver.load(user)
    assert r2.canonical("red-panda") == "Redpanda"
    assert r2.canonical("Postgres") == "PostgreSQL"


def test_ids_are_stable_across_versions() -> None:
    # pinned: a graph written by an earlier version must get the same ids, or re-imports would duplicate
    assert evidence_id("S-1", 3, 17, "q") == "E-965ec6f7b4f0"
    assert evidence_id("S-1", None, None, "  A  quote\n here ") == "E-f4aea319c030"
    assert evidence_id("S-é", 0, 0, "") == "E-bdfef308f71c"
    assert observation_id("E-1", "N-2", "p99_latency", 12.5, "ms", "") == "O-6f4a403700ed"
    assert observation_id("E-1", "N-2", "m", 1 / 3, "", "3 brokers | 1kb") == "O-84a9df07164f"
