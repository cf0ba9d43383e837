"""Sentence templates for the deterministic writer, in English and Chinese, and the pure composers.

Every composer copies numbers from the cited quote's own text (`surface`), never from a normalised
value, so the verifier's numeric check sees exactly the form the quote uses ("1.2万条/秒", "605 MB/s").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from openresearch.agents.verify.claim_text import header_quantities, quantities, unmatched_numbers
from openresearch.conflicts import EXACT_UNITS, calendar_surface, credibility_note, value_label
from openresearch.models import ConflictGroup, ConflictValue, EvidenceView, ObservationView, Sentence
from openresearch.numbers import Quantity

Lang = str  # "en" | "zh"

PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "gap": "The evidence gathered does not answer this question: {q}",
        "limited": "The evidence for this part is limited, so this answer may be incomplete.",
        "conflict": "Sources disagree on {entity} {metric}{cond}: {values}; {note}.",
        "conflict_join": " versus ",
        "dispute": "Sources give {entity} {metric} the same figure but state different {dimension} for it: {values}.",
        "implied": "The per-unit figures the sources give do not bear out the claim on {entity} {metric}{cond}: "
                   "{claim}, against {figures}, which put the ratio at {ratio}.",
        "implied_for": "{v} for {entity} {ids}",
        "exceeded": "A source gives {peak} as the peak of {entity} {metric}{cond}, but other figures under the same "
                    "set-up are higher: {higher}.",
        "qualified": "A source states {entity} {metric}{cond} as {flat} without qualification, but another gives "
                     "that figure as one that changes to {changed} {clause}.",
        "implied_join": " and ",
        "ratio_lower": "well below the claim",
        "ratio_higher": "well above the claim",
        "stat": "{entity} {metric}: {values}.",
        "stat_join": "; ",
        "value": "{v}{cond} [{e}]",
        "cond": " ({c})",
        "compare_head": "On {metric}, {entity} reaches {v} [{e}]",
        "compare_tail": "{v} for {entity} [{e}]",
        "compare_join": ", compared with ",
        "compare_and": " and ",
        "quote": "According to {title}: “{quote}” [{e}].",
        "review_quote": "{title}{date} reports: “{quote}” [{e}].",
        "agree": "Sources agree on {entity} {metric}: {v} [{a}] and {v2} [{b}].",
        "date": " ({d})",
    },
    "zh": {
        "gap": "所收集的证据未能回答这个问题：{q}",
        "limited": "这部分的证据有限，回答可能不完整。",
        "conflict": "关于{entity}的{metric}{cond}，来源之间存在分歧：{values}；{note}。",
        "conflict_join": " 与 ",
        "dispute": "关于{entity}的{metric}，来源给出相同的数字，但所述{dimension}不同：{values}。",
        "implied": "来源给出的单位指标与关于{entity}的{metric}{cond}的说法不符：{claim}，"
                   "而{figures}，据此比例约为 {ratio}。",
        "implied_for": "{entity}为 {v} {ids}",
        "exceeded": "有来源称 {peak} 是{entity}的{metric}{cond}峰值，但相同配置下的其他数字更高：{higher}。",
        "qualified": "关于{entity}的{metric}{cond}，有来源不加限定地给出 {flat}，"
                     "另一来源则指出该数字在“{clause}”时变为 {changed}。",
        "implied_join": "，",
        "ratio_lower": "远低于所声称的",
        "ratio_higher": "远高于所声称的",
        "stat": "{entity}的{metric}：{values}。",
        "stat_join": "；",
        "value": "{v}{cond} [{e}]",
        "cond": "（{c}）",
        "compare_head": "在{metric}方面，{entity}为 {v} [{e}]",
        "compare_tail": "{entity}为 {v} [{e}]",
        "compare_join": "，相比之下",
        "compare_and": "，",
        "quote": "据{title}：“{quote}” [{e}]。",
        "review_quote": "{title}{date}指出：“{quote}” [{e}]。",
        "agree": "多个来源在{entity}的{metric}上一致：{v} [{a}] 与 {v2} [{b}]。",
        "date": "（{d}）",
    },
}
# the set-up dimension a disputed-condition group is about, as a sentence names it
DIMENSION_NAMES = {"en": {"threads": "thread counts", "hardware": "hardware", "cardinality": "cardinality",
                          "dataset": "datasets"},
                   "zh": {"threads": "线程数", "hardware": "硬件", "cardinality": "基数", "dataset": "数据集"}}
_MAX_QUOTE = 320  # characters of a quote restated in a sentence; longer ones are cut at a word boundary


def phrase(lang: Lang, key: str, **values: str) -> str:
    return PHRASES["zh" if lang == "zh" else "en"][key].format(**values)


def surface(quote: str, value: float, unit: str) -> str | None:
    """The quote's own text for a value ('1.2万条/秒' for 12000 msg/s), or None if the quote lacks it."""
    target = Quantity(value, unit)
    found = quantities(quote)
    for text, q in found:
        if q.close_to(target):
            return text
    for text, q in found:  # observation stored without a unit while the quote writes one
        if not unit and Quantity(q.value, "").close_to(Quantity(value, "")):
            return text
    return None


def grounded(text: str, cited: list[EvidenceView]) -> bool:
    """The writer's self-check, the same test the verifier applies: no number outside the cited quotes."""
    texts = [ev.quote for ev in cited] + [ev.source.title for ev in cited if ev.source.title]
    return not unmatched_numbers(text, texts, header_quantities(cited))


def source_name(ev: EvidenceView) -> str:
    return ev.source.title or urlsplit(ev.source.url).netloc or ev.source.url


_BRACKETED_ID = re.compile(r"\[(\s*E-[\w-]+[^\]]*)\]")


def clip_quote(quote: str) -> str:
    # a source that writes "[E-…]" must not plant a citation marker in our sentence (source text is data)
    text = _BRACKETED_ID.sub(r"(\1)", " ".join(quote.split())).rstrip("。.!！?？;；")
    if len(text) <= _MAX_QUOTE:
        return text
    cut = text[:_MAX_QUOTE].rsplit(" ", 1)[0]
    return cut + "…"


# what a Chinese sentence calls a canonical metric (an unknown key is written as its words)
_ZH_METRICS = {
    "throughput": "吞吐量", "ingest_throughput": "写入吞吐", "query_throughput": "查询吞吐", "latency": "延迟",
    "query_latency": "查询延迟", "p99_latency": "p99 延迟", "storage": "存储空间", "storage_required": "所需存储空间",
    "raw_data_size": "原始数据量", "bytes_per_sample": "每个数据点的字节数", "compression_ratio": "压缩比",
    "max_columns": "最大列数", "max_series": "序列基数上限", "max_tables": "最大表数", "max_row_size": "最大行长度",
    "memory": "内存", "price": "价格", "population": "人口", "born": "出生时间", "died": "去世时间",
    "founded": "成立时间", "built": "建成时间", "released": "发布时间", "speedup": "速度倍数",
}


def metric_label(metric: str, lang: Lang = "en") -> str:
    """How a sentence names a canonical metric: 'ingest throughput', '写入吞吐'."""
    if lang == "zh" and metric in _ZH_METRICS:
        return _ZH_METRICS[metric]
    return metric.replace("_", " ")


@dataclass(frozen=True)
class Value:
    """One observation as the writer states it: the quote's surface form, its evidence and condition."""

    surface: str
    evidence: EvidenceView
    obs: ObservationView

    @property
    def quantity(self) -> Quantity:
        return Quantity(self.obs.value, self.obs.unit)


def claim(text: str, cited: list[EvidenceView]) -> Sentence:
    return Sentence(text=text, citations=[ev.id for ev in cited], key=True, kind="claim")


def stat_sentence(lang: Lang, entity: str, metric: str, values: list[Value]) -> Sentence:
    """'{entity} {metric}: v1 (condition) [E-a]; v2 [E-b].' Conditions are dropped where their numbers
    are not in the quote (a condition is often normalised: 'three brokers' stored as '3 brokers')."""
    parts = []
    for v in values:
        cond = phrase(lang, "cond", c=v.obs.condition) if v.obs.condition else ""
        part = phrase(lang, "value", v=v.surface, cond=cond, e=v.evidence.id)
        if cond and not grounded(part, [v.evidence]):
            part = phrase(lang, "value", v=v.surface, cond="", e=v.evidence.id)
        parts.append(part)
    joined = phrase(lang, "stat_join").join(parts)
    text = phrase(lang, "stat", entity=entity, metric=metric_label(metric, lang), values=joined)
    return claim(text, _unique([v.evidence for v in values]))


def compare_sentence(lang: Lang, metric: str, best: list[Value]) -> Sentence:
    """One value per entity, highest first, each cited; no 'better/worse' wording, since whether higher
    is better depends on the metric (throughput vs latency) and the quotes do not say which."""
    ordered = sorted(best, key=lambda v: -v.obs.value)
    head = phrase(lang, "compare_head", metric=metric_label(metric, lang), entity=ordered[0].obs.entity,
                  v=ordered[0].surface, e=ordered[0].evidence.id)
    tails = [phrase(lang, "compare_tail", v=v.surface, entity=v.obs.entity, e=v.evidence.id) for v in ordered[1:]]
    end = "。" if lang == "zh" else "."
    text = head + phrase(lang, "compare_join") + phrase(lang, "compare_and").join(tails) + end
    return claim(text, _unique([v.evidence for v in ordered]))


CONFLICT_CITES = 3  # evidence items cited per value in a disclosure (one per source first, newest first)


def conflict_value_text(v: ConflictValue) -> tuple[str, list[str]]:
    """A value as its quotes write it ('1.2万条/秒' for 12000 msg/s), and the evidence to cite for it: the
    quote the form was taken from first. Else the value as extracted, in its own unit (5242880 bytes)."""
    for eid, quote in zip(v.evidence_ids, v.quotes, strict=False):
        form = calendar_surface(quote, v.value, v.unit) if v.unit in EXACT_UNITS else surface(quote, v.value, v.unit)
        if form is not None:
            return form, [eid, *[e for e in v.evidence_ids if e != eid][: CONFLICT_CITES - 1]]
    return value_label(v), v.evidence_ids[:CONFLICT_CITES]


def dispute_sentence(lang: Lang, g: ConflictGroup) -> Sentence:
    """A disputed condition: 'Sources give QuestDB ingest throughput the same figure but state different
    cardinality for it: 904k rows/sec (high cardinality, 10 million devices) [E-a] versus 904k rows/sec (low
    cardinality of 100 devices) [E-b].' A side's set-up is named when its numbers are in its cited quotes, else
    the quote says it."""
    sides = []
    cited: list[str] = []
    for v in g.values:
        form, ids = conflict_value_text(v)
        quotes = [q for e, q in zip(v.evidence_ids, v.quotes, strict=False) if e in ids]
        said = ", ".join(v.conditions)
        if not said or unmatched_numbers(said, quotes):
            said = "“" + clip_quote(quotes[0]) + "”" if quotes else ""
        sides.append(f"{form}{phrase(lang, 'cond', c=said) if said else ''} " + "".join(f"[{e}]" for e in ids))
        cited.extend(ids)
    names = DIMENSION_NAMES["zh" if lang == "zh" else "en"]
    text = phrase(lang, "dispute", entity=g.entity, metric=metric_label(g.metric, lang),
                  dimension=names.get(g.condition, g.condition), values=phrase(lang, "conflict_join").join(sides))
    return Sentence(text=text, citations=cited, key=True, kind="conflict")


def implied_sentence(lang: Lang, g: ConflictGroup) -> Sentence:
    """A relative claim that the per-unit figures contradict (implied_conflicts.py): 'The per-unit figures the
    sources give do not bear out the claim on VictoriaMetrics storage reduction (vs Prometheus): 7x [E-a],
    against 1-2 bytes per sample for Prometheus [E-b] and 1 byte for VictoriaMetrics [E-c], which put the ratio
    at 0.5-2x.' The ratio is worked out, so it is written in figures only where its numbers are in the quotes
    cited; else in words."""
    claimed, implied = g.values[0], g.values[1]
    form, ids = conflict_value_text(claimed)
    claim_text = f"{form} " + "".join(f"[{e}]" for e in ids)
    figures = []
    for raw, eid in zip(implied.raw_values, implied.evidence_ids, strict=False):
        value, _, entity = raw.rpartition(" (")
        figures.append(phrase(lang, "implied_for", v=value, entity=entity.rstrip(")"), ids=f"[{eid}]"))
    cited = ids + implied.evidence_ids[:len(figures)]
    ratio = next((c.removeprefix("implied ratio ") for c in implied.conditions if c.startswith("implied ratio ")), "")
    ratio = f"{ratio}x" if ratio else ""
    quotes = [*claimed.quotes, *implied.quotes]
    if not ratio or unmatched_numbers(ratio, quotes):
        ratio = phrase(lang, "ratio_lower" if implied.value < claimed.value else "ratio_higher")
    cond = phrase(lang, "cond", c=g.condition) if g.condition else ""
    text = phrase(lang, "implied", entity=g.entity, metric=metric_label(g.metric, lang), cond=cond, claim=claim_text,
                  figures=phrase(lang, "implied_join").join(figures), ratio=ratio)
    return Sentence(text=text, citations=cited, key=True, kind="conflict")


def qualified_sentence(lang: Lang, g: ConflictGroup) -> Sentence:
    """A figure stated flatly against a source that says it changes under a condition: 'A source states
    VictoriaMetrics storage reduction (vs TimescaleDB) as 70x [E-a] without qualification, but another gives that
    figure as one that changes to 3x [E-b] if compression in TimescaleDB is properly configured.'"""
    flat, changed = g.values[0], g.values[1]
    (flat_form, flat_ids), (changed_form, changed_ids) = conflict_value_text(flat), conflict_value_text(changed)
    base = g.condition
    clause = next((c[len(base):].lstrip(", ") for c in changed.conditions if c.startswith(base)), "")
    cond = phrase(lang, "cond", c=base) if base else ""
    text = phrase(lang, "qualified", entity=g.entity, metric=metric_label(g.metric, lang), cond=cond,
                  flat=f"{flat_form} " + "".join(f"[{e}]" for e in flat_ids),
                  changed=f"{changed_form} " + "".join(f"[{e}]" for e in changed_ids), clause=clause)
    return Sentence(text=text, citations=[*flat_ids, *changed_ids], key=True, kind="conflict")


def exceeded_sentence(lang: Lang, g: ConflictGroup) -> Sentence:
    """A stated peak that figures under the same set-up exceed: 'A source gives 904k rows/sec [E-a] as the peak of
    QuestDB ingest throughput (four threads, m5.8xlarge), but other figures under the same set-up are higher:
    959k rows/sec (4 threads) [E-b].' A set-up is named where its numbers are in the cited quotes."""
    forms = [conflict_value_text(v) for v in g.values]
    sides = []
    for (form, ids), v in zip(forms, g.values, strict=True):
        quotes = [q for e, q in zip(v.evidence_ids, v.quotes, strict=False) if e in ids]
        said = ", ".join(v.conditions)
        shown = phrase(lang, "cond", c=said) if said and not unmatched_numbers(said, quotes) else ""
        sides.append(f"{form}{shown} " + "".join(f"[{e}]" for e in ids))
    text = phrase(lang, "exceeded", entity=g.entity, metric=metric_label(g.metric, lang), cond="", peak=sides[0],
                  higher=phrase(lang, "stat_join").join(sides[1:]))
    return Sentence(text=text, citations=[e for _, ids in forms for e in ids], key=True, kind="conflict")


def conflict_sentence(lang: Lang, g: ConflictGroup) -> Sentence:
    """Every value of the group with its citations, then which is better supported: 'Sources disagree on
    Osgood, Indiana population: 1,624 [E-a][E-b] versus 2,500 [E-c]; 1,624 is given by two independent
    sources; 2,500 by one source.' The condition is named when its numbers are in the cited quotes. A disputed
    condition gets its own sentence."""
    if g.kind == "condition":
        return dispute_sentence(lang, g)
    if g.kind == "implied":
        return implied_sentence(lang, g)
    if g.kind == "qualified":
        return qualified_sentence(lang, g)
    if g.kind == "exceeded":
        return exceeded_sentence(lang, g)
    forms = [conflict_value_text(v) for v in g.values]
    values = phrase(lang, "conflict_join").join(f"{form} " + "".join(f"[{e}]" for e in ids) for form, ids in forms)
    note = credibility_note(g.values, lang, [form for form, _ in forms])
    cited = [e for _, ids in forms for e in ids]
    quotes = {e: q for v in g.values for e, q in zip(v.evidence_ids, v.quotes, strict=False)}
    cond = phrase(lang, "cond", c=g.condition) if g.condition else ""
    if cond and unmatched_numbers(cond, [quotes.get(e, "") for e in cited]):
        cond = ""
    text = phrase(lang, "conflict", entity=g.entity, metric=metric_label(g.metric, lang), cond=cond, values=values,
                  note=note)
    return Sentence(text=text, citations=cited, key=True, kind="conflict")


def quote_sentence(lang: Lang, ev: EvidenceView, review: bool = False) -> Sentence:
    quote = clip_quote(ev.quote)
    if review:
        date = phrase(lang, "date", d=ev.source.published_at.isoformat()) if ev.source.published_at else ""
        text = phrase(lang, "review_quote", title=source_name(ev), date=date, quote=quote, e=ev.id)
    else:
        text = phrase(lang, "quote", title=source_name(ev), quote=quote, e=ev.id)
    return claim(text, [ev])


def gap_sentence(lang: Lang, question: str, limited: bool = False) -> Sentence:
    text = phrase(lang, "limited") if limited else phrase(lang, "gap", q=question)
    return Sentence(text=text, citations=[], key=False, kind="gap")


def _unique(evs: list[EvidenceView]) -> list[EvidenceView]:
    seen: dict[str, EvidenceView] = {}
    for ev in evs:
        seen.setdefault(ev.id, ev)
    return list(seen.values())
