"""A figure a source only reports from someone else (or disputes) is stored with its role and is no side of a
conflict; the role survives export."""

from __future__ import annotations

from records_support import rec

from openresearch.graph.store import GraphStore


def test_reported_figure_is_stored_with_its_role_and_is_no_side_of_a_conflict(store: GraphStore) -> None:
    own = rec("https://bench-a.example/kafka", "Kafka reached 605 MB/s on three brokers.", "Apache Kafka",
              "throughput", "605", "MB/s")
    reported = rec("https://blog-b.example/post", "I also saw the 2022 claim that Kafka only reaches about 420 MB/s.",
                   "Apache Kafka", "throughput", "420", "MB/s")
    reported.observations[0] = reported.observations[0].model_copy(update={"role": "disputed"})
    store.write_evidence([own, reported])
    assert store.conflict_groups(entity="Kafka") == []  # one own figure against one only reported: no conflict
    roles = {str(o.value): o.role for r in store.export_evidence() for o in r.observations}
    assert roles == {"605.0": "own", "420.0": "disputed"}
    # the same figure given as the second source's own finding is a conflict
    second = rec("https://bench-c.example/kafka", "Our run measured Kafka at 420 MB/s.", "Apache Kafka",
                 "throughput", "420", "MB/s")
    store.write_evidence([second])
    (group,) = store.conflict_groups(entity="Kafka")
    assert sorted(v.value for v in group.values) == [420.0, 605.0]
    assert all("blog-b" not in u for v in group.values for u in v.source_urls)
