"""A version is a value of its own kind: "3.12.14" under a "Latest" column is the latest release, compared
exactly (3.5.1 and 3.5.15 differ), ordered (1.31 after 1.9), shown as written and never drawn on an axis."""

from __future__ import annotations

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.conflicts import EXACT_UNITS, calendar_surface
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import parse_bytes
from openresearch.ingest.embed import HashEmbedder
from openresearch.numbers import parse_quantity, quantity_label, version_key

TABLE = """# Quillo releases

Quillo ships a minor line every four months.

| Release | Released | End of life | Latest | Final Patch Release |
| --- | --- | --- | --- | --- |
| 4.2 | 2024-03-01 | 2025-03-01 | 4.2.17 | 4.2.17 |
| 4.1 | 2023-11-01 | 2024-11-01 | v4.1.9 | 4.1.9 |
"""


def test_versions_are_ordered_exact_numbers() -> None:
    assert version_key("3.5.1") != version_key("3.5.15")
    assert version_key("1.9") < version_key("1.31") < version_key("1.31.14") < version_key("2.0")  # type: ignore
    assert version_key("v26.7.0") == version_key("26.7")
    q = parse_quantity("3.12.14", "version")
    assert q.unit == "version" and quantity_label(q.value, q.unit) == "3.12.14"
    assert "version" in EXACT_UNITS
    assert calendar_surface("OpenThing 3.5.15 was tested, then v3.5.1", float(version_key("3.5.1") or 0),
                            "version") == "v3.5.1"


def test_a_version_cell_is_the_value_of_its_column() -> None:
    src = parse_bytes(TABLE.encode(), kind="text", url="local://t/quillo.md", default_kind="local")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), src,
                        "What is Quillo's latest release?")
    got = {(o.entity, o.metric, str(o.value), o.unit) for u in doc.units for o in u.observations}
    assert ("Quillo 4.2", "latest", "4.2.17", "version") in got
    assert ("Quillo 4.2", "final_patch_release", "4.2.17", "version") in got
    assert ("Quillo 4.1", "latest", "v4.1.9", "version") in got
    # the release label stays the row's name, not a value; dates stay dates
    assert not any(v in ("4.2", "4.1") for _, _, v, _ in got)
    assert any(u == "date" for *_, u in got)
