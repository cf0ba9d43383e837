"""Change-log entries read as what they are: a setting named by code changed from an old value to a new one,
under the release heading (and its date) above the entry, however the release's own sub-headings divide it.
Every name here is one no lexicon of the package lists."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import parse_bytes
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file

LOG = """# Quillstore Change Log

Quillstore keeps a log of every release. Quillstore is a small embedded store.

## 8.7.0 (2023-09-22)
### Public API Changes
* Changed the default value of `Options::compaction_readahead_size` from 0 to 2MB.
* `write_buffer_size` default changed from 4MB to 64MB.
* Added a new option `max_open_files`, default 1000.
* Increase default options.delayed_write_rate to 2MB/s.

## 8.6.0 (2023-08-18)
### Behavior Changes
* The default page size is now 16KB (was 4KB).
* Fixed a crash in `open_store()` when 3 readers race.
"""


@lru_cache(maxsize=1)
def _observations() -> tuple[tuple[str, str, str, str, str], ...]:
    src = parse_bytes(LOG.encode(), kind="text", url="local://t/CHANGELOG.md", default_kind="local")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), src,
                        "Which Quillstore versions changed its default sizes?")
    return tuple((o.entity, o.metric, str(o.value), o.unit or "", o.condition or "") for u in doc.units
                 for o in u.observations)


def test_a_setting_named_by_code_is_the_metric_and_its_old_value_is_a_condition() -> None:
    got = {(m, v, u): c for e, m, v, u, c in _observations() if e == "Quillstore"}
    assert ("compaction_readahead_size", "2", "MB") in got
    assert "changed from 0" in got[("compaction_readahead_size", "2", "MB")]
    assert "changed from 4MB" in got[("write_buffer_size", "64", "MB")]
    assert ("max_open_files", "1000", "") in got  # a four-digit default is no year
    assert ("delayed_write_rate", "2", "MB/s") in got  # a rate a setting is set to is the setting's
    # the old value is never a figure of its own
    assert not any(v in ("0", "4") for _, v, _ in got)


def test_an_entry_holds_for_the_release_above_its_sub_heading() -> None:
    got = {(m, v): c for _, m, v, _, c in _observations()}
    assert "8.7.0 (2023-09-22)" in got[("write_buffer_size", "64")]
    # "The default page size is now 16KB": the clause says what the size is of
    assert "8.6.0 (2023-08-18)" in got[("page_size", "16")] and "was 4KB" in got[("page_size", "16")]
    # a call is a function, not a setting; the count of readers is no figure of it
    assert not any(m.startswith("open_store") for m, _ in got)


def test_release_headings_dated_with_slashes_hold_their_entries() -> None:
    text = """# Quillstore default options

## 5.0 (11/17/2016)
* Options.stop_trigger default value changes from 24 to 32.

## 4.7.0 (4/8/2016)
* options.buffer_size changes from 4MB to 64MB.
"""
    src = parse_bytes(text.encode(), kind="text", url="local://t/HISTORY.md", default_kind="local")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), src,
                        "How have Quillstore's default options changed?")
    got = {(o.metric, str(o.value)): o.condition or "" for u in doc.units for o in u.observations}
    assert "4.7.0 (4/8/2016)" in got[("buffer_size", "64")]
    assert "5.0 (11/17/2016)" in got[("stop_trigger", "32")] and "changed from 24" in got[("stop_trigger", "32")]


def test_news_headings_with_version_words_and_day_month_dates_hold_their_entries() -> None:
    text = """Quillstore NEWS

Version 10.44 07-June-2024

1. The default page size is now 64KB.

Changes in version 10.42 (released 2022-12-11)

2. The maximum nesting depth is 250.
"""
    src = parse_bytes(text.encode(), kind="text", url="local://t/NEWS", default_kind="local")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), src,
                        "Which Quillstore releases changed its limits?")
    got = {(o.metric, str(o.value)): o.condition or "" for u in doc.units for o in u.observations}
    assert "Version 10.44 07-June-2024" in got[("page_size", "64")]
    assert "Changes in version 10.42 (released 2022-12-11)" in got[("max_nesting_depth", "250")]


def test_gnu_news_and_branch_headings_hold_their_entries() -> None:
    text = """Quillstore NEWS

* Noteworthy changes in release 3.8.4 (2024-03-18) [stable]

** The default page size is now 64KB.

= Quill Store 3.6.0 branch released 2024-03-28

The maximum nesting depth is 250.
"""
    src = parse_bytes(text.encode(), kind="text", url="local://t/NEWS", default_kind="local")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), src,
                        "Which Quillstore releases changed its limits?")
    got = {(o.metric, str(o.value)): o.condition or "" for u in doc.units for o in u.observations}
    assert "3.8.4" in got[("page_size", "64")], got
    assert "3.6.0" in got[("max_nesting_depth", "250")], got


RELEASE_NOTES = """What's New in Zorbq 1.4
=======================

What's new in Zorbq 1.4.0?
--------------------------
Release date: 2014-11-23

* Change default max-size to 100 rather than 80

* Added frob-limit to allow distinguishing the two kinds of frobs.

* Fixed a crash in the loader when 3 readers race.
"""


def test_a_release_notes_entries_are_notes_of_the_release_and_its_date_line_dates_it(tmp_path: Path) -> None:
    # "Change default max-size to 100 rather than 80" is a list item's sentence (no title: it opens with no capital
    # word after the first and states a figure); it and "Added frob-limit to ..." are notes of release 1.4.0, whose
    # "Release date:" line dates it
    path = tmp_path / "whatsnew-1.4.rst"
    path.write_text(RELEASE_NOTES, encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path),
                        "In which Zorbq release was frob-limit added, and when was the default max-size changed?")
    got = {(o.metric, o.value, o.condition) for u in doc.units for o in u.observations}
    assert {("max_size", "1.4.0", "default changed in"), ("max_size", "100", "default since 1.4.0"),
            ("frob_limit", "1.4.0", "added in"), ("release_date", "2014-11-23", "1.4.0")} <= got, got
    assert not any(m == "max_size" and v == "80" for m, v, _ in got)  # the old value is no figure of its own


def test_the_notes_of_one_release_are_a_change_log_and_a_platforms_version_is_no_release_asked() -> None:
    from openresearch.agents.extract.extractor import _is_change_log
    from openresearch.agents.extract.releases import releases_asked_of

    assert _is_change_log("7.3.0 -- 2025-06-20\n\nNew Dependency Information\n\nAdded support for frob 3.14.")
    assert not _is_change_log("Zorbq\n\nZorbq 7.3.0 -- 2025-06-20 is out.\n\nIt adds support for frob 3.14.")
    q = ("When were Zorbq 7.0.0 and 7.3.0 released, and when were quux 2.11.0 and 2.14.0 released? Which release "
         "of each added Frob 3.14 support, and what does the Frob-3.14-capable Zorbq release require?")
    assert [a.written for a in releases_asked_of(q, "quux", ["Zorbq", "quux"])] == ["2.11.0", "2.14.0"]
    assert [a.written for a in releases_asked_of(q, "Zorbq", ["Zorbq", "quux"])] == ["7.0.0", "7.3.0"]
