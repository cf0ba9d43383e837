"""Relative claims against the per-unit figures the sources give for both sides (implied_conflicts.py)."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.verify.judge import EmbeddingJudge
from openresearch.agents.verify.verifier import verify
from openresearch.agents.write.writer_templates import conflict_sentence
from openresearch.conflicts import ObservedValue
from openresearch.implied_conflicts import figure_range, implied_groups, implied_range
from openresearch.ingest.embed import SentenceTransformerEmbedder
from openresearch.models import Draft, DraftSection, EvidenceView, SourceView

CLAIM = "Kestrel needs 7x less storage space than Vole."
VOLE = "Vole stores an average of only 1-2 bytes per sample."
KESTREL = "On average, sample size requires less or around 1 byte after compression."


def ob(entity: str, metric: str, value: float, raw: str, condition: str, eid: str, quote: str,
       unit: str = "bytes/sample", raw_unit: str = "bytes per sample") -> ObservedValue:
    return ObservedValue(entity_id=f"N-{entity}", entity=entity, metric=metric, unit=unit, condition=condition,
                         condition_key=condition.casefold(), value=value, raw_value=raw, raw_unit=raw_unit,
                         evidence_id=eid, quote=quote, source_id=f"S-{eid}", url=f"file:///docs/{eid}.md")


def claim(value: float, metric: str = "storage_reduction", baseline: str = "Vole") -> ObservedValue:
    return ob("Kestrel", metric, value, f"{value:g}", f"vs {baseline}", "E-claim", CLAIM.replace("7x", f"{value:g}x"),
              unit="", raw_unit="x")


FIGURES = [ob("Vole", "bytes_per_sample", 1.0, "1-2", "", "E-vole", VOLE),
           ob("Kestrel", "bytes_per_sample", 1.0, "1", "", "E-kestrel", KESTREL)]


def test_a_range_is_both_its_ends_and_the_ratio_spans_both_sides() -> None:
    assert figure_range(FIGURES[0]) == (1.0, 2.0) and figure_range(FIGURES[1]) == (1.0, 1.0)
    assert implied_range([FIGURES[1]], [FIGURES[0]], less=True) == (1.0, 2.0)
    assert implied_range([FIGURES[1]], [FIGURES[0]], less=False) == (0.5, 1.0)
    assert implied_range([], [FIGURES[0]], less=True) is None


def test_a_claim_the_per_unit_figures_contradict_is_one_group_with_both_sides() -> None:
    (g,) = implied_groups([claim(7), *FIGURES])
    assert g.kind == "implied" and g.entity == "Kestrel" and g.metric == "storage_reduction"
    assert g.condition == "vs Vole"
    claimed, implied = g.values
    assert claimed.value == 7 and claimed.evidence_ids == ["E-claim"]
    assert implied.value == 2 and sorted(implied.evidence_ids) == ["E-kestrel", "E-vole"]
    assert implied.conditions == ["implied ratio 1-2"]
    assert sorted(implied.raw_values) == ["1 byte (Kestrel)", "1-2 bytes per sample (Vole)"]
    assert "worked out here" in g.credibility
    # the same inputs in another order: the same group
    assert implied_groups([*reversed(FIGURES), claim(7)]) == [g]


def test_a_claim_within_the_figures_range_or_without_figures_for_a_side_is_no_conflict() -> None:
    assert implied_groups([claim(2), *FIGURES]) == []
    assert implied_groups([claim(2.9), *FIGURES]) == []  # within the margin: ratios are stated loosely
    assert implied_groups([claim(7), FIGURES[0]]) == []  # nothing about Kestrel's own samples
    assert implied_groups([claim(7, baseline="Heron"), *FIGURES]) == []  # nothing about the baseline's
    # a total from a benchmark is not a per-unit figure: a memory claim is never checked against anything
    assert implied_groups([claim(7, metric="memory_reduction"), *FIGURES]) == []
    # a second, lower figure of the entity widens the range that the claim must fall outside of
    low = ob("Kestrel", "bytes_per_sample", 0.2, "0.2", "", "E-low", "Kestrel can get to 0.2 bytes per sample.")
    assert implied_groups([claim(7), *FIGURES, low]) == []


def test_a_claim_of_more_is_checked_the_other_way_round() -> None:
    more = ob("Kestrel", "storage_ratio", 10, "10", "vs Vole", "E-claim", "Kestrel needs 10x more storage than Vole.",
              unit="", raw_unit="x")
    (g,) = implied_groups([more, *FIGURES])
    assert g.values[1].value == 1.0 and g.values[1].conditions == ["implied ratio 0.5-1"]


def _view(eid: str, quote: str) -> EvidenceView:
    return EvidenceView(id=eid, quote=quote, type="statistic", score=0.5,
                        source=SourceView(id=f"S-{eid}", url=f"file:///docs/{eid}.md", title=f"{eid}.md"))


def test_the_disclosure_states_the_figures_as_quoted_and_passes_the_number_check(tmp_path: Path) -> None:
    (g,) = implied_groups([claim(7), *FIGURES])
    s = conflict_sentence("en", g)
    assert s.kind == "conflict" and set(s.citations) == {"E-claim", "E-vole", "E-kestrel"}
    assert "7x [E-claim]" in s.text and "1-2 bytes per sample for Vole [E-vole]" in s.text
    assert "1 byte for Kestrel [E-kestrel]" in s.text and s.text.endswith("which put the ratio at 1-2x.")
    evidence = {e.id: e for e in (_view("E-claim", CLAIM), _view("E-vole", VOLE), _view("E-kestrel", KESTREL))}
    judge = EmbeddingJudge(SentenceTransformerEmbedder(cache_dir=tmp_path))
    draft = Draft(title="q", sections=[DraftSection(question_id="Q-1", title="h", sentences=[s])])
    result = verify(draft, evidence, [g], judge)
    assert result.verdicts[0].numbers_ok and result.phantom_citations == 0
    assert "不符" in conflict_sentence("zh", g).text


def test_a_ratio_whose_numbers_no_quote_writes_is_said_in_words() -> None:
    half = ob("Kestrel", "bytes_per_sample", 0.5, "0.5", "", "E-kestrel", "Kestrel needs 0.5 bytes per sample.")
    (g,) = implied_groups([claim(20), FIGURES[0], half])
    assert g.values[1].conditions == ["implied ratio 2-4"]
    assert conflict_sentence("en", g).text.endswith("which put the ratio at well below the claim.")
