"""The opening answer: look-ups, comparisons of named metrics and selections, all cited and grounded."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.verify.judge import EmbeddingJudge
from openresearch.agents.verify.verifier import verify
from openresearch.agents.write.answer import (
    answer_section,
    base_name,
    best_statements,
    cell_values,
    metric_table,
    same_thing,
    value_text,
)
from openresearch.ingest.embed import SentenceTransformerEmbedder
from openresearch.models import Draft, EvidenceView, ObservationView, Plan, SourceView, SubQuestion

Obs = tuple[str, str, float, str, str, str]  # entity, metric, value, unit, raw value, condition


def ev(eid: str, quote: str, obs: list[Obs] | None = None, *, src: str = "a", entities: list[str] | None = None,
       score: float = 0.5, kind: str = "statistic") -> EvidenceView:
    return EvidenceView(
        id=eid, quote=quote, type=kind if obs is None or kind != "statistic" else "statistic", score=score,
        source=SourceView(id=f"S-{src}", url=f"local:///docs/{src}.txt", title=f"{src}.txt"),
        entities=entities or [o[0] for o in obs or []],
        observations=[ObservationView(id=f"O-{eid}-{i}", entity=e, metric=m, value=v, unit=u, raw_value=raw,
                                      raw_unit=u, condition=c) for i, (e, m, v, u, raw, c) in enumerate(obs or [])])


def plan(question: str, kind: str, entities: list[str], attributes: list[str], metrics: list[str],
         language: str = "en") -> Plan:
    return Plan(question=question, kind=kind, entities=entities, attributes=attributes, metrics=metrics,
                language=language,  # type: ignore[arg-type]
                sub_questions=[SubQuestion(id="Q-1", text=question, role="core", entities=entities)])


def test_names_and_qualifiers() -> None:
    assert base_name("Osgood, Indiana") == "Osgood"
    assert base_name("Douglas County Courthouse (Nebraska)") == "Douglas County Courthouse"
    assert same_thing("Osgood, Missouri", "Osgood") and not same_thing("Oswego", "Osgood")


def test_a_lookup_answers_with_the_value_and_its_citations(tmp_path: Path) -> None:
    a = ev("E-000000000001", "The population was 1,624 at the 2010 census.",
           [("Osgood, Indiana", "population", 1624, "people", "1,624", "2010 census")], src="a", score=0.9)
    b = ev("E-000000000002", "As of the census of 2010, there were 1,624 people in the town.",
           [("Osgood, Indiana", "population", 1624, "people", "1,624", "2010 census")], src="b", score=0.7)
    noise = ev("E-000000000003", "Osgood was platted in 1854 when the railroad was extended.", entities=["Osgood"],
               src="c", kind="background")
    p = plan("What is the population of Osgood, Indiana?", "lookup", ["Osgood, Indiana"], ["population"],
             ["population"])
    section = answer_section(p, {"Q-1": [a, b, noise]}, [])
    first = section.sentences[0]
    assert first.text.startswith("The population of Osgood, Indiana is 1,624 (2010 census)")
    assert set(first.citations) == {a.id, b.id}
    judge = EmbeddingJudge(SentenceTransformerEmbedder(cache_dir=tmp_path))
    verification = verify(Draft(title=p.question, sections=[section]), {e.id: e for e in (a, b, noise)}, [], judge)
    assert verification.phantom_citations == 0 and verification.numeric_faithfulness == 1.0
    assert [v.verdict for v in verification.verdicts] == ["PASS"], verification.verdicts


def test_same_name_entities_are_listed_apart_not_merged() -> None:
    ind = ev("E-00000000000a", "Osgood, Indiana: the population was 1,624 at the 2010 census.",
             [("Osgood, Indiana", "population", 1624, "people", "1,624", "")], src="a")
    mo = ev("E-00000000000b", "Osgood, Missouri: the population was 48 at the 2010 census.",
            [("Osgood, Missouri", "population", 48, "people", "48", "")], src="b")
    p = plan("What is the population of Osgood?", "lookup", ["Osgood"], ["population"], ["population"])
    text = answer_section(p, {"Q-1": [ind, mo]}, []).sentences[0].text
    assert "two different entities named Osgood" in text and "1,624" in text and "48" in text


def test_same_name_entities_show_dated_values_before_undated_ones() -> None:
    undated = ev("E-00000000000d", "5,195 people, 1,470 households, and 1,230 families.",
                 [("Osgood, Indiana", "population", 5195, "people", "5,195", "")], src="c")
    dated = ev("E-00000000000e", "The population was 1,624 at the 2010 census.",
               [("Osgood, Indiana", "population", 1624, "people", "1,624", "2010 census")], src="d")
    also = ev("E-00000000000f", "As of the 2010 census there were 2,500 people.",
              [("Osgood, Indiana", "population", 2500, "people", "2,500", "2010 census")], src="e")
    mo = ev("E-00000000000b", "Osgood, Missouri: the population was 48 at the 2010 census.",
            [("Osgood, Missouri", "population", 48, "people", "48", "")], src="b")
    p = plan("What is the population of Osgood?", "lookup", ["Osgood"], ["population"], ["population"])
    text = answer_section(p, {"Q-1": [undated, dated, also, mo]}, []).sentences[0].text
    assert "1,624" in text and "2,500" in text and "5,195" not in text, text


def test_a_lookup_without_observations_quotes_the_best_statement_without_a_wrapper() -> None:
    good = ev("E-0000000000c1", "Bobby Carpenter is a former American football linebacker.",
              entities=["Bobby Carpenter"], score=0.8, kind="background")
    off = ev("E-0000000000c2", "The weather in Ohio is mild.", entities=[], src="b", score=0.9, kind="background")
    p = plan("What sport is Bobby Carpenter associated with?", "lookup", ["Bobby Carpenter"], ["sport"], ["sport"])
    sentences = answer_section(p, {"Q-1": [good, off]}, []).sentences
    cited = [s for s in sentences if s.citations]
    assert [s.citations for s in cited] == [[good.id]]
    assert "American football" in cited[0].text and "According to" not in cited[0].text


def test_a_lookup_without_observations_prefers_the_statement_saying_what_the_focus_is() -> None:
    aside = ev("E-0000000000c3", "Orvale Air also operated charter flights.", entities=["Orvale Air"], score=0.9,
               kind="background")
    lead = ev("E-0000000000c4", "Orvale Air was an airline based in Tolva, Vask.", entities=["Orvale Air"],
              src="b", score=0.8, kind="background")
    p = plan("Where was Orvale Air based?", "lookup", ["Orvale Air"], ["location"], [])
    cited = [s for s in answer_section(p, {"Q-1": [aside, lead]}, []).sentences if s.citations]
    assert cited[0].citations == [lead.id]


def test_a_measure_keeps_the_unit_word_its_quote_writes_after_it() -> None:
    quota = ev("E-0000000000c5", "Total query time: 1500 seconds of query time every 30 seconds",
               [("Kestrel", "query_latency", 1_500_000.0, "ms", "1500", "")])
    assert value_text(quota, quota.observations[0]) == "1500 seconds"
    zh = ev("E-0000000000c7", "Kestrel 大概需要消耗 44851/5=8970T，8.9P空间。",
            [("Kestrel", "storage", 8.9e9, "MB", "8.9", "")])
    assert value_text(zh, zh.observations[0]) == "8.9P"  # a unit letter right before a Chinese character
    count = ev("E-0000000000c6", "Kestrel holds 2,000 dimensions.", [("Kestrel", "max_dimensions", 2000.0,
                                                                     "dimensions", "2,000", "")])
    assert value_text(count, count.observations[0]) == "2,000"
    half = ev("E-0000000000c8", "Kestrel has 1½ year of full support.",
              [("Kestrel", "full_support", 547.875, "days", "1½", "")])
    assert value_text(half, half.observations[0]) == "1½ year"  # a fraction is a number: its unit goes with it
    sample = ev("E-0000000000c8", "On average, sample size requires less or around **1 byte** after compression:",
                [("Kestrel", "bytes_per_sample", 1.0, "bytes/sample", "1", "")])
    assert value_text(sample, sample.observations[0]) == "1 byte"


def test_a_comparison_gives_one_cited_line_per_metric_and_says_what_is_missing() -> None:
    pg = ev("E-0000000000d1", "pgvector can index vectors with up to 2,000 dimensions.",
            [("pgvector", "max_dimensions", 2000, "dimensions", "2,000", "indexed")], src="pg")
    mil = ev("E-0000000000d2", "Milvus supports up to 32,768 dimensions per vector field.",
             [("Milvus", "max_dimensions", 32768, "dimensions", "32,768", "")], src="mil")
    p = plan("Compare pgvector, Milvus and Qdrant: maximum vector dimensions.", "comparison",
             ["pgvector", "Milvus", "Qdrant"], ["maximum vector dimensions"], ["max_dimensions"])
    first = answer_section(p, {"Q-1": [pg, mil]}, []).sentences[0]
    assert first.text.startswith("Maximum vector dimensions: pgvector 2,000 (indexed)")
    assert "Milvus 32,768" in first.text and "no figure found for Qdrant" in first.text
    assert first.citations == [pg.id, mil.id]
    # a metric the question asks for that no evidence gives: one line saying so, after the figures
    p = plan("Compare pgvector, Milvus and Qdrant: maximum vector dimensions and recall.", "comparison",
             ["pgvector", "Milvus", "Qdrant"], ["maximum vector dimensions", "recall"], ["max_dimensions", "recall"])
    sentences = answer_section(p, {"Q-1": [pg, mil]}, []).sentences
    assert sentences[0].text.startswith("Maximum vector dimensions: pgvector 2,000")
    assert sentences[1].text == "Recall: no figure found for pgvector, Milvus, Qdrant."
    assert sentences[1].kind == "gap" and not sentences[1].citations


def test_a_selection_recommends_on_the_requirement_with_the_figures() -> None:
    k = ev("E-0000000000e1", "Kafka sustained 605 MB/s on three brokers.",
           [("Apache Kafka", "throughput", 605, "MB/s", "605 MB/s", "")], src="k")
    r = ev("E-0000000000e2", "RabbitMQ reached 38 MB/s with mirrored queues.",
           [("RabbitMQ", "throughput", 38, "MB/s", "38 MB/s", "")], src="r")
    risk = ev("E-0000000000e3", "Running Kafka means operating ZooKeeper or KRaft controllers, a real burden.",
              entities=["Apache Kafka"], src="k2", kind="risk")
    p = plan("Which message broker should we choose for high-throughput event streaming: Kafka or RabbitMQ?",
             "selection", ["Apache Kafka", "RabbitMQ"], ["high-throughput event streaming"], ["throughput"])
    sentences = answer_section(p, {"Q-1": [k, r, risk]}, []).sentences
    assert sentences[0].text.startswith("For high-throughput event streaming, the evidence favours Apache Kafka")
    assert "605 MB/s" in sentences[0].text and "38 MB/s" in sentences[0].text
    assert any(s.citations == [risk.id] and s.text.startswith("Trade-off for Apache Kafka") for s in sentences)


def test_a_chinese_lookup_is_answered_in_chinese() -> None:
    m = ev("E-0000000000f1", "Milvus 单个向量字段最多支持 32,768 维。",
           [("Milvus", "max_dimensions", 32768, "dimensions", "32,768", "")], src="zh")
    p = plan("Milvus 的最大维度是多少？", "lookup", ["Milvus"], ["最大维度"], ["max_dimensions"], language="zh")
    section = answer_section(p, {"Q-1": [m]}, [])
    assert section.title == "结论" and section.sentences[0].text.startswith("Milvus的最大维度为 32,768")


def test_a_person_named_by_title_and_surname_is_the_full_name_with_that_surname() -> None:
    assert same_thing("Harriet Bea Lund", "Judge Lund") and same_thing("Ola Lund", "Attorney General Lund")
    assert not same_thing("Harriet Bea Moe", "Judge Lund") and not same_thing("Lundgren Hall", "Judge Lund")
    assert not same_thing("Fort Lund", "Fort Worth")
    assert same_thing("Golijska Tolva", "Tolva") and not same_thing("Golijska Tolvan", "Tolva")  # a one-word name
    assert same_thing("Republican Tolvan Party", "Tolvan Republican Party")
    assert not same_thing("Tolvan Party", "Tolvan Republican Party Congress")


def test_a_comparison_cell_states_figures_before_claims_against_a_competitor() -> None:
    rel = [ev(f"E-00000000001{i}", f"Kestrel ingestion is {i + 2}x faster than Orvale{i}.",
              [("Kestrel", "speedup", i + 2.0, "", f"{i + 2}x", f"vs Orvale{i}")], src=f"r{i}") for i in range(4)]
    fig = [ev(f"E-00000000002{i}", f"Kestrel ingests {i + 5}00k rows/s.",
              [("Kestrel", "ingest_throughput", (i + 5) * 1e5, "rows/s", f"{i + 5}00k", "")], src=f"f{i}")
           for i in range(5)]
    p = plan("Compare Kestrel and Orvale on ingestion throughput.", "comparison", ["Kestrel", "Orvale"],
             ["ingestion throughput"], ["ingest_throughput"])
    cell = cell_values(metric_table(p, [*rel, *fig])["ingestion throughput"]["Kestrel"])
    assert [f.text for f in cell[:4]] == [f"{i + 5}00k" for i in range(4)]  # four figures, then three claims
    assert [f.obs.metric for f in cell[4:]] == ["speedup"] * 3
    first = answer_section(p, {"Q-1": [*rel, *fig]}, []).sentences[0]
    # the answer gives the headline figure; the others are in the table and the sections
    assert sum(f"{i + 5}00k" in first.text for i in range(5)) == 1 and "x faster" not in first.text
    generic = ev("E-000000000030", "Kestrel ingestion is 9x faster than row-based execution.",
                 [("Kestrel", "speedup", 9.0, "", "9x", "vs row-based execution")], src="g")
    cell = cell_values(metric_table(p, [generic, *rel, *fig])["ingestion throughput"]["Kestrel"])
    assert "9x" not in [f.text for f in cell]  # a claim against a product first; three of those fill the cell


def test_best_statements_give_a_sentence_two_copies_share_once() -> None:
    a = ev("E-0000000000f1", "Tolva Stadium was built in 1930.", entities=["Tolva Stadium"], src="a", kind="background")
    b = ev("E-0000000000f2", "Tolva Stadium was built in 1930.", entities=["Tolva Stadium"], src="b", kind="background")
    c = ev("E-0000000000f3", "Tolva Stadium is the home venue of Orvale FC.", entities=["Tolva Stadium"], src="c",
           score=0.1, kind="background")
    said = best_statements("en", [a, b, c], ["Tolva Stadium"], ["team"])
    assert [x.citations for x in said] == [[a.id, b.id], [c.id]]  # once, citing both copies


def test_a_fuller_name_is_the_same_thing_and_a_different_first_name_is_not() -> None:
    assert same_thing("Edvin Karl Lund", "Edvin Lund") and same_thing("Edvin Lund (skier)", "Edvin Lund")
    assert not same_thing("Maja Lund", "Edvin Lund") and not same_thing("Edvin Karl Moe", "Edvin Lund")


def test_a_lookup_states_its_value_in_the_voice_the_question_asks_in() -> None:
    def first(question: str, attr: str, quote: str, value: float, unit: str, raw: str) -> str:
        item = ev("E-0000000000b1", quote, [("Ada Rook", attr.replace(" ", "_"), value, unit, raw, "")])
        p = plan(question, "lookup", ["Ada Rook"], [attr], [attr.replace(" ", "_")])
        return answer_section(p, {"Q-1": [item]}, []).sentences[0].text
    assert first("When was Ada Rook elected to a public office?", "elected to a public office",
                 "Ada Rook was elected to the town council on 24 July 1900.", 19000724, "date",
                 "24 July 1900").startswith("Ada Rook was elected to a public office on 24 July 1900 [")
    assert first("When was Ada Rook first published?", "first published", "Ada Rook was first published in 1911.",
                 1911, "year", "1911").startswith("Ada Rook was first published in 1911 [")
    assert first("When did Ada Rook die?", "died", "Ada Rook died in 1931 at her home.", 1931, "year",
                 "1931").startswith("Ada Rook died in 1931 [")
    assert first("How many libraries are part of Ada Rook?", "libraries", "Ada Rook consists of 15 libraries.",
                 15, "libraries", "15").startswith("The number of libraries of Ada Rook is 15 [")
    # a verb the question writes in its base form is put in the past, its words as the question writes them
    assert first("When did Ada Rook start playing for Papua New Guinea?", "start playing for papua new guinea",
                 "Ada Rook started playing for Papua New Guinea in 1920.", 1920, "year", "1920").startswith(
        "Ada Rook started playing for Papua New Guinea in 1920 [")
    assert first("When did Ada Rook become the Earl of Mar?", "become the earl of mar", "She became Earl in 1920.",
                 1920, "year", "1920").startswith("Ada Rook became the Earl of Mar in 1920 [")
    assert first("When was Ada Rook first broadcast?", "first broadcast", "Ada Rook was first broadcast on 7 July "
                 "1965.", 19650707, "date", "7 July 1965").startswith("Ada Rook was first broadcast on 7 July 1965 [")
    # a count of something not plural keeps the plain form
    assert first("How many people live in Ada Rook?", "population", "Ada Rook has 428 people.", 428, "people",
                 "428").startswith("The population of Ada Rook is 428")


def test_an_event_lookup_reads_as_a_sentence_and_a_number_only_in_the_name_is_not_restated() -> None:
    built = ev("E-0000000000a1", "The hall was completed in 1911 by the county.",
               [("Brenner Hall", "built", 1911, "year", "1911", "")], src="a")
    p = plan("When was Brenner Hall built?", "lookup", ["Brenner Hall"], ["built"], ["built"])
    assert answer_section(p, {"Q-1": [built]}, []).sentences[0].text.startswith("Brenner Hall was built in 1911 [")
    unit = ev("E-0000000000a2", "The squadron was formed on 3 May 1951 at a northern base.",
              [("417 Squadron", "founded", 19510503, "date", "3 May 1951", "")], src="b")
    p = plan("417 Squadron was formed in which year?", "lookup", ["417 Squadron"], ["formed"], ["founded"])
    first = answer_section(p, {"Q-1": [unit]}, []).sentences[0]
    assert first.text.startswith("Formed: 3 May 1951 [") and first.citations == [unit.id]


def test_a_comparison_that_names_no_entity_tabulates_the_entities_the_evidence_reports() -> None:
    a = ev("E-0000000000b1", "Kestrel stores about 1.3 bytes per sample on disk.",
           [("Kestrel", "bytes_per_sample", 1.3, "bytes/sample", "1.3 bytes per sample", "")], src="k")
    b = ev("E-0000000000b2", "Plover needs 7x less storage than Kestrel.",
           [("Plover", "storage_ratio", 7, "x", "7x", "vs Kestrel")], src="p")
    p = plan("What storage per sample do the vendors document?", "overview", [], ["storage per sample"],
             ["bytes_per_sample"])
    first = answer_section(p, {"Q-1": [a, b]}, []).sentences[0]
    assert "Kestrel 1.3 bytes per sample" in first.text and "Plover 7x (vs Kestrel)" in first.text
    assert set(first.citations) == {a.id, b.id}


def test_a_bare_speedup_answers_the_quantity_its_quote_or_title_names_and_no_other() -> None:
    fast = ev("E-0000000000c7", "On 8 threads, Kestrel is 2.5x faster than Plover.",
              [("Kestrel", "speedup", 2.5, "", "2.5", "vs Plover, 8 threads")], src="k")
    fast.source.title = "How Kestrel reached a write speed of 3 million rows per second"
    p = plan("Compare Kestrel and Plover on ingestion throughput and query latency.", "comparison",
             ["Kestrel", "Plover"], ["ingestion throughput", "query latency"], ["ingest_throughput", "query_latency"])
    sentences = answer_section(p, {"Q-1": [fast]}, []).sentences
    assert [s.text.split(":")[0] for s in sentences if s.citations] == ["Ingestion throughput"]
    assert "Kestrel 2.5x (vs Plover, 8 threads)" in sentences[0].text


def test_one_value_under_one_condition_is_one_entry_however_its_condition_is_spaced() -> None:
    old = ev("E-000000000031", "如果一个插入请求带200条以上记录，单核就能达到每秒插入100万条记录的速度。",
             [("TDengine", "ingest_throughput", 1_000_000, "rows/s", "100万", "一个插入请求带200条以上记录, 单核")],
             src="a")
    new = ev("E-000000000032", "如果一个插入请求带 200 条以上记录，单核就能达到每秒插入 100 万条记录的速度。",
             [("TDengine", "ingest_throughput", 1_000_000, "rows/s", "100 万", "一个插入请求带 200 条以上记录, 单核")],
             src="b")
    p = plan("TDengine 的写入吞吐是多少？", "comparison", ["TDengine"], ["写入吞吐"], ["ingest_throughput"], "zh")
    text = " ".join(s.text for s in answer_section(p, {"Q-1": [old, new]}, []).sentences)
    assert text.count("100") == 1 and "[E-000000000031][E-000000000032]" in text.replace(" ", ""), text


def test_two_attributes_of_one_kind_are_two_rows_each_with_the_sources_own_words_for_it() -> None:
    rows = [ev("E-000000000101", "frobz | 2.5 | 1.4",
               [("frobz", "parse", 2500.0, "MB/s", "2.5", "corpus.json"),
                ("frobz", "stringify", 1400.0, "MB/s", "1.4", "corpus.json")], src="t"),
            ev("E-000000000102", "quux | 0.3 | 0.6",
               [("quux", "parse", 300.0, "MB/s", "0.3", "corpus.json"),
                ("quux", "stringify", 600.0, "MB/s", "0.6", "corpus.json")], src="t"),
            ev("E-000000000103", "frobz minifies at 6 GB/s.",
               [("frobz", "throughput", 6000.0, "MB/s", "6 GB/s", "")], src="p"),
            ev("E-000000000104", "quux | 1228 | 34",
               [("quux", "throughput", 1228.0, "", "1228", "corpus.json serialization")], src="o")]
    for e in rows[:2]:  # a table row's unit is its header's: the observation keeps it as written
        for o in e.observations:
            o.raw_unit = "GB/s"
    p = plan("Compare frobz and quux on parsing throughput for corpus.json and serialization (stringify) throughput.",
             "comparison", ["frobz", "quux"],
             ["parsing throughput for corpus.json", "serialization (stringify) throughput"], ["throughput"])
    table = metric_table(p, rows)
    assert list(table) == ["parsing throughput for corpus.json", "serialization (stringify) throughput"]
    # the figures that say the attribute's own words, not every throughput of the sources
    assert {e: [f.text for f in fs] for e, fs in table["parsing throughput for corpus.json"].items()} == {
        "frobz": ["2.5 GB/s"], "quux": ["0.3 GB/s"]}
    # one unit family per row: a bare operations count does not sit among GB/s figures
    assert {e: [f.text for f in fs] for e, fs in table["serialization (stringify) throughput"].items()} == {
        "frobz": ["1.4 GB/s"], "quux": ["0.6 GB/s"]}
    first = answer_section(p, {"Q-1": rows}, []).sentences[0]
    assert first.text.startswith("Parsing throughput for corpus.json: frobz 2.5 GB/s")
    assert verify_numbers(first.text, rows)


def verify_numbers(text: str, cited: list[EvidenceView]) -> bool:
    from openresearch.agents.verify.claim_text import unmatched_numbers
    from openresearch.agents.verify.verifier import grounding

    texts, extra = grounding(cited)
    return not unmatched_numbers(text, texts, extra)


def test_a_row_of_a_question_about_dates_holds_dates() -> None:
    rows = [ev("E-000000000201", "Quillo 4.2.0 beta 1: Wednesday, 2024-05-08",
               [("Quillo 4.2", "beta_1_date", 2024.35, "date", "2024-05-08", "4.2.0")], src="s"),
            ev("E-000000000202", "Quillo 4.2 beta 1 is followed by 5 years of fixes.",
               [("Quillo 4.2", "beta_1_fix", 1826.0, "days", "5 years", "")], src="t")]
    asked = plan("For Quillo 4.2, what are the key dates: the feature freeze (beta 1)?", "comparison",
                 ["Quillo 4.2"], ["feature freeze (beta 1)"], ["feature_freeze_beta_1"])
    cell = metric_table(asked, rows)["feature freeze (beta 1)"]["Quillo 4.2"]
    assert [f.text for f in cell] == ["2024-05-08"]
    # with no date at all, the row says none was found rather than show the span
    assert metric_table(asked, rows[1:])["feature freeze (beta 1)"] == {}
    # the same figures for a question that does not ask for dates keep both
    plain = plan("For Quillo 4.2, what about the feature freeze (beta 1)?", "comparison", ["Quillo 4.2"],
                 ["feature freeze (beta 1)"], ["feature_freeze_beta_1"])
    assert len(metric_table(plain, rows)["feature freeze (beta 1)"].get("Quillo 4.2", [])) == 2


def test_which_versions_with_dates_changed_a_setting_answers_with_its_values_and_their_releases() -> None:
    rows = [ev("E-000000000211", "options.page_buffer_size changes from 4MB to 64MB.",
               [("Quillo", "page_buffer_size", 64.0, "MB", "64", "changed from 4MB, 4.7.0 (4/8/2016)")], src="s"),
            ev("E-000000000212", "options.page_buffer_size is 128MB in the tuning guide.",
               [("Quillo", "page_buffer_size", 128.0, "MB", "128", "tuning guide")], src="t")]
    asked = plan("Which versions (and dates) changed Quillo's page_buffer_size, from what to what?", "overview",
                 ["Quillo"], ["page_buffer_size"], ["page_buffer_size"])
    # no figure is a date: the value a dated release set is the answer, with its release and old value
    assert [f.text for f in metric_table(asked, rows)["page_buffer_size"]["Quillo"]] == ["64MB"]


def test_two_versions_of_one_product_are_two_things() -> None:
    assert not same_thing("Quillo 3.1", "Quillo 3.12") and not same_thing("Quillo 3.12", "Quillo 3.13")
    assert same_thing("Quillo 3.12", "Quillo 3.12") and same_thing("Quillo", "Quillo 3.12")
    assert same_thing("Quillo 20.x", "Quillo 20")


def test_headline_figures_compare_like_with_like() -> None:
    rows = [ev("E-000000000301", "Encoder_Parallel_Frobz 900 MB/s",
               [("frobz", "throughput", 900.0, "MB/s", "900", "Encoder Parallel Fast")], src="a"),
            ev("E-000000000302", "Encoder_Generic_Frobz 400 MB/s",
               [("frobz", "throughput", 400.0, "MB/s", "400", "Encoder Generic")], src="a"),
            ev("E-000000000303", "Encoder_Parallel_Binding_Quux 2100 MB/s",
               [("quux", "throughput", 2100.0, "MB/s", "2100", "Encoder Parallel Binding")], src="a"),
            ev("E-000000000304", "Encoder_Generic_Quux 300 MB/s",
               [("quux", "throughput", 300.0, "MB/s", "300", "Encoder Generic")], src="a")]
    p = plan("Compare frobz and quux on encoding throughput.", "comparison", ["frobz", "quux"],
             ["encoding throughput"], ["throughput"])
    row = metric_table(p, rows)["encoding throughput"]
    assert {e: cell_values(fs)[0].text for e, fs in row.items()} == {"frobz": "400 MB/s", "quux": "300 MB/s"}


def test_two_asked_sizes_do_not_both_show_a_figure_that_says_only_one_of_them() -> None:
    rows = [ev("E-000000000201", "(A zorkalloc page contains blocks of one size class and is usually 64KiB.)",
               [("zorkalloc", "page_size", 64 * 1024.0, "B", "64KiB", "")], src="z"),
            ev("E-000000000202", "zorkalloc reserves large arenas (usually 1GiB) of address space from the OS.",
               [("zorkalloc", "arena_size", 1024.0 ** 3, "B", "1GiB", "")], src="z"),
            ev("E-000000000203", "Quuxmem uses 2MiB.",
               [("Quuxmem", "size", 2 * 1024.0 ** 2, "B", "2MiB", "")], src="q")]
    p = plan("How do zorkalloc and Quuxmem compare on (1) the granularity of the basic unit (page/chunk size) and "
             "(2) the size of the large address-space reservations (arenas)?", "comparison", ["zorkalloc", "Quuxmem"],
             ["granularity of the basic unit (page/chunk size)", "size of the large address-space reservations"],
             ["granularity_of_the_basic_unit_page_chunk_size", "size_of_the_large_address_space_reservations"])
    table = metric_table(p, rows)
    unit_row, reserve_row = (table[a] for a in p.attributes)
    assert [f.text for f in unit_row["zorkalloc"]] == ["64KiB"]  # "page" is the first row's word
    assert [f.text for f in reserve_row["zorkalloc"]] == ["1GiB"]  # "large" is the second's
    # a figure that says neither row's words more stays in both
    assert [f.text for f in unit_row["Quuxmem"]] == [f.text for f in reserve_row["Quuxmem"]] == ["2MiB"]


def test_a_cell_gives_the_lines_other_figure_in_a_unit_the_question_asks_for() -> None:
    from openresearch.agents.write.answer import asked_units

    q = "How fast do Frobz and Quux encode (ns/op, MB/s)?"
    assert asked_units(q) == {"ns/op", "mb/s"} and asked_units("Is zed/json faster?") == frozenset()
    line = "BenchmarkEncoder_Generic_Frobz-16 32393 ns/op 402.40 MB/s"
    items = [ev("E-1", line, [("Frobz", "throughput", 402.4, "MB/s", "402.40", "Encoder Generic"),
                              ("Frobz", "time_per_op", 32393, "ns/op", "32393", "Encoder Generic")])]
    p = plan(q, "comparison", ["Frobz", "Quux"], ["encode throughput"], ["throughput"])
    cell = metric_table(p, items)["encode throughput"]["Frobz"][0]
    assert cell.text == "402.40 MB/s (32393 ns/op)"
    # a question that names no such unit gets the figure alone
    p = plan("How fast do Frobz and Quux encode?", "comparison", ["Frobz", "Quux"], ["encode throughput"],
             ["throughput"])
    assert metric_table(p, items)["encode throughput"]["Frobz"][0].text == "402.40 MB/s"


def test_a_value_is_read_where_the_quote_writes_it_alone() -> None:
    # the "2" of "every 2 months", not the "2" of the version "3.12" before it ("2 received")
    bugfix = ev("E-0000000000d1", "3.12 received bugfix updates approximately every 2 months for 18 months.",
                [("Kestrel", "bugfix_update_interval", 2.0, "days", "2", "")])
    assert value_text(bugfix, bugfix.observations[0]) == "2 months"


def test_a_row_shows_the_asked_size_and_a_runs_median_before_its_extremes() -> None:
    def row_of(eid: str, entity: str, pages: int, median: float, low: float, high: float) -> EvidenceView:
        quote = f"{entity} | {pages} | {median:g} | {low:g} | {high:g}"
        cond = f"{pages} pages, Scenario: minimal"
        return ev(eid, quote, [(entity, "max_time", high, "ms", f"{high:g}", cond),
                               (entity, "median_time", median, "ms", f"{median:g}", cond),
                               (entity, "min_time", low, "ms", f"{low:g}", cond)], src="run")

    rows = [row_of("E-000000000501", "quux", 10, 30, 29, 31), row_of("E-000000000502", "quux", 1000, 283, 244, 363),
            row_of("E-000000000503", "frobz", 10, 13, 12, 13), row_of("E-000000000504", "frobz", 1000, 179, 179, 181)]
    p = plan("How do quux and frobz compare on build time for a 1,000-page site?", "comparison", ["quux", "frobz"],
             ["build time for a 1,000-page site"], ["build_time"])
    row = metric_table(p, rows)["build time for a 1,000-page site"]
    assert {e: cell_values(fs)[0].text for e, fs in row.items()} == {"quux": "283 ms", "frobz": "179 ms"}
    assert {e: fs[0].obs.metric for e, fs in row.items()} == {"quux": "median_time", "frobz": "median_time"}


def test_defaults_asked_of_one_product_are_answered_by_defaults_each_with_its_condition() -> None:
    rows = [ev("E-000000000601", "Default is 60.", [("quux", "quality", 60.0, "", "60", "default, AVIF")], src="i"),
            ev("E-000000000602", "Default is 75.", [("quux", "quality", 75.0, "", "75", "default, JPEG")], src="i"),
            ev("E-000000000603", "quux | 10 | 30 | 29", [("quux", "median_time", 30.0, "ms", "30", "10 pages")],
               src="b"),
            ev("E-000000000604", "Default is 10.", [("quux", "encoder_speed", 10.0, "", "10", "default")], src="i")]
    p = plan("What are quux's default settings for image encoding (quality, AVIF encoder speed) and content timeout?",
             "overview", ["quux"], ["quality", "AVIF encoder speed", "content timeout"],
             ["quality", "avif_encoder_speed", "content_timeout"])
    table = metric_table(p, rows)
    assert [f.text for f in table["quality"]["quux"]] == ["60", "75"]
    assert [f.text for f in table["AVIF encoder speed"]["quux"]] == ["10"]  # a unitless setting, two words shared
    assert "quux" not in table["content timeout"]  # a run's time is no default timeout
    text = " ".join(s.text for s in answer_section(p, {"Q-1": rows}, []).sentences)
    assert "60 (default, AVIF)" in text and "75 (default, JPEG)" in text


def test_a_cell_gives_each_sources_figure_before_one_sources_other_runs() -> None:
    def run(eid: str, entity: str, metric: str, value: float, unit: str, cond: str, src: str) -> EvidenceView:
        return ev(eid, f"{entity} | {value:g}", [(entity, metric, value, unit, f"{value:g}", cond)], src=src)

    rows = [run("E-000000000701", "quux", "median_time", 283.0, "ms", "1000 pages, minimal", "run"),
            run("E-000000000702", "quux", "median_time", 1853.0, "ms", "1000 pages, heavy", "run"),
            run("E-000000000703", "quux", "avg_time", 0.305, "s", "1000 pages", "other"),
            run("E-000000000704", "frobz", "median_time", 179.0, "ms", "1000 pages, minimal", "run")]
    p = plan("How do quux and frobz compare on build time for 1000 pages?", "comparison", ["quux", "frobz"],
             ["build time for 1000 pages"], ["build_time"])
    cell = cell_values(metric_table(p, rows)["build time for 1000 pages"]["quux"])
    assert [f.text for f in cell] == ["283 ms", "0.305 s", "1853 ms"]


def test_a_figure_stays_in_the_row_whose_every_word_it_says() -> None:
    rows = [ev("E-000000000801", "-p, --port int port on which the server will listen (default 1313)",
               [("quux", "port", 1313.0, "", "1313", "default")], src="cli")]
    p = plan("What are quux's default settings for the server (port, live-reload port)?", "overview", ["quux"],
             ["port", "live-reload port"], ["port", "live_reload_port"])
    table = metric_table(p, rows)
    assert [f.text for f in table["port"]["quux"]] == ["1313"]
    assert "quux" not in table["live-reload port"]  # "live" and "reload" are not said of it


def test_a_row_no_list_names_takes_the_figures_that_say_what_the_size_is_of() -> None:
    q = "Out of the box, how big are the bundle files zorbq and Quux write, and what is each one's minimum frame size?"
    p = plan(q, "comparison", ["zorbq", "Quux"], ["bundle file size", "minimum frame size"],
             ["bundle_file_size", "min_frame_size"])
    items = [ev("E-000000000301", "Bundles of 20-40MB each are written to the store.",
                [("zorbq", "size", 30.0, "MB", "20-40MB", "")], src="z"),
             ev("E-000000000302", "| zorbq gzip | 87.8 | 28% |", [("zorbq", "size", 87.8, "MB", "87.8 MiB", "gzip")],
                src="z"),
             ev("E-000000000303", "Restores of 1.7 GiB took a while.", [("Quux", "size", 1700.0, "MB", "1.7 GiB", "")],
                src="q"),
             ev("E-000000000304", "minimum frame size = 128 kiB",
                [("Quux", "min_frame_size", 0.128, "MB", "128 kiB", "default")], src="q")]
    table = metric_table(p, items)
    # (the bundles' figure, not a benchmark's output size; a bare size of nothing named is no default of either)
    assert {e: [f.text for f in fs] for e, fs in table["bundle file size"].items()} == {"zorbq": ["20-40MB"]}
    assert {e: [f.text for f in fs] for e, fs in table["minimum frame size"].items()} == {"Quux": ["128 kiB"]}


def test_a_default_a_release_began_is_answered_with_the_release_its_day_and_the_value_with_its_unit() -> None:
    from openresearch.agents.plan.analysis import analyse

    q = "In which release did Zorbq start defaulting to 4 MiB frames?"
    a = analyse(q)
    p = plan(q, "overview", ["Zorbq"], a.attributes, a.metrics)
    note = ev("E-000000000401", "Zorbq now uses a target frame size of 4 MiB by default.",
              [("Zorbq", "target_frame_size", 21000.0, "version", "0.21.0", "default changed in"),
               ("Zorbq", "target_frame_size", 4.0, "MiB", "4", "default since 0.21.0")], src="z")
    heading = ev("E-000000000402", "Changelog for Zorbq 0.21.0 (2024-03-09)",
                 [("Zorbq", "release_date", 20240309.0, "date", "2024-03-09", "0.21.0")], src="z")
    row = metric_table(p, [note, heading])["frame default changed"]["Zorbq"]
    assert [f.text for f in row] == ["0.21.0 (2024-03-09)", "4 MiB"], [f.text for f in row]
    # (where the cell shows no value of its own, the note says the value it set, with its unit, as written)
    from openresearch.agents.write.answer import Found, _value_set

    assert _value_set(Found("0.21.0", note.observations[0], [note])) == "4 MiB"
