"""What a question asks by the measure of an adjective, a modal clause or a feature's purpose, whatever the
domain: "how loud is the X" asks its volume, "how fast does the X wobble" the speed of its wobbling, "how long can
I undo A" how long one may still, "how much memory may frobs use per page" the frobs' memory per page, "which
release added undo for closed frobs" one feature; and a lower-case product that is an ordinary word is a name
where the dates of its numbered releases are asked. The names are made up."""

from __future__ import annotations

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
    a = analyse("Which Zorbq release added undo for closed frobs, and when did it ship?")
    assert "undo for closed frobs added" in a.attributes
    assert "closed frobs" not in a.attributes


def test_an_ordinary_word_with_release_numbers_is_a_name_when_their_dates_are_asked() -> None:
    a = analyse("When were wobble 0.40 and 0.42 released, and when did Zorbq put out its 1.5.0 release?")
    assert a.entities == ["wobble", "Zorbq"]
    # a part of another thing, or a verb before a version, is none
    b = analyse("When was section 3.2 of the Zorbq spec published, and when was Zorbq 1.0 released?")
    assert b.entities == ["Zorbq"]
    c = analyse("Which release of Zorbq dropped Frob 3.8 and started requiring 3.9+, and on what date?")
    assert "requiring" not in c.entities
