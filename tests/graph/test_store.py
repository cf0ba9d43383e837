"""GraphStore on both real backends: idempotent writes, aliases, conflict groups, comparison, provenance, ranking."""

from __future__ import annotations

import pytest
from records_support import rec

from openresearch.errors import InputError, NotFound
from openresearch.graph.judgements import NoValue, ValueCorrect
from openresearch.graph.store import GraphStore
from openresearch.models import EvidenceRecord

pytestmark = pytest.mark.integration


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


def test_conflicts_are_groups_of_same_key_compatible_conditions_and_different_sources(store: GraphStore) -> None:
    store.write_evidence(BATCH)
    found = store.conflict_groups()
    groups = {(g.entity, g.metric): [v.value for v in g.values] for g in found}
    assert groups == {
        # 1.2 GB/s and 1,200 MB/s are one value with two sources, so it comes first; 100 KB messages is
        # another condition (no conflict of its own: one value)
        ("Apache Kafka", "throughput"): [1200.0, 605.0],
        # no condition on either side: compatible; 0.5 s = 500 ms; 3 ms and 0.5 s come from one source,
        # which alone would not be a conflict, but 2 ms is another source's
        ("RabbitMQ", "p99_latency"): [2.0, 3.0, 500.0],
        ("Apache Pulsar", "throughput"): [12000.0, 30000.0],  # 1.2万 = 12,000
    }  # 10.9k vs 10,940 is within 5%: no Postgres group
    kafka = next(g for g in found if g.entity == "Apache Kafka")
    assert kafka.unit == "MB/s" and kafka.condition in {"3 brokers, 1 KB messages", "1KB messages; 3 Brokers"}
    top, other = kafka.values
    assert (top.sources, top.domains, other.sources) == (2, 2, 1)
    assert sorted(top.raw_values) == ["1,200 MB/s", "1.2 GB/s"] and len(top.evidence_ids) == len(top.quotes) == 2
    assert top.newest is not None and top.newest.isoformat() == "2021-01-01"
    assert other.evidence_ids and other.source_urls == ["https://bench-a.example/kafka"]
    assert kafka.relative_difference == round((1200 - 605) / 1200, 4)
    assert "1.2 GB/s is given by two independent sources" in kafka.credibility
    assert kafka.id == store.conflict_groups(entity="kafka")[0].id  # stable, and the same from either query
    assert [g.entity for g in store.conflict_groups(entity="kafka")] == ["Apache Kafka"]
    assert store.conflict_groups(entity="RabbitMQ", metric="throughput") == []
    assert len(store.conflict_groups(entity="RabbitMQ", metric="P99 Latency")) == 1
    assert store.conflict_groups(entity="Postgres") == []
    (pg,) = store.conflict_groups(entity="Postgres", tolerance=0.001)
    assert sorted(v.value for v in pg.values) == [10900.0, 10940.0]
    assert {g.entity for g in store.conflict_groups(entities=["Kafka", "Pulsar", "Nope"])} == {
        "Apache Kafka", "Apache Pulsar"}
    assert store.conflict_groups(entities=["Nope"]) == []


def population(url: str, quote: str, entity: str, value: str, condition: str | None = None,
               published: str | None = None, title: str | None = None, metric: str = "population",
               unit: str | None = None) -> EvidenceRecord:
    r = rec(url, quote, entity, metric, value, unit, condition, published=published)
    if title is not None:
        r.source.title = title
    return r


def test_three_sources_against_one_is_one_group_with_two_values(store: GraphStore) -> None:
    store.write_evidence([
        population("https://en.wikipedia.example/wiki/Osgood", "The population was 1,624 at the 2010 census.",
                   "Osgood, Indiana", "1,624", "2010 census", "2020-06-01", title="Osgood, Indiana"),
        population("https://census.example/in/osgood", "Osgood town: 1,624 residents (2010 census).",
                   "Osgood, Indiana", "1,624", "2010 census", "2012-01-01"),
        population("https://towns.example/osgood", "Osgood had 1,624 people in the 2010 census.",
                   "Osgood, Indiana", "1624", "2010 census", "2015-03-01"),
        population("https://blog.example/osgood", "Osgood is home to some 2,500 people (2010 census).",
                   "Osgood, Indiana", "2,500", "2010 census", "2011-01-01"),
    ])
    (g,) = store.conflict_groups()
    assert (g.entity, g.metric, g.condition) == ("Osgood, Indiana", "population", "2010 census")
    right, wrong = g.values
    assert (right.value, right.sources, right.domains, len(right.evidence_ids)) == (1624.0, 3, 3, 3)
    assert (wrong.value, wrong.sources, wrong.domains) == (2500.0, 1, 1)
    assert right.primary and not wrong.primary  # the page titled with the entity's name is its own
    assert right.newest is not None and right.newest.year == 2020
    assert g.credibility.startswith("1,624 is given by three independent sources, including the newest (2020)")
    assert g.credibility.endswith("2,500 by one source")


def test_values_within_tolerance_are_one_value(store: GraphStore) -> None:
    store.write_evidence([
        population("https://a.example/x", "Blue Lake has 4,280 residents.", "Blue Lake Township", "4,280"),
        population("https://b.example/y", "About 4.3 thousand people live in Blue Lake.", "Blue Lake Township",
                   "4300"),
        population("https://c.example/z", "Blue Lake: 4,200 inhabitants.", "Blue Lake Township", "4,200"),
    ])
    assert store.conflict_groups() == []


def test_different_conditions_or_metrics_are_not_conflicts(store: GraphStore) -> None:
    store.write_evidence([
        population("https://a.example/x", "Osgood had 1,624 people in 2010.", "Osgood, Indiana", "1,624",
                   "2010 census"),
        population("https://b.example/y", "Osgood had 1,100 people in 1990.", "Osgood, Indiana", "1,100",
                   "1990 census"),
        population("https://a.example/p", "Average message size was 2 KB.", "Apache Pulsar", "2",
                   metric="average message size", unit="KB"),
        population("https://b.example/p", "The maximum message size is 5 MB.", "Apache Pulsar", "5",
                   metric="maximum message size", unit="MB"),
    ])
    assert store.conflict_groups() == []


def test_a_value_without_its_set_up_does_not_conflict_with_one_under_a_stated_set_up(store: GraphStore) -> None:
    store.write_evidence([
        population("https://a.example/x", "The population was 428 at the 2010 census.", "Blue Lake Township",
                   "428", "2010 census"),
        population("https://b.example/y", "Blue Lake Township has 42,800 residents.", "Blue Lake Township",
                   "42,800"),
    ])
    assert store.conflict_groups(entity="Blue Lake Township") == []
    store.write_evidence([population("https://c.example/z", "At the 2010 Census it had 42,800 people.",
                                     "Blue Lake Township", "42,800", "2010 Census")])
    (g,) = store.conflict_groups(entity="Blue Lake Township")
    assert g.condition in {"2010 census", "2010 Census"} and [v.raw_values for v in g.values] == [["428"], ["42,800"]]


def test_same_name_entities_the_sources_distinguish_are_not_one_conflict(store: GraphStore) -> None:
    store.write_evidence([
        population("https://a.example/in", "Osgood, Indiana has 1,624 residents.", "Osgood, Indiana", "1,624"),
        population("https://b.example/mo", "Osgood, Missouri has 48 residents.", "Osgood, Missouri", "48"),
        population("https://c.example/ne", "The Douglas County Courthouse was built in 1912.",
                   "Douglas County Courthouse (Nebraska)", "1912", metric="year built", unit="year"),
        population("https://d.example/ks", "The Douglas County Courthouse was built in 1904.",
                   "Douglas County Courthouse (Kansas)", "1904", metric="year built", unit="year"),
    ])
    assert store.conflict_groups() == []


def test_years_conflict_on_any_difference(store: GraphStore) -> None:
    store.write_evidence([
        population("https://a.example/ne", "The courthouse was built in 1912.", "Douglas County Courthouse",
                   "1912", metric="year built", unit="year"),
        population("https://b.example/ne", "The courthouse dates from 1895.", "Douglas County Courthouse",
                   "1895", metric="year built", unit="year"),
        population("https://c.example/ne", "Built in 1912, the courthouse ...", "Douglas County Courthouse",
                   "1912", metric="year built", unit="year"),
    ])
    (g,) = store.conflict_groups()  # 1895 vs 1912 is 1% apart: within a relative tolerance, still a conflict
    assert g.unit == "year" and [(v.value, v.sources) for v in g.values] == [(1912.0, 2), (1895.0, 1)]
    assert store.conflict_groups(entity="Douglas County Courthouse", tolerance=0.5) == [g]


def test_compare_builds_metric_by_entity_table(store: GraphStore) -> None:
    store.write_evidence(BATCH)
    comp = store.compare(["Kafka", "RabbitMQ", "Pulsar", "NATS"])
    assert comp.entities == ["Apache Kafka", "RabbitMQ", "Apache Pulsar"]
    assert comp.missing == ["NATS"]
    # one row per unit: Pulsar's msg/s are not in the MB/s row (the metric's most used unit keeps its name)
    assert comp.metrics == ["p99_latency", "throughput", "throughput (msg/s)"]
    kafka = comp.cells["throughput"]["Apache Kafka"]
    assert sorted(kafka.values) == [605.0, 1200.0, 1200.0, 2000.0]
    assert kafka.unit == "MB/s" and len(kafka.evidence_ids) == 4
    assert set(comp.cells["throughput (msg/s)"]) == {"Apache Pulsar"}
    assert "Apache Kafka" not in comp.cells["p99_latency"]
    only = store.compare(["Kafka", "Pulsar"], metric="throughput")
    assert only.metrics == ["throughput", "throughput (msg/s)"]


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


def test_evidence_for_question_keeps_the_best_scored_answers_under_the_limit(store: GraphStore) -> None:
    q = "How fast does Kafka ingest?"
    recs = [rec(f"https://docs.example/kafka-{i}", f"Kafka ingests {i} MB/s in test {i}.", "Kafka", "throughput",
                i, "MB/s", question=q).scored(s)
            for i, s in [(1, 0.3), (2, 0.9), (3, 0.5), (4, 0.7)]]
    store.write_evidence(recs)
    # the same evidence found again for the same question with a better score keeps the better one, and a
    # weaker score later never lowers it
    store.write_evidence([recs[0].model_copy().scored(0.95)])
    store.write_evidence([recs[1].model_copy().scored(0.1)])
    top = store.evidence_for_question(q, limit=2)
    assert [e.quote for e in top] == ["Kafka ingests 1 MB/s in test 1.", "Kafka ingests 2 MB/s in test 2."]
    ranked = store.evidence_for_question(q, limit=4)
    assert [e.quote[14] for e in ranked] == ["1", "2", "4", "3"]
    assert ranked == sorted(ranked, key=lambda e: -e.score)


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


def test_a_superseded_value_is_not_a_conflict(store: GraphStore) -> None:
    store.write_evidence([
        rec("https://a.example/v1", "Qux 1.0 handles 100 ops/s.", "Qux", "throughput", 100, "ops/s"),
        rec("https://b.example/v2", "Qux 2.0 handles 300 ops/s.", "Qux", "throughput", 300, "ops/s"),
    ])
    assert len(store.conflict_groups(entity="Qux")) == 1
    # monitoring marks the older value superseded by the newer (both kept): the disagreement is history
    store.backend.write("MATCH (o:Observation) WHERE o.value = 100 SET o.superseded_by = 'newer'", {})
    assert store.conflict_groups(entity="Qux") == []
    assert store.conflict_groups() == []


def test_the_same_figure_under_different_stated_set_ups_is_a_disputed_condition(store: GraphStore) -> None:
    store.write_evidence([
        rec("https://questdb-blog.example/june", "Using a dataset with low cardinality of 100 devices, we hit "
            "maximum ingestion throughput of 904k rows/sec.", "QuestDB", "ingest throughput", "904k", "rows/s",
            "low cardinality of 100 devices"),
        rec("https://tutorial.example/compare", "For datasets with high cardinality (>10 million devices), QuestDB "
            "peaked at 904k rows/sec.", "QuestDB", "ingest throughput", "904k", "rows/s",
            "high cardinality, 10 million devices"),
        rec("https://questdb-blog.example/june", "QuestDB sustained 640k rows/sec with 10 million devices.",
            "QuestDB", "ingest throughput", "640k", "rows/s", "10 million devices"),
    ])
    for groups in (store.conflict_groups(), store.conflict_groups(entity="QuestDB")):
        (g,) = groups
        assert g.kind == "condition" and g.condition == "cardinality" and g.entity == "QuestDB"
        assert sorted(v.conditions[0] for v in g.values) == ["high cardinality, 10 million devices",
                                                             "low cardinality of 100 devices"]
        assert {v.value for v in g.values} == {904000.0}
    assert store.conflict_group(g.id) == g
    # the figures agree: a resolution names no value, and may say both set-ups hold
    with pytest.raises(InputError, match="not a value"):
        store.resolve_conflict(g.id, ValueCorrect(decision="value_correct", value=904000))
    assert store.resolve_conflict(g.id, NoValue(decision="both_hold")).conflict_id == g.id


def test_another_quote_at_stored_offsets_never_takes_over_the_stored_evidence(store: GraphStore) -> None:
    """A page whose text changed: the same source and offsets now hold another sentence. The stored evidence
    keeps its quote and its own observation; the new sentence's value is not hung on it."""
    old = rec("https://vendor.example/specs", "AcmeDB ingests 120,000 rows/s.", "AcmeDB", "ingest_throughput",
              120000, "rows/s").model_copy(update={"start": 0, "end": 30})
    new = rec("https://vendor.example/specs", "AcmeDB ingests 999,000 rows/s.", "AcmeDB", "ingest_throughput",
              999000, "rows/s").model_copy(update={"start": 0, "end": 30})
    store.write_evidence([old])
    store.write_evidence([new])
    rows = store.backend.read("MATCH (ev:Evidence)-[:REPORTS]->(o:Observation) RETURN ev.quote AS quote, "
                              "o.value AS value")
    assert [(r["quote"], float(r["value"])) for r in rows] == [("AcmeDB ingests 120,000 rows/s.", 120000.0)]
    store.write_evidence([old])  # the same item again: still merged, nothing doubled
    assert store.stats()["nodes"]["Evidence"] == 1 and store.stats()["nodes"]["Observation"] == 1


def test_a_relative_claim_the_per_unit_figures_contradict_is_an_implied_conflict(store: GraphStore) -> None:
    store.write_evidence([
        rec("https://kestrel.example/readme", "Kestrel needs 7x less storage space than Vole.", "Kestrel",
            "storage_reduction", "7", "x", "vs Vole"),
        rec("https://vole.example/storage", "Vole stores an average of only 1-2 bytes per sample.", "Vole",
            "bytes_per_sample", "1-2", "bytes per sample"),
        rec("https://kestrel.example/sizing", "On average, sample size requires less or around 1 byte.", "Kestrel",
            "bytes_per_sample", "1", "bytes per sample"),
        rec("https://kestrel.example/readme", "Kestrel uses 7x less RAM than Vole.", "Kestrel",
            "memory_reduction", "7", "x", "vs Vole"),
    ])
    for groups in (store.conflict_groups(), store.conflict_groups(entity="Kestrel"),
                   store.conflict_groups(entities=["Kestrel", "Vole"], metric="storage_reduction")):
        (g,) = groups
        assert g.kind == "implied" and g.entity == "Kestrel" and g.condition == "vs Vole"
        assert [v.value for v in g.values] == [7.0, 2.0] and g.values[1].conditions == ["implied ratio 1-2"]
        assert len(g.values[1].evidence_ids) == 2
    # a claim about another entity, or of another metric, is not this one's
    assert store.conflict_groups(entity="Vole") == [] and store.conflict_groups(metric="throughput") == []
    assert store.conflict_group(g.id) == g


def test_a_flat_figure_another_source_gives_with_the_condition_it_changes_under_is_a_qualified_one(
        store: GraphStore) -> None:
    faq = ("Kestrel requires up to 70x less storage space compared to Vole. The gap can be decreased from 70x to 3x "
           "if compression in Vole is properly configured.")
    store.write_evidence([
        rec("https://kestrel.example/readme", "70x more data points may be stored than Vole.", "Kestrel",
            "storage_reduction", "70", "x", "vs Vole"),
        rec("https://kestrel.example/faq", faq, "Kestrel", "storage_reduction", "70", "x", "vs Vole"),
    ])
    # the same quote's second observation: the figure under the condition it changes under
    store.write_evidence([rec("https://kestrel.example/faq", faq, "Kestrel", "storage_reduction", "3", "x",
                              "vs Vole, if compression in Vole is properly configured")])
    for groups in (store.conflict_groups(), store.conflict_groups(entity="Kestrel")):
        (g,) = groups
        assert g.kind == "qualified" and g.condition == "vs Vole" and [v.value for v in g.values] == [70.0, 3.0]
        assert g.values[0].source_urls == ["https://kestrel.example/readme"]
        assert g.values[1].source_urls == ["https://kestrel.example/faq"]


def test_a_stated_peak_exceeded_under_the_same_set_up_is_an_exceeded_conflict(store: GraphStore) -> None:
    store.write_evidence([
        rec("https://tutorial.example/compare", "QuestDB outperformed others with peak ingestion throughput of 904k "
            "rows/sec using four threads on m5.8xlarge.", "QuestDB", "ingest throughput", "904k", "rows/s",
            "four threads, m5.8xlarge"),
        rec("https://questdb-blog.example/may", "QuestDB achieves 959k rows/sec with 4 threads.", "QuestDB",
            "ingest throughput", "959k", "rows/s", "4 threads"),
        rec("https://questdb-blog.example/may", "On AMD Ryzen5 with 5 threads QuestDB reached 1.43 million rows/sec.",
            "QuestDB", "ingest throughput", "1.43 million", "rows/s", "AMD Ryzen5, 5 threads"),
    ])
    for groups in (store.conflict_groups(), store.conflict_groups(entity="QuestDB")):
        (g,) = [g for g in groups if g.kind == "exceeded"]
        assert [v.value for v in g.values] == [904000.0, 959000.0] and g.condition == "four threads, m5.8xlarge"
