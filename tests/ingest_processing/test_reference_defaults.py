"""A configuration reference's entries as their shape writes them: a heading with its type after the keyword
("### `fooTimeout` \\[number]"), the default on a line of its own and the unit in the description after it; and a
measure no list names, stated for its noun phrase ("the call timeout, defaulting to 2000 milliseconds"). The names
are made up."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.definitions import entry_unit
from openresearch.agents.extract.observations import observations
from openresearch.agents.extract.values import find_values
from openresearch.ingest.documents import normalise_plain

REFERENCE = """# Configuring Zorbtool

### `retryDelay` \\[number]

Default: `250`

How long to wait before a retry, in milliseconds.

### `slowCallThreshold` \\[number]

Default: `5`

The number of seconds after which a call is considered slow and reported as such.

### `maxWorkers` \\[number | string]

Default: `4`

The number of workers that run calls. A pattern such as `\\*.log` and `"\\\\.[jt]sx?$"` stay as written.
"""


def test_a_headings_type_and_escapes_are_markup_and_the_unit_after_the_default_is_its_entrys() -> None:
    text = normalise_plain(REFERENCE)
    assert "retryDelay [number]" in text and "\\[" not in text.split("A pattern")[0]
    assert '"\\\\.[jt]sx?$"' in text  # inside a code span the backslashes are the text
    units = {term: entry_unit(text, text.index(f"Default: {value}"))
             for term, value in (("retryDelay", "250"), ("slowCallThreshold", "5"), ("maxWorkers", "4"))}
    # "in milliseconds" and "the number of seconds" measure; "the number of workers" counts things, no unit
    assert units == {"retryDelay": "milliseconds", "slowCallThreshold": "seconds", "maxWorkers": None}


def test_a_measure_no_list_names_is_its_noun_phrases() -> None:
    assert [(v.raw, v.unit, v.kind) for v in find_values("defaulting to 2000 milliseconds")] == \
        [("2000", "milliseconds", "time")]  # no year 2000

    def read(sentence: str) -> list[tuple[str, str, str | None, str | None]]:
        return [(o.metric, str(o.value), o.unit, o.condition) for o in observations(sentence, [], set(), "_")]

    assert read("Specifies the call timeout, defaulting to 2000 milliseconds.") == \
        [("call_timeout", "2000", "milliseconds", "default")]
    assert read("The default idle timeout is 5 seconds.") == [("idle_timeout", "5", "seconds", "default")]
    assert read("The block size is 8 KB.") == [("block_size", "8", "KB", None)]
    assert read("The build took 5 seconds.") == []  # no noun phrase the figure is stated for


def test_a_default_given_per_environment_is_the_settings_owners_under_each() -> None:
    from openresearch.agents.extract.extract_rules import Mention
    from openresearch.numbers import parse_quantity

    assert parse_quantity("15_000").value == 15000.0  # digits grouped as code writes them
    text = "Default: 5_000 in Frobnode, 15_000 if proxy.enabled is true"
    at = text.index("Frobnode")
    got = observations(text, [Mention(at, at + len("Frobnode"), "Frobnode", "Frobnode")], set(), "Quux")
    # the platform after "in" is where the default holds; the second figure of the pair is the same owner's
    assert [(o.entity, o.value, o.condition) for o in got] == [
        ("Quux", "5_000", "default, in Frobnode"), ("Quux", "15_000", "default, if proxy.enabled is true")]


def test_a_page_that_opens_with_one_asked_name_and_is_addressed_by_another_is_the_addressed_ones(
        tmp_path: Path) -> None:
    from openresearch.agents.extract.extractor import DeterministicExtractor
    from openresearch.identity import AliasResolver
    from openresearch.ingest.embed import HashEmbedder
    from openresearch.ingest.local import parse_local_file
    from openresearch.models import Plan, SubQuestion

    page = tmp_path / "quux-docs-config-requesttimeout.md"
    page.write_text("# requestTimeout\n\n- **Type:** `number`\n- **Default:** `5_000` in Frobnode, `15_000` if "
                    "`proxy.enabled` is `true`\n\nDefault timeout of a request in milliseconds.\n")
    q = "For Quux, what are the default values of requestTimeout and retryDelay, and what Frobnode version is needed?"
    plan = Plan(question=q, kind="comparison", entities=["Quux", "Frobnode"], attributes=["requestTimeout"],
                metrics=["request_timeout"], sub_questions=[SubQuestion(id="Q-1", text=q, role="core",
                                                                        entities=["Quux", "Frobnode"])])
    x = DeterministicExtractor(HashEmbedder(), AliasResolver({}))
    x.prepare_plan(plan)
    items = x.extract(parse_local_file(page), plan.sub_questions[0], plan).items
    got = {(o.entity, o.metric, o.value, o.unit) for i in items for o in i.observations}
    assert got == {("Quux", "request_timeout", "5_000", "milliseconds"),
                   ("Quux", "request_timeout", "15_000", "milliseconds")}
    # asked of Quux alone, the same page is still Quux's: its own address names it
    alone = plan.model_copy(update={"entities": ["Quux"], "sub_questions": [
        plan.sub_questions[0].model_copy(update={"entities": ["Quux"]})]})
    x = DeterministicExtractor(HashEmbedder(), AliasResolver({}))
    x.prepare_plan(alone)
    items = x.extract(parse_local_file(page), alone.sub_questions[0], alone).items
    assert {o.entity for i in items for o in i.observations} == {"Quux"}


def test_an_entry_heading_badged_with_a_version_says_since_when_its_setting_exists(tmp_path: Path) -> None:
    from openresearch.agents.extract.definitions import defined_term
    from openresearch.agents.extract.releases import entry_since

    page = ('### retry <Badge type="info">0.32.3+</Badge> {#retry}\n\n- **Type:** `number`\n- **Default:** `0`\n\n'
            "Retry the call this many times if it fails.\n\n### pool<LocalOnly /> <Badge>1.0.0+</Badge> {#pool}\n\n"
            "Pool used to run calls in.\n")
    text = normalise_plain(page)
    assert text.startswith("retry 0.32.3+\n\n") and "\n\npool 1.0.0+\n\n" in text  # badge and element tags are markup
    assert defined_term(text, text.index("Default: 0")) == "retry"  # the default is the badged entry's
    (o,) = entry_since("retry 0.32.3+", "Zorbly") or []
    assert (o.entity, o.metric, o.value, o.unit, o.condition) == ("Zorbly", "retry", "0.32.3", "version",
                                                                  "available since")
    assert entry_since("Retry the call 3 times.", "Zorbly") is None
    assert entry_since("Frobnode 3.8+", "Zorbly") is None  # a section on a platform, no setting's entry
