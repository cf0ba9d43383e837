"""GraphStore: the typed methods the rest of the package calls, one per catalogue query."""

from __future__ import annotations

import logging
import re
import time
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping
from datetime import UTC, date, datetime
from typing import Any, get_args

from openresearch.condition_conflicts import condition_groups, exceeded_groups, qualified_groups, together
from openresearch.conflicts import ObservedValue, conflict_groups
from openresearch.cypher import Catalogue
from openresearch.errors import ConstraintViolation, NotFound
from openresearch.first_hand import Observed, prefer_first_hand, same_quantity
from openresearch.graph import judgements
from openresearch.graph.backend import GraphBackend, Row
from openresearch.graph.batch_writer import BatchWriter, Start, Wait, gc_paused
from openresearch.graph.documents import DocumentStore
from openresearch.graph.ranking import rank_evidence
from openresearch.graph.rows import PreparedRow, evidence_row, pack_batch
from openresearch.graph.runs import RunStore
from openresearch.graph_schema import schema_spec
from openresearch.identity import AliasResolver, entity_key, question_id
from openresearch.implied_conflicts import CLAIMS, FIGURES, METRICS, implied_groups
from openresearch.ingest.records.model import RECORD_KIND, first_hand_label, publisher_of
from openresearch.ingest.textnorm import STOP_WORDS
from openresearch.models import (
    Comparison,
    ComparisonCell,
    ConflictGroup,
    EvidenceRecord,
    EvidenceView,
    ObservationIn,
    ObservationView,
    Provenance,
    SourceKind,
    SourceRef,
    SourceView,
)
from openresearch.numbers import normalise_metric

SOURCE_KINDS = frozenset(get_args(SourceKind))
_WORD = re.compile(r"[\w][\w.+#-]*", re.UNICODE)
_STOP = frozenset([
    "a", "an", "and", "are", "as", "at", "be", "by", "does", "do", "for", "from", "has", "have", "how", "in",
    "is", "it", "of", "on", "or", "than", "that", "the", "this", "to", "vs", "was", "what", "when", "where",
    "which", "who", "why", "will", "with",
])

log = logging.getLogger(__name__)


class GraphStore(DocumentStore, RunStore):
    """Typed access to the graph: evidence (here), sources and chunks (documents.py), runs (runs.py)."""

    def __init__(self, backend: GraphBackend, aliases: AliasResolver | None = None,
                 batch_size: int = 2000, tolerance: float = 0.05, half_life_days: float = 365.0) -> None:
        self.backend = backend
        self.catalogue = Catalogue(backend.dialect)
        self.aliases = aliases or AliasResolver.load()
        self.batch_size = batch_size
        self.tolerance = tolerance
        self.half_life_days = half_life_days

    def close(self) -> None:
        self.backend.close()

    def ping(self) -> bool:
        return bool(self._read("ping"))

    def init_schema(self, embedding_dim: int = 384) -> list[str]:
        return self.backend.apply_schema(schema_spec(embedding_dim))

    # --- writes ------------------------------------------------------------------------------------
    def prepare(self, records: Iterable[EvidenceRecord]) -> list[PreparedRow]:
        return [evidence_row(r, self.aliases) for r in records]

    def batch_writer(self) -> BatchWriter[list[PreparedRow]]:
        """`submit(rows)` prepares a batch while the previous one is being written (see batch_writer.py)."""
        now = int(time.time() * 1000)
        return BatchWriter(lambda rows: self._bind_batch(rows, now))

    def write_batch(self, rows: list[PreparedRow], now: int | None = None) -> int:
        """One atomic, idempotent statement for a batch of prepared rows."""
        return self._bind_batch(rows, int(time.time() * 1000) if now is None else now)()()

    def _bind_batch(self, rows: list[PreparedRow], now: int) -> Start:
        """Pack and encode a batch; returns the call that starts writing it.

        The statement CREATEs evidence it finds absent and MERGEs the rest (write_evidence_batch.cypher). A
        constraint violation means a concurrent writer stored some of it first: the statement wrote nothing,
        and is sent again with MERGE for every row."""
        if not rows:
            return lambda: lambda: 0
        start = self.backend.bind_write(self.catalogue["write_evidence_batch"].text,
                                        {**pack_batch(rows), "now": now})

        def begin() -> Wait:
            try:
                wait, resent = start({"merge_only": False}), False
            except ConstraintViolation:  # a backend that writes at once (Neo4j) fails here, not in wait()
                wait, resent = start({"merge_only": True}), True

            def finish() -> int:
                try:
                    wait()
                except ConstraintViolation:
                    if resent:
                        raise
                    start({"merge_only": True})()
                return len(rows)
            return finish
        return begin

    def batch_limits(self) -> Iterator[int]:
        """Batch sizes for a stream of rows: small at first, so the database starts writing while the rest is
        being prepared, then doubling up to `batch_size`."""
        size = max(1, self.batch_size // 8)
        while True:
            yield size
            size = min(self.batch_size, size * 2)

    def write_rows(self, rows: list[PreparedRow]) -> int:
        """Write prepared rows in batches, each one atomic and idempotent."""
        i = 0
        with self.batch_writer() as writer:
            for size in self.batch_limits():
                if i >= len(rows):
                    break
                writer.submit(rows[i:i + size])
                i += size
        return len(rows)

    def write_evidence(self, records: Iterable[EvidenceRecord]) -> int:
        """Prepare and write records; a batch is prepared while the one before it is being written."""
        batch: list[PreparedRow] = []
        limits = self.batch_limits()
        limit = next(limits)
        with gc_paused(), self.batch_writer() as writer:
            for rec in records:
                batch.append(evidence_row(rec, self.aliases))
                if len(batch) >= limit:
                    writer.submit(batch)
                    batch, limit = [], next(limits)
            if batch:
                writer.submit(batch)
        return writer.written

    # --- reads -------------------------------------------------------------------------------------
    def evidence_for_question(self, question: str, limit: int = 20,
                              sources: Collection[str] | None = None) -> list[EvidenceView]:
        """Evidence that answers the question (linked) or, when fewer than `limit` are linked, whose quote
        matches its words (full-text), ranked by relevance, source trust and recency. With `sources`: only the
        linked evidence quoted from those sources (what a sub-question found itself, whatever else the graph
        holds at that moment)."""
        linked = self._read("evidence_for_question", question_id=question_id(question), limit=limit * 3,
                            sources=sorted(sources) if sources is not None else None)
        # linked evidence by the score it was extracted with (0.5-1; a link without a score in the middle),
        # always above what full-text alone finds
        best = max((r["answer_score"] for r in linked if r.get("answer_score") is not None), default=0.0) or 1.0
        relevance: dict[str, float] = {
            r["id"]: 0.75 if r.get("answer_score") is None else 0.5 + 0.5 * max(0.0, r["answer_score"]) / best
            for r in linked}
        views = {r["id"]: _view(r) for r in linked}
        # full-text only tops up a question with too little linked evidence: common words can match a large
        # share of all quotes, and sorting those made this query grow with the graph (bench_graph.py)
        hits = self.fulltext_evidence(question, limit * 3) if len(linked) < limit and sources is None else []
        top = max((s for _, s in hits), default=0.0) or 1.0
        for eid, score in hits:
            relevance[eid] = max(relevance.get(eid, 0.0), 0.5 * score / top)
        missing = [eid for eid, _ in hits if eid not in views]
        if missing:
            # a report cites what its sources say now: not a kept earlier version's evidence
            views.update({r["id"]: _view(r) for r in self._read("evidence_by_ids", ids=missing)
                          if not r["source"].get("version_of")})
        ranked = rank_evidence([v for v in map(_current_values, views.values()) if v is not None], relevance,
                               self.half_life_days)
        return ranked[:limit]

    def fulltext_evidence(self, text: str, limit: int = 20) -> list[tuple[str, float]]:
        query = fulltext_query(self.backend.dialect, text)
        if not query:
            return []
        return [(r["id"], float(r["score"])) for r in self._read("fulltext_evidence", query=query, limit=limit)]

    def evidence(self, ids: list[str]) -> list[EvidenceView]:
        return [_view(r) for r in self._read("evidence_by_ids", ids=ids)]

    def provenance(self, evidence_id: str) -> Provenance:
        rows = self._read("provenance", id=evidence_id)
        if not rows:
            raise NotFound(f"no evidence with id {evidence_id}")
        row = rows[0]
        return Provenance(evidence=_view(row), runs=[r for r in row["runs"] if r],
                          extracted_at=_dt(row.get("extracted_at")))

    def resolve_entities(self, names: list[str]) -> dict[str, str | None]:
        """Surface name -> entity id (None when the graph has no such entity)."""
        keys = {n: entity_key(self.aliases.canonical(n)) for n in names}
        found = {r["key"]: r["id"] for r in self._read("entities_by_keys", keys=sorted(set(keys.values())))}
        return {n: found.get(k) for n, k in keys.items()}

    def conflict_groups(self, entity: str | None = None, metric: str | None = None,
                        entities: list[str] | None = None, tolerance: float | None = None,
                        limit: int = 1000, evidence: Collection[str] | None = None) -> list[ConflictGroup]:
        """Conflicts as groups (one per entity + metric + unit + condition, every value with all of its
        evidence), and disputed conditions (the same figure under different stated set-ups, kind "condition"),
        for one entity, several, or the whole graph; `limit` bounds the keys read. With `evidence`: as these
        evidence items alone tell them (the groups are formed from their figures only)."""
        tol = self.tolerance if tolerance is None else tolerance
        m = normalise_metric(metric) if metric else None
        names = ([entity] if entity is not None else []) + list(entities or [])
        if entity is not None or entities is not None:
            ids = sorted({i for i in self.resolve_entities(names).values() if i})
            if not ids:
                return []
            rows = self._read("conflict_groups_for_entities", entity_ids=ids, metric=m, tolerance=tol, limit=limit)
            disputed = self._read("condition_conflicts_for_entities", entity_ids=ids, metric=m, limit=limit)
        else:
            rows = self._read("conflict_groups_all", metric=m, tolerance=tol, limit=limit)
            disputed = self._read("condition_conflicts_all", metric=m, limit=limit)
        scope = set(ids) if entity is not None or entities is not None else None
        keep = set(evidence) if evidence is not None else None

        def kept(obs: Iterable[ObservedValue]) -> list[ObservedValue]:
            return [o for o in obs if keep is None or o.evidence_id in keep]
        implied = self._implied(m, scope, limit, keep)
        stated = kept(_observed(o) for r in disputed for o in r["rows"])
        groups = together(conflict_groups(kept(_observed(o) for r in rows for o in r["rows"]), tol),
                          condition_groups(stated), qualified_groups(stated), exceeded_groups(stated), implied)
        # first-hand records lead their groups, and a restatement that contradicts one is a group of its own
        first = [Observed(_observed(r), r.get("kind") or "", _day(r.get("as_of")), _dt(r.get("fetched_at")))
                 for r in self._read("first_hand_observations",
                                     entity_ids=sorted(scope) if scope is not None else None)]
        if keep is not None:
            first = [o for o in first if o.value.evidence_id in keep]
        if m is not None:
            first = [o for o in first if o.kind != RECORD_KIND or same_quantity(o.value.metric, m)]
        return prefer_first_hand(groups, first, tol) if first else groups

    def _implied(self, metric: str | None, entity_ids: set[str] | None, limit: int,
                 evidence: set[str] | None = None) -> list[ConflictGroup]:
        """Relative claims the per-unit figures of both sides contradict (implied_conflicts.py): claims of the
        entities (or all), of the metric (or all), against every entity's figures."""
        if metric is not None and metric not in CLAIMS:
            return []
        rows = self._read("per_unit_claims", metrics=list(METRICS), limit=limit * 20)
        obs = [o for r in rows if (o := _observed(r["row"])) and (evidence is None or o.evidence_id in evidence)]
        return implied_groups(o for o in obs if o.metric in FIGURES or (
            (metric is None or o.metric == metric) and (entity_ids is None or o.entity_id in entity_ids)))

    def compare(self, entities: list[str], metric: str | None = None) -> Comparison:
        """The metric x entity table of the entities' current values (a superseded value is left out; "as of
        DATE" and superseded values on request: monitor/asof.py over `dated_observations`)."""
        resolved = self.resolve_entities(entities)
        ids = [i for i in resolved.values() if i]
        rows = self._read("compare_entities", entity_ids=ids,
                          metric=normalise_metric(metric) if metric else None) if ids else []
        return self.comparison_of(entities, resolved, rows)

    def dated_observations(self, entity_ids: list[str], metric: str | None = None) -> list[Row]:
        """Every observation of these entities (superseded ones too), one row per observation and evidence item,
        with its dates and supersession state: the rows of `monitor_observations`, scoped to the entities."""
        if not entity_ids:
            return []
        return self._read("dated_observations_for_entities", entity_ids=entity_ids,
                          metric=normalise_metric(metric) if metric else None)

    def comparison_of(self, entities: list[str], resolved: dict[str, str | None],
                      rows: Iterable[Mapping[str, Any]]) -> Comparison:
        """The table from observation rows (entity_id, entity, metric, value, unit, condition, evidence_id,
        superseded_by), entities in the order asked; `missing` names those asked that it has no value for."""
        cells: dict[str, dict[str, ComparisonCell]] = {}
        names: list[str] = []
        # a first-hand record's figure leads its cell (the order is stable otherwise)
        rows = sorted(rows, key=lambda r: r.get("source_kind") != RECORD_KIND)
        units: dict[str, Counter[str]] = {}
        for r in rows:
            units.setdefault(r["metric"], Counter())[r["unit"] or ""] += 1
        for r in rows:
            # one row per unit, so a row never holds msg/s beside MB/s: the metric's most used unit keeps its
            # name, another is "throughput (msg/s)"
            main = units[r["metric"]].most_common(1)[0][0]
            key = r["metric"] if (r["unit"] or "") == main else f"{r['metric']} ({r['unit'] or 'count'})"
            cell = cells.setdefault(key, {}).setdefault(
                r["entity"], ComparisonCell(values=[], unit=r["unit"], evidence_ids=[], conditions=[]))
            cell.values.append(float(r["value"]))
            cell.evidence_ids.append(r["evidence_id"])
            cell.conditions.append(r["condition"] or "")
            cell.roles.append(r.get("role") or "own")
            cell.superseded_by.append(r.get("superseded_by"))
            cell.first_hand.append(first_hand_label(publisher_of(r.get("source_title")), _dt(r.get("fetched_at")))
                                   if r.get("source_kind") == RECORD_KIND else None)
            if r["entity"] not in names:
                names.append(r["entity"])
        ordered = [self.aliases.canonical(e) for e in entities]
        names = [n for n in ordered if n in names] + [n for n in names if n not in ordered]
        # an entity asked for that the table has nothing for (unknown, or no value current then) is named
        present = {r["entity_id"] for r in rows}
        return Comparison(entities=names, metrics=sorted(cells), cells=cells,
                          missing=[n for n, i in resolved.items() if i is None or i not in present])

    def stats(self) -> dict[str, dict[str, int]]:
        return {
            "nodes": {r["label"]: int(r["count"]) for r in self._read("label_counts")},
            "relations": {r["type"]: int(r["count"]) for r in self._read("relation_counts")},
        }

    def export_evidence(self, page: int = 1000) -> Iterator[EvidenceRecord]:
        after = ""
        while True:
            rows = self._read("export_evidence_page", after=after, limit=page)
            if not rows:
                return
            for r in rows:
                view = _view(r)
                try:
                    yield _record(view)
                except ValueError:  # pydantic's ValidationError too: offsets an older import let through
                    # the backup must complete: the row without its offsets rather than no backup at all
                    yield _record(view.model_copy(update={"start": None, "end": None}))
            after = rows[-1]["id"]

    # --- browsing and people's judgements (the HTTP API; judgements.py) --------------------------------
    def entities_page(self, q: str = "", after: str = "", limit: int = 50) -> list[Row]:
        """Entities whose name, key or an alias contains `q` (case-folded), in id order after `after`."""
        return self._read("api_entities_page", q=" ".join(q.lower().split()), after=after, limit=limit)

    def entity_detail(self, entity_id: str) -> Row:
        """One entity: id, name, type, aliases, observations (each with its evidence id), sources (deduplicated)."""
        rows = self._read("api_entity", id=entity_id)
        if not rows:
            raise NotFound(f"no entity with id {entity_id}")
        row = dict(rows[0])
        seen: dict[str, Row] = {}
        for s in row.get("sources") or []:
            seen.setdefault(s["id"], s)
        row["sources"] = sorted(seen.values(), key=lambda s: s["id"])
        row["observations"] = sorted(row.get("observations") or [], key=lambda o: (o["metric"], o["id"]))
        return row

    def evidence_page(self, after: str = "", limit: int = 50,
                      entity_ids: list[str] | None = None) -> list[EvidenceView]:
        """Evidence in id order after `after`: all of it, or what mentions one of `entity_ids`."""
        if entity_ids is None:
            return [_view(r) for r in self._read("export_evidence_page", after=after, limit=limit)]
        if not entity_ids:
            return []
        return [_view(r) for r in self._read("api_evidence_for_entities", entity_ids=entity_ids, after=after,
                                             limit=limit)]

    def conflict_group(self, conflict_id: str) -> ConflictGroup:
        """One conflict group of the graph by its stable id; NotFound when no group has it (any more)."""
        for g in self.conflict_groups():
            if g.id == conflict_id:
                return g
        raise NotFound(f"no conflict with id {conflict_id}")

    def record_feedback(self, fb: judgements.FeedbackIn, now: int | None = None) -> judgements.Feedback:
        """Accept or dispute an evidence item or a source; a dispute lowers the source's trust."""
        return judgements.record_feedback(self, fb, now)

    def feedback_on(self, ids: list[str]) -> list[judgements.Feedback]:
        return judgements.feedback_on(self, ids)

    def resolve_conflict(self, conflict_id: str, res: judgements.ValueCorrect | judgements.NoValue,
                         now: int | None = None) -> judgements.Resolution:
        """Record a person's resolution of a conflict group (NotFound for an unknown id)."""
        return judgements.record_resolution(self, self.conflict_group(conflict_id), res, now)

    def conflict_resolutions(self, conflict_ids: list[str] | None = None) -> dict[str, judgements.Resolution]:
        """The latest resolution per conflict id (for these ids, or all): what /conflicts and reports show."""
        return judgements.resolutions(self, conflict_ids)

    def graph_version(self) -> tuple[int, ...]:
        """Counts of evidence, observations, feedback, resolutions and supersessions, and the time of the latest
        supersession: they change with every change a cached API answer depends on (a supersession pass marks
        values already stored, so the counts of nodes alone would not see it)."""
        r = self._read("api_graph_version")[0]
        return tuple(int(r[k]) for k in ("evidence", "observations", "feedback", "resolutions", "supersessions",
                                          "superseded_at"))

# --- helpers (pure) -------------------------------------------------------------------------------

def fulltext_query(dialect: str, text: str) -> str:
    """Words of a question as an OR query in the backend's full-text syntax."""
    words = []
    for w in _WORD.findall(text.lower()):
        w = w.strip(".-")
        if len(w) > 1 and w not in _STOP and w not in STOP_WORDS and w not in words:
            words.append(re.sub(r"[^\w]", "", w))
    words = [w for w in words if w][:16]
    if not words:
        return ""
    return " OR ".join(words) if dialect == "neo4j" else "|".join(words)


def _day(ms: int | None) -> date | None:
    d = _dt(ms)
    return d.date() if d is not None else None


def _dt(ms: int | None) -> datetime | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC)


def _view(r: Row) -> EvidenceView:
    s = r["source"]
    pub = _dt(s.get("published_at"))
    source = SourceView(id=s["id"], url=s["url"], title=s.get("title"), kind=s.get("kind"),
                        published_at=pub.date() if pub else None, fetched_at=_dt(s.get("fetched_at")),
                        trust=s.get("trust") if s.get("trust") is not None else 0.5)
    return EvidenceView(
        id=r["id"], quote=r["quote"], type=r["type"], start=r.get("start"), end=r.get("end"),
        summary=r.get("summary"), source=source, entities=sorted(r.get("entities") or []),
        # in an order of their own (not by id, which hashes the source's path)
        observations=sorted((ObservationView(**o) for o in r.get("observations") or []),
                            key=lambda o: (o.entity, o.metric, o.unit, o.value, o.condition, o.id)),
        questions=sorted(r.get("questions") or []),
    )


def _current_values(v: EvidenceView) -> EvidenceView | None:
    """An evidence item as a report reads it: its current values only (a value a newer one superseded is
    history); None for an item every value of which is superseded (it would state them as current)."""
    current = [o for o in v.observations if o.superseded_by is None]
    if len(current) == len(v.observations):
        return v
    return v.model_copy(update={"observations": current}) if current else None


def _observation_in(evidence_id: str, o: ObservationView) -> ObservationIn | None:
    """An observation as an import line writes it; None (and a warning) for one an older version stored that no
    import accepts today (an empty metric: a "!" metric before metric names were checked), so the backup of
    everything else completes."""
    try:
        return ObservationIn(entity=o.entity, metric=o.metric, value=_raw_value(o.raw_value),
                             unit=o.raw_unit or None, condition=o.condition or None, role=o.role)
    except ValueError as exc:  # pydantic's ValidationError is one
        reason = "; ".join(str(e.get("msg", "")) for e in getattr(exc, "errors", lambda: [])()) or str(exc)
        log.warning("export: %s: observation %s (%r %r) left out: %s", evidence_id, o.id, o.entity, o.metric, reason)
        return None


def _record(v: EvidenceView) -> EvidenceRecord:
    source = SourceRef.model_validate({"url": v.source.url, "title": v.source.title,
                                       "published_at": v.source.published_at, "trust": v.source.trust,
                                       **({"kind": v.source.kind} if v.source.kind in SOURCE_KINDS else {})})
    return EvidenceRecord(
        id=v.id,
        source=source,
        quote=v.quote, type=v.type,  # type: ignore[arg-type]
        entities=v.entities,
        observations=[ob for o in v.observations if (ob := _observation_in(v.id, o)) is not None],
        question=v.questions[0] if v.questions else None,
        summary=v.summary, start=v.start, end=v.end,
    )


def _raw_value(raw: str) -> float | str:
    try:
        return float(raw)
    except ValueError:
        return raw


def _observed(o: Row) -> ObservedValue:
    pub = _dt(o.get("published_at"))
    return ObservedValue(
        entity_id=o["entity_id"], entity=o["entity"], metric=o["metric"], unit=o["unit"] or "",
        condition=o.get("condition") or "", condition_key=o.get("condition_key") or "", value=float(o["value"]),
        raw_value=str(o.get("raw_value") or ""), raw_unit=o.get("raw_unit") or "", evidence_id=o["evidence_id"],
        quote=o.get("quote") or "", source_id=o["source_id"], url=o.get("url") or "", domain=o.get("domain") or "",
        title=o.get("title"), published=pub.date() if pub else None,
        trust=float(o["trust"]) if o.get("trust") is not None else 0.5)
