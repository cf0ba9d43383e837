"""Pure helpers that turn a chat model's answer into a JSON value (no I/O, tested without a server).

Order matters: reasoning blocks go first (they often contain draft JSON), then fences, then the first
balanced object/array is taken and, only if strict parsing fails, repaired token by token.
"""

from __future__ import annotations

import json
import re
from typing import Any

_THINK_BLOCK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.IGNORECASE | re.DOTALL)
_THINK_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</(think|thinking|reasoning)>", re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*[A-Za-z0-9_-]*[ \t]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_REFUSAL = re.compile(
    r"\b(I\s*(?:can(?:no|')t|cannot|am\s+(?:not\s+able|unable)|'m\s+(?:not\s+able|unable)|won't|will\s+not)"
    r"\s+(?:help|assist|comply|provide|do\s+that|fulfil)|I'm\s+sorry,?\s+but|as\s+an\s+AI)"
    r"|抱歉|我无法|我不能",
    re.IGNORECASE,
)
_PUNCT = "{}[],:"
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/", "\\": "\\", '"': '"', "'": "'"}
_WORD_END = set(_PUNCT) | set(" \t\r\n\"'/")


class JSONExtractError(ValueError):
    """No usable JSON value in the text."""


def strip_think(text: str) -> str:
    """Drop reasoning blocks; an orphan closing tag means everything before it was reasoning (R1 style)."""
    text = _THINK_BLOCK.sub("", text)
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end():]
    opened = _THINK_OPEN.search(text)
    if opened:  # unterminated reasoning: the answer never started
        text = text[: opened.start()]
    return text.strip()


def strip_fences(text: str) -> str:
    """Return the first fenced block that holds JSON-looking text, else the text unchanged."""
    for m in _FENCE.finditer(text):
        body = m.group(1).strip()
        if body[:1] in "{[":
            return body
    return text


def looks_like_refusal(text: str) -> bool:
    return bool(_REFUSAL.search(text))


def extract_json(text: str, *, want: str = "object") -> Any:
    """Parse the first JSON value in a model answer. `want` is "object", "array" or "any".

    Raises JSONExtractError when nothing parseable is found.
    """
    body = strip_fences(strip_think(text))
    starts = {"object": "{", "array": "[", "any": "{["}[want]
    idx = next((i for i, ch in enumerate(body) if ch in starts), -1)
    if idx < 0:
        raise JSONExtractError("no JSON object or array in the answer")
    try:
        value, _ = json.JSONDecoder().raw_decode(body, idx)
        return value
    except json.JSONDecodeError:
        pass
    repaired = repair_json(body[idx:])
    try:
        return json.loads(repaired)
    except json.JSONDecodeError as exc:
        raise JSONExtractError(f"unrepairable JSON: {exc.msg} at {exc.pos}") from exc


def _tokens(text: str) -> list[tuple[str, str]]:
    """Lex the loose JSON dialects models write: ('p', punct) ('s', decoded string) ('w', bare word).

    Stops after the first top-level value closes, so trailing prose is ignored.
    """
    out: list[tuple[str, str]] = []
    depth, i, n = 0, 0, len(text)
    while i < n:
        ch = text[i]
        if ch in " \t\r\n":
            i += 1
        elif text.startswith("//", i):
            nl = text.find("\n", i)
            i = n if nl < 0 else nl + 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif ch in _PUNCT:
            out.append(("p", ch))
            depth += 1 if ch in "{[" else -1 if ch in "}]" else 0
            i += 1
            if depth <= 0 and ch in "}]":
                break
        elif ch in "\"'":
            value, i = _read_string(text, i)
            out.append(("s", value))
        else:
            j = i
            while j < n and text[j] not in _WORD_END:
                j += 1
            out.append(("w", text[i:j] or ch))
            i = max(j, i + 1)
    return out


def _read_string(text: str, i: int) -> tuple[str, int]:
    """Read a quoted string starting at text[i]; an unterminated one (truncated answer) runs to the end."""
    quote, buf, j, n = text[i], [], i + 1, len(text)
    while j < n:
        ch = text[j]
        if ch == "\\" and j + 1 < n:
            nxt = text[j + 1]
            if nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[j + 2: j + 6]):
                buf.append(chr(int(text[j + 2: j + 6], 16)))
                j += 6
                continue
            buf.append(_ESCAPES.get(nxt, "\\" + nxt))
            j += 2
            continue
        if ch == quote:
            return "".join(buf), j + 1
        buf.append(ch)
        j += 1
    return "".join(buf), n


def _word_value(word: str) -> str:
    lowered = word.lower()
    if lowered in ("true", "false", "null"):
        return lowered
    if word in ("True", "False", "None"):
        return {"True": "true", "False": "false", "None": "null"}[word]
    if lowered in ("nan", "infinity", "-infinity", "undefined"):
        return "null"
    try:
        return json.dumps(float(word)) if not re.fullmatch(r"-?\d+", word) else str(int(word))
    except ValueError:
        return json.dumps(word)  # a bare word in value position is most likely an unquoted string


def repair_json(text: str) -> str:
    """Rebuild loose JSON: quote keys and single-quoted strings, drop trailing commas and comments,
    insert missing commas/colons, and close whatever a truncated answer left open."""
    out: list[str] = []
    stack: list[str] = []  # open containers, "{" or "["
    # per container: "key" / "colon" / "value" (expecting that next) or "after" (an item just ended)
    states: list[str] = []
    comma = False  # a comma was seen since the last item: tells "missing value" from "missing colon"

    for kind, tok in _tokens(text):
        if kind == "p" and tok == ",":
            comma = True
            continue
        if kind == "p" and tok == ":":
            if states and states[-1] == "colon":
                out.append(":")
                states[-1] = "value"
            continue
        if kind == "p" and tok in "}]":
            if not stack:
                break
            _close(out, stack, states)
            _after(states)
            comma = False
            continue
        # an item: container opener, string or bare word
        if states and states[-1] == "after":  # commas are emitted here, so trailing ones vanish
            out.append(",")
            states[-1] = "key" if stack[-1] == "{" else "value"
        state = states[-1] if states else "value"
        if state == "colon":
            if comma or kind == "p":  # `"a", "b": 1` lost a value; `"a" {` lost a colon
                out.append(":null," if comma and kind != "p" else ":")
                if comma and kind != "p":
                    out.append(json.dumps(tok))
                    comma = False
                    continue
                state = states[-1] = "value"
            else:  # `"a" "b"`: lost a colon
                out.append(":")
                state = states[-1] = "value"
        comma = False
        if kind == "p":
            if state == "key":  # a container where a key belongs: nothing sensible follows
                break
            out.append(tok)
            stack.append(tok)
            states.append("key" if tok == "{" else "value")
        elif state == "key":
            out.append(json.dumps(tok))
            states[-1] = "colon"
        else:
            out.append(json.dumps(tok) if kind == "s" else _word_value(tok))
            _after(states)
    while stack:
        _close(out, stack, states)
        _after(states)
    return "".join(out)


def _after(states: list[str]) -> None:
    if states:
        states[-1] = "after"


def _close(out: list[str], stack: list[str], states: list[str]) -> None:
    state = states.pop()
    if state == "colon":
        out.append(":null")
    elif state == "value" and stack[-1] == "{":
        out.append("null")
    out.append("}" if stack.pop() == "{" else "]")
