"""The shared services a research run uses, opened once from `Settings` by `open_services`: the graph, the
embedder and the factory of each run's roles (the LLM client lives in a run's `Components`, because its hard
budget is per run). The CLI, the API and monitoring all open them here."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from openresearch.agents.run.components import Components
from openresearch.agents.run.run_config import RunOptions
from openresearch.config import Settings, get_settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder, SentenceTransformerEmbedder


def default_embedder(settings: Settings) -> Embedder:
    return SentenceTransformerEmbedder(None if settings.embedding_model == "all-MiniLM-L6-v2"
                                       else settings.embedding_model, cache_dir=settings.cache_dir / "embeddings")


@dataclass
class Services:
    settings: Settings
    store: GraphStore
    embedder: Embedder
    build_components: Callable[[RunOptions], Components] | None = None  # tests inject scripted roles here

    def components(self, options: RunOptions) -> Components:
        """A run's roles, with an LLM client holding that run's budget (deterministic ones when offline)."""
        if self.build_components is not None:
            return self.build_components(options)
        return Components.build(self.settings, self.embedder, offline=options.offline, caps=options.caps,
                                workers=options.workers)


@contextmanager
def open_services(settings: Settings | None = None, *, graph: str | None = None, store: GraphStore | None = None,
                  embedder: Embedder | None = None,
                  build_components: Callable[[RunOptions], Components] | None = None) -> Iterator[Services]:
    """Open the graph (from `graph`, else the settings' URL, else the embedded FalkorDB) with its schema applied,
    and the embedder; close what was opened here on exit. A `store` passed in is used and left open."""
    from openresearch.graph.connect import open_store

    settings = settings or get_settings()
    own = store is None
    st = store if store is not None else open_store(settings, graph)
    try:
        if own:
            st.init_schema()
        yield Services(settings, st, embedder or default_embedder(settings), build_components)
    finally:
        if own:
            st.close()
