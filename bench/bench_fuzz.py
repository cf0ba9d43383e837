"""The property suite's long run: tests/property with the `long` Hypothesis profile (random, not derandomized).

Usage:
  python bench/bench_fuzz.py [--examples 2000] [-k EXPR]

CI runs the same properties with a small fixed budget (50 examples or fewer each, derandomized). This runs
each with --examples and prints, per test, pass/fail and seconds, then the totals. A failure prints
Hypothesis' minimal example and its @reproduce_failure blob: fix the module it concerns and pin the case
in tests/property. Needs the embedded FalkorDB (the graph properties start it like the tests do).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=2000, help="examples per property (default 2000)")
    ap.add_argument("-k", default="", help="pytest -k expression to run a subset")
    args = ap.parse_args()
    env = dict(os.environ, HYPOTHESIS_PROFILE="long", HYPOTHESIS_EXAMPLES=str(args.examples),
               OPENRESEARCH_SKIP_NEO4J="1")
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore", "-rA",
           "--durations=0", "--timeout=0", str(REPO / "tests" / "property")]
    if args.k:
        cmd += ["-k", args.k]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    out = proc.stdout + proc.stderr
    durations = {m.group(2): float(m.group(1)) for m in re.finditer(r"^([\d.]+)s call\s+(\S+)", out, re.M)}
    results = re.findall(r"^(PASSED|FAILED|ERROR) (\S+)", out, re.M)
    for status, test in results:
        print(f"{status:6} {durations.get(test, 0.0):7.1f} s  {test.split('::', 1)[-1]}")
    failed = [t for s, t in results if s != "PASSED"]
    print(f"{len(results)} properties, {args.examples} examples each (long profile): {len(results) - len(failed)} "
          f"passed, {len(failed)} failed, {wall:.0f} s wall")
    if failed or proc.returncode not in (0, 5):
        # the failures section only (-rA also prints every passing test's captured log)
        m = re.search(r"^=+ (?:FAILURES|ERRORS) =+$(.*?)^=+ (?:warnings summary|PASSES|short test summary)", out,
                      re.M | re.S)
        print(m.group(1)[-30_000:] if m else out[-20_000:])
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
