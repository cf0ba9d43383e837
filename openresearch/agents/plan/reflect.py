"""Is the evidence for a sub-question sufficient? Computed from what the graph returns. Pure."""

from __future__ import annotations

from pydantic import BaseModel, Field

from openresearch.identity import entity_key
from openresearch.models import ConflictGroup, EvidenceView, SubQuestion


class Sufficiency(BaseModel):
    evidence: int
    sources: int
    keyword_coverage: float
    entity_coverage: float
    unresolved_conflicts: int
    sufficient: bool
    missing_keywords: list[str] = Field(default_factory=list)
    missing_entities: list[str] = Field(default_factory=list)
    reason: str = ""


def assess(q: SubQuestion, evidence: list[EvidenceView], conflicts: list[ConflictGroup], *, min_evidence: int = 3,
           min_sources: int = 2, min_coverage: float = 0.5) -> Sufficiency:
    """Sufficient when there are enough items from enough distinct sources, covering the question's
    keywords and entities; a conflict seen from only one side is unresolved and asks for more sources."""
    linked = [e for e in evidence if q.text in e.questions] or evidence
    text = " ".join(e.quote.lower() for e in linked)
    mentioned = {entity_key(n) for e in linked for n in e.entities}
    missing_kw = [k for k in q.keywords if k.lower() not in text]
    missing_ent = [n for n in q.entities if entity_key(n) not in mentioned and n.lower() not in text]
    kw_cov = 1.0 - len(missing_kw) / len(q.keywords) if q.keywords else 1.0
    ent_cov = 1.0 - len(missing_ent) / len(q.entities) if q.entities else 1.0
    ids = {e.id for e in linked}
    # a group is seen from one side when the evidence holds some of its values but not all
    unresolved = sum(1 for g in conflicts if 0 < sum(1 for v in g.values if ids.intersection(v.evidence_ids))
                     < len(g.values))
    n_sources = len({e.source.id for e in linked})
    reasons = []
    if len(linked) < min_evidence:
        reasons.append(f"{len(linked)} evidence items (< {min_evidence})")
    if n_sources < min_sources:
        reasons.append(f"{n_sources} sources (< {min_sources})")
    if min(kw_cov, ent_cov) < min_coverage:
        reasons.append(f"coverage keywords {kw_cov:.0%}, entities {ent_cov:.0%}")
    if unresolved:
        reasons.append(f"{unresolved} conflicts seen from one side")
    return Sufficiency(evidence=len(linked), sources=n_sources, keyword_coverage=round(kw_cov, 3),
                       entity_coverage=round(ent_cov, 3), unresolved_conflicts=unresolved, sufficient=not reasons,
                       missing_keywords=missing_kw, missing_entities=missing_ent, reason="; ".join(reasons))


def follow_up_queries(q: SubQuestion, s: Sufficiency, round_no: int) -> list[str]:
    """Supplementary queries aimed at what is missing (deterministic; the LLM rewriter may refine them)."""
    focus = s.missing_entities + s.missing_keywords
    if not focus:
        focus = q.keywords[round_no % max(1, len(q.keywords)):][:2] or [q.text]
    base = " ".join(q.entities[:2])
    queries = [f"{base} {f}".strip() for f in focus[:2]]
    if s.unresolved_conflicts:
        queries.append(f"{base} {' '.join(q.keywords[:2])} benchmark".strip())
    return list(dict.fromkeys(queries))[:3]
