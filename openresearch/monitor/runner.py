"""One monitoring run: the topic's research run (merged into the main graph by the run's idempotent MERGEs),
then the supersession pass, then the digest of what changed, verified like a report (digest_verify.py) and
stored with the topic, run and evidence.

The graph is read twice per run for observations (before the research run, and after it for the
supersession pass, whose writes are applied to that read in memory) and twice for the source/evidence ids."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from openresearch.agents.run.events import EventRecord
from openresearch.agents.run.pipeline import research
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.services import Services
from openresearch.boundary import Door
from openresearch.graph.backend import Row
from openresearch.graph.monitor_store import MonitorStore
from openresearch.graph.store import GraphStore
from openresearch.implied_conflicts import METRICS as IMPLIED_METRICS
from openresearch.ingest.safety import UrlGuard
from openresearch.models import ConflictGroup, EvidenceView
from openresearch.monitor import digest as digests
from openresearch.monitor.clock import Clock
from openresearch.monitor.delta import (
    Snapshot,
    changed_entities,
    conflict_item,
    conflicts_as_of,
    raw_value,
    timed_observations,
    value_changes,
    with_supersessions,
)
from openresearch.monitor.digest_verify import cited, verify
from openresearch.monitor.edit_twins import read_twins
from openresearch.monitor.edits import document_change, edited_sources, unchanged_quotes, values_left
from openresearch.monitor.models import Digest, DocumentChange, EvidenceItem, Topic, ValueItem
from openresearch.monitor.schedule import parse_schedule
from openresearch.monitor.timefacts import Supersession, changes, releases
from openresearch.monitor.webhook import post_digest

log = logging.getLogger(__name__)


@dataclass
class MonitorResult:
    digest: Digest
    run_id: str
    extracted: int  # evidence items the run's extraction produced (0 over an unchanged world)
    supersessions: int


def run_options(topic: Topic, services: Services) -> RunOptions:
    """The research run of a topic. After its first run the search APIs are asked only for what appeared since
    the day before the last run (a day of overlap: publication dates are coarse)."""
    since = None if topic.last_run_at is None else (
        datetime.fromtimestamp(topic.last_run_at / 1000, tz=UTC).date() - timedelta(days=1))
    data = {"question": topic.question, "sources": topic.sources, "since": since,
            "out": services.settings.data_dir / "monitor" / topic.id, **topic.options}
    if topic.style == "report":
        data.setdefault("style", "report")
    else:
        data.setdefault("style", "brief")
    return RunOptions.model_validate(data)


def run_services(topic: Topic, services: Services) -> Services:
    """The services for a monitoring run: HTTP cache entries count as fresh for at most half the schedule's
    period, so every page read before is revalidated (If-None-Match / If-Modified-Since: a 304 costs no body
    and changes nothing) and every search is asked again."""
    ttl = min(services.settings.cache_ttl_s, parse_schedule(topic.schedule).period_ms() // 2000)
    if ttl == services.settings.cache_ttl_s:
        return services
    return replace(services, settings=services.settings.model_copy(update={"cache_ttl_s": ttl}))


def supersede(ms: MonitorStore, now: int) -> int:
    """The supersession pass over the whole graph; returns how many observations it marked (0 on a re-run).
    Values whose successor is gone (or was another lineage's) are made current again."""
    timed_obs = timed_observations(ms.observation_rows())
    return ms.write_supersessions(changes(timed_obs), now, releases(timed_obs))


def verify_digest(store: GraphStore, d: Digest, known: dict[str, EvidenceView]) -> Digest:
    """The digest's sentences through the report verifier's checks against the evidence stored now (`known`:
    views already read); a sentence that fails is withheld (digest_verify.py)."""
    missing = [e for e in cited(d) if e not in known]
    found = {**known, **{v.id: v for v in store.evidence(missing)}} if missing else dict(known)
    return verify(d, found)


async def run_topic(topic: Topic, services: Services, clock: Clock, *, run_id: str | None = None,
                    on_event: Callable[[EventRecord], None] | None = None,
                    http: httpx.Client | None = None, recovered: Recovered | None = None,
                    door: Door | None = None) -> MonitorResult:
    """`recovered`: what runs of this topic that never reached a digest (killed, failed) added to the graph;
    it is reported as this run's news. `door`: whose rules the webhook is posted under (default: the CLI's)."""
    store = services.store
    ms = MonitorStore(store)
    tol = store.tolerance
    now = clock.now_ms()
    rec = recovered or Recovered()
    before = rec.without(Snapshot.from_rows(await asyncio.to_thread(ms.snapshot)))
    rows_before = [r for r in await asyncio.to_thread(ms.observation_rows) if r["evidence_id"] not in rec.evidence]
    extracted = 0

    def count(rec: EventRecord) -> None:
        nonlocal extracted
        if rec.event.type == "evidence_added":
            extracted += int(getattr(rec.event, "count", 0))
        if on_event is not None:
            on_event(rec)

    rid = run_id or f"mon-{topic.id[2:]}-{now}-{uuid.uuid4().hex[:4]}"
    await research(run_options(topic, services), run_services(topic, services), run_id=rid, subscribers=[count])
    after = Snapshot.from_rows(await asyncio.to_thread(ms.snapshot))
    # the second clock, on the monitor's clock: what the graph recorded and stopped holding in this run
    await asyncio.to_thread(ms.stamp_times, sorted(after.evidence - before.evidence),
                            sorted(before.evidence - after.evidence), now)
    rows = await asyncio.to_thread(ms.observation_rows)
    if await asyncio.to_thread(read_twins, services, run_options(topic, services), before, after, rows_before, rows,
                               now):  # an edited figure the run's reading left out is read as the edit it is
        rows = await asyncio.to_thread(ms.observation_rows)
    # an edited document: its previous version's values against the new version's (edits.py); the new
    # version's values supersede the old ones (one lineage), whatever the pass below decides across documents
    edited, restated = await asyncio.to_thread(_edits, store, before, after, rows_before, rows)
    timed_obs = timed_observations(rows)
    todo, released = changes(timed_obs), releases(timed_obs)
    await asyncio.to_thread(ms.write_supersessions, [*todo, *restated], now, released)
    removed = set(before.sources) - set(after.sources)
    await asyncio.to_thread(ms.drop_removed_supersedes, sorted(removed))
    rows_after = with_supersessions(rows, todo, released)  # what a third read of the whole graph would return
    # what is this topic's: the evidence answering the run's questions, and the entities it reports on (other
    # workers' runs of other topics may write to the graph meanwhile; their changes are theirs to report)
    own = await asyncio.to_thread(ms.run_evidence, rid) | rec.evidence
    gone = before.evidence - after.evidence  # a removed source is everyone's news
    # an edited document is this topic's news when its evidence answers the topic's questions
    edited = [e for e in edited if (before.evidence_of.get(e.source.id, set())
                                    | after.evidence_of.get(e.source.id, set())) & own]
    mine = {r["entity_id"] for r in [*rows_before, *rows_after] if r["evidence_id"] in own | gone}
    own_obs = {r["id"] for r in [*rows_before, *rows_after] if r["evidence_id"] in own | gone}
    # conflicts only where the rows changed: elsewhere the groups before and after are the same; a relative
    # claim is checked against other entities' per-unit figures, so those (few) rows are always read
    touched = changed_entities(rows_before, rows_after) & mine
    conflicts_before = {g.id: g for g in conflicts_as_of(
        [r for r in rows_before if r["entity_id"] in touched or r["metric"] in IMPLIED_METRICS], None, tol)}
    conflicts_after = {g.id: g for g in conflicts_as_of(
        [r for r in rows_after if r["entity_id"] in touched or r["metric"] in IMPLIED_METRICS], None, tol)}
    new_ev_ids = sorted((after.evidence - before.evidence) & own)
    changes_of = value_changes([t for t in todo if t.new in own_obs or t.old in own_obs], rows_after)
    views = await asyncio.to_thread(store.evidence, new_ev_ids) if new_ev_ids else []
    # an edited document's sentences its previous version held are not new; nor is a changed figure's (its
    # edit line cites it)
    stated = {c.new_evidence for d in edited for c in d.changed}
    kept = await asyncio.to_thread(_unchanged, store, before, after, edited, views)
    views = [v for v in views if v.id not in kept and v.id not in stated]
    first = topic.runs == 0
    changed_obs = {c.new_observation for c in changes_of} | {c.new_observation for d in edited for c in d.changed}
    shown = own if first else {v.id for v in views}
    new_values = figures([r for r in rows_after if r["evidence_id"] in shown and r["id"] not in changed_obs
                          and not r.get("superseded_by")])
    built = digests.build(
        digest_id=f"D-{rid}", topic_id=topic.id, run_id=rid, question=topic.question, at=now,
        # a new source holding none of this run's evidence was read by another topic's run (or by none)
        new_sources=[after.sources[s] for s in sorted(set(after.sources) - set(before.sources))
                     if after.evidence_of.get(s, set()) & own or not after.evidence_of.get(s)],
        removed_sources=[before.sources[s] for s in sorted(removed)],
        values_left=values_left(rows_before, removed), edited=edited,
        new_evidence=[EvidenceItem(id=v.id, quote=v.quote, source_id=v.source.id, url=v.source.url)
                      for v in sorted(views, key=lambda v: v.id)],
        supersessions=changes_of, new_values=new_values, first=first,
        new_conflicts=[conflict_item(g) for k, g in sorted(conflicts_after.items()) if k not in conflicts_before],
        resolved_conflicts=[conflict_item(g) for k, g in sorted(conflicts_before.items()) if k not in conflicts_after],
        changed_conflicts=[conflict_item(g) for k, g in sorted(conflicts_after.items())
                           if k in conflicts_before and _sides(g) != _sides(conflicts_before[k])],
        gone=gone)
    digest = await asyncio.to_thread(verify_digest, store, built, {v.id: v for v in views})
    await asyncio.to_thread(ms.save_digest, digest, digests.to_markdown(digest))
    if topic.webhook and (topic.webhook_empty or not digest.nothing_changed):
        hook_door = door or Door.cli(services.settings)
        await asyncio.to_thread(post_digest, topic.webhook, digest, secret=topic.webhook_secret,
                                guard=UrlGuard(hook_door.webhook_hosts, hook_door.resolver), client=http)
    return MonitorResult(digest=digest, run_id=rid, extracted=extracted, supersessions=len(todo) + len(restated))


@dataclass
class Recovered:
    """What runs that never reached a digest added: their new evidence and sources (ids)."""

    evidence: set[str] = field(default_factory=set)
    sources: set[str] = field(default_factory=set)
    runs: list[str] = field(default_factory=list)

    def without(self, snap: Snapshot) -> Snapshot:
        """`snap` as it was before those runs: their evidence and the sources they first read left out."""
        if not (self.evidence or self.sources):
            return snap
        out = Snapshot()
        for sid, item in snap.sources.items():
            if sid in self.sources:
                continue
            ids = snap.evidence_of.get(sid, set()) - self.evidence
            out.sources[sid], out.evidence_of[sid], out.hash_of[sid] = item, ids, snap.hash_of.get(sid)
            out.evidence |= ids
        return out


def figures(rows: Sequence[Mapping[str, Any]]) -> list[ValueItem]:
    """One line per observation (its first evidence row), by entity and metric."""
    seen: dict[str, ValueItem] = {}
    for r in rows:
        if r["id"] in seen:
            continue
        seen[r["id"]] = ValueItem(entity=r.get("entity") or "", metric=r["metric"], unit=r.get("unit") or "",
                                  condition=r.get("condition") or "", value=raw_value(r), evidence=r["evidence_id"],
                                  source_id=r["source_id"], title=r.get("title"), url=r.get("url") or "")
    return sorted(seen.values(), key=lambda v: (v.entity.lower(), v.metric, v.condition, v.evidence))


def _sides(g: ConflictGroup) -> set[tuple[str, ...]]:
    """A conflict group's values with the sources behind each: what tells a group whose values changed (an
    edited document's unchanged sentence takes a new evidence id, not a new value)."""
    return {(f"{v.value:g}", *sorted(v.source_ids)) for v in g.values}


def _edits(store: GraphStore, before: Snapshot, after: Snapshot, rows_before: Sequence[Row], rows: Sequence[Row]
           ) -> tuple[list[DocumentChange], list[Supersession]]:
    """The documents whose text or date changed in this run, each against its previous version, and the
    supersessions of the previous versions' values by the new versions'."""
    out: list[DocumentChange] = []
    restated: list[Supersession] = []
    sids = edited_sources(before.sources, after.sources, before.hash_of, after.hash_of)
    texts = {sid: d.text for sid, d in store.sources(sids).items()} if sids else {}
    for sid in sids:
        old_ev = before.evidence_of.get(sid, set())
        text_changed = old_ev != after.evidence_of.get(sid, set()) or before.hash_of.get(sid) != after.hash_of.get(sid)
        change, pairs = document_change(after.sources[sid], before.sources[sid].published_at,
                                        [r for r in rows_before if r["source_id"] == sid],
                                        [r for r in rows if r["source_id"] == sid], text_changed=text_changed,
                                        read=bool(after.evidence_of.get(sid)), new_text=texts.get(sid))
        out.append(change)
        restated += pairs
    return out, restated


def _unchanged(store: GraphStore, before: Snapshot, after: Snapshot, edited: Sequence[DocumentChange],
               views: Sequence[EvidenceView]) -> set[str]:
    """The ids of new evidence from edited documents whose quote the document's previous version held."""
    out: set[str] = set()
    for d in edited:
        sid = d.source.id
        new = {v.id: v.quote for v in views if v.source.id == sid}
        old_ids = sorted(before.evidence_of.get(sid, set()) - after.evidence_of.get(sid, set()))
        if new and old_ids:
            out |= unchanged_quotes(new, [v.quote for v in store.evidence(old_ids)])
    return out
