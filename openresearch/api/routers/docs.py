"""The OpenAPI page at `/docs`, with Swagger UI served from the package (api/static/swagger, swagger-ui-dist
5.35.0) instead of a CDN: OpenResearch runs where nothing outside the machine is reachable."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse

ASSETS = Path(__file__).resolve().parents[1] / "static" / "swagger"
_TYPES = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css", "favicon-32x32.png": "image/png"}

router = APIRouter(include_in_schema=False)


@router.get("/docs")
def docs(request: Request) -> HTMLResponse:
    root = request.scope.get("root_path", "").rstrip("/")
    return get_swagger_ui_html(openapi_url=f"{root}{request.app.openapi_url}", title=f"{request.app.title} docs",
                               swagger_js_url=f"{root}/docs/assets/swagger-ui-bundle.js",
                               swagger_css_url=f"{root}/docs/assets/swagger-ui.css",
                               swagger_favicon_url=f"{root}/docs/assets/favicon-32x32.png")


@router.get("/docs/assets/{name}")
def asset(name: str) -> FileResponse:
    if name not in _TYPES:  # a fixed list: no path from the request reaches the file system
        raise HTTPException(404, "no such file")
    return FileResponse(ASSETS / name, media_type=_TYPES[name], headers={"cache-control": "public, max-age=86400"})
