"""Shared by the monitoring tests and bench/bench_monitor.py: offline services over one graph, tiny corpora."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.plan.planner import DeterministicPlanner
from openresearch.agents.plan.rewrite import rewrite
from openresearch.agents.run.components import Components
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.services import Services
from openresearch.agents.verify.judge import EmbeddingJudge
from openresearch.agents.write.writer import DeterministicWriter
from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.identity import AliasResolver
from openresearch.ingest.embed import Embedder

# a monitoring run in tests: one sub-question, one worker, the deterministic roles
TINY = {"offline": True, "workers": 1, "budget": 3, "max_sub_questions": 1}


def offline_services(store: GraphStore, embedder: Embedder, data_dir: Path, settings: Settings | None = None
                     ) -> Services:
    """Deterministic roles (no LLM) whatever the run's options say; `settings` for web runs."""
    settings = settings or Settings(data_dir=data_dir)

    def build(options: RunOptions) -> Components:
        aliases = AliasResolver.load(settings.aliases_file)
        extractor = DeterministicExtractor(embedder, aliases)
        writer = DeterministicWriter()
        # the rule judge: deterministic and needs no shipped weights
        return Components(planner=DeterministicPlanner(embedder),
                          rewrite=lambda q, p: rewrite(q, p, embedder=embedder), extractor=extractor,
                          fallback_extractor=extractor, writer=writer, fallback_writer=writer,
                          judge=EmbeddingJudge(embedder, learned=False))
    return Services(settings, store, embedder, build)


def write_doc(folder: Path, name: str, title: str, published: str, url: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"---\ntitle: \"{title}\"\npublished: {published}\nurl: {url}\nkind: docs\n---\n\n# {title}\n\n"
                    f"{body}\n", encoding="utf-8")
    return path
