"""Observation extraction measured on real data nobody here wrote (`../shared/data`, read in place, never copied).

  python bench/bench_extract.py                 # both data sets
  python bench/bench_extract.py tsdb            # tsdb-docs-corpus: key facts, conflicts, near-misses
  python bench/bench_extract.py ramdocs         # RAMDocs dev: answer values, same-name entities

Every sentence unit of a document goes through `DeterministicExtractor.build_item` (the extractor's own entity
linking, document subject, table and observation rules), without the sentence ranking, which would measure
retrieval instead of extraction. Plan entities come from question analysis, as in a run. Prints figures; skips
cleanly when the data are absent.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

from openresearch.agents.extract.extract_rules import sentence_units
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.metric_names import canonical_metric, same_family
from openresearch.identity import AliasResolver, entity_key, question_id, source_id
from openresearch.ingest.documents import parse_bytes
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.metadata import file_title
from openresearch.ingest.textnorm import collapse
from openresearch.models import ObservationIn, Plan, SourceDoc, SubQuestion
from openresearch.numbers import (
    NumberFormatError,
    canonical_unit,
    conditions_compatible,
    normalise_metric,
    parse_quantity,
)

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
_NUM_TOKEN = re.compile(r"\d[\d,]*(?:\.\d+)?")


class Found(NamedTuple):
    doc: str
    start: int
    end: int
    ob: ObservationIn


def _analysed_entities(question: str) -> list[str]:
    try:
        from openresearch.agents.plan.analysis import analyse

        return list(analyse(question).entities)
    except Exception as exc:  # analysis is another role's work in progress: the bench still runs
        print(f"  (question analysis unavailable: {exc!r}; no plan entities)")
        return []


def _plan(question: str, entities: list[str]) -> tuple[SubQuestion, Plan]:
    sq = SubQuestion(id=question_id(question), text=question, entities=entities)
    return sq, Plan(question=question, sub_questions=[sq], entities=entities)


def observe_all(ex: DeterministicExtractor, src: SourceDoc, sq: SubQuestion, plan: Plan) -> list[Found]:
    units = sentence_units(src.text, ex.max_sentence_chars)
    ex.doc_subject(src)
    mentions = ex.mentions(src.text, units, sq, plan)
    out: list[Found] = []
    for i, u in enumerate(units):
        prev = i - 1 if i > 0 and units[i - 1].para == u.para else None
        context = (units[prev], mentions[prev]) if prev is not None else None
        item = ex.build_item(src, sq, plan, u.start, u.end, 0.0, mentions[i], context)
        assert all(str(o.value) in item.quote for o in item.observations), "raw values are verbatim"
        out += [Found(src.url, u.start, u.end, o) for o in item.observations]
    return out


def _digits(text: str) -> list[str]:
    return [t.replace(",", "").rstrip(".") for t in _NUM_TOKEN.findall(text)]


def _key(ob: ObservationIn) -> tuple[str, str, str]:
    try:
        unit = parse_quantity(ob.value, ob.unit).unit
    except NumberFormatError:
        unit = canonical_unit(ob.unit)[0]
    return entity_key(ob.entity), normalise_metric(ob.metric), unit


def _of(ob: ObservationIn, entity: str) -> bool:
    """An observation is of the fact's entity when it is the entity, or the baseline of a comparison ("vs X")."""
    key = entity_key(entity)
    return key in entity_key(ob.entity) or bool(ob.condition and f"vs{key}" in entity_key(ob.condition))


def _value(raw: str) -> float | None:
    """A number as a near-miss name writes it: "145k", "1.43 million", "2,048", "100 万"."""
    try:
        return parse_quantity(raw).value
    except NumberFormatError:
        return None


# --- tsdb-docs-corpus --------------------------------------------------------------------------------

def _line_span(text: str, raw_line: str) -> tuple[int, int] | None:
    clean = collapse(re.sub(r"^\s*(?:[-*+>]|\d+[.)]|#+)\s+|\*\*|__|`", "", raw_line))
    for probe in (clean, clean[len(clean) // 3:len(clean) // 3 + 30], clean[-30:], clean[:40]):
        if len(probe) >= 8 and text.count(probe) == 1:
            start = text.find(probe) - clean.find(probe)
            return max(0, start), max(0, start) + len(clean)
    return None


def tsdb(root: Path) -> None:
    facts = json.loads((root / "facts.json").read_text("utf-8"))
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver.load())
    docs: dict[str, SourceDoc] = {}
    raw_lines: dict[str, list[str]] = {}
    for path in sorted((root / "docs").iterdir()):
        raw = path.read_bytes()
        src = parse_bytes(raw, kind="html" if path.suffix in (".html", ".htm") else "text",
                          url=f"local://tsdb/{path.name}", default_kind="local")
        docs[path.name] = src.model_copy(update={"title": file_title(path.name, raw.decode("utf-8", "replace"),
                                                                     src.title)})
        raw_lines[path.name] = raw.decode("utf-8", "replace").splitlines()
    t0 = time.perf_counter()
    all_found = 0
    for n, q in enumerate(facts["questions"], 1):
        entities = _analysed_entities(q["question"])
        sq, plan = _plan(q["question"], entities)
        found: dict[str, list[Found]] = {name: observe_all(ex, src, sq, plan) for name, src in docs.items()}
        all_found += sum(map(len, found.values()))
        got_facts, got_numbers, numbers = 0, 0, 0
        misses = []
        for fact in q["facts"]:
            span = _line_span(docs[fact["doc"]].text, raw_lines[fact["doc"]][fact["line"] - 1])
            near = [f for f in found[fact["doc"]] if _of(f.ob, fact["entity"]) and (
                span is None or (f.start < span[1] and span[0] < f.end))]
            hit = [num for num in fact["numbers"]
                   if any(num in _digits(str(f.ob.value)) or num in _digits(f.ob.condition or "") for f in near)]
            numbers += len(fact["numbers"])
            got_numbers += len(hit)
            got_facts += len(hit) == len(fact["numbers"])
            if len(hit) < len(fact["numbers"]):
                misses.append(f"{fact['entity']} {fact['numbers']} ({fact['doc'][:40]}…:{fact['line']})")
        print(f"Q{n} ({len(entities)} plan entities {entities}): key facts {got_facts}/{len(q['facts'])} "
              f"({got_facts / max(1, len(q['facts'])):.0%}), numbers {got_numbers}/{numbers} "
              f"({got_numbers / max(1, numbers):.0%})")
        for m in misses:
            print(f"    missed: {m}")
        pool = [f for fs in found.values() for f in fs]
        shared = 0
        for c in q["conflicts"]:
            sides = [[f for f in pool if f.doc.rsplit("/", 1)[-1] in c["docs"] and _of(f.ob, c["entity"])
                      and num in _digits(str(f.ob.value))] for num in c["numbers"]]
            pair = next(((a, b) for a in sides[0] for b in sides[1] if a.doc != b.doc and _key(a.ob) == _key(b.ob)
                         and conditions_compatible(a.ob.condition, b.ob.condition)), None)
            shared += pair is not None
            state = (f"same key {_key(pair[0].ob)}, conditions {pair[0].ob.condition!r} / {pair[1].ob.condition!r}"
                     if pair else f"no shared key (sides found: {len(sides[0])}, {len(sides[1])})")
            print(f"    conflict {c['name'][:70]!r}: {state}")
        print(f"  real conflicts sharing a comparable observation key: {shared}/{len(q['conflicts'])}")
        flagged = 0
        for nm in q["near_misses"]:
            names = {m.canonical for m in ex.linker.link([nm["name"]])[0]}
            values = {v for tok in re.findall(r"\d[\d,.]*\s?(?:k|K|M|million|万|KB)?", nm["name"])
                      if (v := _value(tok.strip())) is not None}
            cands = [f for f in pool if (not names or any(_of(f.ob, e) for e in names))
                     and (val := _safe(f.ob)) is not None and val in values]
            # two statements: one sentence's own two values (a range, two cases) are its distinction, not a clash
            clash = next(((a, b) for i, a in enumerate(cands) for b in cands[i + 1:] if _safe(a.ob) != _safe(b.ob)
                          and (a.doc, a.start) != (b.doc, b.start)
                          and _key(a.ob) == _key(b.ob) and conditions_compatible(a.ob.condition, b.ob.condition)),
                         None)
            flagged += clash is not None
            if clash:
                print(f"    near-miss on one key {nm['name'][:60]!r}: {_key(clash[0].ob)} "
                      f"{clash[0].ob.value} ({clash[0].ob.condition}) vs {clash[1].ob.value} ({clash[1].ob.condition})")
        print(f"  near-miss pairs sharing a comparable observation key: {flagged}/{len(q['near_misses'])}")
    print(f"tsdb: {all_found} observations over {len(docs)} docs x {len(facts['questions'])} questions in "
          f"{time.perf_counter() - t0:.1f} s")


def _safe(ob: ObservationIn) -> float | None:
    try:
        return parse_quantity(ob.value, ob.unit).value
    except NumberFormatError:
        return None


# --- RAMDocs ----------------------------------------------------------------------------------------

_Q_ENTITY = re.compile(r"^(?:what|when|where|who|how many|in which \w+)\b.*?\b(?:of|was|is|did|were|does)\s+(?:the\s+)?"
                       r"(?P<e>.+?)(?:\s+(?:built|born|founded|established|released|completed|formed|die|died|"
                       r"opened|constructed|located))?\s*\??$", re.I)


def _focus(question: str) -> list[str]:
    found = _analysed_entities(question)
    if len(found) == 1:
        return found
    m = _Q_ENTITY.match(question.strip())
    return [m.group("e").strip(" ?\"'")] if m else found


def _answer(answer: str, metric: str) -> tuple[str, float] | None:
    """(unit family, value) of a gold or wrong answer for the question's metric."""
    for unit in ("date", "year") if metric in ("born", "died", "founded", "released", "built", "opened") else ():
        try:
            return unit, parse_quantity(answer, unit).value
        except NumberFormatError:
            continue
    digits = _NUM_TOKEN.search(answer)
    return ("", float(digits.group(0).replace(",", ""))) if digits else None


def _matches(ob: ObservationIn, metric: str, want: tuple[str, float]) -> bool:
    if not same_family(normalise_metric(ob.metric), metric):
        return False
    try:
        q = parse_quantity(ob.value, ob.unit)
    except NumberFormatError:
        return False
    unit, value = want
    if unit == "year" and q.unit == "date":
        return int(q.value) // 10000 == int(value)
    if unit == "date" and q.unit == "year":
        return int(value) // 10000 == int(q.value)
    return abs(q.value - value) < 1e-6


def ramdocs(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver.load())
    t0 = time.perf_counter()
    hits: dict[str, list[bool]] = defaultdict(list)
    same_name, same_key, told, told_same = 0, 0, 0, 0
    misinfo_q, misinfo_joined = 0, 0
    asked = 0
    for row in rows:
        entities = _focus(row["question"])
        # the attribute words, not the name ("When was Walter Price born?" asks for a birth date, not a price)
        words = row["question"]
        for e in entities:
            words = words.replace(e, " ")
        metric = canonical_metric(words)
        if metric is None or not any(_NUM_TOKEN.search(a) for a in row["gold_answers"]):
            continue
        asked += 1
        sq, plan = _plan(row["question"], entities)
        per_doc: list[tuple[str, str, list[ObservationIn], bool]] = []
        for i, d in enumerate(row["documents"]):
            want = _answer(d["answer"], metric) if d["type"] in ("correct", "misinfo") else None
            if want is None:
                continue
            text = collapse(d["text"])
            url = f"local://ramdocs/{sq.id}/{i}.txt"
            src = SourceDoc(id=source_id(url), url=url, title=None, text=text, content_hash=str(hash(text)))
            matched = [f.ob for f in observe_all(ex, src, sq, plan) if _matches(f.ob, metric, want)]
            hits[d["type"]].append(bool(matched))
            subject = ex.doc_subject(src)
            named = bool(subject.lead) or any(entity_key(e) in subject.named for e in entities)
            if named:
                hits[d["type"] + " naming"].append(bool(matched))
            per_doc.append((d["type"], d["answer"], matched, bool(subject.lead)))
        correct = [(a, m, lead) for t, a, m, lead in per_doc if t == "correct" and m]
        if len(row["disambig_entity"]) > 1:
            for i, (a1, m1, l1) in enumerate(correct):
                for a2, m2, l2 in correct[i + 1:]:
                    if _answer(a1, metric) != _answer(a2, metric):
                        shared = bool({entity_key(o.entity) for o in m1} & {entity_key(o.entity) for o in m2})
                        same_name += 1
                        same_key += shared
                        told += l1 and l2
                        told_same += l1 and l2 and shared
        wrong = [m for t, _, m, _ in per_doc if t == "misinfo" and m]
        if wrong and correct:
            misinfo_q += 1
            misinfo_joined += any(_key(w) == _key(c) for ws in wrong for w in ws for _, cs, _ in correct for c in cs)
    for kind in ("correct", "misinfo"):
        got, naming = hits[kind], hits[kind + " naming"]
        print(f"ramdocs {kind} passages whose answer value is an observation with the question's metric: "
              f"{sum(got)}/{len(got)} ({sum(got) / max(1, len(got)):.0%}); of those naming the entity (opening "
              f"name or the question's entity; the others give no observation by design): "
              f"{sum(naming)}/{len(naming)} ({sum(naming) / max(1, len(naming)):.0%})")
    print(f"ramdocs same-name pairs (different answers, >1 disambiguated entity) on the same entity key: "
          f"{same_key}/{same_name} ({same_key / max(1, same_name):.0%}; target low); where both passages say which "
          f"one (an opening qualified name): {told_same}/{told} ({told_same / max(1, told):.0%})")
    print(f"ramdocs questions whose misinformation value shares an observation key with a correct value: "
          f"{misinfo_joined}/{misinfo_q} ({misinfo_joined / max(1, misinfo_q):.0%}; the conflict check's input)")
    print(f"ramdocs: {asked} questions with a metric and a numeric/date answer, {time.perf_counter() - t0:.1f} s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("which", nargs="?", choices=("tsdb", "ramdocs", "all"), default="all")
    ap.add_argument("--data", type=Path, default=DATA, help="the shared data folder (default: ../shared/data)")
    args = ap.parse_args(argv)
    print("$ python bench/bench_extract.py " + " ".join(sys.argv[1:] if argv is None else argv))
    ran = False
    tsdb_root, ram = args.data / "tsdb-docs-corpus", args.data / "ramdocs-dev" / "RAMDocs_dev.jsonl"
    if args.which in ("tsdb", "all"):
        if (tsdb_root / "facts.json").is_file():
            tsdb(tsdb_root)
            ran = True
        else:
            print(f"skipped tsdb: {tsdb_root} not found")
    if args.which in ("ramdocs", "all"):
        if ram.is_file():
            ramdocs(ram)
            ran = True
        else:
            print(f"skipped ramdocs: {ram} not found")
    return 0 if ran or not args.data.exists() else 1


if __name__ == "__main__":
    sys.exit(main())
