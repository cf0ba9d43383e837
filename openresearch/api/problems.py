"""Errors as RFC 9457 problem details (`application/problem+json`), for every error the API answers.

Domain errors map to status codes here (errors.py draws the tree); handlers never build error bodies.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from openresearch.errors import (
    BudgetExceeded,
    ConfigError,
    GraphUnavailable,
    InputError,
    NotFound,
    OpenResearchError,
)

log = logging.getLogger(__name__)
PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://openresearch.dev/problems/"


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str = Field(default="about:blank", description="A URI naming the kind of problem.")
    title: str
    status: int
    detail: str | None = None
    instance: str | None = None
    errors: list[dict[str, Any]] | None = Field(default=None, description="Field errors of a 422.")


# status -> (type suffix, title) for the problems the API names itself
_KINDS: dict[int, str] = {400: "bad-request", 401: "unauthorized", 403: "forbidden", 404: "not-found",
                          405: "method-not-allowed", 406: "not-acceptable",
                          409: "conflict", 413: "too-large", 415: "unsupported-media-type", 422: "invalid-input",
                          429: "too-many", 500: "internal", 503: "unavailable"}

PROBLEM_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"model": Problem, "description": HTTPStatus(code).phrase, "content": {PROBLEM_JSON: {}}}
    for code in (400, 401, 404, 406, 409, 413, 422, 500, 503)
}


def problem(status: int, detail: str | None = None, *, instance: str | None = None,
            errors: list[dict[str, Any]] | None = None, headers: dict[str, str] | None = None) -> JSONResponse:
    kind = _KINDS.get(status)
    body = Problem(type=TYPE_BASE + kind if kind else "about:blank", title=HTTPStatus(status).phrase,
                   status=status, detail=detail, instance=instance, errors=errors)
    return JSONResponse(jsonable_encoder(body.model_dump(exclude_none=True)), status_code=status,
                        media_type=PROBLEM_JSON, headers=headers)


def status_of(exc: OpenResearchError) -> int:
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, InputError | ConfigError):
        return 400
    if isinstance(exc, GraphUnavailable):
        return 503
    if isinstance(exc, BudgetExceeded):
        return 429
    return 500


def _errors(exc: RequestValidationError) -> list[dict[str, Any]]:
    # the offending input is not echoed back: it may be megabytes, or a secret pasted in the wrong field
    return [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
            for e in exc.errors()]


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into a problem document."""

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else None
        return problem(exc.status_code, detail, instance=request.url.path, headers=dict(exc.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return problem(422, "the request does not match the schema", instance=request.url.path, errors=_errors(exc))

    @app.exception_handler(OpenResearchError)
    async def _domain(request: Request, exc: OpenResearchError) -> JSONResponse:
        status = status_of(exc)
        if status >= 500:
            log.error("%s on %s: %s", type(exc).__name__, request.url.path, exc)
        return problem(status, str(exc) if status < 500 else type(exc).__name__, instance=request.url.path)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s", request.url.path)
        return problem(500, "an unexpected error; see the server log", instance=request.url.path)
