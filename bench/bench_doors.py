"""Every door against the same attacks: a table per entry point, attack -> refused / accepted (target: every
attack refused; the control row, the allowed folder, accepted).

Usage:
  python bench/bench_doors.py

Doors: POST /runs, POST /topics, POST /runs/{id}/resume of stored runs and MCP start_research at /mcp (a real
uvicorn in this process), MCP start_research over stdio (`openresearch mcp` in a subprocess), the CLI's
`monitor add`, `research` and `research --resume` (its entry point, in process), and a monitoring run of topics
stored straight into the graph (as an older version would have). The API and MCP allow one folder
(OPENRESEARCH_API_LOCAL_ROOTS); the CLI reads any path its user names, so its local rows are expected to be
accepted, with the path resolved. Runs that are accepted are cancelled at once; nothing is researched. Prints
figures, asserts nothing, exits 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

QUESTION = "What is the write throughput of AcmeDB?"
HOOK = "http://169.254.169.254/latest"
Row = tuple[str, str, str]  # attack, refused | accepted, detail


def layout(tmp: Path) -> tuple[Path, Path, Path]:
    """An allowed folder with a document, a folder beside it, and a symbolic link inside pointing out."""
    root, outside = tmp / "allowed", tmp / "outside"
    (root / "docs").mkdir(parents=True)
    outside.mkdir()
    (root / "docs" / "a.md").write_text("# AcmeDB\n\nAcmeDB reaches 120,000 rows per second.\n")
    (outside / "secret.md").write_text("# secret\n")
    (root / "escape").symlink_to(outside, target_is_directory=True)
    return root, root / "docs", outside


def attacks(root: Path, docs: Path, *, webhook: bool = False, interval: bool = False) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {
        "local:/etc": {"sources": ["local:/etc"]},
        "'..' escape": {"sources": [f"local:{root}/docs/../../outside"]},
        "symlink out": {"sources": [f"local:{root}/escape"]},
        "ftp://x": {"sources": ["ftp://x"]},
        "empty question": {"question": "   ", "sources": ["web"]},
    }
    if webhook:
        out["metadata webhook"] = {"sources": ["web"], "webhook": HOOK}
        out["file:// webhook"] = {"sources": ["web"], "webhook": "file:///etc/passwd"}
        out["loopback webhook"] = {"sources": ["web"], "webhook": "http://127.0.0.1:9/hook"}
    if interval:
        out["interval 1000000d"] = {"sources": ["web"], "every": "1000000d"}
    out["control: allowed folder"] = {"sources": [f"local:{docs}"]}
    return {k: {"question": QUESTION, **v} for k, v in out.items()}


def short(text: str, n: int = 90) -> str:
    line = " ".join(text.split())
    return line if len(line) <= n else line[:n - 1] + "…"


def table(door: str, rows: list[Row]) -> None:
    attacks_ = [r for r in rows if not r[0].startswith("control") and "own path" not in r[0]]
    n = sum(r[1] == "refused" for r in attacks_)
    own = sum("own path" in r[0] for r in rows)
    note = f"; {own} local paths of the CLI's user, accepted by design" if own else ""
    print(f"\n== {door}: {n}/{len(attacks_)} attacks refused{note} ==")
    width = max(len(r[0]) for r in rows)
    for attack, verdict, detail in rows:
        print(f"  {attack:<{width}}  {verdict:<9} {short(detail)}")


# --- the API in this process ----------------------------------------------------------------------------
@contextmanager
def api_server(store: Any, services: Any, root: Path) -> Iterator[str]:
    import uvicorn

    from openresearch.agents.run.manager import RunManager
    from openresearch.api.app import create_app
    from openresearch.config import Settings

    settings = Settings(_env_file=None, api_local_roots=[root], api_monitor=False)  # type: ignore[call-arg]
    app = create_app(settings, services, runs=RunManager(services, workers=1))
    with contextlib.closing(__import__("socket").socket()) as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def verdict_http(r: httpx.Response) -> tuple[str, str]:
    if r.status_code < 300:
        return "accepted", f"{r.status_code}"
    try:
        detail = str(r.json().get("detail"))
    except ValueError:
        detail = r.text
    return "refused", f"{r.status_code}: {detail}"


def cancel(c: httpx.Client, run_id: str) -> None:
    c.delete(f"/runs/{run_id}")
    end = time.monotonic() + 60
    while c.get(f"/runs/{run_id}").json().get("active") and time.monotonic() < end:
        time.sleep(0.05)


def door_runs(c: httpx.Client, root: Path, docs: Path) -> list[Row]:
    rows: list[Row] = []
    for name, f in attacks(root, docs).items():
        r = c.post("/runs", json={"question": f["question"], "sources": f["sources"], "offline": True,
                                  "workers": 1, "budget": 3, "max_sub_questions": 1})
        v, d = verdict_http(r)
        if r.status_code == 202:
            cancel(c, r.json()["id"])
        rows.append((name, v, d))
    return rows


def door_topics(c: httpx.Client, root: Path, docs: Path) -> list[Row]:
    rows: list[Row] = []
    for name, f in attacks(root, docs, webhook=True, interval=True).items():
        body = {"question": f["question"], "sources": f["sources"], "every": f.get("every", "1d"), "offline": True}
        if "webhook" in f:
            body["webhook"] = f["webhook"]
        rows.append((name, *verdict_http(c.post("/topics", json=body))))
    return rows


def door_resume(c: httpx.Client, store: Any, root: Path, docs: Path) -> list[Row]:
    from openresearch.agents.run.run_config import RunOptions
    from openresearch.agents.run.state import RunState

    rows: list[Row] = []
    for i, (name, f) in enumerate(attacks(root, docs).items()):
        rid = f"run-stored-{i}"
        opts = RunOptions(question=f["question"], sources=f["sources"], offline=True, workers=1, budget=3)
        RunState(store, rid, opts).save("plan", status="interrupted")  # stored before the boundary existed
        r = c.post(f"/runs/{rid}/resume")
        v, d = verdict_http(r)
        if r.status_code == 202:
            cancel(c, rid)
        rows.append((name, v, d))
    return rows


async def mcp_rows(client: Any, root: Path, docs: Path) -> tuple[list[Row], list[str]]:
    rows: list[Row] = []
    started: list[str] = []
    for name, f in attacks(root, docs).items():
        r = await client.call_tool("start_research", {"question": f["question"], "sources": f["sources"],
                                                      "offline": True})
        text = " ".join(getattr(b, "text", "") for b in r.content)
        if r.is_error:
            rows.append((name, "refused", text))
        else:
            data = r.structured_content or {}
            started.append(str(data.get("run_id")))
            rows.append((name, "accepted", f"run {data.get('run_id')}"))
    return rows, started


def door_mcp_http(url: str, root: Path, docs: Path) -> list[Row]:
    from mcp import Client

    async def go() -> tuple[list[Row], list[str]]:
        async with Client(f"{url}/mcp", read_timeout_seconds=120) as client:
            return await mcp_rows(client, root, docs)

    rows, started = asyncio.run(go())
    with httpx.Client(base_url=url, timeout=30) as c:
        for rid in started:
            cancel(c, rid)
    return rows


def door_mcp_stdio(env: dict[str, str], root: Path, docs: Path) -> list[Row]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "openresearch.cli", "mcp"],
                                   env={**env, "OPENRESEARCH_API_LOCAL_ROOTS": str(root)})

    async def go() -> list[Row]:
        async with Client(params, read_timeout_seconds=300) as client:
            rows, _ = await mcp_rows(client, root, docs)
            return rows  # the process ends with the session: its accepted run stops with it

    return asyncio.run(go())


# --- the CLI, through its entry point -------------------------------------------------------------------
def run_cli(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    from openresearch.cli import main
    from openresearch.config import get_settings

    old_env, old_argv = dict(os.environ), sys.argv
    os.environ.update(env)
    sys.argv = ["openresearch", *args]
    get_settings.cache_clear()
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as e:
        code = int(e.code or 0)
    finally:
        os.environ.clear()
        os.environ.update(old_env)
        sys.argv = old_argv
        get_settings.cache_clear()
    return code, out.getvalue(), err.getvalue()


def cli_row(name: str, res: tuple[int, str, str], accepted: str = "") -> Row:
    code, out, err = res
    if code != 0:
        return name, "refused", f"exit {code}: {err.strip()}"
    return name, "accepted", accepted or short(out)


def door_monitor_add(env: dict[str, str], root: Path, docs: Path) -> list[Row]:
    rows: list[Row] = []
    for name, f in attacks(root, docs, webhook=True, interval=True).items():
        args = ["monitor", "add", f["question"], *[a for s in f["sources"] for a in ("-s", s)],
                "--every", f.get("every", "1d")]
        if "webhook" in f:
            args += ["--webhook", f["webhook"]]
        code, out, err = run_cli(env, *args)
        label = name if name.startswith(("control", "empty", "ftp", "interval")) or "webhook" in name \
            else f"{name} (CLI: the user's own path)"
        rows.append(cli_row(label, (code, out, err)))
    return rows


def door_cli_research(env: dict[str, str], store: Any, root: Path, docs: Path) -> list[Row]:
    from openresearch.agents.run.run_config import RunOptions
    from openresearch.agents.run.state import RunState

    rows: list[Row] = []
    # a fresh run with a path the CLI accepts would research it: only the attacks the CLI refuses are driven
    for name in ("ftp://x", "empty question"):
        f = attacks(root, docs)[name]
        args = ["research", f["question"], *[a for s in f["sources"] for a in ("-s", s)], "--offline"]
        rows.append(cli_row(f"research: {name}", run_cli(env, *args)))
    for name in ("ftp://x", "empty question"):
        f = attacks(root, docs)[name]
        rid = f"run-cli-{uuid.uuid4().hex[:6]}"
        RunState(store, rid, RunOptions(question=f["question"], sources=f["sources"])).save(
            "plan", status="interrupted")
        rows.append(cli_row(f"--resume stored {name}", run_cli(env, "research", QUESTION, "--resume", rid,
                                                                  "--offline")))
    return rows


# --- monitoring runs of stored topics -------------------------------------------------------------------
def door_monitor_run(services: Any, root: Path, docs: Path) -> list[Row]:
    from openresearch.errors import InputError
    from openresearch.monitor.models import Topic, topic_id
    from openresearch.monitor.service import Monitor

    class Reached(Exception):
        pass

    def reached(_: str) -> None:
        raise Reached

    m = Monitor(services, lease_ms=60_000, before_run=reached)
    rows: list[Row] = []
    for name, f in attacks(root, docs, webhook=True, interval=True).items():
        every = f.get("every", "1d")
        t = Topic(id=topic_id(f["question"] + name, f["sources"]), question=f["question"], sources=f["sources"],
                  schedule=every, webhook=f.get("webhook"), next_due=0)  # stored by an older version: no door
        m.store.save_topic(t, 0)
        try:
            m.run_topic(t.id)
            rows.append((name, "accepted", "ran"))
        except InputError as e:
            rows.append((name, "refused", str(e)))
        except Reached:
            rows.append((name, "accepted", "reached its research run"))
    return rows


def main() -> None:
    from openresearch.agents.run.components import Components
    from openresearch.agents.run.services import Services
    from openresearch.config import Settings
    from openresearch.graph.falkor import FalkorBackend
    from openresearch.graph.falkor_server import EmbeddedFalkor
    from openresearch.graph.store import GraphStore
    from openresearch.ingest.embed import SentenceTransformerEmbedder

    with tempfile.TemporaryDirectory(prefix="bench-doors-") as tmp_s:
        tmp = Path(tmp_s)
        root, docs, _ = layout(tmp)
        srv = EmbeddedFalkor(tmp / "falkor")
        sock = str(srv.ensure().socket)
        store = GraphStore(FalkorBackend("doors", unix_socket=sock))
        store.init_schema()
        settings = Settings(_env_file=None, data_dir=tmp / "data", api_local_roots=[root])  # type: ignore[call-arg]
        embedder = SentenceTransformerEmbedder(cache_dir=tmp / "emb", backend="torch")  # no export for a bench
        services = Services(settings, store, embedder, lambda o: Components.build(
            settings, embedder, offline=True, caps=o.caps, workers=o.workers))
        env = {"OPENRESEARCH_GRAPH_URL": f"unix://{sock}", "OPENRESEARCH_GRAPH_NAME": "doors",
               "OPENRESEARCH_DATA_DIR": str(tmp / "data"), "OPENRESEARCH_LLM_BASE_URL": "", "HF_HUB_OFFLINE": "1",
               "OPENRESEARCH_API_LOCAL_ROOTS": "", "OPENRESEARCH_EMBEDDING_BACKEND": "torch"}
        results: dict[str, list[Row]] = {}
        t0 = time.perf_counter()
        try:
            with api_server(store, services, root) as url, httpx.Client(base_url=url, timeout=60) as c:
                results["POST /runs"] = door_runs(c, root, docs)
                results["POST /topics"] = door_topics(c, root, docs)
                results["POST /runs/{id}/resume (stored runs)"] = door_resume(c, store, root, docs)
                results["MCP start_research at /mcp (HTTP)"] = door_mcp_http(url, root, docs)
            results["MCP start_research over stdio"] = door_mcp_stdio({**os.environ, **env}, root, docs)
            results["CLI monitor add"] = door_monitor_add(env, root, docs)
            results["CLI research / research --resume"] = door_cli_research(env, store, root, docs)
            results["monitoring run of stored topics"] = door_monitor_run(services, root, docs)
        finally:
            store.close()
            srv.stop()
        for door, rows in results.items():
            table(door, rows)
        total = [r for rows in results.values() for r in rows if not r[0].startswith("control")]
        strict = [r for r in total if "the user's own path" not in r[0]]
        controls = [r for rows in results.values() for r in rows if r[0].startswith("control")]
        own = sum("own path" in r[0] for r in total)
        print(f"\nattacks refused: {sum(r[1] == 'refused' for r in strict)}/{len(strict)} (CLI local paths are "
              f"the user's own: {own} accepted by design); controls accepted: "
              f"{sum(r[1] == 'accepted' for r in controls)}/{len(controls)}; {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    import logging

    logging.basicConfig(level=logging.ERROR)
    main()
    sys.exit(0)
