"""A small model's uncited sentence that restates exactly one shown quote gets that quote's citation."""

from __future__ import annotations

from openresearch.agents.write.writer import SectionOut, SentenceOut, source_of, to_sentences
from openresearch.models import EvidenceView, SourceView

SRC = SourceView(id="s", url="file:///a.md", title="A")
A = EvidenceView(id="E-aaaaaaaaaaaa", quote="It holds up to 40 crates in its hold.", type="statistic", source=SRC)
B = EvidenceView(id="E-bbbbbbbbbbbb", quote="In the vendor's test it loaded 12 crates per minute.", type="statistic",
                 source=SRC)


def test_an_uncited_restatement_gets_the_one_matching_citation() -> None:
    out = SectionOut(sentences=[SentenceOut(text="It holds up to 40 crates."),
                                SentenceOut(text="It loads 99 crates per minute."),  # a number in no quote
                                SentenceOut(text="The evidence says nothing about its price.", kind="gap")])
    first, second, gap = to_sentences(out, [], [A, B])
    assert first.text == f"It holds up to 40 crates [{A.id}]." and first.citations == [A.id]
    assert second.citations == [] and gap.kind == "gap" and gap.citations == []


def test_no_citation_when_the_sentence_matches_no_quote_or_several() -> None:
    assert source_of("Crates are popular everywhere in the world today.", [A, B]) is None
    twin = A.model_copy(update={"id": "E-cccccccccccc"})
    assert source_of("It holds up to 40 crates.", [A, twin]) is None
    assert source_of("40 crates.", [A]) is None  # too few words to tell
