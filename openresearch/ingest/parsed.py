"""What the parsers hand to the chunker and the graph: one shape for HTML and PDF.

`text` is the normalised text that gets stored; every offset here (blocks, pages) and every
quote offset downstream indexes into it.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

BlockKind = Literal["heading", "paragraph", "list_item", "quote", "code", "table"]


class Block(BaseModel):
    kind: BlockKind = "paragraph"
    text: str
    start: int = 0
    end: int = 0
    score: float = 1.0


class PageSpan(BaseModel):
    """Page `page_no` (1-based) covers text[start:end]; lets a quote offset be cited by page."""

    page_no: int
    start: int
    end: int


class ParsedDocument(BaseModel):
    title: str | None = None
    authors: list[str] = Field(default_factory=list)
    published_at: date | None = None
    text: str
    blocks: list[Block] = Field(default_factory=list)
    lang: str | None = None
    pages: list[PageSpan] = Field(default_factory=list)
    encoding: str | None = None
    decode_note: str | None = None
    """Set when the bytes were not valid UTF-8 and nothing declared their charset (encoding.Decoded.note)."""
    # How the body was found: readability, the boilerplate fallback, or the PDF reader.
    method: Literal["readability", "fallback", "pdf"] = "readability"

    @property
    def author(self) -> str | None:
        return ", ".join(self.authors) if self.authors else None

    def page_at(self, offset: int) -> int | None:
        """The page holding character `offset` of `text`, or None for HTML / out of range."""
        for span in self.pages:
            if span.start <= offset < span.end:
                return span.page_no
        return None
