"""A local file is opened once, without following links, and read only if it is a regular file: a file or a
folder swapped for a symbolic link between the walk and the read is refused, a FIFO neither blocks nor is read.
The swaps happen at a fixed point of a real ingest (its progress callback after the first file), never by timing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from openresearch.errors import ParseError
from openresearch.graph.store import GraphStore
from openresearch.ingest.documents import parse_file
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import IndexReport, index_documents
from openresearch.ingest.safe_open import read_regular_file

SECRET = "root:x:0:0:an outside secret entry:/root:/bin/bash\n"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "passwd.md").write_text(SECRET)
    (folder / "b.md").write_text(SECRET)
    return folder


def _doc(path: Path, n: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"# Note {n}\n\nThe queue kept {n}00 messages a second on the test machine.\n")
    return path


def test_a_link_is_refused_not_followed(tmp_path: Path, outside: Path) -> None:
    link = tmp_path / "a.md"
    link.symlink_to(outside / "passwd.md")
    with pytest.raises(ParseError) as err:
        parse_file(link)
    assert str(err.value).startswith(str(link)) and "symbolic link" in str(err.value)
    assert "\n" not in str(err.value)


def test_a_folder_on_the_path_swapped_for_a_link_is_refused(tmp_path: Path, outside: Path) -> None:
    target = _doc(tmp_path / "docs" / "b.md", 1)
    assert read_regular_file(target, 1 << 20).startswith(b"# Note 1")
    (tmp_path / "docs" / "b.md").unlink()
    (tmp_path / "docs").rmdir()
    (tmp_path / "docs").symlink_to(outside, target_is_directory=True)  # docs/b.md now names outside/b.md
    with pytest.raises(ParseError) as err:
        read_regular_file(target, 1 << 20)
    assert "'docs'" in str(err.value) and "not read" in str(err.value)


@pytest.mark.timeout(60)  # before the fix the open blocked for ever, waiting for a writer
def test_a_fifo_or_a_device_is_never_read(tmp_path: Path) -> None:
    fifo = tmp_path / "feed.md"
    os.mkfifo(fifo)
    with pytest.raises(ParseError) as err:
        parse_file(fifo)
    assert "FIFO" in str(err.value) and str(fifo) in str(err.value)
    with pytest.raises(ParseError) as err:
        read_regular_file(Path("/dev/zero"), 1 << 20)
    assert "character device" in str(err.value)


def test_a_file_over_the_limit_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 5000)
    with pytest.raises(ParseError) as err:
        read_regular_file(big, 4096)
    assert "5,000 bytes" in str(err.value)



def _secret_chunks(store: GraphStore) -> int:
    rows = store.backend.read("MATCH (c:Chunk) WHERE c.text CONTAINS 'outside secret' RETURN count(c) AS n")
    return int(rows[0]["n"])


@pytest.mark.integration
@pytest.mark.timeout(120)
def test_swaps_during_a_real_ingest_are_refused(falkor_store: GraphStore, tmp_path: Path, outside: Path) -> None:
    corpus = tmp_path / "corpus"
    for i, name in enumerate(("a.md", "b.md", "sub/c.md", "z.md")):
        _doc(corpus / name, i)
    os.mkfifo(corpus / "feed.md")  # a FIFO in the folder: skipped with a notice, the ingest goes on
    swapped: list[str] = []

    def swap_after_first(name: str) -> None:
        if swapped:
            return
        swapped.append(name)
        (corpus / "b.md").unlink()
        (corpus / "b.md").symlink_to(outside / "passwd.md")  # the walk saw a regular file here
        for f in (corpus / "sub").iterdir():
            f.unlink()
        (corpus / "sub").rmdir()
        (corpus / "sub").symlink_to(outside, target_is_directory=True)
        (outside / "c.md").write_text(SECRET)

    report: IndexReport = index_documents(falkor_store, corpus, HashEmbedder(dim=64), progress=swap_after_first)
    assert swapped == ["a.md"]
    assert report.added == 2  # a.md and z.md
    errors = " | ".join(report.errors)
    assert "b.md" in errors and "symbolic link" in errors and "c.md" in errors
    assert all("\n" not in e for e in report.errors)
    assert any("feed.md" in s and "FIFO" in s for s in report.skipped)
    assert _secret_chunks(falkor_store) == 0
