"""Change logs read by their release headings, whatever their shape or product: each dated heading is the date of
its release, of the product the headings name; dates written with slashes or a month name between hyphens are
dates; character references in Markdown are the characters they stand for; a question for the dates of releases
asks for release dates of each product it lists. The names are made up."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.releases import dated_release, heading_name, release_heading
from openresearch.agents.extract.values import find_values
from openresearch.agents.plan.analysis import analyse
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import normalise_plain
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file

CHANGELOG = """# Changelog

All notable changes to this project are documented in this file.

## Release v1.19.0 - 2025/07/30

### Features

- Added a disk buffer with 450&nbsp;KB pages.

## Release v1.18.2 - 2025/06/02

### Fixes

- Fixed a crash when the sink restarts.

## [1.18.0] - 2025-04-11

- Raised the maximum line length to 32 KiB.

## 1.17.0 (4/8/2025)

- A date that reads two ways dates nothing.
"""

NEWS = """Changes with zorbd 1.27.2                                        07 Aug 2024

    *) Bugfix: a segmentation fault might occur in a worker process.

Changes with zorbd 1.27.1                                        29 May 2024

    *) Feature: the keepalive directive now defaults to 1h.
"""


def _obs(path: Path, question: str | None = None) -> list[tuple[str, str, str, str | None, str]]:
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path), question)
    return [(o.entity, o.metric, str(o.value), o.unit, o.condition or "") for u in doc.units for o in u.observations]


def test_dates_with_slashes_and_month_names_between_hyphens() -> None:
    def read(text: str) -> list[tuple[str, str, float]]:
        return [(v.raw, v.kind, v.quantity.value) for v in find_values(text)]

    assert read("published 2025/07/30 here") == [("2025/07/30", "date", 20250730)]
    assert read("published 11/17/2016 here") == [("11/17/2016", "date", 20161117)]
    assert read("published 17/11/2016 here") == [("17/11/2016", "date", 20161117)]
    assert read("Version 10.44 07-June-2024") == [("07-June-2024", "date", 20240607)]
    # the 3rd of April or the 4th of March: only the year is certain, and neither part is a value of its own
    assert read("published 03/04/2020 here") == [("03/04/2020", "year", 2020)]


def test_character_references_are_their_characters() -> None:
    text = normalise_plain("Memory stays under 450&nbsp;KB &amp; answers in &lt;1 ms.\n\n"
                           "See /q?a=1&copy=2 for &#8805; 2 runs.\n")
    assert "450 KB & answers in <1 ms." in text
    assert "/q?a=1&copy=2" in text and "≥ 2 runs" in text  # no semicolon, no reference
    assert find_values("under 450\u00a0KB")[0].unit == "KB"


def test_release_heading_shapes() -> None:
    r = release_heading("Changes with zorbd 1.27.2                 07 Aug 2024")
    assert r is not None and (r.name, r.version, r.date) == ("zorbd", "1.27.2", "07 Aug 2024")
    r = release_heading("2026/08/21 : 3.5-dev5")
    assert r is not None and (r.name, r.version, r.date) == (None, "3.5-dev5", "2026/08/21")
    r = release_heading("Release v1.19.0 - 2025/07/30")
    assert r is not None and (r.name, r.version) == (None, "v1.19.0")  # "Release" names no product
    assert dated_release("1.17.0 (4/8/2025)") is None  # the 4th of August or the 8th of April
    assert dated_release("0.28.2") is None and release_heading("0.28.2") is not None  # a release, undated
    assert release_heading("Bug fixes and improvements") is None
    r = release_heading("3.5.0 / 2017-06-18")  # a slash between the version and its date
    assert r is not None and (r.version, r.date) == ("3.5.0", "2017-06-18")


def test_a_change_log_dates_each_release_of_its_product(tmp_path: Path) -> None:
    (tmp_path / "CHANGELOG.md").write_text(CHANGELOG)
    got = _obs(tmp_path / "CHANGELOG.md", "When were the quollship releases published?")
    dates = [(e, v, c) for e, m, v, u, c in got if m == "release_date"]
    assert dates == [("quollship", "2025/07/30", "v1.19.0"), ("quollship", "2025/06/02", "v1.18.2"),
                     ("quollship", "2025-04-11", "1.18.0")]
    assert ("quollship", "storage", "450", "KB", "Release v1.19.0 - 2025/07/30") in got  # the entity decoded


def test_a_news_file_is_about_the_product_its_headings_name(tmp_path: Path) -> None:
    assert heading_name(normalise_plain(NEWS)) == "zorbd"
    (tmp_path / "NEWS").write_text(NEWS)
    # asked about another product: the file still dates zorbd's releases, and its entries are zorbd's
    got = _obs(tmp_path / "NEWS", "When were the quollship releases published?")
    assert [(e, m, v, c) for e, m, v, u, c in got if m == "release_date"] == [
        ("zorbd", "release_date", "07 Aug 2024", "1.27.2"),
        ("zorbd", "release_date", "29 May 2024", "1.27.1")]  # no heading is another's condition
    assert {e for e, *_ in got} == {"zorbd"}


def test_a_question_for_release_dates() -> None:
    a = analyse("When were the quollship releases published?")
    assert (a.kind, a.entities, a.attributes) == ("lookup", ["quollship"], ["release date"])
    a = analyse("When were the releases of quollship published?")
    assert (a.entities, a.attributes) == (["quollship"], ["release date"])
    a = analyse("When were the recent quollship (1.2 to 1.4), zorbd and Frobz (v3.0, v3.1) releases published?")
    assert (a.kind, a.entities, a.attributes) == ("comparison", ["quollship", "zorbd", "Frobz"], ["release date"])
    a = analyse("quollship 和 zorbd 什么时候发布的？")
    assert a.entities == ["quollship", "zorbd"] and a.attributes[0] == "release date"
    assert analyse("When was the Eiffel Tower built?").attributes == ["built"]  # no release, no release date
