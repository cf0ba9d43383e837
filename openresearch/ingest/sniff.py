"""Content-type sniffing: trust magic bytes over the Content-Type header, which servers get wrong."""

from __future__ import annotations

import re
from typing import Literal

ContentKind = Literal["html", "pdf", "text", "other"]

_HTML_MARKERS = (b"<!doctype html", b"<html", b"<head", b"<body", b"<title", b"<meta", b"<div", b"<p>")
_TEXT_TYPES = ("text/plain", "text/markdown", "text/csv", "text/x-markdown")
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


def _looks_binary(head: bytes) -> bool:
    if head.startswith(_BOMS):
        return False
    return b"\x00" in head or sum(b < 9 or 13 < b < 32 for b in head) > len(head) // 20


def _starts_as_page(lowered: bytes) -> bool:
    """Whether the (lower-cased, stripped) start of a body is an HTML or XHTML page."""
    return lowered.startswith(_HTML_MARKERS) or (lowered.startswith(b"<?xml") and b"<html" in lowered)


def sniff_kind(content_type: str, body: bytes) -> ContentKind:
    """html | pdf | text | other from the declared media type and the first bytes of the body."""
    media = content_type.split(";", 1)[0].strip().lower()
    head = body[:1024].lstrip()
    if head.startswith(b"%PDF-"):
        return "pdf"  # a PDF served as text/html or octet-stream is still a PDF
    lowered = head[:512].lower()
    if b"%PDF-" in body[:1024] and not lowered.startswith(b"<"):
        return "pdf"  # the PDF spec tolerates junk before the header within the first 1 KiB
    if _starts_as_page(lowered):
        return "html"
    if media in ("text/html", "application/xhtml+xml"):
        return "html" if not _looks_binary(head) else "other"
    if media == "application/pdf":
        return "other"  # declared PDF without the magic: a broken or HTML error page in disguise
    if media.startswith("text/") or media in _TEXT_TYPES or (not media and head and not _looks_binary(head)):
        return "text" if not _looks_binary(head) else "other"
    return "other"


def _prose_line(line: str) -> bool:
    words = [w for w in line.split() if any(c.isalpha() for c in w)]
    if len(words) < 4:
        return False
    letters = sum(c.isalpha() or c.isspace() for c in line)
    return letters >= 0.75 * len(line)


def looks_like_prose(data: bytes) -> bool:
    """Whether a file without a suffix is a document to read (a change log, a NEWS or README file) rather than
    a script, a build file or data: text, no "#!" line, and at least half of its first non-empty lines are
    sentences (four or more words, three quarters letters and spaces; "CC = gcc" and "\t$(CC) -o x x.c" are
    not)."""
    head = data[:16384]
    if not head.strip() or head.lstrip().startswith(b"#!") or _looks_binary(head[:1024].lstrip()):
        return False
    text = head.decode("utf-8", "replace")
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()][:200]
    if len(lines) < 2:
        return False
    return sum(_prose_line(ln) for ln in lines) * 2 >= len(lines)


_BLOCK_TAGS = re.compile(rb"<(?:p|h[1-6]|ul|ol|li|dl|dt|dd|table|tr|td|pre|div|section|article|blockquote)\b[^>]*>",
                         re.I)


def looks_like_markup(data: bytes) -> bool:
    """Whether a file whose name does not say is a page: it starts as one, or its first 16 KB hold at least five
    block tags of HTML (a page template's "<p>", "<h2>", "<li>" among lines of its template language)."""
    head = data[:16384]
    if _looks_binary(head[:1024].lstrip()):
        return False
    return _starts_as_page(head.lstrip()[:512].lower()) or len(_BLOCK_TAGS.findall(head)) >= 5
