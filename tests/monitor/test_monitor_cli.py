"""`openresearch monitor …` as a user runs it (subprocesses) against the embedded FalkorDB: help with an example
for every command, add/list/show/pause/resume/remove, as-of reads, one clear line for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]
COMMANDS = ("add", "list", "show", "pause", "resume", "remove", "run", "worker", "values", "conflicts")


def run(args: list[str], env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "openresearch.cli", *args], env=env, text=True,
                          capture_output=True, timeout=300, cwd=REPO)
    if check and proc.returncode != 0:
        raise AssertionError(f"{args} exited {proc.returncode}\nstdout:{proc.stdout}\nstderr:{proc.stderr}")
    return proc


@pytest.fixture
def env(tmp_path: Path) -> Iterator[dict[str, str]]:
    e = {**os.environ, "OPENRESEARCH_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "200"}
    e.pop("OPENRESEARCH_GRAPH_URL", None)
    yield e
    run(["graph", "stop"], e, check=False)


def test_every_monitor_command_has_help_with_an_example(env: dict[str, str]) -> None:
    for cmd in COMMANDS:
        assert "Example: openresearch monitor" in run(["monitor", cmd, "--help"], env).stdout, cmd


def test_topic_commands(env: dict[str, str]) -> None:
    added = json.loads(run(["monitor", "add", "Kafka share groups", "--source", "web", "--every", "0 6 * * *",
                            "--entity", "Kafka", "--json"], env).stdout)
    tid = added["id"]
    assert added["schedule"] == "0 6 * * *" and added["entities"] == ["Kafka"]
    listed = json.loads(run(["monitor", "list", "--json"], env).stdout)
    assert [t["id"] for t in listed] == [tid]
    run(["monitor", "pause", tid], env)
    shown = json.loads(run(["monitor", "show", tid, "--json"], env).stdout)
    assert shown["topic"]["status"] == "paused" and shown["digests"] == []
    run(["monitor", "resume", tid], env)
    assert json.loads(run(["monitor", "values", "--entity", "Kafka", "--as-of", "2026-01-01", "--json"],
                          env).stdout) == []
    assert json.loads(run(["monitor", "conflicts", "--json"], env).stdout) == []
    bad = run(["monitor", "add", "x", "--every", "sometimes"], env, check=False)
    assert bad.returncode == 1 and bad.stderr.strip().startswith("error:") and "sometimes" in bad.stderr
    run(["monitor", "remove", tid], env)
    missing = run(["monitor", "show", tid], env, check=False)
    assert missing.returncode == 1 and tid in missing.stderr
