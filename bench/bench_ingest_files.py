"""Local ingest throughput on many small files (issue 12: 5,000 tiny files indexed at about 12 files/s).

Usage:
  python bench/bench_ingest_files.py [--files 5000] [--embedder model|hash]

Writes N small Markdown files into a temp folder and indexes them into a fresh embedded FalkorDB with the
project's own index_documents (batched across files: BATCH_FILES files or BATCH_CHUNKS chunks per embed
call and per write). Prints files/s for the first run (everything new) and for a re-run (all unchanged);
with --embedder model the bundled sentence-transformers model embeds (the default), with hash the test
embedder (graph and parsing cost only). Nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.falkor_server import EmbeddedFalkor
from openresearch.graph.store import GraphStore
from openresearch.ingest import local
from openresearch.ingest.embed import Embedder, HashEmbedder

WORDS = ["broker", "queue", "stream", "partition", "replica", "latency", "throughput", "consumer", "producer",
         "cluster", "storage", "tiered", "durable", "ordering", "commit", "offset", "segment", "ledger", "quorum",
         "mirror", "leader", "follower", "snapshot", "retention"]


def _files(folder: Path, n: int) -> None:
    rnd = random.Random(12)
    for i in range(n):
        body = " ".join(rnd.choice(WORDS) for _ in range(rnd.randrange(30, 120)))
        (folder / f"note{i:05d}.md").write_text(f"# Note {i}\n\n{body}.\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=int, default=5000)
    ap.add_argument("--embedder", choices=["model", "hash"], default="model")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="orfiles-") as tmp:
        folder = Path(tmp) / "notes"
        folder.mkdir()
        _files(folder, args.files)
        embedder: Embedder
        if args.embedder == "model":
            from openresearch.ingest.embed import SentenceTransformerEmbedder

            embedder = SentenceTransformerEmbedder("all-MiniLM-L6-v2", cache_dir=None)
            embedder.embed(["warm up"])  # the model load is not the ingest's cost
        else:
            embedder = HashEmbedder(dim=384)
        server = EmbeddedFalkor(Path(tmp) / "graph")
        try:
            store = GraphStore(FalkorBackend("bench", unix_socket=str(server.ensure().socket), timeout_s=600))
            store.init_schema()
            t0 = time.perf_counter()
            report = local.index_documents(store, folder, embedder)
            first = time.perf_counter() - t0
            t0 = time.perf_counter()
            again = local.index_documents(store, folder, embedder)
            rerun = time.perf_counter() - t0
            print(f"{args.files:,} small files ({args.embedder} embedder, batches of {local.BATCH_FILES} files / "
                  f"{local.BATCH_CHUNKS} chunks): first run {args.files / first:,.0f} files/s ({first:.1f} s, "
                  f"{report.added} added, {report.chunks} chunks); re-run {args.files / rerun:,.0f} files/s "
                  f"({again.unchanged} unchanged)")
            store.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
