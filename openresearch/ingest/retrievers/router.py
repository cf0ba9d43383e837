"""Which retrievers serve which source types (pure: the planner's source types -> retriever names)."""

from __future__ import annotations

from collections.abc import Iterable

from openresearch.errors import InputError

ACADEMIC = ("arxiv", "semantic_scholar", "openalex")


def route(source_types: Iterable[str], *, searxng_url: str | None = None) -> list[str]:
    """Retriever names for the source types, in order, without duplicates.

    web -> searxng, or the keyless Wikipedia API when no SearXNG is configured;
    academic -> arXiv, Semantic Scholar, OpenAlex; internal -> the graph-backed "local" retriever.
    """
    names: list[str] = []
    for kind in source_types:
        kind = kind.strip().lower()
        if kind == "web":
            names.append("searxng" if searxng_url else "wikipedia")
        elif kind == "academic":
            names.extend(ACADEMIC)
        elif kind == "internal":
            names.append("local")
        else:
            raise InputError(f"unknown source type {kind!r} (expected web, academic or internal)")
    return list(dict.fromkeys(names))
