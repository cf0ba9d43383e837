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


def test_a_comparison_cell_never_mixes_units_and_says_which_figures_are_reported(store: GraphStore) -> None:
    rate = rec("https://bench-a.example/kafka", "Kafka reached 605 MB/s on three brokers.", "Apache Kafka",
               "throughput", "605", "MB/s")
    msgs = rec("https://bench-b.example/kafka", "Kafka handled 1,000,000 messages per second.", "Apache Kafka",
               "throughput", "1,000,000", "msg/s")
    said = rec("https://blog-c.example/kafka", "According to a vendor, Kafka does 700 MB/s.", "Apache Kafka",
               "throughput", "700", "MB/s")
    said.observations[0] = said.observations[0].model_copy(update={"role": "reported"})
    store.write_evidence([rate, msgs, said])
    comp = store.compare(["Kafka"])
    assert comp.metrics == ["throughput", "throughput (msg/s)"]  # the most used unit keeps the metric's name
    for m in comp.metrics:
        (cell,) = comp.cells[m].values()
        assert len({cell.unit}) == 1 and len(cell.values) == len(cell.roles)
    by_role = {v: r for m in comp.metrics for c in comp.cells[m].values() for v, r in zip(c.values, c.roles,
                                                                                        strict=True)}
    assert by_role == {605.0: "own", 700.0: "reported", 1_000_000.0: "own"}
