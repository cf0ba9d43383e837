"""Documents of shapes the readers did not know before, read by their syntax rather than their words:

- a manual page written in scdoc (``.scd``): its title, its headings, its key entries ("*limit* = _<integer>_" over
  a tab-indented description and "Default: _N_") whose figures are the key's defaults, its option entries and tables;
- a code block closed by a longer run of backticks than opened it (CommonMark closes it there; before, everything
  up to the next fence of three was lost as code);
- an XML element for one release ("<release version= date=>") heads its release like a change log's heading;
- a change log's heading with its date in brackets ("2.4.0 [2025-03-08]").

Names and figures are made up."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.releases import release_heading
from openresearch.ingest.documents import normalise_plain, parse_file
from openresearch.ingest.scdoc import looks_like_scdoc, scdoc_to_markdown
from openresearch.ingest.xmldoc import xml_to_markdown
from tests.agents.reading_fixtures import read_facts

SCD = """QUUXTERM(5)

# NAME

Quuxterm - the settings file of the Quuxterm frob viewer.

# SYNTAX

Quuxterm reads its settings from a TOML file; every key below has a default.

# WOBBLE LOG

*depth* = _<integer>_

\tLargest count of rows the wobble log keeps.++
A value of _0_ switches the log off.++
At most _250000_ rows are allowed.

\tDefault: _4096_

*step* = _<integer>_

\tHow far one wheel notch moves the log.

\tDefault: _3_

# WOBBLING

*wobble_period* = _<integer>_

\tWobble period in milliseconds.

\tDefault: _640_

# GESTURES

[[ *gesture*
:[ *effect*
|  _"Left"_
:  _"Spin"_
|  _"Right"_
:  _"Flip"_

# FLAGS

*-z, --zap*

\tZaps every frob before starting.
"""


def test_an_scdoc_page_reads_as_markdown_with_its_entries() -> None:
    assert looks_like_scdoc(SCD)
    assert not looks_like_scdoc("Quuxterm is a frob viewer.\n\nIt reads TOML.\n")
    title, md = scdoc_to_markdown(SCD)
    assert title == "QUUXTERM(5)"
    assert md.startswith("# QUUXTERM(5)\n\n# NAME")
    # a key's entry: its term over its tab-indented description, as a definition list writes it
    assert "depth <integer>\n    Largest count of rows the wobble log keeps.\nA value of 0 switches" in md
    assert "    Default: 4096" in md
    # an option's entry: one list item, its tag then its description
    assert "- -z, --zap: Zaps every frob before starting." in md
    # a table: its first row the header, one row per "|" line
    assert "| gesture | effect |\n| --- | --- |\n| \"Left\" | \"Spin\" |\n| \"Right\" | \"Flip\" |" in md
    assert "*" not in md.replace("**", "") and "_<" not in md


def test_an_scdoc_page_on_disk_gives_each_key_its_default(tmp_path: Path) -> None:
    path = tmp_path / "quuxterm.5.scd"
    path.write_text(SCD, encoding="utf-8")
    doc = parse_file(path)
    assert doc.title == "QUUXTERM(5)"
    facts = read_facts(path, "How many rows does the Quuxterm wobble log keep by default?")
    # the manual's title names the product, in the form its text writes it; each default is its key's
    assert ("Quuxterm", "depth", "4096", None, "default") in facts
    assert ("Quuxterm", "step", "3", None, "default") in facts
    # a unit the entry states for its values is the figure's
    assert any(f[:3] == ("Quuxterm", "wobble_period", "640") and f[3] == "milliseconds" for f in facts)


def test_a_suffixless_scdoc_page_is_read_by_its_content(tmp_path: Path) -> None:
    path = tmp_path / "quuxterm-config"
    path.write_text(SCD, encoding="utf-8")
    assert "depth <integer>" in parse_file(path).text


def test_a_code_block_closed_by_a_longer_run_ends_there() -> None:
    body = ("## `frob-limit`\n\nChained frobs work as well. For example:\n\n```ini\nfrob = a>b\n````\n\n"
            "## `wibble-timeout`\n\nThe time a wibble stays undoable.\n\nThe default value is 7 seconds.\n\n"
            "```\nzorbq --wibble now\n```\n\nAfter the block.\n")
    text = normalise_plain(body)
    assert "The default value is 7 seconds." in text
    assert "zorbq --wibble now" not in text and "frob = a>b" not in text
    assert "After the block." in text


def test_an_element_for_one_release_heads_it_with_its_date() -> None:
    xml = ("<component><name>Zorbq</name><summary>Zorbq is a frob viewer for the desktop and the web.</summary>"
           "<description><p>Zorbq shows frobs quickly and keeps a long history of every frob it showed.</p>"
           "<p>It runs on every desktop and reads every frob format that exists today.</p></description>"
           "<releases><release version=\"2.1.0\" date=\"2023-05-02\"><description><ul>"
           "<li>Adds a wobble mode that shows every frob twice as large as before.</li></ul></description>"
           "</release><release version=\"2.2.0\" type=\"development\"><description><ul>"
           "<li>Fixes the wobble mode on the web so that it shows frobs in the right place.</li></ul></description>"
           "</release></releases></component>")
    _, md = xml_to_markdown(xml)
    assert "2.1.0 (2023-05-02)" in md.splitlines()[md.splitlines().index("- Adds a wobble mode that shows every "
                                                                         "frob twice as large as before.") - 2]
    assert any(line.endswith(" 2.2.0") for line in md.splitlines())
    release = release_heading("2.1.0 (2023-05-02)")
    assert release is not None and release.date == "2023-05-02"


def test_a_release_heading_may_write_its_date_in_brackets() -> None:
    release = release_heading("2.4.0 [2022-11-19]")
    assert release is not None and (release.version, release.date) == ("2.4.0", "2022-11-19")
    named = release_heading("Zorbq 2.4.0 [2022-11-19]")
    assert named is not None and (named.name, named.date) == ("Zorbq", "2022-11-19")
    # a bracketed label is still no date
    labelled = release_heading("2.4.1 [YANKED]")
    assert labelled is not None and labelled.version == "2.4.1" and labelled.date is None


def test_an_entrys_description_qualifies_its_bare_term(tmp_path: Path) -> None:
    # "size" under "Glyph size, in pixels." is the glyph size; "Largest count of rows ..." qualifies nothing
    page = SCD.replace("# WOBBLING", "# GLYPHS\n\n*size* = _<float>_\n\n\tGlyph size, in pixels.\n\n"
                       "\tDefault: _13.5_\n\n# WOBBLING")
    path = tmp_path / "quuxterm.5.scd"
    path.write_text(page, encoding="utf-8")
    facts = read_facts(path, "What glyph size does Quuxterm use by default?")
    assert ("Quuxterm", "glyph_size", "13.5", None, "default") in facts
    assert ("Quuxterm", "depth", "4096", None, "default") in facts


def test_a_release_page_whose_header_describes_its_release_date_keeps_it(tmp_path: Path) -> None:
    page = ("---\ntitle: Zorbq 2.3.0\ndescription: |-\n  What changed in Zorbq 2.3.0, which was released on March 4,\n"
            "  2025.\n---\n\nZorbq 2.3.0 brings a wobble mode and many fixes from many contributors.\n")
    path = tmp_path / "2-3-0.mdx"
    path.write_text(page, encoding="utf-8")
    doc = parse_file(path)
    assert doc.title == "Zorbq 2.3.0"
    assert doc.text.startswith("Zorbq 2.3.0\n\nWhat changed in Zorbq 2.3.0, which was released on March 4, 2025.")
    facts = read_facts(path, "When did Zorbq 2.3.0 come out?")
    assert any(f[0].startswith("Zorbq") and f[2] == "March 4, 2025" and f[3] == "date" for f in facts)
    # a page whose header only describes it keeps its text as it is
    other = tmp_path / "guide.mdx"
    other.write_text("---\ntitle: Guide\ndescription: >-\n  How to wobble.\n---\n\nWobbling is easy to do.\n",
                     encoding="utf-8")
    assert parse_file(other).text.startswith("Wobbling is easy")


def test_an_entry_described_as_a_number_of_things_counts_them(tmp_path: Path) -> None:
    page = SCD.replace("# WOBBLING", "# TRAIL\n\n*trail* = _<integer>_\n\n"
                       "\tMaximum number of frames the trail keeps.\n\n\tDefault: _900_\n\n# WOBBLING")
    path = tmp_path / "quuxterm.5.scd"
    path.write_text(page, encoding="utf-8")
    assert ("Quuxterm", "trail_frames", "900", None, "default") in read_facts(path, "How long is the Quuxterm trail?")
