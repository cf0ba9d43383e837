"""Writers on hand-built evidence: citations, numbers in the quotes' own forms, conflicts, gaps, styles."""

from __future__ import annotations

import re

import pytest
from llm_server import Reply, ScriptedLLMServer, answer
from writing_fixtures import (
    EN_BY_QUESTION,
    EN_CONFLICT,
    EN_EVIDENCE,
    EN_PLAN,
    KAFKA_A,
    KAFKA_BG,
    ROCKET,
    ROCKET_B,
    ROCKET_BG,
    ZH_BY_QUESTION,
    ZH_CONFLICT,
    ZH_PLAN,
    conflict,
    ev,
)

from openresearch.agents.llm.budget import Budget
from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import LLMConfig
from openresearch.agents.verify.claim_text import citations_in, unmatched_numbers
from openresearch.agents.verify.verifier import grounding, verify
from openresearch.agents.write.writer import DeterministicWriter, LLMWriter
from openresearch.agents.write.writer_deterministic import ordered_questions
from openresearch.models import ClaimJudgement, ConflictGroup, Draft, EvidenceView, Plan, Style, SubQuestion

STYLES: list[Style] = ["brief", "report", "review"]
ALL = {e.id: e for e in [*EN_EVIDENCE, ROCKET, ROCKET_B, ROCKET_BG]}
CJK = re.compile(r"[\u4e00-\u9fff]")


class Supports:
    """A judge that agrees with everything: isolates the citation and number checks."""

    def judge(self, claim: str, evidence: str) -> ClaimJudgement:
        return ClaimJudgement(label="SUPPORTS", score=1.0)


def body(plan: Plan, by_question: dict[str, list[EvidenceView]], conflicts: list[ConflictGroup], style: Style,
         limited: set[str] | None = None) -> Draft:
    """The sections alone, each from all of its evidence: what the section writer does with what it is given
    (the whole report, answer first and no quote twice, is tested below with `write`)."""
    w = DeterministicWriter()
    return Draft(title=plan.question, style=style, sections=[
        w.section(plan, q, by_question.get(q.id, []), conflicts, style, q.id in (limited or set()))
        for q in ordered_questions(plan)])


def en_draft(style: Style, limited: set[str] | None = None) -> Draft:
    return body(EN_PLAN, EN_BY_QUESTION, [EN_CONFLICT], style, limited)


def zh_draft(style: Style) -> Draft:
    return body(ZH_PLAN, ZH_BY_QUESTION, [ZH_CONFLICT], style)


def assert_grounded(draft: Draft, evidence: dict[str, EvidenceView]) -> None:
    for section in draft.sections:
        for s in section.sentences:
            if s.kind == "gap":
                assert not s.key and not s.citations
                continue
            assert s.citations, s.text
            assert citations_in(s.text) == s.citations, s.text  # markers and the list agree
            cited = [evidence[c] for c in s.citations]
            texts, extra = grounding(cited)
            assert unmatched_numbers(s.text, texts, extra) == [], s.text


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_claim_cited_and_numbers_from_quotes(style: Style, lang: str) -> None:
    draft = en_draft(style) if lang == "en" else zh_draft(style)
    assert draft.style == style and draft.method == "deterministic"
    assert_grounded(draft, ALL)
    result = verify(draft, ALL, [EN_CONFLICT, ZH_CONFLICT], Supports())
    assert result.fully_verified, [v for v in result.verdicts if v.verdict != "PASS"]
    assert result.phantom_citations == 0 and result.numeric_faithfulness == 1.0


def test_the_report_opens_with_the_answer_and_states_no_quote_twice() -> None:
    draft = DeterministicWriter().write(EN_PLAN, EN_BY_QUESTION, [EN_CONFLICT], "report", set())
    assert [s.question_id for s in draft.sections] == ["answer", "Q-bg", "Q-cmp", "Q-risk"]
    assert draft.sections[0].title == "Answer" and draft.sections[0].sentences[0].citations
    cited = [c for sec in draft.sections for s in sec.sentences if s.kind != "conflict" for c in s.citations]
    assert len(cited) == len(set(cited)), "a quote is stated once"
    assert EN_CONFLICT.id in draft.sections[0].disclosed_conflicts  # the answer states a disputed value
    result = verify(draft, ALL, [EN_CONFLICT], Supports())
    assert result.fully_verified, [(v.text, v.reasons) for v in result.verdicts if v.verdict != "PASS"]


def test_a_section_without_relevant_evidence_says_so_in_one_sentence() -> None:
    plan = Plan(question="What is the population of Osgood?", kind="lookup", entities=["Osgood"],
                attributes=["population"], metrics=["population"], sub_questions=[
                    SubQuestion(id="Q-pop", text="What is the population of Osgood?", role="core",
                                entities=["Osgood"], keywords=["Osgood", "population"]),
                    SubQuestion(id="Q-hist", text="What is the history of Osgood?", role="background",
                                entities=["Osgood"], keywords=["Osgood", "history"])])
    pop = ev("E-pop", "The population of Osgood was 1,624 at the 2010 census.",
             [("Osgood", "population", 1624, "people", "2010 census")], url="https://a.example/o")
    weather = ev("E-wx", "Fatal accidents locations in 2021 and alcohol use in Indiana.", url="https://n.example/x")
    by_question = {"Q-pop": [pop, weather], "Q-hist": [pop, weather]}
    draft = DeterministicWriter().write(plan, by_question, [], "report", set())
    answer, hist, pop_section = draft.sections
    assert answer.sentences[0].citations == ["E-pop"]
    assert [s.kind for s in pop_section.sentences] == ["gap"] and "stated above" in pop_section.sentences[0].text
    assert [s.kind for s in hist.sentences] == ["gap"], "the nearest quotes of another topic are no answer"


def test_sections_in_role_order_with_titles_and_gap() -> None:
    draft = en_draft("report")
    assert [s.role for s in draft.sections] == ["background", "comparison", "impact"]
    assert draft.sections[0].title == "What is Apache Kafka"
    risk = draft.sections[2]
    assert risk.limited and len(risk.sentences) == 1
    gap = risk.sentences[0]
    assert gap.kind == "gap" and not gap.key and gap.text.startswith("The evidence gathered does not answer")


@pytest.mark.parametrize("style", STYLES)
def test_conflict_disclosed_with_both_values_and_ids(style: Style) -> None:
    section = en_draft(style).sections[1]
    assert section.disclosed_conflicts == [EN_CONFLICT.id]
    (sentence,) = [s for s in section.sentences if s.kind == "conflict"]
    assert sentence.text == ("Sources disagree on Apache Kafka throughput: 605 MB/s [E-kafkaa] "
                             "versus 420 MB/s [E-kafkab]; 605 MB/s is given by one source, the newest (2024); "
                             "420 MB/s by one source.")
    assert sentence.citations == ["E-kafkaa", "E-kafkab"]
    assert sentence.key


def test_group_disclosure_states_every_value_with_its_citations_and_support() -> None:
    from datetime import date

    osgood = [
        ev("E-os1", "The population was 1,624 at the 2010 census.", [("Osgood, Indiana", "population", 1624, "",
           "2010 census")], url="https://wiki.example/osgood", title="Osgood, Indiana", published=date(2020, 6, 1)),
        ev("E-os2", "Osgood town: 1,624 residents (2010 census).", [("Osgood, Indiana", "population", 1624, "",
           "2010 census")], url="https://census.example/osgood", title="Census", published=date(2012, 1, 1)),
        ev("E-os3", "Osgood had 1,624 people in the 2010 census.", [("Osgood, Indiana", "population", 1624, "",
           "2010 census")], url="https://towns.example/osgood", title="Towns"),
        ev("E-os4", "Osgood is home to some 2,500 people (2010 census).", [("Osgood, Indiana", "population", 2500,
           "", "2010 census")], url="https://blog.example/osgood", title="Blog", published=date(2011, 1, 1)),
    ]
    group = conflict(*osgood)
    plan = Plan(question="What is the population of Osgood, Indiana?", entities=["Osgood, Indiana"],
                sub_questions=[SubQuestion(id="Q-pop", text="What is the population of Osgood, Indiana?",
                                           role="core")])
    # the section's evidence holds only the wrong value: the group is still disclosed in full
    draft = DeterministicWriter().write(plan, {"Q-pop": [osgood[3]]}, [group], "report", set())
    (sentence,) = [x for x in draft.sections[0].sentences if x.kind == "conflict"]
    assert sentence.text == (
        "Sources disagree on Osgood, Indiana population (2010 census): 1,624 [E-os1][E-os2][E-os3] versus "
        "2,500 [E-os4]; 1,624 is given by three independent sources, including the newest (2020) and a primary "
        "source; 2,500 by one source.")
    assert draft.sections[0].disclosed_conflicts == [group.id]
    result = verify(draft, {e.id: e for e in osgood}, [group], Supports())
    assert result.undisclosed_conflicts == [] and result.numeric_faithfulness == 1.0
    assert all(v.verdict == "PASS" for v in result.verdicts), [(v.text, v.reasons) for v in result.verdicts]


def test_numbers_written_as_the_quote_writes_them() -> None:
    report = " ".join(s.text for sec in en_draft("report").sections for s in sec.sentences)
    assert "10,940 messages per second [E-rabbit]" in report  # not "10940 msg/s"
    zh = " ".join(s.text for sec in zh_draft("report").sections for s in sec.sentences)
    assert "1.2万条/秒 [E-rocket]" in zh and "9,000 条/秒 [E-rocketb]" in zh


def test_condition_dropped_when_its_number_is_not_in_the_quote() -> None:
    # the observation's condition says "3 brokers"; the quote says "three brokers"
    text = " ".join(s.text for s in en_draft("report").sections[1].sentences)
    assert "3 brokers" not in text


def test_comparison_cites_both_sides() -> None:
    sentences = en_draft("report").sections[1].sentences
    (cmp,) = [s for s in sentences if s.text.startswith("On throughput")]
    assert cmp.text == ("On throughput, Apache Kafka reaches 605 MB/s [E-kafkaa], compared with 310 MB/s "
                        "for Apache Pulsar [E-pulsar].")
    assert cmp.citations == ["E-kafkaa", "E-pulsar"]


def test_brief_is_short_and_review_names_sources_with_dates() -> None:
    brief = en_draft("brief")
    for section in brief.sections:
        assert len([s for s in section.sentences if s.kind == "claim"]) <= 2
    review = " ".join(s.text for sec in en_draft("review").sections for s in sec.sentences)
    assert "Kafka bench 2024 (2024-03-01) reports: “Kafka sustained 605 MB/s on three brokers” [E-kafkaa]." in review
    assert "Other lab (2023-05-02)" in review and "Kafka docs reports:" in review
    # review order: within a section, older sources first
    cmp = [s.text for s in en_draft("review").sections[1].sentences]
    assert cmp[0].startswith("Other lab (2023-05-02)")


def test_review_reports_agreement() -> None:
    again = KAFKA_A.model_copy(update={"id": "E-again", "quote": "We also measured 605 MB/s for Kafka.",
                                       "source": KAFKA_A.source.model_copy(update={"id": "S-2", "url": "u2"})})
    draft = body(EN_PLAN, {"Q-cmp": [KAFKA_A, again]}, [], "review")
    texts = [s.text for s in draft.sections[1].sentences]
    assert "Sources agree on Apache Kafka throughput: 605 MB/s [E-kafkaa] and 605 MB/s [E-again]." in texts


def test_limited_section_says_so() -> None:
    section = en_draft("report", limited={"Q-bg"}).sections[0]
    assert section.limited
    assert section.sentences[-1].kind == "gap" and "limited" in section.sentences[-1].text


@pytest.mark.parametrize("style", STYLES)
def test_chinese_plan_writes_chinese(style: Style) -> None:
    draft = zh_draft(style)
    for section in draft.sections:
        for s in section.sentences:
            assert CJK.search(s.text.split("[")[0]), s.text
    gap = draft.sections[-1].sentences[0]
    assert gap.kind == "gap" and gap.text.startswith("所收集的证据未能回答")
    conflicts = [s.text for sec in draft.sections for s in sec.sentences if s.kind == "conflict"]
    assert conflicts == ["关于RocketMQ的吞吐量，来源之间存在分歧：1.2万条/秒 [E-rocket] 与 9,000 条/秒 [E-rocketb]；"
                         "1.2万条/秒 有一个来源支持，为一手来源；9,000 条/秒 有一个来源支持。"]


# --- LLMWriter against the scripted OpenAI-compatible server ---------------------------------------

def client(server: ScriptedLLMServer, budget: Budget | None = None) -> LLMClient:
    return LLMClient(LLMConfig(base_url=server.base_url, model="m", timeout_s=5), budget=budget, max_retries=0)


@pytest.mark.integration
def test_llm_writer_keeps_phantoms_and_adds_missing_disclosure(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(
        answer({"sentences": [{"text": "Apache Kafka is a distributed event streaming platform [E-kafkabg]."}]},
               match="What is Apache Kafka"),
        answer({"sentences": [
            {"text": "Kafka sustained 605 MB/s on three brokers [E-kafkaa].", "kind": "claim"},
            {"text": "Pulsar reached 900 MB/s [E-invented].", "kind": "claim"},
            {"text": "Nothing more is known.", "kind": "gap"},
        ]}, match="compare"),
    )
    with client(llm_server) as c:
        draft = LLMWriter(c, DeterministicWriter()).write(EN_PLAN, EN_BY_QUESTION, [EN_CONFLICT], "report", set())
    assert draft.method == "llm" and llm_server.pending() == 0
    assert len(llm_server.requests) == 2  # the section without evidence needs no call
    bg_prompt = next(r.last_user for r in llm_server.requests if "What is Apache Kafka" in r.last_user)
    assert KAFKA_BG.id in bg_prompt and KAFKA_A.id not in bg_prompt  # only that section's evidence
    assert "<source id=\"E-kafkabg\"" in bg_prompt
    assert draft.sections[0].question_id == "answer"  # the same structure as the offline writer
    assert EN_CONFLICT.id in draft.sections[0].disclosed_conflicts
    cmp = draft.sections[2]
    texts = [s.text for s in cmp.sentences]
    assert "Pulsar reached 900 MB/s [E-invented]." in texts  # kept, not hidden
    assert cmp.sentences[2].kind == "gap" and not cmp.sentences[2].key
    result = verify(draft, ALL, [EN_CONFLICT], Supports())
    bad = [v for v in result.verdicts if "E-invented" in v.text]
    assert bad[0].verdict == "FAIL" and result.phantom_citations == 1 and not result.fully_verified


@pytest.mark.integration
def test_llm_writer_model_disclosure_counts(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer({"sentences": [
        {"text": "Sources disagree: 605 MB/s [E-kafkaa] versus 420 MB/s [E-kafkab].", "kind": "conflict"}]}))
    with client(llm_server) as c:
        cmp = LLMWriter(c).section(EN_PLAN, EN_PLAN.sub_questions[0], [KAFKA_A], [EN_CONFLICT], "brief", False)
    assert [s.kind for s in cmp.sentences] == ["conflict"]  # no template duplicate
    assert cmp.disclosed_conflicts == [EN_CONFLICT.id]


@pytest.mark.integration
def test_llm_writer_falls_back_per_section(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(Reply(status=400, error_message="model overloaded"), answer({"sentences": []}))
    with client(llm_server) as c:
        writer = LLMWriter(c, DeterministicWriter())
        draft = writer.write(EN_PLAN, EN_BY_QUESTION, [EN_CONFLICT], "report", set())
    assert writer.fallbacks == 2 and draft.method == "deterministic"
    assert draft == DeterministicWriter().write(EN_PLAN, EN_BY_QUESTION, [EN_CONFLICT], "report", set())


@pytest.mark.integration
def test_llm_writer_budget_exhausted_falls_back(llm_server: ScriptedLLMServer) -> None:
    with client(llm_server, Budget(max_calls=0)) as c:
        writer = LLMWriter(c, DeterministicWriter())
        draft = writer.write(ZH_PLAN, ZH_BY_QUESTION, [ZH_CONFLICT], "brief", set())
    assert not llm_server.requests
    assert writer.fallbacks == sum(1 for sec in draft.sections[1:] if any(x.citations for x in sec.sentences))
    assert draft == DeterministicWriter().write(ZH_PLAN, ZH_BY_QUESTION, [ZH_CONFLICT], "brief", set())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_deterministic_drafts_pass_the_real_offline_judge(lang: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """End to end with real parts: template sentences are supported by their quotes per the calibrated judge."""
    from openresearch.agents.verify.judge import EmbeddingJudge
    from openresearch.ingest.embed import SentenceTransformerEmbedder

    judge = EmbeddingJudge(SentenceTransformerEmbedder(cache_dir=tmp_path_factory.mktemp("emb")))
    for style in STYLES:
        d = en_draft(style) if lang == "en" else zh_draft(style)
        result = verify(d, ALL, [EN_CONFLICT, ZH_CONFLICT], judge)
        assert result.fully_verified, [(v.text, v.reasons) for v in result.verdicts if v.verdict != "PASS"]


def test_relevance_reads_chinese_keyword_phrases_by_their_words() -> None:
    from openresearch.agents.write.writer_deterministic import relevant

    q = SubQuestion(id="Z-w", text="TDengine 的写入吞吐是多少？", role="core", entities=["TDengine"],
                    keywords=["TDengine", "写入吞吐"])
    on_topic = ev("E-zw1", "TDengine 的写入速度可达每秒百万条记录。", entities=["TDengine"])
    off_topic = ev("E-zw2", "TDengine 使用 AGPL 许可证发布。", entities=["TDengine"])
    other = ev("E-zw3", "InfluxDB 的写入吞吐为每秒十万点。", entities=["InfluxDB"])
    assert relevant(q, on_topic) and not relevant(q, off_topic) and not relevant(q, other)


def test_relevance_of_a_background_question_is_its_names_and_of_the_question_itself_its_own_words() -> None:
    from openresearch.agents.write.writer_deterministic import relevant

    about = ev("E-zb1", "(A zorkalloc page contains blocks of one size class and is usually 64KiB.)",
               entities=["zorkalloc"])
    other = ev("E-zb2", "Quuxmem pages are 16KiB.", entities=["Quuxmem"])
    background = SubQuestion(id="Z-b", text="What is zorkalloc, and what is it designed for?", role="background",
                             entities=["zorkalloc"], keywords=["zorkalloc", "granularity", "basic", "unit"])
    assert relevant(background, about) and not relevant(background, other)
    core = SubQuestion(id="Z-c", text="What are the main built-in limits and defaults of zorkalloc: which page sizes "
                       "exist and how many size classes it uses?", role="core", entities=["zorkalloc"],
                       keywords=["zorkalloc", "built-in", "limits", "defaults"])
    assert relevant(core, about)  # "size class" is asked in the question's own words
    assert relevant(core, ev("E-zb3", "zorkalloc | default: 4 | the arena count", entities=["zorkalloc"]))
    assert not relevant(core, ev("E-zb4", "zorkalloc is released under the MIT licence.", entities=["zorkalloc"]))


def test_one_sentence_two_sources_is_said_once_citing_both_and_never_again() -> None:
    """Two versions of one page hold the same sentence: the report says it once, citing both copies, and a later
    section does not repeat it from either copy."""
    text = "The first five months overlap with the previous release's beta stage and are thus unversioned."
    old = ev("E-copy1", text, entities=["Apache Kafka"], url="https://kafka.example/2022/schedule")
    new = ev("E-copy2", text.replace("  ", " "), entities=["Apache Kafka"], url="https://kafka.example/schedule")
    other = ev("E-other", "Apache Kafka stages are announced on the mailing list before each freeze.",
               entities=["Apache Kafka"], url="https://kafka.example/process")
    plan = Plan(question="How is Apache Kafka released?", entities=["Apache Kafka"], sub_questions=[
        SubQuestion(id="Q-a", text="How are Apache Kafka release stages scheduled?", role="background"),
        SubQuestion(id="Q-b", text="Which Apache Kafka stages are unversioned?", role="background")])
    draft = DeterministicWriter().write(plan, {"Q-a": [old, new, other], "Q-b": [new, old]}, [], "report", set())
    sentences = [s for sec in draft.sections for s in sec.sentences if "unversioned" in s.text]
    assert len(sentences) == 1
    assert set(sentences[0].citations) == {"E-copy1", "E-copy2"}
    assert set(citations_in(sentences[0].text)) == {"E-copy1", "E-copy2"}


def test_the_conflicts_section_puts_the_asked_entities_first() -> None:
    from openresearch.agents.write.report import ordered_conflicts
    from openresearch.agents.write.report_model import Report

    other = conflict(ev("E-o1", "Zorbly reached 10 MB/s.", [("Zorbly", "throughput", 10.0, "MB/s", "")],
                        url="https://z.example/a"),
                     ev("E-o2", "Zorbly reached 90 MB/s.", [("Zorbly", "throughput", 90.0, "MB/s", "")],
                        url="https://z.example/b"))
    report = Report.model_construct(plan=EN_PLAN, conflicts=[other, EN_CONFLICT])
    assert [c.entity for c in ordered_conflicts(report)] == [EN_CONFLICT.entity, "Zorbly"]
