"""Open the graph a command asks for: Neo4j by URL, an external FalkorDB, or the embedded default."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from openresearch.config import Settings
from openresearch.errors import ConfigError
from openresearch.graph.backend import GraphBackend
from openresearch.graph.store import GraphStore
from openresearch.identity import AliasResolver

if TYPE_CHECKING:
    from openresearch.graph.falkor_server import EmbeddedFalkor

NEO4J_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def open_backend(settings: Settings, url: str | None = None) -> GraphBackend:
    target = url if url is not None else settings.graph_url
    if not target or target in {"embedded", "falkordb"}:
        from openresearch.graph.falkor import FalkorBackend
        from openresearch.graph.falkor_server import EmbeddedFalkor

        server = EmbeddedFalkor(settings.data_dir)
        info = server.ensure()
        return FalkorBackend(settings.graph_name, unix_socket=str(info.socket), revive=embedded_revive(server))
    parts = urlsplit(target)
    if parts.scheme in NEO4J_SCHEMES:
        from openresearch.graph.neo4j_backend import Neo4jBackend

        user = unquote(parts.username) if parts.username else settings.graph_user
        password = unquote(parts.password) if parts.password else (
            settings.graph_password.get_secret_value() if settings.graph_password else None)
        netloc = parts.hostname or "localhost"
        if parts.port:
            netloc += f":{parts.port}"
        database = parts.path.strip("/") or settings.graph_database
        return Neo4jBackend(f"{parts.scheme}://{netloc}", user, password, database)
    if parts.scheme in {"falkordb", "redis"}:
        from openresearch.graph.falkor import FalkorBackend

        graph = parts.path.strip("/") or settings.graph_name
        password = unquote(parts.password) if parts.password else None
        return FalkorBackend(graph, host=parts.hostname or "127.0.0.1", port=parts.port or 6379, password=password)
    if parts.scheme == "unix":
        from openresearch.graph.falkor import FalkorBackend

        return FalkorBackend(settings.graph_name, unix_socket=parts.path)
    raise ConfigError(f"unsupported graph URL {target!r}: use bolt://, neo4j://, neo4j+s://, falkordb://host:port "
                      "or leave it empty for the embedded FalkorDB")


def embedded_revive(server: EmbeddedFalkor) -> Callable[[bool], tuple[str, str | None]]:
    """The embedded server's restart for FalkorBackend: a server that died is started again on the same data."""
    def revive(crashed_only: bool) -> tuple[str, str | None]:
        info, what = server.revive(crashed_only=crashed_only)
        return str(info.socket), what
    return revive


def open_store(settings: Settings, url: str | None = None) -> GraphStore:
    backend = open_backend(settings, url)
    return GraphStore(backend, AliasResolver.load(settings.aliases_file), batch_size=settings.batch_size,
                      tolerance=settings.conflict_tolerance, half_life_days=settings.recency_half_life_days)
