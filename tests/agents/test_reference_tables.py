"""A configuration reference written as a two-column reStructuredText simple table: each key over its description,
blank lines inside cells kept in the table, the unit a description states, the backends a setting holds for (names
are made up)."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.identity import AliasResolver
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file
from openresearch.ingest.rst import rst_blocks

TABLE = """Configuration
-------------

The following configuration values exist for Zorbq-Cache:

================================== ==================================================
``ZORB_KIND``                      Names the kind of store the service
                                   opens.

                                   Kinds that ship with it:

                                   * FrobCache (default)
                                   * QuuxCache
``ZORB_DEFAULT_TIMEOUT``           How long an entry stays when the caller
                                   gives no time of its own. Unit of time is
                                   seconds. Defaults to ``300``.
``ZORB_THRESHOLD``                 How many entries the store holds before
                                   it removes the oldest. Used only for
                                   FrobCache and QuuxCache. Defaults to
                                   ``500``.
================================== ==================================================

Other text.
"""


def test_a_key_table_is_read_as_entries_whatever_blank_lines_its_cells_hold() -> None:
    lines = rst_blocks(TABLE.splitlines())
    text = "\n".join(lines)
    assert "\nZORB_DEFAULT_TIMEOUT\n\nHow long an entry stays when the caller gives no time of its own. Unit of " \
           "time is seconds. Defaults to ``300``.\n" in text
    assert "\nZORB_THRESHOLD\n\n" in text and "=====" not in text
    # (a table of figures, or one whose first column is no key, stays for the table reader)
    figures = ["=====  =====", "Zorbq  1.5 GB/s", "Quux   2.0 GB/s", "=====  =====", ""]
    assert rst_blocks(figures) == figures


def test_each_default_is_its_keys_in_the_unit_its_description_states_and_holds_where_it_says(tmp_path: Path) -> None:
    page = tmp_path / "zorbq-cache__configuration.rst"
    page.write_text(TABLE, encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(page),
                        "What are Zorbq-Cache's defaults for the default timeout and the item threshold?")
    got = {(o.metric, o.value, o.unit, o.condition, o.entity) for o in doc.observations}
    assert ("zorb_default_timeout", "300", "seconds", "default", "Zorbq-Cache") in got
    assert ("zorb_threshold", "500", None, "default, FrobCache and QuuxCache", "Zorbq-Cache") in got


def test_a_labelled_default_with_its_note_in_parentheses_is_a_figure_not_furniture(tmp_path: Path) -> None:
    page = tmp_path / "zorbq__docs_settings.md"
    page.write_text("# Zorbq settings\n\nZorbq reads these options.\n\n"
                    "* `--frob-max-size <int>` - Largest frame Frob accepts, in bytes. **Default:** *1048576* "
                    "(1 MiB).\n", encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(page),
                        "What is Zorbq's default --frob-max-size?")
    assert ("frob_max_size", "1048576", "bytes") in {(o.metric, o.value, o.unit) for o in doc.observations}
