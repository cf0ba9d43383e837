"""The command line, run as a user runs it (subprocesses) against the embedded FalkorDB and real Neo4j."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "evidence.jsonl"

GOOD = {
    "source": {"url": "https://bench.example/kafka", "title": "Kafka bench", "published_at": "2024-03-01"},
    "quote": "Kafka sustained 605 MB/s on three brokers.", "type": "statistic", "entities": ["Kafka"],
    "observations": [{"entity": "Kafka", "metric": "throughput", "value": 605, "unit": "MB/s",
                      "condition": "3 brokers"}],
    "question": "Which broker is fastest?",
}


def run(args: list[str], env: dict[str, str], check: bool = True, stdin: str | None = None
        ) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "openresearch.cli", *args], env=env, text=True,
                          capture_output=True, timeout=300, input=stdin, cwd=REPO)
    if check and proc.returncode != 0:
        raise AssertionError(f"{args} exited {proc.returncode}\nstdout:{proc.stdout}\nstderr:{proc.stderr}")
    return proc


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    e = {**os.environ, "OPENRESEARCH_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "200"}
    e.pop("OPENRESEARCH_GRAPH_URL", None)
    yield e
    run(["graph", "stop"], e, check=False)


def stats(env: dict[str, str], graph: list[str] | None = None) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = json.loads(run(["graph", "stats", "--json", *(graph or [])], env).stdout)
    return out


def test_import_example_twice_changes_nothing_and_queries_work(env: dict[str, str]) -> None:
    run(["graph", "init"], env)
    first = json.loads(run(["evidence", "import", str(EXAMPLE), "--json"], env).stdout)
    assert first["imported"] == first["lines"] > 0 and first["errors"] == []
    before = stats(env)
    run(["evidence", "import", str(EXAMPLE)], env)
    assert stats(env) == before
    conflicts = json.loads(run(["conflicts", "--json"], env).stdout)
    assert conflicts, "the example evidence carries deliberate conflicts"
    one = conflicts[0]  # a group: every value with its evidence, best supported first
    assert len(one["values"]) >= 2 and one["credibility"]
    assert set(one["values"][0]["source_ids"]) != set(one["values"][1]["source_ids"])
    comp = json.loads(run(["compare", "Kafka", "RabbitMQ", "--json"], env).stdout)
    assert comp["entities"][:2] == ["Apache Kafka", "RabbitMQ"]
    eid = one["values"][0]["evidence_ids"][0]
    shown = json.loads(run(["evidence", "show", eid, "--json"], env).stdout)
    assert shown["evidence"]["id"] == eid and shown["evidence"]["quote"] == one["values"][0]["quotes"][0]
    text = run(["evidence", "show", eid], env).stdout
    assert eid in text and "quote" in text


def test_export_then_import_into_a_fresh_graph_is_identical(env: dict[str, str], tmp_path: Path) -> None:
    run(["evidence", "import", str(EXAMPLE)], env)
    before = stats(env)
    out = tmp_path / "export.jsonl"
    run(["evidence", "export", str(out)], env)
    fresh = {**env, "OPENRESEARCH_DATA_DIR": str(tmp_path / "fresh")}
    try:
        run(["evidence", "import", str(out)], fresh)
        assert stats(fresh) == before
    finally:
        run(["graph", "stop"], fresh, check=False)


def test_malformed_lines_are_reported_with_line_numbers_and_skipped(env: dict[str, str],
                                                                   tmp_path: Path) -> None:
    bad_number = {**GOOD, "quote": "other", "observations": [{"entity": "K", "metric": "m", "value": "lots"}]}
    lines = [json.dumps(GOOD), "{not json", json.dumps({"quote": "no source"}), "",
             json.dumps(bad_number), json.dumps({**GOOD, "quote": "Kafka is a log."})]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    strict = run(["evidence", "import", str(path), "--strict", "--json"], env, check=False)
    assert strict.returncode == 2
    assert json.loads(strict.stdout)["imported"] == 0
    assert stats(env)["nodes"] == {}
    proc = run(["evidence", "import", str(path)], env, check=False)
    assert proc.returncode == 2
    assert "line 2: invalid JSON" in proc.stderr
    assert "line 3: source: Field required" in proc.stderr
    assert "line 5: observations" in proc.stderr and "lots" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert stats(env)["nodes"]["Evidence"] == 2  # lines 1 and 6; nothing of the bad lines


def test_wrong_graph_url_gives_one_clear_line(env: dict[str, str]) -> None:
    for url, words in (("bolt://127.0.0.1:1", "cannot reach Neo4j"),
                       ("falkordb://127.0.0.1:1", "cannot reach FalkorDB"),
                       ("ftp://x", "unsupported graph URL")):
        proc = run(["graph", "stats", "--graph", url], env, check=False)
        assert proc.returncode == 1
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], proc.stderr


def test_sigkill_of_the_embedded_server_loses_no_imported_row(env: dict[str, str]) -> None:
    run(["evidence", "import", str(EXAMPLE)], env)
    before = stats(env)
    status = json.loads(run(["graph", "status", "--json"], env).stdout)
    assert status["running"]
    os.kill(status["pid"], signal.SIGKILL)
    after = stats(env)  # the next command finds the dead server, cleans up and starts a new one
    assert after == before
    assert json.loads(run(["graph", "status", "--json"], env).stdout)["pid"] != status["pid"]


def test_cli_against_neo4j(env: dict[str, str], neo4j_url: str) -> None:
    from openresearch.graph.neo4j_backend import Neo4jBackend

    Neo4jBackend(neo4j_url).clear()
    g = ["--graph", neo4j_url]
    run(["graph", "init", *g], env)
    run(["evidence", "import", str(EXAMPLE), *g], env)
    before = stats(env, g)
    run(["evidence", "import", str(EXAMPLE), *g], env)
    assert stats(env, g) == before
    assert json.loads(run(["conflicts", "--json", *g], env).stdout)


def test_every_command_has_help_with_an_example(env: dict[str, str]) -> None:
    commands = [["graph", c] for c in ("init", "stats", "serve", "status", "stop")] + [
        ["evidence", c] for c in ("import", "export", "show")] + [["conflicts"], ["compare"]] + [
        ["neo4j", c] for c in ("start", "status", "stop")]
    readme = (REPO / "README.md").read_text("utf-8")
    for cmd in commands:
        out = run([*cmd, "--help"], env).stdout
        assert "Example: openresearch" in out, cmd
        assert "openresearch " + " ".join(cmd) in readme or " ".join(cmd) in readme, cmd


def test_a_nul_character_is_a_malformed_line_not_a_failed_batch(env: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "nul.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "quote": "bad\u0000quote"}) + "\n", encoding="utf-8")
    proc = run(["evidence", "import", str(path)], env, check=False)
    assert proc.returncode == 2
    assert "line 2: a string holds a NUL character" in proc.stderr
    assert stats(env)["nodes"]["Evidence"] == 1
