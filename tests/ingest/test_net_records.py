"""First-hand records against recorded API answers (made-up repository and values) served by a local server."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from records_api import REPO, RecordsApi

from openresearch.boundary import Door, check_sources
from openresearch.config import Settings
from openresearch.errors import FetchError, InputError
from openresearch.ingest.cache import Cache
from openresearch.ingest.http import PoliteClient
from openresearch.ingest.records import (
    RateLimited,
    Record,
    fetch_records,
    parse_spec,
    record_items,
    render,
    routed_specs,
)
from openresearch.ingest.records.worldbank import ApiMessage

pytestmark = pytest.mark.integration  # a real HTTP server on 127.0.0.1


@pytest.fixture
def api() -> Iterator[RecordsApi]:
    with RecordsApi() as server:
        yield server


@pytest.fixture
def settings(api: RecordsApi, tmp_path: Path) -> Settings:
    return Settings(_env_file=None, data_dir=tmp_path, **api.settings_overrides())  # type: ignore[call-arg]


def fetch(settings: Settings, source: str, cache: Cache | None = None) -> tuple[list[Record], PoliteClient]:
    async def go() -> tuple[list[Record], PoliteClient]:
        async with PoliteClient.from_settings(settings, cache=cache) as client:
            return await fetch_records(parse_spec(source), client, settings), client

    return asyncio.run(go())


def lines(rec: Record) -> list[str]:
    return render(rec)[0].text.splitlines()


def test_github_repository_releases_contributors_and_commits(api: RecordsApi, settings: Settings) -> None:
    records, client = fetch(settings, f"github:{REPO}")
    facts, releases, people, weeks = records
    assert f"{REPO} stars: 4821" in lines(facts) and f"{REPO} licence: Apache License 2.0 (Apache-2.0)" in lines(facts)
    assert f"{REPO} created: 2021-03-14" in lines(facts)
    # two pages followed through the Link header; the draft-free list is counted and dated
    assert f"{REPO} releases listed: 8" in lines(releases)
    assert f"{REPO} release v3.1.0-rc.1 (pre-release) published 2026-05-28" in lines(releases)
    assert f"{REPO} release v2.9.0 published 2025-07-08" in lines(releases)
    assert f"{REPO} contributor mara-quill: 912 contributions" in lines(people)
    # the statistic answered 202 (computing) first, then 200 with 52 weeks
    assert sum(1 for h in api.state.hits if h.endswith("/stats/commit_activity")) == 2
    assert len([line for line in lines(weeks) if "commits in the week of" in line]) == 52
    assert client.stats.requests == 6
    assert api.state.gh_remaining == 54  # every answer's X-RateLimit-Remaining was read down to here


def test_record_evidence_is_verbatim_with_observations_from_fields(api: RecordsApi, settings: Settings) -> None:
    (rec,) = fetch(settings, "worldbank:SP.POP.TOTL:BRA;KEN")[0]
    doc, spans = render(rec)
    items = record_items(doc, spans, "q1", ["Kenya"])
    assert items and all(doc.text[i.start:i.end] == i.quote for i in items)
    assert {i.entities[0] for i in items} == {"Kenya"}  # a question naming Kenya gets Kenya's lines only
    first = next(i for i in items if i.observations)
    ob = first.observations[0]
    assert first.quote == "Kenya (KEN), Population, total, 2022: 53050200"
    assert (ob.entity, ob.metric, ob.value, ob.condition, ob.as_of) == (
        "Kenya", "Population, total", 53050200, "2022", date(2022, 1, 1))
    missing = next(i for i in items if "2023" in i.quote)
    assert missing.quote.endswith("2023: no value") and not missing.observations
    assert doc.kind == "record" and doc.url.startswith(f"{api.base}/wb/country/BRA;KEN/indicator/SP.POP.TOTL")
    # rendered again (a later retrieval, nothing revised) the text and its hash are the same
    assert render(rec)[0].content_hash == doc.content_hash


def test_worldbank_pages_and_since(api: RecordsApi, settings: Settings) -> None:
    spec = routed_specs("Compare SP.DYN.LE00.IN for Brazil, India and Kenya since 2015")[0]

    async def go() -> list[Record]:
        async with PoliteClient.from_settings(settings) as client:
            return await fetch_records(spec, client, settings)

    (rec,) = asyncio.run(go())
    assert {f.entity for f in rec.facts} == {"Brazil", "India", "Kenya"}  # names matched to the API's country list
    assert len(rec.facts) == 27 and min(f.period for f in rec.facts if f.period) == "2015"
    assert rec.facts[0].unit == "years" and rec.published == date(2026, 10, 15)
    pages = [h for h in api.state.hits if "/indicator/" in h]
    assert len(pages) == 2 and pages[1].endswith("page=2")  # 27 rows at 20 a page


def test_worldbank_unknown_country_and_empty_indicator(api: RecordsApi, settings: Settings) -> None:
    with pytest.raises(ApiMessage, match=r"Invalid value \(120\)"):
        fetch(settings, "worldbank:SP.POP.TOTL:BRA;QQQ")
    (rec,) = fetch(settings, "worldbank:XX.NO.DATA:BRA")[0]
    assert rec.facts == () and "holds no values of XX.NO.DATA" in render(rec)[0].text


def test_who_values_names_and_dimensions(api: RecordsApi, settings: Settings) -> None:
    (rec,) = fetch(settings, "who:WHOSIS_000001:KEN")[0]
    assert "Kenya (KEN), Life expectancy at birth (years), 2020, female: 65.35 (65.3 [64.9-65.8])" in lines(rec)
    fact = next(f for f in rec.facts if f.period == "2019, both sexes")
    assert (fact.entity, fact.metric, fact.value, fact.unit) == ("Kenya", "Life expectancy at birth (years)", 62.8,
                                                                 "years")
    assert any("SpatialDim+eq+%27KEN%27" in h for h in api.state.hits)
    (empty,) = fetch(settings, "who:NCD_TEST_EMPTY:KEN")[0]
    assert empty.facts == () and empty.title.startswith("WHO GHO API: An indicator with no values (%)")


def test_github_limit_exhausted_stops_requests(api: RecordsApi, settings: Settings) -> None:
    api.state.gh_remaining = 2  # two requests left in this hour
    with pytest.raises(RateLimited, match="rate limit exhausted"):
        fetch(settings, f"github:{REPO}")
    # the second answer said 0 remain: no third request was sent
    assert len([h for h in api.state.hits if h.startswith("/gh/")]) == 2


def test_github_403_rate_limited(api: RecordsApi, settings: Settings) -> None:
    api.state.gh_remaining = 0
    with pytest.raises(RateLimited, match="API rate limit exceeded") as info:
        fetch(settings, f"github:{REPO}")
    assert info.value.reset == 4_102_444_800
    with pytest.raises(FetchError, match="no repository"):
        api.state.gh_remaining = 10
        fetch(settings, "github:quillhaven/missing-repo")


def test_records_come_from_the_cache_the_second_time(api: RecordsApi, settings: Settings, tmp_path: Path) -> None:
    cache = Cache(tmp_path / "http.sqlite")
    try:
        fetch(settings, "worldbank:SP.POP.TOTL:BRA")
        first = len(api.state.hits)
        fetch(settings, "worldbank:SP.POP.TOTL:BRA", cache)
        _, client = fetch(settings, "worldbank:SP.POP.TOTL:BRA", cache)
        assert client.stats.requests == 0 and client.stats.cache_hits == 1
        assert len(api.state.hits) == first + 1
    finally:
        cache.close()


def test_revised_figure_changes_the_text(api: RecordsApi, settings: Settings) -> None:
    (before,) = fetch(settings, "worldbank:SP.POP.TOTL:BRA")[0]
    api.state.revised[("SP.POP.TOTL", "BRA", "2022")] = 213900000
    (after,) = fetch(settings, "worldbank:SP.POP.TOTL:BRA")[0]
    assert render(before)[0].content_hash != render(after)[0].content_hash
    assert "Brazil (BRA), Population, total, 2022: 213900000" in lines(after)


@pytest.mark.parametrize("source, expected", [
    ("github:octo-org/widget", "github:octo-org/widget"),
    ("worldbank:SP.POP.TOTL:bra,ind", "worldbank:SP.POP.TOTL:BRA;IND"),
    ("who:WHOSIS_000001", "who:WHOSIS_000001"),
])
def test_sources_pass_the_boundary(source: str, expected: str) -> None:
    assert check_sources([source], Door("cli", None)) == [expected]


@pytest.mark.parametrize("source", ["github:not-a-repo", "worldbank:SP.POP.TOTL:BRAZIL", "who:bad code", "gitlab:a/b"])
def test_bad_sources_are_one_line(source: str) -> None:
    with pytest.raises(InputError):
        check_sources([source], Door("cli", None))


@pytest.mark.parametrize("question, kinds", [
    ("How have the releases and contributors of quillhaven/tidepool changed over the last year?",
     [("github", "quillhaven/tidepool")]),
    ("Compare SP.POP.TOTL for BRA, IND and KEN since 2015", [("worldbank", "SP.POP.TOTL")]),
    ("What is WHOSIS_000001 in Kenya?", [("who", "WHOSIS_000001")]),
    ("Is a 24/7 on-call rotation worth it?", []),
    ("Which TCP/IP issues come up in CI/CD releases?", []),
    ("Which message broker should we choose?", []),
    ("What are zorbtool's defaults for the HTTP timeout (ZORB_HTTP_TIMEOUT)?", []),  # a variable, no indicator
    ("What is WSH_WATER_BASIC for KEN and the other countries?", [("who", "WSH_WATER_BASIC")]),
])
def test_routing_from_the_question(question: str, kinds: list[tuple[str, str]]) -> None:
    got: list[Any] = [(s.kind, s.target) for s in routed_specs(question)]
    assert got == kinds
