"""Batch writes on both real backends: the CREATE path for new evidence, the MERGE path for stored evidence,
the constraint-violation fallback, repeated ids within a batch, streaming with small first batches."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from openresearch.graph.store import GraphStore
from openresearch.identity import observation_id
from openresearch.models import EvidenceRecord

pytestmark = pytest.mark.integration


def rec(i: int, entities: list[str], *, url: str | None = None, question: str | None = None,
        quote: str | None = None) -> EvidenceRecord:
    return EvidenceRecord.model_validate({
        "source": {"url": url or f"https://batch-{i % 7}.example/doc", "title": f"doc {i}"},
        "quote": quote or f"Broker {entities[0]} moved {100 + i} MB/s in run {i}.", "type": "statistic",
        "entities": entities, "question": question,
        "observations": [{"entity": entities[0], "metric": "throughput", "value": 100 + i, "unit": "MB/s"}],
    })


def records(n: int, start: int = 0) -> list[EvidenceRecord]:
    names = ["Kafka", "RabbitMQ", "Pulsar", "NATS", "Redpanda"]
    return [rec(i, [names[i % 5], names[(i + 1) % 5]], question=f"question {i % 3}") for i in range(start, start + n)]


def test_new_stored_and_mixed_batches_write_each_thing_once(store: GraphStore) -> None:
    store.write_evidence(records(30))  # all new: the CREATE branch
    once = store.stats()
    assert once["nodes"]["Evidence"] == 30
    assert once["relations"] == {"FROM": 30, "MENTIONS": 60, "REPORTS": 30, "OF": 30, "ANSWERS": 30}
    store.write_evidence(records(30))  # all stored: the MERGE branch
    assert store.stats() == once
    store.write_evidence(records(20, start=20))  # 10 stored and 10 new in one batch
    mixed = store.stats()
    assert mixed["nodes"]["Evidence"] == 40
    assert mixed["relations"] == {"FROM": 40, "MENTIONS": 80, "REPORTS": 40, "OF": 40, "ANSWERS": 40}
    assert store.provenance(store.prepare(records(1, start=35))[0].id).evidence.quote.startswith("Broker")


def test_a_repeated_evidence_id_in_one_batch_is_written_once_with_everything_it_carries(store: GraphStore) -> None:
    first = rec(1, ["Kafka"], url="https://same.example/a", quote="Kafka and Pulsar were both tested.")
    again = rec(1, ["Pulsar"], url="https://same.example/a", quote="Kafka and Pulsar were both tested.")
    store.write_evidence([first, again])
    stats = store.stats()
    assert stats["nodes"]["Evidence"] == 1
    # one evidence node mentioning both entities; both observations (different entities) reported
    assert stats["relations"]["MENTIONS"] == 2
    assert stats["relations"]["REPORTS"] == 2
    store.write_evidence([again, first])
    assert store.stats() == stats
    only_measured = rec(2, ["Kafka"], url="https://same.example/b", quote="NATS moved 9 MB/s.")
    only_measured.observations[0].entity = "NATS"
    store.write_evidence([only_measured])
    assert store.stats()["relations"]["MENTIONS"] == 4  # an observation's entity is mentioned too


def test_a_lost_create_race_is_resent_as_merge_and_duplicates_nothing(store: GraphStore) -> None:
    batch = records(5)
    prepared = store.prepare(batch)
    # another writer stored one of this batch's observations after the statement looked for the evidence:
    # the CREATE branch then breaks the Observation id constraint and the whole statement is sent again with
    # MERGE for every row
    row = prepared[2].row
    ob = row["o"][0]
    assert ob["id"] == observation_id(row["id"], ob["e"], ob["m"], ob["v"], ob["u"], ob["ck"])
    store.backend.write("CREATE (:Observation {id: $id, entity_id: $e, metric: $m, value: $v, unit: $u})", ob)
    assert store.write_batch(prepared) == 5
    stats = store.stats()
    assert stats["nodes"]["Observation"] == 5
    assert stats["nodes"]["Evidence"] == 5
    assert stats["relations"]["REPORTS"] == 5
    assert stats["relations"]["OF"] == 5


def test_streamed_records_start_with_small_batches_and_all_arrive(store: GraphStore) -> None:
    store.batch_size = 16
    limits = store.batch_limits()
    assert [next(limits) for _ in range(6)] == [2, 4, 8, 16, 16, 16]

    def stream() -> Iterator[EvidenceRecord]:
        yield from records(101)

    assert store.write_evidence(stream()) == 101
    assert store.stats()["nodes"]["Evidence"] == 101
    assert store.write_rows(store.prepare(records(101))) == 101
    assert store.stats()["nodes"]["Evidence"] == 101
