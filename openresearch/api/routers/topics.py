"""Watched topics over HTTP: `/topics` (add, list, show, pause, resume, run now, remove), their digests, and
"as of DATE" reads of values and conflicts. A run requested here is made due now; the process's monitoring
worker (or any `monitor worker`) runs it under its lease."""

from __future__ import annotations

import time
from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Response
from pydantic import BaseModel, Field

from openresearch.api.deps import StateDep, StoreDep
from openresearch.api.problems import PROBLEM_RESPONSES
from openresearch.boundary import Door
from openresearch.graph.monitor_store import MonitorStore
from openresearch.models import ConflictGroup
from openresearch.monitor import asof
from openresearch.monitor.digest import to_html, to_markdown
from openresearch.monitor.models import Digest, Topic
from openresearch.monitor.service import checked_topic

router = APIRouter(prefix="/topics", tags=["topics"], responses={400: PROBLEM_RESPONSES[400]})
TopicId = Annotated[str, Path(max_length=100)]
AsOf = Annotated[date | None, Query(description="Values current at the end of this day (default: now).")]


class TopicIn(BaseModel):
    question: str = Field(max_length=2000)
    sources: list[str] = Field(default_factory=lambda: ["web"], max_length=20)
    entities: list[str] = Field(default_factory=list, max_length=50)
    every: str = Field(default="1d", max_length=100, description="1d, 6h, 30m or a cron expression")
    style: Literal["digest", "report"] = "digest"
    offline: bool = False
    webhook: str | None = Field(default=None, max_length=2000)
    webhook_empty: bool = Field(default=False, description="Post a digest with nothing new too.")


class TopicCreated(Topic):
    """The topic as added, with its webhook's signing secret: shown in this answer only."""

    webhook_secret: str | None = None


def _now() -> int:
    return int(time.time() * 1000)


@router.post("", response_model=TopicCreated, status_code=201, responses={422: PROBLEM_RESPONSES[422]})
def add_topic(st: StateDep, body: TopicIn, response: Response) -> TopicCreated:
    """Watch a topic (or update the one with the same question and sources), checked like every door: local
    sources only under OPENRESEARCH_API_LOCAL_ROOTS, known source kinds, a sane interval, a public webhook."""
    t = checked_topic(body.question, sources=body.sources, door=Door.service(st.settings, "api"),
                      entities=body.entities, every=body.every, style=body.style,
                      options={"offline": True} if body.offline else {}, webhook=body.webhook, now=_now())
    t = t.model_copy(update={"webhook_empty": body.webhook_empty and bool(body.webhook)})
    ms = MonitorStore(st.store)
    ms.save_topic(t, _now())
    response.headers["Location"] = f"/topics/{t.id}"
    return TopicCreated.model_validate({**ms.topic(t.id).model_dump(), "webhook_secret": t.webhook_secret})


@router.get("", response_model=list[Topic])
def list_topics(store: StoreDep, limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> list[Topic]:
    return MonitorStore(store).topics(limit)


@router.get("/values", response_model=list[dict[str, Any]])
def values(store: StoreDep, entity: Annotated[str | None, Query(max_length=200)] = None,
           metric: Annotated[str | None, Query(max_length=200)] = None, as_of: AsOf = None,
           superseded: Annotated[bool, Query(description="Include superseded values.")] = False,
           ) -> list[dict[str, Any]]:
    """Observed values current at `as_of` (each with its evidence, dates and supersession)."""
    keep = ("id", "entity", "metric", "raw_value", "raw_unit", "value", "unit", "condition", "as_of", "published_at",
            "superseded_by", "evidence_id", "source_id", "url")
    return [{k: r.get(k) for k in keep} for r in asof.values(store, entity=entity, metric=metric, as_of=as_of,
                                                             include_superseded=superseded)]


@router.get("/conflicts", response_model=list[ConflictGroup])
def conflicts(store: StoreDep, as_of: AsOf = None) -> list[ConflictGroup]:
    """Conflict groups among the values current at `as_of` (superseded values are not in conflict)."""
    return asof.conflicts(store, as_of)


@router.get("/{topic_id}", response_model=Topic, responses={404: PROBLEM_RESPONSES[404]})
def get_topic(store: StoreDep, topic_id: TopicId) -> Topic:
    return MonitorStore(store).topic(topic_id)


@router.delete("/{topic_id}", status_code=204, responses={404: PROBLEM_RESPONSES[404]})
def remove_topic(store: StoreDep, topic_id: TopicId) -> Response:
    MonitorStore(store).remove_topic(topic_id)
    return Response(status_code=204)


@router.post("/{topic_id}/pause", response_model=Topic, responses={404: PROBLEM_RESPONSES[404]})
def pause(store: StoreDep, topic_id: TopicId) -> Topic:
    ms = MonitorStore(store)
    ms.set_status(topic_id, "paused")
    return ms.topic(topic_id)


@router.post("/{topic_id}/resume", response_model=Topic, responses={404: PROBLEM_RESPONSES[404]})
def resume(store: StoreDep, topic_id: TopicId) -> Topic:
    ms = MonitorStore(store)
    t = ms.topic(topic_id)
    ms.set_status(topic_id, "active", max(t.next_due, _now()))
    return ms.topic(topic_id)


@router.post("/{topic_id}/run", response_model=Topic, status_code=202, responses={404: PROBLEM_RESPONSES[404]})
def run_now(store: StoreDep, topic_id: TopicId) -> Topic:
    """Make the topic due now; a monitoring worker runs it."""
    ms = MonitorStore(store)
    t = ms.topic(topic_id)
    ms.set_status(topic_id, t.status, _now())
    return ms.topic(topic_id)


@router.get("/{topic_id}/digests", response_model=list[Digest], responses={404: PROBLEM_RESPONSES[404]})
def digests(store: StoreDep, topic_id: TopicId, limit: Annotated[int, Query(ge=1, le=100)] = 20) -> list[Digest]:
    """A topic's digests, newest first."""
    ms = MonitorStore(store)
    ms.topic(topic_id)
    return ms.digests(topic_id, limit)


@router.get("/{topic_id}/digests/latest", responses={404: PROBLEM_RESPONSES[404]})
def latest_digest(store: StoreDep, topic_id: TopicId,
                  format: Annotated[Literal["json", "markdown", "html"], Query()] = "json") -> Response:
    """The newest digest as JSON, Markdown or HTML."""
    found = MonitorStore(store).digests(topic_id, 1)
    if not found:
        from openresearch.errors import NotFound

        raise NotFound(f"topic {topic_id} has no digest yet")
    d = found[0]
    if format == "markdown":
        return Response(to_markdown(d), media_type="text/markdown; charset=utf-8")
    if format == "html":
        return Response(to_html(d), media_type="text/html; charset=utf-8")
    return Response(d.model_dump_json(), media_type="application/json")
