"""Which addresses may become links: only http(s) ones. A source's url comes from outside (an evidence
import, a fetched page's canonical link), so `javascript:`, `data:` and the rest are shown as text."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

# browsers drop tabs and newlines anywhere in a URL and control characters or spaces at its ends, so
# "java\tscript:" or " javascript:" is still a script: the scheme must come first, and any control character
# makes the address text
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_HTTP = re.compile(r"https?://", re.IGNORECASE)


def is_http_url(url: object) -> bool:
    """An absolute http or https URL with a host and no control character."""
    if not isinstance(url, str) or not _HTTP.match(url) or _CONTROL.search(url):
        return False
    try:
        return bool(urlsplit(url).hostname)
    except ValueError:  # an unparseable host ("http://[::1")
        return False
