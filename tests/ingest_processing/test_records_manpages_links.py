"""Structures a document keeps its facts in besides prose: records in YAML front matter (a data page's table),
manual pages (roff), and link reference definitions (where links go, no text). Made-up names throughout."""

from __future__ import annotations

from pathlib import Path

import pytest

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.errors import NotADocument
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import normalise_plain, parse_bytes, parse_file
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.front_matter import record_tables
from openresearch.ingest.manpage import man_to_markdown

PAGE = """---
title: Zorbly
category: lang
alternate_urls:
  - /zorbly-lang
identifiers:
  - purl: pkg:generic/zorbly
  - cpe: cpe:2.3:a:zorbly:zorbly
releases:
  - releaseCycle: "3.10"
    releaseDate: 2023-10-02
    eol: 2028-10-31
    latestReleaseDate: 2026-08-12
  - releaseCycle: "26"
    releaseDate: 2026-05-05
    lts: 2026-10-28
    eol: 2029-04-30
    latestReleaseDate: 2026-08-05
---

Zorbly is a language for small scripts.
"""


def _read(text: str, name: str, question: str, kind: str = "text") -> list[tuple[str, str, str, str, str]]:
    src = parse_bytes(text.encode(), kind=kind, url=f"local://t/{name}", default_kind="local")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), src, question)
    return [(o.entity, o.metric, str(o.value), o.unit or "", o.condition or "") for u in doc.units
            for o in u.observations]


def test_front_matter_records_are_a_table_of_their_keys() -> None:
    md = record_tables(PAGE.split("---\n")[1])
    lines = md.splitlines()
    assert lines[0] == "## Releases"
    # columns in the order keys first appear, as words; values as written ("3.10" stays "3.10")
    assert lines[2] == "| release cycle | release date | eol | latest release date | lts |"
    assert lines[4] == "| 3.10 | 2023-10-02 | 2028-10-31 | 2026-08-12 |  |"
    # one-field records (identifiers) and plain lists are no table; the rest of the front matter is no text
    assert "purl" not in md and "zorbly-lang" not in md and "category" not in md
    assert record_tables("just: [unclosed") == "" and record_tables("- a\n- b") == ""


def test_each_record_is_a_row_of_its_release_with_one_metric_per_column() -> None:
    got = _read(PAGE, "zorbly.md", "When does Zorbly 3.10 reach its end of life?")
    rows = {(e, m): v for e, m, v, _, _ in got}
    assert rows[("Zorbly 3.10", "eol")] == "2028-10-31"
    # a bare number under a release column is a release of the page's subject too
    assert rows[("Zorbly 26", "eol")] == "2029-04-30"
    # "release date" and "latest release date" are two quantities, never one with two values
    release = [m for (e, m) in rows if e == "Zorbly 3.10" and rows[(e, m)] in ("2023-10-02", "2026-08-12")]
    assert len(set(release)) == 2, release
    assert "Zorbly is a language" in parse_bytes(PAGE.encode(), kind="text", url="local://t/z.md").text


MAN = r""".\" a comment that is no text
.TH QUILLRE 3 "07 June 2024" "Quillre 10.44" "Quillre Manual"
.SH NAME
quillre \- a pattern library
.SH "SIZE LIMITS"
.sp
The maximum length of a pattern is
.B 65539
code units, and the maximum nesting depth is
.BR 250 .
.TP
.B \-\-max\-depth=\fIn\fP
Sets the maximum depth (default 250).
.SH EXAMPLE
.nf
  quillre_compile(p, 0);
.fi
.TS
l l.
Mode	Speed
interpreted	120 MB/s
.TE
"""


def test_a_man_page_reads_as_headings_entries_and_tables() -> None:
    title, md = man_to_markdown(MAN)
    assert title == "QUILLRE(3)"
    assert "# SIZE LIMITS" in md and "comment" not in md
    assert "- --max-depth=n:" in md  # a .TP entry is one list item, its tag first
    assert "```\n  quillre_compile(p, 0);\n```" in md  # no-fill text is code, fenced
    assert "| Mode | Speed |" in md and "| interpreted | 120 MB/s |" in md


def test_a_man_page_file_is_read_and_its_limits_are_figures(tmp_path: Path) -> None:
    (tmp_path / "quillre.3").write_text(MAN)
    doc = parse_file(tmp_path / "quillre.3")
    assert doc.title == "QUILLRE(3)" and "quillre_compile" not in doc.text.replace("```", "")
    got = _read(MAN, "quillre.3", "What are the size limits of quillre?", kind="man")
    figures = {(m, v, u) for _, m, v, u, _ in got}
    assert ("max_pattern_length", "65539", "code units") in figures
    assert ("max_nesting_depth", "250", "") in figures
    # a numbered file that holds no roff is no manual page
    (tmp_path / "app.log.1").write_text("12:00 started\n12:01 stopped\n")
    with pytest.raises(NotADocument):
        parse_file(tmp_path / "app.log.1")


def test_link_reference_definitions_are_no_text() -> None:
    text = normalise_plain("See [the docs] and [1].\n\n[the docs]: https://example.org/docs\n"
                           "[1]: <./bench.md> \"Bench\"\n.. _target: https://example.org/x\n\n"
                           "[not a definition]: words of prose that go on.\n")
    assert "example.org" not in text and "bench.md" not in text
    assert "See [the docs] and [1]." in text and "words of prose that go on" in text


def test_a_list_item_states_something_and_a_short_line_alone_names_a_topic() -> None:
    text = "# Zorbly release policy\n\nZorbly is a language.\n\n## Lifecycle\n\n- 3 years release life cycle\n" \
           "- 2 years of bug fixes\n\nSupport window\n\nEach release is supported for 18 months.\n"
    got = {(m, v, u) for _, m, v, u, _ in _read(text, "policy.md", "How long is a Zorbly release supported?")}
    assert {("release_life_cycle", "3", "years"), ("bug_fixes", "2", "years"), ("support", "18", "months")} <= got
    # a short line that opens with a quantity states it; a short line of words alone names a topic
    assert not any(m.startswith("support_window") for _, m, _, _, _ in _read(text, "p.md", "How long?"))


def test_a_fraction_is_read_whole_and_a_how_long_question_asks_a_duration() -> None:
    from openresearch.agents.plan.analysis import analyse

    got = _read("# Zorbly\n\nZorbly receives bug fixes for 1½ years.\n", "z.md", "How long is Zorbly supported?")
    assert [(v, u) for _, m, v, u, _ in got] == [("1½", "years")]
    a = analyse("How long is a Zorbly release supported?")
    assert a.entities == ["Zorbly"] and a.attributes == ["support duration"]
    assert analyse("How long is the Moravica river?").attributes == ["length"]


TOML_PAGE = """+++
title = "Benchmarking Quillo 0.23 vs Brantex 3.5 on x86_64"
date = 2025-07-31

[taxonomies]
tags = ["performance"]

[extra.version]
quillo = "Quillo 0.23"

[extra.transfer]
recv.quillo = 7407.83
recv.brantex = 6472.3
send.quillo = 7628.68
send.brantex = 6093.27
+++

Quillo and Brantex were measured on one machine. Transfer measurements are in megabytes per second.
"""


def test_toml_front_matter_gives_title_date_and_its_tables_of_figures() -> None:
    src = parse_bytes(TOML_PAGE.encode(), kind="text", url="local://t/report.md", default_kind="local")
    assert src.title == "Benchmarking Quillo 0.23 vs Brantex 3.5 on x86_64"
    assert src.published_at is not None and src.published_at.isoformat().startswith("2025-07-31")
    assert "| quillo | brantex" in src.text and "recv | 7407.83 | 6472.3" in src.text
    assert "taxonomies" not in src.text and "tags" not in src.text  # the page's settings are no text
    got = _read(TOML_PAGE, "report.md", "How do Quillo and Brantex compare on recv transfer?")
    assert any(e.lower() == "quillo" and v == "7407.83" for e, _, v, _, _ in got), got
    assert any(e.lower() == "brantex" and v == "6093.27" for e, _, v, _, _ in got), got
