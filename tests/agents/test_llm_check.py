"""`openresearch llm check` against a scripted endpoint that refuses JSON schema like llama-cpp-python."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from llm_server import RecordedRequest, Reply, ScriptedLLMServer, answer

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]
ANSWERS = {
    "planner": {"candidates": [{"text": "How many crates does the Zorblat 3 hold?", "role": "core"}]},
    "rewrite": {"queries": ["Zorblat 3 crate capacity"]},
    "extract": {"quotes": [{"quote": "It holds up to 40 crates.", "type": "statistic"}]},
    "write": {"sentences": [{"text": "It holds up to 40 crates [E-selftest0001].", "kind": "claim"}]},
    "verify": {"label": "SUPPORTS", "score": 0.9},
}


def responder(req: RecordedRequest) -> Reply:
    if '{"ok": true}' in req.last_user:
        return answer({"ok": True})
    return answer(ANSWERS[req.role or "verify"])


def run_check(server: ScriptedLLMServer, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENRESEARCH_DATA_DIR": str(tmp_path / "data"), "OPENRESEARCH_LLM_BASE_URL": server.base_url,
           "OPENRESEARCH_LLM_MODEL": "scripted"}
    return subprocess.run([sys.executable, "-m", "openresearch.cli", "llm", "check", *args], env=env, text=True,
                          capture_output=True, timeout=120, cwd=REPO)


def test_check_prints_modes_and_one_answer_per_role(llm_server: ScriptedLLMServer, tmp_path: Path) -> None:
    llm_server.supported_formats = {"json_object", "text"}
    llm_server.format_error_status = 500
    llm_server.responder = responder
    proc = run_check(llm_server, tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "json_schema: not usable (HTTP 500" in out and "json_object: accepted" in out
    assert "structured output used by runs: json_object" in out
    for role in ANSWERS:
        assert f"\n{role} (" in out
    assert "FAILED" not in out
    # an unmeasured model does not judge claims in runs, and the check says so and how to change it
    assert "claim judge in runs: offline judge (llm_judge=auto: no judge measurement for scripted" in out
    # learned once: the role calls never sent json_schema after the first refusal
    role_calls = [r for r in llm_server.requests if '{"ok": true}' not in r.last_user]
    assert [r.response_format for r in role_calls].count("json_schema") == 1
    saved = json.loads((tmp_path / "data" / "cache" / "llm_capabilities.json").read_text())
    assert saved[f"{llm_server.base_url}|scripted"]["json_mode"] == "json_object"


def test_check_says_in_one_line_why_the_llm_path_cannot_be_used(tmp_path: Path) -> None:
    env = {**os.environ, "OPENRESEARCH_DATA_DIR": str(tmp_path / "data"),
           "OPENRESEARCH_LLM_BASE_URL": "http://127.0.0.1:9/v1", "OPENRESEARCH_LLM_TIMEOUT_S": "3"}
    proc = subprocess.run([sys.executable, "-m", "openresearch.cli", "llm", "check", "--no-roles"], env=env,
                          text=True, capture_output=True, timeout=120, cwd=REPO)
    assert proc.returncode == 1
    assert "cannot connect to http://127.0.0.1:9/v1" in proc.stdout
    assert proc.stderr.strip().count("\n") == 0 and "cannot be used" in proc.stderr


def test_check_without_an_llm_configured(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENRESEARCH_LLM")}
    env["OPENRESEARCH_DATA_DIR"] = str(tmp_path / "data")
    proc = subprocess.run([sys.executable, "-m", "openresearch.cli", "llm", "check"], env=env, text=True,
                          capture_output=True, timeout=120, cwd=REPO)
    assert proc.returncode == 1 and "no LLM configured" in proc.stderr
