"""Documentation sites write Markdown with JSX components (.mdx): such files are read as Markdown."""

from __future__ import annotations

from pathlib import Path

from openresearch.ingest.documents import parse_file


def test_an_mdx_page_is_read_as_markdown_with_its_title(tmp_path: Path) -> None:
    page = tmp_path / "capacity.mdx"
    page.write_text("---\ntitle: Capacity planning\n---\n\nimport Tabs from '@theme/Tabs'\n\n"
                    "# Capacity planning\n\nA single node ingests up to 1.4 million rows per second.\n", "utf-8")
    doc = parse_file(page)
    assert doc.title == "Capacity planning"
    assert "1.4 million rows per second" in doc.text
