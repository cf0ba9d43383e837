"""Read a response body with a hard size limit, decompressing gzip/deflate incrementally.

httpx's own decoders inflate each network chunk in one call, so a 40 kB chunk of a gzip bomb can
become hundreds of MB before anyone counts. Here the raw stream is fed to zlib with `max_length`, and
reading stops as soon as the decoded size passes the limit.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator

from openresearch.errors import FetchError, FetchRefused

_STEP = 64 * 1024  # decoded bytes produced per zlib call: bounds memory per step


class BodyTooLarge(FetchRefused):
    """The body (after decoding) is larger than the configured limit."""


class _Inflater:
    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        # 16+MAX_WBITS: gzip wrapper; deflate is nominally zlib-wrapped but some servers send raw deflate.
        self._obj = zlib.decompressobj(16 + zlib.MAX_WBITS if encoding == "gzip" else zlib.MAX_WBITS)
        self._raw_fallback = encoding == "deflate"

    def feed(self, data: bytes, budget: int) -> tuple[bytes, bool]:
        """Inflate `data`, producing at most budget+1 bytes; returns (output, over_budget)."""
        out = bytearray()
        pending = data
        while pending:
            try:
                chunk = self._obj.decompress(pending, _STEP)
            except zlib.error as exc:
                if self._raw_fallback and not out:
                    self._obj = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._raw_fallback = False
                    continue
                raise FetchError(f"corrupt {self.encoding} body: {exc}") from exc
            self._raw_fallback = False
            out += chunk
            if len(out) > budget:
                return bytes(out), True
            pending = self._obj.unconsumed_tail
            if self._obj.eof:
                break
        return bytes(out), False

    def flush(self) -> bytes:
        return self._obj.flush()


async def read_limited(raw: AsyncIterator[bytes], content_encoding: str, max_bytes: int) -> bytes:
    """Collect the decoded body; raise BodyTooLarge once it passes max_bytes (raw or decoded)."""
    encodings = [e.strip().lower() for e in content_encoding.split(",") if e.strip()]
    encodings = [e for e in encodings if e != "identity"]
    if len(encodings) > 1 or (encodings and encodings[0] not in ("gzip", "x-gzip", "deflate")):
        raise FetchError(f"unsupported content-encoding {content_encoding!r}")
    inflater = _Inflater("gzip" if encodings and encodings[0] != "deflate" else "deflate") if encodings else None
    body = bytearray()
    raw_seen = 0
    async for chunk in raw:
        raw_seen += len(chunk)
        if raw_seen > max_bytes:
            raise BodyTooLarge(f"body larger than {max_bytes} bytes (cut off while streaming)")
        if inflater is None:
            body += chunk
        else:
            out, over = inflater.feed(chunk, max_bytes - len(body))
            body += out
            if over:
                raise BodyTooLarge(
                    f"decoded {inflater.encoding} body larger than {max_bytes} bytes "
                    f"after {raw_seen} compressed bytes (decompression bomb guard)"
                )
        if len(body) > max_bytes:
            raise BodyTooLarge(f"body larger than {max_bytes} bytes (cut off while streaming)")
    if inflater is not None:
        body += inflater.flush()
        if len(body) > max_bytes:
            raise BodyTooLarge(f"decoded body larger than {max_bytes} bytes (decompression bomb guard)")
    return bytes(body)
