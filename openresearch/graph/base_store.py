"""The catalogue plumbing shared by the GraphStore parts: run a named query with keyword params."""

from __future__ import annotations

from typing import Any

from openresearch.cypher import Catalogue
from openresearch.graph.backend import GraphBackend, Row


class CatalogueStore:
    backend: GraphBackend
    catalogue: Catalogue

    def _read(self, name: str, **params: Any) -> list[Row]:
        return self.backend.read(self.catalogue[name].text, params)

    def _write(self, name: str, **params: Any) -> list[Row]:
        return self.backend.write(self.catalogue[name].text, params)
