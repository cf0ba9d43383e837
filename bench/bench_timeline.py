"""Change is not disagreement (issue 24 items 1-3), measured over real documents.

(1) A scripted timeline per corpus of ../shared/data (tsdb-docs, json-libs, release-policy): copies of its
documents, each given a header (title from the manifest, a date, a URL whose host is the repository owner: one
publisher per owner), watched by one monitoring topic on the embedded FalkorDB with a fake clock. Days:
  1 first run;  2 a figure edited in one document;  3 an independent source contradicting another figure;
  4 one document deleted;  5 only one document's date changed;  6 an idle day;  7 a figure only reported
  from someone else ("I also saw the earlier claim that ...").
Per day it prints the expected digest lines and the produced ones, wrong supersessions (pairs the graph marks
superseded that are not one lineage: the same document's versions or the same manifest owner, both the
source's own figures, the newer one later) and missed conflicts (the contradiction of day 3 not shown as a
conflict, or superseded instead). The two clocks: after the edit of day 2, what the graph held the day before
(`known_on`: the old figure) and the figure by validity on the date the document gives (`as_of`: the new one);
after day 7, every past day's values and conflict groups rebuilt from the graph (`known_on` each day) against
what that day's run left, with the time per day.
(2) Invalidation precision: every document of the three corpora and the passages of the first --ramdocs
questions of the RAMDocs dev set read whole (`read_document`, no question), stored, then the supersession
pass; the share of superseded pairs that are true lineage supersessions, beside the date-only rule (what
supersession was before: any later value of the same key + condition) over the same observations. Pairs that
are not true ones are printed.

    python bench/bench_timeline.py [--corpus tsdb-docs-corpus ...] [--ramdocs 40] [--skip-timeline]

Reads ../shared/data in place (or $OPENRESEARCH_BENCH_DATA); says so and exits 0 when it is absent.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("OPENRESEARCH_BENCH_DATA") or REPO.parent / "shared" / "data")
sys.path.insert(0, str(REPO / "tests" / "monitor"))
from monitor_support import offline_services  # noqa: E402

from openresearch.agents.extract.document import read_document  # noqa: E402
from openresearch.agents.extract.extractor import DeterministicExtractor  # noqa: E402
from openresearch.conflicts import GENERIC_METRICS  # noqa: E402
from openresearch.graph.falkor import FalkorBackend  # noqa: E402
from openresearch.graph.falkor_server import EmbeddedFalkor  # noqa: E402
from openresearch.graph.monitor_store import MonitorStore  # noqa: E402
from openresearch.graph.store import GraphStore  # noqa: E402
from openresearch.identity import AliasResolver  # noqa: E402
from openresearch.ingest.embed import HashEmbedder, SentenceTransformerEmbedder  # noqa: E402
from openresearch.ingest.local import parse_local_file  # noqa: E402
from openresearch.models import EvidenceRecord, SourceRef  # noqa: E402
from openresearch.monitor import asof  # noqa: E402
from openresearch.monitor.clock import FakeClock  # noqa: E402
from openresearch.monitor.delta import timed_observations  # noqa: E402
from openresearch.monitor.models import Digest  # noqa: E402
from openresearch.monitor.runner import supersede  # noqa: E402
from openresearch.monitor.service import Monitor  # noqa: E402
from openresearch.monitor.timefacts import OWN_ROLES, plan_supersessions  # noqa: E402

CORPORA = ("tsdb-docs-corpus", "json-libs-corpus", "release-policy-corpus")
DAY = 86_400_000
T0 = 1_780_000_000_000
CLOCK_CHECKS = ("known on", "as of", "every past day")
OPTIONS = {"offline": True, "workers": 1, "budget": 4, "max_sub_questions": 2}
# every superseded pair with its lineage truth: (old obs, new obs) -> rows
PAIRS = ("MATCH (n:Observation)-[:SUPERSEDES]->(o:Observation) "
         "MATCH (o)<-[:REPORTS]-(:Evidence)-[:FROM]->(so:Source) "
         "MATCH (n)<-[:REPORTS]-(:Evidence)-[:FROM]->(sn:Source) "
         "RETURN o.id AS old, n.id AS new, coalesce(so.version_of, so.id) AS old_doc, so.url AS old_url, "
         "coalesce(sn.version_of, sn.id) AS new_doc, sn.url AS new_url, coalesce(o.role, 'own') AS old_role, "
         "coalesce(n.role, 'own') AS new_role, o.raw_value AS old_value, n.raw_value AS new_value, "
         "o.metric AS metric")


# --- documents -------------------------------------------------------------------------------------

def manifest(corpus: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (corpus / "manifest.jsonl").read_text("utf-8").splitlines() if line.strip()]


def owner(m: Mapping[str, Any]) -> str:
    return str(m.get("repo") or m["doc_id"]).split("/")[0].lower().replace("_", "-")


def url_of(m: Mapping[str, Any]) -> str:
    """One URL per document of the corpus (two kept versions of one README are two documents of one owner)."""
    return f"https://{owner(m)}.example/{m['doc_id']}"


def date_of(m: Mapping[str, Any], i: int) -> str:
    d = str(m.get("commit_date") or "")[:10]
    return d if re.fullmatch(r"\d{4}-\d{2}-\d{2}", d) else f"2024-{1 + i % 12:02d}-{1 + i % 27:02d}"


def with_header(raw: str, title: str, published: str, url: str) -> str:
    """The document with a header naming its title, date and URL (merged into its own front matter, if any)."""
    lines = [f"title: {json.dumps(title, ensure_ascii=False)}", f"published: {published}", f"url: {url}"]
    if raw.startswith("---\n"):
        end = raw.find("\n---", 4)
        if end > 0:
            own = [ln for ln in raw[4:end].splitlines()
                   if not re.match(r"(title|published|date|url):", ln)]
            return "---\n" + "\n".join(lines + own) + raw[end:]
    return "---\n" + "\n".join(lines) + "\n---\n\n" + raw


def copy_as(path: Path, to: Path, url: str, published: str, quote: str, raw: str, new: str,
            prefix: str = "") -> None:
    """A copy of a document under another publisher's URL and date, the quote's figure written `new` (and its
    line led by `prefix`)."""
    text = path.read_text("utf-8")
    line = source_line(text, quote, raw)
    assert line is not None
    text = text.replace(line, prefix + rewrite(line, quote, raw, new), 1)
    text = re.sub(r"(?m)^url: .*$", f"url: {url}", text, count=1)
    text = re.sub(r'(?m)^title: "(.*)"$', lambda m: f'title: "{m.group(1)} (as {to.stem})"', text, count=1)
    to.write_text(re.sub(r"(?m)^published: .*$", f"published: {published}", text, count=1), "utf-8")


def set_date(path: Path, published: str) -> None:
    text = path.read_text("utf-8")
    path.write_text(re.sub(r"(?m)^published: .*$", f"published: {published}", text, count=1), "utf-8")


# --- lineage truth ---------------------------------------------------------------------------------

def host_owner(url: str | None) -> str:
    m = re.match(r"https?://([^/]+)", url or "")
    return m.group(1).split(".")[0] if m else ""


def true_pair(p: Mapping[str, Any]) -> bool:
    """One lineage by the manifest (the same document, or one owner), both the sources' own figures."""
    same = p["old_doc"] == p["new_doc"] or (host_owner(p["old_url"]) and host_owner(p["old_url"]) ==
                                            host_owner(p["new_url"]))
    return bool(same) and p["old_role"] in OWN_ROLES and p["new_role"] in OWN_ROLES


def wrong_pairs(store: GraphStore) -> list[dict[str, Any]]:
    return [p for p in store.backend.read(PAIRS, {}) if not true_pair(p)]


# --- the timeline ----------------------------------------------------------------------------------

@dataclass
class Day:
    label: str
    expected: list[str] = field(default_factory=list)
    checks: list[tuple[str, bool]] = field(default_factory=list)
    missed_conflicts: int = 0
    seconds: float = 0.0


def numeric(raw: str) -> float | None:
    m = re.fullmatch(r"\d[\d,]*(?:\.\d+)?", raw.strip())
    return float(m.group(0).replace(",", "")) if m else None


def scaled(raw: str, k: float) -> str:
    v = numeric(raw)
    assert v is not None
    n = v * k
    text = f"{n:.0f}" if n == int(n) and "." not in raw else f"{n:.2f}"
    return f"{int(n):,}" if "," in raw else text


def relevance(r: Mapping[str, Any], question: str) -> int:
    """How much of a figure the topic's question names (its entity, its metric's words): a monitoring run reads
    what its question retrieves, so the scripted changes touch figures it reads."""
    q = question.lower()
    words = [w for w in re.split(r"[_\s]+", str(r["metric"]).lower()) if len(w) > 3]
    return 2 * (str(r.get("entity") or "").lower() in q) + sum(w[:6] in q for w in words)


def pick(rows: list[dict[str, Any]], files: Mapping[str, Path], avoid: set[str],
         question: str = "") -> dict[str, Any] | None:
    """An own figure of a plain sentence whose number appears once in its file, from a document not in `avoid`,
    the one the question names most first: of a metric two sources can disagree on (not a kind of number
    alone, `conflicts.GENERIC_METRICS`) and the only value of its key + condition in its document."""
    values: dict[tuple[str, str, str], set[float]] = {}
    for r in rows:
        values.setdefault((r["source_id"], r["key"], r.get("condition_key") or ""), set()).add(float(r["value"]))
    for r in sorted(rows, key=lambda r: -relevance(r, question)):
        if r["metric"] in GENERIC_METRICS or len(values[(r["source_id"], r["key"], r.get("condition_key") or "")]) > 1:
            continue
        if r.get("unit") in ("year", "date"):  # a year scaled is no year: measurements only
            continue
        raw = str(r.get("raw_value") or "")
        path = files.get(r["source_id"])
        if path is None or r["source_id"] in avoid or numeric(raw) is None or (r.get("role") or "own") != "own":
            continue
        if len(raw.replace(",", "")) < 2 or "\n" in r["quote"]:
            continue
        if r["quote"].count(raw) == 1 and source_line(path.read_text("utf-8"), r["quote"], raw) is not None:
            return r
    return None


def source_line(text: str, quote: str, raw: str) -> str | None:
    """The one line of the raw file that the (normalised) quote was read from and that holds `raw` once: the
    line holding the number that shares the most words with the quote, if no other line shares as many."""
    words = {w for w in re.findall(r"\w{3,}", quote.lower())}
    number = re.compile(rf"(?<![\d.,]){re.escape(raw)}(?![\d]|[.,]\d)")
    scored = sorted(((len(words & set(re.findall(r"\w{3,}", line.lower()))), line) for line in text.splitlines()
                     if len(number.findall(line)) == 1), reverse=True)
    if not scored or scored[0][0] < 1 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def rewrite(text: str, quote: str, raw: str, new: str) -> str:
    """`text` with the figure `raw` of the quote's line written `new`."""
    line = source_line(text, quote, raw)
    assert line is not None
    number = re.compile(rf"(?<![\d.,]){re.escape(raw)}(?![\d]|[.,]\d)")
    return text.replace(line, number.sub(new, line, count=1), 1)


def produced(d: Digest) -> list[str]:
    return [s.text for s in d.sentences]


def timeline(name: str, tmp: Path, emb: Any) -> list[Day]:
    server = EmbeddedFalkor(tmp / f"falkor-{name}")
    try:
        return _timeline(name, tmp, emb, server)
    finally:
        server.stop()


def _timeline(name: str, tmp: Path, emb: Any, server: EmbeddedFalkor) -> list[Day]:
    src = DATA / name
    corpus = tmp / name
    corpus.mkdir(parents=True)
    files: dict[str, Path] = {}
    man = manifest(src)
    for i, m in enumerate(man):
        raw = (src / "docs" / m["doc_id"]).read_text("utf-8", errors="replace")
        out = corpus / (Path(m["doc_id"]).stem + ".md")
        out.write_text(with_header(raw, str(m.get("title") or m["doc_id"]), date_of(m, i), url_of(m)), "utf-8")
    question = json.loads((src / "facts.json").read_text("utf-8"))["questions"][0]["question"]
    store = GraphStore(FalkorBackend(f"tl_{uuid.uuid4().hex[:6]}", unix_socket=str(server.ensure().socket)))
    store.init_schema()
    clock = FakeClock(T0)
    m = Monitor(offline_services(store, emb, tmp / f"data-{name}"), clock=clock, lease_ms=600_000)
    topic = m.add(question, sources=[f"local:{corpus}"], every="1d", options=OPTIONS)
    ms = MonitorStore(store)
    days: list[Day] = []
    held: dict[date, tuple[set[str], set[str]]] = {}  # what the graph held after each day: values, conflict ids

    def run(day: Day, check: Any = None) -> Digest:
        """One day: the monitoring run, its checks (`check` reads the digest: the expected line produced?), and
        what it printed against what was expected."""
        clock.advance(DAY)
        t0 = time.perf_counter()
        r = m.run_topic(topic.id)
        day.seconds = time.perf_counter() - t0
        assert r is not None
        held[datetime.fromtimestamp(clock.now / 1000, tz=UTC).date()] = (
            {str(v["id"]) for v in asof.values(store)}, {g.id for g in asof.conflicts(store)})
        wrong = wrong_pairs(store)
        if check is not None:
            day.checks.append(("expected line produced", bool(check(r.digest))))
        day.checks.append((f"wrong supersessions {len(wrong)}", not wrong))
        print(f"\n[{name}] {day.label}  ({day.seconds:.1f} s, {r.extracted} items extracted, "
              f"{r.supersessions} supersessions)")
        for e in day.expected:
            print(f"  expected: {e}")
        for s in produced(r.digest)[:12]:
            print(f"  produced: {s[:220]}")
        if len(r.digest.sentences) > 12:
            print(f"  produced: … {len(r.digest.sentences) - 12} more")
        for p in wrong[:5]:
            print(f"  WRONG supersession: {p['metric']} {p['old_value']} ({p['old_url']}) -> {p['new_value']} "
                  f"({p['new_url']})")
        for label, ok in day.checks:
            print(f"  {'ok ' if ok else 'MISS'} {label}")
        days.append(day)
        return r.digest

    d1 = run(Day("day 1: first run", ["the first digest: every source and figure is new"]))
    files = {sid: corpus / (Path(next(x["doc_id"] for x in man if url_of(x) == s.url)).stem + ".md")
             for sid, s in {s.id: s for s in d1.new_sources}.items() if any(url_of(x) == s.url for x in man)}
    rows = sorted(ms.observation_rows(), key=lambda r: (r["source_id"], r["id"]))

    # day 2: a figure edited in one document
    a = pick(rows, files, set(), question)
    day = Day("day 2: a figure edited")
    if a is not None:
        new_raw = scaled(str(a["raw_value"]), 2)
        path = files[a["source_id"]]
        path.write_text(rewrite(path.read_text("utf-8"), a["quote"], str(a["raw_value"]), new_raw), "utf-8")
        title = next(s.title or s.url for s in d1.new_sources if s.id == a["source_id"])
        day.expected.append(f"In {title}, {a['entity']} {a['metric']} went from {a['raw_value']} … to {new_raw} … "
                            f"[{a['evidence_id']}] → [E-new]")
        d = run(day, lambda d: any(
            c.old_evidence == a["evidence_id"] and new_raw in c.new_value for e in d.edited for c in e.changed))
        # the two clocks on the edit: what the graph held the day before (the old figure, its evidence) and,
        # by validity, the document's latest word on the date it gives (the new figure)
        first = min(held)
        then = asof.values(store, entity=str(a["entity"]), metric=str(a["metric"]), known_on=first)
        valid = datetime.fromtimestamp(int(a.get("as_of") or a["published_at"]) / 1000, tz=UTC).date()
        now = asof.values(store, entity=str(a["entity"]), metric=str(a["metric"]), as_of=valid)
        day.checks.append((f"known on {first}: the old figure {a['raw_value']} [{a['evidence_id']}]",
                           any(r["evidence_id"] == a["evidence_id"] for r in then)))
        day.checks.append((f"as of {valid} (the date it states): the new figure {new_raw}, not the old",
                           any(str(r["raw_value"]) == new_raw for r in now)
                           and not any(r["evidence_id"] == a["evidence_id"] for r in now)))
        for label, ok in day.checks[-2:]:
            print(f"  {'ok ' if ok else 'MISS'} {label}")
        day.checks.append((f"unchanged sentences listed as new evidence: {len(d.new_evidence)}",
                           all(e.source_id != a["source_id"] for e in d.new_evidence)))
    else:
        run(day)

    # day 3: an independent source contradicts another figure
    c = pick(rows, files, {a["source_id"]} if a else set(), question)
    day = Day("day 3: an independent source contradicts a figure")
    if c is not None:
        contra = scaled(str(c["raw_value"]), 3)
        # another publisher's copy of the document with that one figure different: read as the original is
        copy_as(files[c["source_id"]], corpus / "zz-independent-lab.md", "https://independent-lab.example/copy",
                "2030-01-01", c["quote"], str(c["raw_value"]), contra)
        day.expected.append(f"New (or changed) conflict: {c['entity']} {c['metric']}: {c['raw_value']} … vs "
                            f"{contra} …; nothing superseded")

        def found(d: Digest) -> bool:
            groups = [g for g in [*d.new_conflicts, *d.changed_conflicts] if any(contra in v for v in g.values)]
            return bool(groups) and not d.changed_values

        d = run(day, found)
        if not found(d):
            day.missed_conflicts += 1
    else:
        run(day)

    # day 4: a document deleted
    gone_doc = next((s for s in sorted({r["source_id"] for r in rows})
                     if s not in {a and a["source_id"], c and c["source_id"]} and s in files), None)
    day = Day("day 4: a document deleted")
    if gone_doc is not None:
        left = sorted({str(r["raw_value"]) for r in rows if r["source_id"] == gone_doc})
        files[gone_doc].unlink()
        day.expected.append(f"Source no longer available: {files[gone_doc].name}; the values that left with it: "
                            + ", ".join(left))
        run(day, lambda d: sorted({v.value.split()[0] for v in d.values_left}) ==
                    sorted({x.split()[0] for x in left}) and all(
                        r.get("superseded_by") not in {x["id"] for x in rows if x["source_id"] == gone_doc}
                        for r in ms.observation_rows()))
    else:
        run(day)

    # day 5: only a date changed
    # a document the topic read (its evidence answers the topic's question: its edits are the topic's news)
    dated = next((s for s in sorted({r["source_id"] for r in rows})
                  if s not in {a and a["source_id"], c and c["source_id"], gone_doc} and s in files
                  and files[s].exists()), None)
    day = Day("day 5: only a document's date changed")
    if dated is not None:
        set_date(files[dated], "2031-06-30")
        day.expected.append(f"In {files[dated].name}, the date changed from … to 2031-06-30")
        run(day, lambda d: any(e.date_changed and e.source.id == dated for e in d.edited))
    else:
        run(day)

    # day 6: an idle day
    day = Day("day 6: idle", ["Nothing changed since the last run."])
    d = run(day, lambda d: d.nothing_changed)
    print(f"  {'ok ' if day.seconds < 2 else 'MISS'} idle day in {day.seconds:.1f} s (target < 2 s)")

    # day 7: a figure only reported from someone else
    if c is not None:
        heard = scaled(str(c["raw_value"]), 5)
        copy_as(files[c["source_id"]], corpus / "zz-another-blog.md", "https://another-blog.example/copy",
                "2032-01-01", c["quote"], str(c["raw_value"]), heard, prefix="I also saw the earlier claim that ")
        day = Day("day 7: a figure only reported from someone else",
                  [f"no change and no conflict from the reported {heard}"])
        run(day, lambda d: not d.changed_values and not any(
            heard in v for g in [*d.new_conflicts, *d.changed_conflicts] for v in g.values))
    # the second clock: every past day's values and conflicts rebuilt from the graph as it is now
    t0 = time.perf_counter()
    rebuilt = [(day, {str(v["id"]) for v in asof.values(store, known_on=day)} == values,
                {g.id for g in asof.conflicts(store, known_on=day)} == groups)
               for day, (values, groups) in sorted(held.items())]
    ms_per_day = (time.perf_counter() - t0) * 1000 / max(1, len(rebuilt))
    print(f"\n[{name}] known on each past day, rebuilt now ({ms_per_day:.0f} ms per day): values "
          f"{sum(v for _, v, _ in rebuilt)}/{len(rebuilt)}, conflicts {sum(c for _, _, c in rebuilt)}/{len(rebuilt)}")
    for day, v, c in rebuilt:
        if not (v and c):
            print(f"  MISS {day}: values {'ok' if v else 'differ'}, conflicts {'ok' if c else 'differ'}")
    if days:
        days[-1].checks.append(("every past day rebuilt (known on)", all(v and c for _, v, c in rebuilt)))
    return days


# --- invalidation precision ------------------------------------------------------------------------

def records_of(corpus: Path, ex: DeterministicExtractor, tmp: Path) -> list[EvidenceRecord]:
    out: list[EvidenceRecord] = []
    for i, m in enumerate(manifest(corpus)):
        raw = (corpus / "docs" / m["doc_id"]).read_text("utf-8", errors="replace")
        path = tmp / (Path(m["doc_id"]).stem + ".md")
        path.write_text(with_header(raw, str(m.get("title") or m["doc_id"]), date_of(m, i), url_of(m)), "utf-8")
        out += doc_records(path, ex)
    return out


def doc_records(path: Path, ex: DeterministicExtractor) -> list[EvidenceRecord]:
    src = parse_local_file(path)
    rd = read_document(ex, src)
    ref = SourceRef(url=src.url, title=src.title, published_at=src.published_at, kind="docs")
    return [EvidenceRecord(source=ref, quote=u.quote, type="statistic", entities=u.entities,
                           observations=u.observations, start=u.start, end=u.end)
            for u in rd.units if u.observations]


def ramdocs_records(n: int, ex: DeterministicExtractor, tmp: Path) -> list[EvidenceRecord]:
    out: list[EvidenceRecord] = []
    lines = (DATA / "ramdocs-dev" / "RAMDocs_dev.jsonl").read_text("utf-8").splitlines()[:n]
    for i, line in enumerate(lines):
        for j, doc in enumerate(json.loads(line)["documents"]):
            path = tmp / f"ramdocs-{i}-{j}.md"
            path.write_text(with_header(doc["text"], f"RAMDocs {i}.{j}", f"2024-{1 + j % 12:02d}-01",
                                        f"https://ramdocs-q{i}-p{j}.example/passage"), "utf-8")
            out += doc_records(path, ex)
    return out


def precision(tmp: Path, names: Iterable[str], ramdocs: int) -> None:
    server = EmbeddedFalkor(tmp / "falkor-precision")
    try:
        _precision(tmp, names, ramdocs, server)
    finally:
        server.stop()


def _precision(tmp: Path, names: Iterable[str], ramdocs: int, server: EmbeddedFalkor) -> None:
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver.load())
    print("\nInvalidation precision (every document read whole, then the supersession pass)")
    sets: list[tuple[str, list[EvidenceRecord]]] = []
    for name in names:
        if (DATA / name / "manifest.jsonl").exists():
            (tmp / f"p-{name}").mkdir()
            sets.append((name, records_of(DATA / name, ex, tmp / f"p-{name}")))
    if ramdocs and (DATA / "ramdocs-dev" / "RAMDocs_dev.jsonl").exists():
        (tmp / "p-ramdocs").mkdir()
        sets.append((f"ramdocs-dev (first {ramdocs} questions)", ramdocs_records(ramdocs, ex, tmp / "p-ramdocs")))
    for name, recs in sets:
        store = GraphStore(FalkorBackend(f"pr_{uuid.uuid4().hex[:6]}", unix_socket=str(server.ensure().socket)))
        store.init_schema()
        store.write_evidence(recs)
        ms = MonitorStore(store)
        rows = ms.observation_rows()
        supersede(ms, T0)
        pairs = store.backend.read(PAIRS, {})
        wrong = [p for p in pairs if not true_pair(p)]
        share = 1.0 if not pairs else (len(pairs) - len(wrong)) / len(pairs)
        # the date-only rule over the same observations: one lineage for everything
        info = {r["id"]: r for r in rows}
        dated = [replace(o, lineage="") for o in timed_observations(rows)]
        before = plan_supersessions(dated)
        before_true = sum(1 for s in before if true_pair({
            "old_doc": info[s.old]["source_id"], "new_doc": info[s.new]["source_id"], "old_url": info[s.old]["url"],
            "new_url": info[s.new]["url"], "old_role": info[s.old].get("role") or "own",
            "new_role": info[s.new].get("role") or "own"}))
        base = 1.0 if not before else before_true / len(before)
        print(f"  {name}: {len(recs)} evidence items, {len(rows)} own observations; superseded pairs {len(pairs)}, "
              f"true {len(pairs) - len(wrong)}: precision {share:.1%}  (date-only rule: {len(before)} pairs, "
              f"{before_true} true, {base:.1%})")
        for p in wrong[:10]:
            print(f"    not a lineage: {p['metric']} {p['old_value']} ({p['old_url']}) -> {p['new_value']} "
                  f"({p['new_url']})")
        store.backend.clear()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", action="append", help="one of " + ", ".join(CORPORA) + " (default: all)")
    ap.add_argument("--ramdocs", type=int, default=40, help="RAMDocs dev questions for the precision figure")
    ap.add_argument("--skip-timeline", action="store_true")
    ap.add_argument("--skip-precision", action="store_true")
    args = ap.parse_args()
    if not DATA.exists():
        print(f"no evaluation data at {DATA} (set OPENRESEARCH_BENCH_DATA): nothing to measure")
        return
    names = [n for n in (args.corpus or CORPORA) if (DATA / n / "manifest.jsonl").exists()]
    print(f"data: {DATA} ({', '.join(names) or 'no corpus found'})")
    with tempfile.TemporaryDirectory() as t:
        tmp = Path(t)
        if not args.skip_timeline and names:
            emb = SentenceTransformerEmbedder(cache_dir=tmp / "emb")
            summary = []
            for name in names:
                days = timeline(name, tmp, emb)
                missed = sum(1 for d in days for label, ok in d.checks if not ok and label == "expected line produced")
                wrong = max((int(label.split()[-1]) for d in days for label, _ in d.checks
                             if label.startswith("wrong supersessions")), default=0)
                clocks = sum(1 for d in days for label, ok in d.checks if not ok and label.startswith(CLOCK_CHECKS))
                summary.append((name, len(days), missed, wrong, sum(d.missed_conflicts for d in days), clocks))
            print("\ncorpus: days, expected lines missed, wrong supersessions (max over days), missed conflicts, "
                  "clock checks missed (as of / known on)")
            for row in summary:
                print("  " + ", ".join(str(x) for x in row))
        if not args.skip_precision:
            precision(tmp, names, args.ramdocs)


if __name__ == "__main__":
    main()
