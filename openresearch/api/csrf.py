"""No cross-site writes through the web page: every form that changes something carries a token, and its POST
is checked for where it came from (`checked_form`, a dependency of those routes).

- `Sec-Fetch-Site`, when the browser sends it, must be `same-origin`. Another port or subdomain of the same
  host is `same-site`, and SameSite cookies still go along with it, so that is refused too.
- `Origin`, when sent, must be this server's own.
- The form's `csrf_token` must be valid in any case: a signed double-submit token, bound to a random nonce
  the browser holds in a cookie (HttpOnly, SameSite=Strict) and to its sign-in session, and expiring. So a
  request with neither header (an older browser, a script) passes on a valid token alone.
"""

from __future__ import annotations

import re
import secrets
import time
from typing import Annotated

from fastapi import Form, Request

from openresearch.api.deps import ApiState, StateDep
from openresearch.api.gate import same_origin
from openresearch.api.session import SESSION_COOKIE
from openresearch.api.signing import derive, sign, verify

CSRF_COOKIE = "openresearch_csrf"
FIELD = "csrf_token"
_PURPOSE = "form"
_NONCE = re.compile(r"[A-Za-z0-9_-]{22,64}")


class CrossSiteRefused(Exception):
    """A form post that did not come from this server's own page (the web page shows a 403)."""


def nonce(request: Request) -> tuple[str, bool]:
    """The browser's nonce (from its cookie) and whether it is new (then the response must set the cookie)."""
    have = request.cookies.get(CSRF_COOKIE, "")
    return (have, False) if _NONCE.fullmatch(have) else (secrets.token_urlsafe(24), True)


def _bound(st: ApiState, request: Request, browser_nonce: str) -> tuple[str, str]:
    sid = st.sessions.session_id(request.cookies.get(SESSION_COOKIE, "")) or ""
    return browser_nonce, sid


def form_token(st: ApiState, request: Request, browser_nonce: str) -> str:
    expires = int(time.time() + st.settings.api_session_ttl_s)
    return sign(derive(st.secret, "csrf"), _PURPOSE, "", expires, *_bound(st, request, browser_nonce))


def check(st: ApiState, request: Request, token: str) -> None:
    """Raise CrossSiteRefused unless the form post came from this server's page (see the module's note)."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site != "same-origin":
        raise CrossSiteRefused(f"a form posted from another site (Sec-Fetch-Site: {site[:40]})")
    origin = request.headers.get("origin")
    if origin is not None and not same_origin(origin, request.headers.get("host", ""), request.url.scheme):
        raise CrossSiteRefused(f"a form posted from another origin ({origin[:200]})")
    have = request.cookies.get(CSRF_COOKIE, "")
    if not (_NONCE.fullmatch(have) and token
            and verify(derive(st.secret, "csrf"), _PURPOSE, token, time.time(), *_bound(st, request, have)) == ""):
        raise CrossSiteRefused("the form's token is missing, expired or not this browser's: reload the page and "
                               "send it again")


async def checked_form(st: StateDep, request: Request,
                       csrf_token: Annotated[str, Form(max_length=500)] = "") -> None:
    """The dependency of every state-changing form route."""
    check(st, request, csrf_token)
