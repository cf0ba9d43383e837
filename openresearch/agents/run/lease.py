"""Who runs a run: every save of a run's state records its owner (host, process id and a random token of the
process) and when it last said it was alive, and a running manager renews that every `HEARTBEAT_S`.

Another process asked to cancel or resume a run that the graph says is queued or running, but that it does not
run itself, uses this to tell a run in flight elsewhere (409: cancel it there) from one whose process is gone
(an MCP stdio server whose client exited, a killed server): that one it may end or take over. On the same host
the owner's process id answers at once; across hosts the heartbeat does, after `LEASE_S` without one.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any

from openresearch.graph.store import GraphStore

log = logging.getLogger(__name__)

HEARTBEAT_S = 10.0
LEASE_S = 60.0  # several missed heartbeats: a loaded machine or a slow graph write is not a dead owner
_TOKEN = secrets.token_hex(4)


def process_owner() -> str:
    """This process as a run's owner: host:pid:token (the pid read on each call: a forked child is another)."""
    return f"{socket.gethostname()}:{os.getpid()}:{_TOKEN}"


def now_ms() -> int:
    return int(time.time() * 1000)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    return True


def owner_alive(owner: str | None, heartbeat_at: int | None, *, now: int | None = None,
                lease_s: float = LEASE_S) -> bool:
    """Whether the process that owns a run may still be running it. No owner recorded (a run stored by an
    earlier version): nobody can be asked, so no. This process: yes."""
    if not owner:
        return False
    if owner == process_owner():
        return True
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host == socket.gethostname() and pid_text.isdigit():
        return _pid_alive(int(pid_text))
    return heartbeat_at is not None and (now if now is not None else now_ms()) - heartbeat_at <= lease_s * 1000


def run_owner_alive(run: dict[str, Any], lease_s: float = LEASE_S) -> bool:
    return owner_alive(run.get("owner"), run.get("heartbeat_at"), lease_s=lease_s)


async def keep_alive(store: GraphStore, run_ids: Callable[[], Sequence[str]], every: float = HEARTBEAT_S) -> None:
    """Until cancelled: every `every` seconds, this process still owns `run_ids()` (those it owns)."""
    while True:
        await asyncio.sleep(every)
        ids = list(run_ids())
        if ids:
            try:
                await asyncio.to_thread(store.heartbeat_runs, ids, process_owner(), now_ms())
            except Exception:  # a graph that is away: the next beat tries again
                log.warning("could not renew the heartbeat of %d runs", len(ids), exc_info=True)
