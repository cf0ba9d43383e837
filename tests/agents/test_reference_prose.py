"""How reference prose states a setting's value: a duration in words ("a three minute delay"), a value a parameter
decides ("according to the result_ttl parameter" is no one reporting it), the owner after "for" ("the default
visibility timeout for Zorbq is 1 hour"), a value only supposed ("If the heartbeat value is 10 seconds, ..."),
a setting's abbreviation ("ttl") meaning what the question's words say ("expiry"); and a comparison searched for
each entity's figure. The names are made up."""

from __future__ import annotations

from openresearch.agents.extract.metric_names import answers_metric
from openresearch.agents.extract.observations import observations, phrase_metric, role_of
from openresearch.agents.extract.values import find_values
from openresearch.agents.plan.rewrite import per_entity_queries
from openresearch.models import SubQuestion


def test_a_duration_written_in_words_is_a_value() -> None:
    got = {(v.raw, v.unit, v.quantity.value) for t in ("Default is a three minute delay.", "for 15-minute runs")
           for v in find_values(t)}
    assert got == {("three", "minutes", 180000.0)}  # "15-minute runs" says what kind of run: no value
    assert find_values("a two-hour-long meeting") == []  # "two-hour-long" is no duration of its own
    # "Default is a three minute delay": a default (of what the entry defines: its term, definitions.py), the noun it
    # is written before its metric
    (o,) = observations("Default is a three minute delay.", [], set(), "Zorbq")
    assert (o.metric, o.value, o.unit, o.condition) == ("delay", "three", "minutes", "default")


def test_the_owner_after_for_is_no_part_of_the_quantity_and_a_parameter_reports_nothing() -> None:
    text = "The default visibility timeout for Zorbq is 1 hour."
    assert phrase_metric(text, find_values(text)[0], 0) == ("visibility_timeout", "hour", "default")
    kept = "Results are kept according to the result_ttl parameter (500 seconds by default)."
    at = kept.index("500")
    assert role_of(kept, at, at + 3) == "own"
    said = "According to the maintainers, Zorbq runs 500 jobs per second."
    at = said.index("500")
    assert role_of(said, at, at + 3) == "reported"


def test_a_value_only_supposed_is_not_stated() -> None:
    text = "If the heartbeat value is 10 seconds, the heartbeat is checked at twice that rate."
    assert not [o for o in observations(text, [], set(), "Zorbq") if o.value == "10"]
    # a bound in an if-clause is a limit the text states
    limit = "If the upload is larger than 2 GB, Zorbq rejects it."
    assert [o for o in observations(limit, [], set(), "Zorbq") if str(o.value) == "2"]


def test_an_abbreviation_answers_what_its_words_mean() -> None:
    assert answers_metric("result_ttl", "s", "job results expiry time")
    assert answers_metric("min_backoff", "ms", "retry delay")
    assert not answers_metric("backend_timeout", "ms", "retry delay")


def test_a_comparison_of_several_entities_searches_for_each_ones_figure() -> None:
    sq = SubQuestion(id="Q-1", text="How do Zorbq, Quux, Frob and Blarg compare on retry delay?", role="comparison",
                     entities=["Zorbq", "Quux", "Frob", "Blarg"], aspects=["retry_delay"])
    assert per_entity_queries(sq) == ["Zorbq retry delay", "Quux retry delay", "Frob retry delay",
                                      "Blarg retry delay"]
    assert per_entity_queries(sq.model_copy(update={"role": "core"})) == []
    from openresearch.agents.plan.rewrite import rewrite
    from openresearch.ingest.embed import HashEmbedder
    from openresearch.models import Plan

    plan = Plan(question=sq.text, kind="comparison", entities=sq.entities, sub_questions=[sq])
    # each entity's search first, within the four queries a sub-question gets
    assert rewrite(sq, plan, embedder=HashEmbedder(), threshold=0.0).queries == per_entity_queries(sq)
    assert per_entity_queries(sq.model_copy(update={"entities": ["Zorbq"]})) == []


def test_the_default_is_says_the_kind_and_a_count_of_retries_is_no_duration() -> None:
    text = "The expiry is set on the zorb_ttl argument, given in milliseconds, and the default is 10 minutes."
    assert [(o.metric, o.value, o.condition) for o in observations(text, [], set(), "Zorbq")] == \
        [("zorb_ttl", "10", "default")]
    assert answers_metric("max_retries", "", "job retries") and not answers_metric("retry", "days", "job retries")


def test_which_release_changed_a_default_asks_for_that_setting() -> None:
    from openresearch.agents.plan.analysis import analyse

    a = analyse("When were Zorbq 1.0.0 and 2.0.0 released? Which Zorbq release changed the default max retries to "
                "20, and when did it come out?")
    # (what the release did is part of what is asked, and of what is searched for)
    assert a.entities == ["Zorbq"] and a.attributes == ["release date", "default max retries changed"]
    assert a.metrics == ["released", "default_max_retries"]
    b = analyse("In which Zorbq release, and on what date, was the frob-limit check (with --frob-limit) added, and in "
                "which release was the default max-size changed to its current value?")
    assert b.attributes[-2:] == ["frob-limit added", "default max-size changed"] and b.metrics[-2:] == [
        "frob_limit", "max_size"]


def test_out_of_the_box_asks_for_defaults_and_a_worded_duration_is_shown_with_its_unit() -> None:
    from openresearch.agents.write.answer import _ASKS_DEFAULTS, value_text
    from openresearch.models import EvidenceView, ObservationView, SourceView

    assert _ASKS_DEFAULTS.search("How do Zorbq and Quux behave out of the box?")
    ev = EvidenceView(id="E-000000000001", quote="Default is a three minute delay.", type="statistic", score=0.5,
                      source=SourceView(id="S-1", url="local:///docs/zorbq.rst", title="Zorbq"), entities=["Zorbq"],
                      observations=[])
    obs = ObservationView(id="O-1", entity="Zorbq", metric="retry_delay", value=180000.0, unit="ms",
                          raw_value="three", raw_unit="minutes", condition="default")
    assert value_text(ev, obs) == "three minutes"


def test_the_release_that_changed_a_default_is_given_with_its_date_beside_the_asked_release_dates() -> None:
    from writing_fixtures import entry

    from openresearch.agents.write.answer import answer_section
    from openresearch.models import Plan, SourceView

    src = SourceView(id="S-log", url="local:///docs/zorbq-changelog.rst", title="Changelog")
    item = entry(1, "Changed the default max retries value from None to 20, meaning tasks are now retried.",
                 [("max_retries", 20.0, "", "20", "default since 0.5.2"),
                  ("max_retries", 0.0, "version", "0.5.2", "default changed in")], source=src)
    heading = entry(2, "0.5.2 -- 2017-06-29", [("release_date", 20170629.0, "date", "2017-06-29", "0.5.2")], source=src)
    release = entry(3, "1.0.0 -- 2018-03-31", [("release_date", 20180331.0, "date", "2018-03-31", "1.0.0")], source=src)
    q = ("When were Zorbq 1.0.0 and 2.0.0 released? Which Zorbq release changed the default max retries to 20, and "
         "when did it come out?")
    p = Plan(question=q, kind="overview", entities=["Zorbq"],
             attributes=["release date", "default max retries changed"],
             metrics=["released", "default_max_retries"],
             sub_questions=[SubQuestion(id="Q-1", text=q, role="core", entities=["Zorbq"])])
    texts = [s.text for s in answer_section(p, {"Q-1": [item, heading, release]}, []).sentences]
    # a release date is no default (the question's "default" does not filter the dates out)
    assert texts[0] == "Release date: Zorbq 1.0.0: 2018-03-31 [E-000000000003]." and \
        texts[1] == "No figure found for Zorbq 2.0.0."
    assert texts[2] == ("Default max retries changed: Zorbq 20 [E-000000000001]; default changed in 0.5.2 (2017-06-29) "
                        "[E-000000000001][E-000000000002].")
    # beside another product's cells too: the note follows the headline ("which Zorbq release" asks for it)
    two = p.model_copy(update={"kind": "comparison", "entities": ["Zorbq", "Quux"], "question": q.replace(
        "released?", "released, and Quux 1.0?")})
    texts = [s.text for s in answer_section(two, {"Q-1": [item, heading, release]}, []).sentences]
    assert "Default max retries changed: Zorbq 20 [E-000000000001]; default changed in 0.5.2 (2017-06-29) " \
           "[E-000000000001][E-000000000002]; no figure found for Quux." in texts, texts


def test_a_row_label_that_restates_the_question_is_not_judged_as_a_claim_of_the_quote() -> None:
    from openresearch.agents.verify.verifier import judge_inputs
    from openresearch.models import EvidenceView, ObservationView, SourceView

    ev = EvidenceView(id="E-000000000001", quote="Default: 10.", type="statistic", score=0.5,
                      source=SourceView(id="S-1", url="local:///zorbq.rst", title="Configuration"), entities=["Zorbq"],
                      observations=[ObservationView(id="O-1", entity="Zorbq", metric="broker_pool_limit", value=10.0,
                                                    unit="", raw_value="10", raw_unit="", condition="default")])
    text = "Broker connection pool limit: Zorbq 10 (default) [E-000000000001]."
    # the question's own words name the row; the figure after them is what the quote must hold
    assert judge_inputs(text, [ev], "What are Zorbq's defaults for the broker connection pool limit?")[0] == \
        "Zorbq 10 (default)."
    # a label the question does not ask stays part of the claim
    assert judge_inputs(text, [ev], "What is Zorbq's latency?")[0].startswith("Broker connection pool limit:")


def test_a_configuration_listing_under_its_defaults_intro_lists_defaults(tmp_path: object) -> None:
    from pathlib import Path

    from openresearch.agents.extract.document import read_document
    from openresearch.agents.extract.extractor import DeterministicExtractor
    from openresearch.identity import AliasResolver
    from openresearch.ingest.embed import HashEmbedder
    from openresearch.ingest.local import parse_local_file

    assert isinstance(tmp_path, Path)
    path = tmp_path / "zorbq-config.md"
    path.write_text("# Configuring Zorbq\n\nZorbq reads zorbq.toml from the project root for every run.\n\n"
                    "If left unspecified, Zorbq's default configuration is equivalent to:\n\n"
                    "```toml\n[tool.zorbq]\nline-length = 88\nmax-module-lines = 1000\n```\n\n"
                    "Note: Only tool.zorbq is required. These are the default values.\n\n"
                    "```toml\nmax-args = 5\n```\n\n"
                    "As an example, the following would configure Zorbq to use a shorter limit:\n\n"
                    "```toml\nline-length = 79\n```\n", encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path),
                        "What maximum line length does Zorbq use by default?")
    got = {(o.metric, o.value, o.unit, o.condition) for u in doc.units for o in u.observations}
    # each listed value is the key's default; a four-digit one is no year; the example's value is none
    assert {("line_length", "88", None, "default"), ("max_module_lines", "1000", None, "default"),
            ("max_args", "5", None, "default")} <= got, got
    assert not any(v == "79" for _, v, _, _ in got)
