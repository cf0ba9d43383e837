"""Question analysis: language, entities (aliases, heuristics, Latin names in Chinese), aspects, kind."""

from __future__ import annotations

import pytest

from openresearch.agents.plan.analysis import Analyzer, analyse


@pytest.mark.parametrize(("question", "language", "kind", "entities", "aspects"), [
    ("Which message broker should we choose: Kafka, RabbitMQ or Pulsar?", "en", "selection",
     ["Apache Kafka", "RabbitMQ", "Apache Pulsar"], []),
    ("How does Raft consensus work?", "en", "how", ["Raft"], []),
    ("Apache Kafka vs. Rabbit MQ: latency and licence", "en", "comparison", ["Apache Kafka", "RabbitMQ"],
     ["performance", "licence"]),
    ("Compare Postgres and MongoDB on cost", "en", "comparison", ["PostgreSQL", "MongoDB"], ["cost"]),
    ("Why did \"event sourcing\" become popular with ScyllaDB users?", "en", "why",
     ["event sourcing", "ScyllaDB"], ["community"]),
    ("Kafka 和 RabbitMQ 哪个吞吐量更高", "zh", "selection", ["Apache Kafka", "RabbitMQ"], ["performance"]),
    ("Kafka 和 RabbitMQ 在吞吐量和运维成本上的区别？", "zh", "comparison", ["Apache Kafka", "RabbitMQ"],
     ["performance", "operations", "cost"]),
    ("向量数据库的发展趋势如何？", "zh", "trend", [], []),
])
def test_analyse(question: str, language: str, kind: str, entities: list[str], aspects: list[str]) -> None:
    a = analyse(question)
    assert (a.language, a.kind, a.entities, a.aspects) == (language, kind, entities, aspects)


def test_topic_and_user_aliases() -> None:
    assert analyse("Which message broker should I choose?").topic == "message broker"
    assert analyse("消息队列选型：Kafka 和 Pulsar 哪个更适合？").topic == "消息队列"
    custom = Analyzer({"Acme Queue": ["AQ", "acmeq"]})
    assert custom.analyse("Is acmeq faster than Kafka?").entities == ["Acme Queue", "Apache Kafka"]
    assert analyse("Kafkaesque 和 Kafka 的性能").entities == ["Kafkaesque", "Apache Kafka"]  # no match inside a word


def test_how_often_and_how_long_ask_for_spans() -> None:
    from openresearch.agents.plan.analysis import analyse

    a = analyse("Compare Zork, Quux and Frob: how often does each ship a new feature (major) release, and how long is "
                "a release supported (bug-fix phase, security-only phase)?")
    assert a.entities == ["Zork", "Quux", "Frob"]
    assert a.attributes[:2] == ["release interval", "support duration"]
    assert a.metrics[:2] == ["release_interval", "support_duration"]  # an interval is not a release date


def test_a_chinese_comparison_names_its_list_not_its_units_glosses_or_setting() -> None:
    from openresearch.agents.plan.analysis import analyse

    a = analyse("在 Zork 语言中，frobz、quux-lib（quuxlib）和标准库 wib/json 的编码、解码性能（ns/op、MB/s）"
                "分别是多少？")
    assert a.entities == ["frobz", "quux-lib", "wib/json"] and a.kind == "comparison"
    assert a.attributes == ["编码", "解码性能"]
    b = analyse("Zork、Quux 和 Frob 的长期支持版本分别支持多长时间、多久发布一次新版本？")
    assert b.attributes[:2] == ["发布间隔", "支持时长"]  # matched to English sources by with_english


def test_a_question_about_a_lower_case_name_after_its_auxiliary_is_about_that_name() -> None:
    from openresearch.agents.plan.analysis import analyse

    a = analyse("What performance figures does frobzlib publish for itself (JSON decoding speed-ups over Quux, GC "
                "pauses, installed size)?")
    assert a.entities == ["frobzlib"]  # not JSON, Quux or GC, named in its aside
    assert analyse("How often does each ship a release?").entities == []  # "each" is no name


def test_a_long_question_with_asides_is_read_in_one_pass() -> None:
    # the attribute list's words are read whole (possessive): a list that does not end where the pattern wants no
    # longer backtracks through every split of every word (this question took minutes to plan)
    from openresearch.agents.plan.analysis import analyse

    a = analyse("How do Zork3, wibhash, frobhash and quuxhash compare on large-input (bulk) hashing throughput and on "
                "small-key hashing cost (cycles per hash), according to the Blarg results table and to the benchmarks "
                "the Zork, frobhash and quuxhash projects publish themselves? Where do the sources disagree, and why?")
    assert a.entities[:4] == ["Zork3", "wibhash", "frobhash", "quuxhash"]
    assert a.attributes == ["large-input (bulk) hashing throughput", "small-key hashing cost"]  # ends at ", according"


def test_an_enumeration_names_one_attribute_per_marker_and_its_examples_are_not_attributes() -> None:
    from openresearch.agents.plan.analysis import analyse

    a = analyse("How do zorkalloc, frobmalloc and Quuxmem compare on (1) the granularity of the basic unit from which "
                "small objects are carved (page/chunk size), (2) metadata overhead, and (3) the size of the large "
                "address-space reservations they take from the OS (arenas, spans, regions)?")
    assert a.entities == ["zorkalloc", "frobmalloc", "Quuxmem"]
    assert a.attributes == ["granularity of the basic unit (page/chunk size)", "metadata overhead",
                            "size of the large address-space reservations"]
    assert a.kind == "comparison"  # "from which" is no "which" that asks to choose
    b = analyse("How do Zorkdb and frobkv compare on (1) write throughput and (2) read throughput or latency, "
                "according to the figures in their own documentation?")
    assert b.attributes == ["write throughput", "read throughput or latency"]


def test_names_inside_the_list_after_a_colon_qualify_what_is_asked_and_an_owner_is_no_entity() -> None:
    from openresearch.agents.plan.analysis import analyse

    a = analyse("What are the main built-in limits and defaults of Blarg's Zorkmalloc: which logical page sizes exist, "
                "how many size classes it uses, the per-CPU slab size, the granularity of OS memory requests, and "
                "which Linux kernel version is needed for per-CPU mode?")
    assert a.entities == ["Zorkmalloc"] and a.kind == "overview"  # one named thing: nothing to choose
    assert analyse("Blarg 的 Zorkmalloc 有哪些主要的内置限制和默认值：默认是哪一个？").entities == ["Zorkmalloc"]
    assert a.attributes == ["logical page sizes", "size classes", "per-CPU slab size",
                            "granularity of OS memory requests", "Linux kernel version"]
    b = analyse("How have Zorkdb's default option values changed across releases: which versions (and dates) changed "
                "write_buffer_size, max_open_files, the delayed write rate and the default block cache size?")
    assert b.entities == ["Zorkdb"]
    assert b.attributes == ["write_buffer_size", "max_open_files", "delayed write rate", "default block cache size"]


def test_a_lower_case_name_beside_a_name_or_before_its_release_is_a_name_and_a_supported_platform_is_none() -> None:
    # "zorbq" is no list's name: it is one where a release number follows it, or where it is coordinated with a
    # name; "Frob 3.14" is what a release added support for, and "the Frob-3.14-capable Quux release" is Quux's
    a = analyse("I need a release timeline for Quux and zorbq. When were Quux 7.0.0 and 7.3.0 released, and when "
                "were zorbq 2.11.0 and 2.14.0 released? Which release of each project added Frob 3.14 support, which "
                "zorbq release dropped Frob 3.8, and what minimum zorbq version does the Frob-3.14-capable Quux "
                "release require?")
    assert a.entities == ["Quux", "zorbq"]
    assert analyse("When were zorbq 2.11.0 and 2.14.0 released?").entities == ["zorbq"]
    # a settings key listed beside others is no name ("retry" is no product because "clearCache" is a key)
    assert "retry" not in analyse("What are the default values of max_open_files, retry and clearCache?").entities
