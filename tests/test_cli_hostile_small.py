"""Smaller hostile cases through the real CLI (typer's CliRunner, the embedded FalkorDB in a temp data dir):
read commands on a graph nothing was ever written to, and verify-claims on NaN and broken encodings."""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from openresearch.cli import app
from openresearch.config import get_settings

pytestmark = pytest.mark.integration


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    from openresearch.graph.falkor_server import EmbeddedFalkor

    data = tmp_path / "data"
    monkeypatch.setenv("OPENRESEARCH_DATA_DIR", str(data))
    monkeypatch.delenv("OPENRESEARCH_GRAPH_URL", raising=False)
    monkeypatch.delenv("OPENRESEARCH_LLM_BASE_URL", raising=False)
    get_settings.cache_clear()
    try:
        yield data
    finally:
        get_settings.cache_clear()
        EmbeddedFalkor(data).stop()


@pytest.mark.parametrize("args", [["graph", "stats", "--json"], ["evidence", "export"], ["conflicts", "--json"],
                                  ["compare", "Kafka", "Pulsar", "--json"], ["runs", "list"]])
def test_read_commands_on_a_graph_never_initialised(data_dir: Path, args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "empty key" not in result.output and result.exception is None
    if args[:2] == ["graph", "stats"]:
        assert json.loads(result.stdout) == {"nodes": {}, "relations": {}}


def test_verify_claims_never_writes_nan_and_reads_any_encoding(data_dir: Path, tmp_path: Path) -> None:
    good = {"claim": "Kafka sustained 605 MB/s on three brokers.",
            "evidence": "In the benchmark, Kafka sustained 605 MB/s on three brokers."}
    lines = [json.dumps(good).encode(),
             b'{"claim": "c", "evidence": "e", "weight": NaN}',             # 2: NaN is not JSON
             b'{"claim": "c", "evidence": "e", "n": Infinity}',            # 3
             b'{"claim": "Kafka \xff\xfe", "evidence": "x"}',              # 4: invalid UTF-8
             b"[" * 50_000 + b"]" * 50_000,                                # 5: deep nesting
             b'{"claim": "c", "evidence": "e", "n": ' + b"7" * 5000 + b"}"]  # 6: a 5,000-digit number
    src, out = tmp_path / "claims.jsonl", tmp_path / "labels.jsonl"
    src.write_bytes(codecs.BOM_UTF8 + b"\n".join(lines) + b"\n")
    result = CliRunner().invoke(app, ["verify-claims", str(src), "--out", str(out), "--offline", "--json"])
    assert (result.exit_code == 2 and result.exception is None) or isinstance(result.exception, SystemExit)
    report = json.loads(result.stdout)
    assert report["judged"] == 1 and [e.split(":")[0] for e in report["errors"]] == [
        "line 2", "line 3", "line 4", "line 5", "line 6"]
    text = out.read_text(encoding="utf-8")
    assert "NaN" not in text and "Infinity" not in text
    row = json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in output"))
    assert row["label"] == "SUPPORTS"

    utf16 = tmp_path / "claims16.jsonl"
    utf16.write_bytes(codecs.BOM_UTF16_LE + (json.dumps(good) + "\n").encode("utf-16-le"))
    result = CliRunner().invoke(app, ["verify-claims", str(utf16), "--offline", "--json"])
    assert result.exit_code == 0, result.output
