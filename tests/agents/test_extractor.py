"""The deterministic extractor on real documents from examples/corpus (parsed the way ingest parses them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from openresearch.agents.extract.extract_rules import classify, sentence_units
from openresearch.agents.extract.extractor import DeterministicExtractor, Extractor
from openresearch.agents.extract.observations import has_statistic, observations
from openresearch.agents.extract.values import find_values
from openresearch.identity import AliasResolver, evidence_id, question_id
from openresearch.ingest.documents import parse_file
from openresearch.ingest.embed import HashEmbedder
from openresearch.models import EvidenceItem, ExtractionResult, ObservationIn, Plan, SourceDoc, SubQuestion
from openresearch.numbers import Quantity, parse_quantity

CORPUS = Path(__file__).resolve().parents[2] / "examples" / "corpus"
BROKERS = ["Kafka", "RabbitMQ", "Pulsar"]


def doc(name: str) -> SourceDoc:
    return parse_file(CORPUS / name, f"local://corpus/{name}")


def ask(text: str, entities: list[str] | None = None, **kw: object) -> tuple[SubQuestion, Plan]:
    names = BROKERS if entities is None else entities
    q = SubQuestion(id=question_id(text), text=text, entities=names, **kw)  # type: ignore[arg-type]
    return q, Plan(question=text, entities=names, sub_questions=[q])


@pytest.fixture(scope="module")
def everything() -> DeterministicExtractor:
    """Every sentence above a zero score: tests look for specific sentences, not at the ranking."""
    return DeterministicExtractor(HashEmbedder(), AliasResolver.load(), max_items=200, min_score=0.0)


def assert_verbatim(source: SourceDoc, result: ExtractionResult) -> None:
    spans: list[tuple[int, int]] = []
    for it in result.items:
        assert source.text[it.start:it.end] == it.quote
        assert it.id == evidence_id(source.id, it.start, it.end, it.quote)
        assert it.source_id == source.id and it.quote.strip() == it.quote
        assert all(not (s < it.end and it.start < e) for s, e in spans), "quotes overlap"
        spans.append((it.start, it.end))


def find(result: ExtractionResult, needle: str) -> EvidenceItem:
    hits = [it for it in result.items if needle in it.quote]
    assert hits, f"no quote contains {needle!r}"
    return hits[0]


def obs(item: EvidenceItem, metric: str, value: str) -> ObservationIn:
    hits = [o for o in item.observations if o.metric == metric and o.value == value]
    assert hits, f"no {metric}={value} in {item.observations}"
    return hits[0]


def test_is_an_extractor() -> None:
    assert isinstance(DeterministicExtractor(HashEmbedder(), AliasResolver()), Extractor)


def test_english_benchmark_writeup(everything: DeterministicExtractor) -> None:
    source = doc("bench-omb-reproduction.md")
    q, plan = ask("Which message broker has the highest throughput and the lowest p99 latency?")
    result = everything.extract(source, q, plan)
    assert_verbatim(source, result)
    assert result.rejected == 0 and all(it.question_id == q.id for it in result.items)
    assert not any(it.quote in ("Setup", "Pulsar") for it in result.items), "headings are not evidence"

    kafka = find(result, "Kafka peaked at 590 MB/s")
    assert kafka.type == "statistic" and kafka.entities == ["Apache Kafka"]
    o = obs(kafka, "throughput", "590")
    assert o.entity == "Apache Kafka" and parse_quantity(o.value, o.unit) == Quantity(590.0, "MB/s")
    assert o.condition is not None
    for part in ("three brokers", "1 KB messages", "100 partitions", "replication factor 3"):
        assert part in o.condition
    assert not any(x.value in ("1", "100", "3", "2020") for x in kafka.observations), "setup numbers are conditions"

    rabbit = find(result, "p99 end-to-end latency of 8 ms")
    o = obs(rabbit, "p99_latency", "8")
    assert o.entity == "RabbitMQ" and parse_quantity(o.value, o.unit) == Quantity(8.0, "ms")
    assert o.condition is not None and "at 30 MB/s" in o.condition and "mirrored queues" in o.condition
    assert [x.metric for x in rabbit.observations] == ["p99_latency"], "the load a latency was measured at"

    single = find(result, "handled 20,500 msg/s")
    o = obs(single, "throughput", "20,500")
    assert parse_quantity(o.value, o.unit) == Quantity(20500.0, "msg/s")
    assert o.condition is not None and "publisher confirms" in o.condition and "RabbitMQ 3.11" in o.condition
    assert not any(x.value == "3.11" for x in single.observations), "a version is not a value"


def test_chinese_article_with_wan_and_yi(everything: DeterministicExtractor) -> None:
    source = doc("zh-kafka-rabbitmq-selection.md")
    q, plan = ask("Kafka 和 RabbitMQ 的吞吐量分别是多少？")
    result = everything.extract(source, q, plan)
    assert_verbatim(source, result)

    rabbit = find(result, "1.2万 条/秒")
    o = obs(rabbit, "throughput", "1.2万")
    assert o.entity == "RabbitMQ" and parse_quantity(o.value, o.unit) == Quantity(12000.0, "msg/s")
    assert o.condition is not None and "单节点" in o.condition and "1 KB 持久化消息" in o.condition

    kafka = find(result, "每秒 100 万条消息")
    o = obs(kafka, "ingest_throughput", "100 万")  # the sentence says 写入吞吐: an ingest throughput
    assert o.entity == "Apache Kafka" and parse_quantity(o.value, o.unit) == Quantity(1e6, "msg/s")
    assert o.condition is not None and "linger.ms=5" in o.condition and "100 字节的小消息" in o.condition

    scale = find(result, "7 万亿条消息")
    o = obs(scale, "daily_messages", "7 万亿")
    assert parse_quantity(o.value).value == 7e12 and not any(x.value.startswith("2019") for x in
                                                             scale.observations if isinstance(x.value, str))
    assert find(result, "9092 端口").observations[0].metric == "port"
    assert find(result, "ActiveMQ、RabbitMQ 单机吞吐量").type == "comparison"
    assert find(result, "Kafka 更合适").type == "claim"


def test_release_notes(everything: DeterministicExtractor) -> None:
    source = doc("kafka-4.0-release-notes.md")
    q, plan = ask("What are Kafka's default port and maximum message size?", ["Kafka"])
    result = everything.extract(source, q, plan)
    assert_verbatim(source, result)
    defaults = find(result, "Default client port 9092")
    # the sentence names no broker: the title's single subject ("Apache Kafka 4.0 Release Notes") is used
    assert obs(defaults, "port", "9092").entity == "Apache Kafka"
    size = obs(defaults, "max_message_size", "1")
    assert parse_quantity(size.value, size.unit) == Quantity(1.0, "MB")
    values = {str(o.value) for it in result.items for o in it.observations if o.metric != "java_version"}
    # release dates are values now (metric "released", unit date/year), each with the version it dates as its
    # condition; versions and KIP numbers are still not values
    assert values <= {"9092", "1", "18 March 2025", "2018"} and {"9092", "1"} <= values
    # what a part of the product needs to run is a bound on the platform's version, that part its condition: two
    # parts' minimums are two facts, no disagreement
    java = {(str(o.value), o.condition) for it in result.items for o in it.observations if o.metric == "java_version"}
    assert java == {("17", "minimum, Brokers, Connect and tools"), ("11", "minimum, Clients and Kafka Streams")}
    released = {str(o.value): o.condition for it in result.items for o in it.observations if o.metric == "released"}
    assert all(cond and re.search(r"\d\.\d", cond) for cond in released.values())


def test_ranking_and_limits() -> None:
    source = doc("bench-omb-reproduction.md")
    q, plan = ask("Which message broker has the highest throughput?", queries=["Kafka throughput MB/s"])
    top = DeterministicExtractor(HashEmbedder(), AliasResolver.load(), max_items=4).extract(source, q, plan)
    assert len(top.items) == 4 and any("590 MB/s" in it.quote for it in top.items)
    assert [it.score for it in top.items] == sorted((it.score for it in top.items), reverse=True)
    strict = DeterministicExtractor(HashEmbedder(), AliasResolver.load(), min_score=0.99).extract(source, q, plan)
    assert strict.items == []
    again = DeterministicExtractor(HashEmbedder(), AliasResolver.load(), max_items=4).extract(source, q, plan)
    assert again == top, "deterministic"


def test_sentence_units_on_raw_markdown() -> None:
    raw = (CORPUS / "bench-omb-reproduction.md").read_text("utf-8")
    units = sentence_units(raw)
    texts = [raw[u.start:u.end] for u in units]
    assert "Three broker nodes, i3en.2xlarge, 25 Gbps networking." in texts  # the "- " bullet trimmed
    assert not any(t.startswith(("#", "- ")) for t in texts)
    zh = "第一句。第二句有 1.2万 条/秒！Kafka 比 RabbitMQ 快吗？e.g. this stays whole. Next one."
    got = [zh[u.start:u.end] for u in sentence_units(zh)]
    assert "e.g. this stays whole." in got and not any(g.endswith("？") for g in got)


@pytest.mark.parametrize(("text", "expected"), [
    ("Kafka sustained 605 MB/s on three brokers.", "statistic"),
    ("Kafka is faster than RabbitMQ for log workloads.", "comparison"),
    ("Kafka 的吞吐高于 RabbitMQ。", "comparison"),
    ("Kafka is faster than it used to be.", "background"),  # one entity is no comparison
    ("Vendor lock-in is the main risk of a managed Pulsar.", "risk"),
    ("这种方案存在数据丢失的风险。", "risk"),
    ("In my opinion RabbitMQ is the better default for task queues.", "claim"),
    ("Kafka stores records in partitions.", "background"),
])
def test_classify(text: str, expected: str) -> None:
    linker = DeterministicExtractor(HashEmbedder(), AliasResolver.load()).linker
    found = linker.link([text])[0]
    assert classify(text, len({m.canonical for m in found}), bool(find_values(text))) == expected


@pytest.mark.parametrize(("text", "raw", "quantity"), [
    ("RabbitMQ reached 10.9k msg/s.", "10.9k", Quantity(10900.0, "msg/s")),
    ("MSK costs $0.5/hour per broker.", "$0.5/hour", Quantity(0.5, "USD/hour")),
    ("an mq.m5.large broker is listed at about $0.29 per hour", "$0.29 per hour", Quantity(0.29, "USD/hour")),
    ("单节点约 1.2万 条/秒", "1.2万", Quantity(12000.0, "msg/s")),
    ("日均处理约 3亿 条消息", "3亿", Quantity(3e8, "messages")),
    ("p99 was 1.5 s under load", "1.5", Quantity(1500.0, "ms")),
    ("CPU stayed at 60% during the test", "60", Quantity(60.0, "%")),
])
def test_values_keep_the_raw_form(text: str, raw: str, quantity: Quantity) -> None:
    (v,) = find_values(text)
    assert v.raw == raw and text[v.start:v.end].startswith(raw)
    assert parse_quantity(v.raw, v.unit if v.kind != "money" else None).close_to(quantity)


@pytest.mark.parametrize("text", [
    "Kafka 3.7 was released in 2024.", "Apache Kafka 4.0 was released on 18 March 2025.",
    "KIP-848 and KIP-932 landed.", "Run i3en.2xlarge nodes for 15-minute runs.", "1. Upgrade to 3.9.",
    "Use RabbitMQ 3.11.2 with Java 17.", "LinkedIn 在 2019 年公开表示", "Set linger.ms=5 first.",
])
def test_years_versions_and_list_numbers_are_not_values(text: str) -> None:
    # years and dates are read as calendar values (kind year/date: an observation only beside an event word)
    assert [v for v in find_values(text) if v.kind not in ("year", "date", "bare")] == []
    assert not has_statistic(text)


def test_conditions_and_aliases() -> None:
    linker = DeterministicExtractor(HashEmbedder(), AliasResolver.load()).linker
    text = ("Kafka version 3.7 on NVMe drives with fsync every message reached 210 MB/s with 1 KB messages "
            "and 3 brokers, while Rabbit MQ managed 40 MB/s.")
    (mentions,) = linker.link([text])
    got = {o.entity: o for o in observations(text, mentions, {"Apache Kafka", "RabbitMQ"})}
    assert set(got) == {"Apache Kafka", "RabbitMQ"}  # "Kafka" and "Rabbit MQ" resolved through the aliases
    cond = got["Apache Kafka"].condition or ""
    for part in ("version 3.7", "on NVMe drives", "fsync every message", "1 KB messages", "3 brokers"):
        assert part in cond
    assert got["RabbitMQ"].value == "40" and got["Apache Kafka"].value == "210"


def test_plan_entities_are_linked_even_without_aliases() -> None:
    extractor = DeterministicExtractor(HashEmbedder(), AliasResolver.load(), min_score=0.0)
    source = doc("redis-streams.md")
    q, plan = ask("How fast is Redis Streams, and what does Redis persist?", ["Redis", "Redis Streams"])
    items = extractor.extract(source, q, plan).items
    assert_verbatim(source, ExtractionResult(items=items))
    names = {e for it in items for e in it.entities}
    assert "Redis" in names and "Redis Streams" in names  # the longer name wins where both fit


def test_with_the_real_sentence_embedder() -> None:
    from openresearch.ingest.embed import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder()
    try:
        embedder.embed(["probe"])
    except Exception as exc:  # no weights offline, no torch: the hash embedder covers the logic
        pytest.skip(f"sentence-transformers model unavailable: {exc}")
    source = doc("bench-omb-reproduction.md")
    q, plan = ask("Which message broker has the highest throughput and the lowest p99 latency?")
    result = DeterministicExtractor(embedder, AliasResolver.load(), max_items=6).extract(source, q, plan)
    assert_verbatim(source, result)
    top = " ".join(it.quote for it in result.items)
    assert "590 MB/s" in top and "p99" in top
    assert all(it.type == "statistic" for it in result.items[:3])


def test_values_belong_to_the_entity_of_their_clause(everything: DeterministicExtractor) -> None:
    source = doc("bench-confluent-2020.html")  # an HTML page with full chrome, parsed by ingest
    q, plan = ask("Which message broker has the highest throughput?")
    result = everything.extract(source, q, plan)
    assert_verbatim(source, result)
    peak = find(result, "peak throughput of 605 MB/s")
    got = {(o.entity, o.value) for o in peak.observations}
    assert got == {("Apache Kafka", "605"), ("Apache Pulsar", "305"), ("RabbitMQ", "38")}
    assert peak.type == "statistic"  # three values, but no comparative word
    conditions = {o.entity: o.condition for o in peak.observations}
    assert conditions == {"Apache Kafka": None, "Apache Pulsar": None, "RabbitMQ": "mirrored queues"}


def test_linking_is_cached_per_text_until_a_name_is_added() -> None:
    """A source is read once per sub-question that finds it: its sentences are linked once, and again only when
    a plan adds a name (which may change what they link to)."""
    from openresearch.agents.extract.extract_rules import EntityLinker

    linker = EntityLinker(AliasResolver.load(), names={}, discover=False)
    text = "Zorblax stores 20 GB per node."
    assert linker.link([text]) == [[]]
    linker.add(["Zorblax"])
    (found,) = linker.link([text])
    assert [m.surface for m in found] == ["Zorblax"]
    found.clear()  # a caller changing its list does not change the cache
    assert [m.surface for m in linker.link([text])[0]] == ["Zorblax"]


def test_a_figure_of_an_asked_quantity_outranks_a_sentence_that_only_shares_words() -> None:
    text = ("FooDB is built for demanding series cardinality workloads in every deployment.\n\n"
            "It can handle up to 100 million active time series on one node.\n\n"
            "Series cardinality matters to every FooDB user and operator.")
    source = SourceDoc(id="S-1", url="local://foo.md", title="FooDB FAQ", text=text, content_hash="h")
    q = SubQuestion(id=question_id("What figures do the sources give for series cardinality?"),
                    text="What figures do the sources give for series cardinality?", role="comparison",
                    aspects=["max_series"], keywords=["series", "cardinality"], queries=["series cardinality"])
    plan = Plan(question=q.text, metrics=["max_series"], sub_questions=[q])
    top = DeterministicExtractor(HashEmbedder(), AliasResolver.load(), max_items=1).extract(source, q, plan)
    assert len(top.items) == 1 and "100 million active time series" in top.items[0].quote


def test_a_passage_that_opens_with_an_infobox_takes_the_qualified_name_whose_qualifier_it_states() -> None:
    """Two places share a name; a third passage never opens with its name but says which one it is about.
    Its value belongs to that place (where a disagreement with it is a conflict), whatever the reading order."""
    la = SourceDoc(id="S-la", url="local://a.txt", title="a", content_hash="1",
                   text="Port Vincent, Louisiana Port Vincent is a village in Livingston Parish, Louisiana. "
                        "The population was 741 at the 2010 census.")
    sa = SourceDoc(id="S-sa", url="local://b.txt", title="b", content_hash="2",
                   text="Port Vincent, South Australia Port Vincent is a small town on Yorke Peninsula. "
                        "Port Vincent had a population of 472.")
    box = SourceDoc(id="S-box", url="local://c.txt", title="c", content_hash="3",
                    text="Elevation 7 ft Area code 225 Port Vincent is a village in Livingston Parish, Louisiana, "
                         "United States. The population was 1,234 at the 2010 census.")
    q, plan = ask("What is the population of Port Vincent?", ["Port Vincent"], aspects=["population"])
    plan = plan.model_copy(update={"metrics": ["population"], "kind": "lookup"})

    def entities_of(order: list[SourceDoc]) -> set[str]:
        ex = DeterministicExtractor(HashEmbedder(), AliasResolver.load(), max_items=10, min_score=0.0)
        ex.prepare(order)
        items = [it for s in order for it in ex.extract(s, q, plan).items if s.id == "S-box"]
        return {o.entity for it in items for o in it.observations if o.metric == "population"}

    assert entities_of([box, la, sa]) == entities_of([la, sa, box]) == {"Port Vincent, Louisiana"}
    alone = DeterministicExtractor(HashEmbedder(), AliasResolver.load(), max_items=10, min_score=0.0)
    alone.prepare([box])  # no qualified names known: the plain name stays
    assert {o.entity for it in alone.extract(box, q, plan).items for o in it.observations} == {"Port Vincent"}


def _local(key: str, version: str, text: str) -> SourceDoc:
    return SourceDoc(id=f"S-{key}", url=f"local://{key}.txt", title=key, content_hash=version, text=text)


def test_a_copy_of_a_named_passage_is_about_what_that_passage_is_about() -> None:
    """An edited copy of a passage that lost its opening name (a mirror, an excerpt) shares most of its text with
    the original: its values belong to the original's entity, so a changed value there meets the original's as a
    conflict. A passage sharing no text stays as it was."""
    body = ("is a census-designated place in Harlan County, Tolvania. It is located on the north bank of the Vask "
            "river, and the county road runs through its centre. There were 412 households and 290 families. ")
    original = _local("o", "1", f"Ash Creek, Tolvania Ash Creek {body}The population was 1,624 at the 2010 census.")
    copy = _local("c", "2", f"The place {body}The population was 2,500 at the 2010 census.")
    other = _local("x", "3", "Ash Creek is a ghost town far away. The population was 12 at the 2010 census.")
    q, plan = ask("What is the population of Ash Creek?", ["Ash Creek"], aspects=["population"])
    plan = plan.model_copy(update={"metrics": ["population"], "kind": "lookup"})
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver.load(), max_items=10, min_score=0.0)
    ex.prepare([copy, other, original])

    def pop(s: SourceDoc) -> set[tuple[str, str]]:
        return {(o.entity, o.value) for it in ex.extract(s, q, plan).items for o in it.observations
                if o.metric == "population"}

    assert pop(copy) == {("Ash Creek, Tolvania", "2,500")}
    assert pop(other) == {("Ash Creek", "12")}


def test_one_known_qualified_name_is_taken_only_for_a_specific_qualifier() -> None:
    named = _local("n", "1", "Earl House (Vale Hill, Tolvania) Earl House is a house built in 1859.")
    box = _local("b", "2", "Location Route 45, Vale Hill, Tolvania Area less than one acre Built 1920")
    plain = _local("p", "3", "Earl Tower (Tolvania) Earl Tower is a tower built in 1901.")
    other = _local("o", "4", "Location Tolvania Built 1920")
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver.load())
    ex.prepare([named, box, plain, other])
    assert ex.by_qualifier("Earl House", box) == "Earl House (Vale Hill, Tolvania)"
    assert ex.by_qualifier("Earl Tower", other) == "Earl Tower"  # one word: another Earl Tower may be there too


def test_a_hatnote_naming_the_other_entity_does_not_qualify_a_passage() -> None:
    a = SourceDoc(id="S-a", url="local://a.txt", title="a", content_hash="1",
                  text="Danger Mouse (1981 TV series) Danger Mouse is a British animated series. It premiered in 1981.")
    b = SourceDoc(id="S-b", url="local://b.txt", title="b", content_hash="2",
                  text="Danger Mouse (2015 TV series) Danger Mouse is an updated version. It premiered in 2015.")
    c = SourceDoc(id="S-c", url="local://c.txt", title="c", content_hash="3",
                  text="For the 2015 series, see Danger Mouse (2015 TV series). Danger Mouse is a British animated "
                       "television series.")
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver.load())
    ex.prepare([a, b, c])
    assert ex.by_qualifier("Danger Mouse", c) == "Danger Mouse"
    assert ex.by_qualifier("Danger Mouse", a) == "Danger Mouse"  # "1981 TV series" only inside its own name


def test_a_look_up_of_a_date_no_metric_names_gets_its_value_as_an_observation(
        everything: DeterministicExtractor) -> None:
    text = ("Robert Hutchinson was a merchant in Charlottetown.\n\n"
            "In 1890 he returned to Geraldton, and was elected to the Geraldton Town Council in 1892.\n\n"
            "He was born in 1842.")
    source = SourceDoc(id="S-1", url="local://hutchinson.md", title="Robert Hutchinson", text=text,
                       content_hash="h")
    question = "When was Robert Hutchinson elected to a public office?"
    q = SubQuestion(id=question_id(question), text=question, entities=["Robert Hutchinson"])
    plan = Plan(question=question, kind="lookup", entities=["Robert Hutchinson"],
                attributes=["elected to a public office"], metrics=["elected_to_a_public_office"], sub_questions=[q])
    result = everything.extract(source, q, plan)
    assert_verbatim(source, result)
    got = [(o.metric, o.value) for it in result.items for o in it.observations]
    assert ("elected_to_a_public_office", "1892") in got
    assert ("elected_to_a_public_office", "1890") not in got and ("born", "1842") in got
