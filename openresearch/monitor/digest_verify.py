"""A digest's sentences checked like a report's (agents/verify/verifier.py), before the digest is stored or sent.

Per sentence:
  FAIL  a cited id that is not an Evidence node in the graph (phantom), a number that no cited quote holds
        (quotes, their sources' titles and publication dates: the verifier's `grounding`, compared by its
        `unmatched_numbers`, so units and forms such as `1.2M` or `120,000` are normalised the same way), or a
        claim that cites nothing;
  PASS  otherwise.
What the digest states about its own records is not a claim from a quote and is left out of the number check:
the spans each template lists in `Sentence.metadata` (the dates it files values under, "as of 2026-02-10",
taken from the observation's as-of date, its source's date or when it was learned; how many items a new
source gave; the name of a removed source, whose evidence left the graph with it). Status sentences ("Nothing
changed since the last run.") cite nothing and must state no number. The verifier's judge is not run: every
digest sentence is a template over the cited evidence's own extracted values, not a paraphrase.

A sentence that fails is withheld: it leaves `Digest.sentences` (so Markdown, HTML, the webhook's readers and
the digest's CITES relations never carry it) and stays in `Digest.verification` with its reasons, which every
rendering shows. Withholding rather than marking: a digest is read in chat and e-mail where a mark is easily
lost, and a report drops or rewrites such sentences too (enforce.py); the structured fields
(changed_values, new_conflicts, ...) keep the graph's facts either way. Pure: the caller fetches the evidence.
"""

from __future__ import annotations

from collections.abc import Mapping

from openresearch.agents.verify.claim_text import citations_in, quantities, unmatched_numbers
from openresearch.agents.verify.verifier import grounding
from openresearch.models import EvidenceView
from openresearch.monitor.models import Digest, DigestVerification, Sentence, SentenceCheck


def cited_ids(s: Sentence) -> list[str]:
    """The markers a reader sees, then the listed ids (as the verifier's `sentence_citations`)."""
    ids = citations_in(s.text)
    return ids + [e for e in s.evidence_ids if e not in ids]


def claim_text(s: Sentence) -> str:
    """The sentence without the digest's own metadata spans: what the number check reads."""
    text = s.text
    for span in s.metadata:
        text = text.replace(span, " ")
    return text


def check(s: Sentence, evidence: Mapping[str, EvidenceView]) -> SentenceCheck:
    ids = cited_ids(s)
    out = SentenceCheck(text=s.text, evidence_ids=ids, status="PASS")
    phantom = [e for e in ids if e not in evidence]
    if phantom:
        out.reasons.append("phantom citation: " + ", ".join(phantom))
    cited = [evidence[e] for e in ids if e in evidence]
    claim = claim_text(s)
    if not ids:
        numbers = [surface for surface, _ in quantities(claim)]
        if s.kind != "status":
            out.reasons.append("no citation")
        elif numbers:
            out.reasons.append("numbers in a sentence that cites nothing: " + ", ".join(numbers))
    elif cited:
        texts, extra = grounding(cited)
        missing = unmatched_numbers(claim, texts, extra)
        if missing:
            out.reasons.append("numbers not in any cited quote: " + ", ".join(missing))
    if out.reasons:
        out.status = "FAIL"
        out.published = False
    return out


def verify(d: Digest, evidence: Mapping[str, EvidenceView]) -> Digest:
    """The digest with its verification and only the sentences that passed. `evidence`: the stored views of
    the ids its sentences cite (`GraphStore.evidence`); an id missing from it is a phantom."""
    checks = [check(s, evidence) for s in d.sentences]
    kept = [s for s, c in zip(d.sentences, checks, strict=True) if c.published]
    v = DigestVerification(checked=len(checks), passed=sum(c.status == "PASS" for c in checks),
                           failed=sum(c.status == "FAIL" for c in checks),
                           phantom_citations=sum(1 for s in d.sentences for e in cited_ids(s) if e not in evidence),
                           sentences=checks)
    return d.model_copy(update={"sentences": kept, "verification": v})


def cited(d: Digest) -> list[str]:
    """Every id the digest's sentences cite (before verification: what to fetch)."""
    return sorted({e for s in d.sentences for e in cited_ids(s)})
