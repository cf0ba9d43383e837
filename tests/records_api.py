"""A real local HTTP server answering like GitHub REST, the World Bank Indicators API v2 and WHO's GHO OData API.

Answers are built from the recorded fixtures in tests/fixtures/records (made-up repositories and values, in the
shapes the public API documentation gives): GitHub with X-RateLimit-* headers, Link paging, a 202 while a
statistic is "computing" and a 403 once its limit is exhausted; the World Bank's [metadata, rows] pages, its
error message for an unknown country and its empty answer; GHO's {"value": [...]} with $filter. Knobs let a
test exhaust the limit or revise a World Bank figure. Used by tests and by bench/bench_firsthand.py.
"""

from __future__ import annotations

import json
import math
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

FIXTURES = Path(__file__).parent / "fixtures" / "records"
REPO = "quillhaven/tidepool"
RESET_AT = 4_102_444_800  # the limit's reset time the server states (far ahead, so "exhausted" stays true)


@dataclass
class ApiState:
    hits: list[str] = field(default_factory=list)  # path?query of every request, in order
    gh_remaining: int = 60  # what X-RateLimit-Remaining says before the next request
    gh_limit: int = 60
    stats_computing: int = 1  # how many commit-activity requests answer 202 before the 200
    revised: dict[tuple[str, str, str], float] = field(default_factory=dict)  # (indicator, iso3, year) -> value
    new_releases: list[tuple[str, str]] = field(default_factory=list)  # (tag, day) published since the recording
    lock: threading.Lock = field(default_factory=threading.Lock)


def _load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: object) -> None:
        pass

    def send_json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        state = self.server.state
        with state.lock:
            state.hits.append(self.path)
        path = parts.path
        if path.startswith("/gh/"):
            self.github(path[3:], query)
        elif path.startswith("/wb/"):
            self.worldbank(path[3:], query)
        elif path.startswith("/who/"):
            self.who(path[4:], query)
        elif path == "/wiki/w/api.php":  # a web search that finds nothing (keeps "web" runs on this server)
            self.send_json(200, {"batchcomplete": "", "query": {"searchinfo": {"totalhits": 0}, "search": []}})
        else:
            self.send_json(404, {"message": "Not Found"})

    # --- GitHub REST ---------------------------------------------------------------------------------
    def github(self, path: str, query: dict[str, str]) -> None:
        state = self.server.state
        with state.lock:
            exhausted = state.gh_remaining <= 0
            if not exhausted:
                state.gh_remaining -= 1
            remaining = state.gh_remaining
        limits = {"X-RateLimit-Limit": str(state.gh_limit), "X-RateLimit-Remaining": str(remaining),
                  "X-RateLimit-Reset": str(RESET_AT), "X-RateLimit-Used": str(state.gh_limit - remaining),
                  "X-RateLimit-Resource": "core"}
        if exhausted:
            self.send_json(403, _load("github_rate_limited.json"), limits)
            return
        base = f"/repos/{REPO}"
        if path == base:
            self.send_json(200, _load("github_repo.json"), limits)
        elif path == f"{base}/releases":
            page = int(query.get("page", "1"))
            if page == 1:
                host = self.headers.get("Host", "127.0.0.1")
                newer = [{**_load("github_releases_page1.json")[0], "id": 900 + i, "tag_name": tag,
                          "name": f"Tidepool {tag}", "prerelease": False, "created_at": f"{day}T10:00:00Z",
                          "published_at": f"{day}T12:30:00Z"} for i, (tag, day) in enumerate(state.new_releases)]
                link = f'<http://{host}/gh{base}/releases?per_page=5&page=2>; rel="next", ' \
                       f'<http://{host}/gh{base}/releases?per_page=5&page=2>; rel="last"'
                self.send_json(200, [*reversed(newer), *_load("github_releases_page1.json")],
                               {**limits, "Link": link})
            else:
                self.send_json(200, _load("github_releases_page2.json"), limits)
        elif path == f"{base}/contributors":
            self.send_json(200, _load("github_contributors.json"), limits)
        elif path == f"{base}/stats/commit_activity":
            with state.lock:
                computing = state.stats_computing > 0
                state.stats_computing -= 1
            if computing:
                self.send_json(202, {}, limits)
            else:
                self.send_json(200, _load("github_commit_activity.json"), limits)
        else:
            self.send_json(404, _load("github_not_found.json"), limits)

    # --- World Bank Indicators API v2 ------------------------------------------------------------------
    def worldbank(self, path: str, query: dict[str, str]) -> None:
        if path == "/country":
            self.send_json(200, _load("worldbank_countries.json"))
            return
        m = re.fullmatch(r"/country/([^/]+)/indicator/([^/]+)", path)
        file = FIXTURES / f"worldbank_rows_{m.group(2)}.json" if m else None
        if m is None or file is None:
            self.send_json(200, _load("worldbank_invalid_value.json"))
            return
        if not file.exists():
            self.send_json(200, _load("worldbank_empty.json"))
            return
        rows: list[dict[str, Any]] = json.loads(file.read_text(encoding="utf-8"))
        known = {r["countryiso3code"] for r in rows} | {r["country"]["id"] for r in rows}
        codes = [c.upper() for c in m.group(1).split(";")]
        if codes != ["ALL"] and any(c not in known for c in codes):
            self.send_json(200, _load("worldbank_invalid_value.json"))
            return
        rows = [r for r in rows if codes == ["ALL"] or r["countryiso3code"] in codes or r["country"]["id"] in codes]
        if "date" in query:
            lo, _, hi = query["date"].partition(":")
            rows = [r for r in rows if int(lo) <= int(r["date"]) <= int(hi or lo)]
        for r in rows:
            key = (r["indicator"]["id"], r["countryiso3code"], r["date"])
            if key in self.server.state.revised:
                r["value"] = self.server.state.revised[key]
        per_page = int(query.get("per_page", "50"))
        page = int(query.get("page", "1"))
        pages = max(1, math.ceil(len(rows) / per_page))
        meta = {**_load("worldbank_meta.json"), "page": page, "pages": pages, "per_page": per_page,
                "total": len(rows)}
        self.send_json(200, [meta, rows[(page - 1) * per_page: page * per_page]])

    # --- WHO GHO OData ------------------------------------------------------------------------------------
    def who(self, path: str, query: dict[str, str]) -> None:
        flt = query.get("$filter", "")
        if path == "/Indicator":
            code = re.search(r"IndicatorCode eq '([^']+)'", flt)
            rows = [r for r in _load("who_indicators.json")["value"] if not code or r["IndicatorCode"] == code.group(1)]
            self.send_json(200, {"@odata.context": "https://ghoapi.example/api/$metadata#Indicator", "value": rows})
        elif path == "/DIMENSION/COUNTRY/DimensionValues":
            self.send_json(200, _load("who_countries.json"))
        else:
            file = FIXTURES / f"who_rows_{path.strip('/')}.json"
            body = json.loads(file.read_text(encoding="utf-8")) if file.exists() else {"value": []}
            wanted = set(re.findall(r"SpatialDim eq '([^']+)'", flt))
            since = re.search(r"TimeDim ge (\d{4})", flt)
            body["value"] = [r for r in body["value"] if (not wanted or r["SpatialDim"] in wanted)
                             and (not since or r["TimeDim"] >= int(since.group(1)))]
            self.send_json(200, body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: ApiState


class RecordsApi:
    """`with RecordsApi() as api:` serves on 127.0.0.1; `api.settings_overrides()` point the settings at it."""

    def __init__(self) -> None:
        self.server = _Server(("127.0.0.1", 0), _Handler)
        self.server.state = ApiState()
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def state(self) -> ApiState:
        return self.server.state

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def settings_overrides(self) -> dict[str, Any]:
        return {"github_api_url": f"{self.base}/gh", "worldbank_api_url": f"{self.base}/wb",
                "who_api_url": f"{self.base}/who", "trusted_hosts": ["127.0.0.1"],
                "host_intervals": {"127.0.0.1": 0.0}, "github_stats_wait_s": 0.01, "backoff_base_s": 0.01,
                "records_per_page": 20, "wikipedia_url": f"{self.base}/wiki/w/api.php"}

    def __enter__(self) -> RecordsApi:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=5)
