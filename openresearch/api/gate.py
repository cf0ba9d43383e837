"""Two doors every request passes, as plain ASGI middleware (so a route added later is covered too):

- `KeyGate`: on a server with an API key, nothing answers without the key (bearer header) or a signed
  sign-in session, except `/healthz` and the sign-in form itself (GET and POST /ui/login). A browser asking
  for a page is sent to the sign-in form and back; anything else gets a 401 problem.
- `JsonOnly`: the JSON API (everything outside /ui/) refuses the three content types a cross-site HTML form
  can send (urlencoded, multipart, text/plain) with 415, so no other site can post to it with a form; and a
  body with no content type (a cross-site `fetch` of a Blob sends none, and FastAPI would read it as JSON).
  A write a browser marks as coming from another site (`Sec-Fetch-Site`, else `Origin`) is a 403 unless
  that origin is one CORS allows (OPENRESEARCH_API_CORS_ORIGINS): scripts and API clients send neither.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlencode, urlsplit

from fastapi.responses import RedirectResponse, Response
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from openresearch.api.deps import ApiState, authorized
from openresearch.api.problems import problem

# what signing in strictly needs: the form (its stylesheet is inlined: /ui/static stays closed) and its POST
OPEN = frozenset({("GET", "/healthz"), ("HEAD", "/healthz"),
                  ("GET", "/ui/login"), ("HEAD", "/ui/login"), ("POST", "/ui/login")})
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"})
_READS = frozenset({"GET", "HEAD", "OPTIONS"})


def route_path(scope: Scope) -> str:
    path: str = scope.get("path", "")
    root: str = scope.get("root_path", "")
    return (path[len(root):] or "/") if root and path.startswith(root) else path


def _is_page(path: str) -> bool:
    return (path in ("/", "/docs") or path.startswith("/ui/")) and not path.startswith(("/ui/static/", "/ui/neo4j/"))


class KeyGate:
    def __init__(self, app: ASGIApp, api: ApiState) -> None:
        self.app, self.api = app, api

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path, method = route_path(scope), scope["method"]
        conn = HTTPConnection(scope)
        if (method, path) in OPEN or authorized(self.api, conn.headers, conn.cookies):
            await self.app(scope, receive, send)
            return
        if _is_page(path):
            # a page: to the sign-in form, and back afterwards (a form post goes back to the runs page)
            back = path + (f"?{conn.url.query}" if conn.url.query and method == "GET" else "")
            target = back if method == "GET" else "/"
            response: Response = RedirectResponse("/ui/login?" + urlencode({"next": target}), status_code=303)
        else:
            response = problem(401, "missing or wrong API key", instance=path, headers={"WWW-Authenticate": "Bearer"})
        await response(scope, receive, send)


def same_origin(origin: str, host: str, scheme: str) -> bool:
    """`origin` is this server as the browser addressed it (`host`: the Host header). An https origin for a
    request that arrived over http is a TLS-terminating proxy in front, still this server."""
    parts = urlsplit(origin)
    return (bool(host) and parts.scheme in (scheme, "https") and parts.netloc.lower() == host.lower()
            and parts.path in ("", "/") and not parts.query)


class JsonOnly:
    def __init__(self, app: ASGIApp, cors_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(o.rstrip("/").lower() for o in cors_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in _READS and not route_path(scope).startswith("/ui/"):
            refusal = self._refusal(HTTPConnection(scope))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refusal(self, conn: HTTPConnection) -> Response | None:
        headers, path = conn.headers, route_path(conn.scope)
        media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        has_body = headers.get("content-length", "0").strip() not in ("", "0") or "transfer-encoding" in headers
        if media in FORM_TYPES or (has_body and not media):
            return problem(415, f"this route takes application/json, not {media or 'a body of no type'}",
                           instance=path)
        origin = headers.get("origin")
        site = headers.get("sec-fetch-site")
        if origin is not None and (origin.rstrip("/").lower() in self.allowed or "*" in self.allowed):
            return None
        if (site is not None and site not in ("same-origin", "none")) or (
                origin is not None and not same_origin(origin, headers.get("host", ""), conn.url.scheme)):
            return problem(403, "a write from another site; this API takes them only from the origins "
                           "OPENRESEARCH_API_CORS_ORIGINS allows", instance=path)
        return None
