"""`openresearch compare ... --chart out.svg`, run as a user runs it (a subprocess) on the session's FalkorDB:
one chart per metric and unit, every figure its own point, written whole; a bad --chart path is refused before
any work."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from records_support import rec

from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"


def cli(args: list[str], store: GraphStore, socket: str) -> subprocess.CompletedProcess[str]:
    backend: Any = store.backend
    env = {**os.environ, "OPENRESEARCH_GRAPH_NAME": backend.graph_name, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "openresearch.cli", *args, "--graph", f"unix://{socket}"],
                          env=env, text=True, capture_output=True, timeout=120, cwd=REPO)


def test_compare_writes_a_chart(falkor_store: GraphStore, falkor_socket: str, tmp_path: Path) -> None:
    falkor_store.write_evidence([
        rec("https://c.example/zorkq-1", "Zorkq reached 605 MB/s with three brokers.", "Zorkq", "throughput", 605,
            "MB/s", "3 brokers"),
        rec("https://c.example/zorkq-2", "Zorkq reached 1.2 GB/s with three brokers.", "Zorkq", "throughput", "1.2",
            "GB/s", "3 brokers"),
        rec("https://c.example/blarnmq-1", "Blarnmq moved 50 MB/s.", "Blarnmq", "throughput", 50, "MB/s"),
        rec("https://c.example/zorkq-3", "Zorkq was first released in 2019.", "Zorkq", "released", "2019", "year"),
        rec("https://c.example/blarnmq-2", "Blarnmq was first released in 2016.", "Blarnmq", "released", "2016",
            "year"),
    ])
    out = tmp_path / "out.svg"
    proc = cli(["compare", "Zorkq", "Blarnmq", "--chart", str(out)], falkor_store, falkor_socket)
    assert proc.returncode == 0, proc.stderr
    assert "wrote 2 charts" in proc.stderr
    doc = out.read_text(encoding="utf-8")
    root = ET.fromstring(doc.split("?>", 1)[1])
    charts = root.findall(f"{SVG}svg")
    assert [c.get("role") for c in charts] == ["img", "img"]
    titles = sorted(c.find(f"{SVG}title").text or "" for c in charts)  # type: ignore[union-attr]
    assert titles == ["released by entity", "throughput by entity"]
    assert len(root.findall(f".//{SVG}circle")) == 5  # 605 and 1200 MB/s are two points, not their mean
    assert "2019.0" not in doc and not list(tmp_path.glob(".*.tmp"))



def test_a_chart_path_that_is_a_folder_is_refused_before_any_work(tmp_path: Path) -> None:
    from openresearch.commands.evidence_cmd import compare
    from openresearch.errors import InputError

    folder = tmp_path / "a-folder"
    folder.mkdir()
    # no graph is named or running: the refusal comes first
    with pytest.raises(InputError, match=r"--chart .* is a folder"):
        compare(["Zorkq", "Blarnmq"], chart=folder, graph="unix:///nonexistent/socket")
