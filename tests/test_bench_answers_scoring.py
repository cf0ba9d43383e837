"""bench/answers_scoring.py: pure scoring of made-up reports (nothing here comes from the shared data sets)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import answers_scoring as S

E1, E2, E3, E4 = "E-111111111111", "E-222222222222", "E-333333333333", "E-444444444444"


def sent(text: str, kind: str = "claim") -> dict[str, Any]:
    return {"text": text, "citations": S.CITE.findall(text), "kind": kind, "key": True}


def side(ev: str, raw: str, value: float, quote: str, condition: str = "") -> dict[str, Any]:
    return {"evidence_id": ev, "source_id": "S-1", "source_url": f"local://documents/{ev}.txt", "value": value,
            "raw_value": raw, "unit": "people", "condition": condition, "quote": quote}


def evidence(ev: str, quote: str, doc: str = "doc1.txt", entities: list[str] | None = None) -> dict[str, Any]:
    return {"id": ev, "quote": quote, "source": {"url": f"local://documents/{doc}", "title": None},
            "entities": entities or []}


def report(sections: list[tuple[str, list[dict[str, Any]]]], conflicts: list[dict[str, Any]] | None = None,
           ev: list[dict[str, Any]] | None = None, lead: str = "") -> tuple[dict[str, Any], str]:
    js = {"sections": [{"title": t, "sentences": s} for t, s in sections], "conflicts": conflicts or [],
          "evidence": ev or []}
    md = ["# Title", "", "> Question: q  ", "> Run `r`", ""]
    if lead:
        md += [lead, ""]
    for t, s in sections:
        md += [f"## {t}", "", " ".join(x["text"] for x in s), ""]
    md += ["## Evidence", "", "| id | quote | source | published |", "|---|---|---|---|",
           f"| {E1} | “the town had 9,999 people in 1850” | x <local://documents/doc1.txt> | |"]
    return js, "\n".join(md)


# --- numbers, dates, values ----------------------------------------------------------------------------------

def test_numbers_drop_separators_ids_urls_and_glued_digits() -> None:
    text = (f"Quux had 3,559 people [{E1}] at 959k rows/s on m5.8xlarge with p99 of 12 ms, v3.0.5.0, "
            "see local://documents/doc7.txt; According to docs0: 1.4 million")
    assert S.numbers(text) == [3559, 959, 12, 1.4]
    assert S.numbers("5_000 in one mode, 15_000 in the other") == [5000, 15000]  # digits grouped as code writes them


def test_dates_are_normalised_in_several_forms() -> None:
    assert "1829-07-02" in S.dates("born 2 July 1829 in a village")
    assert "1829-07-02" in S.dates("born on July 2, 1829")
    assert "1974-10-01" in S.dates("formed October 1st, 1974")
    assert "1990-11" in S.dates("in November 1990")
    assert "--10-07" in S.dates("each 7 October")
    assert S.dates("November 1990") == {"1990-11"}  # not November 19


def test_parse_value_kinds() -> None:
    assert S.parse_value("2 July 1829").kind == "date"
    assert S.parse_value("2 July 1829").year == 1829
    v = S.parse_value("3,559 people")
    assert (v.kind, v.numbers) == ("number", (3559.0,))
    assert S.parse_value("1861").year == 1861
    t = S.parse_value("A convention")
    assert (t.kind, t.phrase) == ("text", "convention")


def test_value_in_text() -> None:
    assert S.value_in(S.parse_value("3,559 people"), "there were 3559 residents")
    assert not S.value_in(S.parse_value("3,559 people"), "there were 35,590 residents")
    assert S.value_in(S.parse_value("2 July 1829"), "born July 2, 1829")
    assert not S.value_in(S.parse_value("2 July 1829"), "born 1829")
    assert S.value_in(S.parse_value("Assamese-language"), "an assamese language series")
    assert not S.value_in(S.parse_value("Golf"), "a golfer")


def test_pair_in_counts_dates_by_year_only_when_years_differ() -> None:
    g, w = S.parse_value("2 July 1829"), S.parse_value("5 May 1850")
    assert S.pair_in(g, w, "one source says 1829, another 1850")
    same_year = S.parse_value("5 July 1829")
    assert not S.pair_in(g, same_year, "sources say 1829")
    assert S.pair_in(g, same_year, "2 July 1829 versus 5 July 1829")
    assert not S.pair_in(g, S.parse_value("2 July 1829"), "2 July 1829")


# --- parsing a report ----------------------------------------------------------------------------------------

def test_parse_report_units_sections_and_lead() -> None:
    js, md = report([("Answer", [sent(f"Quux had 3,559 people [{E1}]."), sent("Nothing more.", "gap")]),
                     ("Later", [sent(f"Other things [{E2}].")])],
                    lead=f"Short answer: 3,559 [{E1}]. | not a table")
    p = S.parse_report(js, md)
    texts = [(u.text, u.section, u.kind) for u in p.units]
    assert (f"Quux had 3,559 people [{E1}].", 0, "claim") in texts
    assert (f"Other things [{E2}].", 1, "claim") in texts
    assert any(u.kind == "prose" and u.section == 0 and u.citations == (E1,) for u in p.units)  # the lead
    assert len([u for u in p.units if "Other things" in u.text]) == 1  # md prose of json sections not doubled
    assert p.first_paragraph.startswith("Short answer")
    assert {u.text for u in p.cited} >= {f"Quux had 3,559 people [{E1}]."}
    assert not any("9,999" in u.text for u in p.units)  # the evidence appendix is not the body


def test_parse_report_body_table_rows_are_units() -> None:
    js, md = report([("Comparison", [])])
    md = md.replace("## Comparison\n\n", f"## Comparison\n\n| metric | Quux |\n|---|---|\n| people | 3,559 [{E1}] |\n")
    p = S.parse_report(js, md)
    rows = [u for u in p.units if u.kind == "table"]
    assert [r.citations for r in rows] == [(), (E1,)]
    assert p.first_paragraph.startswith("| metric")


def test_conflicts_from_pairs_groups_or_the_markdown_table() -> None:
    pair = {"entity": "Quux", "metric": "population", "unit": "people", "relative_difference": 0.5,
            "a": side(E1, "3,559", 3559, "Quux had 3,559 people"), "b": side(E2, "10,000", 10000, "Quux: 10,000")}
    group = {"entity": "Quux", "metric": "population", "values": [
        {"value": 3559, "raw_value": "3,559", "evidence_ids": [E1, E3]}, {"value": 10000, "raw_value": "10k",
                                                                          "evidence_ids": [E2]}]}
    for c in (pair, group):
        js, md = report([("A", [])], conflicts=[c])
        (view,) = S.parse_report(js, md).conflicts
        assert S.has_number(S.numbers(view.text), 3559) and S.has_number(S.numbers(view.text), 10000)
        assert E1 in view.evidence_ids and E2 in view.evidence_ids
    grouped = {"id": "C-1", "entity": "Quux", "metric": "size", "unit": "MB", "condition": "", "values": [
        {"value": 128.0, "unit": "MB", "raw_values": ["128 MiB"], "evidence_ids": [E1], "conditions": [],
         "quotes": ["The default maximum message size is 128 MiB."]},
        {"value": 0.001, "unit": "MB", "raw_values": ["1 KB"], "evidence_ids": [E2, E3], "conditions": ["x"],
         "quotes": ["Tests with 1 KB messages.", "1 KB payloads"]}]}
    js, md = report([("A", [])], conflicts=[grouped])
    (view,) = S.parse_report(js, md).conflicts
    assert view.values[0].startswith("128 MiB") and view.values[1].startswith("1 KB")  # as written, not 0.001
    assert view.side_quotes == (("The default maximum message size is 128 MiB.",),
                                ("Tests with 1 KB messages.", "1 KB payloads"))
    assert view.conditions == ("", "x") and set(view.evidence_ids) == {E1, E2, E3}
    assert S.numbers(view.text) == [128, 1, 0.001]
    assert S.spurious_by_qualifier(view)
    js, md = report([("A", [])])
    del js["conflicts"]
    md = md.replace("## Evidence", "## Conflicts between sources\n\n| entity | metric | value A | evidence A | value B "
                    f"| evidence B |\n|---|---|---|---|---|---|\n| Quux | population | 3,559 (3559 people) | [{E1}] "
                    f"local://documents/doc1.txt | 10,000 (10000 people) | [{E2}] local://documents/doc2.txt |\n\n"
                    "## Evidence")
    (view,) = S.parse_report(js, md).conflicts
    assert view.entity == "Quux" and set(view.evidence_ids) == {E1, E2}
    assert S.numbers(view.text) == [3559, 3559, 10000, 10000]  # no digits from the URLs


# --- RAMDocs ---------------------------------------------------------------------------------------------------

ITEM = {"question": "What is the population of Quux?",
        "documents": [{"text": "a", "type": "correct", "answer": "3,559"},
                      {"text": "b", "type": "misinfo", "answer": "10,000"}],
        "disambig_entity": ["Quux, Nowhere"], "gold_answers": ["3,559 people"], "wrong_answers": ["10,000 people"]}


def test_ramdocs_disclosed_in_a_conflict_and_gold_stated_first() -> None:
    c = {"entity": "Quux", "metric": "population", "unit": "people", "a": side(E1, "3,559", 3559, "q"),
         "b": side(E2, "10,000", 10000, "q"), "relative_difference": 0.6}
    js, md = report([("Answer", [sent(f"Quux had 3,559 people [{E1}].")])], conflicts=[c])
    s = S.score_ramdocs(ITEM, S.parse_report(js, md))
    assert s.eligible_misinfo and s.disclosed
    assert s.gold_any_first and s.gold_any_anywhere and s.gold_all_first and s.gold_all_anywhere
    assert not s.eligible_ambiguity


def test_ramdocs_disclosed_in_a_conflict_sentence_only_when_it_is_a_disagreement() -> None:
    both = f"Quux had 3,559 people [{E1}] and 10,000 people [{E2}]."
    js, md = report([("Answer", [sent(both)])])
    assert not S.score_ramdocs(ITEM, S.parse_report(js, md)).disclosed
    js, md = report([("Answer", [sent(f"Sources disagree: 3,559 people [{E1}] versus 10,000 [{E2}].")])])
    assert S.score_ramdocs(ITEM, S.parse_report(js, md)).disclosed
    js, md = report([("Answer", [sent(f"Quux: 3,559 [{E1}] or 10,000 [{E2}].", kind="conflict")])])
    assert S.score_ramdocs(ITEM, S.parse_report(js, md)).disclosed


def test_ramdocs_gold_needs_a_citation_and_counts_where_it_is() -> None:
    js, md = report([("Background", [sent("Quux had 3,559 people.")]),
                     ("Population", [sent(f"Quux had 3,559 people [{E1}].")])])
    s = S.score_ramdocs(ITEM, S.parse_report(js, md))
    assert not s.gold_any_first and s.gold_any_anywhere and not s.disclosed


def test_ramdocs_without_misinfo_is_not_eligible() -> None:
    item = {**ITEM, "documents": [{"text": "a", "type": "correct", "answer": "3,559"}], "wrong_answers": []}
    js, md = report([("A", [])])
    assert not S.score_ramdocs(item, S.parse_report(js, md)).eligible_misinfo


def test_ramdocs_same_name_entities_reported_as_a_conflict() -> None:
    item = {"question": "When was Quux built?", "documents": [], "disambig_entity": ["Quux (A)", "Quux (B)"],
            "gold_answers": ["1898", "1829"], "wrong_answers": []}
    c = {"entity": "Quux", "metric": "built", "unit": "year", "a": side(E1, "1898", 1898, "q"),
         "b": side(E2, "1829", 1829, "q"), "relative_difference": 0.02}
    js, md = report([("A", [sent(f"Quux (A) was built in 1898 [{E1}]; Quux (B) in 1829 [{E2}].")])], conflicts=[c])
    s = S.score_ramdocs(item, S.parse_report(js, md))
    assert s.eligible_ambiguity and s.ambiguity_conflict and s.gold_all_first
    js, md = report([("A", [sent(f"Quux (A) was built in 1898 [{E1}]; Quux (B) in 1829 [{E2}].")])])
    assert not S.score_ramdocs(item, S.parse_report(js, md)).ambiguity_conflict
    separated = f"The sources describe two different entities named Quux: Quux (A), 1898 [{E1}]; Quux (B), 1829 [{E2}]."
    js, md = report([("A", [sent(separated)])])
    assert not S.score_ramdocs(item, S.parse_report(js, md)).ambiguity_conflict
    js, md = report([("A", [sent(f"Sources disagree on when Quux was built: 1898 [{E1}] versus 1829 [{E2}].")])])
    assert S.score_ramdocs(item, S.parse_report(js, md)).ambiguity_conflict


# --- tsdb ------------------------------------------------------------------------------------------------------

FACT = {"name": "Foo ingests 145k rows/s", "entity": "foodb", "numbers": ["145"], "doc": "a__b__post.md"}


def test_fact_found_with_entity_in_the_sentence_or_its_evidence() -> None:
    ev = [evidence(E1, "FooDB reached 145k rows/s", doc="a__b__post.md"), evidence(E2, "It reached 145k rows/s")]
    js, md = report([("A", [sent(f"FooDB ingests 145k rows/s [{E2}].")])], ev=ev)
    f = S.score_fact(FACT, S.parse_report(js, md))
    assert f.found and not f.from_doc and f.quote_supports
    js, md = report([("A", [sent(f"It ingests 145,000 rows/s [{E1}].")])], ev=ev)
    f = S.score_fact(FACT, S.parse_report(js, md))
    assert not f.found  # 145,000 is not the printed 145
    js, md = report([("A", [sent(f"It ingests 145k rows/s [{E1}].")])], ev=ev)
    f = S.score_fact(FACT, S.parse_report(js, md))
    assert f.found and f.from_doc  # entity named by the cited quote
    js, md = report([("A", [sent("FooDB ingests 145k rows/s.")])], ev=ev)
    assert not S.score_fact(FACT, S.parse_report(js, md)).found  # no citation


def test_a_fact_listing_a_values_forms_is_found_by_any_of_them_when_the_corpus_says_so() -> None:
    fact = {"name": "Foo lifetime (3600 s, 1 hour)", "entity": "foodb", "numbers": ["3600", "1"],
            "doc": "a__b__post.md"}
    ev = [evidence(E1, "FooDB server_lifetime default: 3600", doc="a__b__post.md")]
    js, md = report([("A", [sent(f"FooDB lifetime: 3600 seconds [{E1}].")])], ev=ev)
    assert not S.score_fact(fact, S.parse_report(js, md)).found  # all numbers, unless the corpus says "any"
    f = S.score_fact(fact, S.parse_report(js, md), any_form=True)
    assert f.found and f.from_doc and f.quote_supports


def test_fact_entity_must_be_named_where_its_number_is() -> None:
    fact = {"name": "x", "entity": "bardb", "numbers": ["10"], "doc": "d.md"}
    ev = [evidence(E1, "FooDB free plan: 10k series"), evidence(E2, "BarDB keeps 10 days")]
    js, md = report([("A", [sent(f"Limits: FooDB 1M [{E1}]; 10k series [{E1}]; no figure found for BarDB.")])], ev=ev)
    assert not S.score_fact(fact, S.parse_report(js, md)).found
    js, md = report([("A", [sent(f"Limits: FooDB 1M [{E1}]; 10 days [{E2}]; nothing else.")])], ev=ev)
    assert S.score_fact(fact, S.parse_report(js, md)).found  # named by the clause's cited quote


def test_fact_in_a_body_table_cell_takes_its_column_header() -> None:
    fact = {"name": "x", "entity": "bardb", "numbers": ["145"], "doc": "d.md"}
    js, md = report([("Comparison", [])], ev=[evidence(E1, "it reached 145k rows/s")])
    md = md.replace("## Comparison\n\n", f"## Comparison\n\n| metric | FooDB | BarDB |\n|---|---|---|\n"
                    f"| ingestion | 90k [{E1}] | 145k (4 threads) [{E1}] |\n")
    assert S.score_fact(fact, S.parse_report(js, md)).found
    fact["numbers"] = ["90"]
    assert not S.score_fact(fact, S.parse_report(js, md)).found


def test_fact_needs_every_number() -> None:
    fact = {"name": "x", "entity": "foodb", "numbers": ["4", "1.7", "6.4"], "doc": "d.md"}
    js, md = report([("A", [sent(f"On 4 threads FooDB is 1.7x faster [{E1}].")])])
    assert not S.score_fact(fact, S.parse_report(js, md)).found
    js, md = report([("A", [sent(f"On 4 threads FooDB is 1.7x and 6.4x faster [{E1}].")])])
    assert S.score_fact(fact, S.parse_report(js, md)).found


def test_conflict_found_in_a_table_row_or_a_disagreement_sentence() -> None:
    conflict = {"name": "peak", "entity": "foodb", "numbers": ["959", "904"], "docs": []}
    c = {"entity": "FooDB", "metric": "ingestion", "unit": "rows/s", "a": side(E1, "959k", 959000, "q"),
         "b": side(E2, "904k", 904000, "q"), "relative_difference": 0.06}
    js, md = report([("A", [])], conflicts=[c])
    s = S.score_conflict(conflict, S.parse_report(js, md))
    assert s.found and s.found_with_entity
    js, md = report([("A", [sent(f"FooDB reached 959k rows/s [{E1}] and 904k rows/s [{E2}].")])])
    assert not S.score_conflict(conflict, S.parse_report(js, md)).found
    js, md = report([("A", [sent(f"The posts disagree: 959k [{E1}] versus 904k rows/s [{E2}].")])])
    s = S.score_conflict(conflict, S.parse_report(js, md))
    assert s.found and not s.found_with_entity
    # a relative claim's "(vs X)" condition is the writer's, not a disagreement between sources
    js, md = report([("A", [sent(f"Throughput: FooDB 959k [{E1}]; 6.4x (vs BarDB, 4 threads) [{E1}]; "
                                 f"904k [{E2}].")])])
    assert not S.score_conflict(conflict, S.parse_report(js, md)).found


def test_near_miss_sides() -> None:
    assert S.near_miss_sides("Foo ingestion: 145k rows/s (a run) vs 111K rows/s (b)") == [[145], [111]]
    assert S.near_miss_sides("Columns: FooDB 3 Cloud 200 vs Cloud X 250 (up to 1000) vs BarDB 4096") == [
        [200], [250, 1000], [4096]]
    assert S.near_miss_sides("压缩：Foo“不及 1/10” vs “不会低于 5 倍”") == [[10], [5]]


def test_near_miss_flagged_unless_explained() -> None:
    nm = {"name": "Foo ingestion: 145k rows/s vs 111K rows/s", "why": "different hardware"}
    c: dict[str, Any] = {"entity": "Foo", "metric": "ingestion", "unit": "rows/s", "relative_difference": 0.2,
                         "a": side(E1, "145k", 145000, "q"), "b": side(E2, "111K", 111000, "q")}
    js, md = report([("A", [])], conflicts=[c])
    assert len(S.score_near_miss(nm, S.parse_report(js, md)).flagged) == 1
    c["a"]["condition"], c["b"]["condition"] = "16 cores", "8 cores"
    js, md = report([("A", [])], conflicts=[c])
    assert S.score_near_miss(nm, S.parse_report(js, md)).flagged == []  # conditions shown side by side
    js, md = report([("A", [sent(f"The figures differ, 145k [{E1}] vs 111K [{E2}], on different hardware.")])])
    assert S.score_near_miss(nm, S.parse_report(js, md)).flagged == []
    js, md = report([("A", [sent(f"The figures contradict each other: 145k [{E1}] vs 111K [{E2}].")])])
    assert len(S.score_near_miss(nm, S.parse_report(js, md)).flagged) == 1


# --- example ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("quotes", "spurious"), [
    (["the average message size is 2 KB", "a maximum message size of 5 MB"], True),
    (["up to 16,000 stored dimensions", "up to 2,000 indexed dimensions"], True),
    (["it reached 605 MB/s", "it did 1.2 GB/s"], False),
    (["p99 latency 5 ms", "p99 was 9 ms"], False),
])
def test_spurious_by_qualifier(quotes: list[str], spurious: bool) -> None:
    view = S.ConflictView("Foo", "size", ("2", "5"), tuple(quotes), (E1, E2))
    assert S.spurious_by_qualifier(view) is spurious


def test_answer_first() -> None:
    options = ["Kafka", "RabbitMQ", "Pulsar"]
    js, md = report([("Recommendation", [sent(f"We recommend Kafka for high-throughput streaming [{E1}]."),
                                         sent(f"RabbitMQ suits queues [{E2}].")])])
    a = S.score_answer_first(S.parse_report(js, md), options)
    assert a.answers and a.sentence.startswith("We recommend Kafka")
    js, md = report([("Answer", [sent(f"For streaming, the evidence favours Apache Kafka: 590 MB/s [{E1}].")])])
    assert S.score_answer_first(S.parse_report(js, md), options).answers
    js, md = report([("Background", [sent(f"According to X: “Kafka is a log” [{E1}].")])])
    a = S.score_answer_first(S.parse_report(js, md), options)
    assert not a.answers and a.names_option and a.cited
    js, md = report([("Recommendation", [sent("We recommend Kafka.")])])
    assert not S.score_answer_first(S.parse_report(js, md), options).answers


def test_a_facts_version_is_read_as_the_report_reader_reads_it() -> None:
    """The report's number reader leaves versions out of text; a fact's "3.12.0" is not a number it must find."""
    assert S.fact_numbers(["3.12.0", "1", "2023-05-22"]) == [1.0, 2023.0, 5.0, 22.0]
    assert S.numbers("Feature freeze (beta 1): Quillo 3.12 2023-05-22 (3.12.0)") == [1.0, 3.12, 2023.0, 5.0, 22.0]
