"""Word lists for question analysis, planning and query rewriting, in English and Chinese.

Data, not logic: an aspect is one row with its trigger words, its labels and its query synonyms in
both languages, so adding an aspect (or a language) is one entry here and nothing else changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from openresearch.ingest.textnorm import words


@dataclass(frozen=True)
class Aspect:
    key: str
    en_terms: tuple[str, ...]  # trigger words, matched on word boundaries (lower-case)
    zh_terms: tuple[str, ...]  # trigger words, matched as substrings
    en_label: str  # how a sub-question names it
    zh_label: str
    en_ask: str  # per-entity question; {e} is the entity
    zh_ask: str
    en_query: tuple[str, ...]  # search keywords and synonyms, most specific first
    zh_query: tuple[str, ...]


ASPECTS: tuple[Aspect, ...] = (
    Aspect("performance", ("performance", "throughput", "latency", "fast", "faster", "speed", "benchmark",
                           "benchmarks", "qps", "tps"),
           ("性能", "吞吐", "延迟", "时延", "速度", "基准"),
           "performance (throughput and latency)", "性能（吞吐量与延迟）",
           "What throughput and latency does {e} achieve in benchmarks, and under which conditions?",
           "{e} 在基准测试中的吞吐量和延迟如何？测试条件是什么？",
           ("throughput", "latency", "benchmark", "performance"), ("吞吐量", "延迟", "性能", "基准测试")),
    Aspect("cost", ("cost", "costs", "price", "prices", "pricing", "expensive", "cheap", "cheaper", "tco"),
           ("成本", "价格", "费用", "花费", "贵"),
           "cost", "成本",
           "What does it cost to run {e}, in infrastructure, licences and staff?",
           "运行 {e} 的成本如何（基础设施、许可和人力）？",
           ("cost", "pricing", "TCO", "price"), ("成本", "价格", "费用")),
    Aspect("operations", ("operations", "operational", "ops", "operate", "operating", "maintenance",
                          "deployment", "deploy", "monitoring", "upgrade", "upgrades"),
           ("运维", "部署", "维护", "监控", "升级"),
           "operations (deployment, monitoring, upgrades)", "运维（部署、监控与升级）",
           "What does operating {e} involve (deployment, monitoring, upgrades)?",
           "{e} 的部署、监控和升级等运维工作量如何？",
           ("operations", "deployment", "monitoring", "maintenance"), ("运维", "部署", "监控")),
    Aspect("licence", ("licence", "license", "licensing", "licenses", "open source", "open-source",
                       "proprietary"),
           ("许可", "协议", "开源", "授权"),
           "licence", "许可证",
           "Under which licence is {e} distributed, and what do its terms allow?",
           "{e} 采用什么许可证，有哪些限制？",
           ("license", "licensing", "open source"), ("许可证", "开源协议")),
    Aspect("community", ("community", "ecosystem", "adoption", "popularity", "popular", "support",
                         "contributors"),
           ("社区", "生态", "流行", "普及", "支持"),
           "community and ecosystem", "社区与生态",
           "How active are the community and ecosystem around {e}?",
           "{e} 的社区和生态系统活跃度如何？",
           ("community", "ecosystem", "contributors", "adoption"), ("社区", "生态")),
    Aspect("risk", ("risk", "risks", "security", "secure", "vulnerability", "vulnerabilities", "lock-in",
                    "safety", "threat"),
           ("风险", "安全", "漏洞", "隐患"),
           "risks and security", "风险与安全",
           "What security risks and known vulnerabilities affect {e}?",
           "{e} 有哪些安全风险和已知漏洞？",
           ("risks", "security", "vulnerability", "CVE"), ("风险", "安全", "漏洞")),
    Aspect("scalability", ("scalability", "scalable", "scale", "scaling", "partitions", "sharding",
                           "horizontal"),
           ("扩展", "伸缩", "扩容", "分区", "分片"),
           "scalability", "扩展性",
           "How does {e} scale, and where are its limits?",
           "{e} 的扩展性如何，上限在哪里？",
           ("scalability", "scaling", "partitions", "cluster size"), ("扩展性", "扩容", "集群规模")),
    Aspect("durability", ("durability", "durable", "reliability", "reliable", "availability",
                          "fault tolerance", "fault-tolerant", "data loss", "replication", "guarantees"),
           ("可靠", "持久", "高可用", "容错", "丢失", "副本"),
           "durability and reliability", "可靠性与持久性",
           "What durability and reliability guarantees does {e} provide?",
           "{e} 提供哪些可靠性和持久性保证？",
           ("durability", "replication", "fault tolerance", "data loss"), ("可靠性", "持久化", "高可用")),
    Aspect("usability", ("usability", "ease of use", "easy", "learning curve", "developer experience",
                         "simplicity", "simple"),
           ("易用", "学习曲线", "上手", "简单"),
           "ease of use", "易用性",
           "How easy is {e} to learn and use for developers?",
           "{e} 的易用性和学习曲线如何？",
           ("ease of use", "learning curve", "developer experience"), ("易用性", "学习曲线", "上手")),
    Aspect("compatibility", ("compatibility", "compatible", "integration", "integrations", "interoperability",
                             "protocol", "protocols", "api"),
           ("兼容", "集成", "协议支持", "接口"),
           "compatibility and integrations", "兼容性与集成",
           "Which protocols, clients and integrations does {e} support?",
           "{e} 支持哪些协议、客户端和集成？",
           ("integration", "compatibility", "protocol", "client libraries"), ("兼容性", "集成", "客户端")),
)
ASPECT_BY_KEY = {a.key: a for a in ASPECTS}

# Aspects a selection question implicitly asks about when it names none.
DEFAULT_SELECTION_ASPECTS = ("performance", "durability", "operations")

# Question kinds and the markers that signal them, checked in this order.
EN_KIND_MARKERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("selection", ("which", "choose", "choosing", "should i use", "should we use", "best", "pick",
                   "select", "recommend")),
    ("comparison", ("vs", "vs.", "versus", "compare", "compared", "comparison", "difference", "differences",
                    "better than")),
    ("trend", ("trend", "trends", "future", "outlook", "evolving", "evolution", "roadmap")),
    ("why", ("why",)),
    ("how", ("how does", "how do", "how is", "how are", "how to", "how can", "mechanism", "works")),
)
ZH_KIND_MARKERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("selection", ("选择", "选型", "哪个", "哪一个", "选哪", "推荐", "应该用", "该用")),
    ("comparison", ("对比", "比较", "区别", "差异", "相比", "不同", "优劣")),
    ("trend", ("趋势", "未来", "前景", "演进", "发展方向")),
    ("why", ("为什么", "为何", "原因")),
    ("how", ("如何", "怎么", "怎样", "原理", "机制", "工作方式")),
)

# Words that are capitalised in questions without being names.
NOT_ENTITIES = words(
    "what which who whom whose why how when where is are was were do does did can could should would "
    "will may might shall compare comparing comparison choose choosing versus vs the a an and or for in "
    "on of to with between i we you our my it its this that these those tell explain describe give list "
    "summarise summarize best better top pros cons overview introduction guide please"
)
# Question scaffolding that is not the topic ("How does Raft consensus WORK?").
EN_FILLER = NOT_ENTITIES | words(
    "work works working use used using pick select recommend recommended difference differences "
    "compared main key role roles higher lower more less most least good great vs. options option "
    "need needs want terms regarding respect about become became happen happened matter make made get "
    "high low trend trends future outlook evolving evolution roadmap"
)
ZH_FILLER = ("以及", "各自", "给出",
             "哪个", "哪一个", "哪些", "什么", "如何", "怎么", "怎样", "为什么", "为何", "是否", "应该", "选择",
             "选型", "对比", "比较", "区别", "差异", "相比", "之间", "方面", "更高", "更低", "更好", "更", "在",
             "和", "与", "及", "或", "的", "了", "吗", "呢", "上", "中", "是", "有", "我们", "我", "请", "一下",
             "适合", "哪", "个", "高", "低", "好", "用", "该")

# Technology names matched case-sensitively ("Spark", not "spark"); they extend the alias list.
TECH_NAMES = (
    "Raft", "Paxos", "ZAB", "gRPC", "GraphQL", "REST", "HTTP/2", "HTTP/3", "QUIC", "MQTT", "AMQP",
    "Redis", "Memcached", "MySQL", "SQLite", "Cassandra", "ScyllaDB", "ClickHouse", "Elasticsearch",
    "OpenSearch", "etcd", "Consul", "Docker", "Podman", "Terraform", "Ansible", "Prometheus", "Grafana",
    "ActiveMQ", "ZeroMQ", "RocketMQ", "Flink", "Spark", "Hadoop", "Kinesis", "Event Hubs", "FalkorDB",
    "PyTorch", "TensorFlow", "JAX", "LLaMA", "GPT-4", "BERT", "Transformer", "Rust", "Python", "Java",
    "TypeScript", "WebAssembly", "Linux", "Nginx", "Envoy", "Istio",
)
