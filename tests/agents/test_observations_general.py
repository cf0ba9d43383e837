"""Observations beyond one domain: counts, dates and years, limits, relative claims, tables, lists and key: value
lines, in English and Chinese; entity attribution (a passage's subject, same-name entities); evidence hygiene.

Every text here is written for these tests in the style of real pages (encyclopedia extracts, vendor docs,
benchmark posts); none is copied from a data set.
"""

from __future__ import annotations

import pytest

from openresearch.agents.extract.extract_rules import EntityLinker, Mention, furniture, lead_subject, sentence_units
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.observations import observations, role_of, table_row_observations
from openresearch.agents.extract.values import find_values
from openresearch.identity import AliasResolver, entity_key, question_id, source_id
from openresearch.ingest.documents import normalise_plain
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.html import parse_html
from openresearch.models import ObservationIn, Plan, SourceDoc, SubQuestion
from openresearch.numbers import conditions_compatible, parse_quantity


def _mentions(text: str, *names: str) -> list[Mention]:
    out = []
    for n in names:
        at = text.find(n)
        while at >= 0:
            out.append(Mention(at, at + len(n), n, n))
            at = text.find(n, at + 1)
    return sorted(out)


def _one(obs: list[ObservationIn], metric: str) -> ObservationIn:
    hits = [o for o in obs if o.metric == metric]
    assert len(hits) == 1, obs
    return hits[0]


def _verbatim(text: str, obs: list[ObservationIn]) -> None:
    assert all(isinstance(o.value, str) and o.value in text for o in obs), obs


# --- values ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "raw", "unit", "value"), [
    ("Marta Lindqvist (born 14 March 1962) is a Swedish architect.", "14 March 1962", "date", 19620314),
    ("The chapel was founded on September 3, 1871 by local settlers.", "September 3, 1871", "date", 18710903),
    ("该桥于1937年5月27日正式通车。", "1937年5月27日", "date", 19370527),
    ("The depot was built in 1903-1905 of red brick.", "1903-1905", "year", 1903),
    ("Completed in 1888, the mill closed a century later.", "1888", "year", 1888),
])
def test_dates_and_years_are_their_own_units(text: str, raw: str, unit: str, value: int) -> None:
    (v,) = [v for v in find_values(text) if v.kind in ("date", "year")]
    assert (v.raw, v.kind) == (raw, unit) and text[v.start:v.end] == raw
    assert parse_quantity(v.raw, unit).value == value and parse_quantity(v.raw, unit).unit == unit


def test_counts_rates_and_sizes_keep_their_raw_form() -> None:
    text = ("The sink reached 612k rows/sec; each sample takes 1-3 bytes per sample and a table may hold up to "
            "1,600 columns, or 2,048 columns in the wire protocol.")
    got = {v.raw: v for v in find_values(text)}
    assert parse_quantity(got["612k"].raw, got["612k"].unit).value == 612_000
    assert got["1-3"].unit == "bytes per sample"
    assert got["1,600"].unit == "columns" and got["2,048"].unit == "columns"


def test_a_unit_after_an_adjective_a_size_in_words_and_a_count_that_looks_like_a_year() -> None:
    def read(text: str) -> list[tuple[str, str, str]]:
        return [(v.raw, v.unit, v.kind) for v in find_values(text)]

    # an adjective between a number and its unit word, told by its ending: any adjective, any unit word
    assert read("The default page size is approximately 4096 uncompressed bytes.") == [("4096", "bytes", "size")]
    assert read("with 16 concurrent connections on 4 physical cores") == [
        ("16", "connections", "count"), ("4", "cores", "count")]
    assert read("3 different times faster") == [("3", "", "bare")]  # a ratio needs its "x" right after the number
    # a size written in words
    (one,) = find_values("There is little benefit in pages smaller than one kilobyte.")
    assert (one.raw, one.kind, one.quantity.value) == ("one kilobyte", "size", 0.001)
    # a four-digit count after what a count follows, before the plural noun it counts, is no year
    assert read("a cap of 1024 entries and up to 1000 open files") == [("1024", "", "bare"), ("1000", "", "bare")]
    assert read("the 2010 elections") == [("2010", "year", "year")]
    assert read("between 1998 and 2004 elections")[1] == ("2004", "year", "year")


# --- observations from prose ------------------------------------------------------------------------

def test_the_storage_something_takes_is_its_own_quantity() -> None:
    got = observations("TDengine 大概需要消耗 44.851 / 5 = 8.97024T 空间。", [], set(), "TDengine")
    assert [(o.metric, o.value) for o in got] == [("storage_required", "8.97024")]
    assert _one(observations("Each node requires 500 GB of disk.", [], set(), "Kafka"), "storage_required")
    assert _one(observations("The index needs 2 GB of memory.", [], set(), "Kafka"), "memory")


def test_the_result_of_a_formula_takes_the_words_before_the_formula() -> None:
    # the same worked example in two editions of a manual, one with spaces around the operators
    older = "那么一年的原始数据量是：10000000\\*128\\*24\\*60/15*365 = 44851T。"
    newer = "那么一年的原始数据量是：10000000 \\* 128 \\* 24 \\* 60 / 15 \\* 365 = 44.8512T。"
    for text, value in [(older, "44851"), (newer, "44.8512")]:
        got = observations(text, [], set(), "TDengine")
        assert [(o.metric, o.value, o.unit) for o in got] == [("raw_data_size", value, "TB")]
    got = observations("At 2 KB per event, the raw data volume is 5,000 * 86,400 * 2 KB = 864 GB a day.", [], set(),
                       "Kafka")
    assert [(o.metric, o.value) for o in got if o.value == "864"] == [("raw_data_size", "864")]


def test_a_calculation_that_goes_on_from_the_sentence_before_is_quoted_with_it() -> None:
    # a worked example in two sentences: the second divides the first one's result (as rounded there)
    for text, raw, needed in [
        ("一年的原始数据量是：10000000\\*128\\*24\\*60/15*365 = 44851T。TDengine大概需要消耗44851/5=8970T。", "44851",
         "8970"),
        ("The raw data volume is 5,000 * 86,400 * 2 KB = 864 GB a day. At 4x compression, 864 GB / 4 = 216 GB "
         "are kept.", "864", "216"),
        ("原始数据量是：10000000 \\* 128 / 15 = 44.8512T。大概需要消耗 44.851 / 5 = 8.97024T 空间。", "44.8512",
         "8.97024")]:
        units = sentence_units(text)
        assert len(units) == 1 and units[0].start == 0 and units[0].end == len(text), units
        got = {(o.metric, o.value) for o in observations(text, [], set(), "Kestrel")}
        assert ("raw_data_size", raw) in got and any(v == needed for _, v in got), got
    # a second sentence that computes from its own figures, or does not compute, stays its own unit
    for text in ["The raw volume is 2 * 3 = 6 GB. The index takes 10 * 2 = 20 GB.",
                 "The raw volume is 2 * 3 = 6 GB. It is kept for 6 days."]:
        assert len(sentence_units(text)) == 2


def test_a_sample_size_in_bytes_is_a_per_sample_figure_and_one_byte_is_a_size() -> None:
    (o,) = observations("On average, sample size requires less or around **1 byte** after compression:", [], set(),
                        "Kestrel")
    assert (o.metric, o.value, o.unit) == ("bytes_per_sample", "1", "bytes per sample")
    (o,) = observations("Each message is 1 byte long.", [], set(), "Kestrel")
    assert (o.metric, o.value, o.unit) == ("message_size", "1", "byte")


def test_a_quota_of_summed_time_per_window_is_no_latency() -> None:
    assert observations("Total query time: 1500 seconds of _total_ query time every 30 seconds", [], set(),
                        "Kestrel") == []
    (o,) = observations("The p99 query latency was 30 ms under load.", [], set(), "Kestrel")
    assert (o.metric, o.value) == ("p99_latency", "30")


def test_every_name_in_a_list_after_than_is_a_baseline() -> None:
    text = ("* **High data compression**: 70x more data points may be stored into limited storage than TimescaleDB, "
            "7x less storage space is required than Prometheus, Thanos or Cortex.")
    got = observations(text, _mentions(text, "TimescaleDB", "Prometheus", "Thanos", "Cortex"), set(),
                       "VictoriaMetrics")
    assert [(o.entity, o.value, o.condition) for o in got] == [("VictoriaMetrics", "70", "vs TimescaleDB"),
                                                               ("VictoriaMetrics", "7", "vs Prometheus")]
    # a name after the list, in a clause of its own, is a subject again
    text = "QuestDB is 1.7x faster than ClickHouse and InfluxDB, while Kafka reached 605 MB/s."
    got = observations(text, _mentions(text, "QuestDB", "ClickHouse", "InfluxDB", "Kafka"), set(), None)
    assert [(o.entity, o.value) for o in got] == [("QuestDB", "1.7"), ("Kafka", "605")]


def test_a_life_in_parentheses_is_the_life_of_the_name_before_it() -> None:
    text = ("The club was owned by partners Matthew C. (Matty) Walsh (1914–2006) and Edda Vold (1911–1963); the "
            "doorman Gilbert J. Pincus (1907–1980) became known as the mayor of the street.")
    vold = Mention(text.index("Edda"), text.index("Edda") + len("Edda Vold"), "Edda Vold", "Edda Vold")
    got = [o.value for o in observations(text, [vold], set(), "Edda Vold") if o.metric in ("born", "died")]
    assert got and all("1911" in v or "1963" in v for v in got), got  # not Walsh's 1914 nor Pincus's 1907
    # the entity under a longer form of its name keeps its life
    text = "Edda Marie Vold (July 15, 1875 – April 22, 1946) was a Norwegian judge."
    assert _one(observations(text, [], set(), "Judge Vold"), "born").value == "July 15, 1875"


def test_an_event_word_with_its_own_date_or_place_does_not_date_another_value() -> None:
    text = "Source : Scorecard, 11 July 2009 Edda Vold (born 12 March 1955) is a former English cricketer."
    born = [o.value for o in observations(text, [], set(), "Edda Vold") if o.metric == "born"]
    assert born == ["12 March 1955"]  # the page's "Source ... 2009" is no birth date
    text = "Born in Hiram, Maine, Vold read law to enter the bar in 1866."
    assert not [o for o in observations(text, [], set(), "Edda Vold") if o.metric == "born"]
    assert _one(observations("The church was built in 1887.", [], set(), "St Ola"), "built").value == "1887"
    text = "Built between 1861–1862, this house was built by Ola Vold, who was one of the first settlers in 1836."
    assert [o.value for o in observations(text, [], set(), "Vold House") if o.metric == "built"] == ["1861–1862"]
    text = "It is a compilation album, released by Orvale Records in Tolva on April 12, 2011."
    assert _one(observations(text, [], set(), "Tides"), "released").value == "April 12, 2011"


def test_a_figure_someone_failed_to_reach_is_no_measurement_and_a_load_level_is_a_condition() -> None:
    text = "Borealis could not sustain 200 MB/s, so we measured it at lower rates."
    assert observations(text, _mentions(text, "Borealis"), set()) == []
    text = "I did not reach the roughly 600 MB/s that the Kestrel vendor claims."
    assert observations(text, _mentions(text, "Kestrel"), set()) == []
    text = "Kestrel did not reach 600 MB/s but it reached 420 MB/s."
    assert [o.value for o in observations(text, _mentions(text, "Kestrel"), set())] == ["420"]
    limit = observations("A table must not exceed 4,096 columns.", [], set(), "Kestrel")
    assert [(o.metric, o.value) for o in limit] == [("max_columns", "4,096")]
    zh = observations("Kestrel 认定每表 250 列为安全上限", [], set(), "Kestrel")
    assert [(o.metric, o.value) for o in zh] == [("max_columns", "250")]
    text = "At 200 MB/s, Kestrel delivered a p99 end-to-end latency of 5 ms, while Borealis's p99 was 25 ms."
    got = observations(text, _mentions(text, "Kestrel", "Borealis"), set())
    assert [(o.metric, o.value, o.condition) for o in got] == [("p99_latency", "5", "At 200 MB/s"),
                                                              ("p99_latency", "25", "At 200 MB/s")]
    text = "Kestrel had a p99 of 1 ms, but only at a reduced load of 30 MB/s; beyond that its latency rose."
    assert [(o.metric, o.condition) for o in observations(text, _mentions(text, "Kestrel"), set())] == [
        ("p99_latency", "at a reduced load of 30 MB/s")]
    text = "While producers kept writing at 200 MB/s, Borealis served reads about 1.5 times faster than Kestrel."
    assert not [o for o in observations(text, _mentions(text, "Kestrel", "Borealis"), set())
                if o.metric.endswith("throughput")]


def test_a_count_word_a_long_scope_phrase_before_its_number() -> None:
    text = "In the 2011 census the population of Tolva parish and the two electoral wards was 9,523."
    pop = _one(observations(text, [], set(), "Tolva"), "population")
    assert (pop.value, pop.condition) == ("9,523", "2011 census")
    assert observations("The population of the town grew to 5,000 by 2010.", [], set(), "Tolva") == []


def test_a_year_that_labels_the_count_after_it_is_no_count() -> None:
    obs = observations("Tolva City Population 2011 50,000 2021 75,000", [], set(), "Tolva")
    assert "2011" not in [o.value for o in obs if o.metric == "population"]


def test_population_households_and_the_census_as_condition() -> None:
    text = "As of the census of 2010, there were 2,417 people, 1,002 households, and 655 families in the village."
    obs = observations(text, [], set(), "Maple Grove, Ohio")
    _verbatim(text, obs)
    pop = _one(obs, "population")
    assert (pop.entity, pop.value, pop.unit, pop.condition) == ("Maple Grove, Ohio", "2,417", "people", "2010 census")
    assert _one(obs, "households").value == "1,002" and _one(obs, "families").value == "655"
    assert not any(o.metric in ("built", "founded") or o.value == "2010" for o in obs)
    later = observations("The population was 2,580 at the 2020 census.", [], set(), "Maple Grove, Ohio")
    assert _one(later, "population").condition == "2020 census"
    assert not conditions_compatible(pop.condition, _one(later, "population").condition)


def test_a_bare_number_counts_only_after_its_metric_word() -> None:
    assert _one(observations("Population: 913 (all rural)", [], set(), "Ash Creek"), "population").value == "913"
    assert observations("Route 913 runs north of the creek.", [], set(), "Ash Creek") == []


def test_birth_death_and_events() -> None:
    text = "Marta Lindqvist (14 March 1962 – 2 June 2019) was a Swedish architect who founded the studio in 1994."
    obs = observations(text, _mentions(text, "Marta Lindqvist"), set())
    assert _one(obs, "born").value == "14 March 1962" and _one(obs, "born").unit == "date"
    assert _one(obs, "died").value == "2 June 2019"
    assert _one(obs, "founded").value == "1994" and _one(obs, "founded").unit == "year"
    zh = "该公司成立于2008年，总部位于杭州。"
    assert _one(observations(zh, [], set(), "杭州某科技"), "founded").value == "2008年"


def test_limits_with_their_qualifier() -> None:
    text = "Vectra supports up to 12,000 dimensions stored and 3,000 dimensions indexed."
    obs = observations(text, _mentions(text, "Vectra"), {"Vectra"})
    by_value = {o.value: o for o in obs}
    assert by_value["12,000"].metric == by_value["3,000"].metric == "max_dimensions"
    assert by_value["12,000"].condition == "stored" and by_value["3,000"].condition == "indexed"
    assert not conditions_compatible("stored", "indexed")


def test_throughput_with_its_setup_and_statistics() -> None:
    text = "On a c6i.4xlarge host with 8 threads, Borealis ingested 812k rows/sec, while Kestrel reached 455k rows/sec."
    obs = observations(text, _mentions(text, "Borealis", "Kestrel"), {"Borealis", "Kestrel"})
    b, k = (next(o for o in obs if o.entity == e) for e in ("Borealis", "Kestrel"))
    assert b.metric == k.metric == "ingest_throughput" and b.value == "812k" and k.value == "455k"
    assert b.condition and "8 threads" in b.condition and "c6i.4xlarge" in b.condition
    assert not any(o.value == "8" for o in obs), "setup numbers are conditions"
    p99 = observations("Kestrel keeps a p99 latency of 14 ms.", _mentions("Kestrel keeps", "Kestrel"), set())
    assert _one(p99, "p99_latency").value == "14"


@pytest.mark.parametrize(("text", "subject", "metric", "value", "baseline"), [
    ("Borealis is 2.3x faster than Kestrel on the same host.", "Borealis", "speedup", "2.3", "Kestrel"),
    ("Borealis needs 5x less storage than Kestrel for a year of metrics.", "Borealis", "storage_reduction", "5",
     "Kestrel"),
    ("Kestrel delivers 16x higher throughput than Borealis.", "Kestrel", "throughput_ratio", "16", "Borealis"),
    ("Borealis is 40% cheaper than Kestrel at this scale.", "Borealis", "cost_reduction", "40", "Kestrel"),
    ("Borealis 的查询性能比 Kestrel 快 3 倍。", "Borealis", "speedup", "3", "Kestrel"),
])
def test_relative_claims_are_comparisons_never_absolute_values(text: str, subject: str, metric: str, value: str,
                                                               baseline: str) -> None:
    obs = observations(text, _mentions(text, "Borealis", "Kestrel"), set())
    (o,) = obs
    assert (o.entity, o.metric, o.value) == (subject, metric, value)
    assert o.condition and o.condition.startswith(f"vs {baseline}")
    assert not any(x.entity == baseline for x in obs), "the baseline gets no absolute value"


def test_a_comparison_without_a_named_baseline_is_no_value() -> None:
    text = "Borealis is now 2x faster than it used to be."
    assert observations(text, _mentions(text, "Borealis"), set()) == []


def test_chinese_prose_limits_and_throughput() -> None:
    text = "在单节点部署下，Kestrel 每秒可写入 50 万条记录，单表最多支持 4096 列。"
    obs = observations(text, _mentions(text, "Kestrel"), {"Kestrel"})
    _verbatim(text, obs)
    assert _one(obs, "ingest_throughput").value == "50 万"
    cols = _one(obs, "max_columns")
    assert cols.value == "4096" and cols.unit == "columns"


def test_key_value_lines_take_their_key_as_metric() -> None:
    obs = observations("Series cardinality: 50k series (per organization)", [], set(), "Kestrel Cloud")
    o = _one(obs, "max_series")
    assert (o.entity, o.value) == ("Kestrel Cloud", "50k")


# --- tables --------------------------------------------------------------------------------------------

def test_markdown_table_rows_read_with_their_header() -> None:
    header = ["System", "Ingest (rows/s)", "p99 query latency (ms)"]
    row = "Borealis | 812,000 | 38"
    obs = table_row_observations(header, row, _mentions(row, "Borealis"), {"Borealis"})
    _verbatim(row, obs)
    assert {(o.entity, o.metric, o.value, o.unit) for o in obs} == {
        ("Borealis", "ingest_throughput", "812,000", "rows/s"), ("Borealis", "p99_latency", "38", "ms")}


def test_two_column_limit_tables_and_configuration_rows() -> None:
    limits = table_row_observations(["Limit", "Value", "Notes"], "Max columns per table | 1,024 | default", [],
                                    set(), "Kestrel")
    assert [(o.metric, o.value, o.condition) for o in limits] == [("max_columns", "1,024", "default")]
    setup = table_row_observations(["Threads", "Ingest rows/sec"], "16 threads | 1,250,000 rows/sec", [], set(),
                                   "Borealis")
    assert [(o.entity, o.value, o.condition) for o in setup] == [("Borealis", "1,250,000", "16 threads")]


def test_html_tables_become_rows_with_a_header() -> None:
    page = (b"<html><head><title>Limits</title></head><body><article><h1>Kestrel limits</h1><p>These are the "
            b"limits that apply to every Kestrel cluster, whatever its plan or region.</p><table>"
            b"<tr><th>Limit</th><th>Value</th></tr><tr><td>Max tables per database</td><td>20,000</td></tr>"
            b"</table></article></body></html>")
    doc = parse_html(page, url="https://docs.example.org/kestrel/limits")
    assert "Limit | Value\n\nMax tables per database | 20,000" in doc.text


# --- entities ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "subject"), [
    ("Maple Grove, Ohio Maple Grove is a village in Lorain County.", "Maple Grove, Ohio"),
    ("Harbor Street Bridge (Portland) The present Harbor Street Bridge opened in 1926.",
     "Harbor Street Bridge (Portland)"),
    ("Eva Marsh (sculptor) Eva Louise Marsh (born 3 May 1948) is a sculptor.", "Eva Marsh (sculptor)"),
    ("Lake Tolva Lake Tolva is a reservoir.", "Lake Tolva"),
    ("the second reservoir was filled in 1931. Lake Tolva", None),
    ("Release Notes (summary)\n\nKestrel 2.0 adds tiered storage.", None),
    # a lead sentence: the name, its dates, then "was a"
    ("Edda Marie Vold (July 15, 1875 – April 22, 1946) was a Norwegian judge. Vold was born in Bergen.",
     "Edda Marie Vold"),
    ("Achada Tolva is a settlement in the south of the island.", "Achada Tolva"),
    ("It was a settlement in the south of the island.", None),
    ("Tolva is a settlement.", None),  # one word: too little to tell a name from a sentence
    ("The Old Mill House is a private residence.", None),
])
def test_lead_subject(text: str, subject: str | None) -> None:
    assert lead_subject(text) == subject


def _source(text: str, url: str, title: str | None = None) -> SourceDoc:
    return SourceDoc(id=source_id(url), url=url, title=title, text=text, content_hash=str(hash(text)))


def _observe(ex: DeterministicExtractor, src: SourceDoc, question: str, entities: list[str]) -> list[ObservationIn]:
    sq = SubQuestion(id=question_id(question), text=question, entities=entities)
    plan = Plan(question=question, sub_questions=[sq], entities=entities)
    units = sentence_units(src.text)
    ex.doc_subject(src)
    mentions = ex.mentions(src.text, units, sq, plan)
    out = []
    for u, found in zip(units, mentions, strict=True):
        item = ex.build_item(src, sq, plan, u.start, u.end, 0.0, found)
        out += item.observations
    return out


def test_same_name_entities_stay_apart_and_an_unqualified_passage_keeps_the_plain_name() -> None:
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver())
    q = "What is the population of Maple Grove?"
    ohio = _source("Maple Grove, Ohio Maple Grove is a village in Lorain County. The population was 2,417 at the 2010 "
                   "census.", "local://p/1.txt")
    iowa = _source("Maple Grove, Iowa Maple Grove is a city in Dallas County. The population was 388 at the 2010 "
                   "census.", "local://p/2.txt")
    plain = _source("Maple Grove has a small library. The population was 2,900 at the 2010 census.", "local://p/3.txt")
    nameless = _source("There were 5,100 people and 2,000 households in the town.", "local://p/4.txt")
    got = {s.url: [o for o in _observe(ex, s, q, ["Maple Grove"]) if o.metric == "population"]
           for s in (ohio, iowa, plain, nameless)}
    assert [o.entity for o in got[ohio.url]] == ["Maple Grove, Ohio"]
    assert [o.entity for o in got[iowa.url]] == ["Maple Grove, Iowa"]
    assert entity_key(got[ohio.url][0].entity) != entity_key(got[iowa.url][0].entity)
    assert [o.entity for o in got[plain.url]] == ["Maple Grove"]
    assert got[nameless.url] == [], "a passage that names no entity gives no observation"


def test_an_excerpt_is_about_the_one_same_name_place_of_the_kind_it_describes() -> None:
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver())
    q = "What is the population of Maple Grove?"
    town = _source("Maple Grove, Ohio Maple Grove is a town in Lorain County. The population was 2,417 at the 2010 "
                   "census.", "local://k/1.txt")
    village = _source("Maple Grove, Iowa Maple Grove is a village in Dallas County. The population was 388 at the "
                      "2010 census.", "local://k/2.txt")
    excerpt = _source("As of the census of 2010, there were 5,100 people and 2,000 households living in the town.",
                      "local://k/3.txt")
    mixed = _source("As of the census of 2010, there were 7,000 people in the town and 300 in the village.",
                    "local://k/4.txt")
    ex.prepare([town, village, excerpt, mixed])
    got = {s.url: [o.entity for o in _observe(ex, s, q, ["Maple Grove"]) if o.metric == "population"]
           for s in (excerpt, mixed)}
    assert got[excerpt.url] == ["Maple Grove, Ohio"]  # and so its 5,100 meets the town's 2,417 as a conflict
    assert got[mixed.url] == [], "two kinds of place: it cannot be told which one it describes"
    # two places of the kind it describes: it stays unnamed
    other = DeterministicExtractor(HashEmbedder(), AliasResolver())
    second_town = _source("Maple Grove, Maine Maple Grove is a town in York County.", "local://k/5.txt")
    other.prepare([town, second_town, excerpt])
    assert [o for o in _observe(other, excerpt, q, ["Maple Grove"]) if o.metric == "population"] == []


def test_the_document_subject_stands_in_for_sentences_that_name_none() -> None:
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver())
    text = ("Kestrel Cloud limits\n\nThese quotas apply to every Kestrel Cloud account.\n\nFree Plan\n\n"
            "Cardinality: 10k series per organization\n\nUsage-Based Plan\n\nCardinality: 2M series per organization")
    src = _source(text, "local://docs/limits.md", title="Kestrel Cloud limits")
    obs = [o for o in _observe(ex, src, "What series limits does Kestrel Cloud set?", ["Kestrel Cloud"])
           if o.metric == "max_series"]
    assert {o.entity for o in obs} == {"Kestrel Cloud"}
    free, paid = sorted(obs, key=lambda o: parse_quantity(o.value, o.unit).value)
    assert free.condition and "Free Plan" in free.condition and paid.condition and "Usage-Based Plan" in paid.condition
    assert not conditions_compatible(free.condition, paid.condition), "two plans are not a conflict"


def test_link_targets_name_no_entity() -> None:
    linker = EntityLinker(AliasResolver(), {"Kestrel": [], "Borealis": []}, discover=True)
    text = "See the [benchmark](https://blog.example.org/kestrel-vs-borealis) for details on VictoriaLake."
    assert [m.canonical for m in linker.link([text])[0]] == ["VictoriaLake"]


# --- hygiene -------------------------------------------------------------------------------------------

MARKDOWN = """# Kestrel

[![Build](https://ci.example.org/badge.svg)](https://ci.example.org) [![Docs](https://img.example.org/docs.svg)](https://docs.example.org)

- [Quick start](#quick-start)
- [Installation](#installation)
- [Benchmarks](#benchmarks)

Kestrel is a columnar time-series store that ingests 400k rows/sec on a single node.

```bash
docker run -p 9000:9000 kestrel/kestrel:latest
kestrel-cli import --rows 1000000 data.csv
```

Connect to the Kestrel instance via Kestrel Go SDK and get the corresponding test results.

Home Products Pricing Docs Blog Community Contact Us Sign In

Kestrel 在单节点上每秒可写入 40 万行数据。
"""


def test_badges_links_code_navigation_and_instructions_never_become_units() -> None:
    text = normalise_plain(MARKDOWN)
    quotes = [text[u.start:u.end] for u in sentence_units(text)]
    assert quotes == ["Kestrel is a columnar time-series store that ingests 400k rows/sec on a single node.",
                      "Kestrel 在单节点上每秒可写入 40 万行数据。"], quotes


@pytest.mark.parametrize(("piece", "expected"), [
    ("Talk Read Edit View history Tools What links here Related changes Upload file Special pages", True),
    ("请参考以下链接完成安装配置", True),
    ("curl -s http://localhost:9000/exec?query=select", True),
    ("[70x more points](https://x.example) fit into the same disk than with Borealis.", False),
    ("The Harbor Street Bridge opened in 1926 and carries four lanes.", False),
])
def test_furniture(piece: str, expected: bool) -> None:
    assert furniture(piece) is expected


def test_ages_after_their_metric_word_and_counts_after_a_place_word() -> None:
    assert _one(observations("The median age in the city was 41.9 years.", [], set(), "X"), "age").value == "41.9"
    assert _one(observations("The population of the town was 1,624.", [], set(), "X"), "population").value == "1,624"
    assert observations("He worked at the mill for 12 years.", [], set(), "X") == []


def _lookup_observe(ex: DeterministicExtractor, src: SourceDoc, question: str, entity: str) -> list[ObservationIn]:
    sq = SubQuestion(id=question_id(question), text=question, entities=[entity])
    plan = Plan(question=question, sub_questions=[sq], entities=[entity], kind="lookup")
    units = sentence_units(src.text)
    ex.doc_subject(src)
    mentions = ex.mentions(src.text, units, sq, plan)
    return [o for u, found in zip(units, mentions, strict=True)
            for o in ex.build_item(src, sq, plan, u.start, u.end, 0.0, found).observations]


def test_a_lookup_passage_that_names_nothing_is_about_the_plain_name_it_was_found_for() -> None:
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver())
    q = "What is the population of Maple Grove?"
    nameless = _source("There were 5,100 people and 2,000 households in the town.", "local://p/4.txt")
    got = [o for o in _lookup_observe(ex, nameless, q, "Maple Grove") if o.metric == "population"]
    assert [(o.entity, o.value) for o in got] == [("Maple Grove", "5,100")]
    other = _source("Cedar Falls is a city. There were 5,100 people in the city.", "local://p/5.txt")
    assert all(o.entity != "Maple Grove" for o in _lookup_observe(ex, other, q, "Maple Grove"))


def test_a_passage_that_writes_the_name_in_full_is_about_that_name() -> None:
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver())
    src = _source("Edvin Karl Lund was a Norwegian shipowner of the late 18th century. He was born on 3 March 1771 "
                  "in Bergen.", "local://p/6.txt")
    got = [o for o in _lookup_observe(ex, src, "When was Edvin Lund born?", "Edvin Lund") if o.metric == "born"]
    assert [(o.entity, o.value) for o in got] == [("Edvin Karl Lund", "3 March 1771")]


@pytest.mark.parametrize("text", [
    "As of the 2010 United States Census, [1] there were 12,345 people, 1,542 households in the CDP.",
    "At the 2010 U.S. census the town had 12,345 people.",
    "As of the census [3] of 2010, there were 12,345 people.",
])
def test_every_spelling_of_a_census_is_one_condition(text: str) -> None:
    assert _one(observations(text, [], set(), "Pinehurst"), "population").condition == "2010 census"


def test_an_inception_is_a_founding() -> None:
    text = "Statements instance of high school 0 references inception August 1998 0 references country United States"
    assert _one(observations(text, [], set(), "South Hills High School"), "founded").value == "August 1998"


def test_spans_of_the_calendar_are_values_named_by_their_clause() -> None:
    from openresearch.agents.extract.values import find_values

    got = {(v.raw, v.unit) for v in find_values("Zork is released every six months, with 2 years of full support, "
                                                   "3 more years of security fixes and a three-year cadence.")}
    assert got == {("six months", "months"), ("2", "years"), ("3 more years", "years"), ("three-year", "years")}
    obs = observations("Zork is released every six months.", [], set(), "Zork")
    assert [(o.metric, o.value, o.unit) for o in obs] == [("release_interval", "six months", "months")]
    obs = observations("2 years of full support, 3 more years of security fixes", [], set(), "Zork")
    assert [(o.metric, o.value) for o in obs] == [("full_support", "2"), ("security_fixes", "3 more years")]
    # a lone "year" after a small number is a span; a four-digit year stays a calendar year
    assert [v.quantity.unit for v in find_values("approximately 1 year of patch support since 2021")] == [
        "days", "year"]
    assert _one(observations("The median age in the city was 41.9 years.", [], set(), "X"), "age").value == "41.9"


def test_a_value_given_for_a_name_is_that_names_and_a_load_of_is_a_setting() -> None:
    text = "A benchmark from 2020 reported a peak of 605 MB/s for Zorkmq and 305 MB/s for Blarg on three brokers."
    obs = observations(text, _mentions(text, "Zorkmq", "Blarg"), set())
    assert [(o.entity, o.value, o.role) for o in obs] == [("Zorkmq", "605", "reported"), ("Blarg", "305", "reported")]
    text = ("We measured end-to-end latency, from the moment a producer sends a message to the moment a consumer "
            "receives it, at a fixed load of 200 MB/s for Zorkmq and Blarg.")
    assert [o.role for o in observations(text, _mentions(text, "Zorkmq", "Blarg"), set())] == ["setting"]
    text = "Zorkmq can minify its logs at 6 GB/s."
    assert [o.role for o in observations(text, _mentions(text, "Zorkmq"), set())] == ["own"]


def test_a_name_at_a_figure_is_that_names_figure_not_a_setting() -> None:
    text = ("The other systems under test struggled with higher unique device count, with Quuxdb ingestion dropping "
            "to 38k rows/sec and Zorkdb at 50k rows/sec with 10M devices.")
    assert role_of(text, text.find("50k"), text.find("50k") + 3) == "own"
    text = "We measured Zorkmq at 200 MB/s."
    assert role_of(text, text.find("200"), text.find("200") + 3) == "own"


def test_the_name_right_before_at_a_figure_owns_it() -> None:
    text = "Quuxdb ingestion dropped to 38k rows/sec and Zorkdb at 50k rows/sec with 10M devices."
    obs = observations(text, _mentions(text, "Quuxdb", "Zorkdb"), set())
    assert [(o.entity, o.value) for o in obs] == [("Quuxdb", "38k"), ("Zorkdb", "50k")]


@pytest.mark.parametrize("sentence,metric,raw,unit,condition", [
    ("The maximum nesting depth of Zorbly is 250.", "max_nesting_depth", "250", None, None),
    ("In Zorbly the maximum length of a pattern is 65539 code units.", "max_pattern_length", "65539", "code units",
     None),
    ("Zorbly's default cache is 4096 entries.", "cache", "4096", "entries", "default"),
    ("Zorbly sets the maximum depth (default 250).", "max_depth", "250", None, "default"),
    ("The smallest block in Zorbly is 16 words.", "min_block", "16", "words", None),
])
def test_a_quantity_no_list_names_takes_the_noun_phrase_it_is_stated_for(
        sentence: str, metric: str, raw: str, unit: str | None, condition: str | None) -> None:
    obs = observations(sentence, _mentions(sentence, "Zorbly"), {"Zorbly"})
    o = _one(obs, metric)
    assert (o.entity, str(o.value), o.unit, o.condition) == ("Zorbly", raw, unit, condition)


@pytest.mark.parametrize("sentence", ["Zorbly's answer is 42.", "Zorbly was 3 in the ranking.",
                                      "The limit on Zorbly threads is a setting of 64 or so."])
def test_a_bare_number_whose_phrase_names_no_limit_or_count_is_no_figure(sentence: str) -> None:
    assert observations(sentence, _mentions(sentence, "Zorbly"), {"Zorbly"}) == []


@pytest.mark.parametrize("sentence,metric,raw", [
    ("Each cycle has a development phase lasting about 4 months.", "development_phase", "4"),
    ("It takes three months of general development followed by three months of testing.", "general_development",
     "three months"),
    ("Zorbly receives bug fixes for 1½ years.", "bug_fixes", "1½"),
    ("During the *first eighteen months* (1½ year) it receives bugfix updates.", "bugfix", "eighteen months"),
])
def test_a_span_takes_the_noun_phrase_it_lasts_for(sentence: str, metric: str, raw: str) -> None:
    obs = observations(sentence, _mentions(sentence, "Zorbly"), {"Zorbly"}, context_entity="Zorbly")
    assert str(_one(obs, metric).value) == raw
    assert len(obs) == len({o.metric for o in obs})  # "eighteen months (1½ year)" is one span said twice
