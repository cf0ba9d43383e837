"""Pure JSON extraction and repair for model answers."""

from __future__ import annotations

from typing import Any

import pytest

from openresearch.agents.llm.parse import (
    JSONExtractError,
    extract_json,
    looks_like_refusal,
    repair_json,
    strip_fences,
    strip_think,
)


@pytest.mark.parametrize(("text", "expected"), [
    ("<think>plan {\"a\": 0}</think>{\"a\": 1}", '{"a": 1}'),
    ("<THINKING>x</THINKING> answer", "answer"),
    ("r1 style reasoning {\"a\": 0}</think>\n{\"a\": 2}", '{"a": 2}'),
    ("{\"a\": 3}<think>never closed", '{"a": 3}'),
])
def test_strip_think(text: str, expected: str) -> None:
    assert strip_think(text) == expected


def test_strip_fences_takes_the_first_json_block() -> None:
    text = "```python\nprint(1)\n```\nthen\n```json\n{\"a\": 1}\n```"
    assert strip_fences(text) == '{"a": 1}'
    assert strip_fences("```\n[1, 2]") == "[1, 2]"  # an unclosed fence (truncated answer)


@pytest.mark.parametrize(("text", "expected"), [
    ('{"a": 1, "b": [1, 2,],}', {"a": 1, "b": [1, 2]}),
    ("{'a': 'it\\'s', b: True, c: None}", {"a": "it's", "b": True, "c": None}),
    ("{a: 1 b: 2}", {"a": 1, "b": 2}),
    ('{"a": [1, 2, {"b": "xy', {"a": [1, 2, {"b": "xy"}]}),
    ('{"a": 1, "b":', {"a": 1, "b": None}),
    ('{"a" "x", "c": 1}', {"a": "x", "c": 1}),
    ('{"a", "b": 1}', {"a": None, "b": 1}),
    ('// note\n{"a": /* inline */ 1, "n": NaN}', {"a": 1, "n": None}),
    ('{"n": 1.5e3, "m": -2, "s": +3, "t": .5}', {"n": 1500.0, "m": -2, "s": 3.0, "t": 0.5}),
    ('{"a": "line1\nline2", "u": "\\u00e9"}', {"a": "line1\nline2", "u": "é"}),
    ('{"status": ok}', {"status": "ok"}),
])
def test_repairs(text: str, expected: Any) -> None:
    assert extract_json(text) == expected


def test_valid_json_followed_by_prose_is_not_rewritten() -> None:
    text = 'Sure! {"q": "it\'s {braced}", "x": [1]} Let me know.'
    assert extract_json(text) == {"q": "it's {braced}", "x": [1]}


def test_want_object_skips_citation_brackets() -> None:
    assert extract_json("[1] says {\"a\": 1}") == {"a": 1}
    assert extract_json("[1] says {\"a\": 1}", want="any") == [1]
    assert extract_json("list: [1, 2", want="array") == [1, 2]


def test_repair_json_output_is_strict_json() -> None:
    assert repair_json("{a: [1, 2,], 'b': {c: 'd'") == '{"a":[1,2],"b":{"c":"d"}}'


def test_no_json_raises() -> None:
    with pytest.raises(JSONExtractError):
        extract_json("no braces here")


@pytest.mark.parametrize(("text", "refused"), [
    ("I'm sorry, but I can't help with that.", True),
    ("I cannot assist with this request.", True),
    ("As an AI, I won't do that.", True),
    ("抱歉，我无法回答。", True),
    ("The report says 60% of users can't log in.", False),
])
def test_looks_like_refusal(text: str, refused: bool) -> None:
    assert looks_like_refusal(text) is refused
