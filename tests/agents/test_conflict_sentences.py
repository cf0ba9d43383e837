"""Conflict disclosures state each value (and a disputed set-up) as its quote writes it, so the verifier's numeric
check passes."""

from __future__ import annotations

import pytest
from writing_fixtures import conflict, ev, observed

from openresearch.agents.verify.verifier import verify
from openresearch.agents.write.writer_templates import conflict_sentence
from openresearch.condition_conflicts import condition_groups
from openresearch.models import ClaimJudgement, ConflictGroup, Draft, DraftSection, EvidenceView


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
    assert_discloses_and_verifies(conflict(*items), items, lang, forms)


def assert_discloses_and_verifies(group: ConflictGroup, items: list[EvidenceView], lang: str,
                                  parts: list[str]) -> None:
    """The group's sentence holds every part, passes the verifier and discloses the group."""
    sentence = conflict_sentence(lang, group)
    assert all(p in sentence.text for p in parts), sentence.text
    draft = Draft(title="t", sections=[DraftSection(question_id="q", title="t", sentences=[sentence])])
    result = verify(draft, {e.id: e for e in items}, [group], Supports())
    assert result.verdicts[0].verdict == "PASS", result.verdicts[0].reasons
    assert result.undisclosed_conflicts == []


def written(e: EvidenceView, raw: str) -> EvidenceView:
    """The observation as the extractor stores it: its value and unit as the quote writes them."""
    o = e.observations[0].model_copy(update={"raw_value": raw, "raw_unit": "rows/sec"})
    return e.model_copy(update={"observations": [o]})


LOW = ev("E-low", "Using a dataset with low cardinality of 100 devices, we hit 904k rows/sec.",
         [("QuestDB", "ingest throughput", 904000, "rows/s", "low cardinality of 100 devices")],
         url="https://questdb.example/june")
HIGH = ev("E-high", "With high cardinality (>10 million devices), QuestDB peaked at 904k rows/sec.",
          [("QuestDB", "ingest throughput", 904000, "rows/s", "high cardinality, 10 million devices, 4 threads")],
          url="https://tutorial.example/compare")
# the set-up one side is stated with holds a number its quote lacks: the quote says it instead
ELSEWHERE = ev("E-else", "ClickHouse could ingest 900k rows/sec.",
               [("ClickHouse", "ingest throughput", 900000, "rows/s", "16 threads")], url="https://a.example/c")
TWICE = ev("E-twice", "ClickHouse hits 914k rows/sec with twice as many threads.",
           [("ClickHouse", "ingest throughput", 914000, "rows/s", "twice as many threads")], url="https://b.example/c")


@pytest.mark.parametrize(("items", "lang", "parts"), [
    ([LOW, HIGH], "en", ["same figure but state different cardinality",
                         "904k rows/sec (low cardinality of 100 devices) [E-low]",
                         "904k rows/sec (high cardinality, 10 million devices) [E-high]"]),
    ([LOW, HIGH], "zh", ["所述基数不同", "（low cardinality of 100 devices）"]),
    ([ELSEWHERE, TWICE], "en", ["different thread counts", "900k rows/sec (“ClickHouse could ingest 900k rows/sec”) "
                                "[E-else]", "914k rows/sec (twice as many threads) [E-twice]"]),
])
def test_a_disputed_condition_states_each_set_up_and_verifies(items: list[EvidenceView], lang: str,
                                                              parts: list[str]) -> None:
    items = [written(e, e.quote.split(" rows/sec")[0].split()[-1]) for e in items]
    (group,) = condition_groups([observed(e, e.observations[0]) for e in items])
    assert_discloses_and_verifies(group, items, lang, parts)


def test_a_chinese_sentence_names_the_metric_in_chinese() -> None:
    old = ev("E-old", "TDengine大概需要消耗44851/5=8970T, 8.9P空间。",
             [("TDengine", "storage_required", 8970 * 1024 * 1024, "MB", "")], url="https://a.example/2020")
    new = ev("E-new", "TDengine 大概需要消耗 44.851 / 5 = 8.97024T 空间。",
             [("TDengine", "storage_required", 8.97024 * 1024 * 1024, "MB", "")], url="https://b.example/2024")
    group = conflict(old, new)
    assert "关于TDengine的所需存储空间" in conflict_sentence("zh", group).text
    assert "TDengine storage required" in conflict_sentence("en", group).text
