"""Research runs over data nobody here wrote, scored from each run's report.json / report.md.

  python bench/bench_answers.py ramdocs [--n 40] [--seed 0] [--all] [--verbose]   # look-ups with misinformation
  python bench/bench_answers.py tsdb [--verbose]                                    # real TSDB docs, key facts
  python bench/bench_answers.py json-libs | release-policy [--verbose]              # the same on other domains
  python bench/bench_answers.py example                                             # the example corpus
  python bench/bench_answers.py corpus DIR [--verbose]                              # DIR/docs + DIR/facts.json
                                      # (facts.json's "numbers": "any": a fact's numbers are forms of one value)

Every run is offline, on its own embedded FalkorDB in a temp data dir (RAMDocs: one graph per question on
one server; tsdb and example: one server and one child process per run, so peak memory is per run). The
data sets are read from ../shared/data (or $OPENRESEARCH_BENCH_DATA) and copied only to temp dirs, never
into the repository; without them the subcommand says so and exits 0. Scoring is bench/answers_scoring.py
(pure, unit-tested). Prints figures; asserts nothing about time. --keep DIR keeps every run's report files;
--rescore DIR runs nothing and scores those kept reports again. To measure a snapshot of a commit rather than
a working tree others are editing: git archive HEAD | tar -x -C /tmp/snap; PYTHONPATH=/tmp/snap python ...
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

import answers_scoring as S  # noqa: E402

DATA = Path(os.environ.get("OPENRESEARCH_BENCH_DATA") or REPO.parent / "shared" / "data")
RAMDOCS = DATA / "ramdocs-dev" / "RAMDocs_dev.jsonl"
TSDB = DATA / "tsdb-docs-corpus"
EXAMPLE_QUESTION = ("Which message broker should we choose for high-throughput event streaming: Kafka, RabbitMQ "
                    "or Pulsar?")
EXAMPLE_OPTIONS = ["Kafka", "RabbitMQ", "Pulsar"]


def _git(*args: str, cwd: Path = REPO) -> str:
    try:
        return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, text=True,
                              check=False).stdout.strip()
    except OSError:
        return ""


def code_root() -> Path:
    """Where the openresearch package under test is imported from (PYTHONPATH may point at a snapshot)."""
    import openresearch

    return Path(openresearch.__file__).resolve().parents[1]


def commit() -> str:
    """Which code was measured: this checkout's HEAD, or the snapshot PYTHONPATH imported openresearch from."""
    root = code_root()
    if root != REPO:
        return f"openresearch imported from {root}"
    dirty = _git("status", "--porcelain", "--untracked-files=no", "openresearch")
    return (_git("rev-parse", "--short", "HEAD") or "unknown") + (
        " + uncommitted changes under openresearch/" if dirty else "")


def command() -> str:
    return "python bench/bench_answers.py " + " ".join(sys.argv[1:])


def pct(k: int, n: int) -> str:
    if n == 0:
        return "n/a (0 questions)"
    p = k / n
    z = 1.96  # Wilson 95% interval: these samples are small
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{k}/{n} = {p:.0%} (95% CI {max(0.0, centre - half):.0%}-{min(1.0, centre + half):.0%})"


def quantile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    pos = (len(s) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def vm_hwm_mb(pid: int | None) -> float | None:
    """Peak resident memory of another live process (the FalkorDB server), from /proc."""
    if not pid:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def header(what: str) -> None:
    print(f"== bench_answers {what} · code {commit()} · {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}")
    print(f"   command: {command()}")
    print(f"   machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          "(shared with other work: times are on a loaded machine)")


# --- running research --------------------------------------------------------------------------------------

class Runner:
    """One embedded FalkorDB in a temp data dir and one embedder, for many runs with distinct graph names."""

    def __init__(self, data_dir: Path) -> None:
        from openresearch.agents.run.pipeline import default_embedder
        from openresearch.config import Settings

        self.data_dir = data_dir
        self.settings = Settings(data_dir=data_dir, graph_url=None)
        self.embedder = default_embedder(self.settings)
        t0 = time.perf_counter()
        self.embedder.embed(["warm-up"])  # model load, reported apart
        self.load_s = time.perf_counter() - t0

    def run(self, question: str, folder: Path, graph: str, out: Path) -> tuple[dict[str, Any], str, float]:
        from openresearch.agents.run.components import Components
        from openresearch.agents.run.pipeline import run_research
        from openresearch.agents.run.run_config import RunOptions
        from openresearch.graph.connect import open_store

        settings = self.settings.model_copy(update={"graph_name": graph})
        store = open_store(settings)
        try:
            store.init_schema()
            opts = RunOptions(question=question, sources=[f"local:{folder}"], offline=True, out=out)
            comps = Components.build(settings, self.embedder, offline=True, caps=opts.caps)
            t0 = time.perf_counter()
            run_research(opts, store, settings, embedder=self.embedder, components=comps)
            wall = time.perf_counter() - t0
            report = json.loads((out / "report.json").read_text("utf-8"))
            md = (out / "report.md").read_text("utf-8")
            return report, md, wall
        finally:
            try:
                store.backend.clear()  # the next question must not see this one's evidence
            finally:
                store.close()

    def server_pid(self) -> int | None:
        from openresearch.graph.falkor_server import EmbeddedFalkor

        return EmbeddedFalkor(self.data_dir).status().pid

    def stop(self) -> None:
        from openresearch.graph.falkor_server import EmbeddedFalkor

        EmbeddedFalkor(self.data_dir).stop()


class Kept:
    """--rescore DIR: the reports an earlier --keep DIR run left, scored again; nothing is run or timed."""

    load_s = float("nan")

    def __init__(self, root: Path) -> None:
        self.root = root

    def run(self, question: str, folder: Path, graph: str, out: Path) -> tuple[dict[str, Any], str, float]:
        report, md = read_report(self.root / graph)
        return report, md, float("nan")

    def server_pid(self) -> int | None:
        return None


def read_report(out: Path) -> tuple[dict[str, Any], str]:
    return json.loads((out / "report.json").read_text("utf-8")), (out / "report.md").read_text("utf-8")


RESCORE: Path | None = None


@contextmanager
def runner() -> Iterator[Runner | Kept]:
    if RESCORE is not None:
        yield Kept(RESCORE)
        return
    with tempfile.TemporaryDirectory(prefix="orbench-answers-") as tmp:
        r = Runner(Path(tmp))
        try:
            yield r
        finally:
            r.stop()


def child_run(question: str, source_dir: Path, out: Path) -> dict[str, Any]:
    """One run in a fresh process with its own embedded server: wall, model load and peak memory per run."""
    if RESCORE is not None:
        if (RESCORE / out.name).resolve() != out.resolve():
            shutil.copytree(RESCORE / out.name, out, dirs_exist_ok=True)
        return {"wall_s": float("nan"), "model_load_s": float("nan"), "peak_rss_mb": float("nan"),
                "server_peak_rss_mb": None, "stages": "not run (--rescore)"}
    with tempfile.TemporaryDirectory(prefix="orbench-run-") as tmp:
        spec = Path(tmp) / "spec.json"
        spec.write_text(json.dumps({"question": question, "source": str(source_dir), "out": str(out),
                                    "data_dir": str(Path(tmp) / "data")}), encoding="utf-8")
        proc = subprocess.run([sys.executable, __file__, "_run", str(spec)], capture_output=True, text=True,
                              check=False, env={**os.environ, "HF_HUB_OFFLINE": os.environ.get("HF_HUB_OFFLINE", "1")})
        lines = [x for x in proc.stdout.splitlines() if x.startswith("{")]
        if proc.returncode != 0 or not lines:
            raise RuntimeError(f"run failed (exit {proc.returncode}): {proc.stderr[-2000:]}")
        result: dict[str, Any] = json.loads(lines[-1])
        return result


def _run_spec(spec_path: str) -> None:
    spec = json.loads(Path(spec_path).read_text("utf-8"))
    r = Runner(Path(spec["data_dir"]))
    try:
        _, _, wall = r.run(spec["question"], Path(spec["source"]), "bench", Path(spec["out"]))
        server = vm_hwm_mb(r.server_pid())
        metrics = json.loads((Path(spec["out"]) / "report.json").read_text("utf-8")).get("metrics", {})
        print(json.dumps({"wall_s": wall, "model_load_s": r.load_s, "peak_rss_mb": rss_mb(),
                          "server_peak_rss_mb": server, "stages": metrics.get("wall_time_s")}))
    finally:
        r.stop()


def keep_dir(keep: Path | None, tmp: Path, name: str) -> Path:
    base = keep if keep is not None else tmp
    out = base / name
    out.mkdir(parents=True, exist_ok=True)
    return out


def missing(path: Path) -> bool:
    if path.exists():
        return False
    print(f"skipped: {path} is absent (the shared data sets live in ../shared/data, or set "
          "OPENRESEARCH_BENCH_DATA); nothing was run.")
    return True


# --- ramdocs -------------------------------------------------------------------------------------------------

@contextmanager
def fixed_dir(name: str) -> Iterator[str]:
    """A scratch folder at the same path on every run: a local source's id is its path, and ties between equally
    ranked items fall to ids, so a random folder name would make two runs of the same code differ."""
    path = Path(tempfile.gettempdir()) / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    try:
        yield str(path)
    finally:
        shutil.rmtree(path, ignore_errors=True)


def ramdocs(n: int, seed: int, take_all: bool, verbose: bool, keep: Path | None) -> None:
    if missing(RAMDOCS):
        return
    rows = [json.loads(x) for x in RAMDOCS.read_text("utf-8").splitlines() if x.strip()]
    picked = list(range(len(rows))) if take_all else sorted(random.Random(seed).sample(range(len(rows)),
                                                                                        min(n, len(rows))))
    header(f"ramdocs ({len(picked)} of {len(rows)} questions, seed {seed})")
    scores: list[tuple[int, S.RamdocsScore]] = []
    walls: list[float] = []
    failed: list[str] = []
    with runner() as r, fixed_dir("orbench-ramdocs") as tmp:
        print(f"   model load {r.load_s:.1f} s (apart from the wall times below)")
        for k, idx in enumerate(picked):
            item = rows[idx]
            qdir = Path(tmp) / f"q{idx:03d}"
            folder = qdir / "documents"
            folder.mkdir(parents=True)
            for j, doc in enumerate(item["documents"]):  # text only: the type and answer stay hidden
                (folder / f"doc{j + 1}.txt").write_text(doc["text"], encoding="utf-8")
            out = keep_dir(keep, qdir, f"ramdocs-q{idx:03d}")
            try:
                report, md, wall = r.run(item["question"], folder, f"ramdocs-q{idx:03d}", out)
            except Exception as e:  # a failing run is a figure, not the end of the bench
                failed.append(f"q{idx:03d}: {type(e).__name__}: {e}")
                print(f"   [{k + 1}/{len(picked)}] q{idx:03d} FAILED: {type(e).__name__}: {e}")
                continue
            if not math.isnan(wall):
                walls.append(wall)
            sc = S.score_ramdocs(item, S.parse_report(report, md))
            scores.append((idx, sc))
            if verbose:
                flags = [f"misinfo {'disclosed' if sc.disclosed else 'MISSED'}" if sc.eligible_misinfo else "",
                         f"gold first {'y' if sc.gold_any_first else 'n'} anywhere "
                         f"{'y' if sc.gold_any_anywhere else 'n'} (all: {'y' if sc.gold_all_anywhere else 'n'})",
                         (f"same-name {'CONFLICT' if sc.ambiguity_conflict else 'ok'}"
                          if sc.eligible_ambiguity else ""),
                         f"conflicts {len(report.get('conflicts') or [])}"]
                print(f"   [{k + 1}/{len(picked)}] q{idx:03d} {wall:5.1f} s · {' · '.join(f for f in flags if f)}")
                print(f"      Q: {item['question']}  gold {item['gold_answers']}  wrong {item['wrong_answers']}"
                      f"  entities {len(item.get('disambig_entity') or [])}")
                for note in sc.evidence:
                    print(f"      {note}")
            elif (k + 1) % 10 == 0:
                print(f"   ... {k + 1}/{len(picked)} questions", flush=True)
        server = vm_hwm_mb(r.server_pid())
    done = [s for _, s in scores]
    mis = [s for s in done if s.eligible_misinfo]
    amb = [s for s in done if s.eligible_ambiguity]
    print(f"\nsummary: ramdocs, {len(done)} questions scored ({len(failed)} failed), code {commit()}")
    print(f"  command: {command()}")
    print(f"  (a) misinformation disclosed as a disagreement with a gold value (misinfo doc + numeric/date gold): "
          f"{pct(sum(s.disclosed for s in mis), len(mis))}   target >= 70%")
    print("  (b) a gold answer stated in a cited sentence:")
    print(f"      any gold, answer part (first section): {pct(sum(s.gold_any_first for s in done), len(done))}"
          "   target >= 80%")
    print(f"      any gold, anywhere:                    {pct(sum(s.gold_any_anywhere for s in done), len(done))}")
    print(f"      all golds, answer part:                {pct(sum(s.gold_all_first for s in done), len(done))}")
    print(f"      all golds, anywhere:                   {pct(sum(s.gold_all_anywhere for s in done), len(done))}")
    print(f"  (c) same-name entities' gold values reported as a conflict (>= 2 entities): "
          f"{pct(sum(s.ambiguity_conflict for s in amb), len(amb))}   target <= 10%")
    print(f"  (d) wall time per question: p50 {quantile(walls, 0.5):.1f} s, p95 {quantile(walls, 0.95):.1f} s, "
          f"max {max(walls, default=float('nan')):.1f} s, total {sum(walls):.0f} s; model load {r.load_s:.1f} s "
          f"apart; peak RSS {rss_mb():.0f} MB (bench process) + {server or float('nan'):.0f} MB (FalkorDB server)")
    for f in failed:
        print(f"  failed: {f}")


# --- tsdb ----------------------------------------------------------------------------------------------------

CORPORA = {"tsdb": TSDB, "json-libs": DATA / "json-libs-corpus", "release-policy": DATA / "release-policy-corpus"}


def tsdb(verbose: bool, keep: Path | None, name: str = "tsdb", root: Path | None = None) -> None:
    """A corpus of real documents with key facts, real conflicts and near-misses (facts.json): tsdb, json-libs,
    release-policy, or any directory laid out the same way (docs/ and facts.json)."""
    root = root or CORPORA[name]
    if missing(root / "facts.json"):
        return
    data = json.loads((root / "facts.json").read_text("utf-8"))
    facts = data["questions"]
    # a corpus whose facts list a value's forms ("180" seconds or "3" minutes) says so: any one of them is found
    any_form = data.get("numbers") == "any"
    header(f"{name} ({len(facts)} questions over {len(list((root / 'docs').iterdir()))} documents)")
    totals = {"facts": 0, "found": 0, "from_doc": 0, "supports": 0, "conflicts": 0, "conf_found": 0,
              "conf_entity": 0, "near": 0, "near_flagged": 0, "near_flags": 0}
    runs: list[str] = []
    with tempfile.TemporaryDirectory(prefix=f"orbench-{name}-") as tmp:
        docs = Path(tmp) / "docs"
        shutil.copytree(root / "docs", docs)
        for qi, q in enumerate(facts, 1):
            out = keep_dir(keep, Path(tmp), f"{name}-q{qi}")
            try:
                info = child_run(q["question"], docs, out)
            except RuntimeError as e:
                print(f"Q{qi} FAILED: {e}")
                runs.append(f"Q{qi} failed")
                continue
            parsed = S.parse_report(json.loads((out / "report.json").read_text("utf-8")),
                                    (out / "report.md").read_text("utf-8"))
            fs = [S.score_fact(f, parsed, any_form) for f in q["facts"]]
            cs = [S.score_conflict(c, parsed) for c in q["conflicts"]]
            ns = [S.score_near_miss(m, parsed) for m in q.get("near_misses", [])]
            run_line = (f"wall {info['wall_s']:.1f} s (model load {info['model_load_s']:.1f} s apart), peak RSS "
                        f"{info['peak_rss_mb']:.0f} MB + FalkorDB server {info['server_peak_rss_mb'] or 0:.0f} MB, "
                        f"stages {info.get('stages')}")
            runs.append(f"Q{qi} {run_line}")
            print(f"\nQ{qi}: {q['question']}")
            print(f"  {run_line}")
            print(f"  report: {len(parsed.cited)} cited units, {len(parsed.conflicts)} conflicts, "
                  f"{len(parsed.evidence)} evidence items")
            print(f"  key facts {sum(f.found for f in fs)}/{len(fs)} (cited from the fact's doc "
                  f"{sum(f.from_doc for f in fs)}, cited quote holds the numbers {sum(f.quote_supports for f in fs)})")
            for f in fs:
                if verbose or f.found:
                    print(f"    [{'x' if f.found else ' '}] {f.name}"
                          + (f"  (doc {'yes' if f.from_doc else 'no'}): {f.where}" if f.found else ""))
            print(f"  conflicts found {sum(c.found for c in cs)}/{len(cs)} (naming the entity "
                  f"{sum(c.found_with_entity for c in cs)})")
            for c in cs:
                print(f"    [{'x' if c.found else ' '}] {c.name}" + (f": {c.where}" if c.found else ""))
            print(f"  near-misses flagged as a conflict without explanation: {sum(bool(m.flagged) for m in ns)}/"
                  f"{len(ns)} ({sum(len(m.flagged) for m in ns)} flags)   target 0")
            for m in ns:
                for fl in m.flagged:
                    print(f"    ! {m.name}: {fl}")
            if verbose:
                print("  report conflicts:")
                for view in parsed.conflicts:
                    print(f"    - {view.row}")
            totals["facts"] += len(fs)
            totals["found"] += sum(f.found for f in fs)
            totals["from_doc"] += sum(f.from_doc for f in fs)
            totals["supports"] += sum(f.quote_supports for f in fs)
            totals["conflicts"] += len(cs)
            totals["conf_found"] += sum(c.found for c in cs)
            totals["conf_entity"] += sum(c.found_with_entity for c in cs)
            totals["near"] += len(ns)
            totals["near_flagged"] += sum(bool(m.flagged) for m in ns)
            totals["near_flags"] += sum(len(m.flagged) for m in ns)
    t = totals
    print(f"\nsummary: {name}, code {commit()}")
    print(f"  command: {command()}")
    print(f"  key-fact recall: {pct(t['found'], t['facts'])}   target >= 80%; of the facts found, cited from the "
          f"fact's doc {t['from_doc']}, cited quote holds the numbers {t['supports']}")
    print(f"  conflicts found: {t['conf_found']}/{t['conflicts']} (naming the entity {t['conf_entity']})   "
          "target: all")
    print(f"  near-misses flagged without explanation: {t['near_flagged']}/{t['near']} ({t['near_flags']} flags)"
          "   target 0")
    for line in runs:
        print(f"  {line}")


# --- example -------------------------------------------------------------------------------------------------

def example(verbose: bool, keep: Path | None) -> None:
    corpus = code_root() / "examples" / "corpus"
    if not corpus.is_dir():
        corpus = REPO / "examples" / "corpus"
    header("example")
    with tempfile.TemporaryDirectory(prefix="orbench-example-") as tmp:
        out = keep_dir(keep, Path(tmp), "example")
        info = child_run(EXAMPLE_QUESTION, corpus, out)
        parsed = S.parse_report(json.loads((out / "report.json").read_text("utf-8")),
                                (out / "report.md").read_text("utf-8"))
    af = S.score_answer_first(parsed, EXAMPLE_OPTIONS)
    print(f"\nfirst paragraph: {parsed.first_paragraph[:1200]}")
    if verbose:
        print(f"\nanswer part (first section):\n{parsed.answer_text[:3000]}")
    print(f"\nconflicts ({len(parsed.conflicts)} rows):")
    spurious = 0
    for i, c in enumerate(parsed.conflicts, 1):
        flag = S.spurious_by_qualifier(c)
        spurious += flag
        print(f"  {i:2d}. {c.row}{'   <- different qualifiers' if flag else ''}")
        for q in c.quotes:
            print(f"        “{' '.join(q.split())[:220]}” qualifiers {sorted(S.qualifiers(q)) or '-'}")
    keys = {(c.entity.lower(), c.metric.lower()) for c in parsed.conflicts}
    print(f"\nsummary: example, code {commit()}")
    print(f"  command: {command()}")
    print(f"  first paragraph answers (a cited sentence names {'/'.join(EXAMPLE_OPTIONS)} with a recommendation "
          f"word): {'yes' if af.answers else 'no'} (names an option: {'yes' if af.names_option else 'no'}, carries "
          f"a citation: {'yes' if af.cited else 'no'}){': ' + af.sentence[:200] if af.answers else ''}")
    print(f"  conflicts: {len(parsed.conflicts)} rows over {len(keys)} entity+metric keys; spurious by the "
          f"qualifier heuristic {spurious} (target 0; every row is printed above for a human to judge)")
    print(f"  wall {info['wall_s']:.1f} s (model load {info['model_load_s']:.1f} s apart), peak RSS "
          f"{info['peak_rss_mb']:.0f} MB + FalkorDB server {info['server_peak_rss_mb'] or 0:.0f} MB, "
          f"stages {info.get('stages')}")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "_run":  # the child process of child_run
        _run_spec(sys.argv[2])
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    rd = sub.add_parser("ramdocs", help="RAMDocs dev questions with misinformation and same-name entities")
    rd.add_argument("--n", type=int, default=40)
    rd.add_argument("--seed", type=int, default=0)
    rd.add_argument("--all", action="store_true", help="every question (482)")
    for p in (rd, sub.add_parser("tsdb", help="the TSDB docs corpus and its key facts"),
              sub.add_parser("json-libs", help="the JSON libraries corpus (benchmark tables) and its key facts"),
              sub.add_parser("release-policy", help="the release-policy corpus (dates, durations) and its key facts"),
              sub.add_parser("example", help="the example corpus (examples/corpus)"),
              corpus := sub.add_parser("corpus", help="any corpus laid out like tsdb: DIR/docs and DIR/facts.json")):
        p.add_argument("--verbose", "-v", action="store_true")
        p.add_argument("--keep", type=Path, default=None, help="keep each run's report files under this dir")
        p.add_argument("--rescore", type=Path, default=None,
                       help="run nothing: score again the reports an earlier --keep DIR left in DIR")
    corpus.add_argument("dir", type=Path, help="a corpus directory outside the repository")
    args = ap.parse_args()
    global RESCORE
    RESCORE = args.rescore
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.keep is not None and args.keep.resolve().is_relative_to(REPO):
        ap.error("--keep must be outside the repository")
    if args.what == "ramdocs":
        ramdocs(args.n, args.seed, args.all, args.verbose, args.keep)
    elif args.what in CORPORA:
        tsdb(args.verbose, args.keep, args.what)
    elif args.what == "corpus":
        tsdb(args.verbose, args.keep, args.dir.resolve().name, args.dir.resolve())
    else:
        example(args.verbose, args.keep)


if __name__ == "__main__":
    main()
