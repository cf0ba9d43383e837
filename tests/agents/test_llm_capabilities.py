"""The client learns what an endpoint accepts from its first answers and remembers it per endpoint+model."""

from __future__ import annotations

from pathlib import Path

import pytest
from llm_server import ScriptedLLMServer, answer, fenced, malformed
from pydantic import BaseModel

from openresearch.agents.llm.capabilities import CapabilityStore, classify_rejection, output_cap
from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import LLMConfig, Role
from openresearch.errors import LLMError

pytestmark = pytest.mark.integration
ASK = [{"role": "user", "content": "Judge the claim."}]


class Claim(BaseModel):
    claim: str
    score: float


GOOD = {"claim": "ok", "score": 0.5}


def client_for(server: ScriptedLLMServer, store: CapabilityStore | None = None, **cfg: object) -> LLMClient:
    config = LLMConfig(base_url=server.base_url, model="m", timeout_s=5, **cfg)  # type: ignore[arg-type]
    return LLMClient(config, capabilities=store, backoff_base_s=0.0, sleep=lambda _s: None)


def test_classify_rejection_names_only_parameters_that_were_sent() -> None:
    msg = "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens'."
    assert classify_rejection(400, msg, {"max_tokens"}) == "max_tokens"
    assert classify_rejection(400, msg, {"response_format"}) is None
    assert classify_rejection(400, "response_format json_schema is not supported", {"response_format"}) \
        == "response_format"
    assert classify_rejection(200, "max_tokens", {"max_tokens"}) is None


def test_output_caps_are_sized_per_schema_and_never_above_the_configured_cap() -> None:
    assert output_cap(Role.REWRITE, "LLMQuery", None) < output_cap(Role.REWRITE, "LLMQueries", None)
    assert output_cap(Role.EXTRACT, "LLMExtraction", 100) == 100
    assert output_cap(Role.WRITE, None, None) > 0


def test_llama_cpp_python_500_on_json_schema_falls_to_json_object_and_is_remembered(
        llm_server: ScriptedLLMServer, tmp_path: Path) -> None:
    llm_server.supported_formats = {"json_object", "text"}
    llm_server.format_error_status = 500  # llama-cpp-python: a bare 500, no word about the schema
    llm_server.script(answer(GOOD), answer(GOOD), answer(GOOD))
    path = tmp_path / "caps.json"
    with client_for(llm_server, CapabilityStore(path)) as client:
        assert client.complete_json(Role.EXTRACT, ASK, Claim).claim == "ok"
        assert client.complete_json(Role.WRITE, ASK, Claim).claim == "ok"
        usage = client.usage_report()["total"]
    # the rejected request was never resent as is: the second call starts on the rung that worked
    assert [r.response_format for r in llm_server.requests] == ["json_schema", "json_object", "json_object"]
    assert usage["valid_first"] == 2 and usage["fallbacks"] == 0
    # a new client (the next run) reads what was learned and sends no json_schema at all
    with client_for(llm_server, CapabilityStore(path)) as client:
        client.complete_json(Role.EXTRACT, ASK, Claim)
    assert llm_server.requests[-1].response_format == "json_object"
    assert "json_schema rejected" in " ".join(CapabilityStore(path).get(llm_server.base_url, "m").notes)


def test_a_confirmed_json_schema_endpoint_retries_a_later_500_as_transient(llm_server: ScriptedLLMServer) -> None:
    from llm_server import server_error
    llm_server.script(answer(GOOD), server_error(500), answer(GOOD))
    with client_for(llm_server) as client:
        client.complete_json(Role.EXTRACT, ASK, Claim)
        client.complete_json(Role.EXTRACT, ASK, Claim)
    assert [r.response_format for r in llm_server.requests] == ["json_schema"] * 3


def test_max_tokens_rejected_switches_to_max_completion_tokens(llm_server: ScriptedLLMServer) -> None:
    llm_server.rejected_params = {"max_tokens"}
    llm_server.script(answer(GOOD), answer(GOOD))
    with client_for(llm_server) as client:
        client.complete_json(Role.REWRITE, ASK, Claim)
        client.complete_json(Role.REWRITE, ASK, Claim)
    bodies = [r.body for r in llm_server.requests]
    assert "max_tokens" in bodies[0] and "max_completion_tokens" not in bodies[0]
    assert all("max_completion_tokens" in b and "max_tokens" not in b for b in bodies[1:])
    assert len(bodies) == 3  # one refusal, then every request right


def test_temperature_rejected_is_dropped(llm_server: ScriptedLLMServer) -> None:
    llm_server.rejected_params = {"temperature"}
    llm_server.script(answer(GOOD))
    with client_for(llm_server, temperature=0.0) as client:
        client.complete_json(Role.VERIFY, ASK, Claim)
    assert "temperature" in llm_server.requests[0].body and "temperature" not in llm_server.requests[1].body


def test_every_request_carries_an_output_cap_sized_to_its_schema(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer(GOOD))
    with client_for(llm_server) as client:
        client.complete_json(Role.VERIFY, ASK, Claim)
    assert llm_server.requests[0].body["max_tokens"] == output_cap(Role.VERIFY, "Claim", None)


def test_outcomes_are_counted_per_role(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer(GOOD), fenced(GOOD), malformed({"claim": "ok", "score": 0.5}),
                      answer({"wrong": 1}), answer(GOOD), answer({"wrong": 1}), answer({"wrong": 2}))
    with client_for(llm_server) as client:
        for _ in range(4):
            client.complete_json(Role.EXTRACT, ASK, Claim)
        with pytest.raises(LLMError):
            client.complete_json(Role.EXTRACT, ASK, Claim)
        usage = client.usage_report()["extract"]
        reason = client.unusable_reason()
    assert (usage["valid_first"], usage["repaired"], usage["reask_ok"], usage["fallbacks"]) == (1, 2, 1, 1)
    assert reason is not None and reason.startswith("extract: ") and "re-ask" in reason


def test_nothing_listening_is_one_clear_line() -> None:
    client = LLMClient(LLMConfig(base_url="http://127.0.0.1:9/v1", model="m", timeout_s=2), max_retries=0)
    with client, pytest.raises(LLMError, match=r"cannot connect to http://127\.0\.0\.1:9/v1"):
        client.complete_json(Role.PLANNER, ASK, Claim)
    assert "OPENRESEARCH_LLM_BASE_URL" in (client.unusable_reason() or "")


def test_max_concurrency_queues_requests_in_the_client_not_on_the_server(llm_server: ScriptedLLMServer) -> None:
    from concurrent.futures import ThreadPoolExecutor
    llm_server.latency_s = 0.2
    llm_server.script(answer(GOOD, repeat=True))
    client = LLMClient(LLMConfig(base_url=llm_server.base_url, model="m", timeout_s=0.5), max_concurrency=1,
                       max_retries=0)
    with client, ThreadPoolExecutor(4) as pool:  # 4 x 0.2 s in one slot: a server-side queue would time out
        results = list(pool.map(lambda _i: client.complete_json(Role.VERIFY, ASK, Claim), range(4)))
    assert len(results) == 4 and llm_server.max_concurrent == 1


def test_roles_left_out_of_llm_roles_take_the_deterministic_path_without_a_call(
        llm_server: ScriptedLLMServer, tmp_path: Path) -> None:
    from openresearch.config import Settings
    settings = Settings(data_dir=tmp_path, llm_base_url=llm_server.base_url, llm_model="m",  # type: ignore[call-arg]
                        llm_roles="planner, rewrite")
    llm_server.script(answer(GOOD))
    client = LLMClient.from_settings(settings)
    assert client is not None
    with client:
        assert client.complete_json(Role.PLANNER, ASK, Claim).claim == "ok"
        with pytest.raises(LLMError, match="not used for this role"):
            client.complete_json(Role.EXTRACT, ASK, Claim)
        usage = client.usage_report()
    assert len(llm_server.requests) == 1 and usage["extract"]["calls"] == 0 and usage["extract"]["fallbacks"] == 1
