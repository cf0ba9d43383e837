"""Tables read by their shape, whatever the product: a README that compares itself with its peers test by test
(products across the header, tests down the rows, emphasis and glued lower-case units in the cells), and a
reStructuredText csv-table of one row under the setting a section defines. The names are made up."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extract_rules import _PRODUCT
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import normalise_plain
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file

README = """# quollship

A lightweight, ultra-fast tool for building observability pipelines. quollship collects, transforms and routes
all your logs. Many teams run quollship at the edge.

## Performance

| Test | quollship | FrobBit | zorbd | Wexlog |
|---|---|---|---|---|
| [TCP to Blackhole](https://example.org/tcp) | _**86mib/s**_ | 64.4mib/s | 27.7mib/s | 40.6mib/s |
| [Regex Parsing](https://example.org/regex) | 13.2mib/s | _**20.5mib/s**_ | 2.6mib/s | 4.6mib/s |
| [TCP to HTTP](https://example.org/http) | _**26.7mib/s**_ | 19.6mib/s | <1mib/s | 2.7mib/s |
"""

PARAMETERS = """Queue Parameters
================

Queues are configured per action and per ruleset in quollsyslog. The parameters below control their size.

queue.size
----------

.. csv-table::
   :header: "type", "default", "max", "mandatory", "|FmtObsoleteName| directive"
   :widths: auto
   :class: parameter-table

   "integer", "1000", "50000", "no", "``$ActionQueueSize``"

This is the maximum size of the queue in number of messages.

queue.timeoutenqueue
--------------------

.. csv-table::
   :header: "type", "default", "mandatory", "|FmtObsoleteName| directive"
   :widths: auto

   "number", "2000", "no", "``$ActionQueueTimeoutEnqueue``"

This timeout value is used when the queue is full.
"""


def _obs(path: Path, question: str | None = None) -> list[tuple[str, str, str, str | None, str, str]]:
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(path), question)
    return [(o.entity, o.metric, str(o.value), o.unit, o.condition or "", o.role)
            for u in doc.units for o in u.observations]


def test_products_across_the_header_tests_down_the_rows(tmp_path: Path) -> None:
    text = normalise_plain(README)
    assert "TCP to Blackhole | 86mib/s | 64.4mib/s" in text  # the link is its text, the emphasis no text
    (tmp_path / "README.md").write_text(README)
    for question in (None, "How do quollship, FrobBit, zorbd and Wexlog compare on regex parsing throughput?"):
        got = {(e, m, v, r) for e, m, v, u, c, r in _obs(tmp_path / "README.md", question)}
        assert ("quollship", "tcp_to_blackhole_throughput", "86", "own") in got, question
        assert ("FrobBit", "regex_parsing_throughput", "20.5", "own") in got
        assert ("zorbd", "tcp_to_http_throughput", "1", "bound") in got  # "<1mib/s" is a bound
        assert not any(e in ("TCP", "Regex Parsing", "TCP to HTTP") for e, *_ in got)  # a test is no product


def test_a_csv_table_under_a_setting_gives_that_settings_limits(tmp_path: Path) -> None:
    text = normalise_plain(PARAMETERS)
    assert "type | default | max | mandatory | FmtObsoleteName directive" in text
    assert "integer | 1000 | 50000 | no | $ActionQueueSize" in text
    (tmp_path / "queue_parameters.rst").write_text(PARAMETERS)
    got = [(e, m, v, u, c) for e, m, v, u, c, r in _obs(tmp_path / "queue_parameters.rst",
                                                         "What are quollsyslog's default queue settings?")]
    assert ("quollsyslog", "queue_size", "1000", None, "default") in got
    assert ("quollsyslog", "queue_size", "50000", None, "maximum") in got
    assert ("quollsyslog", "queue_timeoutenqueue", "2000", None, "default") in got  # no year
    assert not any(e in ("integer", "number") for e, *_ in got)  # the type column names no entity


def test_an_identifier_or_a_variable_is_no_product_name() -> None:
    def names(text: str) -> list[str]:
        return [m.group(0) for m in _PRODUCT.finditer(text)]

    assert names("FrobBit and QuollDB beat ZXbase") == ["FrobBit", "QuollDB", "ZXbase"]
    assert names("Set ActionQueueHighWaterMark and $QueueSize") == []


def test_a_pair_of_figures_each_with_its_own_qualifier() -> None:
    from openresearch.agents.extract.observations import observations

    def read(text: str) -> list[tuple[str, str, str | None]]:
        return [(o.metric, str(o.value), o.condition) for o in observations(text, [], set(), "quollsyslog")]

    assert read("The default batch size is 512 for HTTP sinks and 1000 for file sinks.") == [
        ("batch_size", "512", "default, for HTTP sinks"), ("batch_size", "1000", "default, for file sinks")]
    assert read("The default is 1000 for action queues and 50000 for ruleset queues.") == [
        ("value", "1000", "default, for action queues"), ("value", "50000", "default, for ruleset queues")]
