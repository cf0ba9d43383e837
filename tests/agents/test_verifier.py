"""The verifier's rules, one at a time, on hand-built drafts."""

from __future__ import annotations

from writing_fixtures import EN_CONFLICT, EN_EVIDENCE, KAFKA_A, KAFKA_B, ROCKET, ROCKET_BG, conflict, ev

from openresearch.agents.verify.claim_text import citations_in, quantities, strip_markers, unmatched_numbers
from openresearch.agents.verify.verifier import discloses, verify
from openresearch.models import ClaimJudgement, Draft, DraftSection, Label, Sentence

EVIDENCE = {e.id: e for e in [*EN_EVIDENCE, ROCKET, ROCKET_BG]}


class FixedJudge:
    """Answers `label` for every pair and records what it was asked."""

    def __init__(self, label: Label = "SUPPORTS") -> None:
        self.label = label
        self.asked: list[tuple[str, str]] = []

    def judge(self, claim: str, evidence: str) -> ClaimJudgement:
        self.asked.append((claim, evidence))
        return ClaimJudgement(label=self.label, score=0.8)


def draft(*sentences: Sentence, disclosed: list[str] | None = None) -> Draft:
    return Draft(title="t", sections=[DraftSection(question_id="Q", title="s", sentences=list(sentences),
                                                   disclosed_conflicts=disclosed or [])])


def s(text: str, kind: str = "claim", key: bool = True) -> Sentence:
    return Sentence(text=text, citations=citations_in(text), kind=kind, key=key)  # type: ignore[arg-type]


def test_markers_and_numbers_helpers() -> None:
    assert citations_in("a [E-1] b [E-2, E-3] c [E-1]") == ["E-1", "E-2", "E-3"]
    assert strip_markers("Kafka hit 605 MB/s [E-a]. ") == "Kafka hit 605 MB/s."
    assert next(q for _, q in quantities("达到1.2万条/秒 [E-12]")).value == 12000  # CJK-glued number, no marker digits
    assert quantities("COVID-19 cases in SARS-CoV-2 [E-9]") == []  # identifiers are not quantities
    assert quantities("cost US$5")[0][1].unit == "USD"
    # a value restated from what the extractor read in its quote is grounded: "8970T" in a Chinese quote is
    # 8970 TB, so a sentence saying "8970 TB" holds no number of its own; a different figure still does
    quotes = ["TDengine大概需要消耗44851/5=8970T, 8.9P空间。"]
    assert unmatched_numbers("存储空间：8970 TB 与 8.9 PB [E-1]", quotes) == []
    assert unmatched_numbers("存储空间：897 TB [E-1]", quotes) == ["897 TB"]


def test_supported_sentence_passes_and_judge_sees_bare_claim_and_quote() -> None:
    judge = FixedJudge()
    result = verify(draft(s("Kafka sustained 605 MB/s on three brokers [E-kafkaa].")), EVIDENCE, [], judge)
    (v,) = result.verdicts
    assert v.verdict == "PASS" and v.numbers_ok and v.label == "SUPPORTS"
    # the quote plus the extractor's labels for it (entities, entity + metric)
    assert judge.asked == [("Kafka sustained 605 MB/s on three brokers.",
                            KAFKA_A.quote + " (Apache Kafka; Apache Kafka throughput)")]
    assert result.fully_verified and result.citation_coverage == 1.0 and result.numeric_faithfulness == 1.0


def test_phantom_citation_fails() -> None:
    result = verify(draft(s("Kafka is fast [E-nothere].")), EVIDENCE, [], FixedJudge())
    (v,) = result.verdicts
    assert v.verdict == "FAIL" and "phantom citation: E-nothere" in v.reasons
    assert result.phantom_citations == 1 and result.citation_coverage == 0.0 and not result.fully_verified


def test_phantom_next_to_a_real_citation_still_fails() -> None:
    result = verify(draft(s("Kafka sustained 605 MB/s [E-kafkaa] [E-ghost].")), EVIDENCE, [], FixedJudge())
    assert result.verdicts[0].verdict == "FAIL" and result.citation_coverage == 1.0


def test_uncited_claim_is_doubtful_gap_is_exempt() -> None:
    result = verify(draft(s("Kafka is the fastest broker."), s("The evidence does not answer X.", "gap", key=False)),
                    EVIDENCE, [], FixedJudge())
    claim, gap = result.verdicts
    assert claim.verdict == "DOUBT" and "no citation" in claim.reasons
    assert gap.verdict == "PASS"
    assert result.citation_coverage == 0.0  # the gap sentence is not counted
    assert not result.fully_verified


def test_number_not_in_cited_quote_fails() -> None:
    result = verify(draft(s("Kafka sustained 650 MB/s on three brokers [E-kafkaa].")), EVIDENCE, [], FixedJudge())
    (v,) = result.verdicts
    assert v.verdict == "FAIL" and not v.numbers_ok and "650 MB/s" in v.reasons[0]
    assert result.numeric_faithfulness == 0.0


def test_number_from_another_quote_fails_and_units_matter() -> None:
    result = verify(draft(s("Kafka sustained 420 MB/s [E-kafkaa]."), s("Kafka sustained 605 ms [E-kafkaa].")),
                    EVIDENCE, [], FixedJudge())
    assert [v.verdict for v in result.verdicts] == ["FAIL", "FAIL"]


def test_number_forms_are_normalised() -> None:
    text = "RocketMQ reached 12,000 条/秒 [E-rocket] and RabbitMQ 10.94k messages/s [E-rabbit]."
    result = verify(draft(s(text)), EVIDENCE, [], FixedJudge())
    assert result.verdicts[0].numbers_ok, result.verdicts[0].reasons


def test_source_date_and_title_numbers_are_grounded() -> None:
    result = verify(draft(s("Kafka bench 2024 (2024-03-01) reports 605 MB/s [E-kafkaa].")), EVIDENCE, [],
                    FixedJudge())
    assert result.verdicts[0].verdict == "PASS"
    wrong_year = verify(draft(s("In 2019 Kafka sustained 605 MB/s [E-kafkaa].")), EVIDENCE, [], FixedJudge())
    assert wrong_year.verdicts[0].verdict == "FAIL"  # a year is a claim too unless the evidence holds it


def test_judge_labels_map_to_verdicts() -> None:
    one = draft(s("Kafka sustained 605 MB/s on three brokers [E-kafkaa]."))
    assert verify(one, EVIDENCE, [], FixedJudge("REFUTES")).verdicts[0].verdict == "FAIL"
    doubt = verify(one, EVIDENCE, [], FixedJudge("NOT_ENOUGH_INFO"))
    assert doubt.verdicts[0].verdict == "DOUBT" and doubt.verdicts[0].label == "NOT_ENOUGH_INFO"
    assert not doubt.fully_verified


def test_conflict_sentences_are_checked_not_judged() -> None:
    judge = FixedJudge("REFUTES")
    text = "Sources disagree on Apache Kafka throughput: 605 MB/s [E-kafkaa] versus 420 MB/s [E-kafkab]."
    result = verify(draft(s(text, "conflict"), disclosed=[EN_CONFLICT.id]), EVIDENCE, [EN_CONFLICT], judge)
    assert result.verdicts[0].verdict == "PASS" and judge.asked == []
    assert result.fully_verified and result.undisclosed_conflicts == []


def test_undisclosed_conflict_is_flagged() -> None:
    result = verify(draft(s("Kafka sustained 605 MB/s on three brokers [E-kafkaa].")), EVIDENCE, [EN_CONFLICT],
                    FixedJudge())
    assert result.verdicts[0].verdict == "PASS"
    assert result.undisclosed_conflicts == [EN_CONFLICT.id] and not result.fully_verified
    # a section that cites neither side is not concerned
    other = verify(draft(s("RabbitMQ handled 10,940 messages per second [E-rabbit].")), EVIDENCE, [EN_CONFLICT],
                   FixedJudge())
    assert other.undisclosed_conflicts == [] and other.fully_verified


def test_disclosure_needs_two_distinct_values_of_the_group() -> None:
    a1 = ev("E-osa", "Osgood had 1,624 residents.", [("Osgood, Indiana", "population", 1624, "", "")],
            url="https://a.example/o")
    a2 = ev("E-osb", "The town counted 1,624 people.", [("Osgood, Indiana", "population", 1624, "", "")],
            url="https://b.example/o")
    b = ev("E-osc", "Osgood is home to 2,500 people.", [("Osgood, Indiana", "population", 2500, "", "")],
           url="https://c.example/o")
    group = conflict(a1, a2, b)
    assert [v.evidence_ids for v in group.values] == [["E-osa", "E-osb"], ["E-osc"]]
    assert not discloses(group, ["E-osa", "E-osb"]) and discloses(group, ["E-osb", "E-osc"])
    evidence = {e.id: e for e in (a1, a2, b)}
    same_side = draft(s("Osgood had 1,624 residents [E-osa]."),
                      s("Sources disagree: 1,624 [E-osa][E-osb].", "conflict"))
    flagged = verify(same_side, evidence, [group], FixedJudge())
    assert flagged.undisclosed_conflicts == [group.id] and not flagged.fully_verified
    both = draft(s("Osgood had 1,624 residents [E-osa]."),
                 s("Sources disagree on Osgood's population: 1,624 [E-osa] versus 2,500 [E-osc].", "conflict"))
    assert verify(both, evidence, [group], FixedJudge()).undisclosed_conflicts == []
    # a claim sentence citing two values discloses too (the disclosure is what the reader sees)
    claim = draft(s("Osgood's population is given as 1,624 [E-osb] and as 2,500 [E-osc]."))
    assert verify(claim, evidence, [group], FixedJudge()).undisclosed_conflicts == []


def test_fully_verified_ignores_non_key_doubts() -> None:
    ok = s("Kafka sustained 605 MB/s on three brokers [E-kafkaa].")
    aside = s("Kafka is popular.", key=False)
    result = verify(draft(ok, aside), EVIDENCE, [], FixedJudge())
    assert [v.verdict for v in result.verdicts] == ["PASS", "DOUBT"] and result.fully_verified
    assert result.citation_coverage == 0.5


def test_citations_listed_but_not_marked_still_count() -> None:
    sentence = Sentence(text="Kafka sustained 605 MB/s.", citations=[KAFKA_A.id, KAFKA_B.id])
    judge = FixedJudge()
    result = verify(draft(sentence), EVIDENCE, [], judge)
    assert result.verdicts[0].verdict == "PASS"
    assert judge.asked[0][1] == KAFKA_A.quote + " " + KAFKA_B.quote + " (Apache Kafka; Apache Kafka throughput)"


def test_attribution_is_cut_from_what_the_judge_sees() -> None:
    judge = FixedJudge()
    verify(draft(s("Kafka bench 2024 (2024-03-01) reports: Kafka sustained 605 MB/s [E-kafkaa].")), EVIDENCE, [],
           judge)
    assert judge.asked[0][0] == "reports: Kafka sustained 605 MB/s."


def test_empty_draft_is_vacuously_verified() -> None:
    result = verify(Draft(title="t"), EVIDENCE, [], FixedJudge())
    assert result.fully_verified and result.citation_coverage == 1.0 and result.verdicts == []
