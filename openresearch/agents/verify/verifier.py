"""The verifier: every sentence of a draft checked against the evidence it cites (invariants 1-3).

Per sentence, the worst of:
  FAIL   a cited id that is not in the evidence (phantom), a number no cited quote holds, or a judge REFUTES;
  DOUBT  a claim without any citation, or a judge NOT_ENOUGH_INFO;
  PASS   otherwise.
Gap sentences ("the evidence does not answer …") need no citation and state no finding, so their
numbers (restating the question) are not checked. Conflict disclosures are checked for citations and
numbers but not judged: "sources disagree" is a fact about the quotes, not something a quote asserts.
A section citing evidence of a conflict group must disclose it: a sentence citing evidence of at least two
of the group's distinct values.
Pure apart from the injected judge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal, Protocol, runtime_checkable
from urllib.parse import urlsplit

from openresearch.agents.verify.claim_text import (
    citations_in,
    date_quantities,
    header_quantities,
    quantities,
    strip_markers,
    unmatched_numbers,
)
from openresearch.agents.verify.judge import Judge
from openresearch.agents.verify.judge_cues import content_tokens
from openresearch.models import (
    ClaimJudgement,
    ConflictGroup,
    Draft,
    EvidenceView,
    Sentence,
    SentenceVerdict,
    Verification,
)
from openresearch.numbers import Quantity

Verdict = Literal["PASS", "DOUBT", "FAIL"]
_RANK: dict[Verdict, int] = {"PASS": 0, "DOUBT": 1, "FAIL": 2}
_BY_LABEL: dict[str, Verdict] = {"SUPPORTS": "PASS", "NOT_ENOUGH_INFO": "DOUBT", "REFUTES": "FAIL"}


@runtime_checkable
class BatchJudge(Protocol):
    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[ClaimJudgement]: ...


def discloses(group: ConflictGroup, citations: Sequence[str]) -> bool:
    """A sentence discloses a conflict group when it cites evidence of at least two of its distinct values."""
    return len({i for c in citations if (i := group.value_of(c)) is not None}) >= 2


def undisclosed_groups(sentences: Sequence[Sentence], groups: Sequence[ConflictGroup]) -> list[ConflictGroup]:
    """The groups a section's evidence touches that none of its sentences discloses. A disclosure's own
    citations do not make a group due (it may cite evidence that another group also holds)."""
    cited = [sentence_citations(s) for s in sentences]
    touched = {c for s, ids in zip(sentences, cited, strict=True) if s.kind != "conflict" for c in ids}
    return [g for g in groups if touched & set(g.evidence_ids) and not any(discloses(g, ids) for ids in cited)]


def sentence_citations(sentence: Sentence) -> list[str]:
    """The markers in the text are what a reader sees, so they count; listed citations are added."""
    ids = citations_in(sentence.text)
    return ids + [c for c in sentence.citations if c not in ids]


def grounding(cited: Sequence[EvidenceView]) -> tuple[list[str], list[Quantity]]:
    """Texts whose numbers a sentence may state: the quotes, plus each source's title and date, and a table row's
    figures in its header's unit."""
    texts = [ev.quote for ev in cited] + [ev.source.title for ev in cited if ev.source.title]
    extra = [q for ev in cited for q in date_quantities(ev.source.published_at)] + header_quantities(cited)
    return texts, extra


@lru_cache(maxsize=64)
def _question_tokens(question: str) -> frozenset[str]:
    """The question's content tokens, read once per report rather than once per sentence."""
    return frozenset(content_tokens(question))


def judge_inputs(text: str, cited: Sequence[EvidenceView], question: str = "") -> tuple[str, str]:
    """(claim, evidence) as the judge sees them. The attribution ("Kafka docs (2024-03-01) reports: …") is
    checked here, against the cited sources, so it is cut from the claim; the evidence is the quotes plus
    the extractor's labels for them (entities, metrics), since a sentence may name what a quote implies
    ("RabbitMQ throughput: …" from "RabbitMQ handled …"). A label that restates what the question asks in its own
    words ("Broker connection pool limit: Zorbq 10 (default)" for a quote "Default: 10.") is cut too: it names
    the row, the figures after it are what the quotes must hold."""
    claim = strip_markers(text)
    if question and (row := re.match(r"\s*([^:：\[\]]{3,80})[:：]\s+(?=\S)", claim)) and (
            asked := content_tokens(row.group(1))) and asked <= _question_tokens(question):
        claim = claim[row.end():]
    for ev in cited:
        date = ev.source.published_at.isoformat() if ev.source.published_at else None
        for attribution in (ev.source.title, date, urlsplit(ev.source.url).netloc):
            if attribution:
                claim = claim.replace(attribution, "")
    claim = re.sub(r"\(\s*\)|（\s*）", "", claim).strip(" ,:，：")
    metrics = (f"{o.entity} {o.metric.replace('_', ' ')}" for ev in cited for o in ev.observations)
    labels = list(dict.fromkeys([*(e for ev in cited for e in ev.entities), *metrics]))
    quotes = " ".join(ev.quote for ev in cited)
    return claim, quotes + (" (" + "; ".join(labels) + ")" if labels else "")


def _worst(a: Verdict, b: Verdict) -> Verdict:
    return a if _RANK[a] >= _RANK[b] else b


def _check(si: int, i: int, s: Sentence, evidence: dict[str, EvidenceView]) -> tuple[SentenceVerdict, bool]:
    """Citation and number checks; returns the verdict so far and whether the judge should see it."""
    ids = sentence_citations(s)
    phantom = [c for c in ids if c not in evidence]
    cited = [evidence[c] for c in ids if c in evidence]
    v = SentenceVerdict(section=si, index=i, text=s.text, verdict="PASS")
    if phantom:
        v.verdict = "FAIL"
        v.reasons.append("phantom citation: " + ", ".join(phantom))
    if s.kind == "gap":
        v.reasons.append("gap: states that evidence is missing")
        return v, False
    if not ids:
        v.verdict = _worst(v.verdict, "DOUBT")
        v.reasons.append("no citation")
        v.numbers_ok = not quantities(s.text)
        return v, False
    texts, extra = grounding(cited)
    missing = unmatched_numbers(s.text, texts, extra)
    if missing:
        v.numbers_ok = False
        v.verdict = "FAIL"
        v.reasons.append("numbers not in any cited quote: " + ", ".join(missing))
    return v, bool(cited) and s.kind != "conflict"


def verify(draft: Draft, evidence: dict[str, EvidenceView], conflicts: list[ConflictGroup],
           judge: Judge) -> Verification:
    verdicts: list[SentenceVerdict] = []
    to_judge: list[tuple[SentenceVerdict, str, str]] = []
    key_of: list[bool] = []
    with_numbers: list[bool] = []
    undisclosed: list[str] = []
    for si, section in enumerate(draft.sections):
        for i, s in enumerate(section.sentences):
            v, judge_it = _check(si, i, s, evidence)
            ids = sentence_citations(s)
            if judge_it:
                to_judge.append((v, *judge_inputs(s.text, [evidence[c] for c in ids if c in evidence], draft.title)))
            verdicts.append(v)
            key_of.append(s.key)
            with_numbers.append(s.kind != "gap" and bool(quantities(s.text)))
        for g in undisclosed_groups(section.sentences, conflicts):
            if g.id not in undisclosed:
                undisclosed.append(g.id)
    _apply_judgements(judge, to_judge)
    non_gap = [(v, s) for v, s in zip(verdicts, _sentences(draft), strict=True) if s.kind != "gap"]
    covered = sum(1 for _, s in non_gap if any(c in evidence for c in sentence_citations(s)))
    phantoms = sum(len([c for c in sentence_citations(s) if c not in evidence]) for s in _sentences(draft))
    numeric = [v.numbers_ok for v, has in zip(verdicts, with_numbers, strict=True) if has]
    return Verification(
        verdicts=verdicts,
        undisclosed_conflicts=undisclosed,
        fully_verified=(all(v.verdict == "PASS" for v, key in zip(verdicts, key_of, strict=True) if key)
                        and not undisclosed and phantoms == 0),
        citation_coverage=covered / len(non_gap) if non_gap else 1.0,
        phantom_citations=phantoms,
        numeric_faithfulness=sum(numeric) / len(numeric) if numeric else 1.0,
    )


def _sentences(draft: Draft) -> list[Sentence]:
    return [s for section in draft.sections for s in section.sentences]


def _apply_judgements(judge: Judge, items: list[tuple[SentenceVerdict, str, str]]) -> None:
    pairs = [(claim, quotes) for _, claim, quotes in items]
    if isinstance(judge, BatchJudge):
        results = judge.judge_many(pairs)  # one embedding batch for the whole draft
    else:
        results = [judge.judge(claim, quotes) for claim, quotes in pairs]
    for (v, _, _), j in zip(items, results, strict=True):
        v.label, v.support = j.label, j.score
        verdict = _BY_LABEL[j.label]
        if verdict != "PASS":
            v.reasons.append(f"judge: {j.label} ({j.score:.2f})")
        v.verdict = _worst(v.verdict, verdict)
