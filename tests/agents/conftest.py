"""Fixtures for the LLM layer: a real scripted OpenAI-compatible endpoint on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

# tests/ has no __init__.py, so pytest puts this folder on sys.path; if tests/ ever becomes a package,
# import it as tests.agents.llm_server instead
from llm_server import ScriptedLLMServer


@pytest.fixture
def llm_server() -> Iterator[ScriptedLLMServer]:
    """A fresh server per test: an empty script, `latency_s` 0, all requests recorded."""
    with ScriptedLLMServer() as server:
        yield server
