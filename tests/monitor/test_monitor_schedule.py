"""Schedules, jitter and catch-up, and the time rules of facts (pure: no graph)."""

from __future__ import annotations

import pytest

from openresearch.errors import InputError
from openresearch.monitor.schedule import jitter_ms, next_due, parse_schedule
from openresearch.monitor.timefacts import TimedObservation, changes, current_as_of, plan_supersessions

DAY = 86_400_000
T0 = 1_767_225_600_000  # 2026-01-01T00:00Z


def test_intervals_cron_and_rejects() -> None:
    assert parse_schedule("1d").interval_ms == DAY
    assert parse_schedule("6h").interval_ms == 6 * 3_600_000
    assert parse_schedule("daily").interval_ms == DAY
    cron = parse_schedule("0 6 * * *")
    assert cron.interval_ms is None
    assert cron.next_after(T0) == T0 + 6 * 3_600_000
    assert cron.period_ms() == DAY
    for bad in ("often", "5s", "61 * * * *", ""):
        with pytest.raises(InputError):
            parse_schedule(bad)


def test_jitter_is_stable_bounded_and_spreads_topics() -> None:
    s = parse_schedule("1d")
    offsets = {jitter_ms(f"T-{i}", s) for i in range(100)}
    assert all(0 <= o < 15 * 60_000 for o in offsets)
    assert len(offsets) > 90
    assert jitter_ms("T-a", s) == jitter_ms("T-a", s)


def test_a_missed_week_is_caught_up_once() -> None:
    s = parse_schedule("1d")
    # the topic was due on day 1 but the machine was off for a week: after the one catch-up run (on day 8)
    # the next run is on day 9, not on each of the missed days
    due = next_due("T-a", s, T0 + 8 * DAY + 5_000)
    assert T0 + 9 * DAY <= due < T0 + 9 * DAY + 15 * 60_000


def obs(oid: str, valid: int | None, learned: int = 0, key: str = "N-kafka|latest_version|", ck: str = "",
        by: str | None = None) -> TimedObservation:
    return TimedObservation(oid, key, ck, valid, learned, by)


def test_newer_supersedes_older_same_time_stays_late_is_marked() -> None:
    items = [obs("a", T0, learned=1), obs("b", T0 + 30 * DAY, learned=2), obs("c", T0 + 30 * DAY, learned=3),
             obs("late", T0 - 10 * DAY, learned=9), obs("undated", None), obs("other", T0, ck="p99")]
    plan = {s.old: s for s in plan_supersessions(items)}
    assert set(plan) == {"a", "late"}  # b and c share a time: a conflict, not a supersession
    assert plan["a"].new == "b" and plan["a"].at_ms == T0 + 30 * DAY and not plan["a"].late
    assert plan["late"].new == "a" and plan["late"].late  # arrived last, describes the earliest time
    assert current_as_of(items, None) == {"b", "c", "undated", "other"}
    assert current_as_of(items, T0 + DAY) == {"a", "undated", "other"}
    assert current_as_of(items, T0 - 20 * DAY) == {"undated"}
    stored = [obs(o.id, o.valid_ms, o.learned_ms, o.key, o.condition_key, plan[o.id].new if o.id in plan else None)
              for o in items]
    assert changes(stored) == []  # a re-run writes nothing


def test_incremental_query_parameters() -> None:
    from datetime import date

    from openresearch.ingest.retrievers.arxiv import since_clause
    from openresearch.ingest.retrievers.searxng import time_range

    today = date(2026, 3, 10)
    assert [time_range(date(2026, 3, d), today) for d in (9, 8, 3, 1)] == ["day", "week", "week", "month"]
    assert time_range(date(2025, 1, 1), today) == "year"
    assert since_clause(date(2026, 3, 8), today) == "submittedDate:[202603080000 TO 202603112359]"


def test_drop_superseded_filters_conflict_inputs() -> None:
    from openresearch.conflicts import ObservedValue
    from openresearch.monitor.delta import drop_superseded, superseded_keys

    def ov(ev: str, value: float) -> ObservedValue:
        return ObservedValue(entity_id="N-a", entity="A", metric="throughput", unit="rows/s", condition="",
                             condition_key="", value=value, raw_value=str(value), raw_unit="rows/s", evidence_id=ev,
                             quote="q", source_id="S-" + ev, url="u")
    rows = [{"evidence_id": "E-old", "key": "N-a|throughput|rows/s", "superseded_by": "O-new"},
            {"evidence_id": "E-new", "key": "N-a|throughput|rows/s", "superseded_by": None}]
    kept = drop_superseded([ov("E-old", 1.0), ov("E-new", 2.0)], superseded_keys(rows))
    assert [v.evidence_id for v in kept] == ["E-new"]
