"""World Bank Indicators API v2: one value per country and year, with the indicator's own name and unit.

`GET {base}/country/{codes}/indicator/{id}?format=json&per_page=N&page=P[&date=Y1:Y2]` answers
`[{page, pages, per_page, total, lastupdated, ...}, [rows]]` (rows `null` when there are none), each row
`{indicator{id,value}, country{id,value}, countryiso3code, date, value, unit, obs_status, decimal}`; an unknown
country or indicator answers `[{"message": [{"id", "key", "value"}]}]`. Country names a question uses are
matched against the API's own country list (`{base}/country?format=json`).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Any

import httpx

from openresearch.errors import FetchError, ParseError
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.records.model import Fact, Record, unit_of, value_text
from openresearch.ingest.records.spec import RecordSpec

PUBLISHER = "World Bank API"
PER_PAGE = 1000


class ApiMessage(FetchError):
    """The API answered with an error message (an unknown country or indicator)."""


def check_message(body: Any, url: str) -> None:
    if isinstance(body, list) and body and isinstance(body[0], dict) and "message" in body[0]:
        msgs = body[0]["message"] or [{}]
        m = msgs[0] if isinstance(msgs, list) and msgs and isinstance(msgs[0], dict) else {}
        raise ApiMessage(f"World Bank API: {m.get('key', 'error')} ({m.get('id', '?')}): "
                         f"{m.get('value', 'no message')} for {url}")


def parse_page(body: Any, url: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    check_message(body, url)
    if not (isinstance(body, list) and len(body) == 2 and isinstance(body[0], dict)):
        raise ParseError(f"World Bank API: {url} is not a [metadata, rows] answer")
    rows = body[1] or []
    if not isinstance(rows, list):
        raise ParseError(f"World Bank API: {url} rows are not a list")
    return body[0], [r for r in rows if isinstance(r, dict)]


def _year_start(period: str) -> date | None:
    m = re.match(r"^(\d{4})(?:([MQ])(\d{1,2}))?$", period)
    if not m:
        return None
    year = int(m.group(1))
    if m.group(2) == "M":
        return date(year, max(1, min(12, int(m.group(3)))), 1)
    if m.group(2) == "Q":
        return date(year, 3 * (max(1, min(4, int(m.group(3)))) - 1) + 1, 1)
    return date(year, 1, 1)


def facts_of(rows: list[dict[str, Any]]) -> tuple[str, str, list[Fact]]:
    """(indicator code, indicator name, one fact per country and period) from the rows, in the API's order."""
    code = name = ""
    facts: list[Fact] = []
    for r in rows:
        ind, country = r.get("indicator") or {}, r.get("country") or {}
        code = code or str(ind.get("id") or "")
        name = name or str(ind.get("value") or "")
        who = str(country.get("value") or r.get("countryiso3code") or country.get("id") or "").strip()
        iso = str(r.get("countryiso3code") or country.get("id") or "").strip()
        period = str(r.get("date") or "").strip()
        if not who or not period:
            continue
        label = f"{who} ({iso})" if iso and iso != who else who
        unit = str(r.get("unit") or "").strip() or unit_of(str(ind.get("value") or ""))
        value = r.get("value")
        metric = str(ind.get("value") or ind.get("id") or "")
        if isinstance(value, bool) or not isinstance(value, int | float):
            facts.append(Fact(f"{label}, {metric}, {period}: no value", who))
            continue
        facts.append(Fact(f"{label}, {metric}, {period}: {value_text(value)}", who, metric, value, unit, period,
                          _year_start(period)))
    return code, name, facts


class WorldBankClient:
    def __init__(self, client: PoliteClient, base_url: str, *, max_pages: int = 10, per_page: int = PER_PAGE,
                 fresh: bool = False) -> None:
        self.client = client
        self.base = base_url.rstrip("/")
        self.max_pages = max_pages
        self.fresh = fresh  # ask the API again, not the response cache (monitoring looks for revised figures)
        self.per_page = per_page

    async def countries(self, names: tuple[str, ...]) -> list[str]:
        """The ISO3 codes of the countries (not aggregates) whose names the question uses."""
        if not names:
            return []
        url = f"{self.base}/country"
        res = (await self.client.get(url, params={"format": "json", "per_page": 400})).raise_for_status()
        _, rows = parse_page(res.json_body(), url)
        text = " ".join(names)
        found = []
        for r in rows:
            name = str(r.get("name") or "")
            region = (r.get("region") or {}).get("value") if isinstance(r.get("region"), dict) else None
            if name and region != "Aggregates" and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text):
                found.append(str(r.get("id") or ""))
        return [c for c in found if c]

    async def record(self, spec: RecordSpec) -> Record:
        countries = list(spec.countries) or await self.countries(spec.country_names)
        codes = ";".join(countries) if countries else "all"
        url = f"{self.base}/country/{codes}/indicator/{spec.target}"
        params: dict[str, str | int] = {"format": "json", "per_page": self.per_page}
        if spec.since:
            params["date"] = f"{spec.since}:{datetime.now(tz=UTC).year}"
        rows: list[dict[str, Any]] = []
        meta: dict[str, Any] = {}
        page, pages = 1, 1
        while page <= pages and page <= self.max_pages:
            res = await self.client.get(url, params={**params, "page": page}, use_cache=not self.fresh)
            res.raise_for_status()
            meta, got = parse_page(res.json_body(), url)
            rows.extend(got)
            pages = int(meta.get("pages") or 0)
            page += 1
        code, name, facts = facts_of(rows)
        name = name or spec.target
        updated = _date(meta.get("lastupdated"))
        notes = [f"Only {self.max_pages} of {pages} pages were read."] if pages > self.max_pages else []
        if not facts:
            notes.append(f"The World Bank API holds no values of {spec.target} for {codes}.")
        source = f"; source: {meta['sourcename']}" if meta.get("sourcename") else ""
        stamp = f"; last updated {updated.isoformat()}" if updated else ""
        where = f" for {codes}" if countries else ""
        return Record(url=str(httpx.URL(url, params=params)), title=f"{PUBLISHER}: {name}{where}", publisher=PUBLISHER,
                      entities=tuple(dict.fromkeys(f.entity for f in facts)), facts=tuple(facts),
                      heading=f"World Bank indicator {code or spec.target}: {name}{source}{stamp}",
                      published=updated, notes=tuple(notes))


def _date(value: object) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None
