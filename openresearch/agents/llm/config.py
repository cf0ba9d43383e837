"""Per-role endpoint configuration, so light roles (rewrite, verify) can run on a cheaper model."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr


class Role(StrEnum):
    PLANNER = "planner"
    REWRITE = "rewrite"
    EXTRACT = "extract"
    WRITE = "write"
    VERIFY = "verify"


JsonMode = Literal["auto", "json_schema", "json_object", "prompt"]


class LLMConfig(BaseModel):
    """One OpenAI-compatible endpoint + model. Prices are USD per 1M tokens (0 = free/local)."""

    model_config = ConfigDict(frozen=True)

    base_url: str | None = None  # None = the SDK's default (hosted OpenAI)
    api_key: SecretStr = SecretStr("not-needed")  # local servers ignore it, but the SDK wants one
    model: str
    input_price_per_mtok: float = Field(default=0.0, ge=0)
    output_price_per_mtok: float = Field(default=0.0, ge=0)
    timeout_s: float = Field(default=60.0, gt=0)
    max_output_tokens: int | None = Field(default=None, gt=0)
    temperature: float | None = None  # None = not sent (some reasoning models reject it)
    # "auto" tries json_schema, then json_object, then instructions only, remembering what worked
    json_mode: JsonMode = "auto"

    def cost_usd(self, prompt_tokens: int, completion_tokens: int) -> float:
        cost = prompt_tokens * self.input_price_per_mtok + completion_tokens * self.output_price_per_mtok
        return cost / 1e6


# Settings attribute -> LLMConfig field. Per-role overrides are the same name + "_<role>".
_FIELDS = {
    "llm_base_url": "base_url",
    "llm_api_key": "api_key",
    "llm_model": "model",
    "llm_price_input_per_mtok": "input_price_per_mtok",
    "llm_price_output_per_mtok": "output_price_per_mtok",
    "llm_timeout_s": "timeout_s",
    "llm_max_output_tokens": "max_output_tokens",
    "llm_temperature": "temperature",
    "llm_json_mode": "json_mode",
}


def configs_from_settings(settings: object) -> tuple[LLMConfig, dict[Role, LLMConfig]] | None:
    """Build (default, per-role) configs from a Settings object; None when no LLM is configured.

    Reads attributes by name so settings that do not exist yet simply count as unset. An override sets
    only the fields it names (e.g. llm_model_rewrite) and inherits the rest from the default.
    """
    base: dict[str, Any] = {}
    for attr, field in _FIELDS.items():
        value = getattr(settings, attr, None)
        if value is not None:
            base[field] = value
    if base.get("base_url") is None and base.get("api_key") is None:
        return None  # offline: the deterministic pipeline runs (invariant 7)
    default = LLMConfig(**base)
    roles: dict[Role, LLMConfig] = {}
    for role in Role:
        update = {field: v for attr, field in _FIELDS.items()
                  if (v := getattr(settings, f"{attr}_{role.value}", None)) is not None}
        if update:
            roles[role] = LLMConfig(**{**base, **update})
    return default, roles
