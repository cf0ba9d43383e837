"""What a question asks in clauses of its own: the kinds of a quantity an aside lists, the sizes of things "how
big are" asks, events a relative clause of releases names, a name joined to an ordinary word named shorter later, a
lower-case name in "on the X side", and how old a thing is before a product counts it as something else."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.plan.analysis import analyse
from openresearch.identity import AliasResolver
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file


def _read(path: Path, question: str) -> set[tuple[str, str, str, str | None, str | None]]:
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path), question)
    return {(o.entity, o.metric, o.value, o.unit, o.condition) for u in doc.units for o in u.observations}


def test_the_kinds_an_aside_lists_and_the_sizes_how_big_asks_are_each_asked() -> None:
    a = analyse("I'm comparing zorbq, QuuxStore, Frob and Blarg for a new setup. Out of the box, what frame sizes "
                "does each one's splitter aim for (minimum/maximum and average or target size, where the docs say), "
                "and how big are the bundle or segment files each one writes to disk by default?")
    assert a.entities == ["zorbq", "QuuxStore", "Frob", "Blarg"], a.entities
    assert sorted(a.attributes) == sorted([
        "minimum frame size", "maximum frame size", "average frame size", "target frame size",
        "bundle file size", "segment file size"]), a.attributes
    # (an aside that names another quantity, or a clause, lists no kinds: the list readers read it)
    b = analyse("What frame sizes does each of Zorbq and Quux use (latency, throughput)?")
    assert "minimum frame size" not in b.attributes and "latency" in b.attributes, b.attributes


def test_events_a_relative_clause_of_releases_names_and_one_product_named_two_ways() -> None:
    a = analyse("Putting together a timeline: which ZorbBackup release first added frob compression and when was it "
                "released, and when did Zorb 1.2.0 come out? On the quux side, when did the releases that introduced "
                "the `wibble` command and the `--blarg-lock` option ship?")
    # ("Zorb" is "ZorbBackup" named shorter; "quux" is a name by its place, lower-case and all)
    assert a.entities == ["ZorbBackup", "quux"], a.entities
    assert a.attributes == ["release date", "wibble command introduced", "blarg-lock introduced",
                            "frob compression added"], a.attributes
    # (a name joined to a word of no vocabulary is another product: both stay)
    assert analyse("Compare ZorbQuux and Zorb on memory").entities == ["ZorbQuux", "Zorb"]


def test_a_settings_question_keeps_its_later_clauses() -> None:
    a = analyse("What are zorbq's defaults for the target bundle size, the number of concurrent uploads, and the "
                "amount of unused space cleanup leaves in the store, and after how long does zorbq treat a lock "
                "from another machine as stale? Also, in which release (and on what date) did zorbq start "
                "defaulting to 8 MiB bundles?")
    assert a.entities == ["zorbq"], a.entities
    assert a.attributes == ["target bundle size", "number of concurrent uploads", "amount of unused space",
                            "default to 8 MiB bundles introduced", "stale lock age"], a.attributes


def test_a_change_log_entry_that_is_its_verb_and_what_it_brought_dates_that_thing() -> None:
    from openresearch.agents.extract.releases import Release, change_log_notes, release_heading

    release = Release(None, "1.4.2", "2021-03-04", 0)

    def notes(entry: str) -> list[tuple[str, str, str | None]]:
        return [(o.metric, o.value, o.condition) for o in change_log_notes(entry, release, "Zorb") or []]

    assert notes("added frob compression. try it!") == [("frob_compression", "1.4.2", "added in")]
    assert notes("Enh #14: Implement `wibble` command") == [("wibble_command", "1.4.2", "added in")]
    assert notes("Enh #719: Add `--blarg-lock` option") == [("blarg_lock", "1.4.2", "added in")]
    # (a key it adds is named once; an entry that goes on past a few words names nothing brought)
    assert notes("added ZORB_BASE_DIR environment variable, #3338") == [("zorb_base_dir", "1.4.2", "added in")]
    assert notes("added placeholder {reverse} for names in reverse notation") == []
    assert notes("prune: fix building the man page, #3398") == []
    # and the question's words meet the entry's: the same event
    from openresearch.agents.plan.attributes import metric_key

    assert metric_key("frob compression added") == "frob_compression"
    assert metric_key("wibble command introduced") == "wibble_command"
    # a heading that writes a time of day after the day, or "Changelog for" before the name
    heading = release_heading("Version 1.2.0 (2022-02-22 22:02:22 :-)")
    assert heading is not None and (heading.version, heading.date) == ("1.2.0", "2022-02-22")
    heading = release_heading("Changelog for zorb 0.15.0 (2023-01-12)")
    assert heading is not None and (heading.name, heading.version, heading.date) == ("zorb", "0.15.0", "2023-01-12")


def test_a_release_s_long_details_hold_for_it_and_the_entry_that_brought_what_is_asked_is_read(tmp_path: Path) -> None:
    # a summary, then each entry's details, far longer than a heading's reach: the details are still the release's
    filler = "".join(f" * Bugfix #{n}: Fix the frobnication of blarg number {n}\n\n   Some words about the fix "
                     f"that explain what went wrong before and how it is handled now in detail.\n\n"
                     for n in range(120))
    log = tmp_path / "CHANGELOG.md"
    log.write_text("# Changelog for zorbq 0.16.0 (2023-07-31)\n\n## Summary\n\n * Enh #719: Add `--blarg-lock` "
                   "option\n\n## Details\n\n" + filler + " * Enhancement #14: Implement `wibble` command\n\n"
                   "   Zorbq now has a wibble command.\n\n"
                   "# Changelog for zorbq 0.15.0 (2023-01-12)\n\n * Fix #1: Make frob work\n", encoding="utf-8")
    question = "When did the zorbq releases that introduced the `wibble` command and the `--blarg-lock` option ship?"
    got = _read(log, question)
    assert ("zorbq", "wibble_command", "0.16.0", "version", "added in") in got, got
    assert ("zorbq", "blarg_lock", "0.16.0", "version", "added in") in got, got


def test_a_chain_of_equals_names_the_value_it_ends_with() -> None:
    from openresearch.agents.extract.values import find_values

    # (a power is no figure as written; "kiB" is a size)
    assert [(v.raw, v.unit) for v in find_values("minimum frame size = 2^19 B = 512 kiB")] == [("512", "kiB")]
    assert find_values("an XOR of 2**20 bytes") == []
    text = "- FRAME_MIN_EXP = 19 (minimum frame size = 2^19 B = 512 kiB)\n" \
           "- FRAME_MAX_EXP = 23 (maximum frame size = 2^23 B = 8 MiB)\n" \
           "- MASK_BITS = 21 (target frame size ~= 2^21 B = 2 MiB)\n"
    from openresearch.agents.extract.observations import observations

    got = {(o.metric, o.value, o.unit) for line in text.splitlines() for o in observations(line, [], set(), "Zorbq")}
    assert {("min_frame_size", "512", "kiB"), ("max_frame_size", "8", "MiB"),
            ("target_frame_size", "2", "MiB")} <= got, got


def test_a_list_the_defaults_lead_holds_defaults_and_a_long_option_heads_its_entry(tmp_path: Path) -> None:
    doc = tmp_path / "internals.rst"
    doc.write_text("Framing\n=======\n\n``zorbq create --framer-params FRAME_MIN_EXP,FRAME_MAX_EXP`` can be used to "
                   "tune the framer, the default is:\n\n"
                   "- FRAME_MIN_EXP = 19 (minimum frame size = 2^19 B = 512 kiB)\n"
                   "- FRAME_MAX_EXP = 23 (maximum frame size = 2^23 B = 8 MiB)\n\n"
                   "Another framer takes these, the usual values are:\n\n"
                   "- FRAME_MIN_EXP = 16 (minimum frame size = 2^16 B = 64 kiB)\n\n"
                   "Pruning\n=======\n\n"
                   "-  ``--max-stale limit`` allow stale data up to the specified limit.\n\n"
                   "   The limit can be given as an absolute size or relative to the store.\n\n"
                   "   Zorbq keeps as little stale data as possible. The default value is 5%.\n\n"
                   "-  ``--max-frob size`` if set limits the frobs.\n", encoding="utf-8")
    got = _read(doc, "What minimum and maximum frame sizes does zorbq use by default, and how much stale data does "
                     "it leave by default?")
    assert ("zorbq", "min_frame_size", "512", "kiB", "default") in got, got
    assert ("zorbq", "max_frame_size", "8", "MiB", "default") in got, got
    # (the usual values of another framer are no defaults; a long option's lower-case argument and description
    # after it are its entry, the default below them its own)
    assert not any(o[1] == "min_frame_size" and o[2] == "64" and o[4] == "default" for o in got), got
    assert ("zorbq", "max_stale", "5", "%", "default") in got, got
