"""Chunking by paragraphs and sentences with overlap; every chunk is an exact slice of the text.

Offsets are the contract: text[chunk.start:chunk.end] == chunk.text, so an evidence quote found
in a chunk maps back to the stored source text without searching.
"""

from __future__ import annotations

import hashlib
import re

from pydantic import BaseModel

# A sentence ends at . ! ? (followed by space) or at Chinese 。！？；, plus any closing quotes/brackets.
_SENTENCE_END = re.compile(r"(?:[.!?]+[\"'”’)\]]*(?=\s)|[。！？；]+[”’」』）)]*|\n\s*\n)")
_PARAGRAPH = re.compile(r"\S(?:.*?\S)?(?=\s*\n\s*\n|\s*$)", re.S)


class Chunk(BaseModel):
    id: str
    source_id: str
    index: int
    start: int
    end: int
    text: str


def chunk_id(source_id: str, start: int, end: int) -> str:
    """Stable across runs (same recipe as openresearch.identity): same source and offsets, same id."""
    digest = hashlib.sha256(f"{source_id}\x1f{start}\x1f{end}".encode()).hexdigest()
    return "C-" + digest[:16]


def _hard_split(start: int, end: int, text: str, limit: int) -> list[tuple[int, int]]:
    """Cut an over-long sentence at whitespace near `limit`, or at `limit` if there is none."""
    out = []
    while end - start > limit:
        cut = text.rfind(" ", start + limit // 2, start + limit)
        cut = cut if cut > start else start + limit
        piece_end = cut
        while piece_end > start and text[piece_end - 1].isspace():
            piece_end -= 1
        out.append((start, piece_end))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    if start < end:
        out.append((start, end))
    return out


def sentence_spans(text: str, max_len: int) -> list[tuple[int, int, bool]]:
    """(start, end, starts_paragraph) for each sentence, trimmed of surrounding whitespace."""
    spans: list[tuple[int, int, bool]] = []
    for para in _PARAGRAPH.finditer(text):
        pos, first = para.start(), True
        cuts = [m.end() for m in _SENTENCE_END.finditer(text, para.start(), para.end())] + [para.end()]
        for cut in cuts:
            piece = text[pos:cut]
            lead = len(piece) - len(piece.lstrip())
            s, e = pos + lead, pos + len(piece.rstrip())
            if e > s:
                for hs, he in _hard_split(s, e, text, max_len):
                    spans.append((hs, he, first))
                    first = False
            pos = cut
    return spans


# the one chunking configuration: local documents, fetched pages and sources found during a run all use it
TARGET_CHARS, OVERLAP_CHARS = 900, 150


def chunk_text(text: str, source_id: str, target_chars: int = TARGET_CHARS,
               overlap_chars: int = OVERLAP_CHARS) -> list[Chunk]:
    """Pack whole sentences into chunks of about `target_chars`; consecutive chunks share up to
    `overlap_chars` of trailing sentences so a fact split across a boundary is whole in one of them."""
    if target_chars <= 0 or overlap_chars < 0 or overlap_chars >= target_chars:
        raise ValueError("need target_chars > 0 and 0 <= overlap_chars < target_chars")
    units = sentence_spans(text, target_chars)
    chunks: list[Chunk] = []
    i = 0
    while i < len(units):
        j = i
        while j + 1 < len(units) and units[j + 1][1] - units[i][0] <= target_chars:
            # Past 60% of the target, prefer to stop at a paragraph boundary over filling up.
            if units[j + 1][2] and units[j][1] - units[i][0] >= 0.6 * target_chars:
                break
            j += 1
        start, end = units[i][0], units[j][1]
        chunks.append(
            Chunk(
                id=chunk_id(source_id, start, end),
                source_id=source_id,
                index=len(chunks),
                start=start,
                end=end,
                text=text[start:end],
            )
        )
        if j + 1 >= len(units):
            break
        # Back up over whole trailing sentences that fit in the overlap, but never so far that the next
        # chunk could not reach a new sentence (that would repeat this chunk's end).
        k, reach = j + 1, units[j + 1][1]
        while (
            k - 1 > i and end - units[k - 1][0] <= overlap_chars and reach - units[k - 1][0] <= target_chars
        ):
            k -= 1
        i = k
    return chunks
