"""Change-log entries that answer a timeline: a raised minimum drops the minor before it, a platform added to the
test matrix is supported, an adjective before "support for" is no part of the product (names are made up)."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.releases import condition_release
from openresearch.agents.extract.requirements import requirement_observations
from openresearch.agents.write.answer import collect
from openresearch.models import EvidenceView, ObservationView, SourceView


def _entry(eid: str, quote: str, value: float, condition: str) -> EvidenceView:
    return EvidenceView(id=eid, quote=quote, type="statistic", score=0.5,
                        source=SourceView(id="S-log", url="file:///CHANGES.md", title="Changes"),
                        entities=["Zorbq"],
                        observations=[ObservationView(id=f"O-{eid}", entity="Zorbq", metric="frob_version",
                                                      value=value, unit="version", raw_value="", raw_unit="version",
                                                      condition=condition)])


def test_an_adjective_before_support_for_is_no_scope_and_the_release_is_read_after_it() -> None:
    [o] = requirement_observations("Official support for Frob 3.14.", [], "Zorbq") or []
    assert (o.entity, o.value, o.condition) == ("Zorbq", "3.14", "supported")
    release = condition_release("supported, Official, Zorbq 2.7.0 (2026-02-22)")
    assert release is not None and release.version == "2.7.0"


def test_a_platform_added_to_the_test_matrix_is_supported_but_a_whole_number_is_no_platform() -> None:
    [o] = requirement_observations("Add Frob 3.14 to the CI matrix and the package metadata.", [], "Zorbq") or []
    assert (o.value, o.condition) == ("3.14", "supported")
    assert not requirement_observations("Add JSON 2 output to the report command.", [], "Zorbq")


def test_a_raised_minimum_under_a_release_answers_when_the_minor_before_it_was_dropped() -> None:
    raised = _entry("E-raised", "Zorbq now requires Frob >= 3.9.", 3_009_000_000, "minimum, Zorbq 2.4.0 (2025-06-14)")
    heading = EvidenceView(id="E-head", quote="Zorbq 2.4.0 (2025-06-14)", type="claim", score=0.5,
                           source=raised.source, entities=["Zorbq"], observations=[])
    undated = _entry("E-plain", "Zorbq requires Frob >= 3.9.", 3_009_000_000, "minimum")
    found = collect([raised, heading, undated], "frob_version", "Zorbq", "Frob 3.8 support dropped")
    assert [f.text for f in found["Zorbq"]] == ["2.4.0 (2025-06-14)"]
    # (a minimum two minors on, or asked of another version, drops nothing asked)
    assert not collect([raised, heading], "frob_version", "Zorbq", "Frob 3.7 support dropped")


def test_the_release_heading_of_a_raised_minimum_is_gathered_with_it(tmp_path: Path) -> None:
    from openresearch.agents.extract.document import plan_for
    from openresearch.agents.extract.extractor import DeterministicExtractor
    from openresearch.identity import AliasResolver
    from openresearch.ingest.embed import HashEmbedder
    from openresearch.ingest.local import parse_local_file

    log = tmp_path / "CHANGES.md"
    log.write_text("# Changes\n\n### Zorbq 2.7.0 (2026-02-22)\n* Official support for Frob 3.14. Thanks @a!\n"
                   "* Minor fixes.\n\n### Zorbq 2.4.0 (2025-06-14)\n* Zorbq now requires Frob >= 3.9. Thanks @b!\n"
                   "* Faster pool start-up.\n\n### Zorbq 1.0 (2019-04-06)\n* Added support for Frob 3.7.\n",
                   encoding="utf-8")
    sq, plan = plan_for("When did Zorbq and Quux drop Frob 3.8, and when did each first support Frob 3.14?")
    x = DeterministicExtractor(HashEmbedder(), AliasResolver({}))
    quotes = [i.quote for i in x.extract(parse_local_file(log), sq, plan).items]
    # (each entry with the heading that dates it, before the entry that first supported an older version)
    assert set(quotes[:4]) == {"Official support for Frob 3.14.", "Zorbq 2.7.0 (2026-02-22)",
                               "Zorbq now requires Frob >= 3.9.", "Zorbq 2.4.0 (2025-06-14)"}


def test_an_entry_that_drops_a_version_and_states_the_new_minimum_dates_the_drop_once() -> None:
    said = "Frob 3.8 support has been removed; the minimum version is now Frob 3.9."
    both = EvidenceView(id="E-both", quote=said,
                        type="statistic", score=0.5, source=SourceView(id="S-log", url="file:///c.rst", title="Log"),
                        entities=["Zorbq"], observations=[
                            ObservationView(id="O-a", entity="Zorbq", metric="frob_version", value=3_008_000_000,
                                            unit="version", raw_value="3.8", raw_unit="version",
                                            condition="dropped, 1.4.0"),
                            ObservationView(id="O-b", entity="Zorbq", metric="frob_version", value=3_009_000_000,
                                            unit="version", raw_value="3.9", raw_unit="version",
                                            condition="minimum, 1.4.0")])
    heading = EvidenceView(id="E-head", quote="1.4.0", type="claim", score=0.5, source=both.source,
                           entities=[], observations=[])
    found = collect([both, heading], "frob_version", "Zorbq", "Frob 3.8 support dropped")
    assert [f.text for f in found["Zorbq"]] == ["1.4.0"]
    [o, m] = requirement_observations(both.quote, [], "Zorbq") or []
    assert (o.value, o.condition, m.value, m.condition) == ("3.8", "dropped", "3.9", "minimum")


def test_a_sphinx_change_log_release_is_its_version_over_its_release_day() -> None:
    from openresearch.ingest.rst import rst_blocks

    lines = [".. changelog::", "    :version: 1.4.0", "    :released: Sat Apr 26 2025", "", "    .. change::",
             "        :tags: change, general", "", "        Frob 3.8 support has been removed.", ""]
    out = [ln.strip() for ln in rst_blocks(lines) if ln.strip()]
    assert out == ["1.4.0", "Released: Sat Apr 26 2025", "Frob 3.8 support has been removed."]


def test_what_expires_after_a_time_is_kept_that_long_it_is_no_timeout() -> None:
    from openresearch.agents.extract.observations import observations

    [o] = observations("By default the lock table will expire after 3600 seconds.", [], set(), "Zorbq")
    assert (o.metric, o.value) == ("expiry", "3600")
    [t] = observations("The request times out after 30 seconds.", [], set(), "Zorbq")
    assert t.metric == "timeout"


def test_a_key_that_says_which_timeout_beats_a_bare_timeout_for_a_qualified_row() -> None:
    from openresearch.agents.write.answer import Found, best_keys

    def default(metric: str, value: float) -> Found:
        e = _entry(f"E-{metric}", f"Default: {value:g}", value, "default")
        o = e.observations[0].model_copy(update={"metric": metric, "unit": "s"})
        return Found(f"{value:g}", o, [e])

    found = [default("timeout", 30), default("keepalive", 2), default("graceful_timeout", 30)]
    assert [f.obs.metric for f in best_keys(found, "default keep-alive / idle-connection timeout", {}, "Zorbq")] == \
        ["keepalive"]
    assert [f.obs.metric for f in best_keys(found, "worker (silent) timeout", {}, "Zorbq")] == ["timeout"]


def test_a_default_changed_after_its_key_or_set_by_an_entry_that_opens_with_defaults_dates_the_change() -> None:
    from openresearch.agents.extract.releases import Release, change_log_notes

    r = Release(None, "0.18.3", "August 24, 2022", 0)
    got = change_log_notes("frob_delay default changed from None to 0.25 on Zorbq.run() and Config", r, "Zorbq") or []
    assert [(o.metric, o.value, o.condition) for o in got] == [("frob_delay", "0.18.3", "default changed in"),
                                                               ("frob_delay", "0.25", "default since 0.18.3")]
    got = change_log_notes("Defaults quux frob_size for clients to 16MB (#995)", r, "Zorbq") or []
    assert [(o.metric, o.value, o.unit) for o in got] == [("frob_size", "0.18.3", "version"), ("frob_size", "16", "MB")]
