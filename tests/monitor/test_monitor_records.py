"""A monitoring topic watching first-hand records over a local API server (recorded answers, made-up figures): a
World Bank figure the API revised is an edit of the record with its old and new value, a new GitHub release is
new evidence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from monitor_support import offline_services
from records_api import REPO, RecordsApi

from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import Embedder
from openresearch.monitor.clock import FakeClock
from openresearch.monitor.models import Digest
from openresearch.monitor.service import Monitor

pytestmark = pytest.mark.integration
DAY = 86_400_000
T0 = 1_768_176_000_000  # 2026-01-12T00:00Z
WEB = {"offline": False, "workers": 1, "budget": 3, "max_sub_questions": 1}


@pytest.fixture
def api() -> Iterator[RecordsApi]:
    with RecordsApi() as server:
        yield server


def watch(store: GraphStore, embedder: Embedder, tmp_path: Path, api: RecordsApi, question: str,
          source: str, entity: str) -> tuple[Monitor, FakeClock, str]:
    settings = Settings(_env_file=None, data_dir=tmp_path / "data", **api.settings_overrides())  # type: ignore[call-arg]
    clock = FakeClock(T0)
    m = Monitor(offline_services(store, embedder, tmp_path / "data", settings), clock=clock, lease_ms=60_000)
    t = m.add(question, sources=[source], entities=[entity], every="1d", options=WEB)
    return m, clock, t.id


def run(m: Monitor, clock: FakeClock, tid: str) -> Digest:
    clock.advance(DAY)
    r = m.run_topic(tid)
    assert r is not None
    return r.digest


def test_a_revised_world_bank_figure_is_a_change_with_old_and_new(
        falkor_store: GraphStore, embedder: Embedder, tmp_path: Path, api: RecordsApi) -> None:
    m, clock, tid = watch(falkor_store, embedder, tmp_path, api,
                          "What was the population (SP.POP.TOTL) of Brazil in 2022?", "worldbank:SP.POP.TOTL:BRA",
                          "Brazil")
    d1 = run(m, clock, tid)
    assert any(e.quote == "Brazil (BRA), Population, total, 2022: 213300100" for e in d1.new_evidence)
    api.state.revised[("SP.POP.TOTL", "BRA", "2022")] = 213900000  # the API revised a past year
    d2 = run(m, clock, tid)
    changes = [(c.condition, c.old_value, c.new_value) for e in d2.edited for c in e.changed]
    assert ("2022", "213300100", "213900000") in changes, changes
    assert any("went from 213300100 to 213900000" in s.text for s in d2.sentences), [s.text for s in d2.sentences]
    assert not d2.nothing_changed
    d3 = run(m, clock, tid)  # asked again, nothing revised: nothing changed
    assert not d3.edited


def test_a_new_release_is_new_evidence(falkor_store: GraphStore, embedder: Embedder, tmp_path: Path,
                                       api: RecordsApi) -> None:
    m, clock, tid = watch(falkor_store, embedder, tmp_path, api, f"What releases has {REPO} published?",
                          f"github:{REPO}", REPO)
    run(m, clock, tid)
    api.state.stats_computing = 0
    api.state.new_releases.append(("v3.3.0", "2026-11-25"))
    d2 = run(m, clock, tid)
    new = [e.quote for e in d2.new_evidence]
    assert f"{REPO} release v3.3.0 published 2026-11-25" in new, new
    assert any("v3.3.0" in s.text for s in d2.sentences), [s.text for s in d2.sentences]
