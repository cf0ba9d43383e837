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
from collections.abc import Callable, Iterable, Mapping, Sequence
from email.utils import parsedate_to_datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import openai
from openai import OpenAI
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from pydantic import BaseModel, RootModel, ValidationError

from openresearch.agents.llm.budget import Budget
from openresearch.agents.llm.capabilities import LADDER, Capabilities, CapabilityStore, classify_rejection, output_cap
from openresearch.agents.llm.config import JsonMode, LLMConfig, Role, configs_from_settings
from openresearch.agents.llm.parse import JSONExtractError, extract_json, looks_like_refusal, strip_think
from openresearch.agents.llm.prompt import render
from openresearch.errors import BudgetExceeded, LLMError

M = TypeVar("M", bound=BaseModel)
Messages = Sequence[Mapping[str, str]]
ROLE_HEADER = "X-OpenResearch-Role"  # lets a proxy (or the test server) route and count per role
_LADDER = LADDER
CAPABILITIES_FILE = "llm_capabilities.json"


class _FormatRejected(LLMError):
    """The endpoint rejected response_format: try the next rung of the JSON-mode ladder."""


class _Probe(BaseModel):
    ok: bool


class _Unusable(Exception):
    """An answer that can be re-asked: no JSON, broken JSON, or JSON that fails validation."""


class LLMClient:
    def __init__(self, default: LLMConfig, roles: Mapping[Role, LLMConfig] | None = None, *,
                 budget: Budget | None = None, max_retries: int = 2, backoff_base_s: float = 0.5,
                 max_backoff_s: float = 8.0, max_retry_after_s: float = 30.0,
                 sleep: Callable[[float], None] = time.sleep, capabilities: CapabilityStore | None = None,
                 max_timeout_retries: int = 1, max_concurrency: int | None = None,
                 roles_enabled: Iterable[str] | None = None) -> None:
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
        self.capabilities = capabilities or CapabilityStore()
        # a timed-out request was cancelled (its connection closed); resending it once may help, more
        # rarely does: a local model that is too slow for the timeout is slow every time
        self.max_timeout_retries = max_timeout_retries
        self.problems: dict[str, str] = {}  # role -> the first one-line reason its LLM path failed
        # a local server with one slot queues parallel requests, and a queued request's timeout runs while
        # it waits: requests beyond this many wait here instead, where no timeout runs
        self._slots = threading.BoundedSemaphore(max_concurrency) if max_concurrency else None
        # roles allowed to call the model (None = all): where a small model hurts (see bench/bench_llm.py), that
        # role takes its deterministic path without spending a call
        self.roles_enabled = None if roles_enabled is None else {Role(r.strip().lower()) for r in roles_enabled}

    @classmethod
    def from_settings(cls, settings: object, budget: Budget | None = None, **kwargs: Any) -> LLMClient | None:
        """None when no LLM is configured: the caller runs the deterministic pipeline."""
        built = configs_from_settings(settings)
        if built is None:
            return None
        cache_dir = getattr(settings, "cache_dir", None)
        if "capabilities" not in kwargs and cache_dir is not None:
            kwargs["capabilities"] = CapabilityStore(Path(cache_dir) / CAPABILITIES_FILE)
        if "max_concurrency" not in kwargs:
            kwargs["max_concurrency"] = getattr(settings, "llm_max_concurrency", None)
        if "roles_enabled" not in kwargs and (roles := getattr(settings, "llm_roles", None)):
            kwargs["roles_enabled"] = [r for r in str(roles).split(",") if r.strip()]
        return cls(built[0], built[1], budget=budget, **kwargs)

    def config(self, role: Role) -> LLMConfig:
        return self.roles.get(role, self.default)

    def usage_report(self) -> dict[str, dict[str, float | int]]:
        return self.budget.usage_report()

    def unusable_reason(self) -> str | None:
        """One line saying why the LLM path was not (fully) used, or None when every call went through."""
        if not self.problems:
            return None
        return "; ".join(f"{role}: {why}" for role, why in sorted(self.problems.items()))

    def note_fallback(self, role: Role, why: str) -> None:
        """A caller handed an answer that parsed but was unusable (e.g. not a question) to its fallback."""
        self.budget.note_outcome(role.value, "fallback")
        self._problem(role, why)

    def _problem(self, role: Role, why: str) -> None:
        with self._lock:
            self.problems.setdefault(role.value, why[:300])

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
    def _check_enabled(self, role: Role) -> None:
        if self.roles_enabled is not None and role not in self.roles_enabled:
            raise LLMError(f"{role}: the LLM is not used for this role (OPENRESEARCH_LLM_ROLES)")

    def complete_text(self, role: Role, messages: Messages) -> str:
        try:
            self._check_enabled(role)
            text = strip_think(self._content(self._send(role, self.config(role), messages, None)) or "")
            if not text:
                raise LLMError(f"{role}: empty answer")
        except (LLMError, BudgetExceeded) as exc:
            self._problem(role, str(exc))
            raise
        return text

    def complete_json(self, role: Role, messages: Messages, schema: type[M]) -> M:
        """Ask for JSON matching `schema`; re-ask once with the validation error, then raise LLMError.

        Every call ends in one outcome counted per role: valid (first answer parsed as is), repaired (first
        answer usable after fences/prose/loose JSON were repaired), reask_ok, or fallback (raised)."""
        try:
            self._check_enabled(role)
            value, outcome = self._complete_json(role, messages, schema)
        except (LLMError, BudgetExceeded) as exc:
            self.budget.note_outcome(role.value, "fallback")
            self._problem(role, str(exc))
            raise
        self.budget.note_outcome(role.value, outcome)
        return value

    def _complete_json(self, role: Role, messages: Messages, schema: type[M]) -> tuple[M, str]:
        cfg = self.config(role)
        schema_json = json.dumps(compact_schema(schema.model_json_schema()), ensure_ascii=False)
        want = "any" if issubclass(schema, RootModel) else "object"
        raw, asked = self._ask_json(role, cfg, messages, schema, schema_json)
        try:
            value, repaired = _parse(raw, schema, want)
            return value, "repaired" if repaired else "valid"
        except _Unusable as exc:
            error = str(exc)[:600]  # a small model's context is small: the gist of the error is enough
        self.budget.note_reask(role)
        reask = render("json_reask", error=error, schema=schema_json)
        raw2, _ = self._ask_json(role, cfg, [*asked, {"role": "assistant", "content": raw[:2000]},
                                             {"role": "user", "content": reask}], schema, None)
        try:
            return _parse(raw2, schema, want)[0], "reask_ok"
        except _Unusable as exc:
            raise LLMError(f"{role}: unusable JSON after one re-ask: {str(exc)[:200]}") from None

    # -- probes (openresearch llm check) --------------------------------------------------------
    def list_models(self) -> list[str]:
        cfg = self.default
        try:
            return [m.id for m in self._client(cfg).models.list()]
        except openai.OpenAIError as exc:
            raise LLMError(_describe(exc, cfg)) from exc

    def probe_mode(self, mode: JsonMode) -> tuple[bool, str]:
        """One tiny request in this structured-output mode: (usable, why not). Not counted in the budget."""
        cfg = self.default
        fmt = _response_format(mode, _Probe) if mode != "prompt" else None
        caps = self.capabilities.get(cfg.base_url, cfg.model)
        ask = [{"role": "user", "content": 'Answer with the JSON object {"ok": true} and nothing else.'}]
        kwargs, _ = _request(Role.VERIFY, cfg, caps, ask, fmt, 16)
        try:
            completion = self._client(cfg).chat.completions.create(**kwargs)
        except openai.OpenAIError as exc:
            return False, _describe(exc, cfg)
        try:
            _parse(self._content(completion) or "", _Probe, "object")
        except (_Unusable, LLMError) as exc:
            return False, f"answered, but not the JSON asked for: {str(exc)[:120]}"
        return True, ""

    # -- internals ------------------------------------------------------------------------------
    def _ask_json(self, role: Role, cfg: LLMConfig, messages: Messages, schema: type[BaseModel],
                  schema_json: str | None) -> tuple[str, list[dict[str, str]]]:
        """The raw answer and the messages it answered. With `schema_json` (a first ask) the JSON instructions
        are appended for the mode used: the schema text in full, unless the server enforces it itself."""
        def asked(mode: JsonMode | None) -> list[dict[str, str]]:
            if schema_json is None:
                return [dict(m) for m in messages]
            if mode == "json_schema":
                return _with_instructions(messages, render("json_instructions_enforced"))
            return _with_instructions(messages, render("json_instructions", schema=schema_json))

        if schema.model_json_schema().get("type") != "object":
            # OpenAI-style structured output only takes object roots: ask in words, and don't let
            # this schema's limits downgrade the mode remembered for object schemas
            sent = asked(None)
            return self._content(self._send(role, cfg, sent, None, schema.__name__)) or "", sent
        if cfg.json_mode != "auto":
            sent = asked(cfg.json_mode)
            return self._content(self._send(role, cfg, sent, _response_format(cfg.json_mode, schema),
                                            schema.__name__)) or "", sent
        start = self.capabilities.get(cfg.base_url, cfg.model).json_mode or "json_schema"
        ladder = _LADDER[_LADDER.index(start):]
        for mode in ladder:
            sent = asked(mode)
            try:
                completion = self._send(role, cfg, sent, _response_format(mode, schema), schema.__name__)
            except _FormatRejected as exc:
                if mode == ladder[-1]:
                    raise
                self._learn(cfg, partial(_downgrade, mode=mode, why=str(exc)))
                continue
            if not self.capabilities.get(cfg.base_url, cfg.model).json_mode_confirmed or start != mode:
                self._learn(cfg, partial(_confirm, mode=mode))
            return self._content(completion) or "", sent
        raise AssertionError("unreachable: the ladder always ends in return or raise")

    def _learn(self, cfg: LLMConfig, change: Callable[[Capabilities], Capabilities]) -> None:
        with self._lock:  # read-modify-write of one endpoint's entry
            self.capabilities.update(cfg.base_url, cfg.model, change(self.capabilities.get(cfg.base_url, cfg.model)))

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

    def _send(self, role: Role, cfg: LLMConfig, messages: Messages, response_format: dict[str, Any] | None,
              schema_name: str | None = None) -> ChatCompletion:
        """One logical request: budget-checked, retried on 429/5xx/timeouts, usage settled.

        A rejection that names a parameter we sent is learned (per endpoint + model) and the request is
        resent without it, never as is; a rejected response_format goes back to the JSON-mode ladder."""
        est_prompt = _estimate_tokens(messages)
        est_tokens = est_prompt + (cfg.max_output_tokens or 0)
        est_cost = cfg.cost_usd(est_prompt, cfg.max_output_tokens or 0)
        cap = output_cap(role, schema_name, cfg.max_output_tokens)
        client = self._client(cfg)
        attempt = timeouts = relearned = 0
        while True:
            caps = self.capabilities.get(cfg.base_url, cfg.model)
            kwargs, sent = _request(role, cfg, caps, messages, response_format, cap)
            res = self.budget.reserve(role.value, est_tokens, est_cost)
            try:
                completion = self._create(client, kwargs)
            except openai.OpenAIError as exc:
                rejected = _rejected(exc, sent, caps)
                if rejected is not None:
                    # a bare 5xx that moves down the ladder is also the retry a transient error would get
                    self.budget.fail(res, retrying=rejected != "response_format" or _status(exc) >= 500)
                    if rejected == "response_format":
                        raise _FormatRejected(f"{role}: {_describe(exc)}") from exc
                    relearned += 1
                    if relearned > 2:  # the server keeps refusing whatever we change: stop here
                        raise LLMError(f"{role} ({cfg.model}): {_describe(exc, cfg)}") from exc
                    self._learn(cfg, partial(_without, rejected=rejected))
                    continue  # the same request minus what the server refused
                timed_out = isinstance(exc, openai.APITimeoutError)
                delay = self._retry_delay(exc, attempt)
                retrying = delay is not None and attempt < self.max_retries and (
                    not timed_out or timeouts < self.max_timeout_retries)
                self.budget.fail(res, retrying=retrying)
                if retrying and delay is not None:
                    # a timed-out request's connection is closed by the HTTP client before we get here,
                    # so the server stops generating for it and the retry does not queue behind it
                    timeouts += int(timed_out)
                    attempt += 1
                    self._sleep(delay)
                    continue
                raise LLMError(f"{role} ({cfg.model}): {_describe(exc, cfg)}") from exc
            except ValueError as exc:  # the SDK lets a non-JSON body (a proxy's HTML page) escape raw
                self.budget.fail(res, retrying=False)
                raise LLMError(f"{role} ({cfg.model}): unreadable response: {str(exc)[:200]}") from exc
            usage = completion.usage
            content = completion.choices[0].message.content if completion.choices else None
            prompt_t = usage.prompt_tokens if usage else est_prompt
            completion_t = usage.completion_tokens if usage else _estimate_text(content or "")
            self.budget.settle(res, prompt_t, completion_t, cfg.cost_usd(prompt_t, completion_t))
            return completion

    def _create(self, client: OpenAI, kwargs: dict[str, Any]) -> ChatCompletion:
        if self._slots is None:
            return cast(ChatCompletion, client.chat.completions.create(**kwargs))
        with self._slots:
            return cast(ChatCompletion, client.chat.completions.create(**kwargs))

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


def _request(role: Role, cfg: LLMConfig, caps: Capabilities, messages: Messages,
             response_format: dict[str, Any] | None, cap: int) -> tuple[dict[str, Any], set[str]]:
    """The SDK keyword arguments for one request, and the optional parameters it carries."""
    sdk_messages = cast(list[ChatCompletionMessageParam], [dict(m) for m in messages])
    kwargs: dict[str, Any] = {"model": cfg.model, "messages": sdk_messages,
                              "extra_headers": {ROLE_HEADER: role.value}}
    sent: set[str] = set()
    if response_format is not None:
        kwargs["response_format"] = response_format
        sent.add("response_format")
    kwargs[caps.token_param] = cap
    sent.add(caps.token_param)
    if cfg.temperature is not None and caps.temperature:
        kwargs["temperature"] = cfg.temperature
        sent.add("temperature")
    return kwargs, sent


def _rejected(exc: openai.OpenAIError, sent: set[str], caps: Capabilities) -> str | None:
    """The parameter a 4xx/5xx rejects, if it names one we sent (or is a 5xx to an unproven JSON schema)."""
    if not isinstance(exc, openai.APIStatusError) or exc.status_code == 429:
        return None
    found = classify_rejection(exc.status_code, str(exc), sent)
    if found is not None and (exc.status_code < 500 or found == "response_format"):
        return found
    # llama-cpp-python answers a JSON-schema response_format it cannot handle with a bare 500: until this
    # endpoint has answered one, a 5xx to it means "try the next rung", not "resend the same request"
    # (503 and up are overload and gateway errors: transient)
    if exc.status_code == 500 and "response_format" in sent and not caps.json_mode_confirmed:
        return "response_format"
    return None


def _status(exc: openai.OpenAIError) -> int:
    return exc.status_code if isinstance(exc, openai.APIStatusError) else 0


def _without(caps: Capabilities, rejected: str) -> Capabilities:
    if rejected == "max_tokens":
        return caps.model_copy(update={"token_param": "max_completion_tokens",
                                       "notes": [*caps.notes, "max_tokens rejected: sending max_completion_tokens"]})
    if rejected == "max_completion_tokens":
        return caps.model_copy(update={"token_param": "max_tokens",
                                       "notes": [*caps.notes, "max_completion_tokens rejected: sending max_tokens"]})
    if rejected == "temperature":
        return caps.model_copy(update={"temperature": False,
                                       "notes": [*caps.notes, "temperature rejected: not sent"]})
    raise AssertionError(f"unexpected rejected parameter {rejected}")


def _confirm(caps: Capabilities, mode: JsonMode) -> Capabilities:
    return caps.model_copy(update={"json_mode": mode, "json_mode_confirmed": True})


def _downgrade(caps: Capabilities, mode: JsonMode, why: str) -> Capabilities:
    nxt = _LADDER[min(len(_LADDER) - 1, _LADDER.index(mode) + 1)]
    return caps.model_copy(update={"json_mode": nxt, "json_mode_confirmed": False,
                                   "notes": [*caps.notes, f"{mode} rejected ({why[:120]}): using {nxt}"]})


def compact_schema(schema: Any) -> Any:
    """The JSON schema without titles: a small model reads every prompt token slowly on a CPU."""
    if isinstance(schema, dict):
        return {k: compact_schema(v) for k, v in schema.items() if k != "title" or not isinstance(v, str)}
    if isinstance(schema, list):
        return [compact_schema(v) for v in schema]
    return schema


def _parse(raw: str, schema: type[M], want: str) -> tuple[M, bool]:
    """The validated answer and whether it needed repair (prose, fences, loose JSON) to parse."""
    try:
        value = json.loads(raw.strip())
        repaired = False
    except ValueError:
        repaired = True
        try:
            value = extract_json(raw, want=want)
        except JSONExtractError as exc:
            if looks_like_refusal(strip_think(raw)):
                raise LLMError(f"model refused: {strip_think(raw)[:200]}") from None
            raise _Unusable(str(exc) if raw.strip() else "the answer was empty") from None
    try:
        return schema.model_validate(value), repaired
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


def _describe(exc: openai.OpenAIError, cfg: LLMConfig | None = None) -> str:
    """One line a user can act on."""
    if isinstance(exc, openai.APITimeoutError):
        if cfg is None:
            return "request timed out"
        return (f"request timed out after {cfg.timeout_s:g} s (the model answers slower than "
                "OPENRESEARCH_LLM_TIMEOUT_S; raise it or use a smaller model)")
    if isinstance(exc, openai.APIConnectionError):
        where = cfg.base_url if cfg is not None and cfg.base_url else "the endpoint"
        return f"cannot connect to {where} (is the server running? OPENRESEARCH_LLM_BASE_URL)"
    if isinstance(exc, openai.APIStatusError):
        hint = {401: " (the endpoint refused the API key: OPENRESEARCH_LLM_API_KEY)",
                403: " (the endpoint refused the API key: OPENRESEARCH_LLM_API_KEY)",
                404: " (no such model or route: check OPENRESEARCH_LLM_MODEL and that the URL ends in /v1)"}
        return f"HTTP {exc.status_code}: {exc.message[:300]}{hint.get(exc.status_code, '')}"
    return f"{type(exc).__name__}: {str(exc)[:300]}"


def _estimate_text(text: str) -> int:
    """Rough token count: ~4 ASCII chars per token, ~1 token per CJK/other char (over-estimates CJK)."""
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return ascii_chars // 4 + (len(text) - ascii_chars) + 1


def _estimate_tokens(messages: Messages) -> int:
    return sum(_estimate_text(m.get("content", "")) + 4 for m in messages)
