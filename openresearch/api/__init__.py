"""The HTTP API (FastAPI): `app.create_app(settings, services, runs)`; one router per resource in routers/,
request and response bodies in schemas.py, RFC 9457 problems in problems.py, cursor pages in pagination.py."""
