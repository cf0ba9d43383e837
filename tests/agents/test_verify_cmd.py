"""`verify-claims` through typer's CliRunner, with the real offline embedding judge."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from openresearch.commands.verify_cmd import parse_lines, verify_claims
from openresearch.config import get_settings

LINES = [
    json.dumps({"claim": "Kafka sustained 605 MB/s on three brokers.", "id": 1,
                "evidence": "In the benchmark, Kafka sustained 605 MB/s on three brokers."}),
    "{not json",
    json.dumps({"claim": "Kafka sustained 420 MB/s on three brokers.",
                "evidence": ["In the benchmark, Kafka sustained 605 MB/s", "on three brokers."]}),
    "",
    json.dumps({"claim": "", "evidence": "x"}),
    json.dumps(["a", "list"]),
    json.dumps({"claim": "c", "evidence": 3}),
]


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[typer.Typer]:
    monkeypatch.setenv("OPENRESEARCH_DATA_DIR", str(tmp_path / "data"))  # embedding cache under tmp
    monkeypatch.delenv("OPENRESEARCH_LLM_BASE_URL", raising=False)
    get_settings.cache_clear()
    cli = typer.Typer()
    cli.command("verify-claims")(verify_claims)
    cli.command("noop")(lambda: None)  # two commands: typer keeps "verify-claims" as a subcommand
    yield cli
    get_settings.cache_clear()


def test_parse_lines_reports_malformed_by_number() -> None:
    rows, errors, n = parse_lines(LINES)
    assert n == 7 and [r[0] for r in rows] == [1, 3]
    assert rows[1][3] == "In the benchmark, Kafka sustained 605 MB/s on three brokers."
    assert [e.split(":")[0] for e in errors] == ["line 2", "line 5", "line 6", "line 7"]


def test_verify_claims_file_to_out(app: typer.Typer, tmp_path: Path) -> None:
    src, out = tmp_path / "claims.jsonl", tmp_path / "labels.jsonl"
    src.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify-claims", str(src), "--out", str(out), "--offline", "--json"])
    assert result.exit_code == 2, result.output  # malformed lines were skipped
    report = json.loads(result.stdout)
    assert report["judged"] == 2 and report["malformed"] == 4 and report["judge"] == "embedding"
    assert report["errors"][0].startswith("line 2: not JSON")
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["label"] for r in rows] == ["SUPPORTS", "REFUTES"]
    assert rows[0]["id"] == 1 and 0.0 <= rows[0]["score"] <= 1.0  # input fields kept


def test_verify_claims_stdout_and_help(app: typer.Typer, tmp_path: Path) -> None:
    src = tmp_path / "ok.jsonl"
    src.write_text(LINES[0] + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify-claims", str(src), "--offline"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.strip())["label"] == "SUPPORTS"
    helped = CliRunner().invoke(app, ["verify-claims", "--help"])
    assert "Example: openresearch verify-claims claims.jsonl" in helped.stdout


def test_an_unmeasured_llm_leaves_judging_to_the_offline_judge_and_says_why(
        app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENRESEARCH_LLM_BASE_URL", "http://127.0.0.1:9/v1")  # a closed port: never asked
    monkeypatch.setenv("OPENRESEARCH_LLM_MODEL", "small.gguf")
    get_settings.cache_clear()
    src, out = tmp_path / "ok.jsonl", tmp_path / "labels.jsonl"
    src.write_text(LINES[0] + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["verify-claims", str(src), "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["judge"] == "embedding"
    assert "claim judge: offline judge (llm_judge=auto: no judge measurement for small.gguf" in result.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["label"] == "SUPPORTS"
