"""A monitoring run's digest: what is new, what changed (old -> new, both cited, with dates), new and resolved
conflicts, or "nothing changed"; every sentence cites evidence ids and takes its numbers from the cited
quotes' extracted values. The monitoring run verifies the sentences (digest_verify.py) before the digest is
stored; every rendering shows the verification and any sentence withheld by it. Rendered as Markdown, JSON and
HTML."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Collection, Sequence
from datetime import UTC, datetime

from openresearch.monitor.models import (
    SECTION_TITLES,
    ConflictItem,
    Digest,
    DocumentChange,
    EvidenceItem,
    Section,
    Sentence,
    SourceItem,
    ValueChange,
    ValueItem,
)

NOTHING = "Nothing changed since the last run."
MAX_NAMED = 20  # sources named in one line


def _date(ms: int | None) -> str:
    return "undated" if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC).date().isoformat()


def _cond(condition: str) -> str:
    return f" ({condition})" if condition else ""


def _name(title: str | None, url: str) -> str:
    return title or url


def _value_sentence(v: ValueItem, section: Section) -> Sentence:
    name = _name(v.title, v.url)
    links = {name: v.url} if v.url.startswith(("http://", "https://")) else {}
    return Sentence(text=f"{v.entity} {v.metric}{_cond(v.condition)}: {v.value} [{v.evidence}] ({name}).",
                    evidence_ids=[v.evidence], metadata=[f"({name})"], section=section, links=links)


def sentences(d: Digest, gone: Collection[str] = ()) -> list[Sentence]:
    """The digest's lines in the order a reader acts on them: new figures (the first digest: every figure
    known), changed figures (old -> new, both cited), new conflicts, resolved ones, the values that left, then
    what changed without a figure (dates, sources with nothing to count). Each states its figure and cites it;
    no line per evidence item. `gone`: evidence ids that left the graph in this run (never cited)."""
    out: list[Sentence] = []
    figures: Section = "known" if d.first else "new"
    out += [_value_sentence(v, figures) for v in d.new_values]
    for c in d.changed_values:
        old_at, new_at = f"(as of {_date(c.old_date)})", f"(as of {_date(c.new_date)})"
        out.append(Sentence(text=f"{c.entity} {c.metric}{_cond(c.condition)} changed from {c.old_value} "
                                 f"{old_at} [{c.old_evidence}] to {c.new_value} {new_at} [{c.new_evidence}].",
                            evidence_ids=[c.old_evidence, c.new_evidence], metadata=[old_at, new_at],
                            section="changed"))
    edits = [x for doc in d.edited for x in _edit_sentences(doc)]
    out += [x for x in edits if x.section == "changed"]
    out += [_conflict_sentence(g, "New conflict") for g in d.new_conflicts]
    out += [_conflict_sentence(g, "Conflict changed, now") for g in d.changed_conflicts]
    out += [_resolved_sentence(g, set(gone)) for g in d.resolved_conflicts]
    out += [x for x in edits if x.section == "left"]
    for s in d.removed_sources:
        name = s.title or s.url  # the name is the digest's record, not a quote's
        left = [v for v in d.values_left if v.source_id == s.id]
        if left:  # its last version is kept, so the values that left with it are still citable
            out.append(Sentence(text=f"Source no longer available: {name}; the values that left with it: "
                                     + "; ".join(f"{v.entity} {v.metric}{_cond(v.condition)} {v.value} "
                                                 f"[{v.evidence}]" for v in left) + ".",
                                evidence_ids=[v.evidence for v in left], metadata=[name], section="left"))
        else:
            out.append(Sentence(text=f"Source no longer available: {name}; the evidence read from it "
                                     "earlier is listed in previous digests.", kind="status", metadata=[name],
                                section="left"))
    out += [x for x in edits if x.section == "other"]
    cited = {e for x in out for e in x.evidence_ids}
    with_figures = {v.source_id for v in d.new_values} | {e.source_id for e in d.new_evidence if e.id in cited}
    bare = [s for s in d.new_sources if s.id not in with_figures and any(e.source_id == s.id for e in d.new_evidence)]
    if bare:  # one line for all of them: they are news, but give the reader no figure to act on
        names = [(s.title or s.url, _date(s.published_at), s.url) for s in bare]
        shown = names[:MAX_NAMED]
        more = f" and {len(names) - len(shown)} more" if len(names) > len(shown) else ""
        out.append(Sentence(text=f"New source{'s' if len(names) != 1 else ''} without figures: "
                                 + "; ".join(f"{n} ({at})" for n, at, _ in shown) + f"{more}.",
                            kind="status", section="other",
                            metadata=[x for n, at, _ in shown for x in (n, at)] + ([more] if more else []),
                            links={n: u for n, _, u in shown if u.startswith(("http://", "https://"))}))
    if not out:
        out.append(Sentence(text=NOTHING, kind="status"))
    return out


def _edit_sentences(e: DocumentChange) -> list[Sentence]:
    """What changed in one document, from its previous version: each figure (old -> new, both cited), each
    figure it no longer states, and its date."""
    name = e.source.title or e.source.url
    out: list[Sentence] = []
    links = {name: e.source.url} if e.source.url.startswith(("http://", "https://")) else {}
    for c in e.changed:
        out.append(Sentence(text=f"In {name}, {c.entity} {c.metric}{_cond(c.condition)} went from {c.old_value} "
                                 f"to {c.new_value} [{c.old_evidence}] → [{c.new_evidence}].",
                            evidence_ids=[c.old_evidence, c.new_evidence], metadata=[name], section="changed",
                            links=links))
    for v in e.dropped:
        out.append(Sentence(text=f"In {name}, {v.entity} {v.metric}{_cond(v.condition)} {v.value} [{v.evidence}] "
                                 "is no longer stated (its sentence changed or was removed).",
                            evidence_ids=[v.evidence], metadata=[name], section="left", links=links))
    if e.date_changed:
        old_at, new_at = _date(e.old_published_at), _date(e.new_published_at)
        what = "" if e.text_changed else " (its text is unchanged)"
        out.append(Sentence(text=f"In {name}, the date changed from {old_at} to {new_at}{what}.", kind="status",
                            metadata=[name, old_at, new_at], links=links))
    elif e.text_changed and not out:
        out.append(Sentence(text=f"{name} was edited; none of its figures changed.", kind="status",
                            metadata=[name], links=links))
    return out


def _conflict_sentence(g: ConflictItem, what: str) -> Sentence:
    parts = [f"{v} " + " ".join(f"[{e}]" for e in ids[:3]) for v, ids in zip(g.values, g.evidence_ids, strict=False)]
    section: Section = "resolved" if what.startswith("No longer") else "new_conflicts"
    return Sentence(text=f"{what}: {g.entity} {g.metric}{_cond(g.condition)}: " + " vs ".join(parts) + ".",
                    evidence_ids=[e for ids in g.evidence_ids for e in ids[:3]], section=section)


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
                             f"{_cond(g.condition)}.", kind="status", section="resolved")
    others = f"{lost} other value{'s' if lost != 1 else ''}"
    parts = [f"{v} " + " ".join(f"[{e}]" for e in ids[:3]) for v, ids in kept]
    return Sentence(text=f"{what}: {g.entity} {g.metric}{_cond(g.condition)}: " + " vs ".join(parts)
                         + f"; the source of the {others} is no longer available.",
                    evidence_ids=[e for _, ids in kept for e in ids[:3]], metadata=[others], section="resolved")


def build(*, digest_id: str, topic_id: str, run_id: str, question: str, at: int, new_sources: list[SourceItem],
          removed_sources: list[SourceItem], new_evidence: list[EvidenceItem], supersessions: list[ValueChange],
          new_conflicts: list[ConflictItem], resolved_conflicts: list[ConflictItem],
          gone: Collection[str] = (), values_left: Sequence[ValueItem] = (),
          edited: Sequence[DocumentChange] = (), changed_conflicts: Sequence[ConflictItem] = (),
          new_values: Sequence[ValueItem] = (), first: bool = False) -> Digest:
    """`new_values`: the figures new in this run (`first`: the topic's first digest, every figure known)."""
    d = Digest(id=digest_id, topic_id=topic_id, run_id=run_id, question=question, at=at, nothing_changed=False,
               first=first, new_values=list(new_values),
               new_sources=new_sources, removed_sources=removed_sources, values_left=list(values_left),
               edited=list(edited), new_evidence=new_evidence,
               changed_values=[c for c in supersessions if c.changed], superseded=supersessions,
               new_conflicts=new_conflicts, resolved_conflicts=resolved_conflicts,
               changed_conflicts=list(changed_conflicts))
    lines = sentences(d, gone)
    # an equal value restated, or evidence with no figure from a source already read: nothing to act on
    nothing = [s.text for s in lines] == [NOTHING]
    return d.model_copy(update={"nothing_changed": nothing, "sentences": lines})


def verification_line(d: Digest) -> str:
    v = d.verification
    if v is None:
        return "Not verified (a digest stored before digests were verified)."
    phantoms = f", {v.phantom_citations} phantom citation{'s' if v.phantom_citations != 1 else ''}" \
        if v.phantom_citations else ""
    withheld = " (withheld)" if v.failed else ""
    return f"Verification: {v.checked} sentence{'s' if v.checked != 1 else ''} checked, {v.passed} passed, " \
           f"{v.failed} failed{withheld}{phantoms}."


def _grouped(d: Digest) -> list[tuple[str, list[Sentence]]]:
    """The published sentences under their section titles, in the digest's order (a lone status line: none)."""
    if [s.text for s in d.sentences] == [NOTHING]:
        return [("", d.sentences)]
    out: list[tuple[str, list[Sentence]]] = []
    for s in d.sentences:
        title = SECTION_TITLES.get(s.section, "")
        if not out or out[-1][0] != title:
            out.append((title, []))
        out[-1][1].append(s)
    return out


def to_markdown(d: Digest) -> str:
    lines = [f"# Digest: {d.question}", "", f"{_date(d.at)} · run {d.run_id}", ""]
    for title, group in _grouped(d):
        if title:
            lines += [f"## {title}", ""]
        lines += [f"- {s.text}" for s in group]
        lines.append("")
    if not d.sentences:
        lines += ["- No sentence of this digest passed verification.", ""]
    lines.append(verification_line(d))
    if d.verification is not None and d.verification.withheld:
        lines += ["", "## Withheld: failed verification", ""]
        lines += [f"- {'; '.join(c.reasons)}: {c.text}" for c in d.verification.withheld]
    return "\n".join(lines) + "\n"


def to_json(d: Digest) -> str:
    data = d.model_dump(mode="json")
    return json.dumps(data, ensure_ascii=False, indent=2)


_CITE = re.compile(r"\[(E-[0-9A-Za-z_-]+)\]")


def _html_sentence(s: Sentence, base: str) -> str:
    """The sentence escaped, each [E-…] a link to the evidence page, each named source a link to its URL."""
    text = html.escape(s.text)
    for name, url in s.links.items():
        if url.startswith(("http://", "https://")):
            text = text.replace(html.escape(name), f"<a href='{html.escape(url, quote=True)}'>{html.escape(name)}</a>",
                                1)
    return _CITE.sub(lambda m: f"[<a href='{html.escape(base)}/ui/evidence/{m.group(1)}'>{m.group(1)}</a>]", text)


def to_html(d: Digest, base: str = "") -> str:
    """`base`: where the web page is served (evidence links are `{base}/ui/evidence/E-…`)."""
    head = "Digest"
    parts: list[str] = []
    for title, group in _grouped(d):
        if title:
            parts.append(f"<h2>{html.escape(title)}</h2>")
        parts.append("<ul>" + "".join(f"<li>{_html_sentence(s, base)}</li>" for s in group) + "</ul>")
    if not d.sentences:
        parts.append("<ul><li>No sentence of this digest passed verification.</li></ul>")
    withheld = ""
    if d.verification is not None and d.verification.withheld:
        rows = "".join(f"<tr><td>{html.escape('; '.join(c.reasons))}</td><td>{html.escape(c.text)}</td></tr>"
                       for c in d.verification.withheld)
        withheld = (f"<h2>Withheld: failed verification</h2><table><tr><th>why</th><th>sentence</th></tr>{rows}"
                    "</table>")
    q = html.escape(d.question)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{head}: {q}</title>"
            f"</head><body><h1>{head}: {q}</h1><p>{_date(d.at)} · run "
            f"{html.escape(d.run_id)}</p>{''.join(parts)}<p class='verification'>{html.escape(verification_line(d))}"
            f"</p>{withheld}</body></html>")
