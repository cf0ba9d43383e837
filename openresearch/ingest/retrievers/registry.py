"""Retriever registry: `register`, `get`, `available`, `create`, with entry-point discovery.

Built-ins are entry points too, declared in code with the same "module:attr" strings a third-party
package writes under `[project.entry-points."openresearch.retrievers"]`, and loaded by the same code
path, so a plugin and a built-in are indistinguishable to the rest of the system. A factory takes
RetrieverDeps and returns a Retriever. An explicit `register()` beats any entry point of that name.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points

from openresearch.errors import ConfigError
from openresearch.ingest.retrievers.base import Retriever, RetrieverDeps

log = logging.getLogger(__name__)

GROUP = "openresearch.retrievers"
RetrieverFactory = Callable[[RetrieverDeps], Retriever]

BUILTINS = (
    EntryPoint("searxng", "openresearch.ingest.retrievers.searxng:factory", GROUP),
    EntryPoint("arxiv", "openresearch.ingest.retrievers.arxiv:factory", GROUP),
    EntryPoint("semantic_scholar", "openresearch.ingest.retrievers.semantic_scholar:factory", GROUP),
    EntryPoint("openalex", "openresearch.ingest.retrievers.openalex:factory", GROUP),
    EntryPoint("wikipedia", "openresearch.ingest.retrievers.wikipedia:factory", GROUP),
)
# Reserved for the graph-backed local retriever, which registers itself when the graph layer exists.
RESERVED = frozenset({"local"})

_explicit: dict[str, RetrieverFactory] = {}
_entry_points: dict[str, EntryPoint] | None = None


def register(name: str, factory: RetrieverFactory, *, replace: bool = False) -> None:
    if name in _explicit and not replace:
        raise ConfigError(f"retriever {name!r} is already registered")
    _explicit[name] = factory


def unregister(name: str) -> None:
    _explicit.pop(name, None)


def _discovered() -> dict[str, EntryPoint]:
    global _entry_points
    if _entry_points is None:
        found = {ep.name: ep for ep in BUILTINS}
        for ep in entry_points(group=GROUP):
            if ep.name in found and found[ep.name].value != ep.value:
                log.info("retriever %r from %s overrides %s", ep.name, ep.value, found[ep.name].value)
            found[ep.name] = ep
        _entry_points = found
    return _entry_points


def refresh() -> None:
    """Forget discovered entry points (after installing a plugin in the same process, or in tests)."""
    global _entry_points
    _entry_points = None


def available() -> list[str]:
    return sorted(set(_discovered()) | set(_explicit))


def get(name: str) -> RetrieverFactory:
    if name in _explicit:
        return _explicit[name]
    ep = _discovered().get(name)
    if ep is None:
        if name in RESERVED:
            raise ConfigError(f"retriever {name!r} is reserved for the graph-backed retriever, not registered yet")
        raise ConfigError(f"unknown retriever {name!r}; available: {', '.join(available())}")
    factory = ep.load()
    if not callable(factory):
        raise ConfigError(f"entry point {ep.value!r} for retriever {name!r} is not callable")
    loaded: RetrieverFactory = factory
    return loaded


def create(name: str, deps: RetrieverDeps) -> Retriever:
    retriever = get(name)(deps)
    if not isinstance(retriever, Retriever):
        raise ConfigError(f"factory for {name!r} returned {type(retriever).__name__}, not a Retriever")
    return retriever
