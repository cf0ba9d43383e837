"""Observation precision and recall through `openresearch extract`, against hand-checked gold units.

  python bench/bench_observations.py                    # every corpus of ../shared/data with observations_gold.json
  python bench/bench_observations.py json-libs-corpus   # one corpus
  python bench/bench_observations.py --misses           # also print each missed gold observation and each wrong one

Each document named by a gold unit is parsed as ingest parses it and read by `read_document` (no question: the
document's own structure names the entities). A gold unit (a verbatim sentence or table row of the raw file) is
located in the stored text by its word and number tokens; the observations of the evidence units that overlap it
are scored:
  - recall: gold observations (own, reported, bound) matched by entity (any alias), value (as written, digits) and
    metric (any of the gold's metric words in the metric name); a gold setting counts when its figure is a setting
    observation or sits in a matched observation's condition;
  - precision: extracted observations that match some gold observation of their unit (entity, value, metric);
  - role: matched observations whose role is the gold's;
  - non-measurements stored: numbers the gold lists as not measurements (versions, years, issue numbers, ...)
    that became an observation's value.
Reads ../shared/data in place (or $OPENRESEARCH_BENCH_DATA); says so and exits 0 when it is absent. Prints figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from openresearch.agents.extract.document import ReadDocument, read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.identity import AliasResolver, entity_key
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file
from openresearch.models import ObservationIn
from openresearch.numbers import NumberFormatError, parse_quantity

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("OPENRESEARCH_BENCH_DATA") or REPO.parent / "shared" / "data")
_TOKEN = re.compile(r"[0-9A-Za-z]+|[\u4e00-\u9fff]")
_DIGITS = re.compile(r"\d+(?:\.\d+)?")


def tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group().lower(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def locate(text: str, quote: str, toks: list[tuple[str, int, int]] | None = None) -> tuple[int, int] | None:
    """The span of `text` holding the raw `quote` (markup, pipes and line breaks differ): the window of text tokens,
    starting at each occurrence of the quote's first tokens, that matches the most of its tokens in order."""
    # a Markdown link's target is not stored text (a link is its words): "[Apr 21, 2022](https://...)"
    q = [t for t, _, _ in tokens(re.sub(r"\]\([^)\s]*\)", "]", quote))]
    if not q:
        return None
    toks = toks if toks is not None else tokens(text)
    words = [t for t, _, _ in toks]
    # the best window: most of the quote's tokens in order, then the tightest (its first to its last matched
    # token: a quote whose keys the text does not repeat, as a record read as a table row, spans that row only)
    best: tuple[float, int, int, int] | None = None
    anchors = {i for i, w in enumerate(words) if w == q[0] or (len(q) > 1 and w == q[1])}
    for i in sorted(anchors):
        j, k, hit, last = i, 0, 0, i
        while j < len(words) and k < len(q) and j - i < 2 * len(q) + 5:
            if words[j] == q[k]:
                hit, k, last = hit + 1, k + 1, j
            elif k + 1 < len(q) and words[j] == q[k + 1]:
                hit, k, last = hit + 1, k + 2, j
            j += 1
        score = hit / len(q)
        if score >= 0.6 and (best is None or (score, i - last) > (best[0], -best[3])):
            best = (score, toks[i][1], toks[last][2], last - i)
    return (best[1], best[2]) if best else None


def digits(value: object) -> list[str]:
    return [d.lstrip("0") or "0" for d in _DIGITS.findall(str(value).replace(",", ""))]


def _months(got: object, unit: str | None) -> float | None:
    """A duration or count as value_norm gives it: durations in months, counts as numbers."""
    try:
        q = parse_quantity(str(got), unit or None) if unit not in ("date", "year") else None
    except NumberFormatError:
        return None
    if q is None:
        return None
    return q.value / 30.4375 if q.unit == "days" else q.value if q.unit == "" else None


def same_value(got: object, gold: dict[str, Any], unit: str | None = None) -> bool:
    want = digits(gold["value"])
    have = digits(got)
    norm = gold.get("value_norm")
    if isinstance(norm, int | float) and (m := _months(got, unit)) is not None and \
            abs(m - norm) <= max(0.02 * abs(norm), 0.05):
        return True  # "two months" for "every two months", "1½ year" for 18 months
    if not want:
        return False
    try:
        if float(str(got).replace(",", "")) == float(str(gold["value"])):
            return True
    except ValueError:
        pass
    # a range ("40-50", "500 to 1000") is its low end against the gold's value (and its high end against value_high)
    ends = re.findall(r"\d+(?:\.\d+)?", str(got).replace(",", ""))
    if len(ends) == 2 and re.fullmatch(r"\s*[\d.]+\s*(?:-|–|to|~)\s*[\d.]+\s*", str(got).replace(",", "")) and \
            isinstance(gold["value"], int | float) and float(ends[0]) == float(gold["value"]):
        high = gold.get("value_high")
        return not isinstance(high, int | float) or float(ends[1]) == float(high)
    return have[:len(want)] == want or have == want


def same_entity(got: str, gold: dict[str, Any]) -> bool:
    key = entity_key(got)
    names = [gold["entity"], *gold.get("entity_aliases", [])]
    return any(key and (key == entity_key(n) or (len(entity_key(n)) >= 3 and entity_key(n) in key)
                        or (len(key) >= 3 and key in entity_key(n))) for n in names)


def same_metric(got: ObservationIn, gold: dict[str, Any]) -> bool:
    name = f"{got.metric} {got.unit or ''}".lower().replace("_", " ")
    flat = re.sub(r"[\W_]+", "", name)  # "speed-up" is "speedup"
    return any(w.lower() in name or w.lower().replace(" ", "_") in got.metric.lower() or
               re.sub(r"[\W_]+", "", w.lower()) in flat for w in gold["metric_any"])


def matches(o: ObservationIn, g: dict[str, Any]) -> bool:
    return same_entity(o.entity, g) and same_value(o.value, g, o.unit) and same_metric(o, g)


def score(corpus: Path, show: bool) -> dict[str, float]:
    gold = json.loads((corpus / "observations_gold.json").read_text("utf-8"))
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver.load())
    read: dict[str, tuple[ReadDocument, str, list[tuple[str, int, int]]]] = {}
    t0 = time.perf_counter()
    for doc in sorted({u["doc_id"] for u in gold["units"]}):
        src = parse_local_file(corpus / "docs" / doc)
        read[doc] = (read_document(ex, src), src.text, tokens(src.text))
    took = time.perf_counter() - t0
    n_gold = found = n_pred = right = role_ok = matched = nm_total = nm_stored = unlocated = 0
    for unit in gold["units"]:
        rd, text, toks = read[unit["doc_id"]]
        span = locate(text, unit["quote"], toks)
        goals = [g for g in unit["observations"] if g["role"] != "setting"]
        settings = [g for g in unit["observations"] if g["role"] == "setting"]
        n_gold += len(goals) + len(settings)
        nm_total += len(unit["non_measurements"])
        if span is None:
            unlocated += 1
            if show:
                print(f"  [{unit['id']}] not located: {unit['quote'][:70]!r}")
            continue
        got = [o for u in rd.units if u.start < span[1] and span[0] < u.end for o in u.observations]
        n_pred += len(got)
        for o in got:
            if any(matches(o, g) for g in unit["observations"]):
                right += 1
            elif show:
                print(f"  [{unit['id']}] wrong: {o.entity} | {o.metric} = {o.value} {o.unit or ''} "
                      f"({o.condition or ''}) [{o.role}]")
        for g in goals:
            hit = next((o for o in got if matches(o, g)), None)
            if hit is not None:
                found += 1
                matched += 1
                role_ok += hit.role == g["role"]
            elif show:
                print(f"  [{unit['id']}] missed: {g['entity']} {g['metric_any'][0]} = {g['value']} {g['unit'] or ''}"
                      f" [{g['role']}] in {unit['quote'][:60]!r}")
        for g in settings:
            if any((o.role == "setting" and same_value(o.value, g)) or str(g["value"]) in (o.condition or "")
                   for o in got):
                found += 1
        for nm in unit["non_measurements"]:
            values = {str(o.value) for o in got}
            if digits(nm) and any(digits(v) == digits(nm) for v in values) and not any(
                    same_value(nm, g) for g in unit["observations"]):
                nm_stored += 1
    figures = {"recall": found / max(1, n_gold), "precision": right / max(1, n_pred),
               "role": role_ok / max(1, matched), "non_measurements_stored": nm_stored / max(1, nm_total)}
    print(f"{corpus.name}: {len(gold['units'])} units ({unlocated} not located), {len(read)} documents read in "
          f"{took:.1f} s")
    print(f"  recall {found}/{n_gold} ({figures['recall']:.0%}), precision {right}/{n_pred} "
          f"({figures['precision']:.0%}), role right {role_ok}/{matched} ({figures['role']:.0%}), "
          f"non-measurements stored {nm_stored}/{nm_total} ({figures['non_measurements_stored']:.0%})")
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="*")
    ap.add_argument("--misses", action="store_true")
    args = ap.parse_args()
    if not DATA.is_dir():
        print(f"no data at {DATA}: nothing to score")
        return
    names = args.corpora or sorted(p.parent.name for p in DATA.glob("*/observations_gold.json"))
    for name in names:
        if not (DATA / name / "observations_gold.json").is_file():
            print(f"{name}: no observations_gold.json, skipped")
            continue
        score(DATA / name, args.misses)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
