"""WHO Global Health Observatory OData API: one value per country, period and dimension (such as sex).

`GET {base}/{IndicatorCode}?$filter=SpatialDim eq 'BRA' or ...` answers `{"value": [{SpatialDim, TimeDim,
NumericValue, Value, Dim1, ...}]}`; the indicator's name is `{base}/Indicator?$filter=IndicatorCode eq 'X'`
(`{"value": [{IndicatorCode, IndicatorName}]}`), a country's name `{base}/DIMENSION/COUNTRY/DimensionValues`
(`{"value": [{Code, Title}]}`). OData pages with `@odata.nextLink`, followed up to the page limit.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import httpx

from openresearch.errors import ParseError
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.records.model import Fact, Record, unit_of, value_text
from openresearch.ingest.records.spec import RecordSpec

PUBLISHER = "WHO GHO API"
_DIMS = {"SEX_BTSX": "both sexes", "SEX_MLE": "male", "SEX_FMLE": "female"}


def values_of(body: Any, url: str) -> list[dict[str, Any]]:
    if not isinstance(body, dict) or not isinstance(body.get("value"), list):
        raise ParseError(f"WHO GHO API: {url} is not an OData answer")
    return [v for v in body["value"] if isinstance(v, dict)]


def _condition(row: dict[str, Any]) -> str:
    parts = [str(row.get("TimeDim") or row.get("TimeDimensionValue") or "")]
    for k in ("Dim1", "Dim2", "Dim3"):
        if row.get(k):
            parts.append(_DIMS.get(str(row[k]), str(row[k])))
    return ", ".join(p for p in parts if p)


def facts_of(rows: list[dict[str, Any]], name: str, countries: dict[str, str]) -> list[Fact]:
    unit = unit_of(name)
    facts: list[Fact] = []
    for r in sorted(rows, key=lambda r: (str(r.get("SpatialDim") or ""), str(r.get("TimeDim") or ""),
                                         str(r.get("Dim1") or ""))):
        iso = str(r.get("SpatialDim") or "").strip()
        if not iso or (r.get("SpatialDimType") not in (None, "COUNTRY")):
            continue
        who = countries.get(iso, iso)
        label = f"{who} ({iso})" if who != iso else iso
        cond = _condition(r)
        value = r.get("NumericValue")
        year = str(r.get("TimeDim") or "")
        start = date(int(year), 1, 1) if re.fullmatch(r"\d{4}", year) else None
        if isinstance(value, bool) or not isinstance(value, int | float):
            facts.append(Fact(f"{label}, {name}, {cond}: no value", who))
            continue
        shown = f" ({r['Value']})" if r.get("Value") and str(r["Value"]).strip() != value_text(value) else ""
        facts.append(Fact(f"{label}, {name}, {cond}: {value_text(value)}{shown}", who, name, value, unit, cond,
                          start))
    return facts


class WhoClient:
    def __init__(self, client: PoliteClient, base_url: str, *, max_pages: int = 10, fresh: bool = False) -> None:
        self.client = client
        self.base = base_url.rstrip("/")
        self.max_pages = max_pages
        self.fresh = fresh  # ask the API again, not the response cache (monitoring looks for revised figures)

    async def _all(self, url: str, params: dict[str, str | int] | None) -> tuple[list[dict[str, Any]], bool]:
        rows: list[dict[str, Any]] = []
        next_url: str | None = url
        for _ in range(self.max_pages):
            if next_url is None:
                return rows, False
            res = (await self.client.get(next_url, params=params, use_cache=not self.fresh)).raise_for_status()
            body = res.json_body()
            rows.extend(values_of(body, next_url))
            link = body.get("@odata.nextLink")
            next_url, params = (str(link), None) if link else (None, None)
        return rows, next_url is not None

    async def record(self, spec: RecordSpec) -> Record:
        code = spec.target
        names, _ = await self._all(f"{self.base}/Indicator", {"$filter": f"IndicatorCode eq '{code}'"})
        name = next((str(n.get("IndicatorName")) for n in names if n.get("IndicatorName")), code)
        known, _ = await self._all(f"{self.base}/DIMENSION/COUNTRY/DimensionValues", None)
        countries = {str(c.get("Code")): str(c.get("Title")) for c in known if c.get("Code") and c.get("Title")}
        codes = list(spec.countries)
        if not codes and spec.country_names:
            text = " ".join(spec.country_names)
            codes = [c for c, t in countries.items() if re.search(rf"(?<!\w){re.escape(t)}(?!\w)", text)]
        params: dict[str, str | int] = {}
        filters = [" or ".join(f"SpatialDim eq '{c}'" for c in codes)] if codes else []
        if spec.since:
            filters.append(f"TimeDim ge {spec.since}")
        if filters:
            params["$filter"] = " and ".join(f"({f})" for f in filters)
        url = f"{self.base}/{code}"
        rows, more = await self._all(url, params or None)
        facts = facts_of(rows, name, countries)
        notes = [f"Only {self.max_pages} pages were read."] if more else []
        if not facts:
            notes.append(f"The WHO GHO API holds no values of {code}" + (f" for {';'.join(codes)}." if codes else "."))
        where = f" for {';'.join(codes)}" if codes else ""
        return Record(url=str(httpx.URL(url, params=params)) if params else url,
                      title=f"{PUBLISHER}: {name}{where}", publisher=PUBLISHER,
                      entities=tuple(dict.fromkeys(f.entity for f in facts)), facts=tuple(facts),
                      heading=f"WHO Global Health Observatory indicator {code}: {name}", notes=tuple(notes))
