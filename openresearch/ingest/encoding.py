"""Bytes -> str for fetched pages: BOM, HTTP header, <meta>, UTF-8 probe, then statistical detection.

The order follows the WHATWG encoding sniffing algorithm (a BOM beats the header), with one
pragmatic change: a declared charset that fails a strict decode is skipped instead of trusted,
because mislabelled pages are common and mojibake would poison every quote taken from them.
"""

from __future__ import annotations

import codecs
import re
from typing import Literal

from charset_normalizer import from_bytes
from pydantic import BaseModel

Method = Literal["bom", "header", "meta", "utf-8", "utf-8-lossy", "detected", "fallback"]

# GB2312 and GBK are subsets of GB18030; browsers decode all three labels with the superset, and
# real "gb2312" pages routinely contain GBK-only characters.
_ALIASES = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "gb_2312-80": "gb18030",
    "gb_2312": "gb18030",
    "euc-cn": "gb18030",
    "csgb2312": "gb18030",
    # Browsers read Latin-1 and ASCII labels as windows-1252, whose extra quotes/dashes pages rely on.
    "iso-8859-1": "cp1252",
    "iso8859-1": "cp1252",
    "latin-1": "cp1252",
    "latin1": "cp1252",
    "l1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "windows-1252": "cp1252",
    "utf8": "utf-8",
    "unicode-1-1-utf-8": "utf-8",
}
_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.I)
_META_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([\w.:-]+)", re.I)
_XML_DECL = re.compile(rb"<\?xml[^>]+encoding\s*=\s*[\"']([\w.:-]+)", re.I)
# Spec says 1024 bytes; real pages put <meta charset> after long <script> blocks, so look further.
_PRESCAN_BYTES = 8192


class Decoded(BaseModel):
    text: str
    encoding: str
    method: Method
    replaced: int = 0
    """Invalid byte sequences replaced by U+FFFD (a lossy decode: the caller warns)."""
    invalid_at: int | None = None
    """The offset of the first byte that is not UTF-8, when the bytes were not UTF-8 and nothing (a BOM, a declared
    charset) said what they were: the text was guessed or repaired, and ``note`` says so."""
    invalid_byte: int | None = None

    def note(self) -> str | None:
        """One line for the user when the text is not what the bytes said for sure, else None."""
        if self.invalid_at is None:
            return None
        where = f"byte 0x{self.invalid_byte or 0:02x} at offset {self.invalid_at:,}"
        if self.method == "utf-8-lossy":
            return (f"invalid UTF-8: {self.replaced} sequence(s) replaced by U+FFFD, the first {where}")
        return f"invalid UTF-8 (first {where}); read as {self.encoding}, {self.method}, which may be wrong"


def normalize_label(label: str) -> str | None:
    """A Python codec name for a charset label, or None when Python does not know it."""
    name = label.strip().strip("\"'").lower()
    name = _ALIASES.get(name, name)
    try:
        canonical = codecs.lookup(name).name
    except LookupError:
        return None
    return _ALIASES.get(canonical, canonical)


def charset_from_content_type(content_type: str | None) -> str | None:
    if not content_type:
        return None
    match = _HEADER_CHARSET.search(content_type)
    return match.group(1) if match else None


def charset_from_markup(data: bytes) -> str | None:
    """The charset declared by <meta charset>, <meta http-equiv content=...charset=> or <?xml?>."""
    head = data[:_PRESCAN_BYTES]
    match = _META_CHARSET.search(head) or _XML_DECL.search(head)
    return match.group(1).decode("ascii", "ignore") if match else None


def _strict(data: bytes, encoding: str) -> str | None:
    try:
        return data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _decode_cp1252(data: bytes) -> str:
    # cp1252 leaves five bytes undefined; browsers map them to the C1 controls, as Latin-1 does.
    return "".join(
        chunk.decode("cp1252", errors="strict") if i % 2 == 0 else chunk.decode("latin-1")
        for i, chunk in enumerate(re.split(rb"([\x81\x8d\x8f\x90\x9d]+)", data))
    )


def _decode_as(data: bytes, encoding: str) -> str | None:
    return _decode_cp1252(data) if encoding == "cp1252" else _strict(data, encoding)


def _detect(data: bytes) -> str | None:
    matches = list(from_bytes(data))
    if not matches:
        return None
    best = matches[0]
    # Short Western text fits several code pages equally well; cp1252 is by far the likeliest of them.
    for match in matches:
        if match.encoding in ("cp1252", "latin_1") and match.chaos <= best.chaos + 0.01:
            return "cp1252"
    return normalize_label(best.encoding) or best.encoding


def _mostly_utf8(data: bytes) -> Decoded | None:
    """UTF-8 text with a few broken sequences (a truncated or spliced file) decoded as UTF-8, the broken bytes
    replaced and counted: a code-page guess would turn every valid character into mojibake instead."""
    text = data.decode("utf-8", "replace")
    replaced = text.count("\ufffd") - data.decode("utf-8", "ignore").count("\ufffd")
    valid = sum(1 for ch in text if ord(ch) > 0x7F and ch != "\ufffd")
    if valid == 0 or replaced > max(2, valid // 20):
        return None  # no real UTF-8 in it, or mostly not UTF-8: a legacy code page
    return Decoded(text=text, encoding="utf-8", method="utf-8-lossy", replaced=replaced)


def decode_bytes(data: bytes, content_type: str | None = None) -> Decoded:
    """Decode a fetched page. `content_type` is the HTTP Content-Type header value, if any."""
    for bom, bom_encoding in _BOMS:
        if data.startswith(bom):
            body = data[len(bom) :].decode(bom_encoding, "replace")
            return Decoded(text=body, encoding=bom_encoding, method="bom")
    declared: list[tuple[str | None, Method]] = [
        (charset_from_content_type(content_type), "header"),
        (charset_from_markup(data), "meta"),
    ]
    for label, method in declared:
        encoding = normalize_label(label) if label else None
        # A UTF-16 label on a BOM-less ASCII-compatible page is a known lie; HTML spec maps it to UTF-8.
        if encoding and encoding.startswith("utf-16"):
            encoding = "utf-8"
        if encoding and (text := _decode_as(data, encoding)) is not None:
            return Decoded(text=text, encoding=encoding, method=method)
    # Non-ASCII bytes that happen to form valid UTF-8 are almost never anything else.
    try:
        return Decoded(text=data.decode("utf-8"), encoding="utf-8", method="utf-8")
    except UnicodeDecodeError as e:
        at, byte = e.start, data[e.start]
    if (lossy := _mostly_utf8(data)) is not None:
        return lossy.model_copy(update={"invalid_at": at, "invalid_byte": byte})
    detected = _detect(data)
    if detected and (text := _decode_as(data, detected)) is not None:
        return Decoded(text=text, encoding=detected, method="detected", invalid_at=at, invalid_byte=byte)
    return Decoded(text=_decode_cp1252(data), encoding="cp1252", method="fallback", invalid_at=at, invalid_byte=byte)
