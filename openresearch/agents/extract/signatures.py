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
_PARAMETER = re.compile(r"(?:^|[(,*\\])\s*[a-z_][a-z0-9_]*\s*(?::[^=,()]+)?=")


def states_defaults(piece: str) -> bool:
    """Whether a unit is a signature that gives two or more parameters a number ("Frobber(*, limit=100, ttl=10)"):
    a statement of defaults, however much it looks like code."""
    m = _OPENS.match(piece)
    return m is not None and len(_NUMBERED.findall(piece, m.end() - 1)) >= 2


def signature_defaults(text: str, entity: str | None) -> list[ObservationIn] | None:
    """The numeric defaults a signature gives its parameters, each of `entity` with the condition "default, <the
    callable>": ".. class:: Frobber(*, limit=100, idle_timeout=15)" -> limit = 100 and idle_timeout = 15. None when
    `text` opens with no signature of two or more defaulted parameters, or without an entity."""
    m = _OPENS.match(text)
    if m is None or not entity or len(_PARAMETER.findall(text, m.end() - 1)) < 2:
        return None
    callable_name = m.group("callable").split(".")[-1]
    out = [ObservationIn(entity=entity, metric=term_metric(p.group("key")), value=p.group("value"), unit=None,
                         condition=f"default, {callable_name}")
           for p in _NUMBERED.finditer(text, m.end() - 1)]
    return out or None
