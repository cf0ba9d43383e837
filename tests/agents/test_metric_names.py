"""Canonical metric keys from question and document words, English and Chinese."""

from __future__ import annotations

import pytest

from openresearch.agents.extract.metric_names import canonical_metric, metric_family, metric_mentions, same_family


@pytest.mark.parametrize(("phrase", "key"), [
    ("population", "population"), ("inhabitants", "population"), ("人口", "population"),
    ("number of households", "households"),
    ("built", "built"), ("completed", "built"), ("constructed", "built"), ("erected", "built"),
    ("year built", "built"), ("建成", "built"),
    ("born", "born"), ("date of birth", "born"), ("出生", "born"),
    ("founded", "founded"), ("established", "founded"), ("formed", "founded"), ("成立", "founded"),
    ("released", "released"), ("release date", "released"), ("died", "died"),
    ("query throughput", "query_throughput"), ("QPS", "query_throughput"),
    ("ingestion rate", "ingest_throughput"), ("写入吞吐", "ingest_throughput"),
    ("rows per second", "throughput"), ("吞吐量", "throughput"),
    ("maximum vector dimensions", "max_dimensions"), ("dimensions", "max_dimensions"), ("最大维度", "max_dimensions"),
    ("recall", "recall"), ("latency", "latency"), ("p99 latency", "p99_latency"),
    ("99th percentile latency", "p99_latency"), ("average latency", "avg_latency"),
    ("compression ratio", "compression_ratio"), ("压缩比", "compression_ratio"),
    ("bytes per sample", "bytes_per_sample"), ("storage per sample", "bytes_per_sample"),
    ("series cardinality", "max_series"), ("序列基数", "max_series"),
    ("columns per table", "max_columns"), ("最大列数", "max_columns"),
])
def test_canonical_metric(phrase: str, key: str) -> None:
    assert canonical_metric(phrase) == key


def test_whole_questions_give_their_first_metric() -> None:
    assert canonical_metric("What is the population of Lakeview Township, Ohio?") == "population"
    assert canonical_metric("When was the Grant County Courthouse built?") == "built"
    assert canonical_metric("ingestion throughput and query latency") == "ingest_throughput"
    assert canonical_metric("Milvus 的最大维度是多少") == "max_dimensions"
    assert canonical_metric("Who is the mayor of Springfield?") is None


def test_mentions_in_order_and_families() -> None:
    keys = [m.key for m in metric_mentions("query throughput, p95 latency and recall")]
    assert keys == ["query_throughput", "p95_latency", "recall"]
    assert metric_family("p99_latency") == "latency" and metric_family("ingest_throughput") == "throughput"
    assert metric_family("max_columns") == "max_columns"
    assert same_family("latency", "avg_latency") and not same_family("latency", "throughput")


def test_an_answer_takes_relative_claims_and_kindred_quantities_but_keys_stay_apart() -> None:
    assert same_family("speedup", "ingest_throughput") and same_family("speedup", "query_latency")
    # a query rate does not answer a question about ingestion; a plain throughput answers either
    assert not same_family("query_throughput", "ingest_throughput") and not same_family("read_latency", "write_latency")
    assert same_family("throughput", "ingest_throughput") and same_family("query_throughput", "throughput")
    assert same_family("storage_ratio", "bytes_per_sample") and same_family("compression_ratio", "storage")
    assert same_family("throughput", "ingest_throughput") and same_family("opened", "founded")
    assert not same_family("max_series", "max_columns") and not same_family("latency", "throughput")
    assert not same_family("speedup", "population") and not same_family("ratio", "storage")
    # kindred quantities answer a question about storage, not one another
    assert same_family("raw_data_size", "storage") and same_family("compression_saving", "compression_ratio")
    assert not same_family("raw_data_size", "compression_ratio") and not same_family("bytes_per_sample",
                                                                                      "storage_required")
    assert not same_family("storage", "compression_ratio") and same_family("storage_reduction", "compression_ratio")



def test_metric_query_words_give_english_search_words_for_known_quantities_only() -> None:
    from openresearch.agents.extract.metric_names import metric_query_words

    assert metric_query_words("max_series") == "series cardinality"
    assert metric_query_words("p99_latency") == "p99 latency"
    assert metric_query_words("population") == "population"
    assert metric_query_words("ingest_throughput") == "ingestion rows per second"
    assert metric_query_words("colour_of_the_logo") is None  # a slug of a question's words, no known quantity
    assert metric_query_words("表结构") is None


def test_a_speed_or_time_under_an_operation_answers_an_attribute_that_names_it() -> None:
    from openresearch.agents.extract.metric_names import answers_by_operation
    from openresearch.agents.plan.attributes import with_english

    assert with_english("解码性能") == "解码性能 decode performance"
    assert with_english("parse speed") == "parse speed"
    assert answers_by_operation("MB/s", "Decoder Generic", with_english("解码性能"))
    assert answers_by_operation("ns/op", "Decoder Generic", "decode performance")
    assert not answers_by_operation("MB/s", "Encoder Generic", "decode performance")
    assert not answers_by_operation("MB", "Decoder Generic", "decode performance")  # a size is no performance
    assert not answers_by_operation("ns/op", "Decoder Generic", "decode throughput")  # a time is no throughput
