"""The LLM layer: one client for every role, over any OpenAI-compatible endpoint.

Callers get a validated pydantic model or text, or an exception that means "take the deterministic
path": LLMError (endpoint failed, refused, or answered unusably even after one re-ask) or
BudgetExceeded (the run's hard budget tripped; `budget.tripped` stays set).
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar, cast

import openai
from openai import OpenAI
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from pydantic import BaseModel, RootModel, ValidationError

from openresearch.agents.llm.budget import Budget
from openresearch.agents.llm.config import JsonMode, LLMConfig, Role, configs_from_settings
from openresearch.agents.llm.parse import JSONExtractError, extract_json, looks_like_refusal, strip_think
from openresearch.agents.llm.prompt import render
from openresearch.errors import LLMError

M = TypeVar("M", bound=BaseModel)
Messages = Sequence[Mapping[str, str]]
ROLE_HEADER = "X-OpenResearch-Role"  # lets a proxy (or the test server) route and count per role
_LADDER: tuple[JsonMode, ...] = ("json_schema", "json_object", "prompt")


class _FormatRejected(LLMError):
    """The endpoint rejected response_format: try the next rung of the JSON-mode ladder."""


class _Unusable(Exception):
    """An answer that can be re-asked: no JSON, broken JSON, or JSON that fails validation."""


class LLMClient:
    def __init__(self, default: LLMConfig, roles: Mapping[Role, LLMConfig] | None = None, *,
                 budget: Budget | None = None, max_retries: int = 2, backoff_base_s: float = 0.5,
                 max_backoff_s: float = 8.0, max_retry_after_s: float = 30.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.default = default
        self.roles = dict(roles or {})
        self.budget = budget or Budget()
        self.max_retries = max_retries
        self.backoff_base_s = backoff_base_s
        self.max_backoff_s = max_backoff_s
        self.max_retry_after_s = max_retry_after_s  # a longer Retry-After means quota, not congestion
        self._sleep = sleep
        self._lock = threading.Lock()
        self._clients: dict[tuple[str | None, str, float], OpenAI] = {}
        self._modes: dict[tuple[str | None, str], JsonMode] = {}

    @classmethod
    def from_settings(cls, settings: object, budget: Budget | None = None, **kwargs: Any) -> LLMClient | None:
        """None when no LLM is configured: the caller runs the deterministic pipeline."""
        built = configs_from_settings(settings)
        return None if built is None else cls(built[0], built[1], budget=budget, **kwargs)

    def config(self, role: Role) -> LLMConfig:
        return self.roles.get(role, self.default)

    def usage_report(self) -> dict[str, dict[str, float | int]]:
        return self.budget.usage_report()

    def close(self) -> None:
        with self._lock:
            clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            client.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- public calls ---------------------------------------------------------------------------
    def complete_text(self, role: Role, messages: Messages) -> str:
        text = strip_think(self._content(self._send(role, self.config(role), messages, None)) or "")
        if not text:
            raise LLMError(f"{role}: empty answer")
        return text

    def complete_json(self, role: Role, messages: Messages, schema: type[M]) -> M:
        """Ask for JSON matching `schema`; re-ask once with the validation error, then raise LLMError."""
        cfg = self.config(role)
        schema_json = json.dumps(schema.model_json_schema(), ensure_ascii=False)
        want = "any" if issubclass(schema, RootModel) else "object"
        asked = _with_instructions(messages, render("json_instructions", schema=schema_json))
        raw = self._ask_json(role, cfg, asked, schema)
        try:
            return _parse(raw, schema, want)
        except _Unusable as exc:
            error = str(exc)
        self.budget.note_reask(role)
        reask = render("json_reask", error=error, schema=schema_json)
        raw2 = self._ask_json(role, cfg, [*asked, {"role": "assistant", "content": raw},
                                          {"role": "user", "content": reask}], schema)
        try:
            return _parse(raw2, schema, want)
        except _Unusable as exc:
            raise LLMError(f"{role}: unusable JSON after one re-ask: {exc}") from None

    # -- internals ------------------------------------------------------------------------------
    def _ask_json(self, role: Role, cfg: LLMConfig, messages: Messages, schema: type[BaseModel]) -> str:
        if schema.model_json_schema().get("type") != "object":
            # OpenAI-style structured output only takes object roots: ask in words, and don't let
            # this schema's limits downgrade the mode remembered for object schemas
            return self._content(self._send(role, cfg, messages, None)) or ""
        key = (cfg.base_url, cfg.model)
        with self._lock:
            start = self._modes.get(key, "json_schema" if cfg.json_mode == "auto" else cfg.json_mode)
        ladder = _LADDER[_LADDER.index(start):] if cfg.json_mode == "auto" else (start,)
        for mode in ladder:
            try:
                completion = self._send(role, cfg, messages, _response_format(mode, schema))
            except _FormatRejected:
                if mode == ladder[-1]:
                    raise
                continue
            with self._lock:
                self._modes[key] = mode
            return self._content(completion) or ""
        raise AssertionError("unreachable: the ladder always ends in return or raise")

    def _content(self, completion: ChatCompletion) -> str | None:
        if not completion.choices:
            raise LLMError("endpoint returned no choices")
        message = completion.choices[0].message
        if message.refusal:
            raise LLMError(f"model refused: {message.refusal[:200]}")
        return message.content

    def _client(self, cfg: LLMConfig) -> OpenAI:
        key = (cfg.base_url, cfg.api_key.get_secret_value(), cfg.timeout_s)
        with self._lock:
            if key not in self._clients:
                # SDK retries off: ours count against the budget and honour our caps
                self._clients[key] = OpenAI(base_url=cfg.base_url, api_key=key[1], max_retries=0,
                                            timeout=cfg.timeout_s)
            return self._clients[key]

    def _send(self, role: Role, cfg: LLMConfig, messages: Messages,
              response_format: dict[str, Any] | None) -> ChatCompletion:
        """One logical request: budget-checked, retried on 429/5xx/timeouts, usage settled."""
        est_prompt = _estimate_tokens(messages)
        est_tokens = est_prompt + (cfg.max_output_tokens or 0)
        est_cost = cfg.cost_usd(est_prompt, cfg.max_output_tokens or 0)
        sdk_messages = cast(list[ChatCompletionMessageParam], [dict(m) for m in messages])
        kwargs: dict[str, Any] = {"model": cfg.model, "messages": sdk_messages,
                                  "extra_headers": {ROLE_HEADER: role.value}}
        if response_format is not None:
            kwargs["response_format"] = response_format
        if cfg.max_output_tokens is not None:
            kwargs["max_tokens"] = cfg.max_output_tokens
        if cfg.temperature is not None:
            kwargs["temperature"] = cfg.temperature
        client = self._client(cfg)
        for attempt in range(self.max_retries + 1):
            res = self.budget.reserve(role.value, est_tokens, est_cost)
            try:
                completion: ChatCompletion = client.chat.completions.create(**kwargs)
            except openai.OpenAIError as exc:
                delay = self._retry_delay(exc, attempt)
                retrying = delay is not None and attempt < self.max_retries
                self.budget.fail(res, retrying=retrying)
                if retrying and delay is not None:
                    self._sleep(delay)
                    continue
                if response_format is not None and _rejects_format(exc):
                    raise _FormatRejected(f"{role}: {exc}") from exc
                raise LLMError(f"{role} ({cfg.model}): {_describe(exc)}") from exc
            except ValueError as exc:  # the SDK lets a non-JSON body (a proxy's HTML page) escape raw
                self.budget.fail(res, retrying=False)
                raise LLMError(f"{role} ({cfg.model}): unreadable response: {str(exc)[:200]}") from exc
            usage = completion.usage
            content = completion.choices[0].message.content if completion.choices else None
            prompt_t = usage.prompt_tokens if usage else est_prompt
            completion_t = usage.completion_tokens if usage else _estimate_text(content or "")
            self.budget.settle(res, prompt_t, completion_t, cfg.cost_usd(prompt_t, completion_t))
            return completion
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _retry_delay(self, exc: openai.OpenAIError, attempt: int) -> float | None:
        """Seconds to wait before retrying, or None when retrying cannot help."""
        backoff = min(self.max_backoff_s, self.backoff_base_s * 2.0**attempt)
        backoff += random.uniform(0, self.backoff_base_s / 2)  # jitter: parallel workers don't stampede
        if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
            return backoff
        if not isinstance(exc, openai.APIStatusError):
            return None
        if exc.status_code == 429:
            after = _retry_after(exc.response.headers)
            if after is None:
                return backoff
            return after if after <= self.max_retry_after_s else None
        return backoff if exc.status_code >= 500 or exc.status_code == 408 else None


def _parse(raw: str, schema: type[M], want: str) -> M:
    try:
        value = extract_json(raw, want=want)
    except JSONExtractError as exc:
        if looks_like_refusal(strip_think(raw)):
            raise LLMError(f"model refused: {strip_think(raw)[:200]}") from None
        raise _Unusable(str(exc) if raw.strip() else "the answer was empty") from None
    try:
        return schema.model_validate(value)
    except ValidationError as exc:
        raise _Unusable(f"the JSON does not match the schema: {exc}") from None


def _response_format(mode: JsonMode, schema: type[BaseModel]) -> dict[str, Any] | None:
    if mode == "json_schema":
        name = re.sub(r"[^A-Za-z0-9_-]", "_", schema.__name__)[:64] or "answer"
        return {"type": "json_schema",
                "json_schema": {"name": name, "schema": schema.model_json_schema(), "strict": False}}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def _with_instructions(messages: Messages, instructions: str) -> list[dict[str, str]]:
    """Append to the last user turn, not a trailing system message: some chat templates reject that."""
    out = [dict(m) for m in messages]
    for m in reversed(out):
        if m.get("role") == "user":
            m["content"] = f"{m.get('content', '')}\n\n{instructions}"
            return out
    return [*out, {"role": "user", "content": instructions}]


def _rejects_format(exc: openai.OpenAIError) -> bool:
    if not isinstance(exc, openai.APIStatusError) or exc.status_code not in (400, 422):
        return False
    return any(w in str(exc).lower() for w in ("response_format", "json_schema", "json_object", "schema"))


def _retry_after(headers: Mapping[str, str]) -> float | None:
    try:
        if ms := headers.get("retry-after-ms"):
            return max(0.0, float(ms) / 1000)
        if value := headers.get("retry-after"):
            try:
                return max(0.0, float(value))
            except ValueError:
                return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None
    return None


def _describe(exc: openai.OpenAIError) -> str:
    if isinstance(exc, openai.APITimeoutError):
        return "request timed out"
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}: {exc.message[:300]}"
    return f"{type(exc).__name__}: {str(exc)[:300]}"


def _estimate_text(text: str) -> int:
    """Rough token count: ~4 ASCII chars per token, ~1 token per CJK/other char (over-estimates CJK)."""
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return ascii_chars // 4 + (len(text) - ascii_chars) + 1


def _estimate_tokens(messages: Messages) -> int:
    return sum(_estimate_text(m.get("content", "")) + 4 for m in messages)
