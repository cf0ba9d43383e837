"""A look-up that asks for a date or a count no known metric names ("When was X elected to a public office?",
"How many libraries are part of X?"): the plan keys it by the question's own words, and the extractor finds
the value where a sentence dates or counts what the question names."""

from __future__ import annotations

import pytest

from openresearch.agents.extract.asked import answer_kind, asked_metric
from openresearch.agents.extract.observations import observations
from openresearch.agents.plan.analysis import analyse


@pytest.mark.parametrize(("question", "language", "kind"), [
    ("When was Robert Hutchinson elected to a public office?", "en", "date"),
    ("In which year did the club move to its new ground?", "en", "date"),
    ("How many libraries are part of the LCLS?", "en", "count"),
    ("What sport is Doug Harvey associated with?", "en", None),
    ("该图书馆系统有多少座图书馆？", "zh", "count"),
    ("这座桥是哪一年通车的？", "zh", "date"),
])
def test_what_kind_of_answer_a_question_asks_for(question: str, language: str, kind: str | None) -> None:
    assert answer_kind(question, language) == kind


def test_the_plan_keys_a_dated_or_counted_attribute_by_its_own_words() -> None:
    assert analyse("When was Robert Hutchinson elected to a public office?").metrics == ["elected_to_a_public_office"]
    assert analyse("How many libraries are part of the LCLS?").metrics == ["libraries"]
    assert analyse("What sport is Doug Harvey associated with?").metrics == []  # answered by statements
    assert analyse("When was the Security Building built?").metrics == ["built"]  # a known metric stays


def _asked(question: str, attribute: str, entity: str) -> list[tuple[str, str]]:
    a = asked_metric(question, "en", attribute, attribute.replace(" ", "_"), entity)
    assert a is not None
    return [(s, a.metric) for s in a.stems]


def test_what_a_sentence_must_say_is_the_attribute_not_the_names() -> None:
    assert _asked("When did Morea start playing for Papua New Guinea?", "start playing for papua new guinea",
                  "Morea") == [("play", "start_playing_for_papua_new_guinea")]
    # "called" alone is too common a word: "the Bar" comes with it (one capitalised word is not a name)
    assert [s for s, _ in _asked("When was Attorney General Russell called to the Bar?", "called to the bar",
                                  "Attorney General Russell")] == ["call", "bar"]
    assert asked_metric("What sport is Doug Harvey associated with?", "en", "sport", "sport") is None


def _values(question: str, attribute: str, sentence: str) -> list[tuple[str, str]]:
    a = asked_metric(question, "en", attribute, attribute.replace(" ", "_"), "X")
    return [(o.value, o.unit or "") for o in observations(sentence, [], set(), "X", asked=a) if o.metric == a.metric]


def test_dates_where_the_sentence_names_the_event() -> None:
    q, attr = "When was Russell called to the Bar?", "called to the bar"
    assert _values(q, attr, "Having read law privately, he was called to the Bar in January 1859.") == [
        ("January 1859", "year")]
    assert _values(q, attr, "It was called the New Inn in 1859.") == []  # no bar
    q, attr = "When did Morea start playing for Papua New Guinea?", "start playing for papua new guinea"
    # a range is dated by its first year
    assert _values(q, attr, "He played for the Papua New Guinea national cricket team between 2000 and 2005.") == [
        ("2000", "year")]
    assert _values(q, attr, "Born in Port Moresby in 1975, he studied law.") == []


def test_counts_of_the_thing_the_question_names() -> None:
    q, attr = "How many libraries are part of the LCLS?", "libraries"
    assert _values(q, attr, "Currently, the library system consists of 15 libraries, with an office in Tavares.") == [
        ("15", "count")]
    assert _values(q, attr, "There are 25 libraries and 242 categories in our website directory.") == [
        ("25", "count")]
    assert _values(q, attr, "The number of libraries is 15.") == [("15", "count")]
    assert _values(q, attr, "The system serves 300,000 residents.") == []
