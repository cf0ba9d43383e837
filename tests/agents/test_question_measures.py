"""What a question asks by the measure of an adjective, a modal clause or a feature's purpose, whatever the
domain: "how loud is the X" asks its volume, "how fast does the X wobble" the speed of its wobbling, "how long can
I restore A" how long one may still, "how much disk may thumbnails take per album" the thumbnails' disk per album,
"which release added recovery for deleted frobs" one feature; and a lower-case product that is an ordinary word is a
name where the dates of its numbered releases are asked. The names are made up."""

from __future__ import annotations

import pytest

from openresearch.agents.plan.analysis import analyse


def test_how_an_adjective_asks_its_measure() -> None:
    a = analyse("Out of the box, how loud is the Zorbq chime, and how fast does the Quux pointer wobble?")
    assert "chime volume" in a.attributes
    assert "pointer wobble speed" in a.attributes
    # the words that say under what it holds ("out of the box", "by default") are no part of the thing
    assert analyse("For Zorbq, how loud is the chime by default?").attributes[-1:] == ["chime volume"]


def test_how_long_the_asker_may_do_something() -> None:
    a = analyse("With Zorbq, how long can I restore a deleted frob by default, and how many frobs does it keep?")
    assert "restore time limit" in a.attributes
    assert not any(x.lower().startswith("i ") for x in a.attributes)


def test_how_much_a_thing_may_use() -> None:
    a = analyse("In Zorbq, how much disk may thumbnails consume per album, and how big is the cache?")
    assert "thumbnail disk per album" in a.attributes
    assert "cache size" in a.attributes
    # what a container holds is still counted per container
    assert "server connections per pool" in analyse(
        "How many server connections can one pool hold in Zorbq and Quux?").attributes


def test_a_feature_a_release_added_for_something_is_one_feature() -> None:
    a = analyse("Which Zorbq release added recovery for deleted frobs, and when did it ship?")
    assert "recovery for deleted frobs added" in a.attributes
    assert "deleted frobs" not in a.attributes


def test_an_ordinary_word_with_release_numbers_is_a_name_when_their_dates_are_asked() -> None:
    a = analyse("When were lantern 3.7 and 3.9 released, and when did Zorbq publish its 1.5.0 release?")
    assert a.entities == ["lantern", "Zorbq"]
    # a part of another thing, or a verb before a version, is none
    b = analyse("When was section 3.2 of the Zorbq spec published, and when was Zorbq 1.0 released?")
    assert b.entities == ["Zorbq"]
    c = analyse("Which release of Zorbq dropped Frob 3.8 and started requiring 3.9+, and on what date?")
    assert "requiring" not in c.entities


def test_a_possessive_between_a_product_and_its_release_numbers_keeps_them_its() -> None:
    from openresearch.agents.extract.releases import releases_asked_of

    q = "When were wobble 3.7 and 3.9 released, and when did Zorbq publish its 1.5.0 and 1.6.0 releases?"
    assert [a.written for a in releases_asked_of(q, "Zorbq", ["wobble", "Zorbq"])] == ["1.5.0", "1.6.0"]
    assert [a.written for a in releases_asked_of(q, "wobble", ["wobble", "Zorbq"])] == ["3.7", "3.9"]


def test_leaving_the_configuration_untouched_asks_the_defaults() -> None:
    from openresearch.agents.write.answer import _ASKS_DEFAULTS

    assert _ASKS_DEFAULTS.search("If we set up Zorbq and Quux and never edit the settings, what glyph size ...")
    assert _ASKS_DEFAULTS.search("On a fresh install, how many rows does Zorbq keep?")
    assert not _ASKS_DEFAULTS.search("How do I edit the settings file of Zorbq?")


def test_how_fast_a_thing_recurs_is_answered_by_its_period() -> None:
    from openresearch.agents.extract.metric_names import answers_metric

    assert answers_metric("pointer_wobble_interval", "ms", "pointer wobble speed")
    assert answers_metric("pointer_wobble_rate", "ms", "pointer_wobble_speed")
    # a time that is no period answers no speed
    assert not answers_metric("pointer_wobble_delay", "ms", "pointer wobble speed")
    assert not answers_metric("parse_time", "ms", "parsing speed")


def test_a_verb_and_its_particle_ask_one_event() -> None:
    assert analyse("When did Zorbq 2.3.0 come out?").attributes == ["released"]
    assert analyse("When did Zorbq 2.3.0 ship?").attributes == ["released"]
    assert analyse("When did Zorbq 2.3.0 come out?").entities == ["Zorbq 2.3.0"]


def test_a_row_the_question_rewords_is_no_date_beside_a_when_clause() -> None:
    from openresearch.agents.write.answer import dated_clause

    q = "In Zorbq, how loud is the chime by default? And which release added wobbling, and when was that?"
    assert not dated_clause(q, "chime volume")
    assert dated_clause(q, "release date")


def test_a_day_or_week_glued_to_its_number_is_a_time() -> None:
    from openresearch.agents.extract.values import find_values

    (day,) = find_values("frob-max-age: 3d")
    assert (day.raw, day.unit, day.kind, day.quantity.value, day.quantity.unit) == ("3", "d", "time", 3.0, "days")
    (weeks,) = find_values("keep frobs for 2w")
    assert weeks.quantity.value == 14.0 and weeks.quantity.unit == "days"
    # a letter apart from its number is no unit
    assert [v.unit for v in find_values("the 3 d wobbler")] == [""]


def test_the_ends_of_a_range_are_its_least_and_its_most() -> None:
    from openresearch.agents.extract.observations import observations

    read = {(o.value, o.unit, o.condition) for o in observations(
        "Small files are kept whole, frobs are of 256 KiB to 4 MiB in size.", [], set(), "Zorbq")}
    assert ("256", "KiB", "minimum") in read and ("4", "MiB", "maximum") in read
    # a value that moved is an old value and a new one, no range
    moved = observations("The frob limit was raised from 4 MB to 8 MB.", [], set(), "Zorbq")
    assert all(o.condition in (None, "changed from 4 MB") for o in moved)


def test_an_age_compared_is_an_age() -> None:
    from openresearch.agents.extract.observations import observations

    (age,) = observations("A lease counts as lost when its stamp is older than 45 minutes.", [], set(), "Zorbq")
    assert (age.metric, age.value, age.unit) == ("age", "45", "minutes")


def test_a_bound_is_one_word_however_it_is_written() -> None:
    from openresearch.agents.extract.metric_names import answers_metric

    # a setting's "maxsize=64" (no unit) answers "maximum wobble size": a maximum and a size
    assert answers_metric("maxsize", None, "maximum wobble size")
    assert answers_metric("max_size", "", "maximum wobble size")
    # another maximum, or the other bound, does not
    assert not answers_metric("max_frobs", None, "maximum wobble size")
    assert not answers_metric("min_size", None, "maximum wobble size")


def test_default_right_before_a_setting_value_says_it_is_the_default() -> None:
    from openresearch.agents.extract.observations import observations

    for sentence in ("wobble_limit (int, in bytes) default one gigabyte - how large the wobble log may grow.",
                     "frob_cache_pages, default 4,096 pages.", "The default wobble_depth is 12."):
        (o,) = observations(sentence, [], set(), "Zorbq")
        assert o.condition == "default", sentence


def test_a_list_keeps_baselines_and_shared_work_with_their_items() -> None:
    a = analyse("What figures does Zorbq give for itself (load speed-ups over Quux, Frob and Blarg, wobble "
                "speed-ups, memory and time to parse a big frob file, install size)?")
    assert a.attributes == ["load speed-ups", "wobble speed-ups", "memory to parse a big frob file",
                            "time to parse a big frob file", "install size"]
    assert "speedup" in a.metrics  # (speed-ups are speedups)


def test_a_range_from_one_figure_to_another_is_no_change() -> None:
    from openresearch.agents.extract.observations import observations

    read = {(o.value, o.condition) for o in observations("Wobble sizes range from 256 KiB to 4 MiB.", [], set(),
                                                          "Zorbq")}
    assert read == {("256", "minimum"), ("4", "maximum")}
    (moved,) = observations("The wobble limit went from 4 MB to 8 MB in 2.0.", [], set(), "Zorbq")
    assert moved.condition == "changed from 4 MB"


def test_a_name_the_tagger_misses_is_still_the_subject_whose_figure_it_is() -> None:
    from openresearch.agents.extract.observations import observations

    # a figure of another product the page mentions is that product's, not the page's own
    read = observations("WibbleGL 4.3 was released in 2012, so Zorbq needs no newer driver.", [], set(), "Zorbq")
    assert [(o.entity, o.value) for o in read if o.metric == "released"] == [("WibbleGL", "2012")]


def test_a_date_a_release_is_planned_for_is_a_plan() -> None:
    from openresearch.agents.extract.observations import observations

    (planned,) = observations("Zorbq 2.4 is scheduled for release in March 2027.", [], set(), "Zorbq")
    assert (planned.metric, planned.condition) == ("released", "planned")
    (done,) = observations("Zorbq 2.3 was released in March 2025.", [], set(), "Zorbq")
    assert done.condition is None


def test_an_amount_as_a_clause_subject_names_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import openresearch.agents.extract.observations as obs_module
    from openresearch.agents.extract.subjects import Subject

    # the parser may take "256 KiB" for the subject of "Frobs smaller than 256 KiB are not split" (it does on some
    # sentences, and "KiB" has an inner capital): an amount names nothing, the figure stays the page's product's
    sentence = "Frobs smaller than 256 KiB are not split."
    monkeypatch.setattr(obs_module, "subject_at", lambda s, pos: Subject(19, 26, False, "256 KiB"))
    assert {o.entity for o in obs_module.observations(sentence, [], set(), "Zorbq")} == {"Zorbq"}
    monkeypatch.setattr(obs_module, "subject_at", lambda s, pos: Subject(0, 5, False, "Frobs"))
    assert {o.entity for o in obs_module.observations(sentence, [], set(), "Zorbq")} == {"Frobs"}
