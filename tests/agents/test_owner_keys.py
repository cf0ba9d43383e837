"""Questions that name each compared product's own key for what they ask, definition lists written without blank
lines, settings tables of example values, and a quantity of one thing that answers no quantity of another (names are
made up)."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.metric_names import says_what_is_measured
from openresearch.agents.extract.observations import role_of
from openresearch.agents.extract.requirements import requirement_observations
from openresearch.agents.extract.signatures import signature_defaults
from openresearch.agents.plan.analysis import analyse
from openresearch.agents.plan.attributes import owner_key_gloss, owner_keys
from openresearch.agents.write.answer import metric_table
from openresearch.identity import AliasResolver
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file
from openresearch.ingest.rst import rst_blocks
from openresearch.models import EvidenceView, ObservationView, Plan, SourceView, SubQuestion
from tests.agents.test_answer import ev, plan

LOG = SourceView(id="S-log", url="local:///docs/zorbq-CHANGES.rst", title="Changelog")


def zorbq_ev(n: int, quote: str, metric: str, value: float, unit: str, raw: str, cond: str,
             src: SourceView = LOG) -> EvidenceView:
    """One of Zorbq's quotes with one observation (a change log's, unless `src` says otherwise)."""
    return EvidenceView(id=f"E-{n:012d}", quote=quote, type="statistic", score=0.5, source=src, entities=["Zorbq"],
                        observations=[ObservationView(id=f"O-{n}", entity="Zorbq", metric=metric, value=value,
                                                      unit=unit, raw_value=raw, raw_unit=unit, condition=cond)])

QUESTION = ("Out of the box, how do Zorbq, Quux and Blarg compare on two things: (1) after a stop is requested, how "
            "long each waits before escalating to a hard kill (give the units); and (2) how many times each will "
            "retry starting a worker that keeps failing before giving up on it (Zorbq's frob_retries, Quux' "
            "spawner max_attempts, the Blarg watcher's restart cap)?")


def test_an_enumerated_clause_with_each_products_own_key_is_one_attribute_glossed_with_the_keys() -> None:
    a = analyse(QUESTION)
    assert a.entities == ["Zorbq", "Quux", "Blarg"]
    assert a.attributes == ["wait before hard kill", "retry count (frob_retries / max_attempts / restart cap)"]
    # (each key is asked too, so its entry's default is gathered)
    assert {"retry_count", "frob_retries", "max_attempts", "restart_cap"} <= set(a.metrics)
    assert owner_keys(QUESTION, a.entities) == [{"Zorbq": "frob_retries", "Quux": "max_attempts",
                                                 "Blarg": "restart cap"}]
    assert owner_key_gloss(a.attributes[1]) == ["frob_retries", "max_attempts", "restart cap"]
    assert owner_key_gloss("retry count") == [] and owner_key_gloss("read timeout (ZORB_TIMEOUT)") == []


def test_each_products_cell_holds_its_own_keys_figure() -> None:
    a = analyse(QUESTION)
    p = plan(QUESTION, "comparison", a.entities, a.attributes, a.metrics)
    items = [ev("E-000000000001", "Default: 3", [("Zorbq", "frob_retries", 3, "", "3", "default")], src="z"),
             ev("E-000000000002", "The number of attempts before the watcher stops. Defaults to 5.",
                [("Quux", "max_attempts", 5, "", "5", "default")], src="q"),
             # another key of Quux that also counts attempts: not the one the question names
             ev("E-000000000003", "How many times a wobbling worker is retried. (default: 7)",
                [("Quux", "wobble_tries", 7, "", "7", "default")], src="q")]
    row = metric_table(p, items)["retry count (frob_retries / max_attempts / restart cap)"]
    assert {e: [f.obs.value for f in fs] for e, fs in row.items()} == {"Zorbq": [3.0], "Quux": [5.0]}


def test_a_definition_list_without_blank_lines_is_its_entries_and_bold_terms_are_their_words(tmp_path: Path) -> None:
    page = ("Frob plugin\n===========\n\n    The Frob plugin of Zorbq stops a wobbling worker.\n\n"
            "    **kind**\n      set to ``zorbq.plugins.Frob``\n"
            "    **tries**\n      the number of times a worker may respawn, within **span** seconds, before we "
            "call it wobbling (default: 2)\n"
            "    **span**\n      the time span in seconds to watch a worker for.  (default: 1)\n"
            "    **back_in**\n      time in seconds to wait until we start again a worker that has\n"
            "      been wobbling. (default: 7)\n")
    lines = rst_blocks(page.splitlines())
    assert "    tries" in lines and "    span" in lines and "    **span**" not in lines
    assert lines[lines.index("    span") - 1] == ""
    f = tmp_path / "zorbq__plugins.rst"
    f.write_text(page)
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(f),
                        "What are Zorbq's tries, span and back_in defaults?")
    got = {(o.metric, o.value, o.unit) for o in doc.observations if o.condition == "default"}
    assert {("tries", "2", None), ("span", "1", "seconds"), ("back_in", "7", "seconds")} <= got
    # ("the number of times" counts; it reports nobody's figure)
    sentence = "the number of times a worker may respawn before we call it wobbling (default: 2)"
    assert role_of(sentence, sentence.index("2)"), sentence.index("2)") + 1) == "own"


def test_a_settings_table_of_example_values_gives_the_default_its_description_states(tmp_path: Path) -> None:
    f = tmp_path / "zorbq__options.md"
    f.write_text("# Zorbq options\n\nZorbq reads these fields from its app file.\n\n### Control flow\n\n"
                 "| Field | Type | Example | Description |\n|:---|:---:|:---:|:---|\n"
                 "| stop_grace | number | 1500 | time in milliseconds before a worker is stopped hard |\n"
                 "| max_spawns | number | 12 | number of quick respawns before the app is marked broken. "
                 "defaults to 12|\n"
                 "| spawn_delay | number | 4000 | time to wait before spawning again (in milliseconds). "
                 "defaults to 0.|\n")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(f),
                        "What are Zorbq's stop_grace and max_spawns defaults?")
    got = {(o.entity, o.metric, o.value, o.unit, o.condition) for o in doc.observations}
    assert ("Zorbq", "stop_grace", "1500", "milliseconds", "example") in got  # (no year)
    assert ("Zorbq", "max_spawns", "12", None, "default") in got
    # (the default a description states, not the example beside it)
    assert ("Zorbq", "spawn_delay", "0", "milliseconds", "default") in got
    assert not any(m == "spawn_delay" and v == "4000" for _, m, v, _, _ in got)


def test_a_quantity_of_another_thing_answers_no_attribute_that_says_what_its_quantity_is_of() -> None:
    assert not says_what_is_measured("poll_delay", "escalate delay", "The polling interval in seconds. default")
    assert says_what_is_measured("escalate_delay", "escalate delay", "x")
    assert says_what_is_measured("connect_timeout", "connection timeout", "x")
    assert says_what_is_measured("pool_size", "connection pool size", "x")


def test_releases_asked_in_the_passive_for_a_platforms_versions_dropped_one_after_another() -> None:
    a = analyse("Give me a timeline for Zorbq and Quux: in which Zorbq release did Frob 3 support arrive, and in "
                "which Quux releases (with dates) were Frob 2.6 and then Frob 2.7 dropped?")
    assert "Frob 2.6 support dropped" in a.attributes and "Frob 2.7 support dropped" in a.attributes
    assert not any(x.startswith("then ") for x in a.attributes)


def test_support_added_for_a_whole_major_version_and_its_first_release_first() -> None:
    [o] = requirement_observations("Support for Frob 3 has been added.", [], "Zorbq") or []
    assert (o.metric, o.value, o.condition) == ("frob_version", "3", "supported")
    question = "In which Zorbq release did Frob 3 support arrive?"
    a = analyse(question)
    p = plan(question, "comparison", ["Zorbq", "Quux"], ["Frob 3 support added"], ["frob_version"])
    later = ev("E-000000000001", "The bug came with Zorbq 4.0.0 along with the changes needed to add Frob 3 "
               "support.", [("Zorbq", "frob_version", 3_000_000_000, "version", "3", "supported, 4.0.3 (2019-05-22)")])
    later_head = ev("E-000000000002", "4.0.3 (2019-05-22)",
                    [("Zorbq", "release_date", 0, "date", "2019-05-22", "4.0.3")])
    first = ev("E-000000000003", "Support for Frob 3 has been added.",
               [("Zorbq", "frob_version", 3_000_000_000, "version", "3", "supported, 4.0.0 (2019-04-05)")])
    first_head = ev("E-000000000004", "4.0.0 (2019-04-05)",
                    [("Zorbq", "release_date", 0, "date", "2019-04-05", "4.0.0")])
    row = metric_table(p, [later, later_head, first, first_head])["Frob 3 support added"]
    cell = row["Zorbq"]
    assert cell[0].text.startswith("4.0.0") and cell[1].text.startswith("4.0.3")
    # (the release's own heading is cited beside the entry, not the later entry that names it)
    assert first_head.id in {e.id for e in cell[0].evidence} and later.id not in {e.id for e in cell[0].evidence}
    assert a.attributes == ["Frob 3 support added"]


def test_a_figure_of_an_example_is_no_default_and_answers_no_comparison(tmp_path: Path) -> None:
    f = tmp_path / "zorbq__guide.rst"
    f.write_text("Periodic tasks\n==============\n\nIn the following example, we declare a Zorbq periodic task that "
                 "runs every 7 minutes and prints a message.\n\nFor example, a task timeout of 30 seconds stops a "
                 "slow Zorbq task.\n\nThe default time limit of a Zorbq task is 10 "
                 "minutes.\n")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(f),
                        "What is Zorbq's default task time limit?")
    got = {(o.value, o.unit, o.condition) for o in doc.observations}
    assert ("30", "seconds", "example") in got and ("10", "minutes", "default") in got
    assert not any(v in ("7", "30") and "default" in (c or "") for v, _, c in got)
    question = "What are the default task time limits of Zorbq and Quux?"
    p = plan(question, "comparison", ["Zorbq", "Quux"], ["default task time limit"], ["task_time_limit"])
    example = ev("E-000000000001", "In the following example, a Zorbq task runs every 7 minutes.",
                 [("Zorbq", "task_time_limit", 420_000, "ms", "7", "example")])
    assert metric_table(p, [example]).get("default task time limit", {}) == {}


def test_of_two_keys_that_share_as_many_words_the_one_with_the_rows_first_word_answers() -> None:
    question = "How do Zorbq and Quux differ in their default frob-drain timeout?"
    p = plan(question, "comparison", ["Zorbq", "Quux"], ["frob-drain timeout"], ["frob_drain_timeout"])
    items = [ev("E-000000000001", "drain_timeout | N/A | Timeout when waiting for the start-up hooks | 60s",
                [("Zorbq", "drain_timeout", 60_000, "ms", "60s", "default")], src="z"),
             ev("E-000000000002", "frob_timeout | --frob-timeout | Time to wait after a stop signal | 3s",
                [("Zorbq", "frob_timeout", 3_000, "ms", "3s", "default")], src="z")]
    row = metric_table(p, items)["frob-drain timeout"]
    assert [f.obs.metric for f in row["Zorbq"]] == ["frob_timeout"]


def test_a_call_that_passes_values_is_no_signature_of_defaults() -> None:
    assert signature_defaults("frob.touch('key', ttl=None) True >>> frob.touch('gone', ttl=1) False",
                              "Zorbq") is None
    assert signature_defaults("zorbq.open(5, retries=2, timeout=3)", "Zorbq") is None
    got = signature_defaults("Frobber(directory=None, timeout=60, shards=8)", "Zorbq") or []
    assert [(o.metric, o.value) for o in got] == [("timeout", "60"), ("shards", "8")]


def test_the_release_date_asked_of_the_release_a_change_came_in_is_that_releases_only() -> None:
    q = ("I need Zorbq's default frob codes. The frob codes default used to be 1,3 and broke slow jobs: in which "
         "Zorbq release was it changed, and when was that release published?")
    a = analyse(q)
    assert "frob codes default changed" in a.attributes and "release date" in a.attributes
    entry = zorbq_ev(1, "The default frob codes changed to 0.", "frob_codes", 0.0, "version", "4.0.0",
                     "default changed in")
    heading = zorbq_ev(2, "4.0.0 (2019-04-05)", "release_date", 20190405.0, "date", "2019-04-05", "4.0.0")
    latest = zorbq_ev(3, "4.3.0 (2025-08-23)", "release_date", 20250823.0, "date", "2025-08-23", "4.3.0")
    p = Plan(question=q, kind="overview", entities=["Zorbq"], attributes=a.attributes, metrics=a.metrics,
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["Zorbq"])])
    table = metric_table(p, [entry, heading, latest])
    assert [f.text for f in table["frob codes default changed"]["Zorbq"]] == ["4.0.0 (2019-04-05)"]
    assert [f.obs.raw_value for f in table["release date"]["Zorbq"]] == ["2019-04-05"]  # (not the latest release)


def test_each_product_words_its_defaults_its_own_way_and_a_bound_said_by_default_is_no_default() -> None:
    question = ("For each of Zorbq and Quux, how many times is a failed task retried, and how long is the wait "
                "before a retry? Give the default numbers.")
    a = analyse(question)
    assert a.attributes[:2] == ["task retries", "retry delay"]
    p = plan(question, "comparison", ["Zorbq", "Quux"], a.attributes, a.metrics)
    items = [ev("E-000000000001", "Job.frob_retries: the maximum number of task retries. Default: 3.",
                [("Zorbq", "frob_retries", 3, "", "3", "default")], src="z"),
             # Quux calls its tasks messages: its default says no "task", and stays
             ev("E-000000000002", "frob_retries | 20 | The maximum number of times a message is retried.",
                [("Quux", "frob_retries", 20, "", "20", "default")], src="q"),
             ev("E-000000000003", "Changed the default frob retries to 20, so tasks are now retried for up to about 9 "
                "days by default.", [("Quux", "retry", 777_600_000, "ms", "9", "default")], src="q")]
    items[2].observations[0].role = "bound"
    row = metric_table(p, items)["task retries"]
    assert {e: [f.obs.value for f in fs] for e, fs in row.items()} == {"Zorbq": [3.0], "Quux": [20.0]}


def test_a_parenthesis_of_each_products_own_key_glosses_a_listed_attribute_but_not_generic_words() -> None:
    a = analyse("How do Zorbq and Quux compare on retries (Zorbq's frob_retries, Quux's max_attempts)?")
    assert a.attributes == ["retries (frob_retries / max_attempts)"]
    assert analyse("How do Zorbq and Quux compare on retries (Zorbq's default, Quux's default)?").attributes == [
        "retries"]


def test_a_change_asked_of_a_key_whose_row_says_the_release_that_changed_it_is_no_gap_of_its_own() -> None:
    from openresearch.agents.write.answer import answer_section

    ref = SourceView(id="S-ref", url="local:///docs/zorbq-settings.md", title="Settings")

    q = ("For Zorbq: what is the current default for --reload-delay, and in which release (with date) did the "
         "reload_delay default change to 0.25?")
    a = analyse(q)
    items = [zorbq_ev(1, "--reload-delay <float> Delay between reloads. Default: 0.25.", "reload_delay", 0.25, "",
                      "0.25", "default", ref),
             zorbq_ev(2, "Set the reload_delay default to 0.25 (#1545)", "reload_delay", 0.0, "version", "0.18.3",
                      "default changed in"),
             zorbq_ev(3, "0.18.3 - August 24, 2022", "release_date", 20220824.0, "date", "August 24, 2022", "0.18.3")]
    p = Plan(question=q, kind="overview", entities=["Zorbq"], attributes=a.attributes, metrics=a.metrics,
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["Zorbq"])])
    texts = [s.text for s in answer_section(p, {"Q-1": items}, []).sentences]
    assert texts == ["Reload-delay: Zorbq 0.25 (default) [E-000000000001]; default changed in 0.18.3 (August 24, "
                     "2022) [E-000000000002][E-000000000003]."]


def test_what_a_change_is_of_names_both_its_figures(tmp_path: Path) -> None:
    f = tmp_path / "zorbq__CHANGES.md"
    f.write_text("# Zorbq changes\n\n## Version 2.0.0\n\nThe change also cuts the overhead from 21 bytes (via the old "
                 "encoder) to 6 bytes (using a packed header).\n")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(f),
                        "How much per-entry overhead does Zorbq have?")
    assert {(o.metric, o.value) for o in doc.observations} >= {("overhead", "21"), ("overhead", "6")}


def test_an_event_said_by_the_release_it_came_in_repeats_no_condition() -> None:
    from openresearch.agents.write.answer import Found, new_condition

    obs = ObservationView(id="O-1", entity="Zorbq", metric="frob_version", value=2_007_000_000.0, unit="version",
                          raw_value="2.7", raw_unit="", condition="minimum, On Frob 2, Zorbq, 4.0.0 (2019-04-05)")
    quote = zorbq_ev(1, "On Frob 2, Zorbq now requires Frob 2.7.", "frob_version", 2_007_000_000.0, "version", "2.7",
                     "minimum, On Frob 2, Zorbq, 4.0.0 (2019-04-05)")
    assert new_condition(Found("4.0.0 (2019-04-05)", obs, [quote])) == ""
    # (the bound itself, stated as its value, keeps its condition)
    assert new_condition(Found("2.7", obs, [quote])) == "minimum, On Frob 2, Zorbq, 4.0.0 (2019-04-05)"
