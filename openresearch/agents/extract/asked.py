"""What a look-up asks for when no known metric names it: "When was X elected to a public office?", "How
many libraries are part of X?". The answer is a date or a count, so it is an observation like any other, under
a key made of the question's own words (the plan's metric), found where a sentence dates or counts the thing
the question names ("was elected to the town council in 1892", "consists of 15 libraries"). Pure."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal, NamedTuple

from openresearch.ingest.textnorm import STOP_WORDS, strip_suffix

AnswerKind = Literal["date", "count"]

_EN_DATE = re.compile(r"^\s*(?:when\b|(?:in |on |during |by )?(?:what|which) (?:year|date|day|month|decade)\b)|"
                      r"\b(?:in|on) (?:what|which) (?:year|date)\s*[?？]?\s*$", re.I)
_EN_COUNT = re.compile(r"^\s*how many\b", re.I)
_ZH_DATE = re.compile(r"什么时候|何时|哪一年|哪年|哪天|哪一天|几月|何年")
_ZH_COUNT = re.compile(r"多少(?!钱)|几(?:个|家|座|所|名|位|次|种|条)")

# words that say nothing of what is dated or counted
_FILLER = STOP_WORDS | {"part", "being", "first", "start", "started", "starting", "begin", "began", "beginning",
                       "year", "date", "total", "number", "many", "much", "some"}
_SUFFIXES = ("ings", "ing", "ied", "ies", "ed", "es", "s")
# a value that closes a range ("between 2000 and 2005", "from 1855 to 1857", "1886–1902"): the question asks
# when something happened or began, which the range's first value says
_RANGE_GAP = re.compile(r"\s*(?:and|to|until|till|through|[-–—~至到])\s*", re.I)


class Asked(NamedTuple):
    metric: str  # the plan's key for the attribute ("elected_to_a_public_office")
    kind: AnswerKind
    stems: tuple[str, ...]  # word beginnings a sentence must hold near the value, all of them


def answer_kind(question: str, language: str) -> AnswerKind | None:
    """Whether a question asks for a date or a count, from its own question words."""
    if language == "zh":
        return "date" if _ZH_DATE.search(question) else "count" if _ZH_COUNT.search(question) else None
    if _EN_COUNT.search(question):
        return "count"
    return "date" if _EN_DATE.search(question) else None


def stem(word: str) -> str:
    return strip_suffix(word, _SUFFIXES)


@lru_cache(maxsize=256)
def asked_metric(question: str, language: str, attribute: str, metric: str, entity: str = "") -> Asked | None:
    """The date or count a look-up asks for under `metric`, or None when the question asks for neither or
    its attribute has no word to find it by. Names in the question (capitalised words) are who it is about,
    not what is asked ("start playing for Papua New Guinea" is found by "play")."""
    kind = answer_kind(question, language)
    if kind is None or not attribute:
        return None
    if language == "zh":
        words = [attribute.strip()] if len(attribute.strip()) >= 2 else []
    else:
        # the names: the entity's words and runs of capitalised words ("Papua New Guinea"), not "the Bar"
        runs = re.findall(r"\b[A-Z][\w'-]*(?:\s+(?:of\s+|the\s+)?[A-Z][\w'-]*)+", question[1:])
        named = {w.lower() for phrase in [*runs, entity] for w in re.findall(r"[\w'-]+", phrase)}
        words = [w for w in re.findall(r"[a-z][a-z'-]+", attribute.lower()) if w not in _FILLER and w not in named
                 and len(w) >= 3]
    if not words:
        return None
    stems = [words[0] if language == "zh" else stem(words[0])]
    if language != "zh" and len(stems[0]) <= 4 and len(words) > 1:
        stems.append(stem(words[1]))  # "called to the bar": "called" alone is too common a word
    return Asked(metric, kind, tuple(stems))


def holds(asked: Asked, window: str) -> bool:
    """Whether a value's clause names what is asked: every stem begins a word there (anywhere, in Chinese)."""
    if not asked.stems[0].isascii():
        return all(s in window for s in asked.stems)
    low = window.lower()
    return all(re.search(rf"\b{re.escape(s)}", low) for s in asked.stems)


def closes_range(text: str, start: int, previous_end: int | None) -> bool:
    """Whether the value at `start` is the second end of a range whose first end stops at `previous_end`."""
    return previous_end is not None and _RANGE_GAP.fullmatch(text[previous_end:start]) is not None
