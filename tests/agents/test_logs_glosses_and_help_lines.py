"""Shapes of documents and questions of any domain: a change log whose release headings carry no date and whose
"Released <date>" line under each does, titled "<NAME> NEWS"; a command's help lines, whose value type is no name
and whose "16Mi" is a size; a question that asks each product's value with "which", glosses what it asks with
each product's own words in a parenthesis after its clause, names a lower-case tool by running it, or lists the
releases of each product it wants dated. The names are made up."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor, title_name
from openresearch.agents.extract.values import find_values
from openresearch.agents.plan.analysis import analyse
from openresearch.agents.plan.planner import DeterministicPlanner, PlanBudget
from openresearch.agents.write.answer import metric_table
from openresearch.identity import AliasResolver
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file
from tests.agents.test_answer import ev, plan

NEWS = """# ZORBQ NEWS

This file summarises the changes of each Zorbq release that users see. Zorbq keeps its full history elsewhere.

## Changes in 2.53.0

Released 2022-11-07

  * zorbq can be built with frob 5.
  * Fixed a wibble in Zorbq's archive reader.

## Changes in 2.52.0

Released 2022-03-12

  * New wire protocol, used when both sides run Zorbq.
"""


def read(tmp_path: Path, name: str, text: str, question: str) -> list[tuple[str, str, object, str | None, str | None]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver.load())
    doc = read_document(ex, parse_local_file(path), question)
    return [(o.entity, o.metric, o.value, o.unit, o.condition) for u in doc.units for o in u.observations]


def test_a_date_line_without_a_colon_under_an_undated_release_heading_dates_that_release(tmp_path: Path) -> None:
    rows = read(tmp_path, "NEWS.md", NEWS, "When were Zorbq 2.52.0 and 2.53.0 released?")
    # (the product is the log's title's, in the form its text writes it; not the versioned name the question wrote)
    assert ("Zorbq", "release_date", "2022-11-07", "date", "2.53.0") in rows
    assert ("Zorbq", "release_date", "2022-03-12", "date", "2.52.0") in rows


def test_a_log_titled_with_what_it_logs_names_that_product() -> None:
    assert title_name("ZORBQ NEWS", NEWS) == "Zorbq"
    assert title_name("Quux Release Notes", "quux is fast. Quux 2 is faster.") == "Quux"
    # ordinary words the text never writes as a name are no product
    assert title_name("Breaking changes", "Breaking changes are listed here. Breaking changes hurt.") is None


def test_a_help_lines_value_type_is_no_name_and_a_size_may_drop_its_b(tmp_path: Path) -> None:
    text = ("# Zorbq flags\n\nZorbq reads these flags. Zorbq applies them to every command.\n\n```\n"
            "      --frobs int                Number of frobs to run in parallel (default 8)\n"
            "      --wobble-size SizeSuffix   In memory buffer size for each wobble (default 16Mi)\n```\n")
    rows = read(tmp_path, "flags.md", text, "What are Zorbq's default frobs and wobble size?")
    assert ("Zorbq", "frobs", 8.0, None, "default") in [(e, m, float(str(v)), u, c) for e, m, v, u, c in rows]
    assert any(e == "Zorbq" and m == "wobble_size" and u == "MiB" and c == "default" for e, m, _, u, c in rows)
    assert [(v.raw, v.unit) for v in find_values("chunks of 64Mi, 128Ki or 2Gi")] == [
        ("64", "MiB"), ("128", "KiB"), ("2", "GiB")]
    assert [v.unit for v in find_values("5 mi away")] == [""]


ASKED = ("I'm putting Zorbq, Quux and Blarg on a small server. Which TCP port does each one listen on by default "
         "(Zorbq's control API, Quux's sync protocol, the Blarg daemon)? How much concurrency does each allow by "
         "default (Zorbq's parallel frob transfers, Quux's outstanding writes per folder, the Blarg daemon's cap on "
         "client connections)?")


def test_which_value_each_one_has_is_no_choice_and_each_clauses_gloss_is_its_attributes() -> None:
    a = analyse(ASKED)
    assert a.kind == "comparison"
    assert sorted(a.attributes) == ["TCP port (control API / sync protocol / daemon)",
                                    "concurrency (parallel frob transfers / outstanding writes per folder / cap on "
                                    "client connections)"]


def test_a_tool_the_asker_runs_and_a_feature_a_release_added_are_read_whole() -> None:
    assert analyse("Which port does Zorbq's control API use by default?").entities == ["Zorbq"]
    a = analyse("If I run zorbq without tuning anything, how many frobs does it keep, and in which zorbq release "
                 "were multi-threaded wobbles first added?")
    assert a.entities == ["zorbq"]
    assert "multi-threaded wobbles added" in a.attributes


def test_the_releases_a_question_lists_are_no_attributes_and_go_with_each_products_search() -> None:
    question = "Can you put together a timeline for Zorbq 3.2.0 and 3.2.4 next to Quux 2.52.0, i.e. when was each " \
               "of these versions released?"
    assert analyse(question).attributes == ["release date"]
    texts = [sq.text for sq in DeterministicPlanner(HashEmbedder()).plan(question, budget=PlanBudget()).sub_questions]
    assert any("Zorbq 3.2.0 and 3.2.4" in t for t in texts) and any("Quux 2.52.0" in t for t in texts)


def test_a_products_own_words_for_what_is_asked_pick_its_figure() -> None:
    a = analyse(ASKED)
    p = plan(ASKED, "comparison", a.entities, a.attributes, a.metrics)
    items = [ev("E-000000000001", "--frob-transfers int   Number of frob transfers to run in parallel (default 4)",
                [("Zorbq", "frob_transfers", 4, "", "4", "default")], src="z"),
             ev("E-000000000002", "--sftp-concurrency int   The maximum number of outstanding requests (default 64)",
                [("Zorbq", "sftp_concurrency", 64, "", "64", "default")], src="z"),
             # a memory figure is never a concurrency, whatever its key says
             ev("E-000000000003", "maxConcurrentIncomingKiB: the default is 32768 KiB (32 MiB).",
                [("Quux", "concurrency", 32, "MB", "32 MiB", "default")], src="q"),
             ev("E-000000000004", "maxConcurrentWrites: the outstanding writes per folder, 16 by default.",
                [("Quux", "max_concurrent_writes", 16, "", "16", "default")], src="q")]
    row = metric_table(p, items)[next(x for x in a.attributes if x.startswith("concurrency"))]
    assert [f.obs.value for f in row["Zorbq"]] == [4]
    assert [f.obs.value for f in row["Quux"]] == [16]


def test_a_port_after_its_host_is_read_and_an_address_default_is_its_ports(tmp_path: Path) -> None:
    assert [(v.raw, v.kind) for v in find_values("listen on 0.0.0.0:22000 and localhost:8384")] == [
        ("22000", "port"), ("8384", "port")]
    # (a time, a ratio and an address inside a link are none)
    assert [v.kind for v in find_values("at 10:30 the ratio 1:2")] == ["bare", "bare"]
    assert find_values("see https://example.org:4000/x") == []
    # (a default in quotes is a default too)
    assert read(tmp_path, "ctl.md", "# Zorbq control\n\nZorbq serves its control API. Zorbq binds it "
                "to an address.\n\n### --ctl-addr=IP\n\nIPaddress:Port or :Port to bind server to. "
                "(default \"localhost:5572\").\n", "Which port does Zorbq's control API use by default?") == [
        ("Zorbq", "ctl_addr_port", "5572", None, "default")]
    text = ("# Zorbq flags\n\nZorbq reads these flags. Zorbq applies them to every command.\n\n```\n"
            "      --ctl-addr stringArray   IPaddress:Port or :Port to bind server to (default localhost:5572)\n"
            "```\n")
    # (neither the value's type nor an acronym glued to a word names anything)
    assert read(tmp_path, "flags.md", text, "Which port does Zorbq listen on by default?") == [
        ("Zorbq", "ctl_addr_port", "5572", None, "default")]


LOG = """# Changelog

## v2.4.0 - 2023-06-15

New commands

serve frob: Serve a Zorbq store over FROB (A. Author)

New Features

Multi threaded wobbles to local storage (A. Author)

controlled with --multi-wobble-cutoff and --multi-wobble-streams

Use zorbq.conf from the executable directory (B. Author)

Bug Fixes

Parallel quux no longer hangs (C. Author)

## v2.3.0 - 2023-03-01

Bug Fixes

Fixed a wibble in the frob reader (C. Author)
"""


def test_an_entry_of_a_releases_list_of_new_features_is_what_that_release_added(tmp_path: Path) -> None:
    rows = read(tmp_path, "CHANGELOG.md", LOG.replace("# Changelog", "# Zorbq changelog"),
                "In which Zorbq release were multi-threaded wobbles added?")
    assert ("Zorbq", "multi_threaded_wobbles_to_local_storage", "v2.4.0", "version", "added in") in rows
    assert ("Zorbq", "serve_frob", "v2.4.0", "version", "added in") in rows
    # (a fix is no addition)
    assert not any(m.startswith("parallel_quux") for _, m, _, _, _ in rows)


def test_a_row_of_what_a_release_added_holds_releases_only() -> None:
    question = "In which Zorbq release were multi-threaded wobbles first added?"
    a = analyse(question)
    assert a.attributes == ["multi-threaded wobbles added"]
    p = plan(question, "lookup", ["Zorbq"], a.attributes, a.metrics)
    items = [ev("E-000000000001", "--multi-wobble-chunk-size SizeSuffix Chunk size for multi-threaded wobbles "
                                  "(default 64Mi)", [("Zorbq", "multi_threaded_wobbles_chunk_size", 64, "MiB", "64Mi",
                                                      "default")], src="flags")]
    assert not metric_table(p, items).get("multi-threaded wobbles added", {}).get("Zorbq")


def test_the_releases_a_sub_question_names_are_searched_for_by_number() -> None:
    from openresearch.agents.plan.rewrite import variants

    question = "When were Zorbq 3.2.0 and 3.2.4 released, next to Quux 2.52.0?"
    p = DeterministicPlanner(HashEmbedder()).plan(question, budget=PlanBudget())
    queries = [q for sq in p.sub_questions for q in variants(sq, p)]
    assert any(q.startswith("Zorbq 3.2.0 3.2.4") for q in queries)
    assert any(q.startswith("Quux 2.52.0") for q in queries)


def test_a_figure_of_the_general_row_stays_out_of_a_qualified_row_it_says_nothing_of() -> None:
    question = "How many times does Zorbq retry a failed sync, and how many low-level retries does it do?"
    a = analyse(question)
    assert a.attributes == ["retry count", "low-level retries"]
    p = plan(question, "lookup", ["Zorbq"], a.attributes, a.metrics)
    items = [ev("E-000000000001", "--retries int   Retry operations this many times if they fail (default 3)",
                [("Zorbq", "retries", 3, "", "3", "default")], src="flags")]
    table = metric_table(p, items)
    assert [f.obs.value for f in table["retry count"]["Zorbq"]] == [3]
    assert not table.get("low-level retries", {}).get("Zorbq")


def test_a_release_dated_on_a_line_under_its_heading_is_stated_with_the_heading_cited() -> None:
    from openresearch.agents.write.answer import ANSWER_ID, answer_section

    question = "When were Zorbq 2.52.0 and Quux 3.2.7 released?"
    p = plan(question, "comparison", ["Zorbq", "Quux"], ["release date"], ["released"])
    items = [ev("E-000000000001", "Released 2022-03-12", [("Zorbq", "release_date", 20220312, "date", "2022-03-12",
                                                           "2.52.0")], src="znews"),
             ev("E-000000000002", "Changes in 2.52.0", src="znews", entities=["Zorbq"], kind="background"),
             ev("E-000000000003", "NEWS for Quux 3.2.7 (20 Oct 2022)",
                [("Quux", "release_date", 20221020, "date", "20 Oct 2022", "3.2.7")], src="qnews")]
    text = " ".join(s.text for s in answer_section(p, {ANSWER_ID: items}, []).sentences)
    # (the version the line leaves out is its heading's: cited with it, the sentence keeps it)
    assert "Zorbq 2.52.0: 2022-03-12 [E-000000000001][E-000000000002]" in text
    assert "Quux 3.2.7: 20 Oct 2022 [E-000000000003]" in text


def test_a_value_advised_for_a_goal_is_no_default_and_a_keys_unit_is_one_word(tmp_path: Path) -> None:
    from openresearch.agents.extract.definitions import term_metric

    text = ("Tuning Zorbq\n============\n\nZorbq reads these options. Zorbq applies them at start.\n\n"
            "- :opt:`maxPendingFrobKiB`\n    The amount of frob data in flight. Higher values may help. The default "
            "is 262144 KiB (256 MiB).\n\nFor low resources:\n\n- :opt:`maxPendingFrobKiB`\n"
            "    Set to 32768 KiB (32 MiB) to reduce the memory used for frobs.\n")
    rows = read(tmp_path, "tuning.rst", text, "What is Zorbq's default maxPendingFrobKiB?")
    # (the list item that is only the key heads its description's entry; the key's unit is one word of its name)
    assert ("Zorbq", "max_pending_frob_kib", "262144", "KiB", "default, 256 MiB") in rows
    advised = [c for _, _, v, _, c in rows if v in ("32768", "32")]
    assert advised and all("suggested" in (c or "") and "default" not in (c or "") for c in advised)
    assert term_metric("pullerMaxPendingKiB") == "puller_max_pending_kib"


def test_each_product_is_searched_for_with_its_own_words_for_what_is_asked() -> None:
    from openresearch.agents.plan.rewrite import owned_queries

    question = ("Which TCP port does each of Zorbq and Quux listen on by default (Zorbq's control API, the Quux "
                "daemon)? How much concurrency does each allow (Zorbq's parallel frob transfers, Quux's outstanding "
                "writes)?")
    p = DeterministicPlanner(HashEmbedder()).plan(question, budget=PlanBudget())
    queries = {q for sq in p.sub_questions for q in owned_queries(sq, p)}
    assert {"Zorbq control API TCP port", "Quux daemon TCP port", "Zorbq parallel frob transfers concurrency",
            "Quux outstanding writes concurrency"} <= queries
