"""Conflict disclosures state each value as its quote writes it, so the verifier's numeric check passes."""

from __future__ import annotations

import pytest
from writing_fixtures import conflict, ev

from openresearch.agents.verify.verifier import verify
from openresearch.agents.write.writer_templates import conflict_sentence
from openresearch.models import ClaimJudgement, Draft, DraftSection, EvidenceView


class Supports:
    def judge(self, claim: str, evidence: str) -> ClaimJudgement:
        return ClaimJudgement(label="SUPPORTS", score=1.0)


BUILT = [ev("E-y1", "The courthouse was built in 1912.", [("Courthouse", "year built", 1912, "year", "")],
            url="https://a.example/x"),
         ev("E-y2", "The courthouse dates from 1895.", [("Courthouse", "year built", 1895, "year", "")],
            url="https://b.example/x")]
BORN = [ev("E-d1", "Born on May 4, 1912 in Omaha.", [("John Smith", "date of birth", 19120504, "date", "")],
           url="https://a.example/y"),
        ev("E-d2", "Smith (born 5 May 1912) was a painter.", [("John Smith", "date of birth", 19120505, "date", "")],
           url="https://b.example/y"),
        ev("E-d3", "约翰·史密斯生于1912年5月4日。", [("John Smith", "date of birth", 19120504, "date", "")],
           url="https://c.example/y")]


@pytest.mark.parametrize(("items", "lang", "forms"), [
    (BUILT, "en", ["1895 [E-y2]", "1912 [E-y1]"]),
    (BORN[:2], "en", ["May 4, 1912 [E-d1]", "5 May 1912 [E-d2]"]),
    (BORN[1:], "zh", ["1912年5月4日 [E-d3]", "5 May 1912 [E-d2]"]),
])
def test_years_and_dates_are_stated_as_written_and_verify(items: list[EvidenceView], lang: str,
                                                          forms: list[str]) -> None:
    group = conflict(*items)
    sentence = conflict_sentence(lang, group)
    assert all(f in sentence.text for f in forms), sentence.text
    draft = Draft(title="t", sections=[DraftSection(question_id="q", title="t", sentences=[sentence])])
    result = verify(draft, {e.id: e for e in items}, [group], Supports())
    assert result.verdicts[0].verdict == "PASS", result.verdicts[0].reasons
    assert result.undisclosed_conflicts == []
