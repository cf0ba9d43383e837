"""The offline judge's pure core: lexical cues between a claim and its evidence, and the decision rule.

Separate from judge.py so the benchmark can compute cues once per pair and search thresholds without
re-embedding (bench/bench_verifier.py --calibrate). No I/O, no model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from openresearch.agents.verify.claim_text import matches, quantities
from openresearch.ingest.textnorm import strip_suffix, tokens, words
from openresearch.models import Label

_WORD = re.compile(r"[a-z]+(?:n't|'t)?")
_NEG_EN = words("not no never cannot can't won't don't doesn't didn't isn't aren't wasn't weren't none neither "
                "nor without nothing nobody fail fails failed lack lacks lacking")
# longest first; 不同/不仅/不断 and 非常 ("very") are not negations
_NEG_ZH = re.compile(r"没有|并非|无法|否认|不(?![同仅断久少过])|没|未")
_ANTONYMS_EN = [("increase", "decrease"), ("increases", "decreases"), ("increased", "decreased"),
                ("increasing", "decreasing"), ("rise", "fall"), ("rising", "falling"), ("rose", "fell"),
                ("more", "less"), ("higher", "lower"), ("high", "low"), ("warming", "cooling"),
                ("gain", "loss"), ("above", "below"), ("faster", "slower"), ("larger", "smaller"),
                ("positive", "negative"), ("accelerating", "slowing"), ("expand", "shrink"),
                ("strengthen", "weaken"), ("safe", "unsafe"), ("effective", "ineffective"),
                ("support", "oppose"), ("most", "least"), ("before", "after"), ("major", "minor")]
_ANTONYMS_ZH = [("增加", "减少"), ("上升", "下降"), ("提高", "降低"), ("高于", "低于"), ("更多", "更少"),
                ("增长", "下降"), ("快", "慢"), ("大于", "小于")]
_OPPOSITE: dict[str, str] = {}
for _a, _b in _ANTONYMS_EN + _ANTONYMS_ZH:
    _OPPOSITE[_a], _OPPOSITE[_b] = _b, _a


def _stem(tok: str) -> str:
    """Crude suffix folding so 'warming'/'warmed'/'warms' share a key; CJK bigrams pass through."""
    return tok if not tok.isascii() or len(tok) <= 4 else strip_suffix(tok)


# Attribution and comparison glue ("According to X, …", "… compared with …") states no fact of its own;
# counted as content it would read as a substituted word in every attributed sentence.
_GLUE = words("according report reports reported states stated notes noted says said source sources agree "
              "agrees disagree disagrees reach reaches reached compared compare versus respectively also")


def content_tokens(text: str) -> set[str]:
    return {_stem(t) for t in tokens(text) if not t.isdigit() and t not in _GLUE}


def negations(text: str) -> int:
    lowered = text.lower()
    return sum(1 for w in _WORD.findall(lowered) if w in _NEG_EN or w.endswith("n't")) + \
        len(_NEG_ZH.findall(text))


def _antonym_clash(claim: str, evidence: str) -> bool:
    """The claim says X where the evidence says the opposite of X and never X itself."""
    c_words, e_words = set(_WORD.findall(claim.lower())), set(_WORD.findall(evidence.lower()))
    for word in c_words & _OPPOSITE.keys():
        if _OPPOSITE[word] in e_words and word not in e_words:
            return True
    for a, b in _ANTONYMS_ZH:
        for x, y in ((a, b), (b, a)):
            if x in claim and y in evidence and x not in evidence:
                return True
    return False


@dataclass(frozen=True)
class Cues:
    coverage: float  # share of the claim's content tokens found in the evidence
    novel: int  # claim content tokens absent from the evidence (substituted names, invented facts)
    numbers: int  # numbers in the claim
    numbers_matched: int
    number_clash: bool  # a claim number is absent while the evidence gives another value in that unit
    negation_clash: bool  # one side negated, the other not
    antonym_clash: bool


def cues(claim: str, evidence: str) -> Cues:
    c_tok, e_tok = content_tokens(claim), content_tokens(evidence)
    coverage = len(c_tok & e_tok) / len(c_tok) if c_tok else 0.0
    c_q = [q for _, q in quantities(claim)]
    e_q = [q for _, q in quantities(evidence)]
    unmatched = [q for q in c_q if not matches(q, e_q)]
    clash = any(any(g.unit == q.unit for g in e_q) for q in unmatched)
    # CJK bigrams straddle word boundaries ("的吞" in "的吞吐量"), so only Latin words count as substitutions
    novel = sum(1 for t in c_tok - e_tok if t.isascii())
    return Cues(coverage=coverage, novel=novel, numbers=len(c_q),
                numbers_matched=len(c_q) - len(unmatched), number_clash=clash,
                negation_clash=(negations(claim) > 0) != (negations(evidence) > 0),
                antonym_clash=_antonym_clash(claim, evidence))


@dataclass(frozen=True)
class Thresholds:
    related: float  # support score below this: the evidence does not address the claim
    support: float  # support score at or above this: SUPPORTS
    weight_cos: float  # support score = weight_cos * cosine + (1 - weight_cos) * coverage
    refute_related: float  # contradiction cues count only when the support score reaches this
    substitution: float  # coverage at or above which a novel token reads as a substitution (>1 = off)


def support_score(cos: float, c: Cues, t: Thresholds) -> float:
    return t.weight_cos * cos + (1.0 - t.weight_cos) * c.coverage


def decide(cos: float, c: Cues, t: Thresholds) -> tuple[Label, float]:
    """(label, confidence in that label). Contradiction cues beat similarity: a sentence that restates
    a quote with one number or one name changed is highly similar and still wrong."""
    s = support_score(cos, c, t)
    if s < t.related:
        return "NOT_ENOUGH_INFO", round(min(1.0, 1.0 - s), 4)
    contradiction = c.number_clash or c.antonym_clash or c.negation_clash or (
        c.novel > 0 and c.coverage >= t.substitution)
    if contradiction and s >= t.refute_related:
        return "REFUTES", round(min(1.0, max(0.5, s)), 4)
    if s >= t.support and c.numbers_matched == c.numbers:
        return "SUPPORTS", round(min(1.0, s), 4)
    return "NOT_ENOUGH_INFO", round(min(1.0, max(0.0, 1.0 - abs(s - t.support))), 4)
