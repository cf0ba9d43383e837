"""Enforce the invariants on a draft before it becomes a report (pure: no I/O, no model).

The verifier reports what is wrong; this module makes sure none of it is printed. A sentence whose
citation is not in its section's evidence (a phantom, or an id copied from a prompt example), whose numbers
are not in its cited quotes, or that the judge found refuted, is rewritten from the evidence it validly
cites by the deterministic template (a verbatim quote with its citation), or dropped when it cites nothing
valid. An uncited claim is dropped too (a gap sentence, which says evidence is missing, stays). A conflict
disclosure lost this way is put back by the deterministic conflict sentence. Every change is counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel

from openresearch.agents.verify.claim_text import citations_in, unmatched_numbers
from openresearch.agents.verify.verifier import discloses, grounding
from openresearch.agents.write.writer_templates import conflict_sentence, quote_sentence
from openresearch.models import ConflictGroup, Draft, DraftSection, EvidenceView, Sentence, Verification


class EnforceCounts(BaseModel):
    checked: int = 0  # sentences looked at
    rewritten: int = 0  # replaced by the deterministic sentence from their valid evidence
    dropped: int = 0
    outside_section: int = 0  # sentences citing an id not in their section's evidence
    numbers: int = 0  # sentences with a number in none of their cited quotes
    refuted: int = 0  # sentences the judge labelled REFUTES
    uncited: int = 0  # claims with no citation at all
    conflicts_restored: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.rewritten or self.dropped or self.conflicts_restored)


def _problems(s: Sentence, allowed: Mapping[str, EvidenceView], refuted: bool) -> tuple[list[str], list[EvidenceView]]:
    ids = list(dict.fromkeys([*s.citations, *citations_in(s.text)]))
    good = [allowed[c] for c in ids if c in allowed]
    problems = []
    if any(c not in allowed for c in ids):
        problems.append("outside_section")
    if good:
        texts, extra = grounding(good)
        if unmatched_numbers(s.text, texts, extra):
            problems.append("numbers")
    if refuted:
        problems.append("refuted")
    if not ids and s.kind not in ("gap", "summary"):
        problems.append("uncited")
    return problems, good


def enforce(draft: Draft, section_evidence: Mapping[str, Sequence[EvidenceView]], conflicts: Sequence[ConflictGroup],
            verification: Verification | None = None, lang: str = "en") -> tuple[Draft, EnforceCounts]:
    """A corrected copy of `draft` and what was changed. `section_evidence` maps each section's
    question_id to the evidence its writer was given; a section missing from it may cite any of them."""
    counts = EnforceCounts()
    everything = {ev.id: ev for items in section_evidence.values() for ev in items}
    refuted = {(v.section, v.index) for v in (verification.verdicts if verification else []) if v.label == "REFUTES"}
    by_id = {g.id: g for g in conflicts}
    sections: list[DraftSection] = []
    for si, sec in enumerate(draft.sections):
        items = section_evidence.get(sec.question_id)
        allowed = {ev.id: ev for ev in items} if items is not None else everything
        kept: list[Sentence] = []
        restated: set[str] = set()
        for i, s in enumerate(sec.sentences):
            counts.checked += 1
            problems, good = _problems(s, allowed, (si, i) in refuted)
            if not problems:
                kept.append(s)
                restated.update(s.citations)
                continue
            for p in problems:
                setattr(counts, p, getattr(counts, p) + 1)
            fresh = [ev for ev in good if ev.id not in restated]
            if fresh and "refuted" not in problems:
                kept.append(quote_sentence("zh" if lang == "zh" else "en", fresh[0]))  # the source's own words
                restated.add(fresh[0].id)
                counts.rewritten += 1
            else:  # nothing valid to say it with (or the evidence contradicts it): it goes
                counts.dropped += 1
        for gid in sec.disclosed_conflicts:
            g = by_id.get(gid)
            if g is not None and not any(s.kind == "conflict" and discloses(g, s.citations) for s in kept):
                kept.append(conflict_sentence("zh" if lang == "zh" else "en", g))
                counts.conflicts_restored += 1
        sections.append(sec.model_copy(update={"sentences": kept}))
    return draft.model_copy(update={"sections": sections}), counts
