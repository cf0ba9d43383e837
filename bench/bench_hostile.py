"""Hostile files and places, each case in a fresh interpreter: wall time, peak RSS and the one line it ends with.

Usage:
  python bench/bench_hostile.py [--files 200] [--lines 20000] [--skip-full-disk]

Cases (target: every case ends within 10 s with one line, nothing read through a link, nothing lost):
  link-swap      a folder of FILES documents; after the first is read, half the rest are swapped for symbolic links
                 to a secret outside and a sub-folder for a link to a folder outside (the real local ingest, the
                 embedded FalkorDB): how many were indexed, refused, and whether the secret reached the graph
  fifo           the same folder with FILES/4 FIFOs named *.md in it, and files swapped for FIFOs after the walk
  out-link       `openresearch research ... --out DIR` with DIR/report.md a planted link to a file outside
  full-disk      the embedded FalkorDB on a 4 MB tmpfs, filled until the server answers MISCONF; then the read
                 commands (`graph stats`, `evidence export`) and a write (`evidence import`), each its own process
                 (needs root to mount; skipped with the reason otherwise)
  numbers        LINES evidence lines whose values are written in every form (1.5e3, 1.5 × 10^3, 1 234,5, 1.234,5,
                 1'234.5) plus unreadable ones (1.2.3, 2e), imported into the embedded FalkorDB; values checked exact
  html-attribute a 10 MB data: attribute in an HTML page, then the text after it
Prints figures only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
SECRET = "root:x:0:0:an outside secret entry:/root:/bin/bash\n"


def _peak_mb() -> float:
    """This process's peak RSS since its exec (VmHWM; ru_maxrss would count the parent's peak, which survives
    fork and exec)."""
    with contextlib.suppress(OSError, ValueError, StopIteration):
        status = Path("/proc/self/status").read_text()
        return int(next(line for line in status.splitlines() if line.startswith("VmHWM:")).split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _corpus(folder: Path, n: int) -> list[Path]:
    (folder / "sub").mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        p = folder / ("sub" if i % 10 == 0 else "") / f"doc{i:04d}.md"
        p.write_text(f"# Note {i}\n\nThe queue moved {i}00 MB/s in trial {i} of the week, said the team.\n")
        paths.append(p)
    return paths


def _store(data: Path) -> object:
    from openresearch.graph.falkor import FalkorBackend
    from openresearch.graph.falkor_server import EmbeddedFalkor
    from openresearch.graph.store import GraphStore

    sock = EmbeddedFalkor(data).ensure().socket
    store = GraphStore(FalkorBackend("hostile", unix_socket=str(sock)))
    store.init_schema()
    return store


def case_link_swap(tmp: Path, files: int, fifo: bool = False) -> str:
    from openresearch.graph.store import GraphStore
    from openresearch.ingest.embed import HashEmbedder
    from openresearch.ingest.local import index_documents

    store = _store(tmp / "data")
    assert isinstance(store, GraphStore)
    outside = tmp / "outside"
    outside.mkdir()
    corpus = tmp / "corpus"
    paths = _corpus(corpus, files)
    for i in range(files):
        (outside / f"doc{i:04d}.md").write_text(SECRET)
    if fifo:
        for i in range(files // 4):
            os.mkfifo(corpus / f"pipe{i:04d}.md")
    swapped: list[str] = []

    def swap(_name: str) -> None:
        if swapped:
            return
        swapped.append(_name)
        for p in paths[2::2]:
            if p.parent.name == "sub":
                continue
            p.unlink()
            if fifo:
                os.mkfifo(p)  # a FIFO where the walk saw a file: the open must not block
            else:
                p.symlink_to(outside / p.name)
        if not fifo:
            for p in (corpus / "sub").iterdir():
                p.unlink()
            (corpus / "sub").rmdir()
            (corpus / "sub").symlink_to(outside, target_is_directory=True)

    report = index_documents(store, corpus, HashEmbedder(dim=64), progress=swap)
    leaked = store.backend.read("MATCH (c:Chunk) WHERE c.text CONTAINS 'outside secret' RETURN count(c) AS n")[0]["n"]
    kinds = "FIFO" if fifo else "link"
    return (f"{report.added} indexed, {len(report.errors)} refused at open, {len(report.skipped)} skipped by the walk "
            f"({kinds}s), secret chunks in the graph: {leaked}")


def _cli(env: dict[str, str], *args: str) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "openresearch.cli", *args], env=env, capture_output=True, text=True,
                          timeout=120)
    lines = [line for line in done.stderr.splitlines() if line.strip()] or done.stdout.strip().splitlines() or [""]
    return done.returncode, lines[-1][:110]


def _env(data: Path) -> dict[str, str]:
    env = {**os.environ, "OPENRESEARCH_DATA_DIR": str(data), "OPENRESEARCH_LLM_BASE_URL": "", "HF_HUB_OFFLINE": "1"}
    env.pop("OPENRESEARCH_GRAPH_URL", None)
    return env


def case_out_link(tmp: Path) -> str:
    victim = tmp / "victim.txt"
    victim.write_text("precious\n")
    out = tmp / "out"
    out.mkdir()
    (out / "report.md").symlink_to(victim)
    code, line = _cli(_env(tmp / "data"), "research", "Which queue is faster?", "--offline", "--out", str(out))
    intact = victim.read_text() == "precious\n"
    return f"exit {code}, victim intact: {intact}; {line}"


def _lines(n: int) -> list[str]:
    forms = [("1.5e3", 1500.0), ("1e3 MB/s", 1000.0), ("1.5 × 10^3", 1500.0), ("1 234,5", 1234.5),
             ("1.234,5", 1234.5), ("1'234.5", 1234.5), ("2.5E-1", 0.25), ("1.2.3", None), ("2e", None)]
    out = []
    for i in range(n):
        raw, _ = forms[i % len(forms)]
        out.append(json.dumps({"source": {"url": f"https://numbers.example/{i}"},
                               "quote": f"The queue moved {raw} in trial {i}.",
                               "observations": [{"entity": "Queuey", "metric": "throughput", "value": raw,
                                                 "unit": "" if "MB/s" in raw else "MB/s"}]}))
    return out


def case_numbers(tmp: Path, lines: int) -> str:
    from openresearch.graph.store import GraphStore
    from openresearch.ingest.evidence_io import import_lines

    store = _store(tmp / "data")
    assert isinstance(store, GraphStore)
    report = import_lines(store, _lines(lines))
    values = {r["v"] for r in store.backend.read("MATCH (o:Observation) RETURN DISTINCT o.value AS v")}
    exact = values == {1500.0, 1000.0, 1234.5, 0.25}
    return f"{report.imported} imported, {len(report.errors)} refused with their line; values exact: {exact}"


def case_html_attribute(tmp: Path) -> str:
    from openresearch.ingest.documents import parse_file

    page = tmp / "inline.html"
    page.write_text("<html><body><p>Before the picture: the queue moved 605 MB/s in the first trial.</p>"
                    f"<img src=\"data:image/png;base64,{'QUJD' * 2_600_000}\">"
                    "<p>After the picture: the queue moved 710 MB/s in the second trial.</p></body></html>")
    warnings: list[str] = []
    doc = parse_file(page, warnings=warnings)
    return f"{page.stat().st_size / 1e6:.1f} MB page: text after the attribute kept: {'710 MB/s' in doc.text}"


def case_full_disk(tmp: Path) -> str:
    mount = tmp / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        return f"skipped: cannot mount a tmpfs ({done.stderr.strip()[:60]})"
    from openresearch.graph.falkor import FalkorBackend
    from openresearch.graph.falkor_server import EmbeddedFalkor

    data = mount / "data"
    try:
        env = _env(data)
        evidence = tmp / "evidence.jsonl"
        evidence.write_text("\n".join(_lines(7)) + "\n")
        _cli(env, "evidence", "import", str(evidence))
        with (mount / "filler").open("wb") as fh, contextlib.suppress(OSError):
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
        backend = FalkorBackend("openresearch", unix_socket=str(EmbeddedFalkor(data).ensure().socket))
        for i in range(3):
            with contextlib.suppress(Exception):
                backend.write(f"CREATE (:Filler {{n: {i}, pad: $pad}})", {"pad": "x" * 200_000})
        parts = []
        for args in (["graph", "stats", "--json"], ["evidence", "export", str(tmp / "export.jsonl")],
                     ["evidence", "import", str(evidence)]):
            t0 = time.perf_counter()
            code, line = _cli(env, *args)
            parts.append(f"{args[0]} {args[1]}: exit {code} in {time.perf_counter() - t0:.1f} s")
        exported = len((tmp / "export.jsonl").read_text().splitlines())
        return "; ".join(parts) + f"; {exported} evidence lines exported; the import said: {line[:90]}"
    finally:
        with contextlib.suppress(FileNotFoundError):
            (mount / "filler").unlink()
        try:
            if data.exists():
                EmbeddedFalkor(data).stop()
        finally:
            subprocess.run(["umount", "-l", str(mount)], check=False)


def run_case(name: str, files: int, lines: int) -> None:
    """Child side: one case in this fresh interpreter; prints seconds, peak RSS and its line."""
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        start = time.perf_counter()
        try:
            if name == "link-swap":
                line = case_link_swap(tmp, files)
            elif name == "fifo":
                line = case_link_swap(tmp, files, fifo=True)
            elif name == "out-link":
                line = case_out_link(tmp)
            elif name == "full-disk":
                line = case_full_disk(tmp)
            elif name == "numbers":
                line = case_numbers(tmp, lines)
            else:
                line = case_html_attribute(tmp)
        finally:
            with contextlib.suppress(Exception):
                from openresearch.graph.falkor_server import EmbeddedFalkor

                if (tmp / "data").exists():
                    EmbeddedFalkor(tmp / "data").stop()
        seconds = time.perf_counter() - start
    print(f"{seconds:6.2f} s  peak RSS {_peak_mb():5.0f} MB  {line}")


CASES = ("link-swap", "fifo", "out-link", "full-disk", "numbers", "html-attribute")


def bench_hostile(files: int = 200, lines: int = 20_000, skip_full_disk: bool = False) -> None:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "openresearch.cli", "research", "--help"], capture_output=True, check=True)
    print(f"hostile cases (fresh interpreter each; {files} files, {lines:,} evidence lines; wall time of the case; "
          f"one `openresearch research --help` process takes {time.perf_counter() - t0:.1f} s here)")
    for name in CASES:
        if name == "full-disk" and skip_full_disk:
            continue
        try:
            out = subprocess.run([sys.executable, str(HERE), "--case", name, "--files", str(files),
                                  "--lines", str(lines)], capture_output=True, text=True, timeout=600)
            result = out.stdout.strip().splitlines()[-1:] or out.stderr.strip().splitlines()[-1:] or ["no output"]
        except subprocess.TimeoutExpired:
            result = ["did not end within 600 s"]
        print(f"  {name:15} {result[0]}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--skip-full-disk", action="store_true")
    parser.add_argument("--case", choices=CASES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        run_case(args.case, args.files, args.lines)
        return
    bench_hostile(args.files, args.lines, args.skip_full_disk)


if __name__ == "__main__":
    main()
