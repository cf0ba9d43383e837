"""Two doors every request passes, as plain ASGI middleware (so a route added later is covered too):

- `KeyGate`: on a server with an API key, nothing answers without the key (bearer header) or a signed
  sign-in session, except `/healthz` and the sign-in form itself (GET and POST /ui/login). A browser asking
  for a page is sent to the sign-in form and back; anything else gets a 401 problem.
- `JsonOnly`: the JSON API (everything outside /ui/) refuses the three content types a cross-site HTML form
  can send (urlencoded, multipart, text/plain) with 415, so no other site can post to it with a form.
"""

from __future__ import annotations

from urllib.parse import urlencode

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


class JsonOnly:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in _READS and not route_path(scope).startswith("/ui/"):
            raw = dict(scope.get("headers") or []).get(b"content-type", b"").decode("latin-1")
            media = raw.split(";", 1)[0].strip().lower()
            if media in FORM_TYPES:
                await problem(415, f"this route takes application/json, not {media}",
                              instance=route_path(scope))(scope, receive, send)
                return
        await self.app(scope, receive, send)
