"""A monitoring run's digest: what is new, what changed (old -> new, both cited, with dates), new and resolved
conflicts, or "nothing changed"; every sentence cites evidence ids and takes its numbers from the cited
quotes' extracted values. The monitoring run verifies the sentences (digest_verify.py) before the digest is
stored; every rendering shows the verification and any sentence withheld by it. Rendered as Markdown, JSON and
HTML."""

from __future__ import annotations

import html
import json
from collections.abc import Collection, Sequence
from datetime import UTC, datetime

from openresearch.monitor.models import (
    ConflictItem,
    Digest,
    DocumentChange,
    EvidenceItem,
    Sentence,
    SourceItem,
    ValueChange,
    ValueItem,
)

MAX_EVIDENCE_LINES = 20
NOTHING = "Nothing changed since the last run."


def _date(ms: int | None) -> str:
    return "undated" if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC).date().isoformat()


def _cond(condition: str) -> str:
    return f" ({condition})" if condition else ""


def sentences(d: Digest, gone: Collection[str] = ()) -> list[Sentence]:
    """`gone`: evidence ids that left the graph in this run (with a removed source): never cited."""
    out: list[Sentence] = []
    for c in d.changed_values:
        late = " It arrived late, describing an earlier time, and was recorded as already superseded." \
            if c.late else ""
        old_at, new_at = f"(as of {_date(c.old_date)})", f"(as of {_date(c.new_date)})"
        out.append(Sentence(text=f"{c.entity} {c.metric}{_cond(c.condition)} changed from {c.old_value} "
                                 f"{old_at} [{c.old_evidence}] to {c.new_value} {new_at} [{c.new_evidence}].{late}",
                            evidence_ids=[c.old_evidence, c.new_evidence], metadata=[old_at, new_at]))
    for doc in d.edited:
        out += _edit_sentences(doc)
    for c in d.superseded:
        if not c.changed:
            new_at, old_at = f"as of {_date(c.new_date)}", f"confirming {_date(c.old_date)}"
            out.append(Sentence(text=f"{c.entity} {c.metric}{_cond(c.condition)} is still {c.new_value} {new_at} "
                                     f"[{c.new_evidence}], {old_at} [{c.old_evidence}].",
                                evidence_ids=[c.old_evidence, c.new_evidence], metadata=[new_at, old_at]))
    for g in d.new_conflicts:
        out.append(_conflict_sentence(g, "New conflict"))
    for g in d.changed_conflicts:
        out.append(_conflict_sentence(g, "Conflict changed, now"))
    for g in d.resolved_conflicts:
        out.append(_resolved_sentence(g, set(gone)))
    for s in d.new_sources:
        ev = [e.id for e in d.new_evidence if e.source_id == s.id]
        if ev:
            # the source's date and title are checked like a report's attribution (its cited evidence's
            # source); the count is the digest's own
            items = f"{len(ev)} evidence item{'s' if len(ev) != 1 else ''}"
            out.append(Sentence(text=f"New source: {s.title or s.url} ({_date(s.published_at)}), {items} "
                                     + " ".join(f"[{e}]" for e in ev[:MAX_EVIDENCE_LINES]) + ".",
                                evidence_ids=ev[:MAX_EVIDENCE_LINES], metadata=[items] if s.title else [items, s.url]))
    known = {s.id for s in d.new_sources}
    for e in d.new_evidence:
        if e.source_id not in known:
            out.append(Sentence(text=f"New evidence: “{e.quote}” [{e.id}].", evidence_ids=[e.id]))
    for s in d.removed_sources:
        name = s.title or s.url  # the name is the digest's record, not a quote's
        left = [v for v in d.values_left if v.source_id == s.id]
        if left:  # its last version is kept, so the values that left with it are still citable
            out.append(Sentence(text=f"Source no longer available: {name}; the values that left with it: "
                                     + "; ".join(f"{v.entity} {v.metric}{_cond(v.condition)} {v.value} "
                                                 f"[{v.evidence}]" for v in left) + ".",
                                evidence_ids=[v.evidence for v in left], metadata=[name]))
        else:
            out.append(Sentence(text=f"Source no longer available: {name}; the evidence read from it "
                                     "earlier is listed in previous digests.", kind="status", metadata=[name]))
    if not out:
        out.append(Sentence(text=NOTHING, kind="status"))
    return out


def _edit_sentences(e: DocumentChange) -> list[Sentence]:
    """What changed in one document, from its previous version: each figure (old -> new, both cited), each
    figure it no longer states, and its date."""
    name = e.source.title or e.source.url
    out: list[Sentence] = []
    for c in e.changed:
        out.append(Sentence(text=f"In {name}, {c.entity} {c.metric}{_cond(c.condition)} went from {c.old_value} "
                                 f"to {c.new_value} [{c.old_evidence}] → [{c.new_evidence}].",
                            evidence_ids=[c.old_evidence, c.new_evidence], metadata=[name]))
    for v in e.dropped:
        out.append(Sentence(text=f"In {name}, {v.entity} {v.metric}{_cond(v.condition)} {v.value} [{v.evidence}] "
                                 "is no longer stated (its sentence changed or was removed).",
                            evidence_ids=[v.evidence], metadata=[name]))
    if e.date_changed:
        old_at, new_at = _date(e.old_published_at), _date(e.new_published_at)
        what = "" if e.text_changed else " (its text is unchanged)"
        out.append(Sentence(text=f"In {name}, the date changed from {old_at} to {new_at}{what}.", kind="status",
                            metadata=[name, old_at, new_at]))
    elif e.text_changed and not out:
        out.append(Sentence(text=f"{name} was edited; none of its figures changed.", kind="status",
                            metadata=[name]))
    return out


def _conflict_sentence(g: ConflictItem, what: str) -> Sentence:
    parts = [f"{v} " + " ".join(f"[{e}]" for e in ids[:3]) for v, ids in zip(g.values, g.evidence_ids, strict=False)]
    return Sentence(text=f"{what}: {g.entity} {g.metric}{_cond(g.condition)}: " + " vs ".join(parts) + ".",
                    evidence_ids=[e for ids in g.evidence_ids for e in ids[:3]])


def _resolved_sentence(g: ConflictItem, gone: set[str]) -> Sentence:
    """A resolved conflict cites only evidence still stored: a value whose every item left with its source is
    not restated (nothing could verify it now; an earlier digest cited it)."""
    kept = [(v, [e for e in ids if e not in gone]) for v, ids in zip(g.values, g.evidence_ids, strict=False)]
    kept = [(v, ids) for v, ids in kept if ids]
    lost = len(g.values) - len(kept)
    what = "No longer in conflict (superseded or removed)"
    if not lost:
        return _conflict_sentence(g, what)
    if not kept:
        return Sentence(text=f"No longer in conflict (its sources were removed): {g.entity} {g.metric}"
                             f"{_cond(g.condition)}.", kind="status")
    others = f"{lost} other value{'s' if lost != 1 else ''}"
    parts = [f"{v} " + " ".join(f"[{e}]" for e in ids[:3]) for v, ids in kept]
    return Sentence(text=f"{what}: {g.entity} {g.metric}{_cond(g.condition)}: " + " vs ".join(parts)
                         + f"; the source of the {others} is no longer available.",
                    evidence_ids=[e for _, ids in kept for e in ids[:3]], metadata=[others])


def build(*, digest_id: str, topic_id: str, run_id: str, question: str, at: int, new_sources: list[SourceItem],
          removed_sources: list[SourceItem], new_evidence: list[EvidenceItem], supersessions: list[ValueChange],
          new_conflicts: list[ConflictItem], resolved_conflicts: list[ConflictItem],
          gone: Collection[str] = (), values_left: Sequence[ValueItem] = (),
          edited: Sequence[DocumentChange] = (), changed_conflicts: Sequence[ConflictItem] = ()) -> Digest:
    d = Digest(id=digest_id, topic_id=topic_id, run_id=run_id, question=question, at=at, nothing_changed=False,
               new_sources=new_sources, removed_sources=removed_sources, values_left=list(values_left),
               edited=list(edited), new_evidence=new_evidence,
               changed_values=[c for c in supersessions if c.changed], superseded=supersessions,
               new_conflicts=new_conflicts, resolved_conflicts=resolved_conflicts,
               changed_conflicts=list(changed_conflicts))
    nothing = not (new_sources or removed_sources or new_evidence or supersessions or new_conflicts
                   or resolved_conflicts or edited or changed_conflicts)
    return d.model_copy(update={"nothing_changed": nothing, "sentences": sentences(d, gone) if not nothing else
                                [Sentence(text=NOTHING, kind="status")]})


def verification_line(d: Digest) -> str:
    v = d.verification
    if v is None:
        return "Not verified (a digest stored before digests were verified)."
    phantoms = f", {v.phantom_citations} phantom citation{'s' if v.phantom_citations != 1 else ''}" \
        if v.phantom_citations else ""
    withheld = " (withheld)" if v.failed else ""
    return f"Verification: {v.checked} sentence{'s' if v.checked != 1 else ''} checked, {v.passed} passed, " \
           f"{v.failed} failed{withheld}{phantoms}."


def to_markdown(d: Digest) -> str:
    lines = [f"# Digest: {d.question}", "", f"{_date(d.at)} · run {d.run_id}", ""]
    lines += [f"- {s.text}" for s in d.sentences]
    if not d.sentences:
        lines.append("- No sentence of this digest passed verification.")
    lines += ["", verification_line(d)]
    if d.verification is not None and d.verification.withheld:
        lines += ["", "## Withheld: failed verification", ""]
        lines += [f"- {'; '.join(c.reasons)}: {c.text}" for c in d.verification.withheld]
    return "\n".join(lines) + "\n"


def to_json(d: Digest) -> str:
    data = d.model_dump(mode="json")
    return json.dumps(data, ensure_ascii=False, indent=2)


def to_html(d: Digest) -> str:
    items = "".join(f"<li>{html.escape(s.text)}</li>" for s in d.sentences) or \
        "<li>No sentence of this digest passed verification.</li>"
    withheld = ""
    if d.verification is not None and d.verification.withheld:
        rows = "".join(f"<tr><td>{html.escape('; '.join(c.reasons))}</td><td>{html.escape(c.text)}</td></tr>"
                       for c in d.verification.withheld)
        withheld = (f"<h2>Withheld: failed verification</h2><table><tr><th>why</th><th>sentence</th></tr>{rows}"
                    "</table>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>Digest: {html.escape(d.question)}</title>"
            f"</head><body><h1>Digest: {html.escape(d.question)}</h1><p>{_date(d.at)} · run "
            f"{html.escape(d.run_id)}</p><ul>{items}</ul><p class='verification'>{html.escape(verification_line(d))}"
            f"</p>{withheld}</body></html>")
