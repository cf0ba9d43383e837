"""Post a digest's JSON to a configured URL, retrying transient failures with backoff."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import httpx

from openresearch.monitor.models import Digest

log = logging.getLogger(__name__)


def post_digest(client: httpx.Client, url: str, digest: Digest, *, attempts: int = 4, backoff_s: float = 0.5,
                sleep: Callable[[float], None] = time.sleep) -> bool:
    """True when the hook answered 2xx; 4xx other than 408/429 is not retried. Never raises."""
    for i in range(attempts):
        try:
            r = client.post(url, content=digest.model_dump_json(), headers={"content-type": "application/json"})
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
