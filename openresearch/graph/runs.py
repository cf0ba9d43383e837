"""Runs, their plans and reports in the graph: what `runs list/show` and `--resume` read back."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from openresearch.errors import NotFound
from openresearch.graph.base_store import CatalogueStore
from openresearch.models import Plan


class RunStore(CatalogueStore):
    def save_run(self, run_id: str, question: str, *, status: str, stage: str, options: dict[str, Any],
                 started_at: int, finished_at: int | None = None, plan: Plan | None = None,
                 metrics: dict[str, Any] | None = None, progress: dict[str, Any] | None = None,
                 owner: str | None = None, heartbeat_at: int | None = None) -> None:
        self._write("upsert_run", id=run_id, question=question, status=status, stage=stage, owner=owner,
                    heartbeat_at=heartbeat_at,
                    options=json.dumps(options, sort_keys=True), plan=plan.model_dump_json() if plan else None,
                    started_at=started_at, finished_at=finished_at,
                    metrics=json.dumps(metrics, sort_keys=True) if metrics is not None else None,
                    progress=json.dumps(progress, sort_keys=True) if progress is not None else None)

    def heartbeat_runs(self, run_ids: Sequence[str], owner: str, now: int) -> None:
        """`owner` still runs these runs (those it owns; a run another process took over is left alone)."""
        if run_ids:
            self._write("run_heartbeat", ids=list(run_ids), owner=owner, now=now)

    def save_plan_questions(self, run_id: str, plan: Plan) -> None:
        rows = [{"id": q.id, "text": q.text, "key": q.text.lower(), "role": q.role, "depth": q.depth,
                 "keywords": q.keywords, "depends_on": q.depends_on, "position": i}
                for i, q in enumerate(plan.sub_questions)]
        self._write("upsert_plan_questions", run_id=run_id, rows=rows)

    def get_run(self, run_id: str) -> dict[str, Any]:
        rows = self._read("get_run", id=run_id)
        if not rows:
            raise NotFound(f"no run with id {run_id}")
        r = dict(rows[0])
        r["options"] = json.loads(r.get("options") or "{}")
        r["plan"] = Plan.model_validate_json(r["plan"]) if r.get("plan") else None
        r["metrics"] = json.loads(r["metrics"]) if r.get("metrics") else None
        r["progress"] = json.loads(r["progress"]) if r.get("progress") else {}
        return r

    def list_runs(self, limit: int = 20) -> list[dict[str, Any]]:
        return self._read("list_runs", limit=limit)

    def mark_examined(self, question_id: str, source_ids: Sequence[str]) -> None:
        if source_ids:
            self._write("mark_examined", question_id=question_id, source_ids=list(source_ids))

    def examined_sources(self, question_id: str) -> set[str]:
        return {r["id"] for r in self._read("examined_sources", question_id=question_id)}

    def link_evidence(self, question_id: str, evidence_ids: Sequence[str]) -> None:
        if evidence_ids:
            self._write("link_evidence_question", question_id=question_id, ids=list(evidence_ids))

    def save_report(self, run_id: str, title: str, markdown: str, verified: bool, created_at: int,
                    sections: list[dict[str, Any]], report_json: str | None = None) -> str:
        report_id = f"R-{run_id}"
        self._write("save_report", run_id=run_id, report_id=report_id, title=title, created_at=created_at,
                    markdown=markdown, verified=verified, json=report_json, sections=sections)
        return report_id

    def get_report(self, run_id: str) -> dict[str, Any]:
        """The stored report of a run: `json` (the Report model, or None for reports stored before it was kept)
        and `markdown`. NotFound when the run has no report yet."""
        rows = self._read("get_report", run_id=run_id)
        if not rows:
            raise NotFound(f"run {run_id} has no report")
        return dict(rows[0])

    def append_run_events(self, run_id: str, rows: Sequence[dict[str, Any]]) -> None:
        """Persist events (each `seq`, `type`, `at`, `data` as JSON); idempotent by run id and seq."""
        if rows:
            self._write("append_run_events", run_id=run_id,
                        rows=[{**r, "id": f"{run_id}#{r['seq']}"} for r in rows])

    def run_events(self, run_id: str, after: int = 0, limit: int = 1000) -> list[dict[str, Any]]:
        """A run's persisted events after sequence number `after`, in order: `seq`, `at`, `data` (JSON)."""
        return self._read("run_events", run_id=run_id, after=after, limit=limit)

    def last_run_event(self, run_id: str) -> int:
        rows = self._read("last_run_event", run_id=run_id)
        return int(rows[0]["seq"] or 0) if rows else 0
