"""Stable ids derived from content, and entity alias resolution. Pure functions.

Ids are what make memory idempotent: ingesting the same source, quote or entity twice yields the
same id, and every write is a MERGE on it.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

_TRACKING = re.compile(r"^(utm_\w+|fbclid|gclid|mc_cid|mc_eid|ref|ref_src|spm)$", re.I)


def _digest(*parts: object, n: int = 16) -> str:
    return _hash("\x1f".join(map(str, parts)), n)


def _hash(text: str, n: int) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:n]


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=65536)
def canonical_url(url: str) -> str:
    """Lower-case scheme and host, no default port, no fragment, no tracking params, sorted query."""
    raw = url.strip()
    parts = urlsplit(raw)
    if not parts.scheme:
        # local documents and other opaque identifiers are kept as given (paths are case-sensitive)
        return raw
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"  # an IPv6 literal keeps its brackets, or the result is no URL ("http://::1/")
    port = parts.port
    if port and not ((scheme == "http" and port == 80) or (scheme == "https" and port == 443)):
        host = f"{host}:{port}"
    path = re.sub(r"/{2,}", "/", parts.path) or "/"
    if len(path) > 1:
        path = path.rstrip("/")
    query = urlencode(sorted((k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                             if not _TRACKING.match(k)))
    return urlunsplit((scheme, host, path, query, ""))


@lru_cache(maxsize=65536)
def source_id(url: str) -> str:
    return "S-" + _digest(canonical_url(url))


def evidence_id(source: str, start: int | None, end: int | None, quote: str) -> str:
    """From the source and the quote's offsets; without offsets (an import) from the quote itself."""
    # the same text _digest(source, start, end) hashes, spelled out: this runs for every row written
    if start is not None and end is not None:
        return "E-" + _hash(f"{source}\x1f{start}\x1f{end}", 12)
    return "E-" + _hash(f"{source}\x1fq\x1f{' '.join(quote.split())}", 12)


def question_id(text: str) -> str:
    return "Q-" + _digest(" ".join(text.lower().split()), n=12)


@lru_cache(maxsize=65536)
def entity_key(name: str) -> str:
    """Case, width and punctuation folded: 'Rabbit MQ', 'rabbitmq' and 'RabbitMQ' share a key."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return re.sub(r"[\W_]+", "", folded)


@lru_cache(maxsize=65536)
def entity_id(canonical_name: str) -> str:
    return "N-" + _digest(entity_key(canonical_name), n=12)


def observation_id(evidence: str, entity: str, metric: str, value: float, unit: str, condition: str) -> str:
    return "O-" + _hash("\x1f".join((evidence, entity, metric, repr(round(value, 9)), unit, condition)), 12)


class AliasResolver:
    """Maps surface names to one canonical entity name.

    Built-in aliases ship with the package (data/aliases.json); a user file adds to or overrides them.
    """

    def __init__(self, aliases: Mapping[str, Iterable[str]] | None = None) -> None:
        self._canon: dict[str, str] = {}
        for canonical, names in (aliases or {}).items():
            self.add(canonical, names)

    def add(self, canonical: str, names: Iterable[str]) -> None:
        self._canon[entity_key(canonical)] = canonical
        for n in names:
            self._canon[entity_key(n)] = canonical

    def canonical(self, name: str) -> str:
        clean = " ".join(name.split())
        return self._canon.get(entity_key(clean), clean)

    def folded(self) -> dict[str, str]:
        """Folded name -> folded canonical name: the alias list as the Browser guide's queries resolve names."""
        return {k: entity_key(c) for k, c in sorted(self._canon.items()) if k != entity_key(c)}

    @classmethod
    def load(cls, user_file: Path | None = None) -> AliasResolver:
        text = resources.files("openresearch").joinpath("data/aliases.json").read_text("utf-8")
        data: dict[str, list[str]] = json.loads(text)
        if user_file is not None:
            data.update(json.loads(Path(user_file).read_text("utf-8")))
        return cls(data)
