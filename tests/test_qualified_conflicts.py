"""A figure stated flatly against a source that gives it with the condition it changes under (qualified groups)."""

from __future__ import annotations

from openresearch.agents.extract.extract_rules import sentence_units
from openresearch.agents.extract.observations import observations
from openresearch.agents.write.writer_templates import conflict_sentence
from openresearch.condition_conflicts import qualified_groups
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
    assert changed.value == 3 and changed.evidence_ids == ["E-faq"]
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
