"""Mutation fuzzing of every input path with a fixed seed and a fixed budget: the evidence line parser, the
JSONL decoder, verify-claims' line parser, URL parsing, the number parser and the local file readers.

Each case is a valid input with random damage (byte flips, cuts, splices of hostile tokens). The only
acceptable outcomes are a result or the path's own domain error (one line, naming the line or file); any
other exception is a finding. (Hypothesis is not a dependency; a seeded generator keeps the runs
reproducible and the budget fixed.)
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

import pytest

from openresearch.commands.verify_cmd import parse_lines
from openresearch.errors import FetchRefused, InputError, OpenResearchError, ParseError
from openresearch.ingest.documents import Limits, parse_file
from openresearch.ingest.evidence_io import decoded_lines, parse_line
from openresearch.ingest.safety import parse_url
from openresearch.numbers import parse_quantity

SEED = 12
CASES = 1500
TOKENS = [b"NaN", b"Infinity", b"-0", b"1e400", b"9" * 400, b"true", b"null", b"[" * 300, b"{" * 300, b"\x00",
          b"\xff\xfe", b"\xef\xbb\xbf", b"\\u0000", b"\\ud800", b'"', b"\\", b"\n", b"\r", b"%PDF-1.7", b"stream\n",
          b"0177.0.0.1", b"\xe2\x91\xa0", b"[::1", b":99999", b"%00", b"..", "北京".encode()]
GOOD_LINE = json.dumps({"source": {"url": "https://fuzz.example/a", "title": "T"}, "quote": "Kafka did 605 MB/s.",
                        "start": 3, "end": 22, "entities": ["Kafka"], "question": "How fast?",
                        "observations": [{"entity": "Kafka", "metric": "throughput", "value": 605, "unit": "MB/s",
                                          "condition": "3 brokers"}]}).encode()


def _mutate(rnd: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rnd.randrange(1, 4)):
        op = rnd.randrange(4)
        pos = rnd.randrange(len(out) + 1)
        if op == 0 and out:
            out[min(pos, len(out) - 1)] = rnd.randrange(256)
        elif op == 1:
            del out[pos:pos + rnd.randrange(1, 20)]
        else:
            out[pos:pos] = rnd.choice(TOKENS)
    return bytes(out)


def test_evidence_lines_and_decoder() -> None:
    rnd = random.Random(SEED)
    for i in range(CASES):
        blob = _mutate(rnd, GOOD_LINE) + b"\n" + _mutate(rnd, GOOD_LINE)
        for lineno, line in enumerate(decoded_lines(io.BytesIO(blob)), start=1):
            error = getattr(line, "error", None)
            if error is not None:
                assert error.startswith(f"line {lineno}: "), (i, blob)
                continue
            try:
                parse_line(line, lineno)
            except InputError as e:
                assert str(e).startswith(f"line {lineno}: ") and "\n" not in str(e), (i, blob)


def test_verify_claims_lines() -> None:
    rnd = random.Random(SEED + 1)
    good = json.dumps({"claim": "Kafka did 605 MB/s.", "evidence": ["It did 605 MB/s", "on 3 brokers."]}).encode()
    for _ in range(CASES):
        lines = list(decoded_lines(io.BytesIO(_mutate(rnd, good) + b"\n" + good)))
        rows, errors, _n = parse_lines(lines)
        assert all(e.startswith("line ") for e in errors)
        for _, row, claim, evidence in rows:
            json.dumps(row, allow_nan=False)  # what verify-claims writes back must be JSON
            assert claim and evidence


def test_urls() -> None:
    rnd = random.Random(SEED + 2)
    for _ in range(CASES):
        url = _mutate(rnd, b"https://docs.example.org:8443/a/b?q=1#frag").decode("utf-8", "replace")
        try:
            parse_url(url)
        except FetchRefused as e:
            assert "\n" not in str(e)[:300]


def test_number_parser() -> None:
    rnd = random.Random(SEED + 3)
    units = [None, "MB/s", "GB", "ms", "%", "USD", "万", "TB/day", ""]
    for _ in range(CASES):
        raw = _mutate(rnd, rnd.choice([b"1.2M", b"605", b"12\xe4\xb8\x87", b"60%", b"1,234.5", b"3e5"]))
        # a domain error is what the importers turn into a line error; anything else is a finding
        with contextlib.suppress(OpenResearchError, ValueError, OverflowError):
            parse_quantity(raw.decode("utf-8", "replace"), rnd.choice(units))


@pytest.mark.parametrize("suffix", [".md", ".html", ".txt", ".pdf"])
def test_local_file_readers(tmp_path: Path, suffix: str) -> None:
    rnd = random.Random(SEED + 4)
    seeds = {".md": b"---\ntitle: T\nurl: https://x.example\n---\n# Head\n\nKafka did 605 MB/s.\n",
             ".txt": "Title: T\nurl: https://x.example\n\nKafka did 605 MB/s, 北京.\n".encode(),
             ".html": b"<html><head><title>T</title><link rel='canonical' href='https://x.example/p'></head>"
                      b"<body><article><p>Kafka did 605 MB/s on three brokers in the test.</p></article></body></html>",
             ".pdf": b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages "
                     b"/Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R /Info << /Title (T) >> >>\n%%EOF\n"}
    path = tmp_path / f"f{suffix}"
    limits = Limits(max_chars=10_000, max_pdf_inflated_bytes=1_000_000, max_pdf_page_inflated_bytes=500_000)
    for _ in range(CASES // 10):
        path.write_bytes(_mutate(rnd, seeds[suffix]))
        try:
            doc = parse_file(path, limits=limits, warnings=[])
        except ParseError as e:
            assert str(e).startswith(str(path)), str(e)
        else:
            assert doc.id.startswith("S-") and doc.text.strip()
