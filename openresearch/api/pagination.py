"""Cursor pagination for every list route: an opaque cursor (the last key seen, or an offset) and a limit.

A page is `{"items": [...], "next_cursor": "..."}`; `next_cursor` is null on the last page. Cursors are
URL-safe base64 of a small JSON object, so clients must treat them as opaque strings.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Annotated, Any, Generic, TypeVar

from fastapi import Query
from pydantic import BaseModel, Field

from openresearch.errors import InputError

T = TypeVar("T")
MAX_LIMIT = 500


class Page(BaseModel, Generic[T]):
    items: list[T]
    next_cursor: str | None = Field(default=None, description="Pass as `cursor` for the next page; null at the end.")


def encode_cursor(state: dict[str, Any]) -> str:
    raw = json.dumps(state, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str | None) -> dict[str, Any]:
    """The cursor's state; InputError (400) for anything this API did not issue."""
    if not cursor:
        return {}
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        state = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise InputError("malformed cursor") from None
    if not isinstance(state, dict):
        raise InputError("malformed cursor")
    return state


def after_key(state: dict[str, Any]) -> str:
    after = state.get("after", "")
    if not isinstance(after, str):
        raise InputError("malformed cursor")
    return after


def offset_of(state: dict[str, Any]) -> int:
    off = state.get("offset", 0)
    if not isinstance(off, int) or isinstance(off, bool) or off < 0 or off > 1_000_000:
        raise InputError("malformed cursor")
    return off


CursorParam = Annotated[str | None, Query(max_length=2000, description="The `next_cursor` of the previous page.")]
LimitParam = Annotated[int | None, Query(ge=1, le=MAX_LIMIT, description="Page size (default from settings).")]


def keyset_page(items: list[T], limit: int, key: str | None) -> Page[T]:
    """A page from `limit + 1` rows read after a key: the extra row only says there is more."""
    more = len(items) > limit
    items = items[:limit]
    return Page[T](items=items, next_cursor=encode_cursor({"after": key}) if more and key is not None else None)


def offset_page(items: list[T], offset: int, limit: int) -> Page[T]:
    """A page from an already ordered list: items[offset:offset+limit]."""
    page = items[offset:offset + limit]
    more = offset + limit < len(items)
    return Page[T](items=page, next_cursor=encode_cursor({"offset": offset + limit}) if more else None)
