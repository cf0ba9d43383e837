"""GraphStore on both real backends: idempotent writes, aliases, conflicts, comparison, provenance, ranking."""

from __future__ import annotations

from typing import Any

import pytest

from openresearch.errors import NotFound
from openresearch.graph.store import GraphStore
from openresearch.models import EvidenceRecord

pytestmark = pytest.mark.integration


def rec(url: str, quote: str, entity: str, metric: str, value: Any, unit: str | None = None,
        condition: str | None = None, question: str | None = None, published: str | None = None,
        entities: list[str] | None = None) -> EvidenceRecord:
    return EvidenceRecord.model_validate({
        "source": {"url": url, "title": url.rsplit("/", 1)[-1], "published_at": published},
        "quote": quote, "type": "statistic", "entities": entities or [entity],
        "observations": [{"entity": entity, "metric": metric, "value": value, "unit": unit, "condition": condition}],
        "question": question,
    })


BATCH = [
    rec("https://bench-a.example/kafka", "Kafka reached 605 MB/s with three brokers.", "Kafka", "throughput",
        605, "MB/s", "3 brokers, 1 KB messages", "Which broker is fastest?", "2024-03-01"),
    rec("https://bench-b.example/kafka?utm_source=x", "Apache Kafka peaked at 1.2 GB/s.", "Apache Kafka",
        "Throughput", "1.2", "GB/s", "1KB messages; 3 Brokers", "Which broker is fastest?", "2021-01-01"),
    rec("https://bench-c.example/kafka", "Kafka did 1,200 MB/s.", "kafka", "throughput", "1,200", "MB/s",
        "3 brokers, 1 KB messages"),
    rec("https://bench-d.example/kafka", "On 100 KB messages Kafka moved 2 GB/s.", "Kafka", "throughput", 2,
        "GB/s", "3 brokers, 100 KB messages"),
    rec("https://bench-a.example/rabbit", "RabbitMQ p99 latency was 2 ms.", "Rabbit MQ", "p99 latency", 2, "ms",
        None, "Which broker has the lowest latency?"),
    rec("https://bench-e.example/rabbit", "RabbitMQ showed p99 of 0.5 s under load.", "RabbitMQ", "p99_latency",
        "0.5", "s"),
    rec("https://bench-e.example/rabbit", "RabbitMQ quorum queues p99 reached 3 ms.", "RabbitMQ", "p99_latency",
        3, "ms"),
    rec("https://bench-f.example/pg", "Postgres handled 10.9k transactions per second.", "Postgres", "tps",
        "10.9k", None, None),
    rec("https://bench-g.example/pg", "PostgreSQL handled 10,940 transactions per second.", "PostgreSQL", "tps",
        "10,940", None, None),
    rec("https://bench-h.example/pulsar", "Pulsar 每秒处理 1.2万 条消息。", "Pulsar", "throughput", "1.2万", "msg/s",
        None, None, None, ["Pulsar", "Apache BookKeeper"]),
    rec("https://bench-i.example/pulsar", "Pulsar handled 30,000 msg/s.", "Apache Pulsar", "throughput", 30000,
        "msg/s"),
]


def counts(store: GraphStore) -> dict[str, dict[str, int]]:
    return store.stats()


def test_batch_write_is_idempotent(store: GraphStore) -> None:
    store.write_evidence(BATCH)
    first = counts(store)
    assert first["nodes"]["Evidence"] == len(BATCH)
    assert first["nodes"]["Source"] == 10 # bench-e holds two quotes; the utm parameter is not part of the id
    store.write_evidence(BATCH)
    store.write_evidence(BATCH[:3])
    assert counts(store) == first


def test_aliases_resolve_to_one_entity(store: GraphStore) -> None:
    store.write_evidence(BATCH)
    names = {r["name"] for r in store.backend.read("MATCH (e:Entity) RETURN e.name AS name")}
    assert names == {"Apache Kafka", "RabbitMQ", "PostgreSQL", "Apache Pulsar", "Apache BookKeeper"}
    kafka = store.backend.read("MATCH (e:Entity {name: 'Apache Kafka'}) RETURN e.aliases AS a")[0]["a"]
    assert set(kafka) == {"Kafka", "Apache Kafka", "kafka"}
    assert store.resolve_entities(["KAFKA", "Postgres", "Nope"]) == {
        "KAFKA": store.resolve_entities(["Apache Kafka"])["Apache Kafka"],
        "Postgres": store.resolve_entities(["PostgreSQL"])["PostgreSQL"],
        "Nope": None,
    }


def test_conflicts_only_for_same_metric_compatible_conditions_and_different_sources(store: GraphStore) -> None:
    store.write_evidence(BATCH)
    found = store.conflicts()
    pairs = {(c.entity, c.metric, tuple(sorted((c.a.value, c.b.value)))) for c in found}
    assert pairs == {
        ("Apache Kafka", "throughput", (605.0, 1200.0)),  # same conditions after normalisation; 1.2 GB/s = 1200
        ("RabbitMQ", "p99_latency", (2.0, 500.0)),  # no condition on either side: compatible; 0.5 s = 500 ms
        ("RabbitMQ", "p99_latency", (2.0, 3.0)),  # 2 ms vs 3 ms: different sources, beyond 5%
        ("Apache Pulsar", "throughput", (12000.0, 30000.0)),  # 1.2万 = 12,000
    }
    # 1.2 GB/s vs 1,200 MB/s agree; 100 KB messages is another condition; 10.9k vs 10,940 is within 5%;
    # 3 ms and 0.5 s come from the same source (bench-e), which is not a conflict either.
    assert len(found) == 5  # Kafka 605 conflicts with both 1.2 GB/s and 1,200 MB/s
    for c in found:
        assert c.a.source_id != c.b.source_id
        assert c.a.evidence_id != c.b.evidence_id
        assert c.a.quote and c.b.quote
    kafka = store.conflicts(entity="kafka")
    assert [(c.a.value, c.b.value) in {(605.0, 1200.0), (1200.0, 605.0)} for c in kafka] == [True, True]
    assert store.conflicts(entity="RabbitMQ", metric="throughput") == []
    assert len(store.conflicts(entity="RabbitMQ", metric="P99 Latency")) == 2
    assert store.conflicts(entity="Postgres") == []
    assert len(store.conflicts(entity="Postgres", tolerance=0.001)) == 1


def test_compare_builds_metric_by_entity_table(store: GraphStore) -> None:
    store.write_evidence(BATCH)
    comp = store.compare(["Kafka", "RabbitMQ", "Pulsar", "NATS"])
    assert comp.entities == ["Apache Kafka", "RabbitMQ", "Apache Pulsar"]
    assert comp.missing == ["NATS"]
    assert comp.metrics == ["p99_latency", "throughput"]
    kafka = comp.cells["throughput"]["Apache Kafka"]
    assert sorted(kafka.values) == [605.0, 1200.0, 1200.0, 2000.0]
    assert kafka.unit == "MB/s" and len(kafka.evidence_ids) == 4
    assert "Apache Kafka" not in comp.cells["p99_latency"]
    only = store.compare(["Kafka", "Pulsar"], metric="throughput")
    assert only.metrics == ["throughput"]


def test_provenance_and_not_found(store: GraphStore) -> None:
    store.write_evidence(BATCH)
    ev = store.evidence_for_question("Which broker is fastest?")[0]
    prov = store.provenance(ev.id)
    assert prov.evidence.quote == ev.quote
    assert prov.evidence.source.url.startswith("https://bench-")
    assert prov.evidence.questions == ["Which broker is fastest?"]
    assert prov.extracted_at is not None
    with pytest.raises(NotFound):
        store.provenance("E-000000000000")


def test_evidence_for_question_ranks_linked_recent_evidence_first(store: GraphStore) -> None:
    store.write_evidence(BATCH)
    found = store.evidence_for_question("Which broker is fastest?", limit=5)
    linked = [e for e in found if "Which broker is fastest?" in e.questions]
    assert len(linked) == 2
    # both linked items outrank unlinked ones; of the two, the 2024 source beats the 2021 one
    assert found[0].source.published_at is not None and found[0].source.published_at.year == 2024
    assert {found[0].id, found[1].id} == {e.id for e in linked}
    assert found == sorted(found, key=lambda e: -e.score)
    by_words = store.evidence_for_question("RabbitMQ latency", limit=5)
    assert by_words and all("RabbitMQ" in e.quote for e in by_words)


def test_export_round_trip_is_identical(store: GraphStore) -> None:
    store.write_evidence(BATCH)
    before = counts(store)
    exported = list(store.export_evidence())
    assert len(exported) == len(BATCH)
    store.backend.clear()
    store.init_schema()
    store.write_evidence(exported)
    assert counts(store) == before
    assert [e.id for e in store.export_evidence()] == [e.id for e in exported]
