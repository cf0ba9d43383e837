"""What a benchmark table's rows were measured at, and the settings a page lists with their defaults, read by the
shape of the document whatever the product: a column each entity repeats ("Pages" 10/100/1000) is a condition, not
a figure, and its 1000 no year; "Median (ms) | Min | Max" are statistics of one time; a configuration block under
"by default" and a command's help lines give defaults; a definition entry's "Default is 70." is its term's; a
report's "Generated:" line dates it. The names are made up."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.tables import table_row
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import normalise_plain
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file
from openresearch.ingest.metadata import dateline, parse_date

RESULTS = """# Site generator benchmark

**Generated:** Sun Aug 16 00:26:46 UTC 2026
**Tools:** quollgen zorbsite

## Scenario: minimal

| Tool | Pages | Median (ms) | Min | Max | Peak Mem (MB) | HTML files |
|------|-------|-------------|-----|-----|---------------|------------|
| quollgen 🏆 | 10 | 30 | 29 | 31 | 15.4 | 12 |
| quollgen | 100 | 49 | 48 | 55 | 23.7 | 102 |
| quollgen | 1000 | 283 | 244 | 363 | 81.5 | 1002 |
| zorbsite | 10 | 13 | 12 | 13 | 14.9 | 13 |
| zorbsite | 100 | 28 | 27 | 28 | 19.6 | 103 |
| zorbsite | 1000 | 1695 | 1545 | 2008 | 70.5 | 1003 |
"""

ONE_SIZE = """# Earlier run

| Tool | Pages | Median (ms) | Peak Mem (MB) | Pages not rendered |
|------|-------|-------------|---------------|--------------------|
| quollgen | 1000 | 506 | 92.5 | 0 |
| zorbsite | 1000 | 506 | 72.7 | 0 |
| wexgen | 1000 | 1586 | 76.2 | 0 |
"""

DEFAULTS = """---
title: Default Configuration
---

quollgen runs with the following configuration options by default.

<div class="note">
  <p>Paths are relative to the working directory.</p>
</div>

```yaml
# Serving
detach              : false
port                : 4000
host                : 127.0.0.1
baseurl             : "" # does not include hostname
```

An example for one language:

```toml
[languages.de.pagination]
pagerSize = 20
```

### Options

```
  -p, --port int        port on which the server will listen (default 1313)
      --renderToMemory  serve from memory
```

`summaryLength`
: (`int`) The minimum number of words returned by the summary method. Default is `70`.
"""


def _obs(path: Path, question: str | None = None) -> list[tuple[str, str, str, str | None, str]]:
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path), question)
    return [(o.entity, o.metric, str(o.value), o.unit, o.condition or "") for u in doc.units for o in u.observations]


def test_a_column_each_entity_repeats_is_a_condition_and_no_year(tmp_path: Path) -> None:
    (tmp_path / "results.md").write_text(RESULTS)
    got = _obs(tmp_path / "results.md", "How do quollgen and zorbsite compare on build time and peak memory?")
    assert ("quollgen", "median_time", "283", "ms", "1000 pages, Scenario: minimal") in got
    assert ("quollgen", "min_time", "244", "ms", "1000 pages, Scenario: minimal") in got  # the median's unit
    assert ("zorbsite", "max_time", "2008", "ms", "1000 pages, Scenario: minimal") in got  # a time, no year
    assert ("quollgen", "html_files", "1002", None, "1000 pages, Scenario: minimal") in got
    assert ("quollgen", "median_time", "30", "ms", "10 pages, Scenario: minimal") in got  # "🏆" is no part of it
    assert not any(m == "pages" or u == "year" for _, m, _, u, _ in got)


def test_a_column_with_one_value_in_every_row_is_what_all_were_measured_at(tmp_path: Path) -> None:
    (tmp_path / "earlier.md").write_text(ONE_SIZE)
    got = _obs(tmp_path / "earlier.md", "How do quollgen, zorbsite and wexgen compare on build time?")
    assert ("wexgen", "median_time", "1586", "ms", "1000 pages, Earlier run") in got  # the caption: its setup
    assert not any(m == "pages" for _, m, *_ in got)
    assert ("wexgen", "pages_not_rendered", "0", None, "1000 pages, Earlier run") in got  # none of any: a result


def test_factor_columns_need_the_same_values_for_every_entity() -> None:
    text = normalise_plain(RESULTS)
    row = table_row(text, text.index("quollgen | 1000"))
    assert row is not None and len(row.body) == 6
    from openresearch.agents.extract.tables import factor_columns

    assert factor_columns(row) == frozenset({1})  # "HTML files" differs per tool: a result, not a setting


def test_settings_listed_with_their_defaults(tmp_path: Path) -> None:
    text = normalise_plain(DEFAULTS)
    assert "port : 4000" in text.split("\n\n")
    assert "pagerSize = 20" not in text  # an example says nothing of defaults
    assert "-p, --port int port on which the server will listen (default 1313)" in text
    assert "--renderToMemory" not in text  # a help line with no default stays code
    (tmp_path / "configuration.md").write_text(DEFAULTS)
    got = _obs(tmp_path / "configuration.md", "What are quollgen's default port and summary length?")
    assert ("quollgen", "port", "4000", None, "") in got
    assert ("quollgen", "port", "1313", None, "default") in got  # the option's, not "listen"
    assert ("quollgen", "summary_length", "70", None, "default") in got
    assert not any(e == "Default" for e, *_ in got)  # a capitalised first word names nothing


def test_a_report_is_dated_by_its_dateline() -> None:
    assert dateline("# Results\n\n**Generated:** Sun Aug 16 00:26:46 UTC 2026\n**Seed:** 42\n") == date(2026, 8, 16)
    assert dateline("# Notes\n\nLast updated: 2025-03-01\n") == date(2025, 3, 1)
    assert dateline("# Notes\n\n| a | b |\n|---|---|\n\nDate: 2025-03-01\n") is None  # after a table: a value
    assert dateline("# Notes\n\nThe date: of the next release is open.\n") is None
    assert parse_date("Wed Jul  8 10:15:53 KST 2026") == date(2026, 7, 8)
    assert parse_local_file_dated(RESULTS) == date(2026, 8, 16)


def parse_local_file_dated(text: str) -> date | None:
    from openresearch.ingest.documents import parse_bytes

    return parse_bytes(text.encode(), kind="markdown", url="file:///r.md", default_kind="local").published_at


FORMATS = """# Image settings

quollgen applies these settings when it encodes images. quollgen reads them from its configuration.

## AVIF

These settings apply when encoding AVIF images.

`quality`
: (`int`) The visual fidelity. Expressed as a whole number from 1 to 100, inclusive. Default is `60`.

`encoderSpeed`
: (`int`) The encoder speed. Default is `10`.

## JPEG

These settings apply when encoding JPEG images.

`quality`
: (`int`) The visual fidelity. Expressed as a whole number from 1 to 100, inclusive. Default is `75`.
"""


def test_a_term_defined_in_two_sections_is_told_apart_by_its_section(tmp_path: Path) -> None:
    (tmp_path / "imaging.md").write_text(FORMATS)
    question = "What are quollgen's default image quality and encoder speed for AVIF and JPEG?"
    got = [(m, v, c) for e, m, v, u, c in _obs(tmp_path / "imaging.md", question) if e == "quollgen"]
    assert ("quality", "60", "default, AVIF") in got and ("quality", "75", "default, JPEG") in got
    assert ("encoder_speed", "10", "default") in got  # defined once: no section needed


def test_a_four_digit_port_is_no_year() -> None:
    from openresearch.agents.extract.values import find_values

    kinds = [(v.raw, v.kind) for v in find_values("Since 2019 it listens on port 1313 (or 127.0.0.1:1111) by default.")]
    assert kinds == [("2019", "year"), ("1313", "port"), ("1111", "port")]


def test_a_time_for_some_work_is_that_works_time_under_its_size() -> None:
    from openresearch.agents.extract.observations import observations

    def read(text: str) -> list[tuple[str, str, str | None, str | None]]:
        return [(o.metric, str(o.value), o.unit, o.condition) for o in observations(text, [], set(), "quollgen")]

    assert read("quollgen builds 1000 pages in 2 s.") == [("build_time", "2", "s", "1000 pages")]
    assert read("It parses 1 GB of JSON in 0.5 s.") == [("parse_time", "0.5", "s", "1 GB of JSON")]
    assert read("It takes 2.5 s to build 1000 pages.") == [("build_time", "2.5", "s", "1000 pages")]
    assert read("The team shipped 3 releases in 2 months.") == []  # a cadence, said in the past, is no work time


def test_how_often_is_no_ratio() -> None:
    from openresearch.agents.extract.values import find_values

    def kinds(text: str) -> list[tuple[str, str]]:
        return [(v.raw, v.kind) for v in find_values(text)]

    assert kinds("It will increment up to 10 times if a port is in use.") == [("10", "bare")]
    assert kinds("It is 10 times faster and 2.5 times the size.") == [("10", "ratio"), ("2.5", "ratio")]
