"""First-hand records: repository facts from GitHub REST, indicator values from the World Bank and WHO APIs.

`fetch_records(spec, client, settings)` reads what a RecordSpec names through the polite client (the web
retrievers' cache, rate limits, backoff and politeness) and returns Records; `render` turns one into a stored
source and `record_items` into evidence whose observations come straight from the API's fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from openresearch.ingest.http import PoliteClient
from openresearch.ingest.records.github import GitHubClient, RateLimited
from openresearch.ingest.records.model import RECORD_KIND, Fact, Record, first_hand_label, record_items, render
from openresearch.ingest.records.spec import RecordSpec, is_record_source, parse_spec, routed_specs
from openresearch.ingest.records.who import WhoClient
from openresearch.ingest.records.worldbank import WorldBankClient

if TYPE_CHECKING:
    from openresearch.config import Settings

__all__ = ["RECORD_KIND", "Fact", "RateLimited", "Record", "RecordSpec", "fetch_records", "first_hand_label",
           "is_record_source", "parse_spec", "record_items", "render", "routed_specs"]


async def fetch_records(spec: RecordSpec, client: PoliteClient, settings: Settings, *,
                        fresh: bool = False) -> list[Record]:
    """The records a spec names. Raises FetchError (RateLimited, an API message) or ParseError. `fresh`: ask the
    API again rather than answer from the response cache (a monitoring run looks for revised figures)."""
    if spec.kind == "github":
        token = settings.github_token.get_secret_value() if settings.github_token else None
        gh = GitHubClient(client, settings.github_api_url, token=token, max_pages=settings.records_max_pages,
                          stats_retries=settings.github_stats_retries, stats_wait_s=settings.github_stats_wait_s,
                          fresh=fresh)
        return await gh.records(spec.target, spec.since)
    if spec.kind == "worldbank":
        return [await WorldBankClient(client, settings.worldbank_api_url, max_pages=settings.records_max_pages,
                                      per_page=settings.records_per_page, fresh=fresh).record(spec)]
    return [await WhoClient(client, settings.who_api_url, max_pages=settings.records_max_pages,
                            fresh=fresh).record(spec)]
