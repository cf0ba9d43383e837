"""Check examples/evidence.jsonl against the example corpus.

For every evidence line this verifies that
  * the quote is a verbatim substring of the corpus document whose canonical
    identifier equals source.url (Markdown/text: raw file text; HTML: raw
    markup decoded with the page's declared charset, and also the tag-stripped
    text; PDF: pdfminer text with whitespace collapsed, because PDF extraction
    re-wraps lines);
  * source.published_at equals the document's publication date;
  * observation entities appear in the item's entity list.
It then prints the conflicts (same canonical entity + metric + condition,
different source, values differing by more than 5%) and the same-metric
pairs under different conditions.

    python examples/check_evidence.py
"""

from __future__ import annotations

import html
import itertools
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
EVIDENCE = HERE / "evidence.jsonl"

ALIASES = {
    "kafka": "Apache Kafka", "apache kafka": "Apache Kafka",
    "rabbitmq": "RabbitMQ", "rabbit mq": "RabbitMQ",
    "pulsar": "Apache Pulsar", "apache pulsar": "Apache Pulsar",
    "nats": "NATS", "nats jetstream": "NATS JetStream", "jetstream": "NATS JetStream",
    "redis streams": "Redis Streams", "redis": "Redis Streams",
    "amazon msk": "Amazon MSK", "msk": "Amazon MSK",
    "amazon sqs": "Amazon SQS", "aws sqs": "Amazon SQS", "sqs": "Amazon SQS",
    "google cloud pub/sub": "Google Cloud Pub/Sub", "pub/sub": "Google Cloud Pub/Sub",
}

SUFFIX = {"k": 1e3, "m": 1e6, "万": 1e4, "亿": 1e8}


def ws(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def num(v: object) -> float:
    if isinstance(v, (int, float)):
        return float(v)
    s = str(v).replace(",", "").strip()
    m = re.fullmatch(r"([0-9.]+)\s*([kKmM万亿]?)", s)
    if not m:
        raise ValueError(f"cannot parse value {v!r}")
    return float(m.group(1)) * SUFFIX.get(m.group(2).lower() if m.group(2) else "", 1.0)


def load_doc(path: Path) -> dict[str, object]:
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        from pdfminer.high_level import extract_text

        text = extract_text(str(path))
        url = re.search(r"https://\S+", text).group(0)  # type: ignore[union-attr]
        date = re.search(r"Published (\d{4}-\d{2}-\d{2})", text).group(1)  # type: ignore[union-attr]
        return {"url": url, "date": date, "texts": [ws(text)], "pdf": True}
    raw = path.read_bytes()
    if suffix == ".html":
        head = raw[:2048].decode("ascii", "ignore")
        cs = re.search(r"charset=[\"']?([\w-]+)", head)
        text = raw.decode(cs.group(1) if cs else "utf-8")
        url = re.search(r'<link rel="canonical" href="([^"]+)"', text).group(1)  # type: ignore[union-attr]
        date = re.search(r'article:published_time" content="(\d{4}-\d{2}-\d{2})', text).group(1)  # type: ignore[union-attr]
        stripped = html.unescape(re.sub(r"<[^>]+>", " ", text))
        return {"url": url, "date": date, "texts": [text, ws(stripped)], "pdf": False}
    text = raw.decode("utf-8")
    url = re.search(r"^(?:url|URL): *(\S+)", text, re.M).group(1)  # type: ignore[union-attr]
    date = re.search(r"^(?:published|Date): *(\d{4}-\d{2}-\d{2})", text, re.M).group(1)  # type: ignore[union-attr]
    return {"url": url, "date": date, "texts": [text], "pdf": False}


def main() -> int:
    docs = {}
    for p in sorted(CORPUS.iterdir()):
        if p.name == "SOURCES.md" or p.suffix.lower() not in {".md", ".txt", ".html", ".pdf"}:
            continue
        d = load_doc(p)
        d["file"] = p.name
        if d["url"] in docs:
            print(f"DUPLICATE URL {d['url']}")
        docs[d["url"]] = d
    errors = 0
    obs = []
    items = [json.loads(line) for line in EVIDENCE.read_text(encoding="utf-8").splitlines() if line.strip()]
    for i, it in enumerate(items, 1):
        src = it["source"]
        d = docs.get(src["url"])
        if d is None:
            print(f"[{i}] unknown source url {src['url']}")
            errors += 1
            continue
        q = it["quote"]
        hit = any(q in t for t in d["texts"][:1]) if not d["pdf"] else False
        if not hit:
            hit = any(ws(q) in t for t in d["texts"])
            if hit and not d["pdf"]:
                print(f"[{i}] only matches after whitespace/tag normalisation: {d['file']}")
        if not hit:
            print(f"[{i}] QUOTE NOT FOUND in {d['file']}: {q[:80]!r}")
            errors += 1
        if src["published_at"] != d["date"]:
            print(f"[{i}] date mismatch {src['published_at']} != {d['date']} ({d['file']})")
            errors += 1
        ents = {e.lower() for e in it["entities"]}
        for o in it.get("observations", []):
            if o["entity"].lower() not in ents:
                print(f"[{i}] observation entity {o['entity']!r} not in entities")
                errors += 1
            obs.append((i, d["file"], ALIASES.get(o["entity"].lower(), o["entity"]), o))
    print(f"{len(items)} evidence items, {len(docs)} corpus documents, {errors} errors")

    groups: dict[tuple[str, str], list] = {}
    for rec in obs:
        groups.setdefault((rec[2], rec[3]["metric"]), []).append(rec)
    print("\nCONFLICTS (same entity+metric+condition+unit, different files, >5% apart):")
    same_cond_agree = []
    for (ent, metric), recs in sorted(groups.items()):
        for a, b in itertools.combinations(recs, 2):
            if a[1] == b[1]:
                continue
            oa, ob = a[3], b[3]
            va, vb = num(oa["value"]), num(ob["value"])
            if oa["condition"] == ob["condition"] and oa["unit"] == ob["unit"]:
                diff = abs(va - vb) / max(va, vb)
                line = (f"  {ent} {metric}: {oa['value']} {oa['unit']} [{a[1]}]"
                        f" vs {ob['value']} {ob['unit']} [{b[1]}] | {oa['condition']}")
                if diff > 0.05:
                    print(line + f"  ({diff:.0%})")
                else:
                    same_cond_agree.append(line + f"  ({diff:.1%})")
    print("\nAGREEMENTS (same condition, within 5%):")
    print("\n".join(same_cond_agree) or "  none")
    print("\nNON-CONFLICTS (same entity+metric, different condition):")
    for (ent, metric), recs in sorted(groups.items()):
        for a, b in itertools.combinations(recs, 2):
            if a[3]["condition"] != b[3]["condition"] and a[3]["value"] != b[3]["value"]:
                print(f"  {ent} {metric}: {a[3]['value']} {a[3]['unit']} ({a[3]['condition']}) [{a[1]}]"
                      f" vs {b[3]['value']} {b[3]['unit']} ({b[3]['condition']}) [{b[1]}]")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
