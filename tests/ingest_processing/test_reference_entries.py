"""A generated settings or environment reference read entry by entry, a chart a page draws read as its table, and
questions for one product's named releases or for the settings of an owner written in ordinary lower case. The
shape of the page and of the question decides; the names are made up."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.releases import asked_releases, release_asked, release_heading
from openresearch.agents.plan.analysis import _owner, analyse
from openresearch.agents.plan.attributes import attribute_list
from openresearch.identity import AliasResolver
from openresearch.ingest.chart_data import chart_table
from openresearch.ingest.documents import normalise_plain
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file

ENVIRONMENT = """# Environment variables

Zorbtool defines and respects the following environment variables.

### `ZORB_HTTP_RETRIES`
<small class="added-in">added in `0.7.21`</small>

The number of retries for HTTP requests. (default: 3)

### `ZORB_HTTP_TIMEOUT`
<small class="added-in">added in `0.1.7`</small>

Timeout (in seconds) for HTTP requests. (default: 30 s)
"""

SETTINGS = """# Settings

### [`max-downloads`](#max-downloads) {: #max-downloads }

The maximum number of in-flight downloads that zorbtool will perform at any given time.

**Default value**: `50`

**Type**: `int`

**Example usage**:

=== "zorb.toml"

    ```toml
    max-downloads = 4
    ```
"""

CHART = """# Benchmark

### Result

<script>
Quuxcharts.chart('container', {
    title: { text: 'Benchmark' },
    xAxis: { categories: ['Lock', 'Lock+cache', 'Install'] },
    yAxis: { min: 0, title: { text: 'Time (s)' } },
    plotOptions: { column: { pointPadding: 0.2, borderWidth: 0 } },
    series: [{ name: 'Frobpm', data: [76.95, 39.08, 17.82] },
             { name: 'Wexpm', data: [27.56, 21.91, 12.16] }]
});
</script>
"""


def _obs(path: Path, question: str | None = None) -> list[tuple[str, str, str, str | None, str]]:
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path), question)
    return [(o.entity, o.metric, str(o.value), o.unit, o.condition or "") for u in doc.units for o in u.observations]


def test_an_entry_heading_is_its_keyword_and_its_notes_and_tags_are_no_text() -> None:
    text = normalise_plain(SETTINGS + "\n" + ENVIRONMENT)
    assert "\n\nmax-downloads\n\n" in text  # no anchor link, no attribute list
    assert "\n\nZORB_HTTP_TIMEOUT\n\nadded in 0.1.7\n\n" in text  # the heading is one line; no <small> tags
    assert "max-downloads = 4" not in text  # an example under "Example usage", though "Default value" is above it
    assert "zorb.toml" not in text  # a content tab's label
    assert release_heading("added in 0.1.7") is None  # a note of the entry, no release of a product "added"


def test_an_entrys_default_is_its_terms_since_the_version_that_added_it(tmp_path: Path) -> None:
    page = tmp_path / "environment.md"
    page.write_text(ENVIRONMENT, "utf-8")
    obs = _obs(page, "What are zorbtool's default values for the HTTP timeout and the number of HTTP retries?")
    assert ("zorbtool", "zorb_http_timeout", "30", "s", "default") in obs
    assert ("zorbtool", "zorb_http_retries", "3", None, "default") in obs
    assert not any(e == "added" for e, *_ in obs)
    # the note is a fact of its own: the version that brought the setting, shown as the note says it
    assert ("zorbtool", "zorb_http_timeout", "0.1.7", "version", "added in") in obs
    page = tmp_path / "settings.md"
    page.write_text(SETTINGS, "utf-8")
    obs = _obs(page, "What are zorbtool's default values for the number of downloads?")
    assert obs == [("zorbtool", "max_downloads", "50", None, "default")]


def test_a_chart_a_script_draws_is_read_as_its_table(tmp_path: Path) -> None:
    lines = chart_table(CHART)
    assert lines[0] == "Benchmark"  # the axis's unit is in the headers
    assert lines[2] == "| | Lock (s) | Lock+cache (s) | Install (s) |"
    assert lines[4] == "| Frobpm | 76.95 | 39.08 | 17.82 |"
    text = normalise_plain(CHART)
    assert "borderWidth" not in text and "Quuxcharts" not in text  # the script is code
    page = tmp_path / "bench.md"
    page.write_text(CHART, "utf-8")
    obs = _obs(page, "How do Frobpm and Wexpm compare on install time and lock time?")
    assert ("Frobpm", "lock_time", "76.95", "s", "Benchmark") in obs
    assert ("Frobpm", "lock_time", "39.08", "s", "with cache, Benchmark") in obs
    assert ("Wexpm", "install_time", "12.16", "s", "Benchmark") in obs
    assert chart_table("var x = { data: [1, 2, 3] };") == []  # no categories, no named series: no chart


def test_a_question_for_named_releases_asks_one_products_release_dates() -> None:
    a = analyse("When were Quux 1.1.5, 1.2.0rc1, 1.2.0 and 2.1.0 released?")
    assert a.entities == ["Quux"] and a.metrics == ["released"]
    # releases written with one dot are the product's releases too when their dates are asked ("Quux 3.12" came
    # out when 3.12.0 did); whole numbers ("Quux 20 and 22") are lines, and one version alone stays the name
    assert analyse("When were Quux 3.12 and 3.13 released?").entities == ["Quux"]
    assert analyse("How do Quux 3.12 and 3.13 compare on startup time?").entities == ["Quux 3.12", "Quux 3.13"]
    named = asked_releases("When were Quux 1.1.5, 1.2.0rc1 and 1.2.0 released?")
    assert release_asked("1.2.0rc1", named) and release_asked("[1.2.0]", named) and release_asked("1.1.5", named)
    assert not release_asked("1.2.0rc2", named) and not release_asked("1.2.0b2", named)  # unnamed pre-releases
    series = asked_releases("What changed from 0.19 to 0.22.1?")
    assert release_asked("0.20.3", series) and not release_asked("0.20.3-rc.1", series)


def test_an_owner_written_bare_is_a_name_even_when_it_is_an_ordinary_word() -> None:
    a = analyse("What are bolt's default values for the read timeout, the number of workers and the queue size, and "
                "in which versions were these settings introduced?")
    assert a.entities == ["bolt"]
    assert a.attributes == ["read timeout", "number of workers", "queue size"]
    assert _owner("What are the kernel's default limits for open files?") is None  # a common noun takes "the"
    assert _owner("What is today's price?") is None


def test_where_the_figures_come_from_ends_the_attribute_list() -> None:
    assert attribute_list("How do Quux and Frob compare on install time and lock (resolution) time in published "
                          "benchmarks?", "en", ["Quux", "Frob"]) == ["install time", "lock (resolution) time"]


def test_a_compound_word_is_no_form_of_its_first_word() -> None:
    from openresearch.agents.extract.metric_names import answers_metric, names_what_was_measured

    assert not answers_metric("zorb_http_timeout", "s", "dependency install time")  # "timeout" is no "time"
    assert answers_metric("startup", "ms", "dev server startup time") and answers_metric("times", "s", "build time")
    assert names_what_was_measured("install_time", "dependency install time")
    assert not names_what_was_measured("add_time", "dependency install time")  # only the kind of quantity shared


def test_a_default_is_chosen_before_the_figures_that_say_the_rows_words() -> None:
    from openresearch.agents.write.answer import answer_section
    from openresearch.models import EvidenceView, ObservationView, Plan, SourceView, SubQuestion

    def ev(eid: str, quote: str, condition: str) -> EvidenceView:
        return EvidenceView(id=eid, quote=quote, type="statistic", score=0.5,
                            source=SourceView(id=f"S-{eid}", url=f"local:///docs/{eid}.md", title=eid),
                            entities=["zorbtool"],
                            observations=[ObservationView(id=f"O-{eid}", entity="zorbtool", metric="zorb_http_timeout",
                                                          value=30000.0, unit="ms", raw_value="30", raw_unit="s",
                                                          condition=condition)])

    entry = ev("E-000000000001", "Timeout (in seconds) for HTTP requests. (default: 30 s)", "default")
    readme = ev("E-000000000002", "ZORB_HTTP_TIMEOUT: the timeout for HTTP reads, 30 s here.", "")
    q = "What are zorbtool's default values for the HTTP read timeout (ZORB_HTTP_TIMEOUT) and the retries?"
    p = Plan(question=q, kind="overview", entities=["zorbtool"],
             attributes=["HTTP read timeout (ZORB_HTTP_TIMEOUT)", "retries"], metrics=["zorb_http_timeout", "retries"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["zorbtool"])])
    first = answer_section(p, {"Q-1": [entry, readme]}, []).sentences[0]
    assert first.text.startswith("HTTP read timeout (ZORB_HTTP_TIMEOUT): zorbtool 30 s") and \
        first.citations == ["E-000000000001"]  # the default, though only the other figure says "reads"
    note = ev("E-000000000003", "added in 0.1.7", "added in")
    note.observations[0] = note.observations[0].model_copy(update={"value": 1007000.0, "unit": "version",
                                                                   "raw_value": "0.1.7", "raw_unit": "version"})
    first = answer_section(p, {"Q-1": [note, entry, readme]}, []).sentences[0]
    assert first.text.startswith("HTTP read timeout (ZORB_HTTP_TIMEOUT): zorbtool 30 s (default) [E-000000000001]; "
                                 "added in 0.1.7 [E-000000000003]")  # the default, then since when the setting exists


def test_a_row_of_a_settings_own_key_holds_that_key_and_its_version_note() -> None:
    from openresearch.agents.write.answer import metric_table
    from openresearch.models import EvidenceView, ObservationView, Plan, SourceView, SubQuestion

    def ev(eid: str, quote: str, metric: str, value: float, unit: str, raw: str, condition: str) -> EvidenceView:
        return EvidenceView(id=eid, quote=quote, type="statistic", score=0.5,
                            source=SourceView(id="S-env", url="local:///docs/env.md", title="env"),
                            entities=["zorbtool"],
                            observations=[ObservationView(id=f"O-{eid}", entity="zorbtool", metric=metric, value=value,
                                                          unit=unit, raw_value=raw, raw_unit=unit,
                                                          condition=condition)])

    items = [ev("E-000000000001", "Timeout (in seconds) for HTTP requests. (default: 30 s)", "zorb_http_timeout",
                30000.0, "ms", "30", "default"),
             ev("E-000000000002", "Timeout (in seconds) for uploads. (default: 900 s)", "zorb_upload_http_timeout",
                900000.0, "ms", "900", "default"),
             ev("E-000000000003", "added in 0.1.43", "zorb_concurrent_builds", 1043000.0, "version", "0.1.43",
                "added in"),
             ev("E-000000000004", "added in 0.1.45", "zorb_concurrent_installs", 1045000.0, "version", "0.1.45",
                "added in")]
    q = ("What are zorbtool's default values for the HTTP timeout (ZORB_HTTP_TIMEOUT), the number of concurrent builds "
         "(concurrent-builds) and the number of concurrent installs (concurrent-installs)?")
    attributes = ["HTTP timeout (ZORB_HTTP_TIMEOUT)", "number of concurrent builds (concurrent-builds)",
                  "number of concurrent installs (concurrent-installs)"]
    p = Plan(question=q, kind="overview", entities=["zorbtool"], attributes=attributes,
             metrics=["zorb_http_timeout", "concurrent_builds", "concurrent_installs"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["zorbtool"])])
    table = metric_table(p, items)
    cells = {label: [f.text for f in row.get("zorbtool", [])] for label, row in table.items()}
    assert cells == {attributes[0]: ["30 s"], attributes[1]: ["0.1.43"], attributes[2]: ["0.1.45"]}


def test_an_unclosed_script_tag_loses_no_text() -> None:
    text = normalise_plain("Intro.\n\n<script>\n\nQuux keeps 2 GB per topic by default.\n")
    assert "Quux keeps 2 GB per topic by default." in text


def test_a_release_heading_ends_the_entry_of_a_sub_heading_above_it() -> None:
    from openresearch.agents.extract.definitions import defined_term

    text = normalise_plain("# Change Log\n\n## [2.1.1] - 2025-02-16\n\n### quux-core ([`2.1.1`](https://x.org/2.1.1))\n\n"
                           "- Fix a marker ([#838](https://x.org/838)).\n\n## [2.1.0] - 2025-02-15\n\n### Added\n\n"
                           "- Add a 5 s timeout.\n")
    assert defined_term(text, text.find("[2.1.0] - 2025-02-15")) is None  # no "quux-core" entry holds it
    assert defined_term(text, text.find("Fix a marker")) == "quux-core"


def test_named_releases_are_answered_in_the_questions_order_and_a_missing_one_is_said() -> None:
    from openresearch.agents.write.answer import answer_section
    from openresearch.models import EvidenceView, ObservationView, Plan, SourceView, SubQuestion

    def heading(eid: str, version: str, date: str, ordinal: float) -> EvidenceView:
        return EvidenceView(id=eid, quote=f"[{version}] - {date}", type="statistic", score=0.5,
                            source=SourceView(id="S-log", url="local:///docs/CHANGELOG.md", title="Change Log"),
                            entities=["Quux"],
                            observations=[ObservationView(id=f"O-{eid}", entity="Quux", metric="release_date",
                                                          value=ordinal, unit="date", raw_value=date, raw_unit="date",
                                                          condition=version)])

    q = "When were Quux 1.1.5, 1.2.0rc1, 1.5.0 and 2.0.0 released?"
    p = Plan(question=q, kind="overview", entities=["Quux"], attributes=["release date"], metrics=["released"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["Quux"])])
    items = [heading("E-000000000001", "2.0.0", "2025-01-05", 739256.0),
             heading("E-000000000002", "1.2.0rc2", "2022-08-26", 738393.0),
             heading("E-000000000003", "1.2.0rc1", "2022-08-22", 738389.0),
             heading("E-000000000004", "1.1.5", "2021-03-04", 737853.0)]
    first, gap = answer_section(p, {"Q-1": items}, []).sentences[:2]
    assert first.text == ("Release date: Quux 1.1.5: 2021-03-04 [E-000000000004]; Quux 1.2.0rc1: 2022-08-22 "
                          "[E-000000000003]; Quux 2.0.0: 2025-01-05 [E-000000000001].")  # no unasked 1.2.0rc2
    assert gap.kind == "gap" and gap.text == "No figure found for Quux 1.5.0."


def test_a_range_is_restated_as_its_source_writes_it() -> None:
    from openresearch.agents.write.writer_deterministic import _RANGE, _values
    from openresearch.models import EvidenceView, ObservationView, SourceView

    quote = "[10-100x faster](https://x.org/BENCHMARKS.md) than zorbpip."
    ev = EvidenceView(id="E-000000000001", quote=quote, type="statistic", score=0.5,
                      source=SourceView(id="S-readme", url="local:///docs/README.md", title="README"),
                      entities=["Quux"],
                      observations=[ObservationView(id="O-1", entity="Quux", metric="speedup", value=10.0, unit="",
                                                    raw_value="10-100", raw_unit="", condition="vs zorbpip")])
    (values,) = _values([ev]).values()
    assert [v.surface for v in values] == ["10-100"]  # not its low end, "10"
    assert _RANGE.fullmatch("2–3 years") and not _RANGE.fullmatch("2023-10-02")  # a date is no range
