"""Questions of what a product got and when, bounds asked in other words, and the reference shapes their answers sit
in: a release's own notes titled by its version, a definition term that gives the kind of value it takes (inside a
template's substitution markers too), a default given once per case, a day written "9th of July 2025"."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.observations import label_line
from openresearch.agents.extract.releases import release_heading
from openresearch.agents.plan.analysis import analyse
from openresearch.identity import AliasResolver
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file
from openresearch.ingest.metadata import announces_release, parse_date
from openresearch.ingest.rst import rst_blocks


def _read(path: Path, question: str) -> set[tuple[str, str, str, str | None, str | None]]:
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path), question)
    return {(o.entity, o.metric, o.value, o.unit, o.condition) for u in doc.units for o in u.observations}


def test_what_a_product_got_is_asked_as_events_and_its_parts_are_no_products() -> None:
    a = analyse("Putting together a timeline: when did Zorbq start listening on port 8080 by default (first in a "
                "pre-release, then in the final 2.0), and when did Quux get the Frob plugin, initial Blarg3 support "
                "and the wibble plugin?")
    assert a.entities == ["Zorbq", "Quux"], a.entities
    assert a.attributes == ["listen on port 8080 by default introduced", "Frob plugin added", "Blarg3 support added",
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
    assert announces_release("Zorbq-1.13.0 Release") and announces_release("Zorbq 2.1 release notes")
    assert not announces_release("Zorbq 3.12 release schedule")
    release = release_heading("Zorbq-1.13.0 Release")
    assert release is not None and (release.name, release.version) == ("Zorbq", "1.13.0")
    notes = tmp_path / "zorbq-1.13.0.md"
    notes.write_text('+++\ntitle = "Zorbq-1.13.0 Release"\ndate = "2025-10-05T00:00:00+00:00"\n+++\n\n'
                     "This release introduces a new Frob plugin for integrating Zorbq with Frob.\n\n## Core\n\n"
                     "* core: Add basic support for Blarg3 (https://example.org/pull/7677)\n"
                     "* plugin/wibble: Added support for per-server TLS names (https://example.org/pull/7633)\n\n"
                     "## Other\n\nStart to listen on port 8080 by default, but don't fail when that fails.\n",
                     encoding="utf-8")
    got = _read(notes, "When did Zorbq get the Frob plugin and Blarg3 support?")
    assert ("Zorbq", "release_date", "2025-10-05", "date", "1.13.0") in got, got
    assert {("Zorbq", "frob_plugin", "1.13.0", "version", "added in"),
            ("Zorbq", "blarg3_support", "1.13.0", "version", "added in"),
            ("Zorbq", "per_server_tls_names_support", "1.13.0", "version", "added in"),
            ("Zorbq", "listen_on_port_8080_by_default", "1.13.0", "version", "introduced in")} <= got, got
    # (what the question's event is keyed by is what the notes are keyed by)
    assert {"frob_plugin", "blarg3_support", "listen_on_port_8080_by_default"} <= set(analyse(
        "When did Zorbq start listening on port 8080 by default, and when did it get the Frob plugin and initial "
        "Blarg3 support?").metrics)


def test_a_day_written_with_of_is_a_day() -> None:
    assert str(parse_date("9th of July 2025")) == "2025-07-09"
    release = release_heading("5.3.0-alpha2 (9th of July 2025)")
    assert release is not None and release.date == "9th of July 2025"


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
                    "``quux-timeout``: *<msec>*\n    Time in milliseconds before giving up.\n\n    Default: 1800\n",
                    encoding="utf-8")
    got = _read(page, "What are zorbd's defaults for frob-limit and quux-timeout?")
    assert {("zorbd", "frob_limit", "2048", None, "libfrob, default"), ("zorbd", "frob_limit", "512", None,
                                                                        "minifrob, default"),
            ("zorbd", "frob_limit", "24", None, "windows, default"),
            ("zorbd", "quux_timeout", "1800", "milliseconds", "default")} <= got, got
    # (a line of several values without a case each is no such list)
    assert label_line("Default: 2048 / 512 / 24", [], "zorbd") is None
