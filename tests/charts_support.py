"""A hand-built report with a comparison, a conflict and a year, on made-up products, for the chart tests and
bench/bench_charts.py."""

from __future__ import annotations

import time
from datetime import date
from urllib.parse import urlsplit

from openresearch.agents.write.report import to_markdown
from openresearch.agents.write.report_model import Report
from openresearch.conflicts import ObservedValue, build_group
from openresearch.graph.store import GraphStore
from openresearch.models import (
    ConflictGroup,
    DraftSection,
    EvidenceView,
    ObservationView,
    Plan,
    Sentence,
    SourceView,
)

Obs = tuple[str, str, float, str, str, str, str]  # entity, metric, value, unit, raw value, raw unit, condition


def ev(eid: str, quote: str, obs: list[Obs], url: str, title: str, published: date | None = None) -> EvidenceView:
    return EvidenceView(
        id=eid, quote=quote, type="statistic",
        source=SourceView(id="S-" + eid, url=url, title=title, published_at=published),
        entities=[o[0] for o in obs],
        observations=[ObservationView(id=f"O-{eid}-{i}", entity=e, metric=m, value=v, unit=u, raw_value=rv,
                                      raw_unit=ru, condition=c) for i, (e, m, v, u, rv, ru, c) in enumerate(obs)])


def conflict(*items: EvidenceView) -> ConflictGroup:
    rows = [ObservedValue(entity_id="N-" + o.entity, entity=o.entity, metric=o.metric, unit=o.unit,
                          condition=o.condition, condition_key="", value=o.value, raw_value=o.raw_value,
                          raw_unit=o.raw_unit, evidence_id=e.id, quote=e.quote, source_id=e.source.id,
                          url=e.source.url, domain=urlsplit(e.source.url).hostname or "", title=e.source.title,
                          published=e.source.published_at, trust=e.source.trust)
            for e in items for o in e.observations[:1]]
    group = build_group(rows, 0.05)
    assert group is not None
    return group


ZORK_A = ev("E-a00001", "Zorkq reached 605 MB/s with three brokers.",
            [("Zorkq", "throughput", 605, "MB/s", "605", "MB/s", "3 brokers")],
            "https://bench-a.example/zorkq", "Zorkq bench A", date(2024, 3, 1))
ZORK_B = ev("E-b00002", "Zorkq peaked at 1.2 GB/s with three brokers.",
            [("Zorkq", "throughput", 1200, "MB/s", "1.2", "GB/s", "3 brokers")],
            "https://bench-b.example/zorkq", "Zorkq bench B", date(2025, 1, 9))
BLARN = ev("E-c00003", "Blarnmq moved 5 MB/s in the same setup.",
           [("Blarnmq", "throughput", 5, "MB/s", "5", "MB/s", "")],
           "https://bench-c.example/blarnmq", "Blarnmq notes <b>", date(2023, 6, 2))
ZORK_YEAR = ev("E-d00004", "Zorkq was first released in 2019.",
               [("Zorkq", "released", 2019, "year", "2019", "year", "")],
               "https://zorkq.example/history", "Zorkq history")
BLARN_YEAR = ev("E-e00005", "Blarnmq was first released in 2016.",
                [("Blarnmq", "released", 2016, "year", "2016", "year", "")],
                "https://blarnmq.example/history", "Blarnmq history")
ZH = ev("E-f00006", "Zorkq 的吞吐量为 700 MB/s（三个代理）。",
        [("Zorkq", "throughput", 700, "MB/s", "700", "MB/s", "三个代理")],
        "https://bench-zh.example/zorkq", "Zorkq 基准测试", date(2025, 2, 1))


def sample_report(language: str = "en") -> Report:
    evidence = [ZORK_A, ZORK_B, BLARN, ZORK_YEAR, BLARN_YEAR] + ([ZH] if language == "zh" else [])
    question = ("Compare Zorkq and Blarnmq: throughput and first release year." if language == "en" else
                "比较 Zorkq 和 Blarnmq 的吞吐量和首次发布年份。")
    plan = Plan(question=question, language="zh" if language == "zh" else "en", kind="comparison",
                entities=["Zorkq", "Blarnmq"], attributes=["throughput", "first release"],
                metrics=["throughput", "released"])
    answer = DraftSection(question_id="answer", title="Answer" if language == "en" else "结论", role="core", sentences=[
        Sentence(text="Throughput: Zorkq 605 MB/s (3 brokers) [E-a00001]; Blarnmq 5 MB/s [E-c00003].",
                 citations=["E-a00001", "E-c00003"])])
    return Report(run_id="run-charts-1", question=question, title="Zorkq vs Blarnmq", verified=False, sections=[answer],
                  evidence=evidence, conflicts=[conflict(ZORK_A, ZORK_B)], plan=plan)


def save_sample_report(store: GraphStore, language: str = "en", run_id: str | None = None) -> str:
    """The sample report saved as a finished run of its own (the web page's report view reads it)."""
    report = sample_report(language)
    run_id = run_id or f"{report.run_id}-{language}"
    report = report.model_copy(update={"run_id": run_id})
    now = int(time.time() * 1000)
    store.save_run(run_id, report.question, status="done", stage="done", options={}, started_at=now,
                   finished_at=now, plan=report.plan)
    store.save_report(run_id, report.title, to_markdown(report), report.verified, now, [],
                      report_json=report.model_dump_json())
    return run_id
