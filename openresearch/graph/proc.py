"""Is a process alive? Shared by the two local servers' pid files (FalkorDB and Neo4j)."""

from __future__ import annotations

import os
from pathlib import Path


def proc_alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie (dead but not yet reaped by its parent).

    Without procfs (macOS) the answer is kill(0)'s; a process owned by another user counts as alive.
    Callers check what the process is (its name or command line), since pids are reused.
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return not Path("/proc/self").exists()
    except OSError:
        return True
    fields = stat.rsplit(")", 1)[-1].split()
    return not (fields and fields[0] in ("Z", "X", "x"))
