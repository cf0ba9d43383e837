"""Request limits, as plain ASGI middleware: a body larger than the limit is answered 413 before any
handler sees it, whether the client declares its length or streams it chunked; a NUL character in the path
or the query (which no graph backend can take in a string) is a 400."""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from openresearch.api.problems import problem

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and ("\x00" in scope.get("path", "")
                                        or b"\x00" in unquote_to_bytes(scope.get("query_string", b""))):
            await problem(400, "a NUL character in the request URL")(scope, receive, send)
            return
        if scope["type"] != "http" or scope["method"] not in _BODY_METHODS:
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > self.max_bytes
            except ValueError:
                await problem(400, "malformed Content-Length")(scope, receive, send)
                return
            if too_big:
                await self._refuse(scope, receive, send)
                return
        # read the (bounded) body now, then replay it: a chunked body cannot grow past the limit either
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        await problem(413, f"request body over {self.max_bytes} bytes")(scope, receive, send)
