"""The LLM path on a real local model vs the offline path: same question, same small local corpus.

  python bench/bench_llm.py [--questions 117] [--modes offline,0.5b[,1.5b]] [--llm-calls 24] [--keep DIR]

Each question is a RAMDocs dev item (../shared/data/ramdocs-dev, or $OPENRESEARCH_BENCH_DATA), its passages
written to a temp folder as the local corpus; without the data the script says so and exits 0. Each mode runs
on its own embedded FalkorDB in a temp data dir; each model mode starts llama.cpp's server (xllamacpp, 1-2
threads by load, one slot, loopback) for its runs and stops it after. The claim judge stays offline in every mode (its
LLM path is measured with the claim-judge bench), so the figures are the planner, rewrite, extract and write
roles. Printed per mode: per role calls, first answers valid as sent / repaired / re-asked / handed to the
deterministic path, prompt and completion tokens; quotes rejected as non-verbatim; wall time; the verifier's
figures; what the invariant pass (agents/verify/enforce.py) changes; the RAMDocs answer scores
(bench/answers_scoring.py). Asserts nothing; times are on a shared, loaded machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

import answers_scoring as S  # noqa: E402

DATA = Path(os.environ.get("OPENRESEARCH_BENCH_DATA") or REPO.parent / "shared" / "data")
RAMDOCS = DATA / "ramdocs-dev" / "RAMDocs_dev.jsonl"
ROLES = ("planner", "rewrite", "extract", "write", "verify")


def run_one(question: str, folder: Path, data_dir: Path, out: Path, llm: dict[str, Any] | None,
            llm_calls: int) -> tuple[dict[str, Any], str, float]:
    from openresearch.agents.run.components import Components
    from openresearch.agents.run.pipeline import run_research
    from openresearch.agents.run.run_config import Caps, RunOptions
    from openresearch.agents.run.services import default_embedder
    from openresearch.config import Settings
    from openresearch.graph.connect import open_store
    from openresearch.graph.falkor_server import EmbeddedFalkor

    settings = Settings(data_dir=data_dir, graph_url=None, **(llm or {}))
    embedder = default_embedder(settings)
    embedder.embed(["warm-up"])  # model load stays out of the wall time
    store = open_store(settings)
    try:
        store.init_schema()
        opts = RunOptions(question=question, sources=[f"local:{folder}"], offline=llm is None, out=out, workers=1,
                          caps=Caps(llm_calls=llm_calls))
        comps = Components.build(settings, embedder, offline=llm is None, caps=opts.caps)
        t0 = time.perf_counter()
        run_research(opts, store, settings, embedder=embedder, components=comps)
        wall = time.perf_counter() - t0
    finally:
        store.close()
        EmbeddedFalkor(data_dir).stop()
    return json.loads((out / "report.json").read_text("utf-8")), (out / "report.md").read_text("utf-8"), wall


def enforce_after(report: dict[str, Any]) -> dict[str, int]:
    """What the invariant pass would change in this report (section scope unknown here: all cited evidence)."""
    from openresearch.agents.verify.enforce import enforce
    from openresearch.models import ConflictGroup, Draft, DraftSection, EvidenceView, Verification

    draft = Draft(title=report.get("title", ""), sections=[DraftSection.model_validate(s) for s in report["sections"]])
    evidence = [EvidenceView.model_validate(e) for e in report.get("evidence", [])]
    _, counts = enforce(draft, {"*": evidence} if evidence else {}, [ConflictGroup.model_validate(c)
                                                                      for c in report.get("conflicts", [])],
                        Verification.model_validate(report.get("verification", {})),
                        report.get("plan", {}).get("language", "en"))
    return counts.model_dump()


def summary(mode: str, report: dict[str, Any], md: str, wall: float, item: dict[str, Any]) -> dict[str, Any]:
    m = report.get("metrics", {})
    v = report.get("verification", {})
    verdicts = [x.get("verdict") for x in v.get("verdicts", [])]
    sc = S.score_ramdocs(item, S.parse_report(report, md))
    return {
        "mode": mode, "wall_s": round(wall, 1), "method": report.get("method"),
        "plan_method": report.get("plan", {}).get("method"), "low_precision": report.get("low_precision"),
        "sub_questions": [q.get("text") for q in report.get("plan", {}).get("sub_questions", [])],
        "llm": m.get("llm", {}), "rejected_quotes": m.get("rejected_quotes"), "evidence": m.get("evidence_written"),
        "verdicts": {k: verdicts.count(k) for k in ("PASS", "DOUBT", "FAIL")},
        "phantom_citations": v.get("phantom_citations"), "numeric_faithfulness": v.get("numeric_faithfulness"),
        "fully_verified": v.get("fully_verified"), "conflicts": len(report.get("conflicts") or []),
        "enforced_in_run": m.get("enforcement"), "enforce_after": enforce_after(report),
        "misinfo_disclosed": sc.disclosed if sc.eligible_misinfo else None,
        "gold_in_answer": sc.gold_any_first, "gold_anywhere": sc.gold_any_anywhere,
    }


def print_summary(s: dict[str, Any]) -> None:
    print(f"\n-- {s['mode']}: wall {s['wall_s']} s · report method {s['method']} · plan {s['plan_method']}"
          + (f" · low precision: {s['low_precision']}" if s["low_precision"] else ""))
    print(f"   sub-questions: {s['sub_questions']}")
    llm = s["llm"]
    if llm:
        print("   role      calls valid repaired reasked fallback  prompt_tok compl_tok failures")
        for role in (*ROLES, "total"):
            u = llm.get(role)
            if u:
                print(f"   {role:9} {u['calls']:5} {u.get('valid_first', 0):5} {u.get('repaired', 0):8} "
                      f"{u.get('reask_ok', 0):7} {u.get('fallbacks', 0):8} {u['prompt_tokens']:11} "
                      f"{u['completion_tokens']:9} {u['failures']:8}")
    print(f"   quotes rejected as non-verbatim {s['rejected_quotes']} · evidence written {s['evidence']} · "
          f"conflicts {s['conflicts']}")
    print(f"   verifier: {s['verdicts']} · phantom citations {s['phantom_citations']} · numeric faithfulness "
          f"{s['numeric_faithfulness']} · fully verified {s['fully_verified']}")
    print(f"   invariant pass in the run: {s['enforced_in_run']}")
    e = s["enforce_after"]
    print(f"   invariant pass over the report: rewritten {e['rewritten']}, dropped {e['dropped']} (numbers "
          f"{e['numbers']}, outside evidence {e['outside_section']}, refuted {e['refuted']}, uncited {e['uncited']})")
    print(f"   answers: gold value in the answer section {s['gold_in_answer']} · anywhere {s['gold_anywhere']} · "
          f"misinformation disclosed {s['misinfo_disclosed']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--questions", default="117", help="RAMDocs dev line numbers, comma-separated")
    ap.add_argument("--modes", default="offline,0.5b")
    ap.add_argument("--llm-calls", type=int, default=24, help="the run's hard LLM call cap")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per LLM request")
    ap.add_argument("--max-output-tokens", type=int, default=256)
    ap.add_argument("--keep", type=Path, default=None, help="keep every run's report files here")
    args = ap.parse_args()
    if not RAMDOCS.exists():
        print(f"skipped: {RAMDOCS} is absent (the shared data sets live in ../shared/data, or set "
              "OPENRESEARCH_BENCH_DATA); nothing was run.")
        return
    from openresearch.llm_local import MODELS, model_path, start

    rows = [json.loads(x) for x in RAMDOCS.read_text("utf-8").splitlines() if x.strip()]
    picked = [int(q) for q in args.questions.split(",")]
    modes = args.modes.split(",")
    print(f"== bench_llm · {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())} · questions {picked} · "
          f"modes {modes}")
    print(f"   command: python bench/bench_llm.py {' '.join(sys.argv[1:])}")
    print(f"   machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="orbench-llm-") as tmp:
        for idx in picked:
            item = rows[idx]
            folder = Path(tmp) / f"q{idx:03d}" / "documents"
            folder.mkdir(parents=True)
            for j, doc in enumerate(item["documents"]):  # text only: the type and answer stay hidden
                (folder / f"doc{j + 1}.txt").write_text(doc["text"], encoding="utf-8")
            print(f"\n== q{idx:03d}: {item['question']}  gold {item['gold_answers']}  wrong {item['wrong_answers']}"
                  f"  ({len(item['documents'])} passages, {sum(len(d['text']) for d in item['documents'])} chars)")
            for mode in modes:
                out = (args.keep or Path(tmp)) / f"q{idx:03d}-{mode}"
                out.mkdir(parents=True, exist_ok=True)
                data_dir = Path(tmp) / f"data-{idx}-{mode}"
                if mode == "offline":
                    report, md, wall = run_one(item["question"], folder, data_dir, out, None, args.llm_calls)
                else:
                    spec = MODELS[mode]
                    if not model_path(spec).is_file():
                        print(f"\n-- {mode}: skipped, {model_path(spec)} is missing (bash scripts/install_llm.sh"
                              f"{' --1.5b' if mode == '1.5b' else ''})")
                        continue
                    server = start(spec, ctx=4096, parallel=1, log=Path(tmp) / f"server-{mode}.log")
                    try:
                        llm = {"llm_base_url": server.base_url, "llm_model": server.model,
                               "llm_timeout_s": args.timeout, "llm_max_output_tokens": args.max_output_tokens,
                               "llm_temperature": 0.0, "llm_max_concurrency": 1,
                               "llm_base_url_verify": "http://127.0.0.1:9/v1"}  # the judge stays offline
                        report, md, wall = run_one(item["question"], folder, data_dir, out, llm, args.llm_calls)
                    finally:
                        server.stop()
                s = summary(mode, report, md, wall, item)
                print_summary(s)
                results.append({"question": idx, **s})
                sys.stdout.flush()
    print("\nsummary (JSON):")
    print(json.dumps(results, ensure_ascii=False, default=str))


if __name__ == "__main__":
    main()
