"""Retrieval recall@k on HotpotQA (100 multi-hop questions, closed corpus of 994 Wikipedia paragraphs).

The corpus is ingested the way a user's documents are (`ingest/local.py`: parse, chunk, embed, graph), then
each question is searched through the graph: hybrid (vector + full-text, the project's path), vector only and
full-text only, computed in the same run. Recall@k = share of each question's gold supporting titles found in
the top k distinct documents, averaged.

Data: ../shared/data/hotpotqa-hipporag100 (or OPENRESEARCH_SHARED_DATA); skips cleanly when absent.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from openresearch.config import Settings
from openresearch.graph.connect import open_store
from openresearch.graph.documents import RRF_K, TEXT_WEIGHT
from openresearch.graph.falkor_server import EmbeddedFalkor
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import SentenceTransformerEmbedder
from openresearch.ingest.local import index_documents

REPO = Path(__file__).resolve().parents[1]
KS = (2, 5, 10)


def data_dir() -> Path | None:
    env = os.environ.get("OPENRESEARCH_SHARED_DATA")
    d = Path(env) if env else REPO.parent / "shared" / "data"
    d = d / "hotpotqa-hipporag100"
    return d if (d / "hotpotqa_train.json").exists() else None


def ranked_titles(store: GraphStore, vec: list[float] | None, text: str, titles: dict[str, str], k: int,
                  text_weight: float = TEXT_WEIGHT, rrf_k: int = RRF_K) -> list[str]:
    hits = store.search_chunks(vec, text, k=k * 4, text_weight=text_weight, rrf_k=rrf_k)
    out: list[str] = []
    for h in hits:
        t = titles.get(h["source_id"])
        if t is not None and t not in out:
            out.append(t)
    return out[:k]


def main() -> None:
    d = data_dir()
    if d is None:
        print("skipped: HotpotQA data not found (../shared/data/hotpotqa-hipporag100 or OPENRESEARCH_SHARED_DATA)")
        return
    print((d / "SOURCE.md").read_text("utf-8").splitlines()[0])
    questions = json.loads((d / "hotpotqa_train.json").read_text("utf-8"))
    corpus: dict[str, list[str]] = json.loads((d / "hotpotqa_train_corpus.json").read_text("utf-8"))
    with tempfile.TemporaryDirectory(prefix="orbench-") as tmp:
        docs = Path(tmp) / "hotpot"
        docs.mkdir()
        for i, (title, sentences) in enumerate(corpus.items()):
            url = f"https://hotpot.example/wiki/{quote(title)}"
            (docs / f"{i:04d}.txt").write_text(f"Title: {title}\nURL: {url}\n\n{''.join(sentences)}\n", "utf-8")
        settings = Settings(data_dir=Path(tmp) / "data")
        store = open_store(settings)
        try:
            store.init_schema()
            embedder = SentenceTransformerEmbedder(cache_dir=Path.home() / ".cache" / "openresearch-bench" / "emb")
            t0 = time.perf_counter()
            report = index_documents(store, docs, embedder)
            print(f"ingested {report.added} paragraphs, {report.chunks} chunks in {time.perf_counter() - t0:.1f} s")
            from openresearch.identity import source_id
            from openresearch.ingest.documents import local_url

            # a local file's source id comes from its path (its URL header only names the page)
            titles = {source_id(local_url(docs / f"{i:04d}.txt")): t for i, t in enumerate(corpus)}
            qvecs = embedder.embed([q["question"] for q in questions])
            pairs = list(zip(questions, qvecs, strict=True))
            if "--sweep" in sys.argv:  # how the default fusion weights were chosen
                for w in (0.05, 0.1, 0.2, 0.3, 1.0):
                    for rk in (5, 20, 60):
                        r10 = 0.0
                        for q, v in pairs:
                            gold = {t for t, _ in q["supporting_facts"]}
                            got = ranked_titles(store, v, q["question"], titles, 10, w, rk)
                            r10 += len(gold & set(got)) / len(gold)
                        print(f"sweep text_weight {w:<5} rrf_k {rk:<3} recall@10 {r10 / len(questions):.3f}")
            label = f"hybrid (project, text weight {TEXT_WEIGHT}, k {RRF_K})"
            modes = {label: lambda q, v: ranked_titles(store, v, q, titles, max(KS)),
                     "hybrid, equal weights": lambda q, v: ranked_titles(store, v, q, titles, max(KS), 1.0),
                     "vector only": lambda q, v: ranked_titles(store, v, "", titles, max(KS)),
                     "full-text only": lambda q, v: ranked_titles(store, None, q, titles, max(KS))}
            for name, fn in modes.items():
                recall = {k: 0.0 for k in KS}
                t0 = time.perf_counter()
                for q, v in pairs:
                    gold = {t for t, _ in q["supporting_facts"]}
                    got = fn(q["question"], v)
                    for k in KS:
                        recall[k] += len(gold & set(got[:k])) / len(gold)
                ms = (time.perf_counter() - t0) * 1000 / len(questions)
                print(f"{name:<36} " + "  ".join(f"recall@{k} {recall[k] / len(questions):.3f}" for k in KS)
                      + f"  ({ms:.1f} ms/question)")
        finally:
            store.close()
            EmbeddedFalkor(Path(tmp) / "data").stop()


if __name__ == "__main__":
    sys.exit(main())
