"""A figure stated flatly against a source that gives it with the condition it changes under (qualified groups)."""

from __future__ import annotations

from dataclasses import replace

from openresearch.agents.extract.extract_rules import sentence_units
from openresearch.agents.extract.observations import observations
from openresearch.agents.write.writer_templates import conflict_sentence
from openresearch.condition_conflicts import exceeded_groups, qualified_groups
from openresearch.conflicts import ObservedValue

FAQ = ("Kestrel requires [up to 70x less storage space compared to Vole](https://example.org/bench) for storing the "
       "same data. The gap in storage space usage can be decreased from 70x to 3x if [compression in Vole is "
       "properly configured](https://example.org/docs) (it isn't an easy task).")


def test_a_change_of_the_sentence_befores_comparison_is_quoted_with_it_and_read_as_that_comparison() -> None:
    (unit,) = sentence_units(FAQ)
    assert (unit.start, unit.end) == (0, len(FAQ))
    got = [(o.entity, o.metric, o.value, o.condition) for o in observations(FAQ, [], set(), "Kestrel")]
    assert got == [("Kestrel", "storage_reduction", "70", "vs Vole"),
                   ("Kestrel", "storage_reduction", "3", "vs Vole, if compression in Vole is properly configured")]
    # "from A to B" with no claim of A before it is no change of a claim; nor is a later sentence on its own
    assert len(sentence_units("Kestrel is a time series database written in Go by a small team. The gap can be "
                              "decreased from 70x to 3x if tuned.")) == 2
    alone = observations("Latency fell from 70x to 3x if tuned.", [], set(), "Kestrel")
    assert all(o.metric != "storage_reduction" for o in alone)


def ob(value: float, condition: str, eid: str, source: str, quote: str = "") -> ObservedValue:
    return ObservedValue(entity_id="N-kestrel", entity="Kestrel", metric="storage_reduction", unit="",
                         condition=condition, condition_key=condition.casefold(), value=value, raw_value=f"{value:g}",
                         raw_unit="x", evidence_id=eid, quote=quote or f"{value:g}x", source_id=source,
                         url=f"file:///docs/{source}.md")


README = ob(70, "vs Vole", "E-readme", "S-readme", "70x more data points may be stored than Vole.")
FAQ_70 = ob(70, "vs Vole", "E-faq", "S-faq", FAQ)
FAQ_3 = ob(3, "vs Vole, if compression in Vole is properly configured", "E-faq", "S-faq", FAQ)


def test_a_flat_figure_another_source_qualifies_is_one_group_flat_side_first() -> None:
    (g,) = qualified_groups([README, FAQ_70, FAQ_3])
    assert g.kind == "qualified" and g.condition == "vs Vole"
    flat, changed = g.values
    assert flat.value == 70 and flat.evidence_ids == ["E-readme"]
    assert changed.value == 3 and changed.evidence_ids == ["E-faq"] and changed.raw_values == ["3 x"]
    assert changed.conditions == ["vs Vole, if compression in Vole is properly configured"]
    s = conflict_sentence("en", g)
    assert s.text == ("A source states Kestrel storage reduction (vs Vole) as 70x [E-readme] without qualification, "
                      "but another gives that figure as one that changes to 3x [E-faq] if compression in Vole is "
                      "properly configured.")
    assert s.citations == ["E-readme", "E-faq"] and s.kind == "conflict"
    assert "时变为" in conflict_sentence("zh", g).text


def test_no_group_without_a_flat_figure_from_another_source_or_a_change_clause() -> None:
    assert qualified_groups([FAQ_70, FAQ_3]) == []  # a source qualifying its own figure disputes nothing
    assert qualified_groups([README, FAQ_3]) == []  # no figure the clause changes
    other = ob(20, "vs Vole", "E-other", "S-other")
    assert qualified_groups([other, FAQ_70, FAQ_3]) == []  # a flat figure, but not the one qualified
    plain = ob(3, "vs Vole, 4 threads", "E-faq", "S-faq", FAQ)
    assert qualified_groups([README, FAQ_70, plain]) == []  # a set-up, not a condition the figure changes under


def tp(value: float, raw: str, condition: str, eid: str, source: str, quote: str) -> ObservedValue:
    return ObservedValue(entity_id="N-kestrel", entity="Kestrel", metric="ingest_throughput", unit="rows/s",
                         condition=condition, condition_key=condition.casefold(), value=value, raw_value=raw,
                         raw_unit="rows/sec", evidence_id=eid, quote=quote, source_id=source,
                         url=f"file:///docs/{source}.md")


PEAK = tp(904e3, "904k", "high cardinality, four threads, m5.8xlarge", "E-tut", "S-tut",
          "Kestrel outperformed others with peak ingestion throughput of 904k rows/sec using four threads on an "
          "m5.8xlarge instance.")
SAME = tp(959e3, "959k", "4 threads", "E-may", "S-may", "Kestrel achieves 959k rows/sec with 4 threads.")
OTHER_CPU = tp(1.43e6, "1.43 million", "AMD Ryzen5, 5 threads", "E-amd", "S-may",
               "On an AMD Ryzen5 with 5 threads Kestrel reached 1.43 million rows/sec.")
HEADLINE = tp(1.4e6, "1.4 million", "", "E-title", "S-title", "Kestrel achieved write speeds up to 1.4 million rows "
              "per second.")


def test_a_stated_peak_that_a_figure_under_the_same_set_up_exceeds_is_one_group() -> None:
    (g,) = exceeded_groups([PEAK, SAME, OTHER_CPU, HEADLINE])
    assert g.kind == "exceeded" and g.entity == "Kestrel" and [v.value for v in g.values] == [904e3, 959e3]
    assert g.values[0].evidence_ids == ["E-tut"] and g.values[1].evidence_ids == ["E-may"]
    s = conflict_sentence("en", g)
    assert s.text.startswith("A source gives 904k rows/sec") and "959k rows/sec (4 threads) [E-may]" in s.text
    assert "1.4" not in s.text and s.citations == ["E-tut", "E-may"]


def test_no_exceeded_peak_without_a_shared_set_up_or_from_the_same_source() -> None:
    # another thread count, no stated set-up, or a plain figure (not a peak) that others exceed: nothing
    assert exceeded_groups([PEAK, OTHER_CPU, HEADLINE]) == []
    plain = replace(PEAK, quote="Kestrel ingested 904k rows/sec using four threads.")
    assert exceeded_groups([plain, SAME]) == []
    # the same threads, but another dataset stated by both: two experiments
    other_data = replace(SAME, condition="4 threads, low cardinality", condition_key="4 threads, low cardinality")
    assert exceeded_groups([PEAK, other_data]) == []
    own = replace(SAME, source_id="S-tut")
    assert exceeded_groups([PEAK, own]) == []
    # a latency is no throughput: lower can be better, a peak of it is no ceiling
    assert exceeded_groups([replace(PEAK, metric="p99_latency", unit="ms"),
                            replace(SAME, metric="p99_latency", unit="ms")]) == []
