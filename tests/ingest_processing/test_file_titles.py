"""Local documents are named by their own title (front matter, first heading, <title>) or a readable file
name, never by the folder they sit in."""

from __future__ import annotations

from pathlib import Path

from openresearch.ingest.metadata import file_title, local_file_title, readable_file_name, text_title


def test_front_matter_title_wins() -> None:
    raw = "---\nslug: /guides/sizing\ntitle: 'Sizing a metrics cluster'\nweight: 3\n---\n\n# Overview\n\nText.\n"
    assert text_title(raw) == "Sizing a metrics cluster"


def test_first_level_one_heading_outside_code() -> None:
    raw = ("---\nbuild:\n  list: never\n---\n\n```sh\nstatus\n=====\n```\n\n"
           "# Retention and [downsampling](https://example.org/ds)\n\n## Terms\n")
    assert text_title(raw) == "Retention and downsampling"


def test_html_heading_in_markdown_and_html_title() -> None:
    assert text_title('<div align=center>\n<h3>Fast analytics on events</h3>\n</div>\n\n## Quick start\n') == \
        "Fast analytics on events"
    assert text_title("<html><head><title>Pricing | Acme DB</title></head></html>", html=True) == "Pricing | Acme DB"


def test_readable_file_names() -> None:
    assert readable_file_name("high-cardinality-time-series-data-performance.md") == \
        "High cardinality time series data performance"
    assert readable_file_name("2022-03-01-launch-week-recap.md") == "Launch week recap"
    assert readable_file_name("acme__metricsdb__docs_guides_understand-your-setup-size_README.md") == \
        "Understand your setup size"
    assert readable_file_name("notes.txt") == "Notes"


def test_file_title_order(tmp_path: Path) -> None:
    assert file_title("x.md", "# Real title\n\nBody.", parsed="Parsed") == "Parsed"
    assert file_title("some-file.md", "Body without heading.") == "Some file"
    f = tmp_path / "corpus" / "write-path-tuning.md"
    f.parent.mkdir()
    f.write_text("Plain text, no heading at all, about the write path.\n", encoding="utf-8")
    assert local_file_title(f) == "Write path tuning"
