"""The table reader: rows read with their header, as ingest stores them, on tables written the ways real
documents write them. Every name, metric and data set here is one no lexicon of the package lists."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from openresearch.agents.extract.document import read_document
from openresearch.agents.extract.extractor import DeterministicExtractor
from openresearch.agents.extract.observations import role_of
from openresearch.agents.extract.tables import cell_values
from openresearch.identity import AliasResolver
from openresearch.ingest.documents import parse_bytes
from openresearch.ingest.embed import HashEmbedder
from openresearch.models import ObservationIn


def read(text: str, name: str = "doc.md") -> list[tuple[str, ObservationIn]]:
    src = parse_bytes(text.encode(), kind="text", url=f"local://t/{name}", default_kind="local")
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), src)
    return [(u.quote, o) for u in doc.units for o in u.observations]


def facts(text: str, name: str = "doc.md") -> set[tuple[str, str, str, str | None]]:
    return {(o.entity, o.metric, str(o.value), o.unit) for _, o in read(text, name)}


PIPE = """# quux

On a Zen 4 box, the decoding speeds (in GB/s) of various codecs on the corpus.bin file are as follows.

|codec|decode (GB/s)|encode (GB/s)|
|---|---:|---:|
|frobz(fast)|1.80|1.51|
|frobz|1.72|1.42|
|blarg|1.16||
|wibble UTF8-check|0.26|0.39|
|wibble in-place|0.77||
"""


def test_pipe_table_rows_take_entity_from_label_and_metric_unit_from_header() -> None:
    got = read(PIPE)
    f = {(o.entity, o.metric, str(o.value), o.unit) for _, o in got}
    assert ("frobz", "decode", "1.80", "GB/s") in f and ("frobz", "encode", "1.51", "GB/s") in f
    assert ("blarg", "decode", "1.16", "GB/s") in f and not any(e == "blarg" and m == "encode" for e, m, _, _ in f)
    # a first word several labels share is the entity, the rest a qualifier of the row
    assert ("wibble", "decode", "0.26", "GB/s") in f and ("wibble", "encode", "0.39", "GB/s") in f
    fast = next(o for q, o in got if o.value == "1.80")
    assert fast.condition is not None and "fast" in fast.condition and "corpus.bin" in fast.condition
    assert next(q for q, o in got if o.value == "1.80") == "frobz(fast) | 1.80 | 1.51"  # the row is the unit
    assert all(o.role == "own" for _, o in got)


def test_table_without_outer_pipes_and_a_version_column() -> None:
    text = """Results (smaller is better)

lib | version | size (MiB) | vs. zork
----|---------|------------|---------
zork | 0.12.0 | 0.34 | 1.00x
snarf | 3.8.5 | 0.56 | 1.64x
"""
    got = read(text)
    f = {(o.entity, o.metric, str(o.value), o.unit) for _, o in got}
    assert ("snarf", "size", "0.56", "MiB") in f and ("snarf", "size_ratio", "1.64", "x") in f
    ratio = next(o for _, o in got if o.value == "1.64")
    assert ratio.condition is not None and "vs zork" in ratio.condition and "3.8.5" in ratio.condition
    assert not any(str(o.value).startswith(("3.8", "0.12")) for _, o in got)  # versions are conditions
    # a bare "vs." names no baseline: the ratio is still one, with no "vs ." in its condition
    bare = read(text.replace("vs. zork", "vs."))
    ratio = next(o for _, o in bare if o.value == "1.64")
    assert ratio.metric == "size_ratio" and "vs" not in (ratio.condition or "")


def test_grid_and_rest_simple_tables() -> None:
    grid = """Here we compare the on-disk size of a few libraries.

+--------+---------+------------+
|        | version | size (MiB) |
+========+=========+============+
| **zork** | 0.12.0 | 0.34     |
+--------+---------+------------+
| **snarf** | 3.8.5 | 0.56     |
+--------+---------+------------+
"""
    assert {("zork", "size", "0.34", "MiB"), ("snarf", "size", "0.56", "MiB")} <= facts(grid, "doc.rst")
    simple = """Dates shown in *italic* are scheduled.

====== ========== ======== ============= ============
Branch Schedule   Status   First release End-of-life
====== ========== ======== ============= ============
main   :pep:`693` features *2023-10-03*  *2028-10*
3.11   :pep:`664` bugfix   2022-10-24    *2027-10*
====== ========== ======== ============= ============
"""
    got = read(simple, "doc.rst")
    f = {(o.entity, o.metric, str(o.value)) for _, o in got}
    assert ("3.11", "released", "2022-10-24") in f and ("3.11", "end_of_life", "2027-10") in f, f
    assert ("main", "released", "2023-10-03") in f
    assert not any("693" in str(o.value) or "664" in str(o.value) for _, o in got)  # references are no figures


def test_transposed_table_with_group_rows_and_data_set_columns() -> None:
    text = """Benchmarks, in calls per second.

|                  | zork | snarf |
|------------------|-----:|------:|
| Array of doubles |      |       |
| encode           | 18,282 | 79,569 |
| decode           | 28,765 | 93,283 |
| Nested object    |      |       |
| encode           | 11,672 | 47,659 |
| decode           | 12,522 | 23,599 |
"""
    got = read(text)
    f = {(o.entity, o.metric, str(o.value)) for _, o in got}
    assert ("zork", "encode", "18,282") in f and ("snarf", "decode", "23,599") in f
    nested = next(o for _, o in got if o.value == "23,599")
    assert nested.condition is not None and "Nested object" in nested.condition
    sizes = """Sizes

| Format   | alpha.json | beta.json |
|----------|-----------:|----------:|
| Blorp    | 50.5 %     | 86.0 %    |
"""
    got = read(sizes)
    assert {(o.entity, o.metric, str(o.value), o.unit) for _, o in got} == {
        ("Blorp", "size", "50.5", "%"), ("Blorp", "size", "86.0", "%")}
    assert {o.condition for _, o in got} >= {"alpha.json, Sizes"} or any("alpha.json" in (o.condition or "")
                                                                         for _, o in got)


def test_numbers_inside_names_references_and_versions_are_not_figures() -> None:
    for cell in ("Core i5-8259U", "msvc 2019", "C++11", ":pep:`693`", "#123", "v2.0.3", "Windows 10 2004"):
        assert cell_values(cell) == [], cell
    assert [(v.raw, v.unit) for v in cell_values("~3 GB/s")] == [("3", "GB/s")]
    assert [(v.raw, v.unit) for v in cell_values("30 months")] == [("30", "months")]
    assert [v.raw for v in cell_values("**0.34**")] == ["0.34"]
    platform = """More reports

Platform | CPU | Compiler | OS
---|---|---|---
Brix NUC | Core i5-8259U | msvc 2019 | Windows 10 2004
"""
    assert read(platform) == []


def test_role_of_a_figure() -> None:
    def role(sentence: str, value: str) -> str:
        i = sentence.index(value)
        return role_of(sentence, i, i + len(value))

    assert role("Quux parses 605 MB/s.", "605") == "own"
    assert role("Quux parses up to 3 GB/s.", "3") == "bound"
    assert role("For big files we can exceed 3 GB/s.", "3") == "bound"
    assert role("The loss (约15%) is small.", "15") == "bound"
    assert role("It scales to 30 or more nodes.", "30") == "bound"
    assert role("According to its authors, Quux parses 605 MB/s.", "605") == "reported"
    assert role("I also saw the 2022 claim that Quux only reaches about 420 MB/s.", "420") == "disputed"
    assert role("一个社区成员说 Quux 在他们的系统中每日解析 5 千万个文件。", "5") == "reported"


def test_extract_command_prints_units_and_observations_as_json(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(PIPE, "utf-8")
    (tmp_path / "b.rst").write_text("Nothing measured here, only words about quux and its users.\n", "utf-8")
    proc = subprocess.run([sys.executable, "-m", "openresearch.cli", "extract", str(tmp_path), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    docs = json.loads(proc.stdout)
    assert sorted(Path(d["url"]).name for d in docs) == ["a.md", "b.rst"]
    (a,) = [d for d in docs if d["url"].endswith("a.md")]
    obs = [o for u in a["units"] for o in u["observations"]]
    assert {"entity": "frobz", "metric": "decode", "value": "1.72", "unit": "GB/s", "role": "own"}.items() <= \
        next(o for o in obs if o["value"] == "1.72").items()
    assert all(a["units"][i]["start"] < a["units"][i]["end"] for i in range(len(a["units"])))
    table = subprocess.run([sys.executable, "-m", "openresearch.cli", "extract", str(tmp_path / "a.md")],
                           capture_output=True, text=True, timeout=120)
    assert table.returncode == 0 and "frobz" in table.stdout and "decode" in table.stdout
    missing = subprocess.run([sys.executable, "-m", "openresearch.cli", "extract", str(tmp_path / "nope")],
                             capture_output=True, text=True, timeout=120)
    assert missing.returncode != 0 and "Traceback" not in missing.stderr


def test_a_signed_change_in_a_table_is_left_out_not_a_failed_run() -> None:
    text = """Build time against the previous release

| tool | build time (s) | change |
|------|---------------:|-------:|
| zork | 5.6            | -42.9% |
| snarf| 3.1            | +5%    |
"""
    got = facts(text)
    assert ("zork", "build_time", "5.6", "s") in got
    from openresearch.numbers import parse_quantity

    for _, o in read(text):
        parse_quantity(o.value, o.unit)  # every value the graph is handed is one it can read


def test_a_changelog_entry_holds_for_its_release_heading() -> None:
    text = """# Changelog

## 0.28.2

* Glorp now parses large files 15% faster than before.

## 0.27.0

* Startup is unchanged.
"""
    (got,) = [o for _, o in read(text)]
    assert (got.entity, str(got.value), got.condition) == ("Glorp", "15", "0.28.2")


BENCH_OUTPUT = """# frobz

Frobz is a codec. Install Frobz with one command; Frobz has no dependencies, and Frobz is small.

Benchmarks on a medium payload (13kB):

```text
goos: linux
cpu: Zen 4 @ 4.2GHz
BenchmarkEncoder_Generic_Frobz-16     32393 ns/op    402.40 MB/s    11965 B/op    4 allocs/op
BenchmarkEncoder_Generic_QuuxLib-16   42168 ns/op    309.12 MB/s    14345 B/op  115 allocs/op
BenchmarkDecoder_Generic_Frobz-16     66812 ns/op    195.10 MB/s
func main() { run(1, 2) }
```
"""


def test_benchmark_output_in_a_code_block_is_read_as_rows_and_the_code_is_not() -> None:
    src = parse_bytes(BENCH_OUTPUT.encode(), kind="text", url="local://t/frobz.md", default_kind="local")
    assert "BenchmarkEncoder_Generic_Frobz-16 32393 ns/op 402.40 MB/s 11965 B/op 4 allocs/op" in src.text
    assert "goos" not in src.text and "func main" not in src.text and "4.2GHz" not in src.text
    got = facts(BENCH_OUTPUT, "frobz.md")
    # the label's words name the entity (the document's own product here) and the rest is the condition
    assert ("frobz", "time_per_op", "32393", "ns/op") in {(e.lower(), m, v, u) for e, m, v, u in got}
    assert ("frobz", "throughput", "195.10", "MB/s") in {(e.lower(), m, v, u) for e, m, v, u in got}
    conds = {o.condition for _, o in read(BENCH_OUTPUT, "frobz.md") if o.value == "66812"}
    assert conds == {"Decoder Generic"}


def test_benchmark_lines_name_their_entity_among_the_label_words_joined_or_not() -> None:
    from openresearch.agents.extract.benchlines import line_observations
    from openresearch.ingest.benchlines import is_bench_line, label_words

    assert label_words("BenchmarkEncoder_Generic_QuuxLib-16") == ["Benchmark", "Encoder", "Generic", "Quux", "Lib"]
    assert not is_bench_line("The system handles 20 MB/s and keeps 30 ms latency")
    assert not is_bench_line("cpu: Zen 4 @ 4.2GHz")
    obs = line_observations("Benchmark_quuxlib 5623 ns/op 160 B/op",
                            lambda words: "quux-lib" if "quuxlib" in [w.lower() for w in words] else None)
    assert obs is not None and [(o.entity, o.metric, o.value) for o in obs] == [
        ("quux-lib", "time_per_op", "5623"), ("quux-lib", "memory_per_op", "160")]
    assert line_observations("BenchmarkOther 12 ns/op 3 B/op", lambda words: None) == []


ALTERNATIVES = """# frobz

Frobz is a codec. Install Frobz with one command; Frobz has no dependencies, and Frobz is small.

```text
BenchmarkEncoder_Generic_Frobz-16              32393 ns/op    402.40 MB/s
BenchmarkEncoder_Generic_Frobz_Fast-16         30000 ns/op    420.00 MB/s
BenchmarkEncoder_Generic_QuuxLib-16            42168 ns/op    309.12 MB/s
BenchmarkEncoder_Parallel_Generic_Frobz-16      6681 ns/op   1950.93 MB/s
BenchmarkEncoder_Parallel_Generic_StdLib-16    45902 ns/op    283.97 MB/s
```
"""


def test_a_label_segment_that_takes_a_known_names_place_is_a_name_no_list_knows() -> None:
    from openresearch.agents.extract.benchlines import alternative_of_known, label_slots

    assert label_slots("BenchmarkEncoder_Generic_Frobz-16") == ["Encoder", "Generic", "Frobz"]
    labels = ["BenchmarkEncoder_Generic_Frobz-16", "BenchmarkEncoder_Generic_QuuxLib-16",
              "BenchmarkEncoder_Parallel_Generic_Frobz-16", "BenchmarkEncoder_Parallel_Generic_StdLib-16"]
    known = {"frobz": "Frobz"}.get
    assert alternative_of_known(labels, labels[3], lambda s: known(s.lower())) == "StdLib"
    assert alternative_of_known(labels, labels[1], lambda s: known(s.lower())) == "QuuxLib"
    # "Encoder" and "Generic" never alternate with a known name
    assert alternative_of_known(labels[:1], labels[0], lambda s: known(s.lower())) is None
    got = {(o.entity, str(o.value)) for _, o in read(ALTERNATIVES, "frobz.md")}
    assert {("StdLib", "45902"), ("QuuxLib", "42168")} <= got, got
    assert not any(e in ("Encoder", "Generic", "Parallel") for e, _ in got)


def test_a_bare_number_in_parentheses_after_a_cells_figure_annotates_it() -> None:
    from openresearch.agents.extract.tables import cell_values

    def read(cell: str) -> list[tuple[str, str]]:
        return [(v.raw, v.unit) for v in cell_values(cell)]

    assert read("220.07 (2)") == [("220.07", "")]  # a rank or run count, not the figure
    assert read("45.2 (±3)") == [("45.2", "")]
    assert read("3.4 GB/s (2)") == [("3.4", "GB/s")]
    assert read("(2)") == [] and read("v1 (2)") == []


TOOL_OUTPUT = """# zorkkv

Zorkkv is an embedded key-value store. Zorkkv keeps its data in one file; zorkkv is written in Go. Use zorkkv
when you need a small store; zorkkv will write each page once.

Example:

  ```bash
  $zorkkv pages ~/data.db
  ID       TYPE       ITEMS
  ======== ========== ======
  0        meta       0
  3        leaf       10
  ```

### bench

Run a synthetic benchmark against a zorkkv database.

```
$ zorkkv bench ~/data.db -batch-size 400
# Write	68.523572ms	(68.523µs/op)	(14593 op/sec)
fillrandom   :       2.460 micros/op;   45.0 MB/s
```

It runs a benchmark with batch size of 400 while other parameters keep their defaults.
"""


def test_a_programs_output_with_an_underlined_header_ends_and_tool_lines_are_read(tmp_path: Path) -> None:
    from openresearch.ingest.local import parse_local_file

    (tmp_path / "README.md").write_text(TOOL_OUTPUT)
    src = parse_local_file(tmp_path / "README.md")  # as ingest reads it: titled by its heading
    # the underlined header of a program's output is no table that runs on over the rest of the document
    assert "Run a synthetic benchmark against a zorkkv database." in src.text and " | " not in src.text
    doc = read_document(DeterministicExtractor(HashEmbedder(), AliasResolver({})), src)
    got = {(o.entity.lower(), o.metric, str(o.value), o.unit, o.condition) for u in doc.units for o in u.observations}
    # "label : figures" and "# label<TAB>figures" lines; a test's lower-case name is a condition of the
    # document's own product, not an entity
    assert ("zorkkv", "throughput", "45.0", "MB/s", "fillrandom") in got
    assert any(v == "14593" and e == "zorkkv" for e, _, v, _, _ in got)
    assert not is_bench_line_of("options.buffer_size changes from 4MB to 64MB.")


def is_bench_line_of(line: str) -> bool:
    from openresearch.ingest.benchlines import is_bench_line

    return is_bench_line(line)
