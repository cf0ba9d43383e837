"""Retrievers: one `search(query, k)` interface over web, academic and local sources.

Built-ins and third-party plugins are registered through the same entry-point mechanism
(group `openresearch.retrievers`); see registry.py.
"""

from openresearch.ingest.retrievers.base import Candidate, Retriever, RetrieverDeps
from openresearch.ingest.retrievers.registry import GROUP, available, create, get, register

__all__ = ["GROUP", "Candidate", "Retriever", "RetrieverDeps", "available", "create", "get", "register"]
