"""Runs of a topic that never reached a digest: a run killed mid-way (SIGKILL, a lost machine) or one that
failed. The topic notes each run it starts (`Topic.undigested`) and a digest clears the list, so the next run
under the topic's lease knows them: it marks those the graph still calls running `interrupted` (their owner
is gone: we hold the lease now) and reports what they stored as its own news (runner.Recovered)."""

from __future__ import annotations

import logging
from typing import Any

from openresearch.agents.run.lease import owner_alive
from openresearch.agents.run.state import ACTIVE, end_left_run
from openresearch.errors import NotFound
from openresearch.graph.monitor_store import MonitorStore
from openresearch.graph.store import GraphStore
from openresearch.monitor.runner import Recovered

log = logging.getLogger(__name__)


def mark_interrupted(store: GraphStore, run: dict[str, Any], why: str) -> bool:
    """End a run the graph says is queued or running as `interrupted` (state.end_left_run)."""
    return end_left_run(store, run, "interrupted", why)


def interrupted_runs(ms: MonitorStore, run_ids: list[str]) -> list[str]:
    """Of `run_ids`, those the graph said were queued or running with their owner gone, now `interrupted`."""
    out: list[str] = []
    for rid in run_ids:
        try:
            run = ms.store.get_run(rid)
        except NotFound:  # killed before its Run node was written
            continue
        if run.get("status") in ACTIVE and not owner_alive(run.get("owner"), run.get("heartbeat_at")) \
                and mark_interrupted(ms.store, run, "the monitoring run stopped (killed) before its digest"):
            log.warning("monitoring run %s was left %s by a stopped process: marked interrupted", rid,
                        run.get("status"))
            out.append(rid)
    return out


def recover(ms: MonitorStore, run_ids: list[str]) -> Recovered:
    """The earlier runs `run_ids` (none digested) marked interrupted where still `running`, and what they stored."""
    out = Recovered(runs=list(run_ids))
    interrupted_runs(ms, run_ids)
    for r in ms.recovered_evidence(run_ids):
        out.evidence.add(r["evidence_id"])
        if r["new_source"]:
            out.sources.add(r["source_id"])
    return out
