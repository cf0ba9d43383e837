"""The pure core of conflict groups: clustering, grouping, support and the credibility note (no database)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from openresearch.condition_conflicts import condition_groups
from openresearch.conflicts import (
    ObservedValue,
    build_group,
    calendar_surface,
    cluster,
    conflict_groups,
    core_name,
    count_word,
    credibility_note,
    group_id,
    is_primary,
    quote_qualifiers,
    value_summary,
    version_of,
)


def ob(value: float, source: str, *, entity: str = "Osgood, Indiana", metric: str = "population", unit: str = "",
       raw: str | None = None, domain: str | None = None, published: date | None = None, trust: float = 0.5,
       title: str | None = None, condition_key: str = "", evidence: str | None = None) -> ObservedValue:
    return ObservedValue(
        entity_id="N-" + entity, entity=entity, metric=metric, unit=unit, condition=condition_key,
        condition_key=condition_key, value=value, raw_value=raw or f"{value:g}", raw_unit="",
        evidence_id=evidence or f"E-{source}-{value:g}", quote=f"{raw or value}", source_id="S-" + source,
        url=f"https://{domain or source + '.example'}/page", domain=domain or source + ".example", title=title,
        published=published, trust=trust)


def test_cluster_bounds_width_by_tolerance_and_does_not_chain() -> None:
    assert cluster([100, 112, 104, 108], 0.05) == [[0, 2], [3, 1]]  # 100..104 | 108..112, not one chain
    assert cluster([1624, 2500, 1624.0, 1630], 0.05) == [[0, 2, 3], [1]]
    assert cluster([1912, 1895], 0.05) == [[1, 0]]  # 1% apart: one value under a relative tolerance
    assert cluster([1912, 1895, 1912], 0.0) == [[1], [0, 2]]  # exact: any difference
    assert cluster([0.0, 0.0, -1.0], 0.05) == [[2], [0, 1]]
    assert cluster([], 0.05) == []


def test_three_sources_against_one() -> None:
    obs = [ob(1624, "a", published=date(2020, 6, 1)), ob(1624, "b", published=date(2012, 1, 1)),
           ob(1630, "c"), ob(2500, "d", published=date(2011, 1, 1))]
    g = build_group(obs, 0.05)
    assert g is not None and [v.value for v in g.values] == [1624.0, 2500.0]
    right, wrong = g.values
    assert (right.sources, right.domains, wrong.sources) == (3, 3, 1)
    assert right.raw_values == ["1624", "1630"] and right.newest == date(2020, 6, 1)
    assert right.evidence_ids[0] == "E-a-1624"  # the newest source's evidence first
    assert g.relative_difference == round((2500 - 1624) / 2500, 4)
    assert g.credibility == ("1624 is given by three independent sources, including the newest (2020); "
                             "2500 by one source")
    assert g.id == group_id("N-Osgood, Indiana", "population", "", "")


def test_no_group_within_tolerance_or_within_one_source() -> None:
    assert build_group([ob(4280, "a"), ob(4300, "b"), ob(4200, "c")], 0.05) is None
    # a document that gives two values is usually stating two quantities, not disagreeing with itself
    assert build_group([ob(3, "e", evidence="E-1"), ob(500, "e", evidence="E-2")], 0.05) is None
    both = build_group([ob(3, "e", evidence="E-1"), ob(500, "e", evidence="E-2"), ob(2, "a")], 0.05)
    assert both is not None and len(both.values) == 3


def test_a_quote_giving_two_values_of_one_key_is_left_out() -> None:
    # one quote, 420 and 600 MB/s (with and without fsync, say): not comparable; the third source alone
    # does not make a conflict
    obs = [ob(420, "a", evidence="E-t"), ob(600, "a", evidence="E-t"), ob(600, "b")]
    assert build_group(obs, 0.05) is None
    g = build_group([*obs, ob(420, "c")], 0.05)
    assert g is not None and [v.evidence_ids for v in g.values] == [["E-c-420"], ["E-b-600"]]


def test_newest_is_named_only_when_one_value_alone_has_it() -> None:
    same = build_group([ob(1, "a", published=date(2023, 1, 1)), ob(2, "b", published=date(2023, 1, 1)),
                        ob(3, "c", published=date(2020, 1, 1))], 0.05)
    assert same is not None and "newest" not in same.credibility


def test_years_and_dates_are_exact() -> None:
    years = build_group([ob(1912, "a", unit="year"), ob(1895, "b", unit="year")], 0.05)
    assert years is not None and {v.value for v in years.values} == {1912.0, 1895.0}
    dates = build_group([ob(19120504, "a", unit="date"), ob(19120505, "b", unit="date")], 0.05)
    assert dates is not None
    assert build_group([ob(1912, "a", unit="year"), ob(1912, "b", unit="year")], 0.05) is None


def test_groups_by_entity_metric_unit_and_condition() -> None:
    obs = [ob(1624, "a", condition_key="2010 census"), ob(1100, "b", condition_key="1990 census"),
           ob(1624, "a", entity="Osgood, Missouri"), ob(48, "b", entity="Osgood, Missouri"),
           ob(2, "a", metric="average_message_size", unit="MB"), ob(5, "b", metric="maximum_message_size", unit="MB")]
    groups = conflict_groups(obs, 0.05)
    assert [(g.entity, [v.value for v in g.values]) for g in groups] == [("Osgood, Missouri", [48.0, 1624.0])]


def test_support_counts_origins_once_and_weighs_trust_and_primary() -> None:
    # two pages of one site are one origin; a trusted source outweighs it
    obs = [ob(10, "a1", domain="blog.example"), ob(10, "a2", domain="blog.example"),
           ob(20, "v", domain="kafka.apache.org", trust=0.9, entity="Apache Kafka"),
           ob(10, "x1", domain="blog.example", entity="Apache Kafka", evidence="E-x1"),
           ob(10, "x2", domain="blog.example", entity="Apache Kafka", evidence="E-x2")]
    g = build_group(obs[2:], 0.05)
    assert g is not None
    top, other = g.values
    assert top.value == 20 and top.primary and top.support == pytest.approx(1.4)
    assert (other.sources, other.domains, other.support) == (2, 1, 0.5)
    assert "20 is given by one source, a primary source and more trusted sources" in g.credibility
    assert "10 by one source (two documents)" in g.credibility
    assert value_summary(other) == "10 (2 sources, 1 origin)"


def test_primary_source_and_core_name() -> None:
    assert core_name("Osgood, Indiana") == "Osgood"
    assert core_name("Douglas County Courthouse (Nebraska)") == "Douglas County Courthouse"
    assert is_primary("Apache Kafka", "https://kafka.apache.org/documentation", "kafka.apache.org", None)
    assert is_primary("Osgood, Indiana", "https://en.wikipedia.example/wiki/Osgood", "", "Osgood, Indiana - Wiki")
    assert not is_primary("Apache Kafka", "https://blog.example/kafka-vs-rabbitmq", "blog.example",
                          "Kafka vs RabbitMQ")
    assert not is_primary("Apache Pulsar", "https://streaming.example.net/b", "streaming.example.net",
                          "Apache Pulsar vs. Apache Kafka: 2022 Benchmark")
    assert not is_primary("Douglas County Courthouse", "https://county.example/x", "county.example", None)


def test_note_in_chinese_uses_words_for_counts() -> None:
    g = build_group([ob(12000, "a", published=date(2024, 1, 1)), ob(12000, "b"),
                     ob(9000, "c", published=date(2019, 1, 1))], 0.05)
    assert g is not None
    note = credibility_note(g.values, "zh", ["1.2万条/秒", "9,000 条/秒"])
    assert note == "1.2万条/秒 有两个独立来源支持，其中包括最新的来源（2024）；9,000 条/秒 有一个来源支持"
    # the newest is only named when the values' dates differ (an undated value may be newer)
    undated = build_group([ob(12000, "a", published=date(2024, 1, 1)), ob(9000, "c")], 0.05)
    assert undated is not None and "newest" not in undated.credibility
    assert count_word(13) == "more than twelve" and count_word(2, "zh") == "两"


def test_conditions_are_compatible_only_when_equal() -> None:
    # a figure without its set-up does not contradict one under a stated set-up, nor a subset of it (the
    # missing parts may be another dataset, version or hardware)
    obs = [ob(1624, "a", condition_key="2010 census"), ob(2500, "c"),
           ob(605, "a", metric="throughput", condition_key="3brokers"),
           ob(2000, "b", metric="throughput", condition_key="1kb messages | 3brokers")]
    assert conflict_groups(obs, 0.05) == []
    (g,) = conflict_groups([*obs, ob(1100, "d", condition_key="2010 census", raw="1,100")], 0.05)
    assert g.condition == "2010 census" and [v.value for v in g.values] == [1100.0, 1624.0]


def test_versions_from_titles_and_urls() -> None:
    assert version_of("Weaviate v1.23 benchmarks", "https://docs.example/x") == (1, 23)
    assert version_of(None, "https://docs.example/docs/3.7/ops") == (3, 7)
    assert version_of("Kafka 3.7 documentation", "https://docs.example/v3.6/") == (3, 7)
    assert version_of("Benchmark 2024-05-01", "https://blog.example/2024/05/post") is None
    old = ob(10940, "a", title="Weaviate 1.19 benchmarks", entity="Weaviate")
    new = ob(8905, "b", title="Weaviate 1.23 benchmarks", entity="Weaviate")
    g = build_group([old, new], 0.05)
    assert g is not None and {v.value: v.version for v in g.values} == {10940.0: "1.19", 8905.0: "1.23"}
    assert g.values[0].value == 8905  # equal support: the newer version first
    assert g.credibility.startswith("8905 is given by one source, the newest version and a primary source; ")
    assert "version 1.23" in value_summary(next(v for v in g.values if v.value == 8905))


def test_years_and_dates_as_their_quotes_write_them() -> None:
    assert calendar_surface("The courthouse was built in 1912.", 1912, "year") == "1912"
    assert calendar_surface("It cost 1,912 dollars in 1895.", 1912, "year") is None
    assert calendar_surface("Born on May 4, 1912 in Omaha.", 19120504, "date") == "May 4, 1912"
    assert calendar_surface("Smith (born 4 May 1912) was a painter.", 19120504, "date") == "4 May 1912"
    assert calendar_surface("生于1912年5月4日。", 19120504, "date") == "1912年5月4日"
    assert calendar_surface("Born on May 5, 1912.", 19120504, "date") is None
    g = build_group([ob(1912, "a", unit="year", raw="1912"), ob(1895, "b", unit="year", raw="1895")], 0.05)
    assert g is not None and [v.raw_values for v in g.values] == [["1895"], ["1912"]]  # no unit word


def test_a_metric_named_only_by_its_kind_of_number_is_never_a_conflict() -> None:
    # "10 MB" and "2 TB" called "size": a message limit and a storage volume, not one quantity
    assert conflict_groups([ob(10, "a", metric="size", unit="MB"), ob(2e6, "b", metric="size", unit="MB")], 0.05) == []
    assert conflict_groups([ob(10, "a", metric="max_message_size", unit="MB"),
                            ob(5, "b", metric="max_message_size", unit="MB")], 0.05)


def quoted(value: float, unit: str, quote: str, source: str, metric: str = "message_size") -> ObservedValue:
    return ObservedValue(entity_id="N-p", entity="Apache Pulsar", metric=metric, unit=unit, condition="",
                         condition_key="", value=value, raw_value=f"{value:g}", raw_unit=unit,
                         evidence_id=f"E-{source}", quote=quote, source_id=f"S-{source}",
                         url=f"https://{source}.example/x", domain=f"{source}.example")


def test_the_statistic_a_quote_states_is_part_of_the_key() -> None:
    avg = quoted(0.002, "MB", "The average message size in our test was 2 KB.", "a")
    top = quoted(5, "MB", "The maximum message size is 5 MB by default.", "b")
    mib = quoted(128, "MB", "The default maximum message size is reduced from 128 MiB to 16 MiB.", "c")
    assert quote_qualifiers(avg) == ("avg",) and quote_qualifiers(top) == ("max",)
    assert quote_qualifiers(mib) == ("max",)  # "MiB" is not a unit the text reader knows: matched by value
    assert conflict_groups([avg, top], 0.05) == []  # average vs maximum: not one quantity
    (g,) = conflict_groups([top, mib], 0.05)  # both maxima
    assert [v.value for v in g.values] == [5.0, 128.0]
    # a metric that names its statistic already is not split by the quotes' wording
    named = [quoted(5, "MB", "Messages of up to 5 MB.", "b", "max_message_size"),
             quoted(128, "MB", "Limit: 128 MB per message.", "c", "max_message_size")]
    assert [quote_qualifiers(o) for o in named] == [(), ()] and len(conflict_groups(named, 0.05)) == 1
    assert quote_qualifiers(quoted(2000, "", "pgvector indexes vectors of up to 2,000 dimensions.", "d",
                                   "dimensions")) == ("max", "indexed")


# --- disputed conditions: the same figure under different stated set-ups ---------------------------------

def throughput(value: float, source: str, condition: str, quote: str, evidence: str | None = None) -> ObservedValue:
    o = ob(value, source, entity="QuestDB", metric="ingest_throughput", unit="rows/s", condition_key=condition,
           evidence=evidence)
    return replace(o, quote=quote, raw_value=f"{value / 1000:g}k", raw_unit="rows/sec")


def test_the_same_figure_under_a_different_stated_set_up_is_a_disputed_condition() -> None:
    low = throughput(904000, "june", "low cardinality of 100 devices",
                     "Using a dataset with low cardinality of 100 devices, we hit 904k rows/sec.")
    high = throughput(904000, "tutorial", "high cardinality, 10 million devices, four threads",
                      "For datasets with high cardinality (>10 million devices), QuestDB peaked at 904k rows/sec.")
    (g,) = condition_groups([low, high])
    assert g.kind == "condition" and g.condition == "cardinality"
    assert sorted(v.conditions[0] for v in g.values) == ["high cardinality, 10 million devices",
                                                         "low cardinality of 100 devices"]
    assert conflict_groups([low, high], 0.05) == []  # the values agree: no value conflict
    # figures 1.5% apart are the same figure; the thread counts they are stated with differ
    a = throughput(914000, "may", "twice as many threads as QuestDB", "ClickHouse hits 914k rows/sec with twice...")
    b = throughput(900000, "june", "four times as many workers as QuestDB", "ClickHouse could ingest 900k rows/sec")
    (t,) = condition_groups([a, b])
    assert t.condition == "threads" and sorted(v.value for v in t.values) == [900000, 914000]


def test_what_is_not_a_disputed_condition() -> None:
    q = "QuestDB ingested 904k rows/sec."
    # the same source stating two set-ups describes two runs
    assert condition_groups([throughput(904000, "a", "100 devices", q, "E-1"),
                             throughput(904000, "a", "10 million devices", q, "E-2")]) == []
    # different figures: a value question, not a set-up one
    assert condition_groups([throughput(904000, "a", "100 devices", q),
                             throughput(640000, "b", "10 million devices", q)]) == []
    # two set-up dimensions differ: more likely two experiments that happen to agree
    assert condition_groups([throughput(904000, "a", "100 devices, 4 threads", q),
                             throughput(904000, "b", "10 million devices, 16 threads", q)]) == []
    # a version or a census year: the figure stayed the same
    assert condition_groups([throughput(904000, "a", "version 6.0", q),
                             throughput(904000, "b", "version 7.1", q)]) == []
    # a figure with no set-up disputes nothing
    assert condition_groups([throughput(904000, "a", "", q), throughput(904000, "b", "100 devices", q)]) == []


def test_two_disputed_figures_of_one_key_are_two_groups_with_their_own_ids() -> None:
    q = "QuestDB ingested rows."
    obs = [throughput(904000, "a", "100 devices", q), throughput(904000, "b", "10 million devices", q),
           throughput(640000, "a", "1,000 devices", q), throughput(640000, "b", "10 million devices", q)]
    groups = condition_groups(obs)
    assert len(groups) == 2 and len({g.id for g in groups}) == 2
