"""Comparisons and conflicts "as of DATE" (issue 10 item 7), on FalkorDB and Neo4j, through the library, the
HTTP routes and the command line: by default the current values (a superseded value is left out), as of a date
the values current then, superseded values on request and marked; the API's cached answers see a
supersession pass."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from records_support import rec

from openresearch.api import problems
from openresearch.api.deps import ApiState
from openresearch.api.routers import compare, conflicts
from openresearch.config import Settings
from openresearch.graph.monitor_store import MonitorStore
from openresearch.graph.store import GraphStore
from openresearch.models import EvidenceRecord
from openresearch.monitor import asof
from openresearch.monitor.runner import supersede

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]
NOW = 1_772_000_000_000


def records() -> list[EvidenceRecord]:
    def tp(url: str, n: str, published: str) -> EvidenceRecord:
        return rec(url, f"AcmeDB reaches a write throughput of {n} rows per second.", "AcmeDB",
                   "ingest_throughput", n.replace(",", ""), "rows/s", published=published)
    return [tp("https://acme.example/releases/1.4", "120,000", "2026-01-10"),
            tp("https://acme.example/releases/1.5", "150,000", "2026-02-10"),
            tp("https://bench.example/acme", "90,000", "2026-02-10"),
            rec("https://beta.example/notes", "BetaDB reaches a write throughput of 50,000 rows per second.",
                "BetaDB", "ingest_throughput", "50000", "rows/s", published="2026-01-05")]


def acme(comp_cells: dict[str, dict[str, object]]) -> list[tuple[float, bool]]:
    cell = comp_cells["ingest_throughput"]["AcmeDB"]
    assert isinstance(cell, dict)
    return sorted((float(v), by is not None) for v, by in zip(cell["values"], cell["superseded_by"], strict=True))


def test_comparisons_and_conflicts_as_of_a_date(store: GraphStore) -> None:
    store.write_evidence(records())
    assert supersede(MonitorStore(store), NOW) == 1  # 120,000 (January) is superseded by February's values

    def table(**kw: object) -> list[tuple[float, bool]]:
        return acme(asof.comparison(store, ["AcmeDB", "BetaDB"], "ingest throughput", **kw)  # type: ignore[arg-type]
                    .model_dump()["cells"])

    assert table() == [(90000.0, False), (150000.0, False)]  # the current values
    assert table(as_of=date(2026, 1, 20)) == [(120000.0, False)]  # what held then
    assert table(include_superseded=True) == [(90000.0, False), (120000.0, True), (150000.0, False)]
    # as of January, the successor did not hold yet: the January value is not shown superseded
    assert table(as_of=date(2026, 1, 20), include_superseded=True) == [(120000.0, False)]
    assert store.compare(["BetaDB"]).cells["ingest_throughput"]["BetaDB"].values == [50000.0]
    assert asof.comparison(store, ["AcmeDB"], as_of=date(2025, 12, 1)).cells == {}

    now = asof.conflicts(store, entity="AcmeDB")
    assert [sorted(v.value for v in g.values) for g in now] == [[90000.0, 150000.0]]
    assert asof.conflicts(store, date(2026, 1, 20), entity="AcmeDB") == []
    assert asof.conflicts(store, date(2026, 1, 20)) == []
    later = asof.conflicts(store, date(2026, 2, 15), metric="ingest_throughput")
    assert [g.id for g in later] == [g.id for g in now]  # the same stable id, read by dates
    assert asof.conflicts(store, date(2026, 2, 15), entity="BetaDB") == []


@pytest.mark.parametrize("backend", ["falkordb"], indirect=True)
def test_compare_and_conflicts_routes_take_as_of_and_see_supersessions(store: GraphStore, tmp_path: Path) -> None:
    app = FastAPI()
    problems.install(app)
    # strict freshness (no answer of an older graph version): the supersession pass below runs beside the API
    app.state.api = ApiState(settings=Settings(data_dir=tmp_path / "data", api_cache_stale_s=0), store=store)
    app.include_router(compare.router)
    app.include_router(conflicts.router)
    client = TestClient(app)
    store.write_evidence(records())

    def cells(**params: object) -> list[tuple[float, bool]]:
        r = client.get("/compare", params={"entity": ["AcmeDB", "BetaDB"], **params})
        assert r.status_code == 200, r.text
        return acme(r.json()["cells"])

    # before the supersession pass nothing is marked: all three values are current
    assert cells() == [(90000.0, False), (120000.0, False), (150000.0, False)]
    before = store.graph_version()
    supersede(MonitorStore(store), NOW)
    assert store.graph_version() != before  # a pass that only marks stored values is a new version
    assert cells() == [(90000.0, False), (150000.0, False)]  # so the cached answer is not served
    assert cells(as_of="2026-01-20") == [(120000.0, False)]
    assert cells(superseded="true") == [(90000.0, False), (120000.0, True), (150000.0, False)]
    assert client.get("/compare", params={"entity": "AcmeDB", "as_of": "January"}).status_code in (400, 422)

    assert len(client.get("/conflicts").json()["items"]) == 1
    assert client.get("/conflicts", params={"as_of": "2026-01-20"}).json()["items"] == []
    assert len(client.get("/conflicts", params={"as_of": "2026-02-15", "entity": "AcmeDB"}).json()["items"]) == 1


def test_compare_and_conflicts_commands_take_as_of(tmp_path: Path) -> None:
    env = {**os.environ, "OPENRESEARCH_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "200"}
    env.pop("OPENRESEARCH_GRAPH_URL", None)

    def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([sys.executable, "-m", "openresearch.cli", *args], env=env, text=True,
                              capture_output=True, timeout=300, cwd=REPO)
        assert not check or proc.returncode == 0, proc.stderr
        return proc

    try:
        data = tmp_path / "evidence.jsonl"
        data.write_text("".join(r.model_dump_json() + "\n" for r in records()), encoding="utf-8")
        cli("evidence", "import", str(data))
        # no supersession pass has run: by default every value is current; as of a date the dates decide
        now = json.loads(cli("compare", "AcmeDB", "BetaDB", "--json").stdout)
        assert acme(now["cells"]) == [(90000.0, False), (120000.0, False), (150000.0, False)]
        then = json.loads(cli("compare", "AcmeDB", "BetaDB", "--as-of", "2026-01-20", "--json").stdout)
        assert acme(then["cells"]) == [(120000.0, False)]
        table = cli("compare", "AcmeDB", "--as-of", "2026-01-20").stdout
        assert "120000" in table and "150000" not in table
        assert json.loads(cli("conflicts", "list", "--as-of", "2026-01-20", "--json").stdout) == []
        assert len(json.loads(cli("conflicts", "--as-of", "2026-02-15", "--json").stdout)) == 1
        bad = cli("compare", "AcmeDB", "--as-of", "last week", check=False)
        assert bad.returncode != 0 and bad.stderr.strip().splitlines() == [
            "error: --as-of wants a date like 2026-02-01, not 'last week'"]
        # the second clock: before the import the graph held nothing (an entity it has nothing for is named)
        before = json.loads(cli("compare", "AcmeDB", "BetaDB", "--known-on", "2020-01-01", "--json").stdout)
        assert before["cells"] == {} and before["missing"] == ["AcmeDB", "BetaDB"]
        assert json.loads(cli("conflicts", "--known-on", "2020-01-01", "--json").stdout) == []
        bad = cli("conflicts", "--known-on", "soon", check=False)
        assert bad.returncode != 0 and bad.stderr.strip().splitlines() == [
            "error: --known-on wants a date like 2026-02-01, not 'soon'"]
    finally:
        cli("graph", "stop", check=False)
