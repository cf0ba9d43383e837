"""What a product needs to run and which platform versions it supports, read as bounds on the platform's version
("It requires Frob 3.10+ to run" is Frob's version 3.10, a minimum); a question for the oldest or the newest one is
answered by the bound it asks for. The names are made up."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.metric_names import answers_metric
from openresearch.agents.extract.requirements import requirement_observations
from openresearch.agents.plan.analysis import analyse
from openresearch.agents.write.answer import answer_section
from openresearch.identity import AliasResolver
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file
from openresearch.models import EvidenceView, ObservationView, Plan, SourceView, SubQuestion
from openresearch.numbers import version_key


def _bounds(sentence: str) -> list[tuple[str, str, str | None]]:
    return [(o.metric, o.value, o.condition) for o in requirement_observations(sentence, [], "Zorb") or []]


def test_each_way_of_stating_a_requirement_is_a_bound_on_the_platforms_version() -> None:
    assert _bounds("It requires Frob 3.10+ to run.") == [("frob_version", "3.10", "minimum")]
    assert _bounds("Zorb is installable under any Frob version from 3.7 onwards.") == [
        ("frob_version", "3.7", "minimum")]
    assert _bounds("Require frob >= 3.9 (See also 1973).") == [("frob_version", "3.9", "minimum")]
    assert _bounds("The latest version supports Frob 3.10.0 and above.") == [("frob_version", "3.10.0", "minimum")]
    assert _bounds("Zorb supports Frob 3.8 through 3.12.") == [("frob_version", "3.8", "minimum"),
                                                               ("frob_version", "3.12", "maximum")]
    # a list of supported versions is a range: its first the minimum, its last the maximum (not "3.8" as the newest)
    assert _bounds("Zorb supports Frob 3.8, 3.9, 3.10, and 3.14.") == [("frob_version", "3.8", "minimum"),
                                                                        ("frob_version", "3.14", "maximum")]
    assert _bounds("Frob 3.14 compatibility") == [("frob_version", "3.14", "supported")]
    assert _bounds("Added support for frob 3.14 (See also 1983).") == [("frob_version", "3.14", "supported")]
    assert _bounds("blarg has been updated to >= 2.14.0, < 2.15.0.") == [("blarg_version", "2.14.0", "minimum")]
    # a part of the product the subject names is the bound's condition: two parts' minimums are two facts
    assert _bounds("Servers and tools now require Frob 17.") == [("frob_version", "17", "minimum, Servers and tools")]
    # support dropped says no bound (the next version is not named), only that version dropped; a span of time is
    # no version
    assert _bounds("Dropped support for Frob 3.8.") == [("frob_version", "3.8", "dropped")]
    assert _bounds("Each release is supported for 18 months.") == []


def test_a_requirement_reads_as_a_fact_however_short_or_code_like_its_line(tmp_path: Path) -> None:
    path = tmp_path / "zorb-7.2.0.md"
    path.write_text("# Zorb 7.2.0 -- 2025-03-29\n\nNew Dependency Information\n\n- Require frob >= 3.9 (See also 1973)."
                    "\n\nFeatures\n\n- Frob 3.14 compatibility\n", encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path),
                        "What is the oldest Frob version Zorb runs on?")
    got = {(o.entity, o.metric, o.value, o.condition) for u in doc.units for o in u.observations}
    # (the notes of one release hold for that release: its heading is the bounds' condition)
    assert {("Zorb", "frob_version", "3.9", "minimum, Zorb 7.2.0 -- 2025-03-29"),
            ("Zorb", "frob_version", "3.14", "supported, Zorb 7.2.0 -- 2025-03-29")} <= got, got


def test_the_oldest_and_the_newest_version_asked_are_answered_by_their_bounds() -> None:
    a = analyse("Comparing Zorb and Quux: what is the oldest Frob version each one can be installed on, and what is "
                "the newest Frob version Quux says it is compatible with?")
    assert a.entities == ["Zorb", "Quux"] and a.attributes == ["oldest Frob version", "newest Frob version"]
    assert answers_metric("frob_version", "version", "oldest_frob_version")
    assert not answers_metric("blarg_version", "version", "oldest_frob_version")
    src = SourceView(id="S-1", url="local:///docs/zorb-readme.md", title="Zorb")

    def ev(n: int, quote: str, entity: str, raw: str, cond: str) -> EvidenceView:
        # (a version's value is its sortable key: 3.10 after 3.9)
        obs = ObservationView(id=f"O-{n}", entity=entity, metric="frob_version", value=float(version_key(raw) or 0),
                              unit="version", raw_value=raw, raw_unit="version", condition=cond)
        return EvidenceView(id=f"E-{n:012d}", quote=quote, type="statistic", score=0.5, source=src,
                            entities=[entity], observations=[obs])

    items = [ev(1, "Zorb requires Frob 3.8 or later.", "Zorb", "3.8", "minimum"),
             ev(2, "Zorb now requires Frob 3.10 or later.", "Zorb", "3.10", "minimum"),
             ev(3, "Zorb supports Frob 3.13.", "Zorb", "3.13", "supported"),
             ev(4, "Quux requires Frob 3.7 or later.", "Quux", "3.7", "minimum"),
             ev(5, "Quux 3.14 compatibility with Frob 3.14.", "Quux", "3.14", "supported"),
             ev(6, "Quux supports Frob 3.12.", "Quux", "3.12", "supported")]
    plan = Plan(question=a.question, kind="comparison", entities=a.entities, attributes=a.attributes,
                metrics=a.metrics, sub_questions=[SubQuestion(id="Q-1", text=a.question, role="core",
                                                              entities=a.entities)])
    texts = [s.text for s in answer_section(plan, {"Q-1": items}, []).sentences]
    # the oldest it runs on is a minimum, the one its latest requirement raised it to (a minimum only ever rises);
    # the newest it supports the highest supported one
    assert texts[:2] == ["Oldest Frob version: Zorb 3.10 (minimum) [E-000000000002]; Quux 3.7 (minimum) "
                         "[E-000000000004].",
                         "Newest Frob version: Zorb 3.13 (supported) [E-000000000003]; Quux 3.14 (supported) "
                         "[E-000000000005]."], texts


def test_the_release_that_added_or_dropped_a_platform_version_is_answered_with_its_date() -> None:
    assert _bounds("Drop EOL frob 3.8.  PR #1267.") == [("frob_version", "3.8", "dropped")]
    assert _bounds("Dropped support for Frob 3.7 and 3.8.") == [("frob_version", "3.7", "dropped"),
                                                                ("frob_version", "3.8", "dropped")]
    assert _bounds("Remove handling of frob 2 strings.") == []  # no support dropped
    a = analyse("When were Zorb 7.0.0 and 7.3.0 released? Which release of each project added Frob 3.14 support, and "
                "which quux release dropped Frob 3.8?")
    assert a.attributes[1:] == ["Frob 3.14 support added", "Frob 3.8 support dropped"]
    assert a.metrics == ["released", "frob_version"]
    src = SourceView(id="S-log", url="local:///docs/zorb-changes.txt", title="Changelog")

    def ev(n: int, quote: str, obs: list[ObservationView]) -> EvidenceView:
        return EvidenceView(id=f"E-{n:012d}", quote=quote, type="statistic", score=0.5, source=src,
                            entities=["Zorb"], observations=obs)

    def ov(n: int, metric: str, value: float, unit: str, raw: str, cond: str) -> ObservationView:
        return ObservationView(id=f"O-{n}", entity="Zorb", metric=metric, value=value, unit=unit, raw_value=raw,
                               raw_unit=unit, condition=cond)

    items = [ev(1, "2.14.0 (2025-06-20)", [ov(1, "release_date", 20250620.0, "date", "2025-06-20", "2.14.0")]),
             ev(2, "Add support for frob 3.14.", [ov(2, "frob_version", float(version_key("3.14") or 0), "version",
                                                     "3.14", "supported, 2.14.0 (2025-06-20)")]),
             ev(3, "Drop EOL frob 3.8.", [ov(3, "frob_version", float(version_key("3.8") or 0), "version", "3.8",
                                             "dropped, 2.13.0 (2025-03-29)")]),
             ev(4, "2.13.0 (2025-03-29)", [ov(4, "release_date", 20250329.0, "date", "2025-03-29", "2.13.0")]),
             ev(5, "Zorb supports Frob 3.12.", [ov(5, "frob_version", float(version_key("3.12") or 0), "version",
                                                   "3.12", "supported")])]
    plan = Plan(question=a.question, kind="overview", entities=["Zorb"], attributes=a.attributes[1:],
                metrics=["frob_version"], sub_questions=[SubQuestion(id="Q-1", text=a.question, role="core",
                                                                     entities=["Zorb"])])
    texts = [s.text for s in answer_section(plan, {"Q-1": items}, []).sentences]
    # the release each happened in, with its date, cited with the heading that writes it; a supported version with
    # no release named answers neither
    assert texts[:2] == ["Frob 3.14 support added: Zorb 2.14.0 (2025-06-20) [E-000000000002][E-000000000001].",
                         "Frob 3.8 support dropped: Zorb 2.13.0 (2025-03-29) [E-000000000003][E-000000000004]."], texts


def test_two_supported_platform_versions_are_no_disagreement_but_two_minimums_are() -> None:
    from openresearch.conflicts import ObservedValue, conflict_groups

    def ob(n: int, raw: str, cond: str) -> ObservedValue:
        return ObservedValue(entity_id="zorb", entity="Zorb", metric="frob_version", unit="version", condition=cond,
                             condition_key=cond, value=float(version_key(raw) or 0), raw_value=raw,
                             raw_unit="version", evidence_id=f"E-{n}", quote=f"Zorb and Frob {raw}.",
                             source_id=f"S-{n}", url=f"local:///docs/{n}.md")

    assert conflict_groups([ob(1, "3.13", "supported"), ob(2, "3.14", "supported")], 0.05) == []
    assert conflict_groups([ob(1, "3.8", "dropped"), ob(2, "3.7", "dropped")], 0.05) == []
    assert len(conflict_groups([ob(1, "3.9", "minimum"), ob(2, "3.10", "minimum")], 0.05)) == 1
