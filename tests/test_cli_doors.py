"""The CLI's doors through the real `openresearch` entry point (`cli.main`, in process; a subprocess for the
start-up setting): `monitor add`, `research` and `research --resume` refuse unknown sources, an empty question,
a bad interval and an SSRF webhook with one line and a non-zero exit; a local path the user names is theirs to
read (resolved), and a bad setting is one line too."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from doors_support import METADATA_HOOK, QUESTION, Rooms, run_cli

from openresearch.agents.run.run_config import RunOptions
from openresearch.agents.run.state import RunState
from openresearch.config import get_settings
from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def graph(falkor_socket: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[GraphStore, dict[str, str]]]:
    """A graph of its own on the session's FalkorDB, and the environment that points the CLI at it."""
    from openresearch.graph.falkor import FalkorBackend

    name = f"cli_{uuid.uuid4().hex[:10]}"
    store = GraphStore(FalkorBackend(name, unix_socket=falkor_socket))
    store.init_schema()
    env = {**os.environ, "OPENRESEARCH_GRAPH_URL": f"unix://{falkor_socket}", "OPENRESEARCH_GRAPH_NAME": name,
           "OPENRESEARCH_LLM_BASE_URL": "", "HF_HUB_OFFLINE": "1"}
    env.pop("OPENRESEARCH_API_LOCAL_ROOTS", None)
    monkeypatch.delenv("OPENRESEARCH_API_LOCAL_ROOTS", raising=False)
    get_settings.cache_clear()
    try:
        yield store, env
    finally:
        get_settings.cache_clear()
        store.close()


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> Callable[..., Ran]:
    """`openresearch ARGS` through `cli.main` with `env`, as the installed command runs it."""

    def run(env: dict[str, str], *args: str) -> Ran:
        for k in ("OPENRESEARCH_GRAPH_URL", "OPENRESEARCH_GRAPH_NAME", "OPENRESEARCH_LLM_BASE_URL"):
            monkeypatch.setenv(k, env[k])
        return Ran(*run_cli(monkeypatch, capfd, *args))

    return run


def one_line_refusal(r: Ran | subprocess.CompletedProcess[str]) -> str:
    assert r.returncode != 0, r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0]


def test_monitor_add_door(graph: tuple[GraphStore, dict[str, str]], cli: Callable[..., Ran], tmp_path: Path) -> None:
    _, env = graph
    rooms = Rooms.make(tmp_path)
    for args in (["-s", "ftp://x"], ["--webhook", METADATA_HOOK], ["--webhook", "not a url"],
                 ["--webhook", "file:///etc/passwd"], ["--every", "1000000d"]):
        one_line_refusal(cli(env, "monitor", "add", QUESTION, *args))
    assert "empty" in one_line_refusal(cli(env, "monitor", "add", "   "))
    # the CLI's user names their own files: the path is read where it really is
    ok = cli(env, "monitor", "add", QUESTION, "-s", f"local:{rooms.root}/escape", "--json")
    assert ok.returncode == 0, ok.stderr
    assert f'"local:{rooms.outside.resolve()}"' in ok.stdout and '"origin": "cli"' in ok.stdout


def test_research_and_resume_doors(graph: tuple[GraphStore, dict[str, str]], cli: Callable[..., Ran]) -> None:
    store, env = graph
    one_line_refusal(cli(env, "research", QUESTION, "-s", "ftp://x", "--offline"))
    assert "empty" in one_line_refusal(cli(env, "research", " ", "--offline"))
    RunState(store, "run-old-ftp", RunOptions(question=QUESTION, sources=["ftp://x"])).save("plan",
                                                                                              status="interrupted")
    RunState(store, "run-old-blank", RunOptions(question="  ", sources=["web"])).save("plan", status="interrupted")
    for rid in ("run-old-ftp", "run-old-blank"):
        one_line_refusal(cli(env, "research", QUESTION, "--resume", rid, "--offline"))
        assert store.get_run(rid)["status"] == "interrupted"


def command(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """The installed command in a process of its own (settings are read at its start)."""
    return subprocess.run([sys.executable, "-m", "openresearch.cli", *args], env=env, capture_output=True,
                          text=True, timeout=120)


def test_a_bad_setting_is_one_line(graph: tuple[GraphStore, dict[str, str]]) -> None:
    _, env = graph
    r = command({**env, "OPENRESEARCH_API_LOCAL_ROOTS": "[/not json"}, "monitor", "list")
    assert "OPENRESEARCH_API_LOCAL_ROOTS" in one_line_refusal(r)
    ok = command({**env, "OPENRESEARCH_API_LOCAL_ROOTS": "/srv/docs"}, "monitor", "list", "--json")
    assert ok.returncode == 0, ok.stderr
