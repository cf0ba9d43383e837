"""An API reference's signatures: the defaults a callable's parameters take.

A reference page documents a function or a class by its signature, as an rst directive (".. class::
Frobber(*, limit=100, idle_timeout=15)"), a Markdown code line or plain text ("Frobber(limit=100, idle_timeout=15)").
Each parameter written with a number is a default of that parameter, of the product the page documents, under the
callable that takes it (two callables may default one parameter differently). The shape decides; no product, class
or parameter is named here.
"""

from __future__ import annotations

import re

from openresearch.agents.extract.definitions import term_metric
from openresearch.models import ObservationIn

# "[.. class::] Name(" or "Name.method(": where a signature opens, at the start of the unit
_OPENS = re.compile(r"\s*(?:\.\.\s+[a-z]+(?:method|function|class|attribute)?::\s+|(?:async\s+)?(?:def|class)\s+)?"
                    r"(?P<callable>[A-Za-z_][\w.]*)\s*\(")
# one parameter with a number for its default: "limit=100", "ttl: float = 10", "happy_eyeballs_delay=0.25"
_NUMBERED = re.compile(r"(?:(?<=[(,*\\])|(?<=\s))\s*(?P<key>[a-z_][a-z0-9_]*)\s*(?::\s*[\w.\[\], |]+?)?\s*=\s*"
                       r"(?P<value>-?\d+(?:\.\d+)?)(?=\s*(?:[,)\\]|$))")
_LITERAL_ARGUMENT = re.compile(r"\s*(?:['\"]|-?\d)")  # a call's first argument, a value: no parameter's name
_PARAMETER = re.compile(r"(?:^|[(,*\\])\s*[a-z_][a-z0-9_]*\s*(?::[^=,()]+)?=")


def _signature(piece: str) -> re.Match[str] | None:
    """The opening of a signature (its callable, its parameters from `end() - 1`), or None: a unit that opens with a
    callable and gives two or more parameters a default ("Frobber(*, limit=100, loop=None)")."""
    m = _OPENS.match(piece)
    if m is not None and (">>>" in piece or _LITERAL_ARGUMENT.match(piece, m.end())):
        return None  # a call at a prompt, or one that passes a value ("frob.touch('key', ttl=1)"): no signature
    return m if m is not None and len(_PARAMETER.findall(piece, m.end() - 1)) >= 2 else None


def states_defaults(piece: str) -> bool:
    """Whether a unit is a signature that gives a parameter a number ("Frobber(*, limit=100, loop=None)"): a
    statement of defaults, however much it looks like code."""
    return (m := _signature(piece)) is not None and _NUMBERED.search(piece, m.end() - 1) is not None


def defaulted_keys(piece: str) -> list[str]:
    """The metric keys of the parameters a signature gives a number ("Frobber(*, limit=100, ttl=10)" -> limit,
    ttl); [] for no signature."""
    m = _signature(piece)
    return [term_metric(p.group("key")) for p in _NUMBERED.finditer(piece, m.end() - 1)] if m else []


def signature_defaults(text: str, entity: str | None) -> list[ObservationIn] | None:
    """The numeric defaults a signature gives its parameters, each of `entity` with the condition "default, <the
    callable>": ".. class:: Frobber(*, limit=100, idle_timeout=15)" -> limit = 100 and idle_timeout = 15. None when
    `text` opens with no signature of two or more defaulted parameters, or without an entity."""
    if (m := _signature(text)) is None or not entity:
        return None
    callable_name = m.group("callable").split(".")[-1]
    out = [ObservationIn(entity=entity, metric=term_metric(p.group("key")), value=p.group("value"), unit=None,
                         condition=f"default, {callable_name}")
           for p in _NUMBERED.finditer(text, m.end() - 1)]
    return out or None
