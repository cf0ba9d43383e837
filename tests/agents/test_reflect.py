"""Sufficiency from what the graph returns: a conflict group seen from one side asks for more sources."""

from __future__ import annotations

from writing_fixtures import KAFKA_A, KAFKA_B, RABBIT, conflict

from openresearch.agents.plan.reflect import assess, follow_up_queries
from openresearch.models import SubQuestion

Q = SubQuestion(id="Q", text="How fast is Kafka?", entities=["Apache Kafka"], keywords=["throughput"])


def test_a_group_seen_from_one_side_is_unresolved() -> None:
    group = conflict(KAFKA_A, KAFKA_B)
    one_side = assess(Q, [KAFKA_A, RABBIT], [group], min_evidence=1, min_sources=1)
    assert one_side.unresolved_conflicts == 1 and not one_side.sufficient
    assert "conflicts seen from one side" in one_side.reason
    assert any("benchmark" in q for q in follow_up_queries(Q, one_side, 1))
    both = assess(Q, [KAFKA_A, KAFKA_B], [group], min_evidence=1, min_sources=1)
    assert both.unresolved_conflicts == 0
    neither = assess(Q, [RABBIT], [group], min_evidence=1, min_sources=1, min_coverage=0.0)
    assert neither.unresolved_conflicts == 0
