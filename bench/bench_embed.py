"""Embedding throughput: bare SentenceTransformer.encode vs the project's embedder (ONNX int8 backend).

Usage:
  python bench/bench_embed.py [--chunks 500] [--chars 870] [--rounds 2] [--batch-size 64] [--no-rss] [--no-recall]

Both run in this process on the same chunks, alternating, after a warm-up, without the embedding cache; the
best round counts. Chunks are windows of whole words, about --chars long, from
../shared/data/tsdb-docs-corpus/docs and the HotpotQA paragraphs beside it (or OPENRESEARCH_SHARED_DATA).
Process CPU ms per chunk are printed beside wall-clock chunks/s: CPU time suffers less when other work
shares the cores. Peak RSS is measured in a child process per backend (one process cannot tell its two
peaks apart). Recall@10 on HotpotQA is bench/bench_retrieval.py's run (its corpus, graph, fusion and
searches) once per backend, hits mapped to titles by the stored URL. The first ONNX use exports the model
(~10-40 s, timed apart). Prints figures only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

REPO = Path(__file__).resolve().parents[1]


def corpus_dir() -> Path | None:
    env = os.environ.get("OPENRESEARCH_SHARED_DATA")
    d = (Path(env) if env else REPO.parent / "shared" / "data") / "tsdb-docs-corpus" / "docs"
    return d if d.is_dir() else None


def chunks(n: int, chars: int) -> list[str]:
    """`n` windows of whole words, each just over `chars` long, spread over the corpus."""
    d = corpus_dir()
    assert d is not None
    texts = [p.read_text("utf-8", "replace") for p in sorted(d.iterdir()) if p.is_file()]
    hotpot = d.parents[1] / "hotpotqa-hipporag100" / "hotpotqa_train_corpus.json"
    if hotpot.is_file():  # the TSDB docs alone give ~470 windows
        texts += ["".join(s) for s in json.loads(hotpot.read_text("utf-8")).values()]
    words = " ".join(texts).split()
    out: list[str] = []
    cur: list[str] = []
    size = 0
    for w in words:
        cur.append(w)
        size += len(w) + 1
        if size >= chars:
            out.append(" ".join(cur))
            cur, size = [], 0
    step = max(1, len(out) // n)
    return out[::step][:n]


def peak_mb() -> float:
    """VmHWM: unlike ru_maxrss, it starts afresh at exec, so a child does not inherit its parent's peak."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # not Linux: KiB on most systems


def child(backend: str, n: int, chars: int, batch_size: int) -> None:
    """One backend alone in a fresh process: its peak RSS after embedding the chunks."""
    texts = chunks(n, chars)
    if backend == "bare":
        from openresearch.ingest.embed import _load, resolve_model

        _load(resolve_model(None), None).encode(texts, batch_size=batch_size, normalize_embeddings=True)
    else:
        from openresearch.ingest.embed import SentenceTransformerEmbedder

        SentenceTransformerEmbedder(backend="onnx", batch_size=batch_size).embed(texts)
    print(json.dumps({"peak_mb": peak_mb()}))


def timed(fn: object, texts: list[str]) -> tuple[float, float]:
    assert callable(fn)
    w0, c0 = time.perf_counter(), time.process_time()
    fn(texts)
    return time.perf_counter() - w0, time.process_time() - c0


def hotpot_recall(backend: str) -> dict[str, float] | None:
    """bench_retrieval's HotpotQA run (ingest the corpus into the embedded graph, search each question)
    with one backend; hits map to titles through the stored sources' URLs. recall@10 per search mode."""
    sys.path.insert(0, str(REPO / "bench"))
    import bench_retrieval as br

    from openresearch.config import Settings
    from openresearch.graph.connect import open_store
    from openresearch.graph.falkor_server import EmbeddedFalkor
    from openresearch.ingest.embed import SentenceTransformerEmbedder
    from openresearch.ingest.local import index_documents

    d = br.data_dir()
    if d is None:
        return None
    questions = json.loads((d / "hotpotqa_train.json").read_text("utf-8"))
    corpus: dict[str, list[str]] = json.loads((d / "hotpotqa_train_corpus.json").read_text("utf-8"))
    urls = {f"https://hotpot.example/wiki/{quote(title)}": title for title in corpus}
    with tempfile.TemporaryDirectory(prefix="orbench-") as tmp:
        docs = Path(tmp) / "hotpot"
        docs.mkdir()
        for i, (url, title) in enumerate(urls.items()):
            text = "".join(corpus[title])
            (docs / f"{i:04d}.txt").write_text(f"Title: {title}\nURL: {url}\n\n{text}\n", "utf-8")
        store = open_store(Settings(data_dir=Path(tmp) / "data"))
        try:
            store.init_schema()
            # the same embedding cache as bench_retrieval: the backends' vectors are keyed apart there
            emb = SentenceTransformerEmbedder(backend=backend,  # type: ignore[arg-type]
                                              cache_dir=Path.home() / ".cache" / "openresearch-bench" / "emb")
            root = index_documents(store, docs, emb).root
            titles = {sid: urls[src.url] for sid, src in store.sources_in_root(root).items() if src.url in urls}
            qvecs = emb.embed([q["question"] for q in questions])
            modes: dict[str, Callable[[str, list[float]], list[str]]] = {
                "hybrid": lambda q, v: br.ranked_titles(store, v, q, titles, 10),
                "vector only": lambda q, v: br.ranked_titles(store, v, "", titles, 10)}
            out: dict[str, float] = {}
            for name, fn in modes.items():
                got = [(set(fn(q["question"], v)), {t for t, _ in q["supporting_facts"]})
                       for q, v in zip(questions, qvecs, strict=True)]
                out[name] = sum(len(g & gold) / len(gold) for g, gold in got) / len(questions)
            out["titles"] = len(titles)
            return out
        finally:
            store.close()
            EmbeddedFalkor(Path(tmp) / "data").stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chunks", type=int, default=500)
    ap.add_argument("--chars", type=int, default=870)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--no-rss", action="store_true")
    ap.add_argument("--no-recall", action="store_true")
    ap.add_argument("--child", choices=["bare", "onnx"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if corpus_dir() is None:
        print("skipped: tsdb-docs-corpus not found (../shared/data/tsdb-docs-corpus or OPENRESEARCH_SHARED_DATA)")
        return
    if args.child:
        child(args.child, args.chunks, args.chars, args.batch_size)
        return

    from openresearch.ingest.embed import SentenceTransformerEmbedder, _load, resolve_model
    from openresearch.ingest.embed_onnx import _threads

    texts = chunks(args.chunks, args.chars)
    print(f"{len(texts)} chunks, {sum(map(len, texts)) / len(texts):.0f} chars on average; "
          f"{_threads()} cores, load average {os.getloadavg()[0]:.1f}")
    st = _load(resolve_model(None), None)
    onnx = SentenceTransformerEmbedder(backend="onnx", batch_size=args.batch_size)  # no embedding cache
    t0 = time.perf_counter()
    onnx.embed(texts[:2])  # loads, or on first use exports, the ONNX model
    print(f"onnx model ready in {time.perf_counter() - t0:.1f} s (backend {onnx.backend}, dir {onnx.onnx_dir})")
    runs = {"bare SentenceTransformer.encode": lambda t: st.encode(t, batch_size=args.batch_size,
                                                                   normalize_embeddings=True),
            f"Embedder ({onnx.backend})": onnx.embed}
    for fn in runs.values():
        fn(texts[:16])  # warm-up
    best = {name: (float("inf"), float("inf")) for name in runs}
    for r in range(args.rounds):
        for name, fn in runs.items():
            wall, cpu = timed(fn, texts)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
        print(f"round {r + 1}: " + ", ".join(f"{name} {len(texts) / best[name][0]:.1f}/s" for name in runs))
    (base, new) = best.values()
    for name, (wall, cpu) in best.items():
        print(f"{name:<34} {len(texts) / wall:6.1f} chunks/s  {cpu * 1000 / len(texts):6.1f} CPU ms/chunk")
    print(f"speed ratio: {base[0] / new[0]:.2f}x wall clock, {base[1] / new[1]:.2f}x CPU time")
    if not args.no_rss:
        for kind in ("bare", "onnx"):
            out = subprocess.run([sys.executable, __file__, "--child", kind, "--chunks", str(args.chunks),
                                  "--chars", str(args.chars), "--batch-size", str(args.batch_size)],
                                 capture_output=True, text=True, check=True).stdout
            print(f"peak RSS, {kind} alone in a process: {json.loads(out.splitlines()[-1])['peak_mb']:.0f} MB")
    if not args.no_recall:
        for backend in ("torch", "onnx"):
            rec = hotpot_recall(backend)
            print(f"HotpotQA recall@10, {backend}: " + ("skipped (no data)" if rec is None else
                  f"hybrid {rec['hybrid']:.3f}, vector only {rec['vector only']:.3f} "
                  f"({rec['titles']:.0f} titles mapped)"))


if __name__ == "__main__":
    main()
