"""Strict prompt rendering: templates are package files under prompts/, one per prompt.

Each file starts with a header that declares its inputs, like the Cypher catalogue:

    # purpose: what the prompt asks for
    # vars: question, evidence

then a blank line and the body, with `$name` / `${name}` placeholders (`$$` is a literal dollar).
`$` placeholders rather than `{}` because prompts quote JSON, and values are substituted once, so
source text containing `$x` is never re-expanded. Rendering raises PromptError on a missing or an unused
variable (neo4j-graphrag's PromptTemplate habit): a silently dropped input is a silent quality bug.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Template

from openresearch.errors import ConfigError

_HEADER = re.compile(r"#\s*(purpose|vars):(.*)")
_SUFFIX = ".txt"


class PromptError(ConfigError):
    """A prompt file is malformed, or render() got the wrong variables."""


@dataclass(frozen=True)
class Prompt:
    name: str
    purpose: str
    variables: frozenset[str]
    template: Template

    def render(self, **values: object) -> str:
        missing = self.variables - values.keys()
        unused = values.keys() - self.variables
        if missing or unused:
            raise PromptError(f"prompt {self.name!r}: missing {sorted(missing)}, unused {sorted(unused)}")
        return self.template.substitute({k: str(v) for k, v in values.items()})


def _dir() -> resources.abc.Traversable:
    return resources.files("openresearch") / "agents" / "llm" / "prompts"


def names() -> list[str]:
    return sorted(p.name[: -len(_SUFFIX)] for p in _dir().iterdir() if p.name.endswith(_SUFFIX))


def parse(name: str, text: str) -> Prompt:
    """Split header from body and check the declared variables against the placeholders."""
    lines = text.splitlines(keepends=True)
    header: dict[str, str] = {}
    while lines and (m := _HEADER.fullmatch(lines[0].strip())):
        header[m.group(1)] = m.group(2).strip()
        lines.pop(0)
    if set(header) != {"purpose", "vars"}:
        raise PromptError(f"prompt {name!r}: header must declare '# purpose:' and '# vars:'")
    if lines and not lines[0].strip():
        lines.pop(0)
    template = Template("".join(lines).rstrip("\n"))
    if not template.is_valid():
        raise PromptError(f"prompt {name!r}: invalid placeholder (write $$ for a literal dollar)")
    declared = frozenset(v.strip() for v in header["vars"].split(",") if v.strip())
    used = frozenset(template.get_identifiers())
    if declared != used:
        raise PromptError(f"prompt {name!r}: header vars {sorted(declared)} != placeholders {sorted(used)}")
    return Prompt(name, header["purpose"], declared, template)


@cache
def load(name: str) -> Prompt:
    path = _dir() / f"{name}{_SUFFIX}"
    if not path.is_file():
        raise PromptError(f"no prompt named {name!r} (known: {', '.join(names())})")
    return parse(name, path.read_text(encoding="utf-8"))


def render(name: str, **values: object) -> str:
    """Render prompts/<name>.txt; raises PromptError on a missing or unused variable."""
    return load(name).render(**values)
