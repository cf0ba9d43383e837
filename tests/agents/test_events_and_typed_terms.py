"""Questions of what a product got and when, bounds asked in other words, and the reference shapes their answers sit
in: a release's own notes titled by its version, a definition term that gives the kind of value it takes (inside a
template's substitution markers too), a default given once per case, a day written "9th of June 2025"."""

from __future__ import annotations

from pathlib import Path

from reading_fixtures import read_facts
from writing_fixtures import entry

from openresearch.agents.extract.observations import label_line
from openresearch.agents.extract.releases import release_heading
from openresearch.agents.plan.analysis import analyse
from openresearch.agents.write.answer import answer_section
from openresearch.ingest.local import parse_local_file
from openresearch.ingest.metadata import announces_release, parse_date
from openresearch.ingest.rst import rst_blocks
from openresearch.models import Plan, SubQuestion


def test_what_a_product_got_is_asked_as_events_and_its_parts_are_no_products() -> None:
    a = analyse("Putting together a timeline: when did Zorbq start verifying peers by default (first in a "
                "pre-release, then in the final 2.0), and when did Quux get the Frob plugin, initial Blarg3 support "
                "and the wibble plugin?")
    assert a.entities == ["Zorbq", "Quux"], a.entities
    assert a.attributes == ["verify peers by default introduced", "Frob plugin added", "Blarg3 support added",
                            "wibble plugin added"], a.attributes
    # (a platform's version dropped stays a platform's event)
    assert analyse("When did Zorbq drop Frob 3.8 and Frob 3.9?").attributes == [
        "Frob 3.8 support dropped", "Frob 3.9 support dropped"]


def test_upper_and_lower_limits_are_a_maximum_and_a_minimum_and_an_abbreviation_in_them_no_product() -> None:
    a = analyse("If I run Zorbq, Quux, Blarg and wibbled without tuning anything, how big is each one's cache, and "
                "what upper and lower TTL limits does each one apply to what it caches?")
    assert a.entities == ["Zorbq", "Quux", "Blarg", "wibbled"], a.entities
    assert a.attributes == ["cache size", "maximum TTL", "minimum TTL"], a.attributes


def test_keys_asked_what_they_default_to_and_a_recalled_change_are_asked() -> None:
    a = analyse("We're about to enable frob-stale on our Zorbq boxes. What do frob-stale-ttl and frob-stale-timeout "
                "default to nowadays? I also recall the frob-stale defaults were changed at some point - when was "
                "that, and which release first shipped it?")
    # (and the date of the release that shipped it)
    assert a.attributes == ["frob-stale-ttl", "frob-stale-timeout", "frob-stale defaults changed", "release date"], \
        a.attributes


def test_a_release_s_own_notes_titled_by_its_version_date_it_and_say_what_it_brought(tmp_path: Path) -> None:
    assert announces_release("Zorbq-3.7.0 Release")
    # (a page of release notes stays its publisher's statement, which a later version's notes supersede; a schedule
    # announces nothing)
    assert not announces_release("Zorbq 2.1 release notes") and not announces_release("Zorbq 3.12 release schedule")
    release = release_heading("Zorbq-3.7.0 Release")
    assert release is not None and (release.name, release.version) == ("Zorbq", "3.7.0")
    notes = tmp_path / "zorbq-3.7.0.md"
    notes.write_text('+++\ntitle = "Zorbq-3.7.0 Release"\ndate = "2025-11-05T00:00:00+00:00"\n+++\n\n'
                     "This release introduces a new Frob plugin for integrating Zorbq with Frob.\n\n## Core\n\n"
                     "* core: Add basic support for Blarg3 (https://example.org/pull/7677)\n"
                     "* plugin/wibble: Added support for per-server TLS names (https://example.org/pull/7633)\n\n"
                     "## Other\n\nStart to verify peers by default, unless a client opts out.\n",
                     encoding="utf-8")
    got = read_facts(notes, "When did Zorbq get the Frob plugin and Blarg3 support?")
    assert ("Zorbq", "release_date", "2025-11-05", "date", "3.7.0") in got, got
    assert {("Zorbq", "frob_plugin", "3.7.0", "version", "added in"),
            ("Zorbq", "blarg3", "3.7.0", "version", "added in"),
            ("Zorbq", "per_server_tls_names", "3.7.0", "version", "added in"),
            ("Zorbq", "verify_peers_by_default", "3.7.0", "version", "introduced in")} <= got, got
    # (what the question's event is keyed by is what the notes are keyed by)
    assert {"frob_plugin", "blarg3", "verify_peers_by_default"} <= set(analyse(
        "When did Zorbq start verifying peers by default, and when did it get the Frob plugin and initial "
        "Blarg3 support?").metrics)


def test_a_day_written_with_of_is_a_day() -> None:
    assert str(parse_date("9th of June 2025")) == "2025-06-09"
    release = release_heading("4.1.0-alpha2 (9th of June 2025)")
    assert release is not None and release.date == "9th of June 2025"


def test_a_term_that_gives_its_kind_of_value_heads_its_entry_and_a_default_per_case_is_one_each(
        tmp_path: Path) -> None:
    lines = ["@@MAN@zorbd.conf@frob-limit@@: *<number>*", "    The number of frobs every thread serves at once.", "",
             "``quux-timeout``: *<msec>*", "    Time in milliseconds before giving up.", "", ".. note:: x"]
    assert rst_blocks(lines)[:6] == ["frob-limit", "", "    The number of frobs every thread serves at once.", "",
                                     "quux-timeout", ""], rst_blocks(lines)
    page = tmp_path / "zorbd.conf.rst"
    page.write_text("zorbd.conf(5)\n=============\n\nOptions\n-------\n\n"
                    "@@MAN@zorbd.conf@frob-limit@@: *<number>*\n    The number of frobs every zorbd thread serves at "
                    "once.\n    Default depends on compile options.\n\n"
                    "    Default: 2048 (libfrob) / 512 (minifrob) / 24 (windows)\n\n\n"
                    "``quux-timeout``: *<msec>*\n    Time in milliseconds before giving up.\n\n    Default: 2500\n",
                    encoding="utf-8")
    got = read_facts(page, "What are zorbd's defaults for frob-limit and quux-timeout?")
    assert {("zorbd", "frob_limit", "2048", None, "libfrob, default"), ("zorbd", "frob_limit", "512", None,
                                                                        "minifrob, default"),
            ("zorbd", "frob_limit", "24", None, "windows, default"),
            ("zorbd", "quux_timeout", "2500", "milliseconds", "default")} <= got, got
    # (a line of several values without a case each is no such list)
    assert label_line("Default: 2048 / 512 / 24", [], "zorbd") is None


_DATED_LOG = "".join(
    f"{day}: A. Writer\n\t- {entry}\n\n" for day, entry in [
        ("21 May 2025", "Tag for 2.4.0rc2. This became the release of 2.4.0 on 30 May\n\t  2025. The code goes on."),
        ("8 May 2025", "Tag for 2.4.0rc1."),
        ("2 March 2025", "Fix #12: zorbq 2.3.0 leaks memory when it reloads."),
        ("12 March 2024", "Fix #11: frob-stale is not safe by default. The default value of\n\t  frob-stale-timeout "
                             "is set to 2500 as the manual advises."),
        ("17 January 2024", "Tag for 2.3.0 release. The code goes on with 2.3.1 in development."),
        ("16 October 2024", "Fix for the frob tests, which failed when the machine was slow and the clock moved."),
        ("10 October 2024", "Merge #9 from a contributor: the frob cache keeps its entries when it is reloaded, so "
                            "that a reload does not empty it."),
        ("4 October 2024", "Fix that the manual page listed an option twice, and document what the option does."),
    ])


def test_a_dated_log_dates_its_changes_by_their_day_and_its_tags_date_releases(tmp_path: Path) -> None:
    log = tmp_path / "Changelog.txt"
    log.write_text(_DATED_LOG, encoding="utf-8")
    got = read_facts(log, "When were Zorbq's frob-stale defaults changed, and which release first shipped it?")
    assert {("Zorbq", "frob_stale_timeout", "12 March 2024", "date", "default changed on"),
            ("Zorbq", "frob_stale_timeout", "2500", None, "default since 12 March 2024"),
            ("Zorbq", "release_date", "8 May 2025", "date", "2.4.0rc1"),
            ("Zorbq", "release_date", "21 May 2025", "date", "2.4.0rc2"),
            ("Zorbq", "release_date", "30 May 2025", "date", "2.4.0"),
            ("Zorbq", "release_date", "17 January 2024", "date", "2.3.0")} <= got, got
    # (a year that continues a line is no list marker: "30 May\n 2025." stays one date)
    assert "30 May 2025" in parse_local_file(log).text


def test_a_dated_log_s_changes_are_said_per_setting_with_their_value_and_the_first_releases_that_shipped_them() -> None:
    items = [
        entry(1, "The default value of frob-stale-timeout is set to 2500 as the manual advises.",
              [("frob_stale_timeout", 2500.0, "", "2500", "default since 12 March 2024"),
               ("frob_stale_timeout", 20240312.0, "date", "12 March 2024", "default changed on")]),
        entry(2, "12 March 2024: A. Writer", []),
        entry(3, "For #11, the default value of frob-stale-ttl is set to 43200 (12 hours).",
              [("frob_stale_ttl", 43200.0, "", "43200", "default since 5 April 2024"),
               ("frob_stale_ttl", 20240405.0, "date", "5 April 2024", "default changed on")]),
        entry(4, "5 April 2024: A. Writer", []),
        entry(5, "Tag for 2.4.0rc1.", [("release_date", 20250508.0, "date", "8 May 2025", "2.4.0rc1")]),
        entry(6, "8 May 2025: A. Writer", []),
        entry(7, "Tag for 2.4.0rc2. This became the release of 2.4.0 on 30 May 2025.",
              [("release_date", 20250530.0, "date", "30 May 2025", "2.4.0")]),
        entry(8, "Tag for 2.3.0 release.", [("release_date", 20240117.0, "date", "17 January 2024", "2.3.0")]),
        entry(9, "17 January 2024: A. Writer", []),
    ]
    q = "I recall the frob-stale defaults were changed at some point - when was that, and which release shipped it?"
    p = Plan(question=q, kind="overview", entities=["Zorbq"],
             attributes=["frob-stale defaults changed", "release date"], metrics=["frob_stale_defaults", "released"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["Zorbq"])])
    texts = [s.text for s in answer_section(p, {"Q-1": items}, []).sentences]
    assert texts == [
        "Frob-stale defaults changed: Zorbq frob-stale-timeout default changed on 12 March 2024 (to 2500) "
        "[E-000000000001][E-000000000002]; frob-stale-ttl default changed on 5 April 2024 (to 43200) "
        "[E-000000000003][E-000000000004].",
        # (the release before the change, 2.3.0, shipped none of it; the first pre-release after it and the first
        # final release did)
        "Release date: Zorbq 2.4.0rc1: 8 May 2025 [E-000000000005][E-000000000006]; Zorbq 2.4.0: 30 May 2025 "
        "[E-000000000007]."], texts


def test_a_version_joined_to_its_name_grounds_that_version() -> None:
    from openresearch.agents.verify.claim_text import unmatched_numbers

    assert unmatched_numbers("Zorbq added it in 3.7.0.", ["Zorbq-3.7.0 Release"]) == []
    assert unmatched_numbers("Zorbq added it in 2.0.0.", ["Zorbq-3.7.0 Release"]) != []


def test_what_came_in_a_pre_release_is_said_with_the_final_release_of_that_version() -> None:
    items = [entry(1, "Start to verify peers by default, unless a client opts out.",
                   [("verify_peers_by_default", 0.0, "version", "4.1.0-alpha2", "introduced in")]),
             entry(2, "4.1.0-alpha2", []),
             entry(3, "Released: 9th of June 2025", [("release_date", 20250609.0, "date", "9th of June 2025",
                                                      "4.1.0-alpha2")]),
             entry(4, "Released: 28th of July 2025", [("release_date", 20250728.0, "date", "28th of July 2025",
                                                       "4.1.0")]),
             entry(5, "4.1.0", [])]
    q = "When did Zorbq start verifying peers by default (first in a pre-release, then in the final 4.1.0)?"
    p = Plan(question=q, kind="overview", entities=["Zorbq"], attributes=["verify peers by default introduced"],
             metrics=["verify_peers_by_default"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["Zorbq"])])
    texts = [s.text for s in answer_section(p, {"Q-1": items}, []).sentences]
    assert texts == ["Verify peers by default introduced: Zorbq introduced in 4.1.0-alpha2 (9th of June 2025); "
                     "final 4.1.0 (28th of July 2025) [E-000000000001][E-000000000002][E-000000000003]"
                     "[E-000000000004]."], texts


def test_an_option_with_the_kind_of_value_it_takes_heads_its_fields_and_its_default(tmp_path: Path) -> None:
    lines = [".. option:: frob/size-max: <size B|K|M|G>", "", "   :default: 100M", "", "   Opens the frob store.",
             "", ".. list-table:: Releases", "   :header-rows: 1", ""]
    out = rst_blocks(lines)
    assert out[:2] == ["frob/size-max", ""] and "   default: 100M" in out, out
    assert "   :header-rows: 1" in out  # (a directive's own option is read with its directive)
    page = tmp_path / "frob.rst"
    page.write_text("Zorbq frob store\n================\n\nThe zorbq frob store keeps frobs.\n\n"
                    ".. option:: frob/size-max: <size B|K|M|G>\n\n   :default: 100M\n\n"
                    "Opens the frob store with a size limit.\n\n.. option:: frob/ttl-min: <time ms|s|m|h|d>\n\n"
                    "   :default: 5s\n\n   Lower TTL bound applied to all frobs.\n", encoding="utf-8")
    got = read_facts(page, "What are zorbq's default frob store size and lower TTL bound?")
    assert {("zorbq", "frob_size_max", "100M", None, "default"), ("zorbq", "frob_ttl_min", "5", "s", "default")} <= \
        got, got
