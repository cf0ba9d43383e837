"""An edited figure is an edit, not a figure no longer stated.

A run reads an edited document for its questions and may leave out the one sentence whose figure was edited
(a question's ranking keeps a few items per document, and an edit can move that sentence below the line). Its
previous version's value then has no counterpart and would be reported as no longer stated. Here, after the
run, each such value whose sentence is still in the new text with only its figures edited (`edited_twin`) has
that sentence read with the run's deterministic extractor, under the question the old sentence answered, and
stored as evidence like the run's own: the edit is then paired old -> new by `document_change`."""

from __future__ import annotations

from collections.abc import Sequence

from openresearch.agents.extract.document import plan_for
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.run.research import to_record
from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.services import Services
from openresearch.graph.backend import Row
from openresearch.graph.monitor_store import MonitorStore
from openresearch.models import EvidenceRecord
from openresearch.monitor.delta import Snapshot
from openresearch.monitor.edits import document_change, edited_sources, edited_twin


def read_twins(services: Services, options: RunOptions, before: Snapshot, after: Snapshot,
               rows_before: Sequence[Row], rows: Sequence[Row], now: int) -> list[str]:
    """Store the edited sentences of the figures the run's reading of edited documents left unpaired; returns
    the new evidence ids (none: nothing to add, and no extractor is built)."""
    store = services.store
    sids = [s for s in edited_sources(before.sources, after.sources, before.hash_of, after.hash_of)
            if after.evidence_of.get(s)]  # a document the run did not read at all says nothing of its figures
    docs = store.sources(sids) if sids else {}
    quotes = {str(r["evidence_id"]): str(r.get("quote") or "") for r in rows_before}
    todo: list[tuple[str, str, int, int]] = []  # source id, old evidence id, span of the edited sentence
    for sid in sids:
        doc = docs.get(sid)
        if doc is None:
            continue
        news = [r for r in rows if r["source_id"] == sid]
        change, _ = document_change(after.sources[sid], None, [r for r in rows_before if r["source_id"] == sid],
                                    news, text_changed=True, new_text=doc.text)
        stated = {" ".join(str(r.get("quote") or "").split()) for r in news}
        for v in change.dropped:
            span = edited_twin(quotes.get(v.evidence, ""), doc.text)
            if span and " ".join(doc.text[span[0]:span[1]].split()) not in stated:
                todo.append((sid, v.evidence, *span))
    if not todo:
        return []
    ex = services.components(options.model_copy(update={"offline": True})).fallback_extractor
    if not isinstance(ex, DeterministicExtractor):
        return []
    asked = {v.id: v.questions for v in store.evidence(sorted({e for _, e, _, _ in todo}))}
    records: list[EvidenceRecord] = []
    for sid, eid, start, end in sorted(set(todo)):
        doc = docs[sid]
        sq, plan = plan_for((asked.get(eid) or [options.question])[0])
        ex.prepare([doc])
        ex.doc_subject(doc)
        found = ex.mentions(doc.text, [(start, end)], sq, plan)
        score = ex.score(doc.text, [(start, end)], found, sq, plan)[0]
        item = ex.build_item(doc, sq, plan, start, end, score, found[0])
        if item.observations:
            records.append(to_record(item, doc, sq))
    prepared = store.prepare(records)
    store.write_rows(prepared)
    ids = sorted({p.id for p in prepared})
    MonitorStore(store).stamp_times(ids, [], now)
    return ids
