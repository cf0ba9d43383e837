"""Run (or resume) a research run end to end and write its report files: the one call the CLI makes."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from openresearch.agents.run.components import Components
from openresearch.agents.run.research import Progress, ResearchRun, RunResult, no_progress
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.write.report import to_html, to_json, to_markdown
from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder, SentenceTransformerEmbedder


def default_embedder(settings: Settings) -> Embedder:
    return SentenceTransformerEmbedder(None if settings.embedding_model == "all-MiniLM-L6-v2"
                                       else settings.embedding_model, cache_dir=settings.cache_dir / "embeddings")


def run_research(options: RunOptions, store: GraphStore, settings: Settings, *, embedder: Embedder | None = None,
                 components: Components | None = None, resume: str | None = None,
                 progress: Progress = no_progress) -> RunResult:
    plan = None
    run_id = None
    if resume:
        stored = store.get_run(resume)
        out = options.out
        options = RunOptions.model_validate(stored["options"]).model_copy(update={"out": out,
                                                                                   "workers": options.workers})
        plan = stored["plan"]
        run_id = resume
    embedder = embedder or default_embedder(settings)
    components = components or Components.build(settings, embedder, offline=options.offline, caps=options.caps,
                                                workers=options.workers)
    run = ResearchRun(options, store, embedder, settings, components, run_id=run_id, progress=progress)
    result = asyncio.run(run.run(resume_plan=plan))
    write_outputs(result, options.out)
    markdown = to_markdown(result)
    store.save_report(result.run_id, result.draft.title, markdown, result.verification.fully_verified,
                      int(time.time() * 1000), [
                          {"id": f"{result.run_id}-s{i}", "title": s.title, "position": i,
                           "text": " ".join(x.text for x in s.sentences),
                           "cites": sorted({c for x in s.sentences for c in x.citations})}
                          for i, s in enumerate(result.draft.sections)])
    store.save_run(result.run_id, options.question, status="done", stage="done",
                   options=options.model_dump(mode="json"), started_at=run._started_ms,
                   finished_at=int(time.time() * 1000), plan=result.plan, metrics=result.metrics.as_dict())
    return result


def write_outputs(result: RunResult, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.md").write_text(to_markdown(result), encoding="utf-8")
    (out / "report.json").write_text(json.dumps(to_json(result), indent=2, ensure_ascii=False), encoding="utf-8")
    (out / "report.html").write_text(to_html(result), encoding="utf-8")
