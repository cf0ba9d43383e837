"""Per-role configuration built from settings."""

from __future__ import annotations

from types import SimpleNamespace

from pydantic import SecretStr

from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import LLMConfig, Role, configs_from_settings
from openresearch.config import Settings

SERVER = "http://127.0.0.1:9/v1"


def test_no_llm_configured_means_none() -> None:
    settings = Settings(llm_base_url=None, llm_api_key=None, _env_file=None)  # type: ignore[call-arg]
    assert configs_from_settings(settings) is None
    assert LLMClient.from_settings(settings) is None


def test_current_settings_give_a_default_config() -> None:
    settings = Settings(llm_base_url="http://127.0.0.1:9/v1", llm_model="m", llm_timeout_s=7,
                        _env_file=None)  # type: ignore[call-arg]
    built = configs_from_settings(settings)
    assert built is not None
    default, roles = built
    assert (default.base_url, default.model, default.timeout_s) == ("http://127.0.0.1:9/v1", "m", 7)
    assert roles == {}


def test_role_overrides_inherit_the_rest() -> None:
    settings = SimpleNamespace(
        llm_base_url=SERVER, llm_api_key=SecretStr("k"), llm_model="big",
        llm_price_input_per_mtok=2.5, llm_price_output_per_mtok=10.0,
        llm_model_rewrite="small", llm_price_input_per_mtok_rewrite=0.1,
        llm_price_output_per_mtok_rewrite=0.4,
        llm_base_url_verify="http://127.0.0.1:10/v1")
    client = LLMClient.from_settings(settings)
    assert client is not None
    rewrite, verify = client.config(Role.REWRITE), client.config(Role.VERIFY)
    assert (rewrite.model, rewrite.base_url, rewrite.input_price_per_mtok) == ("small", SERVER, 0.1)
    assert rewrite.api_key.get_secret_value() == "k"
    assert (verify.model, verify.base_url) == ("big", "http://127.0.0.1:10/v1")
    assert client.config(Role.PLANNER) is client.default


def test_cost() -> None:
    cfg = LLMConfig(model="m", input_price_per_mtok=2.0, output_price_per_mtok=8.0)
    assert cfg.cost_usd(1_000_000, 500_000) == 6.0
