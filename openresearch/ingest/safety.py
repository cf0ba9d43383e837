"""SSRF guard: decide whether a URL may be fetched, and pin the address that was judged.

Design. The guard resolves the host name through an injected `Resolver`, refuses the URL when any
answer is not a public (global) address, and returns a `Target` carrying the judged address. The
client then connects to exactly that address (Host header and TLS SNI keep the name), so a DNS answer
that changes between the check and the connect (DNS rebinding) cannot smuggle a request inside.

Hosts in `trusted_hosts` (a local SearXNG) skip the address judgement but are still pinned.
The check runs before the first request and again on every redirect hop (see http.py).

Tests need a host *name* that is not trusted yet reaches the local test server. They inject a
`StaticResolver` that answers "public.test" with a public address, and give the client a
`connect_to` override (curl's --connect-to: judge and name one host, dial another). Production code
never sets `connect_to`; only a constructor argument can, nothing read from the web.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

import httpx

from openresearch.errors import FetchError, FetchRefused

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Named so a refusal can say which rule fired; both are also non-global, so this is belt and braces.
METADATA_ADDRESSES = frozenset({ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")})
ALLOWED_SCHEMES = frozenset({"http", "https"})


class Resolver(Protocol):
    async def resolve(self, host: str, port: int) -> list[str]:
        """Every address the name resolves to (literal IPs answer themselves)."""
        ...


class SystemResolver:
    """The operating system's resolver, run off the event loop."""

    async def resolve(self, host: str, port: int) -> list[str]:
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as exc:
            raise FetchError(f"cannot resolve {host!r}: {exc}") from exc
        return list(dict.fromkeys(str(info[4][0]) for info in infos))


class StaticResolver:
    """A fixed name -> addresses table; unknown names fail instead of falling through to real DNS."""

    def __init__(self, table: Mapping[str, Iterable[str]]) -> None:
        self._table = {name.lower(): list(addrs) for name, addrs in table.items()}

    async def resolve(self, host: str, port: int) -> list[str]:
        if _literal_ip(host) is not None:
            return [host]
        try:
            return self._table[host.lower()]
        except KeyError:
            raise FetchError(f"cannot resolve {host!r}: not in the static table") from None


@dataclass(frozen=True)
class Target:
    """A URL that passed the guard, with the address the connection must use."""

    url: httpx.URL
    host: str
    port: int
    address: str
    trusted: bool


def _literal_ip(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def forbidden_reason(address: str) -> str | None:
    """Why this address must not be fetched from, or None when it is a public address."""
    ip: IPAddress = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # ::ffff:127.0.0.1 is loopback in disguise
    if ip in METADATA_ADDRESSES:
        return "cloud metadata"
    for flag in ("loopback", "link_local", "multicast", "unspecified", "reserved", "private"):
        if getattr(ip, f"is_{flag}"):
            return flag.replace("_", "-")
    if not ip.is_global:
        return "not globally routable"  # e.g. 100.64.0.0/10 carrier-grade NAT
    return None


MAX_URL_CHARS = 8_192
_NUMERIC_LABEL = re.compile(r"0[xX][0-9a-fA-F]*|[0-9]+")


def parse_url(url: str | httpx.URL, max_chars: int = MAX_URL_CHARS) -> httpx.URL:
    """The URL, or FetchRefused naming what is wrong with it (too long, unparseable, a bad IDNA host)."""
    text = str(url)
    if len(text) > max_chars:
        raise FetchRefused(f"URL of {len(text):,} characters is longer than the limit of {max_chars:,} "
                           f"(OPENRESEARCH_MAX_URL_CHARS): {text[:80]}...")
    try:
        parsed = httpx.URL(url)
        port, host = parsed.port, parsed.host  # IDNA and port errors surface here, not later
    except (httpx.InvalidURL, TypeError, ValueError) as exc:  # UnicodeError is a ValueError
        raise FetchRefused(f"invalid URL {text[:200]!r}: {exc}") from None
    if port is not None and not 0 < port < 65536:
        raise FetchRefused(f"invalid URL {text[:200]!r}: port {port} is out of range")
    labels = host.split(".")
    if host and all(_NUMERIC_LABEL.fullmatch(x) for x in labels) and _literal_ip(host) is None:
        # 0177.0.0.1, 0x7f.1, 2130706433: resolvers read these as 127.0.0.1; no real page is named so
        raise FetchRefused(f"refused {text[:200]}: {host!r} is a non-canonical spelling of a numeric address")
    return parsed


class UrlGuard:
    def __init__(self, trusted_hosts: Iterable[str] = (), resolver: Resolver | None = None, *,
                 max_url_chars: int = MAX_URL_CHARS) -> None:
        self._trusted = frozenset(h.lower().rstrip(".") for h in trusted_hosts)
        self._resolver: Resolver = resolver or SystemResolver()
        self.max_url_chars = max_url_chars

    def is_trusted(self, host: str) -> bool:
        return host.lower().rstrip(".") in self._trusted

    async def check(self, url: str | httpx.URL) -> Target:
        """Raise FetchRefused unless the URL is http(s) and every address of its host is public."""
        parsed = parse_url(url, self.max_url_chars)
        if parsed.scheme not in ALLOWED_SCHEMES:
            raise FetchRefused(f"scheme {parsed.scheme!r} is not allowed (only http, https): {parsed}")
        host = parsed.host
        if not host:
            raise FetchRefused(f"URL has no host: {parsed}")
        port = parsed.port or (443 if parsed.scheme == "https" else 80)
        trusted = self.is_trusted(host)
        addresses = await self._resolver.resolve(host, port)
        if not addresses:
            raise FetchError(f"cannot resolve {host!r}: no addresses")
        if not trusted:
            for address in addresses:
                reason = forbidden_reason(address)
                if reason is not None:
                    raise FetchRefused(f"refused {parsed}: host {host!r} resolves to {address} ({reason})")
        return Target(url=parsed, host=host, port=port, address=addresses[0], trusted=trusted)
