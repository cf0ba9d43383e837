"""A full disk under the embedded FalkorDB (its data folder on a 4 MB tmpfs, filled up): the real server refuses
writes with MISCONF. Read commands (`evidence export` included) keep working and say so in one line; a write
command stops before any work with one line. Needs root to mount the tmpfs (skipped, with the reason, without)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from doors_support import run_cli

pytestmark = [pytest.mark.integration, pytest.mark.timeout(240)]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        from openresearch.graph.falkor_server import EmbeddedFalkor

        try:
            with contextlib.suppress(FileNotFoundError):
                (mount / "filler").unlink()  # room for the server to stop cleanly
            if (mount / "data").exists():
                EmbeddedFalkor(mount / "data").stop()
        finally:
            subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(folder: Path) -> None:
    with (folder / "filler").open("wb") as fh, contextlib.suppress(OSError):
        while True:
            fh.write(b"\0" * 65536)
            fh.flush()


@pytest.fixture
def run(small_disk: Path, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:

    monkeypatch.setenv("OPENRESEARCH_DATA_DIR", str(small_disk / "data"))
    monkeypatch.setenv("OPENRESEARCH_LLM_BASE_URL", "")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    for name in ("OPENRESEARCH_GRAPH_URL", "OPENRESEARCH_GRAPH_NAME"):
        monkeypatch.delenv(name, raising=False)

    def go(*args: str) -> tuple[int, str, str]:
        return run_cli(monkeypatch, capfd, *args)

    return go


def _lines(n: int) -> str:
    rows = [{"source": {"url": f"https://disk.example/{i}"}, "quote": f"Queuey moved {i}00 MB/s in trial {i}.",
             "observations": [{"entity": "Queuey", "metric": "throughput", "value": i * 100, "unit": "MB/s"}]}
            for i in range(1, n + 1)]
    return "".join(json.dumps(r) + "\n" for r in rows)


def test_a_full_disk_leaves_reads_working(run: Callable[..., tuple[int, str, str]], small_disk: Path,
                                          tmp_path: Path) -> None:
    evidence = tmp_path / "evidence.jsonl"
    evidence.write_text(_lines(3))
    code, _, err = run("evidence", "import", str(evidence))
    assert code == 0, err
    _fill(small_disk)
    from openresearch.graph.falkor import FalkorBackend
    from openresearch.graph.falkor_server import EmbeddedFalkor

    sock = str(EmbeddedFalkor(small_disk / "data").ensure().socket)
    backend = FalkorBackend("openresearch", unix_socket=sock)
    for i in range(3):  # the write that meets the full disk, then the server's MISCONF
        with contextlib.suppress(Exception):
            backend.write(f"CREATE (:Filler {{n: {i}, pad: $pad}})", {"pad": "x" * 200_000})
    backend.close()
    again = FalkorBackend("openresearch", unix_socket=sock)
    assert again.refuses_writes and again.refuses_writes.startswith("MISCONF")  # the real server's refusal
    again.close()

    out_file = tmp_path / "export.jsonl"
    for args in (["graph", "stats", "--json"], ["runs", "list"], ["conflicts", "--json"],
                 ["compare", "Queuey", "Other", "--json"], ["evidence", "export", str(out_file)]):
        code, _, err = run(*args)
        assert code == 0, (args, err)
        notes = [line for line in err.splitlines() if line.strip()]
        assert notes and notes[0].startswith("note: the graph is read-only"), (args, err)
        assert "Traceback" not in err
    assert len(out_file.read_text().splitlines()) == 3

    for args in (["evidence", "import", str(evidence)], ["ingest", str(tmp_path)], ["graph", "init"]):
        code, _, err = run(*args)
        lines = err.strip().splitlines()
        assert code != 0 and len(lines) == 1 and lines[0].startswith("error: the graph refuses writes"), (args, err)


def test_the_embedding_cache_steps_aside_on_a_full_disk(small_disk: Path) -> None:
    from openresearch.ingest.embed import HashEmbedder

    _fill(small_disk)
    embedder = HashEmbedder(dim=32, cache_dir=small_disk / "cache")  # cannot even create its file
    assert embedder.cache is not None and embedder.cache.disabled
    assert len(embedder.embed(["a query", "another"])) == 2  # embedding goes on, uncached
