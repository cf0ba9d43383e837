"""Run a real Neo4j 5.26 Community server locally without Docker, from Maven Central jars.

The server is `tools/neo4j-runner` (built by `scripts/neo4j-build.sh`): a thin Java main that writes
`<home>/conf/neo4j.conf` and calls Neo4j's own `CommunityEntryPoint`, the entry point of `bin/neo4j console`.
It serves Bolt, HTTP (discovery, transactional and Query API) and the Neo4j Browser (`/browser/`) on
127.0.0.1 only, and keeps its data in `<home>/data`, so it survives stop and start.

Files under `home`: `neo4j.pid`, `neo4j-local.json` (ports, pid, auth: what `status()` reports),
`logs/console.log` (the server's stdout and stderr; Neo4j's own `neo4j.log`/`debug.log` sit beside it),
`conf/neo4j-extra.conf` (optional: extra `neo4j.conf` lines appended on every start).

Authentication is disabled unless `start(..., password=...)` is given; the password is then set as the
initial password of user `neo4j` on the first start of a fresh home.

Only the standard library is used: readiness is a TCP connect to Bolt plus an HTTP GET of the discovery
document.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openresearch.errors import GraphUnavailable
from openresearch.graph.proc import proc_alive

__all__ = ["Neo4jLocalStatus", "build", "kill", "runner_dir", "start", "status", "stop"]

MAIN_CLASS = "org.openresearch.neo4jrunner.Neo4jRunner"
PASSWORD_ENV = "NEO4J_RUNNER_INITIAL_PASSWORD"
PID_FILE = "neo4j.pid"
STATE_FILE = "neo4j-local.json"
LOCK_FILE = ".neo4j-local.lock"
LOG_NAME = "console.log"
HEAP = "768m"
PAGECACHE = "128m"
JVM_FLAGS: tuple[str, ...] = (
    "-Xms256m",
    f"-Xmx{HEAP}",
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+ExitOnOutOfMemoryError",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
)

# Popen objects of servers started by this process, so that their exit is noticed (and reaped) at once.
_children: dict[int, subprocess.Popen[bytes]] = {}


@dataclass
class Neo4jLocalStatus:
    running: bool
    pid: int | None
    bolt_uri: str
    http_uri: str
    home: Path
    log_file: Path


# --- build ---------------------------------------------------------------------------------------------


def _default_repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def runner_dir(repo_root: Path | None = None) -> Path:
    """`<repo>/tools/neo4j-runner` of the checkout this package lives in (or of `repo_root`)."""
    return (repo_root or _default_repo_root()) / "tools" / "neo4j-runner"


def build(repo_root: Path | None = None) -> Path:
    """Build the runner if needed (a fast no-op when built) and return its classpath file."""
    root = (repo_root or _default_repo_root()).resolve()
    script = root / "scripts" / "neo4j-build.sh"
    if not script.is_file() or not (runner_dir(root) / "pom.xml").is_file():
        raise GraphUnavailable(f"neo4j runner sources not found under {root} (no scripts/neo4j-build.sh)")
    for tool in ("bash", "java", "mvn"):
        if shutil.which(tool) is None:
            raise GraphUnavailable(f"cannot build the local Neo4j: `{tool}` is not on PATH")
    try:
        proc = subprocess.run(["bash", str(script)], cwd=root, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=1800, check=False)
    except subprocess.TimeoutExpired as exc:
        raise GraphUnavailable("building the local Neo4j timed out after 1800 s") from exc
    if proc.returncode != 0:
        lines = [ln.strip() for ln in (proc.stderr + proc.stdout).splitlines() if ln.strip()]
        raise GraphUnavailable(f"building the local Neo4j failed: {lines[-1] if lines else proc.returncode}")
    out = proc.stdout.strip().splitlines()
    cpfile = Path(out[-1]) if out else runner_dir(root) / "target" / "runner.classpath"
    if not cpfile.is_file():
        raise GraphUnavailable(f"building the local Neo4j produced no classpath file ({cpfile})")
    return cpfile


# --- process bookkeeping -------------------------------------------------------------------------------


def _log_file(home: Path) -> Path:
    return home / "logs" / LOG_NAME


def _read_state(home: Path) -> dict[str, Any]:
    try:
        data = json.loads((home / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_state(home: Path, state: dict[str, Any]) -> None:
    tmp = home / (STATE_FILE + ".tmp")
    tmp.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(home / STATE_FILE)


def _read_pid(home: Path) -> int | None:
    try:
        pid = int((home / PID_FILE).read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None
    return pid if pid > 0 else None


def _remove_pid(home: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        (home / PID_FILE).unlink()


def _alive(pid: int) -> bool:
    """True while `pid` is a live (not zombie) process; reaps it when it is our exited child."""
    child = _children.get(pid)
    if child is not None:
        if child.poll() is None:
            return True
        _children.pop(pid, None)
        return False
    with contextlib.suppress(ChildProcessError, OSError):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return False
    return proc_alive(pid)


def _is_our_server(pid: int, home: Path) -> bool:
    """The pid runs this runner on this home (guards against a recycled pid after a crash or reboot)."""
    if not _alive(pid):
        return False
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return True  # no procfs: trust the pid file
    args = [a.decode("utf-8", "replace") for a in cmdline]
    if MAIN_CLASS not in args:
        return False
    try:
        return Path(args[args.index("--home") + 1]).resolve() == home.resolve()
    except (ValueError, IndexError):
        return False


def _running_pid(home: Path) -> int | None:
    pid = _read_pid(home)
    return pid if pid is not None and _is_our_server(pid, home) else None


@contextlib.contextmanager
def _locked(home: Path) -> Iterator[None]:
    home.mkdir(parents=True, exist_ok=True)
    with (home / LOCK_FILE).open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _status(home: Path, pid: int | None) -> Neo4jLocalStatus:
    state = _read_state(home)
    bolt = int(state.get("bolt_port", 7687))
    http = int(state.get("http_port", 7474))
    return Neo4jLocalStatus(running=pid is not None, pid=pid, bolt_uri=f"bolt://127.0.0.1:{bolt}",
                            http_uri=f"http://127.0.0.1:{http}", home=home, log_file=_log_file(home))


# --- readiness -----------------------------------------------------------------------------------------


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _bolt_accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never via http_proxy


def _http_ready(port: int) -> bool:
    try:
        with _NO_PROXY.open(f"http://127.0.0.1:{port}/", timeout=2.0) as resp:
            return int(resp.status) == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def _log_tail(home: Path, n: int = 1) -> str:
    try:
        text = _log_file(home).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return " | ".join(lines[-n:])


def _java() -> str:
    java_home = os.environ.get("JAVA_HOME")
    if java_home and (Path(java_home) / "bin" / "java").is_file():
        return str(Path(java_home) / "bin" / "java")
    found = shutil.which("java")
    if found is None:
        raise GraphUnavailable("cannot start the local Neo4j: `java` (17 or 21) is not on PATH")
    return found


# --- public API ----------------------------------------------------------------------------------------


def status(home: Path) -> Neo4jLocalStatus:
    """What runs on `home`: running, pid, URIs (ports from the state file), log file."""
    home = Path(home).absolute()
    return _status(home, _running_pid(home))


def start(home: Path, bolt_port: int = 7687, http_port: int = 7474, timeout_s: float = 120,
          password: str | None = None) -> Neo4jLocalStatus:
    """Start Neo4j on `home` as a detached process and wait until Bolt and HTTP answer.

    Idempotent: a server already running on `home` is returned as is (with the ports it was started on).
    A stale pid file (server crashed or killed) is discarded. `password` enables authentication and sets
    the initial password of user `neo4j` (minimum 8 characters) on the first start of a fresh home.
    Raises GraphUnavailable (one line) when the build, a port or the server fails.
    """
    home = Path(home).absolute()
    with _locked(home):
        pid = _running_pid(home)
        if pid is not None:
            return _status(home, pid)
        _remove_pid(home)
        for port in (bolt_port, http_port):
            if not _port_free(port):
                raise GraphUnavailable(f"cannot start the local Neo4j: port 127.0.0.1:{port} is in use")
        if password is not None and len(password) < 8:
            raise GraphUnavailable("the Neo4j password must have at least 8 characters")
        cp = _with_browser_assets(home, build().read_text(encoding="utf-8").strip(), http_port)
        log = _log_file(home)
        log.parent.mkdir(parents=True, exist_ok=True)
        cmd = [_java(), *JVM_FLAGS, "-cp", cp, MAIN_CLASS, "--home", str(home),
               "--bolt-port", str(bolt_port), "--http-port", str(http_port), "--pagecache", PAGECACHE]
        env = dict(os.environ)
        env.pop(PASSWORD_ENV, None)
        if password is not None:
            cmd.append("--auth")
            env[PASSWORD_ENV] = password
        with log.open("ab") as out:
            out.write(f"\n=== neo4j_local start {time.strftime('%Y-%m-%dT%H:%M:%S%z')} "
                      f"bolt={bolt_port} http={http_port}\n".encode())
            out.flush()
            try:
                proc = subprocess.Popen(cmd, cwd=home, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                        stderr=subprocess.STDOUT, start_new_session=True, close_fds=True)
            except OSError as exc:
                raise GraphUnavailable(f"cannot start the local Neo4j: {exc}") from exc
        _children[proc.pid] = proc
        (home / PID_FILE).write_text(f"{proc.pid}\n", encoding="utf-8")
        _write_state(home, {"pid": proc.pid, "bolt_port": bolt_port, "http_port": http_port,
                            "auth": password is not None, "started_at": time.time()})

        deadline = time.monotonic() + timeout_s
        while True:
            if proc.poll() is not None:
                _children.pop(proc.pid, None)
                _remove_pid(home)
                raise GraphUnavailable(f"the local Neo4j exited with code {proc.returncode} during start: "
                                       f"{_log_tail(home)} (see {log})")
            if _bolt_accepts(bolt_port) and _http_ready(http_port):
                return _status(home, proc.pid)
            if time.monotonic() > deadline:
                _terminate(home, proc.pid, 10.0)
                raise GraphUnavailable(f"the local Neo4j did not answer within {timeout_s:.0f} s "
                                       f"(last log: {_log_tail(home)}; see {log})")
            time.sleep(0.25)


def _wait_gone(pid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _terminate(home: Path, pid: int, timeout_s: float) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    if not _wait_gone(pid, timeout_s):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        _wait_gone(pid, 10.0)
    _children.pop(pid, None)
    _remove_pid(home)


def stop(home: Path, timeout_s: float = 60) -> bool:
    """SIGTERM the server on `home` (a clean shutdown with checkpoint), SIGKILL after `timeout_s`.

    Returns True when a running server was stopped, False when none was running (a stale pid file is removed).
    """
    home = Path(home).absolute()
    with _locked(home):
        pid = _running_pid(home)
        if pid is None:
            _remove_pid(home)
            return False
        _terminate(home, pid, timeout_s)
        return True


def kill(home: Path) -> None:
    """SIGKILL the server on `home` (a crash, for fault tests). The pid file stays behind, stale."""
    home = Path(home).absolute()
    pid = _running_pid(home)
    if pid is None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    _wait_gone(pid, 10.0)


def _with_browser_assets(home: Path, cp: str, http_port: int) -> str:
    """The classpath with `<home>/browser-cp` first: the Browser plus OpenResearch's guide, queries, style."""
    from openresearch.graph import neo4j_browser

    http_uri = f"http://127.0.0.1:{http_port}"
    try:
        folder = neo4j_browser.prepare(home, cp, http_uri)
        neo4j_browser.write_conf(home, http_uri)
    except (OSError, ValueError) as exc:  # exploration extras never stop the database from starting
        _log_file(home).parent.mkdir(parents=True, exist_ok=True)
        with _log_file(home).open("a", encoding="utf-8") as out:
            out.write(f"neo4j_local: Browser assets not installed: {exc}\n")
        return cp
    return cp if folder is None else f"{folder}:{cp}"
