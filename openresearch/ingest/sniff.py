"""Content-type sniffing: trust magic bytes over the Content-Type header, which servers get wrong."""

from __future__ import annotations

from typing import Literal

ContentKind = Literal["html", "pdf", "text", "other"]

_HTML_MARKERS = (b"<!doctype html", b"<html", b"<head", b"<body", b"<title", b"<meta", b"<div", b"<p>")
_TEXT_TYPES = ("text/plain", "text/markdown", "text/csv", "text/x-markdown")
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


def _looks_binary(head: bytes) -> bool:
    if head.startswith(_BOMS):
        return False
    return b"\x00" in head or sum(b < 9 or 13 < b < 32 for b in head) > len(head) // 20


def sniff_kind(content_type: str, body: bytes) -> ContentKind:
    """html | pdf | text | other from the declared media type and the first bytes of the body."""
    media = content_type.split(";", 1)[0].strip().lower()
    head = body[:1024].lstrip()
    if head.startswith(b"%PDF-"):
        return "pdf"  # a PDF served as text/html or octet-stream is still a PDF
    lowered = head[:512].lower()
    if b"%PDF-" in body[:1024] and not lowered.startswith(b"<"):
        return "pdf"  # the PDF spec tolerates junk before the header within the first 1 KiB
    if lowered.startswith(_HTML_MARKERS) or (lowered.startswith(b"<?xml") and b"<html" in lowered):
        return "html"
    if media in ("text/html", "application/xhtml+xml"):
        return "html" if not _looks_binary(head) else "other"
    if media == "application/pdf":
        return "other"  # declared PDF without the magic: a broken or HTML error page in disguise
    if media.startswith("text/") or media in _TEXT_TYPES or (not media and head and not _looks_binary(head)):
        return "text" if not _looks_binary(head) else "other"
    return "other"
