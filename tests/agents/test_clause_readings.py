"""Readings of questions and change logs beside test_question_clauses: the kinds of a quantity an aside lists, the
sizes "how big are" asks, events a relative clause of releases names, a name joined to an ordinary word named shorter,
a lower-case name "on the X side", how old a thing is before it counts as something else; change-log entries that are
their verb and a few words, chains of equals, and lists that a "the default is:" lead opens."""

from __future__ import annotations

from pathlib import Path

from reading_fixtures import read_facts

from openresearch.agents.plan.analysis import analyse


def test_the_kinds_an_aside_lists_and_the_sizes_how_big_asks_are_each_asked() -> None:
    a = analyse("We are comparing zorbq, QuuxStore, Frob and Blarg. What frame sizes does each one's splitter "
                "produce (minimum/maximum and median size, if documented), and how big are the bundle or segment "
                "files each one writes to disk?")
    assert a.entities == ["zorbq", "QuuxStore", "Frob", "Blarg"], a.entities
    assert sorted(a.attributes) == sorted([
        "minimum frame size", "maximum frame size", "median frame size", "bundle file size", "segment file size"]), \
        a.attributes
    # (an aside that names another quantity, or a clause, lists no kinds: the list readers read it)
    b = analyse("What frame sizes does each of Zorbq and Quux use (latency, throughput)?")
    assert "minimum frame size" not in b.attributes and "latency" in b.attributes, b.attributes


def test_events_a_relative_clause_of_releases_names_and_one_product_named_two_ways() -> None:
    a = analyse("For a history page: which ZorbBackup version first added frob compression and when was it out, and "
                "when did Zorb 3.1.0 appear? And on the quux side, when did the versions that introduced the `wibble` "
                "command and the `--blarg-lock` option land?")
    # ("Zorb" is "ZorbBackup" named shorter; "quux" is a name by its place, lower-case and all)
    assert a.entities == ["ZorbBackup", "quux"], a.entities
    assert a.attributes == ["release date", "wibble command introduced", "blarg-lock introduced",
                            "frob compression added"], a.attributes
    # (a name joined to a word of no vocabulary is another product: both stay)
    assert analyse("Compare ZorbQuux and Zorb on memory").entities == ["ZorbQuux", "Zorb"]


def test_a_settings_question_keeps_its_later_clauses() -> None:
    a = analyse("What are zorbq's defaults for the bundle size limit, the number of parallel uploads, and the amount "
                "of free space compaction keeps in the archive, and after how long does zorbq count a lease held "
                "elsewhere as expired? Also, in which version did zorbq start defaulting to 32 MiB bundles?")
    assert a.entities == ["zorbq"], a.entities
    assert a.attributes == ["bundle size limit", "number of parallel uploads", "amount of free space",
                            "bundle default changed", "expired lease age"], a.attributes


def test_a_change_log_entry_that_is_its_verb_and_what_it_brought_dates_that_thing() -> None:
    from openresearch.agents.extract.releases import Release, change_log_notes, release_heading

    release = Release(None, "1.4.2", "2021-03-04", 0)

    def notes(entry: str) -> list[tuple[str, str, str | None]]:
        return [(o.metric, o.value, o.condition) for o in change_log_notes(entry, release, "Zorb") or []]

    assert notes("added frob compression.") == [("frob_compression", "1.4.2", "added in")]
    # (a default the release began: "start defaulting to 4 MiB frames" asks the frames' default changed)
    assert notes("Zorb now uses a target frame size of 4 MiB by default.") == [
        ("target_frame_size", "1.4.2", "default changed in"), ("target_frame_size", "4", "default since 1.4.2")]
    assert analyse("In which release did Zorb start defaulting to 4 MiB frames?").attributes == [
        "frame default changed"]
    assert notes("Enh #31: Implement `wibble` command") == [("wibble_command", "1.4.2", "added in")]
    assert notes("Enh #250: Add `--blarg-lock` option") == [("blarg_lock", "1.4.2", "added in")]
    # (a key it adds is named once; an entry that goes on past a few words names nothing brought)
    assert notes("added ZORB_HOME_DIR environment variable, #4021") == [("zorb_home_dir", "1.4.2", "added in")]
    assert notes("added a switch {flip} for names in upper case") == []
    assert notes("compact: fix the help page, #4102") == []
    # and the question's words meet the entry's: the same event
    from openresearch.agents.plan.attributes import metric_key

    assert metric_key("frob compression added") == "frob_compression"
    assert metric_key("wibble command introduced") == "wibble_command"
    # a heading that writes a time of day after the day, or "Changelog for" before the name
    heading = release_heading("Version 3.4.0 (2024-05-06 11:12:13 :-)")
    assert heading is not None and (heading.version, heading.date) == ("3.4.0", "2024-05-06")
    heading = release_heading("Changelog for zorb 0.21.0 (2024-03-09)")
    assert heading is not None and (heading.name, heading.version, heading.date) == ("zorb", "0.21.0", "2024-03-09")


def test_a_release_s_long_details_hold_for_it_and_the_entry_that_brought_what_is_asked_is_read(tmp_path: Path) -> None:
    # a summary, then each entry's details, far longer than a heading's reach: the details are still the release's
    filler = "".join(f" * Bugfix #{n}: Fix the frobnication of blarg number {n}\n\n   Some words about the fix "
                     f"that explain what went wrong before and how it is handled now in detail.\n\n"
                     for n in range(120))
    log = tmp_path / "CHANGELOG.md"
    log.write_text("# Changelog for zorbq 0.22.0 (2024-06-30)\n\n## Summary\n\n * Enh #250: Add `--blarg-lock` "
                   "option\n\n## Details\n\n" + filler + " * Enhancement #31: Implement `wibble` command\n\n"
                   "   Zorbq now has a wibble command.\n\n"
                   "# Changelog for zorbq 0.21.0 (2024-03-09)\n\n * Fix #1: Make frob work\n", encoding="utf-8")
    question = "When did the zorbq releases that introduced the `wibble` command and the `--blarg-lock` option ship?"
    got = read_facts(log, question)
    assert ("zorbq", "wibble_command", "0.22.0", "version", "added in") in got, got
    assert ("zorbq", "blarg_lock", "0.22.0", "version", "added in") in got, got


def test_a_chain_of_equals_names_the_value_it_ends_with() -> None:
    from openresearch.agents.extract.values import find_values

    # (a power is no figure as written; "kiB" is a size)
    assert [(v.raw, v.unit) for v in find_values("minimum frame size = 2^17 B = 128 kiB")] == [("128", "kiB")]
    assert find_values("an XOR of 2**18 bytes") == []
    text = "- FRAME_MIN_EXP = 17 (minimum frame size = 2^17 B = 128 kiB)\n" \
           "- FRAME_MAX_EXP = 22 (maximum frame size = 2^22 B = 4 MiB)\n" \
           "- MASK_BITS = 20 (target frame size ~= 2^20 B = 1 MiB)\n"
    from openresearch.agents.extract.observations import observations

    got = {(o.metric, o.value, o.unit) for line in text.splitlines() for o in observations(line, [], set(), "Zorbq")}
    assert {("min_frame_size", "128", "kiB"), ("max_frame_size", "4", "MiB"),
            ("target_frame_size", "1", "MiB")} <= got, got


def test_a_list_the_defaults_lead_holds_defaults_and_a_long_option_heads_its_entry(tmp_path: Path) -> None:
    doc = tmp_path / "internals.rst"
    doc.write_text("Framing\n=======\n\n``zorbq create --framer-params FRAME_MIN_EXP,FRAME_MAX_EXP`` can be used to "
                   "tune the framer, the default is:\n\n"
                   "- FRAME_MIN_EXP = 17 (minimum frame size = 2^17 B = 128 kiB)\n"
                   "- FRAME_MAX_EXP = 22 (maximum frame size = 2^22 B = 4 MiB)\n\n"
                   "Another framer takes these, the usual values are:\n\n"
                   "- FRAME_MIN_EXP = 15 (minimum frame size = 2^15 B = 32 kiB)\n\n"
                   "Compaction\n==========\n\n"
                   "-  ``--max-spare amount`` keep spare room up to the given amount.\n\n"
                   "   The amount can be given as an absolute size or relative to the store.\n\n"
                   "   Zorbq keeps as little spare room as it can. The default value is 12%.\n\n"
                   "-  ``--max-frob size`` if set limits the frobs.\n", encoding="utf-8")
    got = read_facts(doc, "What minimum and maximum frame sizes does zorbq use by default, and how much spare room "
                          "does it keep by default?")
    assert ("zorbq", "min_frame_size", "128", "kiB", "default") in got, got
    assert ("zorbq", "max_frame_size", "4", "MiB", "default") in got, got
    # (the usual values of another framer are no defaults; a long option's lower-case argument and description
    # after it are its entry, the default below them its own)
    assert not any(o[1] == "min_frame_size" and o[2] == "32" and o[4] == "default" for o in got), got
    assert ("zorbq", "max_spare", "12", "%", "default") in got, got
