"""Pure text helpers shared by the writer, the verifier and the judge: citation markers and numbers.

One place decides what "the numbers in a sentence" are, so the writer's self-check and the verifier
can never disagree about whether a sentence states a number its quotes do not hold (invariant 2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from functools import lru_cache

from openresearch.agents.extract.values import find_values
from openresearch.models import EvidenceView
from openresearch.numbers import Quantity, find_quantities

# `[E-1a2b3c]`, or several ids in one bracket: `[E-a, E-b]` / `[E-a; E-b]`
_MARKER = re.compile(r"\[\s*(E-[\w-]+(?:\s*[,;]\s*E-[\w-]+)*)\s*\]")
_ID = re.compile(r"E-[\w-]+")
# find_quantities refuses a number glued to a preceding word character, and CJK characters are word
# characters: "达到1.2万条/秒" would hide its number. A space before the digit exposes it.
_CJK_BEFORE_DIGIT = re.compile(r"(?<=[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef])(?=[$€¥￥\d])")
# identifiers such as COVID-19, SARS-CoV-2, Llama-3: part of a name, not a quantity
# a number that is part of a name: a code's ("COVID-19", "i3en-2") or a protocol's version ("QXP/2")
_IDENT_PREFIX = re.compile(r"[A-Za-z][\w]*-$|(?<![\w/])[A-Z][A-Za-z]*/$")


def citations_in(text: str) -> list[str]:
    """Evidence ids cited in a sentence, in order of first appearance, without duplicates."""
    ids: list[str] = []
    for m in _MARKER.finditer(text):
        ids.extend(i for i in _ID.findall(m.group(1)) if i not in ids)
    return ids


def strip_markers(text: str) -> str:
    """The sentence as a reader's claim: markers removed, spaces before punctuation tidied."""
    bare = _MARKER.sub("", text)
    bare = re.sub(r"\s+([,.;:!?，。；：！？)])", r"\1", bare)
    return re.sub(r"\s{2,}", " ", bare).strip()


def quantities(text: str) -> list[tuple[str, Quantity]]:
    """(surface form, quantity) for every number in the text, markers stripped and identifiers skipped."""
    # numbers.find_quantities raises KeyError on "US$" (its prefix table holds only "us$"): read it as "$"
    bare = _CJK_BEFORE_DIGIT.sub(" ", strip_markers(text)).replace("US$", "$")
    out: list[tuple[str, Quantity]] = []
    for start, end, q in find_quantities(bare):
        if _IDENT_PREFIX.search(bare[max(0, start - 12):start]):
            continue
        out.append((bare[start:end].strip(), q))
    return out


def date_quantities(d: date | None) -> list[Quantity]:
    """A source's publication date as numbers (year, month, day), so "(2024-03-01)" is grounded."""
    if d is None:
        return []
    return [Quantity(float(d.year), ""), Quantity(float(d.month), ""), Quantity(float(d.day), "")]


def matches(q: Quantity, grounding: Iterable[Quantity]) -> bool:
    """A number is grounded when a quote holds the same value in the same canonical unit.

    A bare number in the sentence ("605") may match a quote value with a unit ("605 MB/s"): leaving a
    unit out does not state a different fact. The reverse (a unit the quote lacks) does not match.
    """
    if _is_year(q):  # 1% tolerance absorbs rounding ("10.9k" for "10,940") but would let 2019 pass for 2024
        return any(g.value == q.value for g in grounding)
    return any(q.close_to(g) or (not q.unit and Quantity(q.value, g.unit).close_to(g)) for g in grounding)


def _is_year(q: Quantity) -> bool:
    return not q.unit and q.value.is_integer() and 1800 <= q.value <= 2100


@lru_cache(maxsize=4096)
def _held(text: str) -> tuple[Quantity, ...]:
    """The numbers a quote holds: as the verifier reads them, and as the extractor did (its observations'
    values: "8970T" in a Chinese quote is 8970 TB), so a value restated from an observation is grounded."""
    # (a version joined to its name, "Zorbq-3.7.0", holds that version: no identifier's code)
    joined = re.sub(r"(?<=[A-Za-z])-(?=v?\d+\.\d+)", " ", text)
    return (*(q for _, q in quantities(joined)), *(v.quantity for v in find_values(text)))


def header_quantities(cited: Iterable[EvidenceView]) -> list[Quantity]:
    """A table row's figures with the unit its column header gives them ("simdjson | 2.5" under "GB/s"): the
    row's quote holds the number verbatim, the header the unit, so "2.5 GB/s" is what the row says."""
    return [Quantity(o.value, o.unit) for ev in cited if "|" in ev.quote for o in ev.observations
            if o.unit and o.raw_value and o.raw_value in ev.quote]


def unmatched_numbers(sentence: str, grounding_texts: Iterable[str], extra: Iterable[Quantity] = ()) -> list[str]:
    """Surface forms of the sentence's numbers that no grounding text (or extra quantity) holds."""
    grounding = [q for text in grounding_texts for q in _held(text)]
    grounding.extend(extra)
    return [surface for surface, q in quantities(sentence) if not matches(q, grounding)]
