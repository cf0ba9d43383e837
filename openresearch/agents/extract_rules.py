"""Deterministic rules for the extractor: sentence units, evidence types and entity mentions. Pure core.

Sentence units are exact slices of the stored text (offsets are the contract of invariant 1); markup
such as list bullets and heading marks is trimmed from the front of a unit, never rewritten.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import Any, NamedTuple

from openresearch.identity import AliasResolver, entity_key
from openresearch.ingest.chunk import sentence_spans
from openresearch.models import EvidenceType

MAX_UNIT_CHARS = 600  # a longer "sentence" is a table or a run-on list: cut so a quote stays readable
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LEAD = re.compile(r"(?:#{1,6}\s+|[-*+•]\s+|>\s*|\d{1,2}[.)]\s+|\|\s*)+")
_BLOCK_START = re.compile(r"\s*(?:[-*+•>#|]|\d{1,2}[.)]\s)")
_LINE_END = re.compile(r"[.!?:;。！？：；)）|]\s*$")
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|vs|etc|approx|cf|Dr|Mr|Ms|No|Fig|Inc|Ltd|St)\.)$")
_TABLE_RULE = re.compile(r"^[\s|:\-+]+$")


class Unit(NamedTuple):
    start: int
    end: int
    para: int  # paragraph index: "immediate context" never crosses a paragraph


def _split_lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cut at a single newline when the next line is a new block (list, table, heading) or the line is
    complete; join hard-wrapped lines (a plain-text source wraps mid-sentence)."""
    out, pos = [], start
    for m in re.finditer(r"\n", text[start:end]):
        cut = start + m.start()
        line, nxt = text[pos:cut], text[cut + 1:end]
        if _BLOCK_START.match(nxt) or _LINE_END.search(line) or len(line.strip()) < 60:
            out.append((pos, cut))
            pos = cut + 1
    out.append((pos, end))
    return out


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if m := _LEAD.match(text, start, end):
        start = m.end()
    return start, end


def worth_quoting(piece: str) -> bool:
    if _TABLE_RULE.match(piece) or piece.startswith(("---", "```")) or piece.endswith(("?", "？")):
        return False  # a rule line, a fence, or a question: none of them states anything
    cjk = len(_CJK.findall(piece))
    return cjk >= 6 or len(piece) - cjk >= 15


def sentence_units(text: str, max_len: int = MAX_UNIT_CHARS) -> list[Unit]:
    """Sentences (English and Chinese) as exact (start, end) slices of `text`, headings dropped.

    `para` changes at every line break, so a list item or table row is its own context."""
    raw: list[tuple[int, int]] = []
    for s, e, _ in sentence_spans(text, max_len):
        for ls, le in _split_lines(text, s, e):
            if text[ls:le].lstrip().startswith("#"):
                continue  # a heading names a topic; it is not evidence
            ts, te = _trim(text, ls, le)
            if te > ts:
                raw.append((ts, te))
    merged: list[Unit] = []
    for start, end in raw:
        prev = merged[-1] if merged else None
        same_line = prev is not None and "\n" not in text[prev.end:start]
        # sentence_spans cuts after "e.g." and before a lower-case continuation: glue those back
        if prev and same_line and (_ABBREV.search(text[prev.start:prev.end]) or (
                text[prev.end - 1] == "." and text[start].islower())):
            merged[-1] = Unit(prev.start, end, prev.para)
        else:
            merged.append(Unit(start, end, (prev.para if same_line else prev.para + 1) if prev else 0))
    return [u for u in merged if worth_quoting(text[u.start:u.end]) and not _heading(text, u)]


def _heading(text: str, u: Unit) -> bool:
    """A short line of its own without end punctuation ("Kafka throughput: close to the vendor figure"):
    parsed Markdown keeps headings as plain paragraphs, and a heading names a topic, it states nothing."""
    line_start = text.rfind("\n", 0, u.start) + 1
    line_end = text.find("\n", u.end)
    alone = not text[line_start:u.start].strip(" \t#*->|") and not text[u.end:len(text) if line_end < 0 else line_end
                                                                       ].strip()
    piece = text[u.start:u.end]
    return alone and len(piece) < 60 and not re.search(r"[.!?。！？;；]\W*$", piece)


# --- evidence types ---------------------------------------------------------------------------------

_RISK = re.compile(
    r"\b(?:risks?|risky|vulnerabilit\w*|CVE-\d+-\d+|outages?|downtime|lock-?in|data loss|los[et] data|losing data|"
    r"incidents?|security (?:issue|flaw|hole)s?|exploit\w*|breaking changes?|deprecated|end[- ]of[- ]life|"
    r"pitfalls?|failure modes?|split[- ]brain|painful|burden)\b|风险|漏洞|故障|宕机|锁定|丢失|丢消息|踩坑|隐患|中断",
    re.I)
_COMPARE = re.compile(
    r"\b(?:than|faster|slower|vs\.?|versus|compared (?:to|with)|outperform\w*|whereas|unlike|better|worse|higher|"
    r"lower|beats?)\b|比(?![如较例特])|高于|低于|优于|不如|相比|对比|更快|更慢|胜过", re.I)
_CLAIM = re.compile(
    r"\b(?:I think|we think|I believe|we believe|in my (?:view|opinion|experience)|in our experience|arguably|"
    r"should|recommend\w*|I suspect|we chose|best|worst|clearly|overrated|underrated)\b|"
    r"我认为|我们认为|建议|应该|更合适|最好|我觉得|个人觉得|推荐|依然是", re.I)


def classify(text: str, n_entities: int, has_numbers: bool) -> EvidenceType:
    """risk > comparison (needs two entities) > statistic > claim > background."""
    if _RISK.search(text):
        return "risk"
    if n_entities >= 2 and _COMPARE.search(text):
        return "comparison"
    if has_numbers:
        return "statistic"
    if _CLAIM.search(text):
        return "claim"
    return "background"


# --- entity mentions ---------------------------------------------------------------------------------

class Mention(NamedTuple):
    start: int  # offsets within the text that was linked
    end: int
    surface: str
    canonical: str


def builtin_aliases() -> dict[str, list[str]]:
    """The package alias list (the same file AliasResolver.load reads), as surface names to match."""
    text = resources.files("openresearch").joinpath("data/aliases.json").read_text("utf-8")
    data: dict[str, list[str]] = json.loads(text)
    return data


def _add_patterns(nlp: Any, names: Sequence[tuple[str, str]]) -> None:
    """Token patterns in the pipeline's own tokenisation; names of three letters or fewer ("PG", "MSK") match
    only as written, or every "pg" in a sentence would become PostgreSQL."""
    patterns = []
    for surface, canonical in names:
        attr = "ORTH" if len(surface) <= 3 else "LOWER"
        toks = [{attr: t.text if attr == "ORTH" else t.text.lower()} for t in nlp.make_doc(surface)]
        patterns.append({"label": "ENTITY", "pattern": toks, "id": canonical})
    ruler: Any = nlp.get_pipe("entity_ruler")
    ruler.add_patterns(patterns)


class EntityLinker:
    """spaCy EntityRuler over blank pipelines: `en` for Latin text, `zh` (character segmentation) for
    text with CJK, where words touch without spaces. Canonical names come from the AliasResolver."""

    def __init__(self, aliases: AliasResolver, names: Mapping[str, Iterable[str]] | None = None) -> None:
        self.aliases = aliases
        self._lock = threading.RLock()  # re-entered: link() holds it while _pipe() builds a pipeline
        self._pipes: dict[str, Any] = {}
        self._known: set[str] = set()
        self._names: list[tuple[str, str]] = []  # (surface, canonical)
        for canonical, surfaces in (builtin_aliases() if names is None else names).items():
            self.add([canonical, *surfaces])

    def add(self, surfaces: Iterable[str]) -> None:
        """Register surface names (plan entities arrive per call); each resolves through the aliases."""
        with self._lock:
            for s in surfaces:
                clean = " ".join(s.split())
                if clean and entity_key(clean) and clean.lower() not in self._known:
                    self._known.add(clean.lower())
                    self._names.append((clean, self.aliases.canonical(clean)))
                    for nlp in self._pipes.values():
                        _add_patterns(nlp, self._names[-1:])

    def _pipe(self, lang: str) -> Any:
        with self._lock:
            if lang not in self._pipes:
                import spacy  # lazy: a blank pipeline still costs a second to import

                nlp = spacy.blank(lang)
                nlp.add_pipe("entity_ruler")
                _add_patterns(nlp, self._names)
                self._pipes[lang] = nlp
            return self._pipes[lang]

    def link(self, texts: Sequence[str]) -> list[list[Mention]]:
        out: list[list[Mention]] = []
        for text in texts:
            with self._lock:  # research runs extract sources in threads; add() may grow the ruler meanwhile
                doc = self._pipe("zh" if _CJK.search(text) else "en")(text)
            found = []
            for ent in doc.ents:
                s, e = ent.start_char, ent.end_char
                # character segmentation matches inside words ("Kafkaesque"): demand word edges
                if (s > 0 and text[s - 1].isascii() and text[s - 1].isalnum()) or (
                        e < len(text) and text[e].isascii() and text[e].isalnum()):
                    continue
                found.append(Mention(s, e, ent.text, ent.ent_id_ or self.aliases.canonical(ent.text)))
            out.append(found)
        return out
