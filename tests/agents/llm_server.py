"""A real OpenAI-compatible HTTP endpoint that replays scripted answers (stdlib only, threaded).

Usage::

    with ScriptedLLMServer() as server:            # or the `llm_server` pytest fixture
        server.script(answer({"x": 1}), think({"x": 2}), rate_limited(retry_after="0"), answer("hi"))
        client = OpenAI(base_url=server.base_url, api_key="k")   # base_url ends in /v1
        ...
        server.requests[-1].model, server.requests[-1].role, server.requests[-1].last_user

Replies are consumed in order; the first queued reply whose filters (`role`, `model`, `match` regex on
the last user message) fit the request is used, and removed unless `repeat=True`. With nothing queued,
`server.responder(request)` is asked (set it for end-to-end tests that answer dynamically); else the
server answers HTTP 400 "no scripted reply" so a test fails loudly instead of hanging.

Knobs: `server.latency_s` (fixed delay added to every call, for parallelism benchmarks),
`server.supported_formats` (response_format types accepted; others get `server.format_error_status`,
400 like old servers give, or 500 with a bare message like llama-cpp-python), `server.rejected_params`
(request parameters refused with a 400 naming them, as OpenAI's newer models refuse `max_tokens`).
`server.disconnects` counts delayed replies whose client closed the connection while it waited (a
cancelled request: llama.cpp stops generating then), `server.max_concurrent` the most requests held at once.
Faults are just replies, built by the helpers below: think, fenced, malformed, truncated, refusal, slow,
rate_limited, server_error (or any `Reply(...)`, e.g. `raw_body=` for a broken HTTP body).
The role marker is the X-OpenResearch-Role header the client sends.
"""

from __future__ import annotations

import json
import re
import select
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    content: str | None = None
    refusal: str | None = None  # the structured `message.refusal` field
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0  # per-reply delay, e.g. beyond the client timeout
    finish_reason: str = "stop"
    prompt_tokens: int | None = None  # None = estimated from the request (~4 chars a token)
    completion_tokens: int | None = None
    error_message: str = "scripted error"
    raw_body: str | None = None  # sent verbatim instead of a chat.completion body
    role: str | None = None  # filters
    model: str | None = None
    match: str | None = None
    repeat: bool = False


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]  # lower-cased names
    body: dict[str, Any]
    received_at: float

    @property
    def role(self) -> str | None:
        return self.headers.get("x-openresearch-role")

    @property
    def model(self) -> str:
        return str(self.body.get("model", ""))

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    @property
    def last_user(self) -> str:
        users = [m for m in self.messages if m.get("role") == "user"]
        return str(users[-1].get("content", "")) if users else ""

    @property
    def response_format(self) -> str | None:
        fmt = self.body.get("response_format")
        return str(fmt.get("type")) if isinstance(fmt, dict) else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def answer(value: Any, **kw: Any) -> Reply:
    """A normal answer; non-strings are sent as JSON text."""
    return Reply(content=_text(value), **kw)


def think(value: Any, reasoning: str = 'Let me think. Draft: {"draft": true}', **kw: Any) -> Reply:
    return Reply(content=f"<think>{reasoning}</think>\n{_text(value)}", **kw)


def fenced(value: Any, prose: str = "Here is the result:", **kw: Any) -> Reply:
    return Reply(content=f"{prose}\n```json\n{json.dumps(value, indent=2)}\n```\nHope this helps.", **kw)


def refusal(text: str = "I'm sorry, but I can't help with that.", structured: bool = True,
            **kw: Any) -> Reply:
    """structured=True fills message.refusal (OpenAI style); False puts the text in content."""
    return Reply(refusal=text, **kw) if structured else Reply(content=text, **kw)


def malformed(value: dict[str, Any], **kw: Any) -> Reply:
    """The loose JSON small models write: unquoted keys, single quotes, a trailing comma."""
    items = ", ".join(f"{k}: {v!r}" for k, v in value.items())
    return Reply(content=f"{{{items},}}", **kw)


def truncated(value: Any, cut: int = 1, **kw: Any) -> Reply:
    """Valid JSON cut short, as when max_tokens runs out (finish_reason "length")."""
    return Reply(content=_text(value)[:-cut], finish_reason="length", **kw)


def slow(value: Any, delay_s: float, **kw: Any) -> Reply:
    return Reply(content=_text(value), delay_s=delay_s, **kw)


def rate_limited(retry_after: str | None = "0", **kw: Any) -> Reply:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return Reply(status=429, headers=headers, error_message="Rate limit reached", **kw)


def server_error(status: int = 500, **kw: Any) -> Reply:
    return Reply(status=status, error_message="The server had an error", **kw)


class ScriptedLLMServer:
    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.latency_s = 0.0
        self.supported_formats: set[str] = {"json_schema", "json_object", "text"}
        self.format_error_status = 400
        self.rejected_params: set[str] = set()
        self.disconnects = 0
        self.max_concurrent = 0
        self._active = 0
        self.responder: Callable[[RecordedRequest], Reply] | None = None
        self.requests: list[RecordedRequest] = []
        self._queue: list[Reply] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._counter = 0
        self._httpd = ThreadingHTTPServer((host, port), _handler_for(self))
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False  # slow replies must not hold up close()
        # a short poll interval makes close() (and so every test's teardown) near-instant
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02},
                                        name="llm-server", daemon=True)

    # -- lifecycle ------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> ScriptedLLMServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ScriptedLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- script ---------------------------------------------------------------------------------
    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def pending(self) -> int:
        """Scripted one-shot replies not consumed yet (assert 0 at the end of a test)."""
        with self._lock:
            return sum(1 for r in self._queue if not r.repeat)

    def reset(self) -> None:
        with self._lock:
            self._queue.clear()
            self.requests.clear()
        self.latency_s, self.responder = 0.0, None

    def _pick(self, req: RecordedRequest) -> Reply | None:
        with self._lock:
            for i, reply in enumerate(self._queue):
                if ((reply.role is None or reply.role == req.role)
                        and (reply.model is None or reply.model == req.model)
                        and (reply.match is None or re.search(reply.match, req.last_user))):
                    if not reply.repeat:
                        del self._queue[i]
                    return reply
        return self.responder(req) if self.responder else None

    def _body(self, req: RecordedRequest, reply: Reply) -> bytes:
        with self._lock:
            self._counter += 1
            n = self._counter
        content = reply.content
        prompt = reply.prompt_tokens
        if prompt is None:
            prompt = sum(len(_text(m.get("content", ""))) for m in req.messages) // 4 + 1
        completion = reply.completion_tokens
        if completion is None:
            completion = len(content or reply.refusal or "") // 4 + 1
        return json.dumps({
            "id": f"chatcmpl-{n}", "object": "chat.completion", "created": int(time.time()),
            "model": req.model,
            "choices": [{"index": 0, "finish_reason": reply.finish_reason, "logprobs": None,
                         "message": {"role": "assistant", "content": content, "refusal": reply.refusal}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion},
        }).encode()


def _error(status: int, message: str, param: str | None = None) -> bytes:
    return json.dumps({"error": {"message": message, "type": "invalid_request_error" if status < 500
                                 else "server_error", "param": param, "code": None}}).encode()


def _handler_for(server: ScriptedLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's connection pool expects
        # headers and body in one segment, no Nagle: otherwise delayed ACKs add ~40 ms per call,
        # which would swamp latency_s in parallelism benchmarks
        wbufsize = 1 << 16
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
            pass

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, json.dumps({"object": "list", "data": []}).encode())
            else:
                self._send(404, _error(404, "not found"))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0))
            raw = self.rfile.read(length)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, _error(404, f"no route {self.path}"))
                return
            try:
                body = json.loads(raw)
            except ValueError:
                self._send(400, _error(400, "request body is not JSON"))
                return
            req = RecordedRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body,
                                  time.monotonic())
            with server._lock:
                server.requests.append(req)
            if req.response_format and req.response_format not in server.supported_formats:
                status = server.format_error_status
                message = (f"response_format {req.response_format} is not supported" if status < 500
                           else "Internal Server Error")  # llama-cpp-python says no more than that
                self._send(status, _error(status, message, "response_format" if status < 500 else None))
                return
            refused = sorted(p for p in server.rejected_params if p in body)
            if refused:
                self._send(400, _error(400, f"Unsupported parameter: '{refused[0]}' is not supported with "
                                       "this model.", refused[0]))
                return
            reply = server._pick(req)
            if reply is None:
                self._send(400, _error(400, f"llm_server: no scripted reply for {req.last_user[:80]!r}"))
                return
            with server._lock:
                server._active += 1
                server.max_concurrent = max(server.max_concurrent, server._active)
            try:
                if self._wait(server.latency_s + reply.delay_s):
                    return
            finally:
                with server._lock:
                    server._active -= 1
            if reply.status != 200:
                self._send(reply.status, _error(reply.status, reply.error_message), reply.headers)
            elif reply.raw_body is not None:
                self._send(200, reply.raw_body.encode(), reply.headers)
            else:
                self._send(200, server._body(req, reply), reply.headers)

        def _wait(self, seconds: float) -> bool:
            """Sleep, watching the socket: True when the server closes or the client hung up (counted)."""
            deadline = time.monotonic() + seconds
            while (left := deadline - time.monotonic()) > 0:
                if server._closing.wait(min(left, 0.02)):
                    return True
                readable, _, _ = select.select([self.connection], [], [], 0)
                if readable:
                    try:
                        gone = self.connection.recv(1, socket.MSG_PEEK) == b""
                    except OSError:
                        gone = True
                    if gone:
                        with server._lock:
                            server.disconnects += 1
                        return True
            return False

        def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test): nothing to tell it

    return Handler
