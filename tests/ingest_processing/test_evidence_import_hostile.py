"""Evidence import on hostile files, into a real graph (both backends): one clear error per bad line, the
rest imported, --strict writes nothing, and an export of what was imported always completes."""

from __future__ import annotations

import codecs
import io
import json
from pathlib import Path

import pytest

from openresearch.graph.store import GraphStore
from openresearch.ingest.evidence_io import decoded_lines, export_to, import_file, parse_line

pytestmark = pytest.mark.integration


def _row(i: int, **extra: object) -> dict[str, object]:
    quote = f"Broker {i} moved {i} MB/s."
    row: dict[str, object] = {"source": {"url": f"https://hostile-{i % 7}.example/doc"}, "quote": quote,
                              "entities": ["Kafka"],
                              "observations": [{"entity": "Kafka", "metric": "throughput", "value": i, "unit": "MB/s"}]}
    row.update(extra)
    return row


def _write(path: Path, rows: list[object], encoding: str = "utf-8", bom: bytes = b"") -> Path:
    text = "".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in rows)
    path.write_bytes(bom + text.encode(encoding))
    return path


def _evidence(store: GraphStore) -> int:
    return store.stats()["nodes"].get("Evidence", 0)


def test_a_value_that_overflows_once_converted_is_one_line_error(store: GraphStore, tmp_path: Path) -> None:
    rows: list[object] = [_row(i) for i in range(999)]
    bad = _row(1000)
    bad["observations"] = [{"entity": "Kafka", "metric": "storage", "value": 1e308, "unit": "TB"}]
    rows.insert(250, bad)  # line 251
    path = _write(tmp_path / "overflow.jsonl", rows)

    strict = import_file(store, path, strict=True)
    assert strict.imported == 0 and len(strict.errors) == 1 and strict.errors[0].startswith("line 251: ")
    assert _evidence(store) == 0  # --strict: nothing at all, not the 250 rows before the bad one

    report = import_file(store, path)
    assert report.imported == 999 and report.skipped == 1
    assert report.errors[0].startswith("line 251: observations.0.value") and "out of range" in report.errors[0]
    assert _evidence(store) == 999


def test_offsets_out_of_range_or_not_spanning_the_quote(store: GraphStore, tmp_path: Path) -> None:
    quote = "Kafka moved 605 MB/s."
    rows: list[object] = [
        _row(1, quote=quote, start=10, end=10 + len(quote)),          # good
        _row(2, quote=quote, start=2**63, end=2**63 + len(quote)),    # line 2: past int64
        _row(3, quote=quote, start=2**64, end=2**64 + len(quote)),    # line 3
        _row(4, quote=quote, start=5, end=5 + len(quote) + 1000),     # line 4: beyond the quote
        _row(5, quote=quote, start=5),                                # line 5: only one offset
        _row(6, quote=quote, start=True, end=22),                     # line 6: a boolean offset
    ]
    report = import_file(store, _write(tmp_path / "offsets.jsonl", rows))
    assert report.imported == 1
    assert [e.split(":")[0] for e in report.errors] == ["line 2", "line 3", "line 4", "line 5", "line 6"]
    assert "out of range" in report.errors[0] and "span" in report.errors[2]
    out = io.StringIO()
    assert export_to(store, out) == 1  # the export completes: a backup can always be taken
    exported = json.loads(out.getvalue())
    assert (exported["start"], exported["end"]) == (10, 10 + len(quote))


def test_encodings_and_hostile_lines_each_get_one_error(store: GraphStore, tmp_path: Path) -> None:
    good = [_row(i) for i in range(5)]
    for name, encoding, bom in (("utf8bom", "utf-8", codecs.BOM_UTF8), ("utf16le", "utf-16-le", codecs.BOM_UTF16_LE),
                                ("utf16be", "utf-16-be", codecs.BOM_UTF16_BE), ("utf16nobom", "utf-16-le", b"")):
        store.backend.clear()
        store.init_schema()
        report = import_file(store, _write(tmp_path / f"{name}.jsonl", list(good), encoding, bom))
        assert (report.imported, report.errors) == (5, []), name

    store.backend.clear()
    store.init_schema()
    raw = [json.dumps(_row(0)).encode(),
           json.dumps(_row(1)).encode().replace(b"Broker", b"Brok\xff\xfeer"),        # 2: invalid UTF-8
           b'{"source": {"url": "https://x.example"}, "quote": "q", "start": ' + b"9" * 5000 + b"}",  # 3: huge int
           b"[" * 100_000 + b"]" * 100_000,                                              # 4: deep nesting
           json.dumps(_row(4, observations=[{"entity": "K", "metric": "m", "value": True}])).encode(),  # 5
           json.dumps(_row(5, observations=[{"entity": "K", "metric": "m", "value": 10**30}])).encode(),  # 6
           b'{"source": {"url": "https://x.example"}, "quote": "q", "observations": '
           b'[{"entity": "K", "metric": "m", "value": NaN}]}',                            # 7: NaN
           json.dumps(_row(7)).encode()]
    path = tmp_path / "hostile.jsonl"
    path.write_bytes(b"\n".join(raw) + b"\n")
    report = import_file(store, path)
    assert report.imported == 2
    by_line = {e.split(":")[0]: e for e in report.errors}
    assert sorted(by_line) == ["line 2", "line 3", "line 4", "line 5", "line 6", "line 7"]
    assert "UTF-8" in by_line["line 2"] and "nested too deeply" in by_line["line 4"]
    assert "boolean" in by_line["line 5"] and "64 bits" in by_line["line 6"] and "finite" in by_line["line 7"]
    assert _evidence(store) == 2


def test_decoded_lines_keep_line_numbers() -> None:
    data = codecs.BOM_UTF8 + b'{"a": 1}\n\xff\n{"b": 2}\n'
    lines = list(decoded_lines(io.BytesIO(data)))
    assert lines[0] == '{"a": 1}\n' and lines[2] == '{"b": 2}\n'
    with pytest.raises(Exception, match="line 1: invalid JSON"):
        parse_line("{", 1)


def test_export_completes_over_offsets_an_older_import_stored(store: GraphStore, tmp_path: Path) -> None:
    rows: list[object] = [_row(i, start=0, end=len(f"Broker {i} moved {i} MB/s.")) for i in range(3)]
    assert import_file(store, _write(tmp_path / "ok.jsonl", rows)).imported == 3
    # what a clamped 2^63 offset left in the graph before imports checked it
    store.backend.write("MATCH (e:Evidence) WITH e ORDER BY e.id LIMIT 1 SET e.start = $big, e.end = $big",
                        {"big": 2**63 - 1})
    out = io.StringIO()
    assert export_to(store, out) == 3  # the backup completes; the damaged row without its offsets
    assert sum("start" not in json.loads(line) for line in out.getvalue().splitlines()) == 1


def test_export_completes_over_an_empty_metric_an_older_version_stored(store: GraphStore, tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    rows: list[object] = [_row(i, start=0, end=len(f"Broker {i} moved {i} MB/s.")) for i in range(2)]
    assert import_file(store, _write(tmp_path / "ok.jsonl", rows)).imported == 2
    # what a "!" metric became before metric names were checked
    store.backend.write("MATCH (o:Observation) WITH o ORDER BY o.id LIMIT 1 SET o.metric = ''", {})
    out = io.StringIO()
    with caplog.at_level("WARNING"):
        assert export_to(store, out) == 2  # every evidence item; the damaged observation left out, and said so
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert sorted(len(line.get("observations", [])) for line in lines) == [0, 1]
    assert "left out" in caplog.text
