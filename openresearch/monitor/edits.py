"""Edits and deletions as such (pure): what changed in a document since its previous version, matched by
observation key and condition between the two versions' values, and the values that left with a deleted one.

A document is edited when its text (content hash) or its date changed between two reads of the graph. Its
previous version's values are paired with the new version's by key + condition: an equal value is restated
(the new version's observation supersedes the old one; nothing to report), a different one changed ("went
from X to Y", both cited), one the new version lacks is no longer stated. A value of the new version with no
counterpart is a new figure, reported as new evidence. The new version's sentences whose quote the previous
version held are not new evidence (`unchanged_quotes`)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from openresearch.monitor.models import DocumentChange, SourceItem, ValueChange, ValueItem
from openresearch.monitor.timefacts import Supersession, timed

Row = Mapping[str, Any]


def edited_sources(before: Mapping[str, SourceItem], after: Mapping[str, SourceItem],
                   hash_before: Mapping[str, str | None], hash_after: Mapping[str, str | None]) -> list[str]:
    """The sources present in both reads whose stored text (a hash on each side that differs) or date changed."""
    out = []
    for sid in sorted(before.keys() & after.keys()):
        a, b = hash_before.get(sid), hash_after.get(sid)
        if (a and b and a != b) or before[sid].published_at != after[sid].published_at:
            out.append(sid)
    return out


def _by_key(rows: Iterable[Row]) -> dict[tuple[str, str], list[Row]]:
    seen: set[str] = set()
    out: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in rows:
        if r["id"] in seen:
            continue
        seen.add(r["id"])
        out[(str(r["key"]), str(r.get("condition_key") or ""))].append(r)
    return {k: sorted(v, key=lambda r: (float(r["value"]), str(r["id"]))) for k, v in out.items()}


def raw(r: Row) -> str:
    text = str(r.get("raw_value") or r.get("value"))
    return f"{text} {r.get('raw_unit') or ''}".strip()


def value_item(r: Row) -> ValueItem:
    return ValueItem(entity=r.get("entity") or "", metric=r["metric"], unit=r.get("unit") or "",
                     condition=r.get("condition") or "", value=raw(r), evidence=r["evidence_id"],
                     source_id=r["source_id"])


def _change(old: Row, new: Row) -> ValueChange:
    return ValueChange(entity=old.get("entity") or "", metric=old["metric"], unit=old.get("unit") or "",
                       condition=old.get("condition") or "", old_observation=old["id"], old_value=raw(old),
                       old_evidence=old["evidence_id"], old_date=timed(old).valid_ms, new_observation=new["id"],
                       new_value=raw(new), new_evidence=new["evidence_id"], new_date=timed(new).valid_ms)


def document_change(source: SourceItem, old_published_at: int | None, old_rows: Iterable[Row],
                    new_rows: Iterable[Row], *, text_changed: bool, read: bool = True,
                    new_text: str | None = None) -> tuple[DocumentChange, list[Supersession]]:
    """What changed in one document (`old_rows`: its previous version's observation rows, `new_rows`: the
    current version's), and the supersessions of its previous version's values by the new version's (a new
    version of one document restates its values: the one lineage that needs no publisher). `read`: whether
    the run read the new version at all (no evidence from it: its figures are not known to be gone);
    `new_text`: the new version's text, where a previous figure's sentence that is still there word for word is
    still stated (the run read other parts of the document), not dropped."""
    olds, news = _by_key(old_rows), _by_key(new_rows)
    change = DocumentChange(source=source, old_published_at=old_published_at, new_published_at=source.published_at,
                            text_changed=text_changed)
    restated: list[Supersession] = []
    for k in sorted(olds.keys() | news.keys()):
        o, n = list(olds.get(k, [])), list(news.get(k, []))
        for r in list(o):  # an equal value is restated, not changed
            twin = next((x for x in n if float(x["value"]) == float(r["value"])), None)
            if twin is not None:
                o.remove(r)
                n.remove(twin)
                if twin["id"] != r["id"]:
                    restated.append(_supersession(r, twin))
        for a, b in zip(o, n, strict=False):
            change.changed.append(_change(a, b))
            restated.append(_supersession(a, b))
        if read:
            change.dropped += [value_item(r) for r in o[len(n):] if not _still_there(r, new_text)]
    return change, restated


def _still_there(r: Row, text: str | None) -> bool:
    return text is not None and " ".join(str(r.get("quote") or "\0").split()) in " ".join(text.split())


def _supersession(old: Row, new: Row) -> Supersession:
    at = timed(new).valid_ms
    return Supersession(old=str(old["id"]), new=str(new["id"]), at_ms=at if at is not None else 0, late=False)


def values_left(rows_before: Iterable[Row], removed: Collection[str]) -> list[ValueItem]:
    """The values the removed sources stated (one per observation), as the graph held them before."""
    seen: set[str] = set()
    out: list[ValueItem] = []
    for r in rows_before:
        if r["source_id"] in removed and r["id"] not in seen:
            seen.add(r["id"])
            out.append(value_item(r))
    return sorted(out, key=lambda v: (v.source_id, v.entity, v.metric, v.evidence))


def unchanged_quotes(new_quotes: Mapping[str, str], old_quotes: Collection[str]) -> set[str]:
    """The new version's evidence ids whose quote its previous version held word for word (not new evidence)."""
    old = {" ".join(q.split()) for q in old_quotes}
    return {e for e, q in new_quotes.items() if " ".join(q.split()) in old}


_FIGURE = re.compile(r"\d(?:[\d,.]*\d)?")


def edited_twin(quote: str, text: str) -> tuple[int, int] | None:
    """The span of `text` that is `quote` with one or more of its figures edited (every other word as it was,
    spacing aside), or None: the sentence an edit of a figure left behind, to be read as that edit rather than
    as a figure no longer stated. Only a quote with a figure and three words or more around it, and only a span
    whose figures differ."""
    parts = _FIGURE.split(quote)
    if len(parts) < 2 or sum(len(p.split()) for p in parts) < 3:
        return None
    pattern = r"\s*(\d(?:[\d,.]*\d)?)\s*".join(r"\s+".join(re.escape(w) for w in p.split()) for p in parts)
    old = _FIGURE.findall(quote)
    for m in re.finditer(pattern, text):
        if list(m.groups()) != old:
            return m.start(), m.end()
    return None
