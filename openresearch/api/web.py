"""The server-rendered web page at `/`: runs, a form that starts one (with live progress), reports with
clickable citations, entity comparisons and the conflicts list with resolve buttons.

The page is a client of the JSON API, called in process (`httpx.ASGITransport` on the same app), so it
shows exactly what the API answers (problem details included) and goes through the same key check: the
caller's `Authorization` header or sign-in session is passed on. Every form that changes something carries
a token and is refused from another site (api/csrf.py); on a keyed server nothing but the sign-in form
answers without the key (api/gate.py). Only http(s) addresses become links. Pages live under `/ui/`; `/` is
the runs page. The only JavaScript is `static/app.js`: the SSE progress of a run and the citation panel
(GET /evidence/{id}); every page also works without it (citations link to `/ui/evidence/{id}`).
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote, urlencode

import httpx
from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape

from openresearch.api import web_views
from openresearch.api.csrf import CSRF_COOKIE, CrossSiteRefused, checked_form, form_token, nonce
from openresearch.api.deps import ApiState, api_key, authorized, key_matches
from openresearch.api.session import SESSION_COOKIE
from openresearch.links import is_http_url

__all__ = ["CrossSiteRefused", "is_http_url", "link_citations", "resolution_body", "router", "run_body"]

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
STATIC_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
templates = Jinja2Templates(directory=str(HERE / "templates"))
LEGACY_KEY_COOKIE = "openresearch_key"  # earlier versions kept the raw key here: deleted wherever it is seen
router = APIRouter(include_in_schema=False)

# one bracket may hold several ids: [E-1a2b], [E-1a2b, E-3c4d]
_CITE = re.compile(r"\[(E-[A-Za-z0-9_-]+(?:\s*[,;]\s*E-[A-Za-z0-9_-]+)*)\]")
_EID = re.compile(r"E-[A-Za-z0-9_-]+")


def link_citations(text: str) -> Markup:
    """Sentence text (escaped) whose `[E-…]` markers become links to the evidence they cite."""
    out: list[str] = []
    pos = 0
    for m in _CITE.finditer(text):
        out.append(str(escape(text[pos:m.start()])))
        links = [f'<a class="cite" href="/ui/evidence/{e}" data-evidence="{e}">{e}</a>' for e in _EID.findall(m[1])]
        out.append("[" + ", ".join(links) + "]")
        pos = m.end()
    out.append(str(escape(text[pos:])))
    return Markup("".join(out))


templates.env.filters["cite"] = link_citations
templates.env.filters["quantity"] = web_views.quantity  # "2019", not "2019.0 year"
templates.env.filters["conditions"] = web_views.conditions  # no "(; ; )"
templates.env.filters["when"] = web_views.when
templates.env.globals["cell_lines"] = web_views.cell_lines
templates.env.tests["http_url"] = is_http_url  # {% if url is http_url %}: only these become links


class ApiError(Exception):
    """The API answered with a problem; the page shows it."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        super().__init__(problem.get("detail") or problem.get("title") or status)
        self.status = status
        self.problem = problem


async def _api(request: Request, method: str, path: str, *, params: Any = None, json: Any = None,
               accept: str = "application/json") -> httpx.Response:
    headers = {"accept": accept}
    if "authorization" in request.headers:
        headers["authorization"] = request.headers["authorization"]
    elif request.cookies.get(SESSION_COOKIE):
        headers["cookie"] = f"{SESSION_COOKIE}={request.cookies[SESSION_COOKIE]}"
    transport = httpx.ASGITransport(app=request.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://openresearch.local") as client:
        return await client.request(method, path, params=params, json=json, headers=headers)


class NeedsKey(Exception):
    """The API answered 401 to a page: the browser has not signed in with the key (handled by `needs_key`)."""


async def needs_key(request: Request, _: Exception) -> Response:
    """A page that needs the API key sends the browser to the sign-in form, and back afterwards."""
    back = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    target = back if request.method == "GET" else "/"
    return RedirectResponse("/ui/login?" + urlencode({"next": target}), status_code=303)


async def cross_site_refused(request: Request, exc: Exception) -> Response:
    """A form post from another site (or with a stale token): nothing was done; a 403 page says why."""
    return _page(request, "problem.html", http_status=403,
                 problem={"title": "Forbidden", "status": 403, "detail": str(exc)})


async def _api_json(request: Request, method: str, path: str, **kw: Any) -> Any:
    resp = await _api(request, method, path, **kw)
    if resp.status_code == 401:
        raise NeedsKey()
    try:
        body = resp.json()
    except ValueError:
        body = {"title": resp.reason_phrase, "detail": resp.text[:500]}
    if resp.status_code >= 400:
        raise ApiError(resp.status_code, body if isinstance(body, dict) else {"detail": str(body)})
    return body


def _page(request: Request, name: str, http_status: int = 200, **ctx: Any) -> HTMLResponse:
    """A page; its forms carry this browser's token (the nonce cookie is set on its first page). A browser not
    signed in to a keyed server gets the stylesheet inline: /ui/static needs the key too."""
    st: ApiState = request.app.state.api
    browser_nonce, new = nonce(request)
    signed_in = authorized(st, request.headers, request.cookies)
    ctx.update(csrf_token=form_token(st, request, browser_nonce),
               keyed=bool(api_key(st.settings)), signed_in=signed_in,
               inline_css=None if signed_in else Markup((STATIC / "style.css").read_text(encoding="utf-8")))
    resp = templates.TemplateResponse(request, name, ctx, status_code=http_status)
    if new:
        resp.set_cookie(CSRF_COOKIE, browser_nonce, httponly=True, samesite="strict",
                        secure=request.url.scheme == "https", path="/")
    _forget_legacy_key(request, resp)
    return resp


def _forget_legacy_key(request: Request, resp: Response) -> None:
    if LEGACY_KEY_COOKIE in request.cookies:
        resp.delete_cookie(LEGACY_KEY_COOKIE, path="/")


def _problem_page(request: Request, err: ApiError) -> HTMLResponse:
    return _page(request, "problem.html", http_status=err.status, problem=err.problem)


def _items(body: Any) -> list[Any]:
    if isinstance(body, dict):
        items = body.get("items", [])
        return items if isinstance(items, list) else []
    return body if isinstance(body, list) else []


# --- pages ---------------------------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
async def index(request: Request, cursor: Annotated[str | None, Query(max_length=2000)] = None) -> HTMLResponse:
    """The runs (newest first) and the form that starts one."""
    runs: list[Any] = []
    next_cursor = None
    runs_problem: dict[str, Any] | None = None
    try:
        body = await _api_json(request, "GET", "/runs", params={"cursor": cursor} if cursor else None)
        runs, next_cursor = _items(body), body.get("next_cursor") if isinstance(body, dict) else None
    except ApiError as e:
        runs_problem = e.problem
    return _page(request, "index.html", runs=runs, next_cursor=next_cursor, runs_problem=runs_problem)


@router.post("/ui/runs", dependencies=[Depends(checked_form)])
async def start_run(request: Request, question: Annotated[str, Form(min_length=1, max_length=2000)],
                    sources: Annotated[str, Form(max_length=4000)] = "",
                    offline: Annotated[bool, Form()] = False,
                    style: Annotated[str, Form(max_length=20)] = "",
                    budget: Annotated[str, Form(max_length=10)] = "") -> Response:
    """The form's target: POST /runs, then the run's page (303, so a reload does not start it again)."""
    try:
        resp = await _api(request, "POST", "/runs", json=run_body(question, sources, offline, style, budget))
        if resp.status_code == 401:
            raise NeedsKey()
        body = resp.json() if resp.content else {}
        if resp.status_code >= 400:
            raise ApiError(resp.status_code, body if isinstance(body, dict) else {})
    except ValueError:
        raise HTTPException(502, "the API answered POST /runs with something that is not JSON") from None
    except ApiError as e:
        return _problem_page(request, e)
    run_id = _run_id(body, resp.headers.get("location", ""))
    if not run_id:
        raise HTTPException(502, "the API started a run but named no run id")
    return RedirectResponse(f"/ui/runs/{run_id}", status_code=303)


def run_body(question: str, sources: str = "", offline: bool = False, style: str = "",
             budget: str = "") -> dict[str, Any]:
    """The POST /runs body of the form: sources one per line or comma-separated (web, arxiv, scholar,
    local:PATH); none given leaves the API's default; offline only when ticked; a style and a budget when given
    (the API checks them: a budget outside 3..40 or an unknown style is its 422, shown on the page)."""
    body: dict[str, Any] = {"question": question}
    names = [s.strip() for s in re.split(r"[,\n]", sources) if s.strip()]
    if names:
        body["sources"] = names
    if offline:
        body["offline"] = True
    if style.strip():
        body["style"] = style.strip()
    if budget.strip():
        body["budget"] = int(budget) if budget.strip().isdigit() else budget.strip()
    return body


def _run_id(body: Any, location: str) -> str:
    if isinstance(body, dict):
        for key in ("id", "run_id"):
            if isinstance(body.get(key), str) and body[key]:
                return str(body[key])
    return location.rstrip("/").rsplit("/", 1)[-1] if "/runs/" in location else ""


@router.get("/ui/runs/{run_id}", response_class=HTMLResponse)
async def run_page(request: Request, run_id: str) -> HTMLResponse:
    """A run: its live progress (SSE, by app.js) while it runs, its report once it is done."""
    try:
        run = await _api_json(request, "GET", f"/runs/{run_id}")
    except ApiError as e:
        return _problem_page(request, e)
    report = None
    report_problem = None
    if str(run.get("status", "")) in ("done", "finished", "completed", "succeeded"):
        try:
            report = await _api_json(request, "GET", f"/runs/{run_id}/report")
        except ApiError as e:
            report_problem = e.problem
    return _page(request, "run.html", run=run, run_id=run_id, report=report, report_problem=report_problem,
                 evidence={e.get("id"): e for e in (report or {}).get("evidence", []) if isinstance(e, dict)},
                 view=web_views.report_view(report) if isinstance(report, dict) else None)


@router.post("/ui/runs/{run_id}/cancel", dependencies=[Depends(checked_form)])
async def cancel_run(request: Request, run_id: Annotated[str, PathParam(max_length=200)]) -> Response:
    """The Cancel button: DELETE /runs/{id}, then the run's page (303); a run that cannot be: its problem."""
    return await _run_action(request, "DELETE", f"/runs/{quote(run_id, safe='')}", run_id)


@router.post("/ui/runs/{run_id}/resume", dependencies=[Depends(checked_form)])
async def resume_run(request: Request, run_id: Annotated[str, PathParam(max_length=200)]) -> Response:
    """The Resume button: POST /runs/{id}/resume, then the run's page (303), which follows it."""
    return await _run_action(request, "POST", f"/runs/{quote(run_id, safe='')}/resume", run_id)


async def _run_action(request: Request, method: str, path: str, run_id: str) -> Response:
    try:
        await _api_json(request, method, path)
    except ApiError as e:
        return _problem_page(request, e)
    return RedirectResponse(f"/ui/runs/{quote(run_id, safe='')}", status_code=303)


@router.get("/ui/evidence/{evidence_id}", response_class=HTMLResponse)
async def evidence_page(request: Request, evidence_id: str) -> HTMLResponse:
    """One evidence item: its quote and where it came from (what the citation panel shows, without JS)."""
    try:
        detail = await _api_json(request, "GET", f"/evidence/{evidence_id}")
    except ApiError as e:
        return _problem_page(request, e)
    return _page(request, "evidence.html", detail=detail, ev=detail.get("evidence", {}))


@router.get("/ui/compare", response_class=HTMLResponse)
async def compare_page(request: Request,
                       entity: Annotated[list[str] | None, Query(max_length=20)] = None,
                       metric: Annotated[str | None, Query(max_length=200)] = None) -> HTMLResponse:
    """The metric × entity table for the entities in the form, every cell with the evidence behind it."""
    names = [e for e in (entity or []) if e.strip()]
    comp = None
    problem = None
    if names:
        params: list[tuple[str, str]] = [("entity", n) for n in names]
        if metric:
            params.append(("metric", metric))
        try:
            comp = await _api_json(request, "GET", "/compare", params=params)
        except ApiError as e:
            problem = e.problem
    charts = web_views.compare_charts(comp) if isinstance(comp, dict) else ""
    return _page(request, "compare.html", names=names, metric=metric or "", comp=comp, problem=problem, charts=charts)


@router.get("/ui/conflicts", response_class=HTMLResponse)
async def conflicts_page(request: Request,
                         entity: Annotated[str | None, Query(max_length=200)] = None,
                         metric: Annotated[str | None, Query(max_length=200)] = None,
                         status: Annotated[str, Query(pattern="^(open|resolved|stale|all)$")] = "all",
                         cursor: Annotated[str | None, Query(max_length=2000)] = None) -> HTMLResponse:
    """The conflict groups with their values and sources, each with resolve buttons."""
    params = {k: v for k, v in (("entity", entity), ("metric", metric), ("status", status),
                                ("cursor", cursor)) if v}
    try:
        body = await _api_json(request, "GET", "/conflicts", params=params)
    except ApiError as e:
        return _problem_page(request, e)
    more = None
    if isinstance(body, dict) and body.get("next_cursor"):
        more = "/ui/conflicts?" + urlencode({**params, "cursor": body["next_cursor"]})
    conflicts = _items(body)
    return _page(request, "conflicts.html", conflicts=conflicts, entity=entity or "", metric=metric or "",
                 status=status, more=more, figures=web_views.conflict_figures(conflicts))


MAX_VALUE_ROWS = 200  # the values table of the topics page; the charts draw every row


@router.get("/ui/topics", response_class=HTMLResponse)
async def topics_page(request: Request,
                      as_of: Annotated[date | None, Query(description="Values and conflicts current then.")] = None,
                      entity: Annotated[str | None, Query(max_length=200)] = None,
                      metric: Annotated[str | None, Query(max_length=200)] = None) -> HTMLResponse:
    """Watched topics with their latest digest (its sentences with clickable citations), and the values and
    conflicts as of a date, each monitored value over time as a line."""
    try:
        topics = _items(await _api_json(request, "GET", "/topics"))
        latest: dict[str, Any] = {}
        for t in topics:
            found = _items(await _api_json(request, "GET", f"/topics/{quote(str(t.get('id', '')), safe='')}/digests",
                                           params={"limit": 1}))
            latest[str(t.get("id"))] = found[0] if found else None
        filters = {k: v for k, v in (("entity", entity), ("metric", metric)) if v}
        day = {"as_of": as_of.isoformat()} if as_of else {}
        values = _items(await _api_json(request, "GET", "/topics/values", params={**filters, **day}))
        history = _items(await _api_json(request, "GET", "/topics/values", params={**filters, "superseded": "true"}))
        conflicts = _items(await _api_json(request, "GET", "/topics/conflicts", params=day))
    except ApiError as e:
        return _problem_page(request, e)
    if entity:  # GET /topics/conflicts reads the whole graph: the page keeps the entity's groups
        conflicts = [c for c in conflicts if entity.casefold() in str(c.get("entity", "")).casefold()]
    if as_of is not None:  # the lines end on the day asked about
        end = web_views.day_end_ms(as_of)
        history = [r for r in history if (r.get("as_of") or r.get("published_at") or 0) <= end]
    return _page(request, "topics.html", topics=topics, latest=latest, as_of=as_of.isoformat() if as_of else "",
                 entity=entity or "", metric=metric or "", values=web_views.value_rows(values[:MAX_VALUE_ROWS]),
                 more_values=max(0, len(values) - MAX_VALUE_ROWS), conflicts=conflicts,
                 charts=web_views.topic_charts(history))


@router.post("/ui/conflicts/{conflict_id}/resolution", dependencies=[Depends(checked_form)])
async def resolve_conflict(request: Request, conflict_id: str,
                           choice: Annotated[str, Form(max_length=100)],
                           note: Annotated[str, Form(max_length=4000)] = "",
                           author: Annotated[str, Form(max_length=200)] = "") -> Response:
    """A resolve button (`value_correct|<value>`, `both_hold`, `not_conflict`): POST
    /conflicts/{id}/resolution, then back to the list (303)."""
    body = resolution_body(choice, note, author)
    try:
        await _api_json(request, "POST", f"/conflicts/{conflict_id}/resolution", json=body)
    except ApiError as e:
        return _problem_page(request, e)
    return RedirectResponse(f"/ui/conflicts#c-{conflict_id}", status_code=303)


def resolution_body(choice: str, note: str = "", author: str = "") -> dict[str, Any]:
    """The API body of a resolve button; a value that is not a number goes through for the API's 422."""
    decision, _, value = choice.partition("|")
    body: dict[str, Any] = {"decision": decision, "note": note, "author": author.strip() or "web"}
    if value:
        try:
            body["value"] = float(value)
        except ValueError:
            body["value"] = value
    return body


# --- signing in with the API key (only needed when the server requires one) -----------------------------

@router.get("/ui/login", response_class=HTMLResponse)
async def login_page(request: Request, next: Annotated[str, Query(max_length=2000)] = "/") -> HTMLResponse:
    """The form that takes the API key, for a server that requires one."""
    return _page(request, "login.html", next=_local_path(next), wrong=False)


@router.post("/ui/login", dependencies=[Depends(checked_form)])
async def login(request: Request, key: Annotated[str, Form(max_length=4000)],
                next: Annotated[str, Form(max_length=2000)] = "/") -> Response:
    """A right key starts a signed, expiring session kept in an HttpOnly, SameSite=Strict cookie (Secure over
    https), never the key itself; a wrong key: 401."""
    st: ApiState = request.app.state.api
    if not key_matches(key, st.settings):
        return _page(request, "login.html", http_status=401, next=_local_path(next), wrong=True)
    resp = RedirectResponse(_local_path(next), status_code=303)
    _forget_legacy_key(request, resp)
    if not api_key(st.settings):
        return resp  # a server without a key has nothing to sign in to
    resp.set_cookie(SESSION_COOKIE, st.sessions.issue(), max_age=int(st.settings.api_session_ttl_s), httponly=True,
                    samesite="strict", secure=request.url.scheme == "https", path="/")
    return resp


@router.post("/ui/logout", dependencies=[Depends(checked_form)])
async def logout(request: Request) -> Response:
    """The session ends here and now, not only in this browser."""
    st: ApiState = request.app.state.api
    st.sessions.revoke(request.cookies.get(SESSION_COOKIE, ""))
    resp = RedirectResponse("/ui/login", status_code=303)
    resp.delete_cookie(SESSION_COOKIE, path="/")
    return resp


def _local_path(target: str) -> str:
    """Only a path on this server (no scheme, no host, no `//`): the sign-in never redirects elsewhere."""
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else "/"


# --- Neo4j Browser assets, for a Neo4j that is not `openresearch neo4j start`'s (docker compose, Aura) ------

BROWSER_TYPES = {".grass": "text/plain; charset=utf-8", ".cypher": "text/plain; charset=utf-8"}
# Browser fetches guides and styles cross-origin with no-cache and tracing headers (a preflight); they hold
# no data, so any origin and header may read them
CORS = {"access-control-allow-origin": "*", "access-control-allow-methods": "GET, OPTIONS",
        "access-control-allow-headers": "*", "access-control-max-age": "600",
        "cache-control": "no-cache"}


@router.get("/ui/neo4j/guide.html")
async def neo4j_guide(request: Request) -> HTMLResponse:
    """The Browser guide of saved queries: `:guide http://localhost:8000/ui/neo4j/guide.html`."""
    from openresearch.graph import neo4j_browser

    style = str(request.url_for("neo4j_asset", name="style.grass"))
    store = request.app.state.api.store  # the queries resolve names and weigh values as this API does
    params = neo4j_browser.guide_params(store.aliases, store.tolerance)
    return HTMLResponse(neo4j_browser.render_guide(neo4j_browser.load_queries(), style, params), headers=CORS)


@router.get("/ui/neo4j/{name}", name="neo4j_asset")
async def neo4j_asset(name: str) -> FileResponse:
    """The graph style (`:style http://localhost:8000/ui/neo4j/style.grass`) and the saved query files."""
    from openresearch.graph import neo4j_browser

    path = neo4j_browser.ASSETS / name if name == "style.grass" else neo4j_browser.ASSETS / "queries" / name
    if "/" in name or name.startswith(".") or path.suffix not in BROWSER_TYPES or not path.is_file():
        raise HTTPException(404, "no such file")
    return FileResponse(path, media_type=BROWSER_TYPES[path.suffix], headers=CORS)


@router.options("/ui/neo4j/{name}")
async def neo4j_preflight(name: str) -> Response:
    return Response(status_code=204, headers=CORS)


@router.get("/ui/static/{name}")
async def static(name: str) -> FileResponse:
    path = STATIC / name
    if "/" in name or name.startswith(".") or path.suffix not in STATIC_TYPES or not path.is_file():
        raise HTTPException(404, "no such file")
    return FileResponse(path, media_type=STATIC_TYPES[path.suffix], headers={"cache-control": "no-cache"})
