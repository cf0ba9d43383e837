"""LLMClient against a real local OpenAI-compatible endpoint (the official SDK, no mocks)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from llm_server import (  # tests/agents is on sys.path: pytest's rootdir-less import mode
    Reply,
    ScriptedLLMServer,
    answer,
    fenced,
    malformed,
    rate_limited,
    refusal,
    server_error,
    slow,
    think,
    truncated,
)
from pydantic import BaseModel, RootModel

from openresearch.agents.llm.budget import Budget
from openresearch.agents.llm.client import LLMClient
from openresearch.agents.llm.config import LLMConfig, Role
from openresearch.errors import LLMError

pytestmark = pytest.mark.integration
GOOD = {"claim": "FalkorDB is embedded", "score": 3}
ASK = [{"role": "system", "content": "You extract claims."},
       {"role": "user", "content": "Extract one claim."}]


class Claim(BaseModel):
    claim: str
    score: int


EXPECTED = Claim(claim="FalkorDB is embedded", score=3)


class Claims(RootModel[list[Claim]]):
    pass


class Sleeps(list[float]):
    """Records requested back-off delays, and really sleeps so the server sees the gap."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)
        time.sleep(seconds)


def make_client(server: ScriptedLLMServer, budget: Budget | None = None,
                roles: dict[Role, LLMConfig] | None = None, sleeps: Sleeps | None = None,
                **cfg: Any) -> LLMClient:
    config = LLMConfig(base_url=server.base_url, model=cfg.pop("model", "default-model"),
                       timeout_s=cfg.pop("timeout_s", 5.0), **cfg)
    return LLMClient(config, roles, budget=budget, max_retries=2, backoff_base_s=0.01,
                     sleep=sleeps if sleeps is not None else Sleeps())


def test_valid_json_uses_json_schema_and_role_header(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer(GOOD))
    with make_client(llm_server) as client:
        assert client.complete_json(Role.EXTRACT, ASK, Claim) == EXPECTED
    (req,) = llm_server.requests
    assert req.role == "extract" and req.model == "default-model"
    assert req.response_format == "json_schema"
    assert req.body["response_format"]["json_schema"]["schema"]["required"] == ["claim", "score"]
    # the server enforces the schema: its text is not repeated in the prompt (prompt tokens are slow on a CPU)
    assert "JSON Schema" not in req.last_user and "single JSON object" in req.last_user
    assert req.messages[0]["role"] == "system"


def test_json_object_mode_puts_the_schema_in_the_prompt(llm_server: ScriptedLLMServer) -> None:
    llm_server.supported_formats = {"json_object", "text"}
    llm_server.script(answer(GOOD))
    with make_client(llm_server) as client:
        client.complete_json(Role.EXTRACT, ASK, Claim)
    rejected, used = llm_server.requests
    assert "JSON Schema" not in rejected.last_user and used.response_format == "json_object"
    assert "JSON Schema" in used.last_user and '"required": ["claim", "score"]' in used.last_user


@pytest.mark.parametrize("reply", [
    think(GOOD),
    fenced(GOOD),
    answer("<think>draft {'claim': 'x'}</think>```json\n" + json.dumps(GOOD) + "\n```"),
    malformed(GOOD),  # unquoted keys, single quotes, trailing comma
    truncated(GOOD),  # the closing brace lost to max_tokens
], ids=["think", "fenced", "think+fenced", "malformed", "truncated"])
def test_messy_answers_are_cleaned_without_reask(llm_server: ScriptedLLMServer, reply: Reply) -> None:
    llm_server.script(reply)
    with make_client(llm_server) as client:
        assert client.complete_json(Role.EXTRACT, ASK, Claim) == EXPECTED
        assert client.usage_report()["extract"]["reasks"] == 0
    assert len(llm_server.requests) == 1


def test_array_schema(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer("Claims: [" + json.dumps(GOOD) + ", {'claim': 'b', 'score': 1}]"))
    with make_client(llm_server) as client:
        out = client.complete_json(Role.PLANNER, ASK, Claims)
    assert [c.claim for c in out.root] == ["FalkorDB is embedded", "b"]
    assert llm_server.requests[0].response_format is None  # structured output needs an object root


def test_validation_error_reasks_once_and_succeeds(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer({"claim": "no score"}), answer(GOOD))
    with make_client(llm_server) as client:
        assert client.complete_json(Role.EXTRACT, ASK, Claim) == EXPECTED
        assert client.usage_report()["extract"]["reasks"] == 1
    first, second = llm_server.requests
    assert second.messages[:-2] == first.messages
    assert second.messages[-2] == {"role": "assistant", "content": '{"claim": "no score"}'}
    assert "score" in second.last_user and "Field required" in second.last_user


def test_no_json_at_all_is_reasked(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer("The claim is that FalkorDB is embedded."), answer(GOOD))
    with make_client(llm_server) as client:
        assert client.complete_json(Role.EXTRACT, ASK, Claim).score == 3
    assert "no JSON object" in llm_server.requests[1].last_user


def test_second_bad_answer_raises_llm_error(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer({"claim": "x"}), answer({"claim": "x", "score": "many"}), answer(GOOD))
    with make_client(llm_server) as client, pytest.raises(LLMError, match="after one re-ask"):
        client.complete_json(Role.EXTRACT, ASK, Claim)
    assert len(llm_server.requests) == 2 and llm_server.pending() == 1


@pytest.mark.parametrize("reply", [refusal(), refusal("I cannot help with that request.", structured=False),
                                   refusal("抱歉，我无法回答这个问题。", structured=False)],
                         ids=["structured", "text", "chinese"])
def test_refusal_raises_without_reask(llm_server: ScriptedLLMServer, reply: Reply) -> None:
    llm_server.script(reply, answer(GOOD))
    with make_client(llm_server) as client, pytest.raises(LLMError, match="refused"):
        client.complete_json(Role.WRITE, ASK, Claim)
    assert len(llm_server.requests) == 1


def test_a_timeout_is_cancelled_then_retried_once_then_raises(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(*[slow(GOOD, delay_s=2.0) for _ in range(3)])
    with make_client(llm_server, timeout_s=0.2) as client:
        with pytest.raises(LLMError, match=r"timed out after 0\.2 s"):
            client.complete_json(Role.EXTRACT, ASK, Claim)
        usage = client.usage_report()["extract"]
    # a model too slow for the timeout is slow every time: one retry, not two
    assert len(llm_server.requests) == 2
    assert (usage["calls"], usage["failures"], usage["retries"], usage["fallbacks"]) == (2, 2, 1, 1)
    # each timed-out request's connection was closed, so the server stopped it before the retry came
    deadline = time.monotonic() + 2
    while llm_server.disconnects < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert llm_server.disconnects == 2
    assert llm_server.max_concurrent == 1


def test_timeout_then_success(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(slow(GOOD, delay_s=2.0), answer(GOOD))
    with make_client(llm_server, timeout_s=0.2) as client:
        assert client.complete_json(Role.EXTRACT, ASK, Claim) == EXPECTED


def test_429_honours_retry_after_then_succeeds(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(rate_limited(retry_after="0.2"), answer(GOOD))
    sleeps = Sleeps()
    with make_client(llm_server, sleeps=sleeps) as client:
        assert client.complete_json(Role.EXTRACT, ASK, Claim) == EXPECTED
    assert sleeps == [0.2]
    first, second = llm_server.requests
    assert second.received_at - first.received_at >= 0.2


def test_429_with_a_long_retry_after_gives_up(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(rate_limited(retry_after="3600"), answer(GOOD))
    with make_client(llm_server) as client, pytest.raises(LLMError, match="HTTP 429"):
        client.complete_text(Role.EXTRACT, ASK)
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize("status", [500, 503])
def test_5xx_is_retried_then_succeeds(llm_server: ScriptedLLMServer, status: int) -> None:
    llm_server.script(server_error(status), answer(GOOD))
    with make_client(llm_server) as client:
        assert client.complete_json(Role.EXTRACT, ASK, Claim) == EXPECTED
        assert client.usage_report()["extract"]["retries"] == 1


def test_garbage_http_body_is_an_llm_error(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(Reply(raw_body="<html>proxy error</html>"))
    with make_client(llm_server) as client, pytest.raises(LLMError):
        client.complete_text(Role.WRITE, ASK)


def test_client_errors_are_not_retried(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(Reply(status=401, error_message="bad key"), answer("never sent"))
    with make_client(llm_server) as client, pytest.raises(LLMError, match="HTTP 401"):
        client.complete_text(Role.WRITE, ASK)
    assert len(llm_server.requests) == 1


def test_json_mode_ladder_falls_back_and_remembers(llm_server: ScriptedLLMServer) -> None:
    llm_server.supported_formats = {"text"}  # an old server: no structured output at all
    llm_server.script(answer(GOOD), answer(GOOD))
    with make_client(llm_server) as client:
        client.complete_json(Role.EXTRACT, ASK, Claim)
        client.complete_json(Role.EXTRACT, ASK, Claim)
    assert [r.response_format for r in llm_server.requests] == ["json_schema", "json_object", None, None]


def test_json_object_mode_when_configured(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer(GOOD))
    with make_client(llm_server, json_mode="json_object") as client:
        client.complete_json(Role.EXTRACT, ASK, Claim)
    assert llm_server.requests[0].response_format == "json_object"


def test_complete_text(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer("<think>hmm</think>\nFalkorDB is embedded [E-1]."), refusal())
    with make_client(llm_server) as client:
        assert client.complete_text(Role.WRITE, ASK) == "FalkorDB is embedded [E-1]."
        with pytest.raises(LLMError, match="refused"):
            client.complete_text(Role.WRITE, ASK)
    assert llm_server.requests[0].response_format is None
    assert llm_server.requests[0].last_user == "Extract one claim."  # no JSON instructions for text


def test_per_role_model_routing(llm_server: ScriptedLLMServer) -> None:
    cheap = LLMConfig(base_url=llm_server.base_url, model="cheap-model", timeout_s=5)
    llm_server.script(answer("rewritten", model="cheap-model", repeat=True),
                      answer("planned", model="default-model", repeat=True))
    with make_client(llm_server, roles={Role.REWRITE: cheap, Role.VERIFY: cheap}) as client:
        assert client.complete_text(Role.REWRITE, ASK) == "rewritten"
        assert client.complete_text(Role.PLANNER, ASK) == "planned"
        assert client.complete_text(Role.VERIFY, ASK) == "rewritten"
        report = client.usage_report()
    assert [(r.role, r.model) for r in llm_server.requests] == [
        ("rewrite", "cheap-model"), ("planner", "default-model"), ("verify", "cheap-model")]
    assert set(report) == {"planner", "rewrite", "verify", "total"}
    assert report["total"]["calls"] == 3


def test_script_matches_by_role_and_regex(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(answer("for the verifier", role="verify"), answer("about graphs", match=r"graph"))
    with make_client(llm_server) as client:
        assert client.complete_text(Role.WRITE, [{"role": "user", "content": "a graph?"}]) == "about graphs"
        assert client.complete_text(Role.VERIFY, ASK) == "for the verifier"
    assert llm_server.pending() == 0
