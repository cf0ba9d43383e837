"""The run-wide caps a wave's sub-questions share, and the counters a resumed run reads back (pure)."""

from __future__ import annotations

from openresearch.agents.run.research import split
from openresearch.agents.run.state import Counters


def test_split_gives_every_part_and_never_more_than_the_total() -> None:
    assert [split(12, 5, i) for i in range(5)] == [3, 3, 2, 2, 2]
    assert [split(2, 4, i) for i in range(4)] == [1, 1, 0, 0]
    assert [split(-3, 2, i) for i in range(2)] == [0, 0]


def test_counters_hold_finished_sub_questions_and_round_trip() -> None:
    c = Counters()
    c.finish("Q-a", 3, 1, None)
    c.finish("Q-b", 2, 0, "search cap reached")
    back = Counters.from_dict(c.as_dict())
    assert (back.searches_total, back.reflect_rounds_total) == (5, 1)
    assert back.reflected == {"Q-a"} and back.limited == {"Q-b": "search cap reached"}
    assert back.done_questions == {"Q-a", "Q-b"}
    assert back.spent_before(["Q-a"]) == (3, 1)
    # a run stored before spending was kept per sub-question: its totals count as spent before any wave
    legacy = Counters.from_dict({"searches_total": 7, "reflect_rounds_total": 2})
    assert legacy.spent_before([]) == (7, 2)
