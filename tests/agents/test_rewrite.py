"""Query rewriting: 2-4 focused queries per sub-question, each consistent with it by embedding cosine;
off-topic queries rejected, regenerated, then replaced by the sub-question text."""

from __future__ import annotations

import math
import re

import pytest
from llm_server import ScriptedLLMServer, answer, refusal

from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import LLMConfig
from openresearch.agents.plan.planner import DeterministicPlanner, PlanBudget
from openresearch.agents.plan.rewrite import rewrite, rewrite_plan, variants
from openresearch.identity import question_id
from openresearch.ingest.embed import Embedder, HashEmbedder, SentenceTransformerEmbedder
from openresearch.models import Plan, SubQuestion

CJK = re.compile(r"[\u4e00-\u9fff]")
BROKER = "Which message broker should we choose for event streaming: Kafka, RabbitMQ or Pulsar?"
ZH_COMPARE = "Kafka 和 RabbitMQ 在吞吐量和运维成本上的区别？"
SUB_TEXT = "What throughput does Apache Kafka reach in benchmarks?"
SUB = SubQuestion(id=question_id(SUB_TEXT), text=SUB_TEXT, role="core", entities=["Apache Kafka"],
                  aspects=["performance"], keywords=["Apache Kafka", "throughput", "benchmark"])
PLAN = Plan(question="How fast is Apache Kafka?", sub_questions=[SUB])
ON_TOPIC = "Apache Kafka throughput benchmarks"
OFF_TOPIC = ["best pizza dough recipe in Naples", "chocolate cake recipe with cherries",
             "football league scores this weekend"]


def cosine(embedder: Embedder, a: str, b: str) -> float:
    va, vb = embedder.embed([a, b])
    return sum(x * y for x, y in zip(va, vb, strict=True)) / (
        math.sqrt(sum(x * x for x in va)) * math.sqrt(sum(y * y for y in vb)))


def client_for(server: ScriptedLLMServer) -> LLMClient:
    return LLMClient(LLMConfig(base_url=server.base_url, model="m", timeout_s=5), backoff_base_s=0.01)


def plan_for(question: str, embedder: Embedder) -> Plan:
    return DeterministicPlanner(embedder).plan(question, budget=PlanBudget())


@pytest.mark.parametrize("question", [BROKER, "How does Raft consensus work?", ZH_COMPARE])
def test_deterministic_queries(question: str) -> None:
    embedder = HashEmbedder()
    plan, results = rewrite_plan(plan_for(question, embedder), embedder=embedder, threshold=0.3)
    for sub, result in zip(plan.sub_questions, results, strict=True):
        assert sub.queries == result.queries and result.method == "deterministic"
        assert 2 <= len(result.queries) <= 4 and len(set(result.queries)) == len(result.queries)
        assert not set(result.rejected) & set(result.queries)
    if plan.language == "zh":  # Chinese and English queries, alternating
        queries = [q for s in plan.sub_questions for q in s.queries]
        assert any(CJK.search(q) for q in queries) and any(not CJK.search(q) for q in queries)


def test_variants_name_entity_and_aspect_terms() -> None:
    en = variants(SUB, PLAN)
    assert en[0] == "Apache Kafka throughput latency"
    assert all("Apache Kafka" in q for q in en[:4])
    zh_sub = SUB.model_copy(update={"text": "Apache Kafka 的吞吐量如何？"})
    zh = variants(zh_sub, PLAN.model_copy(update={"language": "zh"}))
    assert zh[:2] == ["Apache Kafka 吞吐量 延迟", "Apache Kafka throughput latency"]


def test_threshold_is_enforced_deterministically() -> None:
    result = rewrite(SUB, PLAN, embedder=HashEmbedder(), threshold=1.5, max_regen=2)  # no cosine reaches it
    assert result.queries == [SUB_TEXT]  # nothing else is close enough: the sub-question itself
    assert result.rejected and result.fallbacks == 1
    assert result.regenerated <= 2 * 3  # at most max_regen replacements per slot


@pytest.mark.integration
def test_off_topic_llm_query_is_regenerated_then_replaced_by_the_sub_question(llm_server: ScriptedLLMServer) -> None:
    embedder = HashEmbedder()
    assert cosine(embedder, ON_TOPIC, SUB_TEXT) >= 0.5 > max(cosine(embedder, q, SUB_TEXT) for q in OFF_TOPIC)
    llm_server.script(answer({"queries": [ON_TOPIC, OFF_TOPIC[0]]}), answer({"query": OFF_TOPIC[1]}),
                      answer({"query": OFF_TOPIC[2]}))
    result = rewrite(SUB, PLAN, embedder=embedder, client=client_for(llm_server), threshold=0.5)
    assert result.method == "llm"
    assert result.queries == [ON_TOPIC, SUB_TEXT]
    assert result.rejected == OFF_TOPIC and result.regenerated == 2 and result.fallbacks == 1
    assert [r.role for r in llm_server.requests] == ["rewrite"] * 3
    assert OFF_TOPIC[0] in llm_server.requests[1].last_user  # the retry names the rejected query
    assert OFF_TOPIC[1] in llm_server.requests[2].last_user
    assert llm_server.pending() == 0


@pytest.mark.integration
def test_a_regenerated_query_that_fits_is_kept(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer({"queries": [OFF_TOPIC[0], ON_TOPIC]}),
                      answer({"query": "Apache Kafka throughput benchmark results"}))
    result = rewrite(SUB, PLAN, embedder=HashEmbedder(), client=client_for(llm_server))
    assert result.queries == ["Apache Kafka throughput benchmark results", ON_TOPIC]
    assert result.rejected == [OFF_TOPIC[0]] and result.regenerated == 1 and result.fallbacks == 0


@pytest.mark.integration
def test_llm_failure_takes_the_deterministic_path(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(refusal())
    result = rewrite(SUB, PLAN, embedder=HashEmbedder(), client=client_for(llm_server), threshold=0.3)
    assert result.method == "deterministic" and 2 <= len(result.queries) <= 4
    assert result.queries[0] == "Apache Kafka throughput latency"


# --- with the real sentence embedder: the check is semantic, not lexical ------------------------------

@pytest.fixture(scope="module")
def minilm() -> Embedder:
    embedder = SentenceTransformerEmbedder()
    try:
        embedder.embed(["warm-up"])
    except Exception as exc:  # no weights offline, no torch: the semantic test cannot run here
        pytest.skip(f"sentence-transformers model unavailable: {exc}")
    return embedder


@pytest.mark.integration
def test_real_embedder_plans_and_rewrites(minilm: Embedder, llm_server: ScriptedLLMServer) -> None:
    for question in (BROKER, ZH_COMPARE):
        plan = plan_for(question, minilm)
        assert 4 <= len(plan.sub_questions) <= 8 and sum(s.depth for s in plan.sub_questions) <= 15
        assert {"core", "comparison"} <= {s.role for s in plan.sub_questions}
        _, results = rewrite_plan(plan, embedder=minilm)
        assert all(2 <= len(r.queries) <= 4 for r in results)
    # paraphrase with no shared words passes; an unrelated query fails, whatever its wording
    assert cosine(minilm, "Kafka messages per second benchmark", SUB_TEXT) >= 0.5
    llm_server.script(answer({"queries": ["Kafka messages per second benchmark", OFF_TOPIC[0]]}),
                      answer({"query": OFF_TOPIC[1]}), answer({"query": OFF_TOPIC[2]}))
    result = rewrite(SUB, PLAN, embedder=minilm, client=client_for(llm_server))
    assert result.queries == ["Kafka messages per second benchmark", SUB_TEXT]
    assert result.rejected == OFF_TOPIC


def test_a_sub_question_that_asks_for_quantities_is_searched_by_them_in_both_languages() -> None:
    """"TDengine 的写入吞吐…分别是多少" asks for quantities: its queries name them (in English too, for the English
    documents), never "TDengine explained" or "TDengine 原理"."""
    question = "TDengine 与 InfluxDB 相比，在写入吞吐、存储压缩以及序列基数限制方面，各自的官方文档给出了哪些具体数字？"
    plan = DeterministicPlanner(HashEmbedder()).plan(question, budget=PlanBudget())
    per_entity = [q for q in plan.sub_questions if q.entities == ["TDengine"]]
    assert per_entity and set(per_entity[0].aspects) >= {"ingest_throughput", "max_series"}
    queries = variants(per_entity[0], plan)
    joined = " | ".join(queries)
    assert "explained" not in joined and "how it works" not in joined and "原理" not in joined
    assert any("series cardinality" in q for q in queries) and any(CJK.search(q) for q in queries)
    assert all(q.startswith("TDengine") for q in queries)
