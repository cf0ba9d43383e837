"""AsciiDoc documents and files without a suffix (change logs, NEWS) are read; scripts and build files are not.

Every figure of an AsciiDoc table keeps its column header (a row is one "cell | cell" paragraph under a header
row), and a folder walk over a project checkout reads its ChangeLog but skips its Makefile and scripts quietly.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from openresearch.errors import NotADocument
from openresearch.graph.store import GraphStore
from openresearch.ingest.asciidoc import asciidoc_to_markdown
from openresearch.ingest.documents import parse_file
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import expand, index_documents

ADOC = """= Zorblat : A Small Allocator
:toc:
:reproducible:

== [#sizes]#Sizes#

Zorblat carves small objects from `+slabs+` of one size class.

[cols="1,1,2",options="header"]
|===
|Setting |Default |Meaning
|`ZORBLAT_SLAB_SIZE` |64 KiB |The size of a slab from which
small objects are carved.
|`ZORBLAT_ARENA_SIZE`
|256 MiB
|The address space reserved at once.
|===

'''''

|===
|Version |Released

|2.1 |2024-03-02
|===
"""

CHANGELOG = """Zorblat change log

Version 2.1 (March 2, 2024)

  * The slab size is now 64 KiB on every platform instead of 32 KiB on some of them.
  * Fixed a rare crash when a thread exits while another one frees its objects.

Version 2.0 (January 5, 2024)

  * A new arena layout reserves 256 MiB of address space at a time for large allocations.
"""


def test_an_asciidoc_table_keeps_its_header_and_its_multi_line_cells() -> None:
    title, md = asciidoc_to_markdown(ADOC)
    assert title == "Zorblat : A Small Allocator"
    lines = md.splitlines()
    assert "| Setting | Default | Meaning |" in lines
    assert lines[lines.index("| Setting | Default | Meaning |") + 1] == "|---|---|---|"
    assert "| `ZORBLAT_SLAB_SIZE` | 64 KiB | The size of a slab from which small objects are carved. |" in lines
    assert "| `ZORBLAT_ARENA_SIZE` | 256 MiB | The address space reserved at once. |" in lines
    # an implicit header: the first row followed by a blank line
    assert lines[lines.index("| Version | Released |") + 1] == "|---|---|"
    assert not any(ln.startswith((":toc", "'''", "[cols")) for ln in lines)
    assert "## Sizes" in lines


def test_an_asciidoc_file_is_read_with_its_title_and_table_rows(tmp_path: Path) -> None:
    path = tmp_path / "zorblat.adoc"
    path.write_text(ADOC)
    doc = parse_file(path)
    assert doc.title == "Zorblat : A Small Allocator"
    paragraphs = doc.text.split("\n\n")
    assert "Setting | Default | Meaning" in paragraphs
    assert "ZORBLAT_ARENA_SIZE | 256 MiB | The address space reserved at once." in paragraphs
    assert "Zorblat carves small objects from slabs of one size class." in paragraphs
    assert ":reproducible:" not in doc.text


def _project(root: Path) -> Path:
    (root / "ChangeLog").write_text(CHANGELOG)
    (root / "Makefile").write_text("CC = gcc\nCFLAGS = -O2 -Wall\nall: zorblat.o\n\t$(CC) -o zorblat zorblat.o\n")
    script = root / "bootstrap"
    script.write_text("#!/bin/sh\necho generating the configure script for the project now\nautoreconf -i\n")
    script.chmod(0o755)
    (root / ".gitignore").write_text("*.o\nzorblat\n")
    prose_but_executable = root / "notes"
    prose_but_executable.write_text(CHANGELOG)
    prose_but_executable.chmod(0o755)
    (root / "data").write_bytes(bytes(range(256)) * 8)
    return root


def test_a_change_log_without_a_suffix_is_read_and_build_files_are_not(tmp_path: Path) -> None:
    root = _project(tmp_path)
    doc = parse_file(root / "ChangeLog")
    assert "The slab size is now 64 KiB on every platform instead of 32 KiB on some of them." in doc.text
    for name in ("Makefile", "bootstrap", ".gitignore", "notes", "data"):
        with pytest.raises(NotADocument, match="neither prose text nor a page"):
            parse_file(root / name)
    assert {p.name for p in expand(root).files} >= {"ChangeLog", "Makefile"}  # the walk offers; the reader decides


@pytest.mark.integration
def test_ingest_of_a_checkout_reads_its_change_log_and_skips_the_rest_quietly(store: GraphStore,
                                                                              tmp_path: Path) -> None:
    store.backend.clear()
    store.init_schema()
    (tmp_path / "zorblat" / "docs").mkdir(parents=True)
    root = _project(tmp_path / "zorblat")
    (root / "docs" / "guide.adoc").write_text(ADOC)
    report = index_documents(store, root, HashEmbedder(dim=384), chunk_chars=300, overlap=50)
    assert report.errors == []
    names = {os.path.basename(s.split(":", 1)[0]) for s in report.skipped}
    assert names == {"Makefile", "bootstrap", ".gitignore", "notes", "data"}
    titles = {r["t"] for r in store.backend.read("MATCH (s:Source) RETURN s.title AS t")}
    assert titles == {"ChangeLog", "Zorblat : A Small Allocator"}
