"""The deterministic writer: a Draft from a Plan and the evidence Cypher returned for each sub-question.

Sections follow the roles (background -> core -> comparison -> impact). Every claim sentence cites the
evidence it comes from, states only numbers written in those quotes, and every conflict touching a
section is disclosed with every value (invariants 1-3). Where evidence is missing the section says so.
Styles: brief (one or two conclusions per section), report (structured sections), review (grouped by
source, with titles and dates, agreements and disagreements).
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache

from openresearch.agents.extract.metric_names import canonical_metric, same_family
from openresearch.agents.write.answer import ANSWER_ID, answer_section, mentions, restate, same_thing, same_words
from openresearch.agents.write.writer_templates import (
    Lang,
    Value,
    compare_sentence,
    conflict_sentence,
    gap_sentence,
    grounded,
    phrase,
    quote_sentence,
    stat_sentence,
    surface,
)
from openresearch.ingest.textnorm import STOP_WORDS, strip_suffix, words
from openresearch.models import ConflictGroup, Draft, DraftSection, EvidenceView, Plan, Sentence, Style, SubQuestion

ROLE_ORDER = {"background": 0, "core": 1, "comparison": 2, "impact": 3}
_TYPE_ORDER = {"statistic": 0, "comparison": 1, "claim": 2, "background": 3, "risk": 4}
MAX_CLAIMS = {"brief": 2, "report": 8, "review": 12}  # claim sentences per section, conflicts not counted


def ordered_questions(plan: Plan) -> list[SubQuestion]:
    """Role order, plan order within a role (sorted() is stable)."""
    return sorted(plan.sub_questions, key=lambda q: ROLE_ORDER.get(q.role, 9))


def section_title(q: SubQuestion) -> str:
    return q.text.strip().rstrip("?？").strip()


def relevant_conflicts(conflicts: list[ConflictGroup], ids: set[str]) -> list[ConflictGroup]:
    """Conflict groups with evidence among the section's, each group once."""
    seen: dict[str, ConflictGroup] = {}
    for g in conflicts:
        if ids.intersection(g.evidence_ids):
            seen.setdefault(g.id, g)
    return list(seen.values())


def rank_evidence(items: list[EvidenceView]) -> list[EvidenceView]:
    return sorted(items, key=lambda ev: (-ev.score, -ev.source.trust, _TYPE_ORDER.get(ev.type, 9)))


# metrics the extractor names from the unit alone ("80%" -> percentage): "Kafka percentage: 80%" says less
# than the quote it came from, so such evidence is restated as a quote instead
_GENERIC_METRICS = frozenset({"percentage", "size", "count", "port", "storage", "number", "value", "duration"})


# two numbers joined by a dash ("10-100", "2–3"): a range; a date ("2023-10-02") is none
_RANGE = re.compile(r"\D*\d+(?:\.\d+)?\s?[-–~]\s?\d+(?:\.\d+)?\D*")


def _values(items: list[EvidenceView]) -> dict[tuple[str, str, str], list[Value]]:
    """Observations grouped by (entity, metric, canonical unit), stated in the quote's own form."""
    groups: dict[tuple[str, str, str], list[Value]] = defaultdict(list)
    for ev in items:
        for obs in ev.observations:
            if obs.metric in _GENERIC_METRICS:
                continue
            raw = (obs.raw_value or "").strip()
            # a range is written as its source writes it ("10-100x faster": "10-100", not its low end "10")
            form = raw if _RANGE.fullmatch(raw) and raw in ev.quote else surface(ev.quote, obs.value, obs.unit)
            if form is not None:  # an observation whose number the quote lacks is not restated
                groups[(obs.entity, obs.metric, obs.unit)].append(Value(form, ev, obs))
    return groups


def _claims(lang: Lang, items: list[EvidenceView]) -> list[Sentence]:
    """Statistics grouped by entity and metric, comparisons across entities, then quotes without numbers."""
    groups = _values(items)
    out: list[Sentence] = []
    by_metric: dict[tuple[str, str], list[Value]] = defaultdict(list)
    for (entity, metric, unit), values in sorted(groups.items()):
        out.append(stat_sentence(lang, entity, metric, values))
        by_metric[(metric, unit)].append(values[0])
    for (metric, _), firsts in sorted(by_metric.items()):
        if len(firsts) >= 2:
            out.append(compare_sentence(lang, metric, firsts))
    used = {v.evidence.id for values in groups.values() for v in values}
    rest = [ev for ev in items if ev.id not in used]
    rest.sort(key=lambda ev: (ev.entities[0].lower() if ev.entities else "~", _TYPE_ORDER.get(ev.type, 9)))
    copies: dict[str, list[EvidenceView]] = defaultdict(list)  # one sentence, several sources: said once
    for ev in rest:
        copies[same_words(ev.quote)].append(ev)
    out.extend(restate(lang, evs[0], evs[1:]) for evs in copies.values())
    # the templates copy numbers from quotes, so this only drops a sentence if a title or condition slipped in
    return [s for s in out if grounded(s.text, [ev for ev in items if ev.id in s.citations])]


def _review_claims(lang: Lang, items: list[EvidenceView]) -> list[Sentence]:
    """Literature-review order: sources by date, each source's quotes together; then where sources agree."""
    by_source: dict[str, list[EvidenceView]] = defaultdict(list)
    for ev in items:
        by_source[ev.source.id].append(ev)
    ordered = sorted(by_source.values(), key=lambda evs: (evs[0].source.published_at is None,
                                                          evs[0].source.published_at, evs[0].source.url))
    out = [quote_sentence(lang, ev, review=True) for evs in ordered for ev in evs]
    for (entity, metric, _), values in sorted(_values(items).items()):
        for i, v in enumerate(values):
            other = next((w for w in values[i + 1:] if w.evidence.source.id != v.evidence.source.id
                          and w.quantity.close_to(v.quantity)), None)
            if other is not None:
                text = phrase(lang, "agree", entity=entity, metric=metric.replace("_", " "), v=v.surface,
                              a=v.evidence.id, v2=other.surface, b=other.evidence.id)
                out.append(Sentence(text=text, citations=[v.evidence.id, other.evidence.id]))
                break
    return out


_CJK = re.compile(r"[\u4e00-\u9fff]{2}")
_QUESTION_WORDS = words("what which who whom how why when where does do did is are was were the a an of on in "
                        "for and or to with under its their there conditions compare main sources give figures "
                        "products settings")


@lru_cache(maxsize=256)
def _own_words(question: str) -> tuple[str, ...]:
    """A question's content words, read once per question (not once per quote it is matched with)."""
    return tuple(w for w in re.findall(r"[a-z][a-z0-9-]{3,}", question.lower())
                 if w not in _QUESTION_WORDS and w not in STOP_WORDS)


def relevant(q: SubQuestion, ev: EvidenceView) -> bool:
    """Evidence that is about the sub-question: it names one of its entities (when it has any), and shares
    one of its content words or reports one of the metrics it asks about (a background question about named
    things takes any quote that names them: the question's topic words only rank them). The nearest quotes of another
    topic are not an answer; a section without relevant evidence says so in one sentence."""
    if q.entities and not any(mentions(ev, e) for e in q.entities):
        return False
    if q.role == "background" and q.entities:
        return True  # "What is X, and what is it designed for?": any quote that names X is about it
    named = {w.lower() for e in q.entities for w in e.split()}
    words = [w for k in q.keywords for w in k.lower().split() if w not in named and w not in _QUESTION_WORDS]
    if not words:
        return True
    if q.role == "core":
        # the question itself: what it asks ("logical page sizes", "size classes") is in its own words
        words += [w for w in _own_words(q.text) if w not in named]
    quote = ev.quote.lower()
    # a plural keyword matches its singular ("defaults" in "default: 0")
    if any(strip_suffix(w, ("s",), keep=4) in quote for w in words):
        return True
    # Chinese keywords are phrases ("写入吞吐"); a quote sharing a two-character word of one is on topic
    if any(w[i:i + 2] in quote for w in words if _CJK.search(w) for i in range(len(w) - 1) if _CJK.match(w[i:i + 2])):
        return True
    wanted = {m for k in q.keywords if (m := canonical_metric(k))}
    return any(same_family(o.metric, m) for o in ev.observations for m in wanted)


def section_items(q: SubQuestion, items: list[EvidenceView], used: set[str],
                  said: set[str] | None = None) -> tuple[list[EvidenceView], int]:
    """The relevant items not stated earlier in the report (no quote is used twice, nor another source's copy of
    a sentence stated already: `said`, as `same_words`), and how many relevant ones were skipped because an
    earlier section already states them."""
    rel = [ev for ev in items if relevant(q, ev)]
    fresh = [ev for ev in rel if ev.id not in used and same_words(ev.quote) not in (said or set())]
    return fresh, len(rel) - len(fresh)


class DeterministicWriter:
    """Offline writer: template sentences from evidence, no model (invariant 7). The report opens with the
    answer (answer.py); sections follow, each stating only relevant evidence not stated before it."""

    def write(self, plan: Plan, evidence: dict[str, list[EvidenceView]], conflicts: list[ConflictGroup],
              style: Style, limited: set[str]) -> Draft:
        answer = opening(plan, evidence, conflicts)
        used = stated(answer, conflicts)
        words_of = {ev.id: same_words(ev.quote) for evs in evidence.values() for ev in evs}
        # the entities whose figures the answer states: a section asking for one of them is answered above, even
        # when its own search brought nothing new
        answered = {o.entity for evs in evidence.values() for ev in evs if ev.id in used for o in ev.observations}
        # and the quantities: a section asking for a figure the answer states ("What figures do the sources give
        # for max_conn?") is answered above, though its own search found it elsewhere
        metrics = {o.metric for evs in evidence.values() for ev in evs if ev.id in used for o in ev.observations}
        sections = [answer]
        for q in ordered_questions(plan):
            said = {words_of[i] for i in used if i in words_of}
            items, covered = section_items(q, evidence.get(q.id, []), used, said)
            if not items and not covered and len(q.entities) == 1 and len(plan.entities) >= 2 and any(
                    same_thing(a, q.entities[0]) for a in answered):
                covered = 1
            if not items and not covered and q.aspects and all(
                    any(m == a or same_family(m, a) for m in metrics) for a in q.aspects):
                covered = 1
            sec = self.section(plan, q, items, conflicts, style, q.id in limited, covered=covered)
            used |= stated(sec, conflicts)
            sections.append(sec)
        return Draft(title=plan.question, style=style, sections=sections, method="deterministic")

    def section(self, plan: Plan, q: SubQuestion, items: list[EvidenceView], conflicts: list[ConflictGroup],
                style: Style, limited: bool, *, covered: int = 0) -> DraftSection:
        lang = plan.language
        section = DraftSection(question_id=q.id, title=section_title(q), role=q.role,
                               limited=limited or (not items and not covered))
        if not items:
            section.sentences.append(covered_sentence(lang) if covered else gap_sentence(lang, q.text))
            return section
        ranked = rank_evidence(items)
        claims = _review_claims(lang, ranked) if style == "review" else _claims(lang, ranked)
        section.sentences.extend(claims[: MAX_CLAIMS[style]])
        for c in relevant_conflicts(conflicts, {cid for s in section.sentences for cid in s.citations}):
            section.sentences.append(conflict_sentence(lang, c))
            section.disclosed_conflicts.append(c.id)
        if limited:
            section.sentences.append(gap_sentence(lang, q.text, limited=True))
        return section


def opening(plan: Plan, evidence: dict[str, list[EvidenceView]], conflicts: list[ConflictGroup]) -> DraftSection:
    """The answer section, with the conflict groups it discloses recorded."""
    answer = answer_section(plan, evidence, conflicts)
    cited = {c for s in answer.sentences for c in s.citations}
    answer.disclosed_conflicts = [g.id for g in conflicts if len(
        {i for i, v in enumerate(g.values) if cited.intersection(v.evidence_ids)}) >= 2]
    return answer


def stated(section: DraftSection, conflicts: list[ConflictGroup]) -> set[str]:
    """Evidence a section states, and all evidence of the conflict groups it discloses (a later section
    restating one side would have to disclose the whole disagreement again)."""
    ids = {c for s in section.sentences for c in s.citations}
    for g in conflicts:
        if g.id in section.disclosed_conflicts:
            ids.update(g.evidence_ids)
    return ids


def covered_sentence(lang: str) -> Sentence:
    text = "此问题的证据已在上文陈述。" if lang == "zh" else "The evidence for this question is stated above."
    return Sentence(text=text, citations=[], key=False, kind="gap")


__all__ = ["ANSWER_ID", "DeterministicWriter", "opening", "ordered_questions", "rank_evidence", "relevant",
           "relevant_conflicts", "section_items", "section_title", "stated"]
