"""A configuration reference whose entries explain a setting at length: a default given as a decimal ("Default:
600.0"), a unit tag closing the description above it ("... closed. [seconds]"), a formula and a flattened list
inside the entry, and a NEWS file whose release headings put the date first and a quoted title last. The names
are made up."""

from __future__ import annotations

from pathlib import Path

from openresearch.agents.extract.definitions import defined_term, entry_unit
from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.releases import release_heading
from openresearch.agents.extract.values import find_values
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import normalise_plain
from openresearch.ingest.embed import HashEmbedder
from openresearch.ingest.local import parse_local_file

CONFIG = """# zorbd.ini

Zorbd is a connection pooler. Zorbd reads this file at start. Zorbd reloads it on SIGHUP.

## Generic settings

### max_clients

Maximum number of client connections allowed.

Note that the number of file descriptors used is more than `max_clients`. If each user connects under its own
name, the theoretical maximum used is:

    max_clients + (max pool_size * total databases * total users)

The impact on memory is small though:
- There are 1000 active clients
- The clients prepare 200 unique queries
- The average size of a query is 5kB

Search for `ulimit` in your favorite shell man page. A long explanation follows, and follows, and follows,
and follows, so that the entry's heading is far above its default. A long explanation follows, and follows, and
follows, and follows, so that the entry's heading is far above its default. A long explanation follows, and
follows, and follows, and follows, so that the entry's heading is far above its default. A long explanation
follows, and follows, and follows, and follows, so that the entry's heading is far above its default. A long
explanation follows, and follows, and follows, and follows, so that the entry's heading is far above its default.
A long explanation follows, and follows, and follows, and follows, so that the entry's heading is far above its
default. A long explanation follows, and follows, and follows, and follows, so that the entry's heading is far
above its default. A long explanation follows, and follows, and follows, and follows, so that the entry's heading
is far above its default.

Default: 100

### idle_close

If a server connection has been idle more than this many seconds it will be closed.
If 0 then this timeout is disabled.  [seconds]

Default: 600.0

### dns_ttl

How long lookups can be cached. The actual TTL is ignored. [seconds]

Default: 15.0

## Logging

Default: 3
"""


def test_a_long_entry_keeps_its_heading_past_a_formula_and_a_flattened_list() -> None:
    text = normalise_plain(CONFIG)
    assert defined_term(text, text.index("Default: 100")) == "max_clients"
    assert defined_term(text, text.index("Default: 600.0")) == "idle_close"
    assert defined_term(text, text.index("Default: 15.0")) == "dns_ttl"  # two sentences are no heading
    assert defined_term(text, text.index("Default: 3")) is None  # under a heading of words: no entry's
    # the unit tag closing the description above the default, "[seconds]"
    assert entry_unit(text, text.index("Default: 600.0")) == "seconds"
    assert entry_unit(text, text.index("Default: 15.0")) == "seconds"
    assert entry_unit(text, text.index("Default: 100")) is None


def test_a_labelled_decimal_is_a_figure_and_a_version_stays_a_version() -> None:
    def read(text: str) -> list[str]:
        return [v.raw for v in find_values(text)]

    assert read("Default: 600.0") == ["600.0"]
    assert read("timeout = 2.5") == ["2.5"]
    assert read("The default is 1.5") == ["1.5"]
    assert read("Version: 3.11") == [] and read("Zorbd 3.11 node") == []
    # a key length is no year
    assert [v.kind for v in find_values("auto (2048-bit keys), legacy (1024-bit keys)")] == []


def test_the_entries_defaults_are_their_keys_with_the_unit(tmp_path: Path) -> None:
    (tmp_path / "zorbd.md").write_text(CONFIG, encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(
        tmp_path / "zorbd.md"), "For Zorbd, what are the defaults of max_clients, idle_close and dns_ttl?")
    got = {(o.entity, o.metric, str(o.value), o.unit) for u in doc.units for o in u.observations}
    assert {("Zorbd", "max_clients", "100", None), ("Zorbd", "idle_close", "600.0", "seconds"),
            ("Zorbd", "dns_ttl", "15.0", "seconds")} <= got


def test_a_release_heading_with_the_date_first_and_a_quoted_title() -> None:
    r = release_heading('2026-05-08  -  Zorbd 1.25.2  -  "Human touch with a fresh twist"')
    assert r is not None and (r.name, r.version, r.date) == ("Zorbd", "1.25.2", "2026-05-08")
    r = release_heading("2025-12-03 - Zorbd 1.25.1 - \u201cFixing bugs before the holidays\u201d")
    assert r is not None and (r.version, r.date) == ("1.25.1", "2025-12-03")
    assert release_heading('Zorbd 1.25.2 - "a title" and more words') is None


SETTINGS_TABLE = """# Rules

Zorbd routes each client by its rules. Zorbd reads them at start. Zorbd checks them on reload.

## Parameters

| Parameter | Type | Default | Reload | Notes |
|-----------|------|---------|--------|-------|
| `pool_size` | integer | 0 | runtime (new connections) | Maximum connections in pool; 0 = unlimited. |
| `pool_ttl` | integer (sec) | 60 | runtime (new connections) | Time-to-live for idle server connections. |
| `connect_timeout_ms` | integer | 30000 | runtime | Timeout for a new backend connection. |
| `auth_query` | string | — (not set) | runtime | An SQL query. |
"""


def test_a_settings_table_gives_each_key_its_default_of_the_documents_product(tmp_path: Path) -> None:
    (tmp_path / "rules.md").write_text(SETTINGS_TABLE, encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(
        tmp_path / "rules.md"), "What are Zorbd's default pool size, pool TTL and connect timeout?")
    got = {(o.entity, o.metric, str(o.value), o.unit, o.condition) for u in doc.units for o in u.observations}
    # the row's key is the metric (underscores kept), the product the entity; the unit from the type cell or the key
    assert {("Zorbd", "pool_size", "0", None, "default"), ("Zorbd", "pool_ttl", "60", "sec", "default"),
            ("Zorbd", "connect_timeout_ms", "30000", "ms", "default")} <= got
    assert not any(e in ("pool_size", "poolsize", "pool_ttl") for e, *_ in got)  # no key is an entity
    assert not any("runtime" in (c or "") for *_, c in got)  # a reload column is no condition


def test_a_listed_default_with_a_comment_takes_the_unit_the_comment_gives(tmp_path: Path) -> None:
    (tmp_path / "config.md").write_text(
        "# Zorbcat\n\nZorbcat is a pooler. Zorbcat is fast. Zorbcat is small.\n\n"
        "### connect_timeout\n```\npath: general.connect_timeout\ndefault: 1000 # milliseconds\n```\n\n"
        "How long the client waits.\n\n### server_lifetime\n```\npath: general.server_lifetime\n"
        "default: 86400000 # 24 hours\n```\n\nMax lifetime.\n\n### query_timeout\n\nQueries running longer are"
        " canceled.\n\nDefault: 0.0 (disabled)\n", encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(
        tmp_path / "config.md"))
    got = {(o.metric, str(o.value), o.unit) for u in doc.units for o in u.observations}
    assert ("connect_timeout", "1000", "milliseconds") in got
    assert ("server_lifetime", "86400000", "ms") in got  # 24 hours restated: the figure is in milliseconds
    assert ("query_timeout", "0.0", None) in got  # a note after a default ("(disabled)") keeps it a default


NEWS = """# Zorbd changelog

**2024-01-31  -  Zorbd 1.22.0  -  "The one with limits"**

- Features
  * Add zorb_idle_timeout setting. ([#1189])
  * Add user level query_timeout and reserve_pool_size. ([#1180])

- Changes
  * Enable statement caching by default, zorb_cache_size is now set to 200 by default.

**2023-10-16  -  Zorbd 1.21.0  -  "The one with caching"**

- Features
  * Add statement caching. To benefit you need to change the new zorb_cache_size setting to a non-zero value.

[#1189]: https://example.org/zorbd/pull/1189
"""


def test_a_change_log_says_which_release_brought_a_setting_and_changed_its_default(tmp_path: Path) -> None:
    (tmp_path / "NEWS.md").write_text(NEWS, encoding="utf-8")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(
        tmp_path / "NEWS.md"), "In which Zorbd release was zorb_cache_size added, and when did its default change?")
    got = {(o.entity, o.metric, str(o.value), o.unit, o.condition) for u in doc.units for o in u.observations}
    assert ("Zorbd", "zorb_cache_size", "1.21.0", "version", "added in") in got
    assert ("Zorbd", "zorb_cache_size", "1.22.0", "version", "default changed in") in got
    assert ("Zorbd", "release_date", "2024-01-31", "date", "1.22.0") in got
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), parse_local_file(
        tmp_path / "NEWS.md"))
    got |= {(o.entity, o.metric, str(o.value), o.unit, o.condition) for u in doc.units for o in u.observations}
    assert ("Zorbd", "zorb_idle_timeout", "1.22.0", "version", "added in") in got
    # a per-user variant of a setting is no new setting; a pull request's number is no date or figure
    assert not any(m == "query_timeout" for _, m, *_ in got)
    assert not any("1189" in v or "1180" in v for _, _, v, *_ in got)
