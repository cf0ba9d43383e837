"""A configuration reference's entries as their shape writes them: a heading with its type after the keyword
("### `fooTimeout` \\[number]"), the default on a line of its own and the unit in the description after it; and a
measure no list names, stated for its noun phrase ("the test timeout, defaulting to 2000 milliseconds"). The names
are made up."""

from __future__ import annotations

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
