"""Text normalisation shared by the parsers, plus the tokeniser used for keyword scores and hashing."""

from __future__ import annotations

import re
from collections.abc import Iterable

from openresearch.ingest.parsed import Block, BlockKind

# Unicode whitespace incl. NBSP and the ideographic space U+3000 that Chinese pages use for indents.
_WS = re.compile(r"[\s\u00a0\u3000\u200b\ufeff]+")
_CJK = r"\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
# A line break inside Chinese text is a source-wrapping artefact, not a word gap; a plain space is kept.
_CJK_GAP = re.compile(rf"(?<=[{_CJK}])[ \t\u00a0\u3000]*[\r\n]\s*(?=[{_CJK}])")
_CJK_CHAR = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_LATIN = re.compile(r"[A-Za-z]")


def words(spaced: str) -> frozenset[str]:
    """A word set written as one spaced string, so long lists stay readable."""
    return frozenset(spaced.split())


STOP_WORDS = words(
    "a an and are as at be been but by can could did do does for from had has have he her his how i "
    "if in into is it its may might more most no not of on or our she should so such than that the "
    "their them then there these they this those to was we were what when where which while who will "
    "with would you your also about after all any before between both each other over under up out "
    "only own same very just"
)


def collapse(text: str) -> str:
    """One paragraph's text with whitespace runs collapsed to a space and CJK wrap gaps removed. NUL characters
    (from broken PDFs and pages) are dropped: no reader wants them and FalkorDB cannot store them."""
    return _WS.sub(" ", _CJK_GAP.sub("", text.replace("\x00", ""))).strip()


def join_blocks(items: Iterable[tuple[BlockKind, str, float]]) -> tuple[str, list[Block]]:
    """Collapse each block, drop empties, join with blank lines and record each block's offsets."""
    parts: list[str] = []
    blocks: list[Block] = []
    pos = 0
    for kind, raw, score in items:
        text = collapse(raw)
        if not text:
            continue
        if parts:
            pos += 2  # the "\n\n" separator
        blocks.append(Block(kind=kind, text=text, start=pos, end=pos + len(text), score=score))
        parts.append(text)
        pos += len(text)
    return "\n\n".join(parts), blocks


def guess_lang(text: str, declared: str | None = None) -> str | None:
    """zh/en from the script mix; a declared lang is kept when its script agrees with the text.

    Templates often declare lang="en" on Chinese pages, so the declaration alone is not trusted.
    """
    sample = text[:5000]
    cjk = len(_CJK_CHAR.findall(sample))
    latin = len(_LATIN.findall(sample))
    primary = declared.strip().replace("_", "-").split("-")[0].lower() if declared else ""
    if cjk == 0 and latin == 0:
        return primary or None
    # A CJK character carries about a word's worth of meaning, so compare it against letters / 5.
    guess = "zh" if cjk >= latin / 5 else "en"
    if primary and (primary in ("zh", "ja", "ko")) == (guess == "zh"):
        return primary
    return guess


_COMPOUND = re.compile(r"(?<![\w-])[a-z]{2,}(?:-[a-z]{2,})+(?![\w-])")


def tokens(text: str) -> list[str]:
    """Lower-case words without stop words, plus CJK character bigrams (Chinese has no spaces)."""
    lowered = text.lower()
    out = [w for w in _WORD.findall(lowered) if w not in STOP_WORDS and len(w) > 1]
    # a hyphenated compound is also the word it is written as elsewhere: "bug-fix" matches "bugfix"
    out += [m.replace("-", "") for m in _COMPOUND.findall(lowered) if len(m) <= 24]
    for run in _CJK_RUN.findall(lowered):
        if len(run) == 1:
            out.append(run)
        out.extend(run[i : i + 2] for i in range(len(run) - 1))
    return out


def cjk_ratio(text: str) -> float:
    return len(_CJK_CHAR.findall(text)) / max(1, len(text))


def strip_suffix(word: str, suffixes: tuple[str, ...] = ("ing", "ed", "es", "s"), keep: int = 3) -> str:
    """Crude suffix folding ("warming", "warmed", "warms" -> "warm"): the first suffix that leaves at least
    `keep` characters."""
    for suffix in suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            return word[:-len(suffix)]
    return word
