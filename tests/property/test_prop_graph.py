"""Round trips through a real FalkorDB (the project's embedded server; no mocks): Cypher parameters and the
evidence JSONL import/export.

Strings with quotes, backslashes, backticks, CJK, astral characters, control characters, Cypher and
`DETACH DELETE` payloads, and huge ones come back as they went in; what the graph cannot hold (NUL, lone
surrogates, non-finite floats, integers past 64 bits) is refused with a QueryError / one line error, never a
traceback or a silently different value.
"""

from __future__ import annotations

import io
import json
import math
import uuid
from collections.abc import Iterator

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from prop_budget import budget

from openresearch.errors import QueryError
from openresearch.graph.falkor import FalkorBackend
from openresearch.graph.store import GraphStore
from openresearch.ingest.evidence_io import decoded_lines, export_lines, import_lines

pytestmark = pytest.mark.integration  # the real embedded FalkorDB server

HOSTILE = st.sampled_from(['"', "'", "\\", "`", "\\u0000", "\\'", '\\"', "}", "{", "$x", "//", "/*", "*/", "\n", "\r",
                           "\t", "\x1b", "\x7f", "\u2028", "北京", "吞吐量", "𝔘", "🙂", "é", "\u0301", "\ufeff",
                           "') DETACH DELETE n //", "` MATCH (n) DETACH DELETE n //", "CYPHER a=1", "%s", "\\x00"])
# any character a Python str may hold except NUL and lone surrogates (refused, tested separately)
CHARS = st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00")
HOSTILE_TEXT = st.lists(st.one_of(HOSTILE, st.text(CHARS, max_size=6)), max_size=30).map("".join)


@pytest.fixture(scope="module")
def falkor(falkor_socket: str) -> Iterator[FalkorBackend]:
    backend = FalkorBackend(f"prop_{uuid.uuid4().hex[:8]}", unix_socket=falkor_socket)
    yield backend
    backend.drop()
    backend.close()


def _roundtrip(falkor: FalkorBackend, value: object) -> object:
    key = uuid.uuid4().hex
    rows = falkor.write("CREATE (n:P {k: $k}) SET n.v = $v RETURN n.v AS v", {"k": key, "v": value})
    back = falkor.read("MATCH (n:P {k: $k}) RETURN n.v AS v", {"k": key})
    assert rows[0]["v"] == back[0]["v"]
    return back[0]["v"]


@budget()
@given(HOSTILE_TEXT)
def test_strings_round_trip(falkor: FalkorBackend, text: str) -> None:
    assert _roundtrip(falkor, text) == text


@budget(10)
@given(st.integers(100_000, 2_000_000), HOSTILE)
def test_huge_strings_round_trip(falkor: FalkorBackend, size: int, token: str) -> None:
    text = (token + "x" * 97)[:100] * (size // 100)
    assert _roundtrip(falkor, text) == text


@budget()
# |x| <= 1e308: FalkorDB replies with 15 significant digits, so a double within 1e-15 of the largest one reads
# back as inf (found by the long run: 1.7976931348623151e+308 -> inf); noted, not ours to fix
@given(st.one_of(st.integers(-(2**63), 2**63 - 1), st.floats(-1e308, 1e308), st.booleans(),
                 st.lists(HOSTILE_TEXT, max_size=5), st.lists(st.integers(-(2**63), 2**63 - 1), max_size=5)))
def test_scalars_and_lists_round_trip(falkor: FalkorBackend, value: object) -> None:
    back = _roundtrip(falkor, value)
    if isinstance(value, float):
        # FalkorDB keeps the double exactly (`n.v = $v` holds) but replies with 15 significant digits
        assert isinstance(back, float) and math.isclose(back, value, rel_tol=1e-14, abs_tol=1e-300)
    else:
        assert back == value and type(back) is type(value)


@budget()
@given(st.dictionaries(HOSTILE_TEXT.filter(lambda k: "`" not in k and k != ""), HOSTILE_TEXT, max_size=4))
def test_map_parameters_round_trip(falkor: FalkorBackend, params: dict[str, str]) -> None:
    rows = falkor.read("RETURN $m AS m", {"m": params})
    assert rows[0]["m"] == params


@budget(30)
@given(st.one_of(
    st.text(CHARS, max_size=5).map(lambda t: t + "\x00"),
    st.text(CHARS, max_size=5).map(lambda t: t + "\ud800"),
    st.sampled_from([math.nan, math.inf, -math.inf]),
    st.integers(2**63, 2**80), st.integers(-(2**80), -(2**63) - 1),
))
def test_what_the_graph_cannot_hold_is_refused(falkor: FalkorBackend, value: object) -> None:
    with pytest.raises(QueryError):
        falkor.write("CREATE (n:P) SET n.v = $v", {"v": value})


# --- evidence JSONL: import then export gives back what went in ----------------------------------------

# a stored quote never starts or ends with whitespace (collapse() trims it; the import trims it too)
QUOTE = st.lists(st.one_of(HOSTILE, st.text(CHARS, min_size=1, max_size=8)), min_size=1, max_size=20).map("".join) \
    .map(str.strip).filter(bool)


@st.composite
def evidence_lines(draw: st.DrawFn) -> list[dict[str, object]]:
    lines = []
    for i in range(draw(st.integers(1, 5))):
        quote = draw(QUOTE)
        start = draw(st.integers(0, 2**40))
        row: dict[str, object] = {"source": {"url": f"https://fuzz.example/{i}?q={uuid.uuid4().hex[:6]}",
                                             "title": draw(HOSTILE_TEXT)},
                                  "quote": quote, "start": start, "end": start + len(quote),
                                  "entities": draw(st.lists(QUOTE, max_size=3, unique=True)),
                                  "question": draw(st.one_of(st.none(), QUOTE))}
        if draw(st.booleans()):
            row["observations"] = [{"entity": draw(QUOTE), "metric": "m" + draw(QUOTE),
                                    "value": draw(st.one_of(st.integers(-(10**12), 10**12),
                                                            st.floats(-1e12, 1e12, allow_nan=False))),
                                    "unit": draw(st.sampled_from([None, "MB/s", "ms", "%", "万", "GB"])),
                                    "condition": draw(st.one_of(st.none(), HOSTILE_TEXT))}]
        lines.append(row)
    return lines


@pytest.fixture(scope="module")
def ev_store(falkor_socket: str) -> Iterator[GraphStore]:
    backend = FalkorBackend(f"ev_{uuid.uuid4().hex[:8]}", unix_socket=falkor_socket)
    store = GraphStore(backend)
    store.init_schema()
    yield store
    backend.drop()
    backend.close()


@budget(30)
@given(evidence_lines())
def test_evidence_import_export_round_trip(ev_store: GraphStore, rows: list[dict[str, object]]) -> None:
    urls = {r["source"]["url"] for r in rows}  # type: ignore[index]
    blob = ("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n").encode()
    report = import_lines(ev_store, decoded_lines(io.BytesIO(blob)))
    assert not report.errors, report.errors
    exported = [e for e in map(json.loads, export_lines(ev_store)) if e["source"]["url"] in urls]
    got = sorted((e["quote"], e["start"], e["end"], e["source"]["url"]) for e in exported)
    want = sorted({(str(r["quote"]), r["start"], r["end"], r["source"]["url"]) for r in rows})  # type: ignore[index]
    assert got == want
    before = ev_store.stats()
    again = import_lines(ev_store, decoded_lines(io.BytesIO(blob)))  # idempotent: nothing new
    assert not again.errors and ev_store.stats() == before


@pytest.mark.parametrize("metric", ["!", "—", "/", "()"])
def test_a_metric_without_letters_is_a_line_error_not_a_broken_export(ev_store: GraphStore, metric: str) -> None:
    """Found by the round trip: such a metric was stored as "" and `evidence export` then failed on it."""
    line = json.dumps({"source": {"url": f"https://fuzz.example/m/{uuid.uuid4().hex}"}, "quote": "It did 5 ms.",
                       "observations": [{"entity": "Kafka", "metric": metric, "value": 5, "unit": "ms"}]})
    report = import_lines(ev_store, [line])
    assert report.imported == 0 and report.errors == [f"line 1: observations: metric {metric!r} has no letter or digit"]
    list(export_lines(ev_store))  # the export still completes


@budget(40)
@given(st.lists(st.one_of(st.text(max_size=40), st.sampled_from(["\x00", "\ud800", "a\udfffb", "\udbff\udfff"])),
                max_size=6))
def test_hostile_evidence_values_are_line_errors(falkor_socket: str, values: list[str]) -> None:
    """Strings the graph cannot hold (NUL, lone surrogates) are refused per line, the rest is written."""
    assume(values)
    backend = FalkorBackend(f"ev_{uuid.uuid4().hex[:8]}", unix_socket=falkor_socket)
    try:
        store = GraphStore(backend)
        store.init_schema()
        good = json.dumps({"source": {"url": "https://fuzz.example/ok"}, "quote": "Kafka did 605 MB/s."})
        lines = [good] + [json.dumps({"source": {"url": "https://fuzz.example/x"}, "quote": "q " + v}) for v in values]
        report = import_lines(store, lines)
        assert all(e.startswith("line ") and "\n" not in e for e in report.errors)
        assert report.imported >= 1
    finally:
        backend.drop()  # a key per example: clear() would keep each one's indexes (about 2 MB)
        backend.close()
