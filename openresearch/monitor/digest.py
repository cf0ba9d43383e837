"""A monitoring run's digest: what is new, what changed (old -> new, both cited, with dates), new and resolved
conflicts, or "nothing changed"; every sentence cites evidence ids and takes its numbers from the cited
quotes' extracted values. Rendered as Markdown, JSON and HTML."""

from __future__ import annotations

import html
import json
from datetime import UTC, datetime

from openresearch.monitor.models import ConflictItem, Digest, EvidenceItem, Sentence, SourceItem, ValueChange

MAX_EVIDENCE_LINES = 20


def _date(ms: int | None) -> str:
    return "undated" if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC).date().isoformat()


def _cond(condition: str) -> str:
    return f" ({condition})" if condition else ""


def sentences(d: Digest) -> list[Sentence]:
    out: list[Sentence] = []
    for c in d.changed_values:
        late = " It arrived late, describing an earlier time, and was recorded as already superseded." \
            if c.late else ""
        out.append(Sentence(text=f"{c.entity} {c.metric}{_cond(c.condition)} changed from {c.old_value} "
                                 f"(as of {_date(c.old_date)}) [{c.old_evidence}] to {c.new_value} "
                                 f"(as of {_date(c.new_date)}) [{c.new_evidence}].{late}",
                            evidence_ids=[c.old_evidence, c.new_evidence]))
    for c in d.superseded:
        if not c.changed:
            out.append(Sentence(text=f"{c.entity} {c.metric}{_cond(c.condition)} is still {c.new_value} as of "
                                     f"{_date(c.new_date)} [{c.new_evidence}], confirming {_date(c.old_date)} "
                                     f"[{c.old_evidence}].", evidence_ids=[c.old_evidence, c.new_evidence]))
    for g in d.new_conflicts:
        out.append(_conflict_sentence(g, "New conflict"))
    for g in d.resolved_conflicts:
        out.append(_conflict_sentence(g, "No longer in conflict (superseded or removed)"))
    for s in d.new_sources:
        ev = [e.id for e in d.new_evidence if e.source_id == s.id]
        if ev:
            out.append(Sentence(text=f"New source: {s.title or s.url} ({_date(s.published_at)}), "
                                     f"{len(ev)} evidence item{'s' if len(ev) != 1 else ''} "
                                     + " ".join(f"[{e}]" for e in ev[:MAX_EVIDENCE_LINES]) + ".",
                                evidence_ids=ev[:MAX_EVIDENCE_LINES]))
    known = {s.id for s in d.new_sources}
    for e in d.new_evidence:
        if e.source_id not in known:
            out.append(Sentence(text=f"New evidence: “{e.quote}” [{e.id}].", evidence_ids=[e.id]))
    for s in d.removed_sources:
        out.append(Sentence(text=f"Source no longer available: {s.title or s.url}; the evidence read from it "
                                 "earlier is listed in previous digests.", evidence_ids=[]))
    if not out:
        out.append(Sentence(text="Nothing changed since the last run.", evidence_ids=[]))
    return out


def _conflict_sentence(g: ConflictItem, what: str) -> Sentence:
    parts = [f"{v} " + " ".join(f"[{e}]" for e in ids[:3]) for v, ids in zip(g.values, g.evidence_ids, strict=False)]
    return Sentence(text=f"{what}: {g.entity} {g.metric}{_cond(g.condition)}: " + " vs ".join(parts) + ".",
                    evidence_ids=[e for ids in g.evidence_ids for e in ids[:3]])


def build(*, digest_id: str, topic_id: str, run_id: str, question: str, at: int, new_sources: list[SourceItem],
          removed_sources: list[SourceItem], new_evidence: list[EvidenceItem], supersessions: list[ValueChange],
          new_conflicts: list[ConflictItem], resolved_conflicts: list[ConflictItem]) -> Digest:
    d = Digest(id=digest_id, topic_id=topic_id, run_id=run_id, question=question, at=at, nothing_changed=False,
               new_sources=new_sources, removed_sources=removed_sources, new_evidence=new_evidence,
               changed_values=[c for c in supersessions if c.changed], superseded=supersessions,
               new_conflicts=new_conflicts, resolved_conflicts=resolved_conflicts)
    nothing = not (new_sources or removed_sources or new_evidence or supersessions or new_conflicts
                   or resolved_conflicts)
    return d.model_copy(update={"nothing_changed": nothing, "sentences": sentences(d) if not nothing else
                                [Sentence(text="Nothing changed since the last run.")]})


def to_markdown(d: Digest) -> str:
    lines = [f"# Digest: {d.question}", "", f"{_date(d.at)} · run {d.run_id}", ""]
    lines += [f"- {s.text}" for s in d.sentences]
    return "\n".join(lines) + "\n"


def to_json(d: Digest) -> str:
    data = d.model_dump(mode="json")
    return json.dumps(data, ensure_ascii=False, indent=2)


def to_html(d: Digest) -> str:
    items = "".join(f"<li>{html.escape(s.text)}</li>" for s in d.sentences)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>Digest: {html.escape(d.question)}</title>"
            f"</head><body><h1>Digest: {html.escape(d.question)}</h1><p>{_date(d.at)} · run "
            f"{html.escape(d.run_id)}</p><ul>{items}</ul></body></html>")
