"""The invariants enforced on a draft (pure): what the LLM writer got wrong never reaches the report."""

from __future__ import annotations

from openresearch.agents.verify.enforce import enforce
from openresearch.models import (
    ConflictGroup,
    ConflictValue,
    Draft,
    DraftSection,
    EvidenceView,
    Sentence,
    SentenceVerdict,
    SourceView,
    Verification,
)

SRC = SourceView(id="s1", url="file:///doc.md", title="Doc")
POP = EvidenceView(id="E-aaaaaaaaaaaa", quote="The township had a population of 428 at the 2010 census.",
                   type="statistic", source=SRC)
OTHER = EvidenceView(id="E-bbbbbbbbbbbb", quote="Another passage gives a population of 42,800 for the township.",
                     type="statistic", source=SourceView(id="s2", url="file:///b.md", title="B"))
GROUP = ConflictGroup(id="C-1", entity="Township", metric="population", unit="count", relative_difference=0.99,
                      values=[ConflictValue(value=428, unit="count", raw_values=["428"], evidence_ids=[POP.id]),
                              ConflictValue(value=42800, unit="count", raw_values=["42,800"],
                                            evidence_ids=[OTHER.id])])


def section(*sentences: Sentence, qid: str = "q1", conflicts: list[str] | None = None) -> DraftSection:
    return DraftSection(question_id=qid, title="T", sentences=list(sentences), disclosed_conflicts=conflicts or [])


def s(text: str, kind: str = "claim") -> Sentence:
    from openresearch.agents.verify.claim_text import citations_in
    return Sentence(text=text, citations=citations_in(text), kind=kind)  # type: ignore[arg-type]


def test_a_copied_prompt_example_is_dropped() -> None:
    draft = Draft(title="q", sections=[section(s("Product A reached 605 units [E-EXAMPLE]."),
                                               s(f"The population was 428 [{POP.id}]."))], method="llm")
    out, counts = enforce(draft, {"q1": [POP]}, [])
    assert [x.text for x in out.sections[0].sentences] == [f"The population was 428 [{POP.id}]."]
    assert (counts.dropped, counts.outside_section, counts.rewritten) == (1, 1, 0)


def test_a_number_not_in_the_quote_is_rewritten_from_the_quote() -> None:
    draft = Draft(title="q", sections=[section(s(f"The population is approximately 10,256 [{POP.id}]."))])
    out, counts = enforce(draft, {"q1": [POP]}, [])
    (only,) = out.sections[0].sentences
    assert "10,256" not in only.text and POP.quote.rstrip(".") in only.text and only.citations == [POP.id]
    assert (counts.numbers, counts.rewritten, counts.dropped) == (1, 1, 0)


def test_a_citation_from_another_section_counts_as_outside_and_is_rewritten_from_the_valid_one() -> None:
    draft = Draft(title="q", sections=[section(s(f"It had 428 people [{POP.id}][{OTHER.id}]."))])
    out, counts = enforce(draft, {"q1": [POP], "q2": [OTHER]}, [])
    (only,) = out.sections[0].sentences
    assert only.citations == [POP.id] and counts.outside_section == 1


def test_a_refuted_sentence_is_dropped_and_uncited_claims_go_but_gaps_stay() -> None:
    draft = Draft(title="q", sections=[section(s(f"The population was 428 [{POP.id}]."),
                                               s("Everyone agrees it is large."),
                                               s("The evidence does not say when it was founded.", kind="gap"))])
    verification = Verification(verdicts=[SentenceVerdict(section=0, index=0, text="", verdict="FAIL",
                                                           label="REFUTES")])
    out, counts = enforce(draft, {"q1": [POP]}, [], verification)
    assert [x.kind for x in out.sections[0].sentences] == ["gap"]
    assert (counts.refuted, counts.uncited, counts.dropped) == (1, 1, 2)


def test_a_dropped_conflict_disclosure_is_restored_by_the_template() -> None:
    bad = s(f"Sources agree on 99 [{POP.id}][{OTHER.id}].", kind="conflict")
    draft = Draft(title="q", sections=[section(bad, conflicts=[GROUP.id])])
    out, counts = enforce(draft, {"q1": [POP, OTHER]}, [GROUP])
    texts = [x.text for x in out.sections[0].sentences]
    assert counts.conflicts_restored == 1 and counts.changed
    assert any(x.kind == "conflict" and "428" in x.text and "42,800" in x.text for x in out.sections[0].sentences)
    assert not any("99" in t for t in texts)


def test_a_clean_draft_is_unchanged() -> None:
    draft = Draft(title="q", sections=[section(s(f"The population was 428 at the 2010 census [{POP.id}]."))])
    out, counts = enforce(draft, {"q1": [POP]}, [])
    assert out == draft and not counts.changed and counts.checked == 1
