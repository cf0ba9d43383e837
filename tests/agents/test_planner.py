"""Planner: deterministic plans for EN/ZH questions, the DAG and its waves, and the LLM planner against a
real scripted OpenAI-compatible endpoint (valid plan, repaired dependencies, fallbacks)."""

from __future__ import annotations

import re

import networkx as nx
import pytest
from llm_server import ScriptedLLMServer, answer, malformed

from openresearch.agents.llm.budget import Budget
from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import LLMConfig
from openresearch.agents.plan.plan_converge import ROLE_ORDER, break_cycles
from openresearch.agents.plan.planner import DeterministicPlanner, LLMPlanner, PlanBudget, schedule
from openresearch.identity import question_id
from openresearch.ingest.embed import HashEmbedder
from openresearch.models import Plan, SubQuestion

BROKER = "Which message broker should we choose for event streaming: Kafka, RabbitMQ or Pulsar?"
RAFT = "How does Raft consensus work?"
ZH_COMPARE = "Kafka 和 RabbitMQ 在吞吐量和运维成本上的区别？"
ZH_SELECT = "消息队列选型：Kafka、RabbitMQ 和 Pulsar 哪个更适合？"
CJK = re.compile(r"[\u4e00-\u9fff]")
ALL_ROLES = {"background", "core", "comparison", "impact"}


@pytest.fixture(scope="module")
def planner() -> DeterministicPlanner:
    return DeterministicPlanner(HashEmbedder())


def check_plan(plan: Plan, budget: PlanBudget) -> None:
    """Everything a plan promises, whichever planner made it."""
    subs = plan.sub_questions
    assert budget.min_sub_questions <= len(subs) <= budget.max_sub_questions
    assert sum(s.depth for s in subs) <= budget.max_total_depth
    ids = [s.id for s in subs]
    assert len(set(ids)) == len(ids)
    assert all(s.id == question_id(s.text) for s in subs)
    assert all(1 <= s.depth <= 3 and s.keywords and s.source_types for s in subs)
    graph = nx.DiGraph([(d, s.id) for s in subs for d in s.depends_on])
    assert all(d in ids for s in subs for d in s.depends_on)
    assert nx.is_directed_acyclic_graph(graph)
    waves = schedule(plan)
    assert sorted(i for w in waves for i in w) == sorted(ids)
    wave_of = {i: n for n, w in enumerate(waves) for i in w}
    assert all(wave_of[d] < wave_of[s.id] for s in subs for d in s.depends_on)
    ranks = [ROLE_ORDER[s.role] for s in subs]
    assert ranks == sorted(ranks), "sections must read background -> core -> comparison -> impact"


@pytest.mark.parametrize(("question", "kind", "roles", "language"), [
    (BROKER, "selection", ALL_ROLES, "en"),
    (RAFT, "how", ALL_ROLES, "en"),
    ("Which message broker should I choose?", "selection", ALL_ROLES, "en"),
    (ZH_COMPARE, "comparison", {"core", "comparison"}, "zh"),
    (ZH_SELECT, "selection", ALL_ROLES, "zh"),
    ("What are the trends in vector databases?", "trend", {"background", "core", "impact"}, "en"),
])
def test_deterministic_plans(planner: DeterministicPlanner, question: str, kind: str, roles: set[str],
                             language: str) -> None:
    budget = PlanBudget()
    plan = planner.plan(question, budget=budget)
    check_plan(plan, budget)
    assert plan.method == "deterministic" and plan.kind == kind and plan.language == language
    assert roles <= {s.role for s in plan.sub_questions}
    assert plan.candidates_considered >= len(plan.sub_questions)
    if language == "zh":
        assert all(CJK.search(s.text) for s in plan.sub_questions), "Chinese questions get Chinese plans"
    else:
        assert not any(CJK.search(s.text) for s in plan.sub_questions)


def test_comparisons_wait_for_the_background_of_their_entities(planner: DeterministicPlanner) -> None:
    plan = planner.plan("Which message broker should we choose for our team, Kafka or RabbitMQ? Operations and cost "
                        "matter.", budget=PlanBudget())
    assert plan.entities == ["Apache Kafka", "RabbitMQ"]
    assert {"operations", "cost"} <= set(plan.aspects)
    background = {s.id: s for s in plan.sub_questions if s.role == "background"}
    assert {e for s in background.values() for e in s.entities} == {"Apache Kafka", "RabbitMQ"}
    for s in plan.sub_questions:
        if s.role in ("comparison", "impact"):
            assert set(s.depends_on) == set(background)
        else:
            assert s.depends_on == []
    aspects = {a for s in plan.sub_questions if s.role == "comparison" for a in s.aspects}
    assert {"operations", "cost"} <= aspects


def test_a_comparison_that_names_its_metrics_is_planned_by_metric_and_entity(planner: DeterministicPlanner) -> None:
    plan = planner.plan(ZH_COMPARE, budget=PlanBudget())
    assert plan.kind == "comparison" and plan.attributes == ["吞吐量", "运维成本"]
    per_entity = [s for s in plan.sub_questions if s.role == "core" and len(s.entities) == 1]
    assert {s.entities[0] for s in per_entity} == {"Apache Kafka", "RabbitMQ"}, "every named entity is searched"
    compared = [s for s in plan.sub_questions if s.role == "comparison"]
    assert len(compared) == 2 and all("吞吐量" in s.text or "运维成本" in s.text for s in compared)
    assert not any(s.role == "background" for s in plan.sub_questions), "no template the question did not ask for"


@pytest.mark.parametrize(("question", "entity", "attribute"), [
    ("What is the population of Blue Lake Township, Michigan?", "Blue Lake Township, Michigan", "population"),
    ("When was the Douglas County Courthouse built?", "Douglas County Courthouse", "built"),
    ("What sport is Bobby Carpenter associated with?", "Bobby Carpenter", "sport"),
    ("Who directed Casablanca?", "Casablanca", "director"),
    ("Milvus 的最大维度是多少？", "Milvus", "最大维度"),
    ("What is the median age in Fort Kent?", "Fort Kent", "median age"),
    ("412 Squadron was formed in which year?", "412 Squadron", "formed"),
    ("1st arrondissement is located in which city?", "1st arrondissement", "city"),
    ("What is Robin Wright known for?", "Robin Wright", "known for"),
    ("What river does Henrys Fork flow into?", "Henrys Fork", "river"),
    ("What position did Gary Bennett play in during his professional career?", "Gary Bennett", "position"),
    ("When and where was George Grimes born?", "George Grimes", "born"),
    ("2nd Duke of Newcastle, what year was he born?", "2nd Duke of Newcastle", "born"),
    ("When was Attorney General Hale called to the Bar?", "Attorney General Hale", "called to the bar"),
    ("When did the Battle of Orvale take place?", "Battle of Orvale", "take place"),
    ("When did Cosimo de' Rossi become Duke of Lucca?", "Cosimo de' Rossi", "become duke of lucca"),
    ("When did Arne Holm die?", "Arne Holm", "died"),
    ("When was Evening Tide first broadcast?", "Evening Tide", "first broadcast"),
    ("When was Lake Orvale last drained?", "Lake Orvale", "last drained"),
    ("How many buildings are included in the Orvale Historic District?", "Orvale Historic District", "buildings"),
    ("How many libraries are part of the OCLS?", "OCLS", "libraries"),
    ("How many people live in Orvale?", "Orvale", "population"),
    # the name in the subject phrase, not the kind of thing it is
    ('Who is the artist of the "Orvale Nights" EP?', "Orvale Nights", "artist"),
    ('Who is the artist of the album "Tolva Road"?', "Tolva Road", "artist"),
    ("What is the length of the Orvale river?", "Orvale", "length"),
    ("When was the Evening Tide TV series released?", "Evening Tide", "released"),
    ("When was the North Orvale electoral district created?", "North Orvale electoral district", "created"),
    ("Who created Evening Tide?", "Evening Tide", "creator"),
])
def test_a_lookup_is_one_sub_question_about_its_entity(planner: DeterministicPlanner, question: str, entity: str,
                                                      attribute: str) -> None:
    plan = planner.plan(question, budget=PlanBudget())
    assert plan.kind == "lookup" and plan.entities == [entity] and plan.attributes == [attribute]
    assert [s.text for s in plan.sub_questions] == [question]
    assert plan.sub_questions[0].entities == [entity] and plan.sub_questions[0].role == "core"


def test_a_chinese_attribute_written_a_slash_b_is_two_attributes(planner: DeterministicPlanner) -> None:
    plan = planner.plan("TDengine 与 InfluxDB 相比，在写入吞吐以及表结构/序列基数限制方面，文档给出了哪些数字？",
                        budget=PlanBudget())
    assert plan.attributes == ["写入吞吐", "表结构", "序列基数限制"]
    assert plan.metrics == ["ingest_throughput", "max_columns", "max_series"]
    english = planner.plan("Compare Kafka and Pulsar on read/write throughput", budget=PlanBudget())
    assert "read/write throughput" in english.attributes


def test_keywords_are_whole_words(planner: DeterministicPlanner) -> None:
    plan = planner.plan("Which message broker should we choose for high-throughput event streaming: Kafka, RabbitMQ "
                        "or Pulsar?", budget=PlanBudget())
    words = [w for s in plan.sub_questions for k in s.keywords for w in k.split()]
    assert not [w for w in words if w.endswith("-") or w.startswith("-")]
    assert plan.attributes == ["high-throughput event streaming"]


def test_source_types(planner: DeterministicPlanner) -> None:
    plan = planner.plan(RAFT, budget=PlanBudget())
    mechanism = next(s for s in plan.sub_questions if "internally" in s.text)
    assert mechanism.source_types == ["academic", "web"] and mechanism.depth == 3
    assert all(s.source_types == ["web"] for s in plan.sub_questions if s.role == "background")
    internal = planner.plan(RAFT, budget=PlanBudget(source_types=["internal", "web"]))
    assert all(s.source_types == ["internal", "web"] for s in internal.sub_questions)
    only_internal = planner.plan(BROKER, budget=PlanBudget(source_types=["internal"]))
    assert all(s.source_types == ["internal"] for s in only_internal.sub_questions)


@pytest.mark.parametrize(("max_n", "min_n", "max_depth"), [(5, 5, 15), (8, 5, 9), (6, 3, 3)])
def test_budget_is_a_hard_limit(planner: DeterministicPlanner, max_n: int, min_n: int, max_depth: int) -> None:
    budget = PlanBudget(max_sub_questions=max_n, min_sub_questions=min_n, max_total_depth=max_depth)
    plan = planner.plan(BROKER, budget=budget)
    assert len(plan.sub_questions) <= max_n
    assert sum(s.depth for s in plan.sub_questions) <= max_depth
    if max_depth >= min_n:
        assert len(plan.sub_questions) >= min_n  # trimming depths comes before dropping questions


def test_schedule_rejects_a_cycle_and_break_cycles_repairs_one() -> None:
    a, b = SubQuestion(id="Q-a", text="a", depends_on=["Q-b"]), SubQuestion(id="Q-b", text="b", depends_on=["Q-a"])
    with pytest.raises(ValueError, match="cycle"):
        schedule(Plan(question="q", sub_questions=[a, b]))
    repaired = break_cycles({"Q-a": ["Q-b"], "Q-b": ["Q-a"]}, {"Q-a": "background", "Q-b": "comparison"})
    assert repaired == {"Q-a": [], "Q-b": ["Q-a"]}  # the background no longer waits for the comparison


# --- the LLM planner against the scripted endpoint ---------------------------------------------------

CANDIDATES = [
    {"text": "What is Apache Kafka and what is it built for?", "role": "background", "entities": ["Kafka"]},
    {"text": "What is RabbitMQ and what is it built for?", "role": "background", "entities": ["RabbitMQ"]},
    {"text": "What is Apache Pulsar and what is it built for?", "role": "background", "entities": ["Pulsar"]},
    {"text": "How do Kafka, RabbitMQ and Pulsar persist and replicate messages?", "role": "core",
     "entities": ["Kafka", "RabbitMQ", "Pulsar"], "aspects": ["durability"], "academic": True},
    {"text": "How do Kafka, RabbitMQ and Pulsar compare on throughput and latency?", "role": "comparison",
     "entities": ["Kafka", "RabbitMQ", "Pulsar"], "aspects": ["performance"], "keywords": ["throughput"]},
    {"text": "How much operational effort do Kafka, RabbitMQ and Pulsar need?", "role": "Comparison",
     "entities": ["Kafka", "RabbitMQ", "Pulsar"], "aspects": ["operations"]},
    {"text": "Which broker suits which event-streaming workload?", "role": "impact",
     "entities": ["Kafka", "RabbitMQ", "Pulsar"]},
    {"text": "What are the risks of running a self-managed broker?", "role": "risk-ish"},
]


def choice(n: int, deps: list[str] | None = None, depth: int = 2, importance: float = 0.8) -> dict[str, object]:
    return {"id": f"C{n}", "importance": importance, "depth": depth, "depends_on": deps or []}


def llm_planner(server: ScriptedLLMServer, budget: Budget | None = None) -> LLMPlanner:
    client = LLMClient(LLMConfig(base_url=server.base_url, model="m", timeout_s=5), budget=budget,
                       backoff_base_s=0.01)
    return LLMPlanner(client, DeterministicPlanner(HashEmbedder()))


@pytest.mark.integration
def test_llm_plan(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer({"candidates": CANDIDATES}),
                      answer({"selected": [choice(1), choice(2), choice(3), choice(5, ["C1", "C2", "C3"]),
                                           choice(6, ["C1"]), choice(7, ["C5", "C6"], importance=0.9)]}))
    budget = PlanBudget()
    plan = llm_planner(llm_server).plan(BROKER, budget=budget)
    check_plan(plan, budget)
    assert plan.method == "llm" and plan.candidates_considered == len(CANDIDATES)
    by_text = {s.text: s for s in plan.sub_questions}
    assert list(by_text) == [CANDIDATES[i - 1]["text"] for i in (1, 2, 3, 5, 6, 7)]
    ids = {n: question_id(str(CANDIDATES[n - 1]["text"])) for n in range(1, 9)}
    assert by_text[str(CANDIDATES[6]["text"])].depends_on[:2] == [ids[5], ids[6]]
    assert set(by_text[str(CANDIDATES[4]["text"])].depends_on) == {ids[1], ids[2], ids[3]}
    assert by_text[str(CANDIDATES[5]["text"])].role == "comparison"  # "Comparison" normalised
    assert by_text[str(CANDIDATES[0]["text"])].entities == ["Apache Kafka"]  # aliases resolved
    assert [r.role for r in llm_server.requests] == ["planner", "planner"]
    assert "<source>" + BROKER + "</source>" in llm_server.requests[0].last_user
    assert llm_server.pending() == 0


@pytest.mark.integration
def test_llm_plan_with_a_cycle_unknown_ids_and_too_much_depth_is_repaired(llm_server: ScriptedLLMServer) -> None:
    selected = [choice(1, ["C7"], depth=3), choice(2, depth=3), choice(3, depth=3),
                choice(5, ["C1", "C99", "C5"], depth=3), choice(6, ["C7"], depth=3),
                choice(7, ["C6", "nonsense"], depth=3), choice(4, depth=9), choice(8, depth=3), choice(42)]
    llm_server.script(answer({"candidates": CANDIDATES}), answer({"selected": selected}))
    budget = PlanBudget()
    plan = llm_planner(llm_server).plan(BROKER, budget=budget)
    check_plan(plan, budget)  # acyclic, no unknown ids, depth sum within 15 although the model asked 27
    assert plan.method == "llm" and len(plan.sub_questions) == 8
    edges = {(d, s.id) for s in plan.sub_questions for d in s.depends_on}
    c6, c7 = (question_id(str(CANDIDATES[n]["text"])) for n in (5, 6))
    assert (c7, c6) not in edges or (c6, c7) not in edges


@pytest.mark.integration
def test_malformed_json_falls_back_to_the_deterministic_planner(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(malformed({"candidates": "none"}), malformed({"candidates": "still none"}))
    budget = PlanBudget()
    plan = llm_planner(llm_server).plan(BROKER, budget=budget)
    check_plan(plan, budget)
    assert plan.method == "deterministic"
    assert plan == DeterministicPlanner(HashEmbedder()).plan(BROKER, budget=budget)
    assert len(llm_server.requests) == 2  # the question and one re-ask, then no more calls


@pytest.mark.integration
def test_budget_exceeded_falls_back(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer({"candidates": CANDIDATES}))
    budget = Budget(max_calls=1)
    plan = llm_planner(llm_server, budget).plan(BROKER, budget=PlanBudget())
    assert plan.method == "deterministic" and budget.tripped
    assert len(llm_server.requests) == 1  # the converge call was never sent


@pytest.mark.integration
def test_llm_plan_for_a_chinese_question_keeps_it_chinese(llm_server: ScriptedLLMServer) -> None:
    zh = [{"text": "Apache Kafka 的吞吐量如何？", "role": "core", "entities": ["Kafka"], "aspects": ["performance"]},
          {"text": "What is RabbitMQ?", "role": "background", "entities": ["RabbitMQ"]},
          {"text": "Kafka 与 RabbitMQ 的运维成本对比？", "role": "comparison", "entities": ["Kafka", "RabbitMQ"]}]
    llm_server.script(answer({"candidates": zh}), answer({"selected": [choice(1), choice(2), choice(3)]}))
    budget = PlanBudget()
    plan = llm_planner(llm_server).plan(ZH_COMPARE, budget=budget)
    check_plan(plan, budget)  # two usable picks: deterministic candidates top the plan up to five
    assert plan.method == "llm" and plan.language == "zh"
    assert all(CJK.search(s.text) for s in plan.sub_questions)
    assert "Apache Kafka 的吞吐量如何？" in {s.text for s in plan.sub_questions}


def test_a_lookup_attribute_is_a_metric_only_when_it_names_a_known_quantity(planner: DeterministicPlanner) -> None:
    assert planner.plan("What is the mascot of Ridge High School?", budget=PlanBudget()).metrics == []
    assert planner.plan("What is the population of Ridge Falls?", budget=PlanBudget()).metrics == ["population"]
    assert planner.plan("What is the median age in Ridge Falls?", budget=PlanBudget()).metrics == ["age"]
