"""Whose figure: the subject of the value's clause (spaCy's English pipeline), and a document's own product from
its title. Names here are ones no lexicon of the package lists."""

from __future__ import annotations

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor, title_name
from openresearch.agents.extract.subjects import subject_at
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import parse_bytes
from openresearch.ingest.embed import HashEmbedder

DOC = """# zork

zork is a fast parser for Quuxfile documents. zork reads them without copying, and zork is small.

It parses 3 GB/s on one core, and it raises ValueError on bad input, as ValueError is what ValueError users expect.
Glorp, by contrast, manages 1 GB/s on the same core.
"""


def test_subject_of_a_value_clause() -> None:
    s = "Kafka reached 605 MB/s while Pulsar reached 305 MB/s."
    kafka = subject_at(s, s.index("605"))
    pulsar = subject_at(s, s.index("305"))
    assert kafka is not None and s[kafka.start:kafka.end] == "Kafka" and not kafka.own
    assert pulsar is not None and s[pulsar.start:pulsar.end] == "Pulsar"
    it = "It serializes instances 40-50x as fast as other libraries."
    subj = subject_at(it, it.index("40"))
    assert subj is not None and subj.own
    assert subject_at("它的写入速度是 100 万条每秒。", 6) is None  # Chinese keeps the rules


def test_title_names_the_product_only_when_the_text_keeps_using_it() -> None:
    assert title_name("zork", DOC) == "zork"
    assert title_name("Introduction", DOC) is None
    assert title_name("Status of Python Versions", "Python " * 10) is None


def test_it_is_the_titled_product_not_the_most_repeated_capitalised_word() -> None:
    src = parse_bytes(DOC.encode(), kind="text", url="local://t/zork.md", default_kind="local")
    src = src.model_copy(update={"title": "zork"})
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), src)
    by_value = {str(o.value): o.entity for o in doc.observations}
    assert by_value["3"] == "zork"
    assert "ValueError" not in by_value.values()


def test_a_comparison_question_compares_what_it_lists_whatever_its_case() -> None:
    from openresearch.agents.plan.analysis import analyse

    a = analyse("Compare zorkjson, blarg, Quuxlib and frob/json (JSON for Modern C++) on parsing throughput for "
                "corpus.json, serialization (stringify) throughput and per-value memory overhead. Which README "
                "figures are comparable?")
    assert a.entities == ["zorkjson", "blarg", "Quuxlib", "frob/json"]  # not README or JSON
    # a one- or two-word gloss is the sources' own word for the attribute and stays; an entity's full name goes
    assert a.attributes == ["parsing throughput for corpus.json", "serialization (stringify) throughput",
                            "per-value memory overhead"]
    b = analyse("On the quux benchmark, how do Farmo, Rsblip and Vitro compare on cold start time and build time?")
    assert b.entities == ["Farmo", "Rsblip", "Vitro"]
    c = analyse("For Zork 3.12 and 3.13, what are the key dates: the x.y.0 release, the feature freeze and the end "
                "of security support?")
    assert "3.12" not in c.attributes and "feature freeze" in c.attributes


def test_a_metric_no_list_names_answers_by_its_words_and_unit() -> None:
    from openresearch.agents.extract.metric_names import answers_metric

    assert answers_metric("parse", "GB/s", "parsing_throughput")
    assert not answers_metric("parse", "ms", "parsing_throughput")  # a time answers no throughput
    assert answers_metric("startup", "ms", "dev_server_startup_time")
    assert not answers_metric("startup", "MB/s", "dev_server_startup_time")
    assert not answers_metric("bundle_size", "KB", "dev_server_startup_time")
