"""What an endpoint + model accepts, learned from its answers and remembered across runs.

Servers differ: llama-cpp-python answers a JSON-schema `response_format` with a 500, old servers a 400;
newer OpenAI models reject `max_tokens` and want `max_completion_tokens`; some reasoning models reject
`temperature`. The client learns each from the first rejection (never resending the same request) and
stores it here, one JSON file per cache dir keyed by endpoint and model, so the next run starts right.
The pure part (`classify_rejection`, `output_cap`) is tested without a server.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ValidationError

from openresearch.agents.llm.config import JsonMode, Role

TokenParam = Literal["max_tokens", "max_completion_tokens"]
Rejected = Literal["response_format", "max_tokens", "max_completion_tokens", "temperature", "seed"]
LADDER: tuple[JsonMode, ...] = ("json_schema", "json_object", "prompt")


class Capabilities(BaseModel):
    """One endpoint + model. `json_mode` is the best rung known to work (None = not learned yet)."""

    json_mode: JsonMode | None = None
    json_mode_confirmed: bool = False  # an answer came back in this mode (a later 5xx is then transient)
    token_param: TokenParam = "max_tokens"
    temperature: bool = True
    notes: list[str] = []  # one line per thing learned, for `openresearch llm check` and the run log


def classify_rejection(status: int, message: str, sent: set[str]) -> Rejected | None:
    """Which request feature a 4xx/5xx rejects, or None when it names none of the parameters we sent.

    `sent` holds the optional parameters of the failed request (response_format, max_tokens, ...).
    """
    if status < 400:
        return None
    text = message.lower()
    params: tuple[Rejected, ...] = ("max_completion_tokens", "max_tokens", "temperature", "seed")
    for param in params:
        if param in sent and param in text:
            return param
    format_words = ("response_format", "json_schema", "json_object", "schema", "grammar")
    if "response_format" in sent and any(w in text for w in format_words):
        return "response_format"
    return None


# Output caps per role, sized to what its schema needs on a small model: a cap is what stops a model that
# never closes its JSON from generating until its context runs out (1,085 s for one call on 2 cores).
_CAPS: dict[str, int] = {
    "LLMDiverge": 700,  # up to ~8 candidates of ~80 tokens
    "LLMConverge": 300,
    "LLMQueries": 120,
    "LLMQuery": 40,
    "LLMExtraction": 700,
    "SectionOut": 600,
    "ClaimJudgement": 40,
    "JudgeOut": 40,
}
_ROLE_CAPS: dict[Role, int] = {Role.PLANNER: 700, Role.REWRITE: 120, Role.EXTRACT: 700, Role.WRITE: 600,
                               Role.VERIFY: 60}


def output_cap(role: Role, schema_name: str | None, configured: int | None) -> int:
    """The max output tokens of one request: the configured value caps every role when set lower."""
    cap = _CAPS.get(schema_name or "", _ROLE_CAPS.get(role, 512))
    return min(cap, configured) if configured is not None else cap


class CapabilityStore:
    """Capabilities per (base_url, model), kept in memory and, when a path is given, in a JSON file."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._caps: dict[str, Capabilities] = {}
        self._loaded = False

    @staticmethod
    def key(base_url: str | None, model: str) -> str:
        return f"{base_url or 'default'}|{model}"

    def get(self, base_url: str | None, model: str) -> Capabilities:
        with self._lock:
            self._load()
            return self._caps.setdefault(self.key(base_url, model), Capabilities()).model_copy(deep=True)

    def update(self, base_url: str | None, model: str, caps: Capabilities) -> None:
        with self._lock:
            self._load()
            k = self.key(base_url, model)
            if self._caps.get(k) == caps:
                return
            self._caps[k] = caps.model_copy(deep=True)
            self._save()

    def forget(self, base_url: str | None, model: str) -> None:
        with self._lock:
            self._load()
            if self._caps.pop(self.key(base_url, model), None) is not None:
                self._save()

    # -- file (lock held) -----------------------------------------------------------------------
    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        if self.path is None or not self.path.is_file():
            return
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            self._caps = {k: Capabilities.model_validate(v) for k, v in dict(raw).items()}
        except (OSError, ValueError, TypeError, ValidationError):
            self._caps = {}  # a damaged cache is relearned, never fatal

    def _save(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps({k: v.model_dump() for k, v in self._caps.items()}, indent=1),
                           encoding="utf-8")
            tmp.replace(self.path)
        except OSError:
            pass  # read-only cache dir: the capabilities are relearned next run
