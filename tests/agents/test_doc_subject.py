"""What a document is about, read from its own structure: the name inside its title, and tables laid out around
that name (its editions across, its phases down). The names are made up: no list of the package knows them."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor, title_name, title_subject
from openresearch.agents.extract.observations import observations
from openresearch.agents.extract.tables import subject_layout
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import normalise_plain
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file

BODY = ("The Zorbly.js team ships a new line each spring. Every Zorbly.js line gets fixes for a while, and the "
        "release schedule below says how long. We changed the schedule this year; the Zorbly.js 12 line is the "
        "last under the old model, and the release managers announce each Zorbly.js line on the mailing list. "
        "After Zorbly.js 12, lines come yearly.")


def test_the_name_inside_a_longer_title_is_the_subject() -> None:
    assert title_subject("Evolving the Zorbly.js Release Schedule", BODY) == "Zorbly.js"
    # a capitalised title word the text writes in lower case is an ordinary word, not the name
    assert title_subject("The Release Schedule", BODY) is None
    # a file name for a title
    assert title_subject("Zorbly.js-Release-Notes", BODY) == "Zorbly.js"


def test_a_version_in_the_title_stays_with_the_name_when_the_text_uses_it() -> None:
    assert title_subject("Zorbly.js 12 Release Schedule", BODY) == "Zorbly.js 12"


def test_a_title_naming_several_products_has_no_single_subject() -> None:
    body = ("We compare Quillo and Brantex on one box. Both Quillo and Brantex were set up the same way, then "
            "Quillo ran first and Brantex second; Quillo and Brantex used the same disks.")
    assert title_subject("Comparing Quillo and Brantex", body) is None


def test_a_name_then_a_tagline() -> None:
    body = "frobnik parses. frobnik is fast. Use frobnik when frobnik fits."
    assert title_subject("frobnik : Parsing gigabytes per second", body) == "frobnik"


def test_a_heading_capitalised_title_takes_the_texts_form_only_for_a_name_used_as_code() -> None:
    code = "Install it with pip install wibblet. Then wibblet.loads(data) parses; wibblet is small. See wibblet docs."
    assert title_name("Wibblet", code) == "wibblet"
    prose = "The benchmarks below ran twice. benchmarks are noisy; these benchmarks are the median of three."
    assert title_name("Benchmarks", prose) is None


def test_table_layout_follows_where_the_subjects_name_is() -> None:
    assert subject_layout("Zorbly", ["Phase", "Duration"], ["Current", "Long-term support", "End of Life"],
                          set()) == "terms"
    assert subject_layout("Zorbly", ["Feature/Plan", "Zorbly Basic", "Zorbly Plus", "Legacy"],
                          ["Main repository", "Extra packages"], set()) == "columns"
    # the product is one row among others: rows are entities
    assert subject_layout("zorbly", ["library", "parse (GB/s)"], ["zorbly", "quillo", "brantex"], set()) == ""
    # names shaped as names (lower case, with digits or paths) are entities, whatever the subject
    assert subject_layout("Zorbly", ["library", "time"], ["quillo", "brantex2"], set()) == ""
    # a milestone table that opens with the release itself is still about the subject's milestones
    assert subject_layout("Zorbly", ["Milestone", "Date"], ["26.0.0", "Enters LTS", "End of Life"], set()) == "terms"


DOC = """# Evolving the Zorbly.js Release Schedule

""" + BODY + """

## New Schedule

| Phase   | Duration  | Description                         |
| ------- | --------- | ----------------------------------- |
| Current | 6 months  | New features land here              |
| LTS     | 30 months | Long-term support with fixes        |

## Support Comparison

| Feature/Plan    | Zorbly.js Basic | Zorbly.js Plus | Legacy Support |
| --------------- | --------------- | -------------- | -------------- |
| Main repository | 5 years         | 10 years       | 12 years       |
"""


def test_a_phase_table_gives_the_documents_product_its_phases(tmp_path: Path) -> None:
    (tmp_path / "schedule.md").write_text(DOC, encoding="utf-8")
    src = parse_local_file(tmp_path / "schedule.md")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), src)
    got = {(o.entity, o.metric, str(o.value)) for u in doc.units for o in u.observations}
    assert ("Zorbly.js", "lts_duration", "30") in got
    assert ("Zorbly.js", "current_duration", "6") in got
    # its editions across the columns: one product, each edition the condition of its figure
    editions = {(o.entity, o.metric, str(o.value), o.condition) for u in doc.units for o in u.observations
                if o.metric == "main_repository"}
    assert {(e, v, c.split(",")[0]) for e, _, v, c in editions if c} == {
        ("Zorbly.js", "5", "Zorbly.js Basic"), ("Zorbly.js", "10", "Zorbly.js Plus"),
        ("Zorbly.js", "12", "Legacy Support")}
    assert not any(e in ("LTS", "Current", "Main repository") for e, _, _ in got)


def test_a_list_table_is_read_as_a_table_with_links_as_their_words() -> None:
    text = """Releases

```{list-table}
:header-rows: 1
:widths: 20 20

* - Version
  - Released
  - End of Life
* - Quillo 4.2
  - [Apr 21, 2022](https://example.org/announce/2022-April/000281.html)
  - Apr 2032
```

After the table.
"""
    plain = normalise_plain(text)
    assert "Version | Released | End of Life" in plain
    assert "Quillo 4.2 | Apr 21, 2022 | Apr 2032" in plain
    assert "000281" not in plain and "header-rows" not in plain
    rst = ".. list-table:: Releases\n   :header-rows: 1\n\n   * - Version\n     - Size\n   * - Quillo 4.2\n" \
          "     - 12 MB\n\nAfter.\n"
    assert "Quillo 4.2 | 12 MB" in normalise_plain(rst)


def test_a_rate_names_the_operation_it_measures() -> None:
    def got(text: str) -> set[tuple[str, str]]:
        return {(o.metric, str(o.value)) for o in observations(text, [], set(), "frobnik")}

    assert got("Features: Minify data at 6 GB/s, validate UTF-8 at 13 GB/s.") == {
        ("minify_throughput", "6"), ("validate_throughput", "13")}
    assert ("serialization_throughput", "600") in got("Expect 600 MB/s serialization on typical data.")
    # a pronoun or a name before "at" is whose rate it is, not an operation
    assert got("We measured it at 605 MB/s.") == {("throughput", "605")}


def test_a_span_is_named_by_its_label_or_its_compound_noun() -> None:
    def got(text: str) -> set[str]:
        return {o.metric for o in observations(text, [], set(), "Zorbly")}

    assert got("Total support: 36 months from first release to end of life.") == {"support"}
    assert got("Subsequent bugfix releases every two months.") == {"bugfix_release_interval"}
    assert got("Zorbly ships a feature release every twelve months.") == {"feature_release_interval"}
    assert got("Zorbly is released every six months.") == {"release_interval"}


def test_a_heading_underline_ends_the_heading_and_is_no_text() -> None:
    plain = normalise_plain("Abstract\n========\n\nThis document describes the schedule.\n\nPlan\n----\nText.\n")
    assert plain.split("\n\n") == ["Abstract", "This document describes the schedule.", "Plan", "Text."]


def test_versions_of_one_product_asked_side_by_side_are_the_compared_entities() -> None:
    from openresearch.agents.plan.analysis import analyse

    a = analyse("For Zorbly 3.12 and 3.13, what are the key dates: the x.y.0 release and the end of support?")
    assert a.entities == ["Zorbly 3.12", "Zorbly 3.13"] and a.kind == "comparison"
    assert analyse("What are the release dates of Quillo 20 and Quillo 22?").entities == ["Quillo 20", "Quillo 22"]
    # one version alone stays the product's name
    assert analyse("Compare Quillo 3 and Brantex on ingestion throughput.").entities[1:] == ["Brantex"]


def test_a_labelled_line_is_its_labels_value_of_the_documents_subject() -> None:
    from openresearch.agents.extract.observations import label_line

    def one(line: str) -> tuple[str, str, str, str | None, str | None, str]:
        got = label_line(line, [], "Zorbly 4.2")
        assert got is not None and len(got) == 1
        o = got[0]
        return o.entity, o.metric, str(o.value), o.unit, o.condition, o.role

    assert one("4.2.0 beta 1: Wednesday, 2024-05-08") == ("Zorbly 4.2", "beta_1_date", "2024-05-08", "date", "4.2.0",
                                                          "own")
    assert one("4.2.16: Tuesday, 2026-10-06 (expected)")[1:5] == ("release_date", "2026-10-06", "date", "4.2.16")
    assert one("End of life: April 2029")[1:4] == ("end_of_life_date", "April 2029", "year")
    assert one("Page size: about 64 KiB")[1:] == ("page_size", "64", "KiB", None, "bound")
    # a sentence after a colon, a person or no value: the prose reader's
    assert label_line("Note: the dates below use a 17-month development period", [], "Zorbly") is None
    assert label_line("Release manager: Ada Quill", [], "Zorbly") is None
    assert label_line("Total support: 36 months from first release to end of life", [], "Zorbly") is None


def test_a_date_after_until_is_when_what_was_done_ends() -> None:
    def got(text: str) -> set[tuple[str, str]]:
        return {(o.metric, str(o.value)) for o in observations(text, [], set(), "Zorbly")}

    assert ("support_end", "April 2029") in got("Zorbly 4 is supported until April 2029.")
    # named by what is done until then, when the clause says it
    assert ("security_update_end", "October 2028") in got(
        "Then security updates will be released until 5 years after the final, so until approximately October 2028.")
    assert ("bug_fix_end", "2027-06-01") in got("Bug fixes are provided until 2027-06-01.")


def test_a_run_of_labelled_lines_takes_the_label_it_stands_under() -> None:
    from openresearch.agents.extract.extractor import block_label

    text = ("Release Schedule\n\nActual:\n\n4.2 development begins: Sunday, 2022-05-08\n\nExpected:\n\n"
            "4.2.0 alpha 1: Monday, 2022-10-03\n\n4.2.0 beta 1: Monday, 2023-05-08\n\nAfter the list, prose.")
    assert block_label(text, text.index("4.2 development")) == "Actual"
    assert block_label(text, text.index("4.2.0 beta 1")) == "Expected"
    assert block_label(text, text.index("After the list")) is None


def test_of_several_asked_names_the_one_a_document_names_at_its_top_is_its_subject(tmp_path: Path) -> None:
    (tmp_path / "policy.rst").write_text(
        "Release Process\n===============\n\nFrom: https://wiki.quillo.example/rfc/process\n\n"
        "- 3 years release life cycle\n\n- 2 years bug fixes only\n")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(
        tmp_path / "policy.rst"), "Compare Brantex, Go, Quillo and Zorbly: how long is a release supported?")
    got = {(o.entity, o.metric, str(o.value)) for u in doc.units for o in u.observations}
    assert ("Quillo", "release_life_cycle", "3") in got and ("Quillo", "bug_fixes", "2") in got
    # a two-letter name counts only as a word of its own, in its own case: "go" in "to go" or "google" is not Go
    (tmp_path / "other.md").write_text(
        "# Notes\n\nWe had to go through google docs first.\n\n- 4 years release life cycle\n")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(
        tmp_path / "other.md"), "Compare Brantex, Go, Quillo and Zorbly: how long is a release supported?")
    assert not any(o.entity == "Go" for u in doc.units for o in u.observations)
