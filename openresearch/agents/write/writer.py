"""Writers: the `Writer` interface, the deterministic writer (writer_deterministic.py) and LLMWriter.

LLMWriter makes one WRITE call per section, showing only that section's evidence, fenced as data.
The model's sentences are kept as written here, including citations of ids it was never shown; the verifier
FAILs them and the invariant pass (agents/verify/enforce.py) rewrites them from the evidence or drops them
before anything is published. What the model may not skip is structural: a conflict it did not disclose is
disclosed by the deterministic template, and a section whose call fails (LLMError, BudgetExceeded) or comes
back empty is written by the fallback.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import Role
from openresearch.agents.llm.prompt import render
from openresearch.agents.verify.claim_text import citations_in, unmatched_numbers
from openresearch.agents.verify.verifier import discloses
from openresearch.agents.write.answer import same_words
from openresearch.agents.write.writer_deterministic import (
    DeterministicWriter,
    opening,
    ordered_questions,
    rank_evidence,
    relevant_conflicts,
    section_items,
    section_title,
    stated,
)
from openresearch.agents.write.writer_templates import conflict_sentence, conflict_value_text, gap_sentence
from openresearch.errors import BudgetExceeded, LLMError
from openresearch.ingest.textnorm import tokens
from openresearch.models import ConflictGroup, Draft, DraftSection, EvidenceView, Plan, Sentence, Style, SubQuestion

__all__ = ["DeterministicWriter", "LLMWriter", "Writer"]

MAX_EVIDENCE = 20  # quotes per section prompt: bounds tokens; the best-ranked ones are kept
MAX_QUOTE_CHARS = 1200
# all quotes of one prompt together (~1,500 tokens): a small local model has a 4,096-token context and reads
# ~15 prompt tokens/s on a loaded CPU; the best-ranked quotes come first, so the budget drops the weakest
MAX_EVIDENCE_CHARS = 6000


class Writer(Protocol):
    def write(self, plan: Plan, evidence: dict[str, list[EvidenceView]], conflicts: list[ConflictGroup],
              style: Style, limited: set[str]) -> Draft: ...


class SentenceOut(BaseModel):
    text: str
    kind: Literal["claim", "conflict", "gap"] = "claim"


class SectionOut(BaseModel):
    sentences: list[SentenceOut] = Field(default_factory=list)


def _attr(value: str) -> str:
    return value.replace('"', "'").replace("<", "(").replace(">", ")")


def evidence_block(items: list[EvidenceView]) -> str:
    """One <source> block per quote; tags inside quotes are neutralised so data cannot close its fence."""
    blocks = []
    for ev in items:
        date = ev.source.published_at.isoformat() if ev.source.published_at else "unknown"
        quote = ev.quote[:MAX_QUOTE_CHARS].replace("<source", "(source").replace("</source>", "(/source)")
        blocks.append(f'<source id="{ev.id}" title="{_attr(ev.source.title or ev.source.url)}" date="{date}">\n'
                      f"{quote}\n</source>")
    return "\n".join(blocks) if blocks else "(none)"


def within_budget(items: list[EvidenceView], budget: int = MAX_EVIDENCE_CHARS) -> list[EvidenceView]:
    """The leading items whose (clipped) quotes fit the prompt budget; always at least one."""
    out: list[EvidenceView] = []
    used = 0
    for ev in items:
        size = min(len(ev.quote), MAX_QUOTE_CHARS)
        if out and used + size > budget:
            break
        out.append(ev)
        used += size
    return out


def conflict_lines(conflicts: list[ConflictGroup]) -> str:
    """One line per conflict group: every value with its citations, and the graph's note on support."""
    lines = []
    for g in conflicts:
        forms = [conflict_value_text(v) for v in g.values]
        values = " versus ".join(f"{form} " + "".join(f"[{e}]" for e in ids) for form, ids in forms)
        if g.kind == "condition":  # the figures agree; what they were measured under does not
            sides = " versus ".join(f"{form} under {', '.join(v.conditions) or 'an unstated set-up'} "
                                    + "".join(f"[{e}]" for e in ids) for (form, ids), v in zip(forms, g.values,
                                                                                             strict=True))
            lines.append(f"- {g.entity} {g.metric}: the same figure with different {g.condition}: {sides}.")
            continue
        cond = f" ({g.condition})" if g.condition else ""
        if g.kind == "implied":  # a claim, and the ratio the per-unit figures of both sides allow
            (form, ids), implied = forms[0], g.values[1]
            figures = "; ".join(f"{raw} [{e}]" for raw, e in zip(implied.raw_values, implied.evidence_ids,
                                                                 strict=False))
            lines.append(f"- {g.entity} {g.metric}{cond}: claimed {form} " + "".join(f"[{e}]" for e in ids)
                         + f"; the per-unit figures {figures} allow {', '.join(implied.conditions)}. {g.credibility}")
            continue
        if g.kind == "qualified":  # one source's flat figure, another's with the condition it changes under
            (flat, flat_ids), (changed, changed_ids) = forms[0], forms[1]
            cites = ("".join(f"[{e}]" for e in ids) for ids in (flat_ids, changed_ids))
            lines.append(f"- {g.entity} {g.metric}{cond}: stated flatly as {flat} {next(cites)}; another source: "
                         f"{changed} under {', '.join(g.values[1].conditions)} {next(cites)}.")
            continue
        lines.append(f"- {g.entity} {g.metric}{cond}: {values}. {g.credibility}")
    return "\n".join(lines) if lines else "(none)"


def source_of(text: str, shown: list[EvidenceView], min_overlap: float = 0.75) -> EvidenceView | None:
    """The one shown quote an uncited sentence restates: every number of the sentence is in it and most of its
    words are. Small models often drop the [E-id]; a sentence matching no quote, or several, stays uncited."""
    words = set(tokens(text))
    if len(words) < 3:
        return None
    fits = [ev for ev in shown if not unmatched_numbers(text, [ev.quote])
            and len(words & set(tokens(ev.quote))) / len(words) >= min_overlap]
    return fits[0] if len(fits) == 1 else None


def to_sentences(out: SectionOut, conflicts: list[ConflictGroup],
                 shown: list[EvidenceView] | None = None) -> list[Sentence]:
    """The kind is decided here, not by the model: only an uncited sentence can be an exempt gap, and only
    a sentence citing evidence of two values of a known conflict group counts as its disclosure. An uncited
    claim that restates exactly one shown quote gets that quote's citation (the verifier still checks it)."""
    sentences = []
    for s in out.sentences:
        text = " ".join(s.text.split())
        if not text:
            continue
        ids = citations_in(text)
        if not ids and s.kind != "gap" and shown and (ev := source_of(text, shown)) is not None:
            end = len(text) - len(text.rstrip(".。!?！？"))
            text = f"{text[:len(text) - end]} [{ev.id}]{text[len(text) - end:]}" if end else f"{text} [{ev.id}]"
            ids = [ev.id]
        if not ids and s.kind == "gap":
            sentences.append(Sentence(text=text, citations=[], key=False, kind="gap"))
        elif any(discloses(g, ids) for g in conflicts):
            sentences.append(Sentence(text=text, citations=ids, kind="conflict"))
        else:
            sentences.append(Sentence(text=text, citations=ids, kind="claim"))
    return sentences


class LLMWriter:
    def __init__(self, client: LLMClient, fallback: DeterministicWriter | None = None, *, workers: int = 4) -> None:
        self.client = client
        self.workers = max(1, workers)
        self.fallback = fallback or DeterministicWriter()
        self.fallbacks = 0  # sections written by the deterministic writer after a failed call

    def write(self, plan: Plan, evidence: dict[str, list[EvidenceView]], conflicts: list[ConflictGroup],
              style: Style, limited: set[str]) -> Draft:
        # the same structure as the offline writer: the composed answer first, then sections that each get
        # the relevant evidence no earlier part holds (assigned up front, so the calls can run in parallel)
        answer = opening(plan, evidence, conflicts)
        used = stated(answer, conflicts)
        assigned: dict[str, tuple[list[EvidenceView], int]] = {}
        said = {same_words(ev.quote) for evs in evidence.values() for ev in evs if ev.id in used}
        for q in ordered_questions(plan):
            items, covered = section_items(q, evidence.get(q.id, []), used, said)
            assigned[q.id] = (items, covered)
            used |= {ev.id for ev in items}
            said |= {same_words(ev.quote) for ev in items}

        def one(q: SubQuestion) -> tuple[DraftSection, bool]:
            items, covered = assigned[q.id]
            if items:  # a section without evidence is a gap sentence: no call needed
                try:
                    return self.section(plan, q, items, conflicts, style, q.id in limited), True
                except (LLMError, BudgetExceeded):
                    self.fallbacks += 1
            return self.fallback.section(plan, q, items, conflicts, style, q.id in limited, covered=covered), False

        # sections are independent calls: write them in parallel, keep the plan's order
        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            results = list(pool.map(one, ordered_questions(plan)))
        return Draft(title=plan.question, style=style, sections=[answer, *(sec for sec, _ in results)],
                     method="llm" if any(llm for _, llm in results) else "deterministic")

    def section(self, plan: Plan, q: SubQuestion, items: list[EvidenceView], conflicts: list[ConflictGroup],
                style: Style, limited: bool) -> DraftSection:
        shown = within_budget(rank_evidence(items)[:MAX_EVIDENCE])
        relevant = relevant_conflicts(conflicts, {ev.id for ev in shown})
        messages = [
            {"role": "system", "content": render("write_system") + "\n\n" + render("untrusted_data")},
            {"role": "user", "content": render(
                "write_section", question=plan.question, section=q.text, role=q.role, style=style,
                language="Chinese (简体中文)" if plan.language == "zh" else "English",
                evidence=evidence_block(shown), conflicts=conflict_lines(relevant))},
        ]
        out = self.client.complete_json(Role.WRITE, messages, SectionOut)
        sentences = to_sentences(out, relevant, shown)
        if not sentences:
            raise LLMError(f"writer: empty section for {q.id}")
        section = DraftSection(question_id=q.id, title=section_title(q), role=q.role, sentences=sentences,
                               limited=limited)
        for c in relevant:
            if not any(s.kind == "conflict" and discloses(c, s.citations) for s in sentences):
                section.sentences.append(conflict_sentence(plan.language, c))  # the promise is not optional
            section.disclosed_conflicts.append(c.id)
        if limited:
            section.sentences.append(gap_sentence(plan.language, q.text, limited=True))
        return section
