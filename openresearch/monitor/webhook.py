"""Post a digest's JSON to a topic's webhook: signed, to an address the SSRF guard judged, retried with backoff.

The body is the digest's JSON, exactly the bytes signed: `X-OpenResearch-Signature: sha256=<hex>` is the
HMAC-SHA256 of the raw body under the topic's secret (made at `monitor add`, shown once). A receiver recomputes
it over the bytes it read and compares in constant time (`verify_signature`). The URL is judged again at each
post (the host may resolve elsewhere since the topic was added) and the connection goes to exactly the judged
address; redirects are not followed (a 3xx is a failed delivery).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable

import httpx

from openresearch.errors import FetchError
from openresearch.ingest.safety import Target, UrlGuard
from openresearch.monitor.models import Digest

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-OpenResearch-Signature"


def new_secret() -> str:
    return "whsec_" + secrets.token_hex(24)


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify_signature(secret: str, body: bytes, header: str | None) -> bool:
    """What a receiver checks: the header is the HMAC of exactly these bytes under the shared secret."""
    return header is not None and hmac.compare_digest(signature(secret, body), header.strip())


def _request(client: httpx.Client, target: Target, body: bytes, headers: dict[str, str]) -> httpx.Request:
    """A POST to the judged address; the Host header and TLS SNI keep the name."""
    url = target.url.copy_with(host=target.address.strip("[]"), port=target.port)
    ext = {"sni_hostname": target.host} if target.url.scheme == "https" else {}
    return client.build_request("POST", url, content=body, extensions=ext,
                                headers={"Host": target.url.netloc.decode("ascii"), **headers})


def post_digest(url: str, digest: Digest, *, secret: str | None, guard: UrlGuard, client: httpx.Client | None = None,
                attempts: int = 4, backoff_s: float = 0.5, sleep: Callable[[float], None] = time.sleep) -> bool:
    """True when the hook answered 2xx; a refused URL, or 4xx other than 408/429, is not retried. Never raises.
    A topic without a secret (stored before secrets) is posted unsigned, with a warning."""
    body = digest.model_dump_json().encode()
    headers = {"content-type": "application/json", "X-OpenResearch-Topic": digest.topic_id,
               "X-OpenResearch-Digest": digest.id}
    if secret:
        headers[SIGNATURE_HEADER] = signature(secret, body)
    else:
        log.warning("topic %s has no webhook secret (added before digests were signed): posted unsigned; "
                    "`monitor add` it again for one", digest.topic_id)
    own = client is None
    http = client or httpx.Client(timeout=10.0, follow_redirects=False)
    try:
        for i in range(attempts):
            try:
                target = asyncio.run(guard.check(url))
            except FetchError as e:
                log.warning("webhook of %s not posted: %s", digest.topic_id, e)
                return False
            try:
                r = http.send(_request(http, target, body, headers))
                if r.is_success:
                    return True
                if r.status_code < 500 and r.status_code not in (408, 429):
                    log.warning("webhook %s answered %s; not retried", url, r.status_code)
                    return False
            except httpx.HTTPError as e:
                log.warning("webhook %s failed: %s", url, e)
            if i + 1 < attempts:
                sleep(backoff_s * 2 ** i)
        return False
    finally:
        if own:
            http.close()
