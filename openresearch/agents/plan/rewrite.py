"""Query rewriting: each sub-question becomes 2-4 focused search queries that stay on its meaning.

Every query is checked for semantic consistency with its sub-question (embedding cosine >= threshold).
A failing query is regenerated up to `max_regen` times (the LLM is asked again, told what was rejected;
the deterministic path takes its next template variant), then the sub-question text itself is used:
a search drifting off-topic wastes budget and pollutes the graph with irrelevant evidence.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from itertools import zip_longest
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from openresearch.agents.extract.metric_names import metric_query_words
from openresearch.agents.extract.releases import asked_releases, releases_asked_of
from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import Role
from openresearch.agents.llm.prompt import render
from openresearch.agents.plan.attributes import owner_key_gloss
from openresearch.agents.plan.lexicon import ASPECT_BY_KEY, EN_FILLER, ZH_FILLER
from openresearch.agents.plan.planner import LANGUAGE_NAMES
from openresearch.errors import BudgetExceeded, LLMError
from openresearch.ingest.embed import Embedder
from openresearch.ingest.textnorm import STOP_WORDS, guess_lang, words
from openresearch.models import Plan, SubQuestion

MAX_QUERIES = 4
# Words a relevant page uses for what each role asks, most common first.
_ROLE_WORDS = {
    "en": {"background": ("overview", "introduction", "use cases"), "core": ("explained", "how it works"),
           "comparison": ("vs", "comparison", "differences"), "impact": ("trade-offs", "limitations", "adoption")},
    "zh": {"background": ("介绍", "是什么", "应用场景"), "core": ("原理", "机制"),
           "comparison": ("对比", "区别"), "impact": ("优缺点", "局限", "适用场景")},
}
# Template scaffolding that is no search term ("What is X, and what is it DESIGNED for?").
_SCAFFOLD = words("designed provide provides reported results fits one cases behave internally under "
                  "architecture key main figures sources give products settings") | EN_FILLER
_ZH_SCAFFOLD = ("主要为", "而设计", "分别", "有何", "方面", "主要", "哪些", "如何", "等")


class RewriteResult(BaseModel):
    question_id: str
    queries: list[str] = Field(default_factory=list)
    rejected: list[str] = Field(default_factory=list)  # queries that failed the consistency check
    regenerated: int = 0  # replacement attempts made after a rejection
    fallbacks: int = 0  # slots that ended with the sub-question text itself
    method: Literal["llm", "deterministic"] = "deterministic"


# Limits in the JSON schema only (not validated): a server that enforces the schema with a grammar keeps a
# small model to short queries, and an answer from a server that does not is trimmed instead of re-asked.
_QUERY = Annotated[str, Field(json_schema_extra={"maxLength": 80})]


class LLMQueries(BaseModel):
    queries: list[_QUERY] = Field(min_length=1, json_schema_extra={"maxItems": MAX_QUERIES})


class LLMQuery(BaseModel):
    query: _QUERY = Field(min_length=1)


def _terms(sub: SubQuestion, lang: str) -> list[str]:
    out: list[str] = []
    for key in sub.aspects:
        aspect = ASPECT_BY_KEY.get(key)
        if aspect is not None:
            out.extend(aspect.zh_query if lang == "zh" else aspect.en_query)
        elif lang == "en" and (words_for := metric_query_words(key)):
            # a quantity the question names: its English words, so that a Chinese question also finds the
            # English documents that state it (the question's own words are its content query)
            out.append(words_for)
    return out


def per_entity_queries(sub: SubQuestion) -> list[str]:
    """A comparison of several entities on one quantity searches for each entity's figure ("Zorbq retry delay",
    "Quux retry delay"), before the comparison's own queries: a search for all of them at once finds the sources
    of the best-covered ones and none of the others' (and a query holds three names at most). None for other
    sub-questions."""
    if sub.role != "comparison" or len(sub.entities) < 2 or len(sub.aspects) != 1 or not _measures(sub):
        return []
    quantity = metric_query_words(sub.aspects[0]) or sub.aspects[0].replace("_", " ")
    return [f"{e} {quantity}" for e in sub.entities[:MAX_QUERIES]]


def _measures(sub: SubQuestion) -> bool:
    """A sub-question that asks for quantities (its aspects are metric keys): searched for by its quantities'
    words, never by "explained" or "how it works"."""
    return bool(sub.aspects) and not any(k in ASPECT_BY_KEY for k in sub.aspects)


def _content_words(text: str, lang: str, entities: Sequence[str]) -> list[str]:
    for e in sorted(entities, key=len, reverse=True):
        text = re.sub(re.escape(e), " ", text, flags=re.I)
    if lang == "zh":
        text = re.sub(r"[A-Za-z][A-Za-z0-9+#._/-]*", " ", text)  # names (and their aliases) come first anyway
        for filler in sorted((*ZH_FILLER, *_ZH_SCAFFOLD), key=len, reverse=True):
            text = text.replace(filler, " ")
        return [c for c in re.split(r"[\s，。？！、；：,.?!;:（）()]+", text) if len(c) >= 2]
    return [w for w in re.findall(r"[a-z][a-z0-9'-]+", text.lower()) if w not in STOP_WORDS and w not in _SCAFFOLD]


def _anchor(sub: SubQuestion, lang: str) -> str:
    """What the sub-question means in `lang`, from its structured fields: the yardstick for queries in
    the other language, since a sentence embedding barely links a Chinese sentence to an English one."""
    if guess_lang(sub.text) == lang:
        return sub.text
    latin = [k for k in sub.keywords if k.isascii()] if lang == "en" else []
    return " ".join(dict.fromkeys([*sub.entities, *_terms(sub, lang)[:4], *latin]))


def _one_language(sub: SubQuestion, lang: str, own: bool) -> list[str]:
    names, terms = sub.entities[:3], _terms(sub, lang)
    role = _ROLE_WORDS[lang][sub.role]
    content = _content_words(sub.text, lang, sub.entities)[:4] if own else []
    out: list[str] = []
    if terms:
        out.append(" ".join([*names, *terms[:2]]))
    # (the releases it asks of, "Zorbq 3.2.0, 3.2.4 and 3.2.7": the passages that name them, not any release)
    for name in names[:2] if asked_releases(sub.text) else []:
        if versions := [r.written for r in releases_asked_of(sub.text, name, sub.entities)][:4]:
            out.append(" ".join([name, *versions, *terms[:1]]))
    if content:
        out.append(" ".join([*names, *content]))
    if _measures(sub):
        out.extend(" ".join([*names, t]) for t in terms[2:4])
        if len(sub.aspects) >= 2 and lang == "en":
            # several quantities no list names ("max-module-lines", "frob-limit added"): each one searched for, as
            # one query for all of them finds the sources of the best-covered one
            out.extend(" ".join([*names, k.replace("_", " ")]) for k in sub.aspects if not metric_query_words(k))
        if own and sub.keywords:
            out.append(" ".join(sub.keywords[:6]))
        return out
    if names:
        out.append(" ".join([*names, *terms[:1], role[0]]))
    if terms:
        out.append(" ".join([*names, *terms[2:4], role[1]]))
    if names:
        out.append(" ".join([*names, *role[1:]]))
    if own and sub.keywords:
        out.append(" ".join(sub.keywords[:6]))
    return out


def variants(sub: SubQuestion, plan: Plan) -> list[str]:
    """Deterministic queries, best first: entity + aspect keywords, content words, role synonyms; a
    Chinese plan alternates Chinese and English queries (much technical writing is only in English)."""
    own = _one_language(sub, plan.language, own=True)
    other = _one_language(sub, "en", own=False) if plan.language == "zh" else []
    mixed = [q for pair in zip_longest(own, other) for q in pair if q]
    return [q for q in dict.fromkeys(" ".join(v.split()) for v in mixed) if q and q != sub.text]


class _Checker:
    """Cosine between a query and the sub-question (or its anchor in the query's language), cached."""

    def __init__(self, sub: SubQuestion, embedder: Embedder, threshold: float,
                 vectors: dict[str, list[float]] | None = None) -> None:
        self.sub, self.embedder, self.threshold = sub, embedder, threshold
        self._vectors = vectors if vectors is not None else {}  # shared across a plan's sub-questions

    def prime(self, queries: Sequence[str]) -> None:
        """Embed the queries and both anchors in one batch: a model call costs far more than a text."""
        texts = [self.sub.text, *(_anchor(self.sub, lang) for lang in ("en", "zh")), *queries]
        todo = list(dict.fromkeys(t for t in texts if t and t not in self._vectors))
        for text, v in zip(todo, self.embedder.embed(todo) if todo else [], strict=True):
            n = math.sqrt(sum(x * x for x in v)) or 1.0
            self._vectors[text] = [x / n for x in v]

    def _vector(self, text: str) -> list[float]:
        if text not in self._vectors:
            self.prime([text])
        return self._vectors[text]

    def score(self, query: str) -> float:
        lang = guess_lang(query) or "en"
        anchor = _anchor(self.sub, "zh" if lang == "zh" else "en") or self.sub.text
        return sum(a * b for a, b in zip(self._vector(query), self._vector(anchor), strict=True))

    def ok(self, query: str) -> bool:
        return self.score(query) >= self.threshold


def _fill(sub: SubQuestion, first: list[str], regen: Callable[[str], str | None], checker: _Checker,
          result: RewriteResult, max_regen: int, count: int) -> None:
    """One slot per proposed query: accept it, or regenerate up to max_regen times, or fall back."""
    for proposed in first[:count]:
        query, accepted = " ".join(proposed.split()), False
        for attempt in range(max_regen + 1):
            if query and query not in result.queries:
                if checker.ok(query):
                    result.queries.append(query)
                    accepted = True
                    break
                result.rejected.append(query)
            replacement = regen(query) if attempt < max_regen else None
            if replacement is None:
                break
            result.regenerated += 1
            query = " ".join(replacement.split())
        if not accepted and sub.text not in result.queries:
            result.queries.append(sub.text)
            result.fallbacks += 1


def _pad(sub: SubQuestion, pool: list[str], checker: _Checker, result: RewriteResult) -> None:
    """Never fewer than two distinct queries: unused variants that pass, then the sub-question itself."""
    for q in [*pool, sub.text]:
        if len(result.queries) >= 2:
            return
        if q not in result.queries and (q == sub.text or checker.ok(q)):
            result.queries.append(q)


def _deterministic(sub: SubQuestion, plan: Plan, checker: _Checker, max_regen: int) -> RewriteResult:
    result = RewriteResult(question_id=sub.id)
    pool = variants(sub, plan)
    count = min(MAX_QUERIES, 4 if plan.language == "zh" else 3)
    first, spare = pool[:count], pool[count:]
    checker.prime(pool)

    def next_variant(_rejected: str) -> str | None:
        return spare.pop(0) if spare else None

    _fill(sub, first, next_variant, checker, result, max_regen, count)
    _pad(sub, spare, checker, result)
    return result


def _llm(sub: SubQuestion, plan: Plan, client: LLMClient, checker: _Checker, max_regen: int) -> RewriteResult:
    system = render("rewrite_system", untrusted=render("untrusted_data"))
    language = LANGUAGE_NAMES[plan.language]
    ask = render("rewrite_queries", question=plan.question, sub_question=sub.text,
                 entities=", ".join(sub.entities) or "(none)", aspects=", ".join(sub.aspects) or "(none)",
                 language=language, count="3")
    answer = client.complete_json(Role.REWRITE, [{"role": "system", "content": system},
                                                 {"role": "user", "content": ask}], LLMQueries)
    result = RewriteResult(question_id=sub.id, method="llm")

    def ask_again(rejected: str) -> str | None:
        prompt = render("rewrite_regen", sub_question=sub.text, rejected=rejected, language=language)
        try:
            return client.complete_json(Role.REWRITE, [{"role": "system", "content": system},
                                                       {"role": "user", "content": prompt}], LLMQuery).query
        except (LLMError, BudgetExceeded):
            return None  # no more asking: this slot falls back to the sub-question text

    proposed = [q for q in dict.fromkeys(" ".join(q.split()) for q in answer.queries) if q]
    checker.prime(proposed)
    _fill(sub, proposed, ask_again, checker, result, max_regen, MAX_QUERIES)
    _pad(sub, variants(sub, plan), checker, result)
    return result


def _rewrite(sub: SubQuestion, plan: Plan, checker: _Checker, client: LLMClient | None,
             max_regen: int) -> RewriteResult:
    result = _asked_or_templates(sub, plan, checker, client, max_regen)
    # each entity's own words for what is asked, then each entity's figure, then the sub-question's own queries
    if per := [*owned_queries(sub, plan), *per_entity_queries(sub)]:
        result.queries = list(dict.fromkeys([*per, *result.queries]))[:MAX_QUERIES]
    return result


def owned_queries(sub: SubQuestion, plan: Plan) -> list[str]:
    """For an attribute the question glosses with each compared product's own words ("concurrency (parallel frob
    transfers / outstanding writes / client cap)", in the order of the plan's entities): each of the sub-question's
    entities searched for with its own words ("Zorbq parallel frob transfers")."""
    out: list[str] = []
    for attribute in plan.attributes:
        keys = owner_key_gloss(attribute)
        if len(keys) != len(plan.entities) or attribute not in sub.text:
            continue
        # (with what is asked when the words do not say it: "Zorbq control API" is searched for its "TCP port")
        asked = " ".join(w for w in re.sub(r"\s*\([^()]*\)$", "", attribute).split()
                         if w.lower() not in STOP_WORDS and w.lower() != "default")
        out += [" ".join([e, key, *([asked] if asked and not set(words(asked)) & set(words(key)) else [])])
                for e in sub.entities if e in plan.entities and (key := keys[plan.entities.index(e)])]
    return out[:MAX_QUERIES]


def _asked_or_templates(sub: SubQuestion, plan: Plan, checker: _Checker, client: LLMClient | None,
                        max_regen: int) -> RewriteResult:
    if client is not None:
        try:
            return _llm(sub, plan, client, checker, max_regen)
        except (LLMError, BudgetExceeded):
            pass  # the deterministic templates take over (invariant 7)
    return _deterministic(sub, plan, checker, max_regen)


def rewrite(sub_question: SubQuestion, plan: Plan, *, embedder: Embedder, client: LLMClient | None = None,
            threshold: float = 0.5, max_regen: int = 2) -> RewriteResult:
    return _rewrite(sub_question, plan, _Checker(sub_question, embedder, threshold), client, max_regen)


def rewrite_plan(plan: Plan, *, embedder: Embedder, client: LLMClient | None = None, threshold: float = 0.5,
                 max_regen: int = 2) -> tuple[Plan, list[RewriteResult]]:
    """Every sub-question's queries filled in; the results carry the rejection metrics.

    The sub-questions, their anchors and every template variant are embedded in one batch up front.
    """
    vectors: dict[str, list[float]] = {}
    checkers = [_Checker(s, embedder, threshold, vectors) for s in plan.sub_questions]
    if checkers:
        checkers[0].prime([v for s in plan.sub_questions for v in [s.text, _anchor(s, "en"), _anchor(s, "zh"),
                                                                    *variants(s, plan)]])
    results = [_rewrite(s, plan, c, client, max_regen) for s, c in zip(plan.sub_questions, checkers, strict=True)]
    subs = [s.model_copy(update={"queries": r.queries}) for s, r in zip(plan.sub_questions, results, strict=True)]
    return plan.model_copy(update={"sub_questions": subs}), results
