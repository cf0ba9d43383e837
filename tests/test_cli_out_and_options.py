"""Options are checked before any work, through the real entry point (`cli.main`): a bad value is one line and a
non-zero exit, and no run starts. `--out` refuses a symbolic link (the folder or a file it would write) and
system folders; the files are written to a temporary name and renamed, so a link planted later is replaced,
never followed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import test_cli_doors as doors
from test_cli_doors import Ran, one_line_refusal

from openresearch.errors import InputError
from openresearch.graph.store import GraphStore
from openresearch.output_dir import check_out_dir, write_files

pytestmark = pytest.mark.integration
cli, graph = doors.cli, doors.graph  # the doors tests' fixtures: the real entry point on a graph of its own
QUESTION = "Which queue keeps more messages a second?"


def _no_runs(store: GraphStore) -> None:
    assert store.list_runs(10) == []


@pytest.mark.parametrize("args", [
    ["--budget", "2"], ["--budget", "41"], ["--workers", "0"], ["--style", "foo"], ["--language", "xx"],
    ["--max-cost", "-1"], ["--max-llm-calls", "-3"], ["--budget", "abc"], ["--out", "/proc/self/x"], ["--bogus"]])
def test_a_bad_research_option_is_one_line_and_no_run(graph: tuple[GraphStore, dict[str, str]],
                                                       cli: Callable[..., Ran], args: list[str]) -> None:
    store, env = graph
    line = one_line_refusal(cli(env, "research", QUESTION, "--offline", *args))
    assert args[0] in line or "system folder" in line
    _no_runs(store)


@pytest.mark.parametrize("args", [
    ["runs", "list", "--limit", "0"], ["serve", "--port", "0"], ["serve", "--log-level", "loud"],
    ["monitor", "add", QUESTION, "--style", "foo"], ["conflicts", "list", "--tolerance", "-1"],
    ["mcp", "--workers", "0"], ["evidence", "export", "/proc/self/evidence.jsonl"],
    ["verify-claims", "claims.jsonl", "--out", "/proc/self/labels.jsonl"],
    ["feedback", "E-1a2b3c4d5e6f", "accept", "--note", "n" * 5000],
    ["feedback", "E-1a2b3c4d5e6f", "accept", "--author", ""]])
def test_other_commands_refuse_bad_options_in_one_line(graph: tuple[GraphStore, dict[str, str]],
                                                        cli: Callable[..., Ran], args: list[str]) -> None:
    _, env = graph
    one_line_refusal(cli(env, *args))


@pytest.mark.parametrize("folder", ["/", "/etc", "/etc/x", "/usr/share/out", "/bin/out", "/proc/1", "/dev"])
def test_system_folders_are_refused(folder: str) -> None:
    # checked without running anything: a regression here must not write into the system
    with pytest.raises(InputError) as err:
        check_out_dir(Path(folder), ["report.md"])
    assert "system folder" in str(err.value)


def test_a_planted_link_in_out_is_refused_before_the_run(graph: tuple[GraphStore, dict[str, str]],
                                                         cli: Callable[..., Ran], tmp_path: Path) -> None:
    store, env = graph
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.md").symlink_to(victim)
    line = one_line_refusal(cli(env, "research", QUESTION, "--offline", "--out", str(out)))
    assert "report.md" in line and "symbolic link" in line
    linked_out = tmp_path / "linked"
    linked_out.symlink_to(out, target_is_directory=True)
    assert "symbolic link" in one_line_refusal(cli(env, "research", QUESTION, "--offline", "--out", str(linked_out)))
    exported = tmp_path / "evidence.jsonl"
    exported.symlink_to(victim)
    assert "symbolic link" in one_line_refusal(cli(env, "evidence", "export", str(exported)))
    assert victim.read_text() == "precious\n"
    _no_runs(store)


def test_files_are_renamed_into_place_so_a_later_link_is_replaced(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = check_out_dir(tmp_path / "out", ["report.md"])
    out.mkdir()
    (out / "report.md").symlink_to(victim)  # planted after the check, before the write
    write_files(out, {"report.md": "# Report\n", "report.json": "{}"})
    assert victim.read_text() == "precious\n"
    assert not (out / "report.md").is_symlink() and (out / "report.md").read_text() == "# Report\n"
    assert sorted(p.name for p in out.iterdir()) == ["report.json", "report.md"]  # no temporary file left
    moved = tmp_path / "moved"
    out.rename(moved)
    out.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "elsewhere").mkdir()
    with pytest.raises(InputError):
        write_files(out, {"report.md": "x"})
    assert list((tmp_path / "elsewhere").iterdir()) == []
