"""The attacks every door must refuse (tests of boundary.py at each entry point): a folder the door allows, a
folder beside it that it does not, and a symbolic link inside the allowed one pointing out."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

QUESTION = "What is the write throughput of AcmeDB?"
METADATA_HOOK = "http://169.254.169.254/latest"


@dataclass(frozen=True)
class Rooms:
    root: Path  # allowed
    docs: Path  # a folder inside it, the allowed case
    outside: Path  # beside it

    @classmethod
    def make(cls, tmp_path: Path) -> Rooms:
        root, outside = tmp_path / "allowed", tmp_path / "outside"
        (root / "docs").mkdir(parents=True)
        outside.mkdir()
        (outside / "secret.md").write_text("# secret\n\nNot for the API.\n")
        (root / "docs" / "a.md").write_text("# AcmeDB\n\nAcmeDB reaches 120,000 rows per second.\n")
        (root / "escape").symlink_to(outside, target_is_directory=True)
        return cls(root, root / "docs", outside)

    def source_attacks(self) -> dict[str, list[str]]:
        """Attack name -> the sources list that carries it."""
        return {"local:/etc": ["local:/etc"],
                "'..' escape": [f"local:{self.root}/docs/../../outside"],
                "symlink out": [f"local:{self.root}/escape"],
                "ftp://x": ["ftp://x"]}

    def attacks(self, *, webhook: bool) -> dict[str, dict[str, Any]]:
        """Attack name -> the fields of a request (question, sources, webhook) that carry it."""
        out: dict[str, dict[str, Any]] = {name: {"question": QUESTION, "sources": s}
                                          for name, s in self.source_attacks().items()}
        out["empty question"] = {"question": "   ", "sources": ["web"]}
        if webhook:
            out["metadata webhook"] = {"question": QUESTION, "sources": ["web"], "webhook": METADATA_HOOK}
        return out


def run_cli(monkeypatch: Any, capfd: Any, *args: str) -> tuple[int, str, str]:
    """`openresearch ARGS` through `cli.main` in this process, as the installed command runs it: (exit code,
    stdout, stderr), settings read afresh."""
    from openresearch.cli import main
    from openresearch.config import get_settings

    monkeypatch.setattr(sys, "argv", ["openresearch", *args])
    get_settings.cache_clear()
    capfd.readouterr()
    code = 0
    try:
        main()
    except SystemExit as e:
        code = int(e.code or 0)
    out = capfd.readouterr()
    return code, out.out, out.err
