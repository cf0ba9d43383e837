"""Strict prompt templates: every package prompt loads, and rendering rejects wrong variables."""

from __future__ import annotations

import pytest

from openresearch.agents.llm import prompt
from openresearch.agents.llm.prompt import PromptError


@pytest.mark.parametrize("name", prompt.names())
def test_every_prompt_file_loads(name: str) -> None:
    loaded = prompt.load(name)
    assert loaded.purpose
    assert loaded.render(**{v: "x" for v in loaded.variables})


def test_render_rejects_missing_and_unused_variables() -> None:
    with pytest.raises(PromptError, match=r"missing \['schema'\]"):
        prompt.render("json_instructions")
    with pytest.raises(PromptError, match=r"unused \['extra'\]"):
        prompt.render("json_instructions", schema="{}", extra=1)
    with pytest.raises(PromptError, match="no prompt named"):
        prompt.render("nope")


def test_values_are_substituted_once() -> None:
    out = prompt.render("json_reask", error="costs $schema and ${x}", schema='{"type": "object"}')
    assert "costs $schema and ${x}" in out and '{"type": "object"}' in out


@pytest.mark.parametrize(("text", "problem"), [
    ("# purpose: p\n\nhello $name", "header must declare"),
    ("# purpose: p\n# vars: a\n\nhello $b", "header vars"),
    ("# purpose: p\n# vars:\n\ncosts $5", "invalid placeholder"),
])
def test_malformed_prompt_files_are_rejected(text: str, problem: str) -> None:
    with pytest.raises(PromptError, match=problem):
        prompt.parse("bad", text)


def test_literal_dollar() -> None:
    assert prompt.parse("ok", "# purpose: p\n# vars: n\n\n$$5 for $n").render(n=3) == "$5 for 3"
