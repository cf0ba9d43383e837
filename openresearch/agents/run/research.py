"""The research run: plan -> gather/extract/reflect per sub-question (parallel, DAG order) -> write -> verify.

Every stage persists to the graph before the next starts (Run.stage, through `RunState`), so a killed run
resumes with `--resume RUN_ID`: the plan and the run-wide counters are read back, sub-questions already done
are not investigated again, sources a sub-question already examined are not extracted again, retrieval is
answered from the caches, and writes are idempotent MERGEs. Progress goes out as typed events (events.py).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from openresearch.agents.extract.extractor import PlanAware, Preparing
from openresearch.agents.extract.metric_names import answers_by_operation, answers_metric, same_family
from openresearch.agents.extract.releases import dates_entries
from openresearch.agents.plan.attributes import with_english
from openresearch.agents.plan.planner import PlanBudget, schedule
from openresearch.agents.plan.records_plan import with_indicator_names
from openresearch.agents.plan.reflect import Sufficiency, assess, follow_up_queries
from openresearch.agents.run.components import Components
from openresearch.agents.run.events import (
    EventBus,
    EvidenceAdded,
    PlannedQuestion,
    PlanReady,
    QuestionProgress,
    RunEvent,
    RunFailed,
    SectionWritten,
    SourcesIndexed,
    StageFinished,
    StageStarted,
    VerificationFinished,
)
from openresearch.agents.run.gather import Gatherer
from openresearch.agents.run.metrics import RunMetrics
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.state import Counters, RunState
from openresearch.agents.verify.enforce import enforce
from openresearch.agents.verify.verifier import verify
from openresearch.agents.write.answer import ANSWER_ID, best_of
from openresearch.agents.write.writer_deterministic import ordered_questions
from openresearch.config import Settings
from openresearch.errors import BudgetExceeded, LLMError
from openresearch.graph.store import SOURCE_KINDS, GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.ingest.local import index_documents
from openresearch.ingest.records import Fact, record_items
from openresearch.models import (
    ConflictGroup,
    Draft,
    EvidenceItem,
    EvidenceRecord,
    EvidenceView,
    ExtractionResult,
    ObservationIn,
    Plan,
    SourceDoc,
    SourceRef,
    SubQuestion,
    Verification,
)

T = TypeVar("T")
STAGES = ("plan", "gather", "write", "verify", "report", "done")
# a look-up is one sub-question: it can afford to read three times as many local sources per query, so a
# passage that disagrees is read beside the ones that agree
_ALL = 100_000  # every linked item of a sub-question (a limit the store needs)
LOCAL_BREADTH = {"lookup": 3, "comparison": 2, "overview": 2, "selection": 2}


@dataclass
class RunResult:
    run_id: str
    options: RunOptions
    plan: Plan
    draft: Draft
    verification: Verification
    evidence: dict[str, EvidenceView]
    conflicts: list[ConflictGroup]
    metrics: RunMetrics
    limited: dict[str, str] = field(default_factory=dict)  # sub-question id -> why its evidence is limited
    low_precision: str | None = None


@dataclass
class Share:
    """A sub-question's part of the run-wide caps, and what it has spent of it (counted into the run's counters
    only when it is done: a resumed run investigates an unfinished one again from its start)."""
    max_searches: int
    max_rounds: int
    searches: int = 0
    rounds: int = 0
    limited: str | None = None


def split(total: int, n: int, i: int) -> int:
    """The i-th of n near-equal parts of `total` (the first ones take the remainder); 0 when nothing is left."""
    total = max(0, total)
    return total // n + (1 if i < total % n else 0)


def new_run_id(question: str) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return f"run-{stamp}-{hashlib.sha256(f'{question}{time.time_ns()}'.encode()).hexdigest()[:6]}"


class ResearchRun:
    def __init__(self, options: RunOptions, store: GraphStore, embedder: Embedder, settings: Settings,
                 components: Components, *, run_id: str | None = None, events: EventBus | None = None,
                 counters: Counters | None = None, started_ms: int | None = None) -> None:
        self.opts = options
        self.store = store
        self.embedder = embedder
        self.settings = settings
        self.c = components
        self.run_id = run_id or new_run_id(options.question)
        self.events = events or EventBus(self.run_id)
        self.state = RunState(store, self.run_id, options, started_ms)
        self.counters = counters or Counters()
        self.metrics = RunMetrics()
        self.metrics.judge = components.judge_choice if components.llm is not None else ""
        self.local_roots: list[str] = []  # the roots its `local:` sources were indexed from (the index stage)
        self.metrics.reflected = self.counters.reflected  # one set: re_search_rate counts a resumed run's too
        self.limited = self.counters.limited
        self.started = time.monotonic()
        self.low_precision: str | None = None
        # the run's own threads (graph round trips, extraction, embedding): nothing is installed on the caller's
        # event loop, so several runs can share one loop (the API) without sharing or resizing its executor
        self._pool = ThreadPoolExecutor(max_workers=options.workers * 2 + 4, thread_name_prefix="research")
        # extraction calls (LLM round trips when an endpoint is set) may overlap more than sub-questions do
        self._extract_gate = asyncio.Semaphore(options.workers * 3)

    def emit(self, event: RunEvent) -> None:
        self.events.emit(event)

    async def io(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run blocking work (graph, extraction, embedding) on the run's own threads."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    @contextmanager
    def _stage(self, name: str) -> Iterator[None]:
        self.emit(StageStarted(stage=name))
        t0 = time.perf_counter()
        with self.metrics.stage(name):
            yield
        self.emit(StageFinished(stage=name, seconds=round(time.perf_counter() - t0, 3)))

    # --- persistence ------------------------------------------------------------------------------
    def _save(self, stage: str, status: str = "running", plan: Plan | None = None) -> None:
        self.state.save(stage, status=status, plan=plan, counters=self.counters)

    # --- the run ----------------------------------------------------------------------------------
    async def run(self, resume_plan: Plan | None = None) -> RunResult:
        try:
            if resume_plan is None:
                await self.io(self._save, "plan")
            plan = resume_plan or await self._plan()
            if resume_plan is not None:
                self._plan_ready(plan)
            with self._stage("index"):
                await self._index()
            local = await self.io(self._local_sources)
            for ex in (self.c.extractor, self.c.fallback_extractor):
                if isinstance(ex, PlanAware):  # the same names whatever order sub-questions run in
                    await self.io(ex.prepare_plan, plan)
                if local and isinstance(ex, Preparing):
                    # the run's own documents seen together once, in id order: what a source is about does not
                    # depend on which batch first held it (parallel sub-questions, a resumed run)
                    await self.io(ex.prepare, local)
            gatherer = Gatherer(self.store, self.embedder, self.settings, self.opts.sources,
                                per_query=self.opts.sources_per_query, offline=self.opts.offline,
                                local_per_query=self.opts.sources_per_query * LOCAL_BREADTH.get(plan.kind, 1),
                                since=self.opts.since, local_roots=self.local_roots)
            try:
                with self._stage("gather"):
                    await self._investigate_all(plan, gatherer)
            finally:
                self.metrics.network_requests += gatherer.network_requests
                self.metrics.cache_hits += gatherer.cache_hits
                await gatherer.aclose()
            # an indicator the question named by its code is written in its own name, now the API has said it
            plan = with_indicator_names(plan, gatherer.indicator_names)
            await self.io(self._save, "write", plan=plan)
            result = await self.io(self._write_and_verify, plan)
            await self.io(self._save, "report", plan=plan)
            return result
        except asyncio.CancelledError:
            status = self.events.cancel_status
            await asyncio.shield(asyncio.to_thread(self._save, status, status=status))
            self.emit(RunFailed(status=status, error="the run was cancelled" if status == "cancelled"
                                else "the server stopped; resume the run to continue"))
            raise
        except BaseException as exc:
            self._save("failed", status="failed")
            self.emit(RunFailed(error=f"{type(exc).__name__}: {exc}"[:500]))
            raise

    def _plan_ready(self, plan: Plan) -> None:
        self.emit(PlanReady(kind=plan.kind, sub_questions=[PlannedQuestion(id=q.id, text=q.text, role=q.role)
                                                           for q in plan.sub_questions]))

    async def _plan(self) -> Plan:
        with self._stage("plan"):
            budget = PlanBudget(max_sub_questions=self.opts.max_sub_questions,
                                min_sub_questions=min(5, self.opts.max_sub_questions),
                                max_total_depth=self.opts.budget,
                                source_types=self.opts.source_types())  # type: ignore[arg-type]
            question = self.opts.question
            plan = await self.io(self.c.planner.plan, question, budget=budget)
            if self.opts.language != "auto":
                plan = plan.model_copy(update={"language": self.opts.language})
            plan = await self._rewrite_queries(plan)
        await self.io(self.state.planned, plan)
        self._plan_ready(plan)
        return plan

    async def _rewrite_queries(self, plan: Plan) -> Plan:
        """2-4 checked queries per sub-question, rewritten in parallel (each may call the LLM)."""
        gate = asyncio.Semaphore(self.opts.workers)

        async def one(sq: SubQuestion) -> SubQuestion:
            async with gate:
                res = await self.io(self.c.rewrite, sq, plan)
            self.metrics.queries_rejected += len(res.rejected)
            return sq.model_copy(update={"queries": res.queries or [sq.text]})

        subs = await asyncio.gather(*(one(sq) for sq in plan.sub_questions))
        return plan.model_copy(update={"sub_questions": list(subs)})

    async def _index(self) -> None:
        for path in self.opts.local_paths():
            report = await self.io(index_documents, self.store, path, self.embedder)
            self.local_roots.append(str(report.root))
            self.metrics.indexed_chunks += report.chunks
            self.emit(SourcesIndexed(root=str(report.root), added=report.added, updated=report.updated,
                                     unchanged=report.unchanged, removed=report.removed, chunks=report.chunks))

    def _local_sources(self) -> list[SourceDoc]:
        ids = sorted({sid for root in self.local_roots for sid in self.store.sources_in_root(root)})
        docs: dict[str, SourceDoc] = {}
        for i in range(0, len(ids), 200):
            docs.update(self.store.sources(ids[i:i + 200]))
        return [docs[i] for i in ids if i in docs]

    async def _investigate_all(self, plan: Plan, gatherer: Gatherer) -> None:
        by_id = {q.id: q for q in plan.sub_questions}
        gate = asyncio.Semaphore(self.opts.workers)
        caps = self.opts.caps

        async def one(sq: SubQuestion, share: Share, before: set[str]) -> None:
            if sq.id in self.counters.done_questions:  # a resumed run: its evidence is in the graph already
                self.emit(QuestionProgress(question_id=sq.id, text=sq.text, status="done"))
                return
            async with gate:
                await self._investigate(sq, plan, gatherer, share, before)
            self.counters.finish(sq.id, share.searches, share.rounds, share.limited)
            await self.io(self._save, "gather", plan=plan)

        earlier: list[str] = []
        for wave in schedule(plan):
            ids = [qid for qid in wave if qid in by_id]
            # the run-wide caps left when the wave starts, split among its sub-questions in plan order: what one
            # may spend does not depend on which of its siblings happen to run first (workers, a resume)
            searches, rounds = self.counters.spent_before(earlier)
            shares = [Share(split(caps.searches_total - searches, len(ids), i),
                            split(caps.reflect_rounds_total - rounds, len(ids), i)) for i in range(len(ids))]
            # what the earlier waves read (done, so the same in a clean and a resumed run), never what a sibling
            # of the same wave has read so far
            before = await self.io(self._evidence_of, [by_id[q] for q in earlier])
            await asyncio.gather(*(one(by_id[qid], share, before) for qid, share in zip(ids, shares, strict=True)))
            earlier += ids

    def _evidence_of(self, questions: list[SubQuestion], found: set[str] | None = None) -> set[str]:
        """Ids of the evidence these sub-questions linked from the sources they examined (from `found`, when
        given): what they found themselves, not what a sibling extracted from the same source meanwhile."""
        out: set[str] = set()
        for sq in questions:
            sources = found if found is not None else self.store.examined_sources(sq.id)
            out.update(e.id for e in self.store.evidence_for_question(sq.text, _ALL, sources))
        return out

    def _over_wall(self) -> bool:
        return time.monotonic() - self.started > self.opts.caps.wall_s

    async def _investigate(self, sq: SubQuestion, plan: Plan, gatherer: Gatherer, share: Share,
                           before: set[str]) -> None:
        """Search, extract and reflect until the evidence suffices or a cap stops it. Sufficiency is judged
        only on what this sub-question has found in the rounds so far, and conflicts only among the evidence it
        and the earlier waves linked: the same in every run of the same plan over the same corpus, whatever its
        siblings have stored meanwhile or a killed attempt of it stored in later rounds."""
        self.emit(QuestionProgress(question_id=sq.id, text=sq.text, status="searching"))
        queries = list(sq.queries or [sq.text])
        rounds = 0
        found_here: set[str] = set()
        while True:
            for q in queries:
                if share.searches >= share.max_searches:
                    share.limited = share.limited or "search cap reached"
                    break
                share.searches += 1
                found = await gatherer.gather(q, about=sq.text)
                found_here.update(doc.id for doc in found.sources)
                self.metrics.searches += found.searches
                self.metrics.retrieved_chunks.update(found.chunks)
                self.metrics.refused.extend(found.refused)
                await self._extract(sq, plan, found.sources, found.records)
            evidence = await self.io(self.store.evidence_for_question, sq.text, self.opts.evidence_per_section,
                                     found_here)
            mine = await self.io(self._evidence_of, [sq], found_here)
            conflicts = await self.io(self._conflicts_for, sq, mine | before)
            s: Sufficiency = assess(sq, evidence, conflicts)
            self.emit(QuestionProgress(question_id=sq.id, text=sq.text,
                                       status="sufficient" if s.sufficient else s.reason, evidence=s.evidence))
            if s.sufficient:
                break
            why = self._reflect_blocked(rounds, share)
            if why:
                share.limited = f"{s.reason}; {why}"
                break
            rounds += 1
            share.rounds += 1
            queries = follow_up_queries(sq, s, rounds)
        self.emit(QuestionProgress(question_id=sq.id, text=sq.text, status="done"))

    def _reflect_blocked(self, rounds: int, share: Share) -> str | None:
        caps = self.opts.caps
        if self.low_precision or self.c.budget_tripped():
            self.low_precision = self.low_precision or f"LLM budget exhausted: {self.c.budget_reason()}"
            return "LLM budget exhausted"
        if rounds >= caps.reflect_rounds_per_question:
            return f"reflect cap of {caps.reflect_rounds_per_question} rounds reached"
        if share.rounds >= share.max_rounds:
            return f"run cap of {caps.reflect_rounds_total} reflect rounds reached"
        if time.monotonic() - self.started > caps.reflect_wall_s or self._over_wall():
            return "reflect time cap reached"
        return None

    async def _extract(self, sq: SubQuestion, plan: Plan, sources: list[SourceDoc],
                       facts: dict[str, list[tuple[Fact, int, int]]] | None = None) -> None:
        examined = await self.io(self.store.examined_sources, sq.id)
        fresh = {s.id: s for s in sources if s.id not in examined}
        first_hand = facts or {}

        async def one(doc: SourceDoc) -> None:
            async with self._extract_gate:
                if doc.id in first_hand:  # a first-hand record: its evidence is the API's fields, not read from text
                    result = ExtractionResult(items=record_items(doc, first_hand[doc.id], sq.id, sq.entities))
                else:
                    try:
                        result = await self.io(self.c.extractor.extract, doc, sq, plan)
                    except (LLMError, BudgetExceeded):
                        result = await self.io(self.c.fallback_extractor.extract, doc, sq, plan)
            self.metrics.rejected_quotes += result.rejected
            records = [to_record(item, doc, sq) for item in result.items]
            await self.io(self.store.write_evidence, records)
            self.metrics.evidence_written += len(records)
            # marked per source, after its evidence is stored: a kill between the two only repeats this source
            await self.io(self.store.mark_examined, sq.id, [doc.id])
            if records:
                self.emit(EvidenceAdded(question_id=sq.id, source_id=doc.id, count=len(records)))

        # sources are independent: with an LLM each extraction is a round trip, so they overlap; first the
        # extractor sees the batch whole (which qualified names the sources open with), so reading order
        # does not change what any source's values are about
        texts = [d for d in fresh.values() if d.id not in first_hand]
        for ex in (self.c.extractor, self.c.fallback_extractor):
            if texts and isinstance(ex, Preparing):
                await self.io(ex.prepare, texts)
        if fresh:
            self.metrics.extraction_batches[sq.id] = self.metrics.extraction_batches.get(sq.id, 0) + 1
        await asyncio.gather(*(one(doc) for doc in fresh.values()))

    def _conflicts_on(self, names: set[str] | list[str], evidence: set[str] | None = None) -> list[ConflictGroup]:
        """Conflict groups (found with Cypher) on any of these entities, each group once (as the `evidence`
        alone tells them, when given)."""
        if not names:
            return []
        return self.store.conflict_groups(entities=sorted(set(names)), evidence=evidence)

    def _conflicts_for(self, sq: SubQuestion, evidence: set[str]) -> list[ConflictGroup]:
        return self._conflicts_on(sq.entities, evidence)

    # --- writing and verification ----------------------------------------------------------------
    def _write_and_verify(self, plan: Plan) -> RunResult:
        with self._stage("write"):
            per_q = self._section_evidence(plan)
            per_q[ANSWER_ID] = self._answer_evidence(plan)
            conflicts = self._report_conflicts(plan, per_q)
            limited = set(self.limited)
            if self.c.budget_tripped() and not self.low_precision:
                self.low_precision = f"LLM budget exhausted: {self.c.budget_reason()}"
            writer = self.c.fallback_writer if self.low_precision else self.c.writer
            draft = writer.write(plan, per_q, conflicts, self.opts.style, limited)
            # how well each item answered (its best score over the sections): the report's table ranks the
            # cited evidence by it, as the answer did
            scores = {eid: ev.score for eid, ev in best_of(per_q).items()}
        for sec in draft.sections:
            self.emit(SectionWritten(question_id=sec.question_id, title=sec.title, sentences=len(sec.sentences)))
        with self._stage("verify"):
            evidence = self._cited_evidence(draft, scores)
            verification = verify(draft, evidence, conflicts, self.c.judge)
            if draft.method == "llm":
                # the invariants are enforced, not only reported: a sentence citing outside its section's
                # evidence, with numbers in none of its quotes, refuted or uncited is rewritten from its valid
                # evidence or dropped, and the corrected draft is what is verified and published
                draft, fixes = enforce(draft, per_q, conflicts, verification, plan.language)
                self.metrics.enforcement = fixes.model_dump()
                if fixes.changed:
                    evidence = self._cited_evidence(draft, scores)
                    verification = verify(draft, evidence, conflicts, self.c.judge)
        counts = {k: sum(1 for x in verification.verdicts if x.verdict == k) for k in ("PASS", "DOUBT", "FAIL")}
        self.emit(VerificationFinished(fully_verified=verification.fully_verified, passed=counts["PASS"],
                                       doubtful=counts["DOUBT"], failed=counts["FAIL"]))
        self.metrics.finish(verification, evidence, self.c.usage(), len(plan.sub_questions))
        return RunResult(self.run_id, self.opts, plan, draft, verification, evidence, conflicts, self.metrics,
                         dict(self.limited), self.low_precision)

    def _cited_evidence(self, draft: Draft, scores: dict[str, float]) -> dict[str, EvidenceView]:
        cited = sorted({cid for sec in draft.sections for s in sec.sentences for cid in s.citations})
        evidence = {e.id: e for e in self.store.evidence(cited)} if cited else {}
        for e in evidence.values():
            e.score = scores.get(e.id, 0.0)
        self._add_pages(evidence)
        return evidence

    def _add_pages(self, evidence: dict[str, EvidenceView]) -> None:
        """PDF quotes are cited with their page: the page whose stored offsets hold the quote's start."""
        docs = self.store.sources(sorted({e.source.id for e in evidence.values()}))
        for e in evidence.values():
            doc = docs.get(e.source.id)
            if doc is None or e.start is None:
                continue
            e.page = next((p for p, start, end in doc.pages if start <= e.start < end), None)

    def _answer_evidence(self, plan: Plan, limit: int = 300) -> list[EvidenceView]:
        """Every item the run linked to its sub-questions that reports a value of a metric the question asks
        about (any value when it names none): the answer states values from all of them, not only from the
        few each section shows, so a passage that disagrees is not cut off by ranking."""
        out: dict[str, EvidenceView] = {}
        others: dict[str, EvidenceView] = {}
        for sq in plan.sub_questions:
            for ev in self.store.evidence_for_question(sq.text, limit):
                if any(not plan.metrics or any(same_family(o.metric, m) for m in plan.metrics)
                       or any(answers_metric(o.metric, o.unit, a) or answers_by_operation(o.unit, o.condition, a)
                              for a in map(with_english, plan.attributes))
                       for o in ev.observations):
                    out.setdefault(ev.id, ev)
                else:
                    others.setdefault(ev.id, ev)
        # (and the headings that date what those say: "Zorbq-3.7.0 Release" over "date: 2025-11-05" for an entry
        # "Add a Frob plugin" under it, "12 March 2024: A. Writer" over a dated log's entry)
        sources = {ev.source.id for ev in out.values()}
        out |= {i: ev for i, ev in others.items() if ev.source.id in sources and dates_entries(ev)}
        return list(out.values())

    def _section_evidence(self, plan: Plan) -> dict[str, list[EvidenceView]]:
        """Evidence per section from Cypher, in section order; an item already used by an earlier section is
        only reused when a section would otherwise have too little (sub-questions share sources)."""
        n = self.opts.evidence_per_section
        used: set[str] = set()
        out: dict[str, list[EvidenceView]] = {}
        for sq in ordered_questions(plan):
            found = self.store.evidence_for_question(sq.text, n * 3)
            fresh = [e for e in found if e.id not in used]
            items = fresh[:n] if len(fresh) >= min(3, len(found)) else (fresh + [e for e in found if e.id in used])[:n]
            used.update(e.id for e in items)
            out[sq.id] = items
        return out

    def _report_conflicts(self, plan: Plan, per_q: dict[str, list[EvidenceView]]) -> list[ConflictGroup]:
        """Conflict groups on any entity the report's evidence talks about."""
        return self._conflicts_on({n for items in per_q.values() for e in items for n in e.entities}
                                  | set(plan.entities))


def to_record(item: EvidenceItem, doc: SourceDoc, sq: SubQuestion) -> EvidenceRecord:
    source = SourceRef.model_validate({"url": doc.url, "title": doc.title, "published_at": doc.published_at,
                                       "trust": doc.trust, **({"kind": doc.kind} if doc.kind in SOURCE_KINDS else {})}
                                      ).from_stored(doc.id, doc.id_scope)
    return EvidenceRecord(
        source=source,
        quote=item.quote, type=item.type, entities=item.entities,
        observations=[ObservationIn.model_validate(o.model_dump()) for o in item.observations],
        question=sq.text, summary=item.summary, start=item.start, end=item.end,
    ).scored(item.score)
