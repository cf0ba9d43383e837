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
COMMANDS = ("add", "list", "show", "pause", "resume", "remove", "run", "worker", "values", "conflicts", "unlock")


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


def one_line_error(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 1 and lines[-1].startswith("error: ") and "Traceback" not in proc.stderr, proc.stderr
    assert all(w in lines[-1] for w in words), proc.stderr


def test_add_validates_and_run_due_fails_in_one_line(env: dict[str, str], tmp_path: Path) -> None:
    one_line_error(run(["monitor", "add", "Quorbit", "-s", f"local:{tmp_path / 'nowhere'}"], env, check=False),
                   "no such file or folder")
    hook = "http://127.0.0.1:9/hook"
    one_line_error(run(["monitor", "add", "Quorbit", "--webhook", hook], env, check=False),
                   "OPENRESEARCH_WEBHOOK_ALLOW_HOSTS")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# Quorbit\n\nQuorbit reaches 42,000 rows per second.\n", encoding="utf-8")
    allowed = {**env, "OPENRESEARCH_WEBHOOK_ALLOW_HOSTS": "127.0.0.1"}
    added = json.loads(run(["monitor", "add", "Quorbit speed", "-s", f"local:{folder}", "--offline", "--webhook",
                            hook, "--now", "2026-02-01", "--json"], allowed).stdout)
    assert added["webhook_secret"].startswith("whsec_")  # shown once: `show` and `list` never print it
    (folder / "a.md").unlink()
    folder.rmdir()
    one_line_error(run(["monitor", "run", "--due", "--now", "2026-02-01T06:00"], allowed, check=False), added["id"])
