"""The LLM extractor's pure core: answer schema, windows, quote location and observation checks.

Invariant 1 is enforced here, not trusted to the model: each returned quote is located in the part of
the source the model was shown (exact match, or a match that differs only in runs of whitespace and still
maps to one exact span). Anything else is rejected and counted, never repaired. Invariant 6: the source
is fenced as data, and nothing the model returns is acted on beyond being checked against that source.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import get_args

from pydantic import BaseModel, Field

from openresearch.agents.extract.extract_rules import worth_quoting
from openresearch.agents.llm.prompt import render
from openresearch.identity import AliasResolver
from openresearch.ingest.chunk import sentence_spans
from openresearch.models import EvidenceType, ObservationIn, Plan, SubQuestion
from openresearch.numbers import NumberFormatError, normalise_metric, parse_quantity

_TYPES: dict[str, EvidenceType] = {t: t for t in get_args(EvidenceType)}
_BARE = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?"
                   r"(万亿|百万|万|亿|千|thousand|million|billion|trillion|bn|mn|[kKMBG](?![A-Za-z]))?")
_MAG = {"万亿": 1e12, "百万": 1e6, "万": 1e4, "亿": 1e8, "千": 1e3, "thousand": 1e3, "million": 1e6,
        "billion": 1e9, "trillion": 1e12, "bn": 1e9, "mn": 1e6, "k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "G": 1e9}
_FENCE = re.compile(r"<(/?)source", re.I)


class LLMObservation(BaseModel):
    entity: str = ""
    metric: str = ""
    value: str | float | int | None = None
    unit: str | None = None
    condition: str | None = None


class LLMQuote(BaseModel):
    quote: str
    type: str | None = None
    entities: list[str] = Field(default_factory=list)
    observations: list[LLMObservation] = Field(default_factory=list)


class LLMExtraction(BaseModel):
    quotes: list[LLMQuote] = Field(default_factory=list)


def windows(text: str, max_chars: int) -> list[tuple[int, int]]:
    """Sentence-aligned parts of at most `max_chars` (a longer sentence is cut), so no quote straddles two."""
    out: list[tuple[int, int]] = []
    for s, e, _ in sentence_spans(text, max_chars):
        if out and e - out[-1][0] <= max_chars:
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def locate(text: str, quote: str, lo: int, hi: int, taken: Sequence[tuple[int, int]]) -> tuple[int, int] | str:
    """(start, end) of `quote` in text[lo:hi], or the reason it is rejected."""
    q = quote.strip()
    if not worth_quoting(q):  # "590 MB/s" alone says nothing about what reached it
        return "too short"
    spans: list[tuple[int, int]] = []
    i = text.find(q, lo, hi)
    while i >= 0 and len(spans) < 50:
        spans.append((i, i + len(q)))
        i = text.find(q, i + 1, hi)
    if not spans:  # whitespace runs may differ (a wrapped line): the match is still a span of the stored text
        pattern = re.compile(r"\s+".join(re.escape(w) for w in q.split()))
        spans = [(m.start(), m.end()) for m in pattern.finditer(text, lo, hi)]
    if not spans:
        return "not a verbatim span of the source"
    free = [sp for sp in spans if not any(sp[0] < e and s < sp[1] for s, e in taken)]
    if not free:
        return "duplicate"
    s, e = free[0]
    if (s > 0 and text[s - 1].isalnum() and text[s].isalnum() and text[s].isascii()) or (
            e < len(text) and text[e].isalnum() and text[e - 1].isalnum() and text[e - 1].isascii()):
        return "cuts a word in two"
    return s, e


def _bare_numbers(text: str) -> list[float]:
    return [float(m.group(1).replace(",", "")) * _MAG.get(m.group(2) or "", 1.0) for m in _BARE.finditer(text)]


def _number_in(value: str | float | int, quote_numbers: Sequence[float]) -> bool:
    nums = [float(value)] if isinstance(value, int | float) else _bare_numbers(value)[:1]
    return bool(nums) and any(math.isclose(nums[0], n, rel_tol=1e-6) for n in quote_numbers)


def check_observations(quote: str, proposed: Sequence[LLMObservation], aliases: AliasResolver,
                       allowed: set[str]) -> tuple[list[ObservationIn], list[str]]:
    """Keep an observation only if its value parses, its number is written in the quote and its entity is
    one the quote names (or the source's title subject): a page cannot get a number pinned on a bystander."""
    numbers = _bare_numbers(quote)
    kept: list[ObservationIn] = []
    dropped: list[str] = []
    for o in proposed:
        value = o.value
        if value is None or isinstance(value, bool) or not o.entity.strip() or not normalise_metric(o.metric):
            dropped.append("incomplete")
            continue
        try:
            parse_quantity(value, o.unit)
        except NumberFormatError:
            dropped.append(f"unparsable value {value!r}")
            continue
        if not _number_in(value, numbers):
            dropped.append(f"{value!r} is not in the quote")
            continue
        if aliases.canonical(o.entity) not in allowed:
            dropped.append(f"{o.entity!r} is not named in the quote")
            continue
        kept.append(ObservationIn(entity=aliases.canonical(o.entity), metric=normalise_metric(o.metric),
                                  value=value, unit=o.unit or None, condition=o.condition or None))
    return kept, dropped


def evidence_type(proposed: str | None) -> EvidenceType | None:
    """The model's type if it is one of ours; None lets the rules decide."""
    return _TYPES.get((proposed or "").strip().lower())


def messages(part: str, question: SubQuestion, plan: Plan, n: int, total: int) -> list[dict[str, str]]:
    """System: the untrusted-data rule + the task. User: the question and the part, fenced as data."""
    # a "</source>" inside the page must not close the fence early; a quote spanning it then fails to locate
    fenced = "<source>\n" + _FENCE.sub(lambda m: f"<{m.group(1)}\u200bsource", part) + "\n</source>"
    entities = list(dict.fromkeys([*question.entities, *plan.entities]))
    system = render("untrusted_data") + "\n\n" + render("extract_system")
    user = render("extract_user", question=question.text, queries="; ".join(question.queries) or "-",
                  entities=", ".join(entities) or "-", part=n, parts=total, source=fenced)
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
