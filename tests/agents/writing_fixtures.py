"""Hand-built evidence, plans and conflicts for the writer, verifier and judge tests (EN and ZH)."""

from __future__ import annotations

from datetime import date
from urllib.parse import urlsplit

from openresearch.conflicts import ObservedValue, build_group
from openresearch.models import (
    ConflictGroup,
    EvidenceView,
    ObservationView,
    Plan,
    SourceView,
    SubQuestion,
)

Obs = tuple[str, str, float, str, str]  # entity, metric, canonical value, canonical unit, condition


def ev(eid: str, quote: str, obs: list[Obs] | None = None, *, url: str = "https://a.example/x",
       title: str | None = "Broker benchmark", published: date | None = None, entities: list[str] | None = None,
       score: float = 0.0) -> EvidenceView:
    return EvidenceView(
        id=eid, quote=quote, type="statistic" if obs else "claim", score=score,
        source=SourceView(id="S-" + url, url=url, title=title, published_at=published),
        entities=entities or [o[0] for o in obs or []],
        observations=[ObservationView(id=f"O-{eid}-{i}", entity=e, metric=m, value=v, unit=u, raw_value=str(v),
                                      raw_unit=u, condition=c) for i, (e, m, v, u, c) in enumerate(obs or [])],
    )


def observed(e: EvidenceView, o: ObservationView) -> ObservedValue:
    return ObservedValue(entity_id="N-" + o.entity, entity=o.entity, metric=o.metric, unit=o.unit,
                         condition=o.condition, condition_key="", value=o.value, raw_value=o.raw_value,
                         raw_unit=o.raw_unit, evidence_id=e.id, quote=e.quote, source_id=e.source.id, url=e.source.url,
                         domain=urlsplit(e.source.url).hostname or "", title=e.source.title,
                         published=e.source.published_at, trust=e.source.trust)


def conflict(*items: EvidenceView) -> ConflictGroup:
    """The conflict group of these items' first observations, built by the same pure core the store uses."""
    group = build_group([observed(e, e.observations[0]) for e in items], 0.05)
    assert group is not None
    return group


# --- English ---------------------------------------------------------------------------------------
KAFKA_A = ev("E-kafkaa", "Kafka sustained 605 MB/s on three brokers.",
             [("Apache Kafka", "throughput", 605, "MB/s", "3 brokers")], title="Kafka bench 2024",
             published=date(2024, 3, 1), score=0.9)
KAFKA_B = ev("E-kafkab", "In our test Kafka reached 420 MB/s with default settings.",
             [("Apache Kafka", "throughput", 420, "MB/s", "")], url="https://b.example/y", title="Other lab",
             published=date(2023, 5, 2), score=0.8)
RABBIT = ev("E-rabbit", "RabbitMQ handled 10,940 messages per second in the same setup.",
            [("RabbitMQ", "throughput", 10940, "msg/s", "")], url="https://c.example/z", title=None, score=0.7)
PULSAR = ev("E-pulsar", "Pulsar delivered 310 MB/s on three brokers.",
            [("Apache Pulsar", "throughput", 310, "MB/s", "")], url="https://d.example/p", title="Pulsar notes")
KAFKA_BG = ev("E-kafkabg", "Apache Kafka is a distributed event streaming platform used by thousands of companies.",
              entities=["Apache Kafka"], url="https://kafka.example/intro", title="Kafka docs")
EN_EVIDENCE = [KAFKA_A, KAFKA_B, RABBIT, PULSAR, KAFKA_BG]
EN_CONFLICT = conflict(KAFKA_A, KAFKA_B)
EN_PLAN = Plan(question="Which message broker has the highest throughput?", entities=["Apache Kafka", "RabbitMQ"],
               sub_questions=[
                   SubQuestion(id="Q-cmp", text="How does Kafka throughput compare with RabbitMQ and Pulsar?",
                               role="comparison"),
                   SubQuestion(id="Q-bg", text="What is Apache Kafka?", role="background"),
                   SubQuestion(id="Q-risk", text="What are the operational risks?", role="impact"),
               ])
EN_BY_QUESTION = {"Q-cmp": [KAFKA_A, KAFKA_B, RABBIT, PULSAR], "Q-bg": [KAFKA_BG]}

# --- Chinese ---------------------------------------------------------------------------------------
ROCKET = ev("E-rocket", "在三节点集群上，RocketMQ 单机吞吐达到1.2万条/秒。",
            [("RocketMQ", "吞吐量", 12000, "msg/s", "")], url="https://zh.example/rocket", title="RocketMQ 压测报告",
            published=date(2024, 1, 15))
ROCKET_B = ev("E-rocketb", "另一项测试显示 RocketMQ 吞吐为 9,000 条/秒。",
              [("RocketMQ", "吞吐量", 9000, "msg/s", "")], url="https://zh.example/other", title="社区测试")
ROCKET_BG = ev("E-rocketbg", "RocketMQ 是阿里巴巴开源的分布式消息中间件。", entities=["RocketMQ"],
               url="https://zh.example/intro", title="RocketMQ 简介")
ZH_CONFLICT = conflict(ROCKET, ROCKET_B)
ZH_PLAN = Plan(question="RocketMQ 的性能如何？", language="zh", entities=["RocketMQ"], sub_questions=[
    SubQuestion(id="Z-core", text="RocketMQ 的吞吐量是多少？", role="core"),
    SubQuestion(id="Z-bg", text="RocketMQ 是什么？", role="background"),
    SubQuestion(id="Z-risk", text="RocketMQ 有哪些风险？", role="impact"),
])
ZH_BY_QUESTION = {"Z-core": [ROCKET, ROCKET_B], "Z-bg": [ROCKET_BG]}


Said = tuple[str, float, str, str, str]  # metric, canonical value, unit, the value as written, condition


def entry(n: int, quote: str, said: list[Said], *, entity: str = "Zorbq",
          source: SourceView | None = None) -> EvidenceView:
    """Evidence E-00000000000n of one product from one document (a change log by default), its figures as written."""
    src = source or SourceView(id="S-log", url="local:///docs/Changelog", title="Changelog")
    return EvidenceView(id=f"E-{n:012d}", quote=quote, type="statistic", score=0.5, source=src, entities=[entity],
                        observations=[ObservationView(id=f"O-{n}-{k}", entity=entity, metric=m, value=v, unit=u,
                                                      raw_value=r, raw_unit=u, condition=c)
                                      for k, (m, v, u, r, c) in enumerate(said)])
