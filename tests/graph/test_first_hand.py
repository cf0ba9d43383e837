"""First-hand ranks first: a record's figure leads its conflict group, labelled, and a page that restates it
differently is a conflict (real FalkorDB; made-up figures)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from records_support import rec

from openresearch.agents.run.research import to_record
from openresearch.first_hand import same_quantity, same_unit, year_beside_value
from openresearch.graph.store import GraphStore
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.records import Fact, Record, record_items, render
from openresearch.ingest.store_doc import store_document
from openresearch.models import SubQuestion

pytestmark = pytest.mark.integration

URL = "http://127.0.0.1:9/wb/country/BRA/indicator/SP.POP.TOTL?format=json"


def store_record(store: GraphStore, tmp_path: Path) -> None:
    facts = tuple(Fact(f"Brazil (BRA), Population, total, {y}: {v}", "Brazil", "Population, total", v, None,
                       str(y), datetime(y, 1, 1, tzinfo=UTC).date())
                  for y, v in ((2022, 213300100), (2021, 212200100)))
    record = Record(url=URL, title="World Bank API: Population, total for BRA", publisher="World Bank API",
                    entities=("Brazil",), facts=facts, heading="World Bank indicator SP.POP.TOTL: Population, total")
    doc, spans = render(record, datetime(2026, 11, 2, 8, 0, tzinfo=UTC))
    store_document(store, HashEmbedder(dim=384, cache_dir=tmp_path / "emb"), doc)
    sq = SubQuestion(id="q1", text="What was the population of Brazil in 2022?")
    store.write_evidence([to_record(i, doc, sq) for i in record_items(doc, spans, sq.id, ["Brazil"])])


def test_a_restatement_that_disagrees_is_a_conflict_led_by_the_record(falkor_store: GraphStore,
                                                                      tmp_path: Path) -> None:
    store_record(falkor_store, tmp_path)
    falkor_store.write_evidence([
        rec("https://blog.example/notes", "Brazil's population reached 198.6 million in 2022, by our estimate.",
            "Brazil", "population", "198.6 million", "people"),
    ])
    groups = falkor_store.conflict_groups(entity="Brazil")
    assert len(groups) == 1
    g = groups[0]
    lead, other = g.values
    assert lead.first_hand == "World Bank API, retrieved 2026-11-02" and lead.value == 213300100
    assert other.first_hand is None and other.raw_values == ["198.6 million people"]
    assert g.condition == "2022" and "first-hand (World Bank API)" in g.credibility
    # the same figures asked by metric: the blog's own word finds the record's group too
    assert [x.id for x in falkor_store.conflict_groups(entity="Brazil", metric="population")] == [g.id]


def test_a_restatement_within_tolerance_is_no_conflict(falkor_store: GraphStore, tmp_path: Path) -> None:
    store_record(falkor_store, tmp_path)
    falkor_store.write_evidence([rec("https://blog.example/notes", "Brazil counted 213.3 million people in 2022.",
                                     "Brazil", "population", "213.3 million", "people")])
    assert falkor_store.conflict_groups(entity="Brazil") == []
    # a figure for another year is compared with that year's record: it agrees, so still no conflict
    falkor_store.write_evidence([rec("https://blog.example/other", "In 2021 Brazil had 212.2 million inhabitants.",
                                     "Brazil", "population", "212.2 million", "people")])
    assert falkor_store.conflict_groups(entity="Brazil") == []


def test_matching_rules() -> None:
    assert year_beside_value("reached 198.6 million in 2022, up from 190 million in 2015", "198.6 million") == "2022"
    assert year_beside_value("up from 190 million in 2015 to 198.6 million in 2022", "190 million") == "2015"
    assert year_beside_value("no year here", "5") is None
    assert same_quantity("population_total", "population") and not same_quantity("population_density", "population")
    assert same_unit("", "people") and same_unit("days", "days") and not same_unit("", "mb") \
        and not same_unit("", "days")


def test_keyed_groups_and_comparison_cells_put_the_record_first(falkor_store: GraphStore, tmp_path: Path) -> None:
    # a page using the indicator's own name and period: the keyed query finds the conflict, the record leads it
    for i in range(2):  # two pages agree with each other: better "supported" by count, still after the record
        falkor_store.write_evidence([rec(f"https://site{i}.example/p", "Population, total, 2022: 198,600,000.",
                                         "Brazil", "Population, total", 198600000, None, condition="2022")])
    store_record(falkor_store, tmp_path)
    (g,) = falkor_store.conflict_groups(entity="Brazil")
    assert [v.first_hand is not None for v in g.values] == [True, False] and g.values[1].sources == 2
    cell = falkor_store.compare(["Brazil"], "Population, total").cells["population_total"]["Brazil"]
    assert cell.first_hand[0] == "World Bank API, retrieved 2026-11-02" and cell.values[0] in (213300100, 212200100)
    assert cell.first_hand[-1] is None and cell.values[-1] == 198600000
