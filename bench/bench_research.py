"""Research-run benchmarks: the offline run on the example corpus, and parallel sub-questions against a
scripted OpenAI-compatible endpoint with a fixed latency per call.

  python bench/bench_research.py offline            # wall time, coverage, phantoms, numeric faithfulness
  python bench/bench_research.py parallel           # --workers 6 vs 1 with 1 s per LLM call

Runs on its own embedded FalkorDB in a temp dir. Prints figures; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

from openresearch.agents.run.components import Components
from openresearch.agents.run.pipeline import default_embedder, run_research
from openresearch.agents.run.run_config import RunOptions
from openresearch.config import Settings
from openresearch.graph.connect import open_store
from openresearch.graph.falkor_server import EmbeddedFalkor

REPO = Path(__file__).resolve().parents[1]
QUESTION = "Which message broker should we choose for high-throughput event streaming: Kafka, RabbitMQ or Pulsar?"
CITE = re.compile(r"\[(E-[0-9a-f]{12})\]")


def offline(cache: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="orbench-") as tmp:
        settings = Settings(data_dir=Path(tmp), graph_url=None)
        cache.mkdir(parents=True, exist_ok=True)
        # a shared embedding cache: "once the embedding model is cached" means vectors are reused across runs
        settings_cache = Path(tmp) / "cache"
        settings_cache.symlink_to(cache, target_is_directory=True)
        store = open_store(settings)
        try:
            store.init_schema()
            embedder = default_embedder(settings)
            t0 = time.perf_counter()
            embedder.embed(["warm-up"])  # model load, reported apart
            load = time.perf_counter() - t0
            for label in ("first run (empty graph)", "second run (same graph)"):
                opts = RunOptions(question=QUESTION, sources=[f"local:{REPO / 'examples/corpus'}"], offline=True,
                                  out=Path(tmp) / "out")
                comps = Components.build(settings, embedder, offline=True, caps=opts.caps)
                t0 = time.perf_counter()
                result = run_research(opts, store, settings, embedder=embedder, components=comps)
                wall = time.perf_counter() - t0
                md = (Path(tmp) / "out" / "report.md").read_text("utf-8").split("## Conflicts")[0]
                cited = set(CITE.findall(md.split("## Evidence")[0]))
                resolved = {e.id for e in store.evidence(sorted(cited))}
                v = result.verification
                m = result.metrics
                print(f"{label}: wall {wall:.1f} s (model load {load:.1f} s apart); stages {m['wall_time_s']}")
                print(f"  sections {len(result.sections)}, sentences {len(v.verdicts)}, citation coverage "
                      f"{v.citation_coverage:.1%}, phantom citations {len(cited - resolved)} (verifier: "
                      f"{v.phantom_citations}), numeric faithfulness {v.numeric_faithfulness:.1%}, "
                      f"PASS {sum(x.verdict == 'PASS' for x in v.verdicts)} DOUBT "
                      f"{sum(x.verdict == 'DOUBT' for x in v.verdicts)} "
                      f"FAIL {sum(x.verdict == 'FAIL' for x in v.verdicts)}"
                      f", conflicts {len(result.conflicts)}"
                      f", evidence written {m['evidence_written']}")
        finally:
            store.close()
            EmbeddedFalkor(Path(tmp)).stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["offline", "parallel"])
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "openresearch-bench")
    args = ap.parse_args()
    if args.what == "offline":
        offline(args.cache)
    else:
        sys.path.insert(0, str(REPO / "bench"))
        from bench_parallel import parallel

        parallel(args.cache)


if __name__ == "__main__":
    main()
