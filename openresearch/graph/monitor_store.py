"""Monitoring in the graph: topics, leases, the supersession pass's reads and writes, digests.

A class over a GraphStore's backend and catalogue (one method per monitor_*.cypher file), so monitoring adds
no method to GraphStore itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from openresearch.errors import NotFound
from openresearch.graph.backend import Row
from openresearch.graph.base_store import CatalogueStore
from openresearch.graph.store import GraphStore
from openresearch.monitor.models import Digest, Topic
from openresearch.monitor.timefacts import Supersession

_JSON_FIELDS = ("options",)
_STORED = ("question", "sources", "entities", "schedule", "style", "status", "webhook", "origin", "next_due",
           "webhook_secret", "webhook_empty")


class MonitorStore(CatalogueStore):
    def __init__(self, store: GraphStore) -> None:
        self.store = store
        self.backend = store.backend
        self.catalogue = store.catalogue

    # --- topics ------------------------------------------------------------------------------------
    def save_topic(self, topic: Topic, now: int) -> str:
        props: dict[str, Any] = {k: getattr(topic, k) for k in _STORED}
        props["options"] = json.dumps(topic.options, sort_keys=True)
        rows = self._write("monitor_upsert_topic", id=topic.id, props=props, now=now)
        return str(rows[0]["id"])

    def topic(self, topic_id: str) -> Topic:
        rows = self._read("monitor_get_topic", id=topic_id)
        if not rows:
            raise NotFound(f"no topic with id {topic_id}")
        return _topic(rows[0]["topic"])

    def topics(self, limit: int = 1000) -> list[Topic]:
        return [_topic(r["topic"]) for r in self._read("monitor_list_topics", limit=limit)]

    def set_status(self, topic_id: str, status: str, next_due: int | None = None) -> None:
        if not self._write("monitor_set_topic_status", id=topic_id, status=status, next_due=next_due):
            raise NotFound(f"no topic with id {topic_id}")

    def remove_topic(self, topic_id: str) -> None:
        rows = self._write("monitor_remove_topic", id=topic_id)
        if not rows or not int(rows[0]["removed"] or 0):
            raise NotFound(f"no topic with id {topic_id}")

    # --- leases ------------------------------------------------------------------------------------
    def claim(self, topic_id: str, owner: str, now: int, lease_ms: int, *, due_only: bool = True) -> bool:
        """Take the topic's lease (atomically: at most one owner at a time)."""
        return bool(self._write("monitor_claim_topic", id=topic_id, owner=owner, now=now, until=now + lease_ms,
                                due_only=due_only))

    def due_topics(self, now: int, limit: int = 20) -> list[str]:
        return [str(r["id"]) for r in self._read("monitor_due_topics", now=now, limit=limit)]

    def due_held_here(self, now: int, host: str, limit: int = 20) -> list[tuple[str, str]]:
        """(topic id, lease owner) of due topics whose unexpired lease a process on `host` holds."""
        return [(str(r["id"]), str(r["owner"])) for r in self._read("monitor_due_held_here", now=now,
                                                                     here=f"{host}:", limit=limit)]

    def renew(self, topic_id: str, owner: str, until: int) -> bool:
        return bool(self._write("monitor_renew_lease", id=topic_id, owner=owner, until=until))

    def finish(self, topic_id: str, owner: str, run_id: str, now: int, next_due: int) -> bool:
        return bool(self._write("monitor_finish_topic", id=topic_id, owner=owner, run_id=run_id, now=now,
                                next_due=next_due))

    def release(self, topic_id: str, owner: str, next_due: int) -> bool:
        return bool(self._write("monitor_release_lease", id=topic_id, owner=owner, next_due=next_due))

    def begin_run(self, topic_id: str, owner: str, run_id: str) -> bool:
        """Note `run_id` as started and not yet digested (cleared by `finish`)."""
        return bool(self._write("monitor_begin_run", id=topic_id, owner=owner, run_id=run_id))

    def unlock(self, topic_id: str) -> tuple[str | None, int | None]:
        """Break the topic's lease; returns who held it and until when (None, None: nobody)."""
        rows = self._write("monitor_unlock_topic", id=topic_id)
        if not rows:
            raise NotFound(f"no topic with id {topic_id}")
        return rows[0]["owner"], rows[0]["until"]

    def recovered_evidence(self, run_ids: Sequence[str]) -> list[Row]:
        """Evidence the runs `run_ids` first stored (evidence_id, source_id, new_source)."""
        return self._read("monitor_recovered_evidence", run_ids=list(run_ids)) if run_ids else []

    # --- facts over time ---------------------------------------------------------------------------
    def observation_rows(self) -> list[Row]:
        """The current observations (of current sources), with when each held and when the graph recorded it."""
        return self._read("monitor_observations")

    def observation_history(self, metric: str | None = None) -> list[Row]:
        """Every observation, kept earlier versions' too, with both clocks (observation_history_all.cypher)."""
        return self._read("observation_history_all", metric=metric)

    def stamp_times(self, recorded: Sequence[str], retracted: Sequence[str], now: int) -> None:
        """The second clock: the observations of evidence `recorded` (ids) were recorded at `now`, those of
        evidence `retracted` stopped being held at `now` (a time already stamped is kept)."""
        if recorded:
            self._write("monitor_stamp_recorded", ids=list(recorded), now=now)
        if retracted:
            self._write("monitor_stamp_retracted", ids=list(retracted), now=now)

    def write_supersessions(self, items: Sequence[Supersession], now: int, released: Sequence[str] = ()) -> int:
        """Mark `items` and make `released` (observation ids) current again; returns how many were marked."""
        if released:
            self._write("monitor_release_supersessions", ids=list(released))
        if not items:
            return 0
        rows = [{"old": s.old, "new": s.new, "at": s.at_ms, "late": s.late} for s in items]
        self._write("monitor_write_supersessions", rows=rows, now=now)
        self._write("monitor_drop_stale_supersedes")
        return len(rows)

    def drop_removed_supersedes(self, source_ids: Sequence[str]) -> None:
        """Nothing points at the observations of removed sources (`source_ids`; their kept last versions)."""
        if source_ids:
            self._write("monitor_drop_removed_supersedes", ids=list(source_ids))

    def snapshot(self) -> list[Row]:
        return self._read("monitor_snapshot")

    def run_evidence(self, run_id: str) -> set[str]:
        """The evidence answering the questions `run_id` asked (new and earlier items alike)."""
        return {r["id"] for r in self._read("monitor_run_evidence", run_id=run_id)}

    # --- digests -----------------------------------------------------------------------------------
    def save_digest(self, digest: Digest, markdown: str) -> None:
        self._write("monitor_save_digest", id=digest.id, topic_id=digest.topic_id, run_id=digest.run_id,
                    at=digest.at, nothing_changed=digest.nothing_changed, data=digest.model_dump_json(),
                    markdown=markdown, evidence_ids=digest.evidence_ids)

    def digests(self, topic_id: str, limit: int = 20) -> list[Digest]:
        return [Digest.model_validate_json(r["data"]) for r in self._read("monitor_digests", topic_id=topic_id,
                                                                          limit=limit)]


def _topic(raw: dict[str, Any]) -> Topic:
    data = {k: v for k, v in raw.items() if k in Topic.model_fields and v is not None}
    for k in _JSON_FIELDS:
        if isinstance(data.get(k), str):
            data[k] = json.loads(data[k])
    return Topic.model_validate(data)
