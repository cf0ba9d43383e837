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


def test_code_blocks_jsx_components_and_module_lines_are_not_text(tmp_path: Path) -> None:
    """Code, MDX imports and JSX tags are markup: never a sentence to quote, never in a chunk. The prose
    between an opening and a closing tag, and after a block, stays."""
    page = tmp_path / "bench.mdx"
    page.write_text(
        "# Benchmark\n\nimport Screenshot from \"@theme/Screenshot\"\n\n"
        "QuestDB achieves 959k rows/sec with 4 threads.\n\n"
        "<Screenshot\n  alt=\"A chart showing QuestDB hitting 959k rows/sec\"\n  height={415}\n"
        "  src=\"/img/chart.png\"\n/>\n\n"
        "Below is the table:\n\n```sql\nCREATE TABLE wikistat (time DateTime, hits UInt64)\n```\n\n"
        "    ```bash\n    docker run questdb\n    ```\n\n"
        "<details>\n<summary>Settings</summary>\n\nThe default commit lag is 300 ms.\n\n</details>\n\n"
        "The optimized table takes 4 times less space.\n", "utf-8")
    text = parse_file(page).text
    for markup in ("import Screenshot", "<Screenshot", "alt=", "height={415}", "CREATE TABLE", "docker run",
                   "<details>", "</details>", "sql", "```"):
        assert markup not in text, markup
    for prose in ("QuestDB achieves 959k rows/sec with 4 threads.", "Below is the table:",
                  "The default commit lag is 300 ms.", "The optimized table takes 4 times less space."):
        assert prose in text, prose


def test_a_tag_with_prose_after_it_on_its_line_keeps_the_prose(tmp_path: Path) -> None:
    page = tmp_path / "inline.md"
    page.write_text("Intro line.\n\n<b>Pulsar</b> keeps 2 GB per topic by default.\n\nAn unclosed fence:\n\n"
                    "```\nkafka-topics --create\n", "utf-8")
    text = parse_file(page).text
    assert "Pulsar keeps 2 GB per topic by default." in text  # an inline element's tags are no text
    assert "kafka-topics" not in text and "An unclosed fence:" in text
