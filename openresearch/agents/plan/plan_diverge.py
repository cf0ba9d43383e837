"""DIVERGE: every sub-question worth considering for a question, from templates in English and Chinese.

Generous on purpose: the converge round scores, dedupes and trims, so a template that rarely wins
costs nothing but a line in `candidates_considered`.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from openresearch.agents.extract.metric_names import canonical_metric
from openresearch.agents.extract.releases import releases_asked_of
from openresearch.agents.plan.analysis import QuestionAnalysis
from openresearch.agents.plan.attributes import metric_key, with_english
from openresearch.agents.plan.lexicon import ASPECT_BY_KEY
from openresearch.identity import question_id
from openresearch.models import Role

MAX_ENTITIES = 4  # per-entity templates beyond four names would crowd out everything else

TEMPLATES: dict[str, dict[str, str]] = {
    "en": {
        "background_entity": "What is {e}, and what is it designed for?",
        "background_topic": "What are the main {x} options, and what is each designed for?",
        "history": "What is the history and current state of {x}?",
        "mechanism": "How does {e} work internally: architecture and key mechanisms?",
        "guarantees": "What guarantees does {e} provide, and under which assumptions?",
        "failures": "How does {e} behave under failures and edge cases?",
        "why_factors": "Which factors are cited to explain {x}, and what evidence supports them?",
        "compare_aspect": "How do {es} compare on {a}?",
        "compare_overall": "What are the main differences between {es}?",
        "alternatives": "How does {e} compare with its main alternatives?",
        "topic_compare_aspect": "How do the main {x} options compare on {a}?",
        "choose": "Which of {es} fits which use cases, and how should one choose?",
        "topic_choose": "Which {x} fits which use case, and how should one choose?",
        "risks": "What are the risks, limitations and trade-offs of {x}?",
        "adoption": "Which production uses of {x} are reported, and with what results?",
        "trend": "What is the outlook for {x}, and how is it changing?",
        "entity_attrs": "What are the {x} of {e}, and under which conditions?",
        "topic_compare": "How do the main {x} options differ from one another?",
        "compare_attr": "How do {es} compare on {a}, and under which conditions?",
        "topic_attr": "What figures do the sources give for {a}, and for which products or settings?",
        "fit": "How well does {e} fit {x}, and what are its trade-offs there?",
    },
    "zh": {
        "background_entity": "{e} 是什么，主要为哪些场景而设计？",
        "background_topic": "{x} 有哪些主流方案，各自为什么场景而设计？",
        "history": "{x} 的发展历史和现状如何？",
        "mechanism": "{e} 的内部架构和关键机制是怎样的？",
        "guarantees": "{e} 提供哪些保证，前提假设是什么？",
        "failures": "{e} 在故障和边界情况下表现如何？",
        "why_factors": "关于{x}，有哪些解释因素，证据是什么？",
        "compare_aspect": "{es} 在{a}方面有何差异？",
        "compare_overall": "{es} 之间的主要区别是什么？",
        "alternatives": "{e} 与主要替代方案相比有何优劣？",
        "topic_compare_aspect": "主流{x}方案在{a}方面有何差异？",
        "choose": "{es} 分别适合哪些场景，应如何选择？",
        "topic_choose": "不同{x}方案分别适合哪些场景，应如何选择？",
        "risks": "{x} 有哪些风险、局限和权衡？",
        "adoption": "{x} 在生产环境中有哪些应用，效果如何？",
        "trend": "{x} 的发展趋势和前景如何？",
        "entity_attrs": "{e} 的{x}分别是多少？在什么条件下？",
        "topic_compare": "主流{x}方案之间有哪些主要区别？",
        "compare_attr": "{es} 在{a}方面的具体数字有何差异？",
        "topic_attr": "各来源给出的{a}数字是多少，分别针对什么产品或场景？",
        "fit": "{e} 在{x}方面是否合适，有哪些权衡？",
    },
}
# Families whose answers live in papers and specifications rather than blog posts.
ACADEMIC_FAMILIES = frozenset({"mechanism", "guarantees", "failures", "why_factors"})


class Candidate(BaseModel):
    """A sub-question under consideration; `priority` is its importance before coverage and balance."""

    text: str
    role: Role
    family: str = "llm"
    entities: list[str] = Field(default_factory=list)
    aspects: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    academic: bool = False
    depth: int = Field(default=2, ge=1, le=3)
    priority: float = 0.5
    depends_on: list[str] = Field(default_factory=list)  # candidate ids (the LLM may name some)

    @property
    def id(self) -> str:
        return question_id(self.text)


def join_names(names: list[str], language: str) -> str:
    if len(names) <= 1:
        return "".join(names)
    if language == "zh":
        return "、".join(names[:-1]) + " 和 " + names[-1]
    return (", ".join(names[:-1]) + (", and " if len(names) > 2 else " and ")) + names[-1]


def plan_aspects(a: QuestionAnalysis) -> list[str]:
    """Only the aspects the question itself names: a lexicon is a hint, never the source of the plan."""
    return list(a.aspects)


def aspect_label(key: str, language: str) -> str:
    aspect = ASPECT_BY_KEY[key]
    return aspect.zh_label if language == "zh" else aspect.en_label


def aspect_terms(key: str, language: str) -> tuple[str, ...]:
    aspect = ASPECT_BY_KEY[key]
    return aspect.zh_query if language == "zh" else aspect.en_query


def keywords_for(entities: list[str], aspects: list[str], a: QuestionAnalysis) -> list[str]:
    """Entity names, two search terms per aspect, and the question's topic words."""
    lang = "zh" if a.language == "zh" else "en"
    terms = [w for k in aspects if k in ASPECT_BY_KEY for w in aspect_terms(k, lang)[:2]]
    return list(dict.fromkeys([*entities, *terms, *a.keywords[:3]]))


def _attribute_keywords(a: QuestionAnalysis, entities: list[str], attributes: list[str]) -> list[str]:
    # (a Chinese attribute, and the English words a source may name it with: "积压队列大小" is a backlog queue size)
    words = [w for attr in attributes for w in (attr.split() if a.language != "zh" else [
        attr, *with_english(attr)[len(attr):].split()])]
    return list(dict.fromkeys([*entities, *words]))


ATTRIBUTE_SLOTS = 6  # sub-questions for the attributes a question names, beside the question and each entity's


def _attribute_groups(attributes: list[str]) -> list[list[str]]:
    """The attributes, one per sub-question while there are slots enough; more are shared out in order, two or
    three a sub-question, so every attribute a question asks is searched for ("max-args, ..., max-module-lines and
    the release that added the check": the last ones as well as the first)."""
    if len(attributes) <= ATTRIBUTE_SLOTS:
        return [[x] for x in attributes]
    size = -(-len(attributes) // ATTRIBUTE_SLOTS)
    singles = ATTRIBUTE_SLOTS * size - len(attributes)  # the first ones alone, the rest `size` together
    groups = [[x] for x in attributes[:singles]] if size == 2 else []
    rest = attributes[len(groups):]
    groups += [rest[i:i + size] for i in range(0, len(rest), size)]
    return groups


def _lookup(a: QuestionAnalysis) -> list[Candidate]:
    """A fact look-up is the question itself, once per thing it names: templates would only dilute it."""
    out = [Candidate(text=a.question, role="core", family="lookup", entities=a.entities[:1], aspects=[],
                     keywords=_attribute_keywords(a, a.entities[:1], a.attributes), depth=2, priority=1.0)]
    return out


def _by_attribute(a: QuestionAnalysis, lang: str, selection: bool) -> list[Candidate]:
    """A question that names what to measure ("...: maximum vector dimensions, query throughput and recall"):
    one comparison per attribute, one look-up of all attributes per entity, and the question itself."""
    t = TEMPLATES[lang]
    ents = a.entities[:MAX_ENTITIES]
    es = join_names(ents, lang)
    attrs = a.attributes[:6]
    listed = join_names(attrs, lang)
    out = [Candidate(text=a.question, role="core", family="direct", entities=ents, aspects=a.aspects,
                     keywords=_attribute_keywords(a, ents, attrs), depth=2, priority=0.6)]
    for e in ents:
        # the metric keys as its aspects: its queries search for those quantities, not "how X works"; the releases
        # the question names of it go with its name ("the release dates of Zorbq 2.1 and 2.4"), so its searches
        # look for those releases
        versions = [r.written for r in releases_asked_of(a.question, e, ents)] if len(ents) >= 2 else []
        named = f"{e} {join_names(versions, lang)}" if versions else e
        out.append(Candidate(text=t["entity_attrs"].format(e=named, x=listed), role="core", family="entity_attrs",
                             entities=[e], aspects=list(dict.fromkeys(metric_key(x) for x in attrs)),
                             keywords=_attribute_keywords(a, [e], attrs), depth=2, priority=0.9))
    for i, group in enumerate(_attribute_groups(a.attributes)):
        named = join_names(group, lang)
        text = (t["compare_attr"].format(es=es, a=named) if len(ents) >= 2 else t["topic_attr"].format(a=named))
        # the metric keys as its aspects: two comparisons on different metrics are never duplicates
        out.append(Candidate(text=text, role="comparison", family="compare_attr", entities=ents,
                             aspects=list(dict.fromkeys(metric_key(x) for x in group)),
                             keywords=_attribute_keywords(a, ents, group), depth=2, priority=0.95 - 0.02 * i))
    if selection and len(ents) >= 2:
        out.append(Candidate(text=t["choose"].format(es=es), role="impact", family="choose", entities=ents,
                             keywords=_attribute_keywords(a, ents, attrs), depth=1, priority=0.85))
    return out


def diverge(a: QuestionAnalysis) -> list[Candidate]:
    if a.kind == "lookup" and a.entities:
        return _lookup(a)
    lang = "zh" if a.language == "zh" else "en"
    measured = [attr for attr in a.attributes if canonical_metric(attr)]
    # a question that names what to compare is planned by those attributes, whether or not a list knows them
    # ("default idle timeout", "window size"); a selection's "for X" is a requirement to weigh the options
    # against, not a list of metrics
    if a.attributes and a.kind != "selection" and (a.kind in ("comparison", "overview", "trend")
                                                   or len(measured) == len(a.attributes)):
        return _by_attribute(a, lang, a.kind == "selection")
    t = TEMPLATES[lang]
    ents = a.entities[:MAX_ENTITIES]
    aspects = plan_aspects(a)
    subject = join_names(ents, lang) or a.topic or a.question.rstrip("?？ ")
    kind = a.kind
    out: list[Candidate] = []

    def add(family: str, text: str, role: Role, priority: float, depth: int,
            entities: list[str] | None = None, aspect_keys: list[str] | None = None) -> None:
        e = list(entities if entities is not None else ents)
        asp = list(aspect_keys or [])
        out.append(Candidate(text=text, role=role, family=family, entities=e, aspects=asp,
                             keywords=keywords_for(e, asp, a), academic=family in ACADEMIC_FAMILIES,
                             depth=depth, priority=priority))

    # background: what each thing is
    for e in ents:
        add("background_entity", t["background_entity"].format(e=e), "background", 0.8, 1, [e])
    if not ents or kind in ("overview", "trend"):
        add("background_topic", t["background_topic"].format(x=a.topic or subject), "background", 0.8, 1, [])
    if kind in ("trend", "overview", "why"):
        add("history", t["history"].format(x=subject), "background", 0.55, 1)

    # core: the question itself, mechanisms, and per-entity aspects
    add("direct", a.question, "core", 1.0 if kind in ("why", "how", "overview") else 0.5, 2, ents, a.aspects)
    how = kind == "how"
    for e in ents:
        if kind in ("how", "why", "overview"):
            add("mechanism", t["mechanism"].format(e=e), "core", 0.95 if how else 0.45, 3 if how else 2, [e])
        if how:
            add("guarantees", t["guarantees"].format(e=e), "core", 0.8, 2, [e])
            add("failures", t["failures"].format(e=e), "core", 0.7, 2, [e])
        for k in aspects[:2]:
            ask = ASPECT_BY_KEY[k].zh_ask if lang == "zh" else ASPECT_BY_KEY[k].en_ask
            add("entity_aspect", ask.format(e=e), "core", 0.6, 2, [e], [k])
    if kind == "why":
        add("why_factors", t["why_factors"].format(x=subject), "core", 0.85, 2)

    # comparison: per aspect across the entities, or against alternatives
    es = join_names(ents, lang)
    if len(ents) >= 2:
        for i, k in enumerate(aspects):
            add("compare_aspect", t["compare_aspect"].format(es=es, a=aspect_label(k, lang)), "comparison",
                0.9 - 0.03 * i, 2, ents, [k])
        add("compare_overall", t["compare_overall"].format(es=es), "comparison", 0.75 if aspects else 0.9, 2)
    elif ents:
        add("alternatives", t["alternatives"].format(e=ents[0]), "comparison", 0.6, 2)
    elif a.topic and kind in ("selection", "comparison"):
        if not aspects:
            add("topic_compare", t["topic_compare"].format(x=a.topic), "comparison", 0.85, 2, [])
        for i, k in enumerate(aspects):
            add("topic_compare_aspect", t["topic_compare_aspect"].format(x=a.topic, a=aspect_label(k, lang)),
                "comparison", 0.85 - 0.03 * i, 2, [], [k])

    # impact: the decision, the risks, adoption, the outlook
    if kind == "selection" and a.attributes:
        for e in ents:  # the requirement in the question's words ("for high-throughput event streaming")
            add("fit", t["fit"].format(e=e, x=a.attributes[0]), "core", 0.8, 2, [e], a.aspects)
    if kind in ("selection", "comparison"):
        if len(ents) >= 2:
            add("choose", t["choose"].format(es=es), "impact", 0.85 if kind == "selection" else 0.7, 2)
        elif a.topic:
            add("topic_choose", t["topic_choose"].format(x=a.topic), "impact", 0.85, 2, [])
    # only what the question's kind implies: an outlook for a trend question, trade-offs for a choice
    if kind in ("selection", "comparison", "how", "overview") or "risk" in a.aspects:
        add("risks", t["risks"].format(x=subject), "impact", 0.7, 1, aspect_keys=["risk"])
    if kind in ("overview", "trend", "selection"):
        add("adoption", t["adoption"].format(x=subject), "impact", 0.5, 1)
    if kind == "trend":
        add("trend", t["trend"].format(x=subject), "impact", 1.0, 2)
    return out
