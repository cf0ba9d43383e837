"""The FalkorDB adapter's own parameter encoding, round-tripped through a real server."""

from __future__ import annotations

import math
import random
import uuid
from enum import Enum, IntEnum
from typing import Any

import pytest

from openresearch.errors import QueryError
from openresearch.graph.falkor import FalkorBackend, params_header

pytestmark = pytest.mark.integration

TRICKY = ['', 'plain', 'a "quoted" word', "back\\slash", "ends with \\", "\\\"", "line\nbreak\r\n", "tab\there",
          "bell\x07 esc\x1b del\x7f", "中文 ü é", "emoji 🚀", "$param", "`tick`", "{not: a map}", "'single'",
          "\\u00e9 literally", "// comment", "CYPHER x=1"]


class Colour(str, Enum):  # noqa: UP042 - a mixed-in str enum, whose str() is 'Colour.RED'
    RED = "r\"ed"


class Level(IntEnum):
    HIGH = 3


def random_value(rnd: random.Random, depth: int = 0) -> Any:
    kind = rnd.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return rnd.choice(TRICKY) + "".join(chr(rnd.randrange(1, 0x2FF)) for _ in range(rnd.randrange(6)))
    if kind == 1:
        return rnd.randrange(-(2**62), 2**62)
    if kind == 2:
        return rnd.uniform(-1e12, 1e12) * 10 ** rnd.randrange(-20, 5)
    if kind == 3:
        return None
    if kind == 4:
        return rnd.random() < 0.5
    if kind == 5:
        return [random_value(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    return {f"k_{i}": random_value(rnd, depth + 1) for i in range(rnd.randrange(4))}


@pytest.fixture
def falkor(falkor_socket: str) -> FalkorBackend:
    backend = FalkorBackend(f"t_{uuid.uuid4().hex[:10]}", unix_socket=falkor_socket)
    backend.write("CREATE (:Probe)")  # the graph key exists from its first write; reads need it
    return backend


def same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or math.isclose(a, b, rel_tol=1e-14)  # FalkorDB replies with 15 significant digits
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def test_every_value_comes_back_as_sent(falkor: FalkorBackend) -> None:
    rnd = random.Random(5)
    values = [*TRICKY, 0, -1, 2**62, 0.1, -2.5e-12, 1e300, True, False, None, [], {}, [[1, "a"], {"x": None}],
              *(random_value(rnd) for _ in range(300))]
    for start in range(0, len(values), 40):
        chunk = values[start:start + 40]
        rows = falkor.read("UNWIND range(0, size($v) - 1) AS i RETURN i, $v[i] AS v", {"v": chunk})
        for row in rows:
            assert same(row["v"], chunk[row["i"]]), (chunk[row["i"]], row["v"])


def test_subclasses_are_sent_as_their_base_type(falkor: FalkorBackend) -> None:
    row = falkor.read("RETURN $c AS c, $l AS l", {"c": Colour.RED, "l": Level.HIGH})[0]
    assert row == {"c": 'r"ed', "l": 3}


def test_what_cannot_be_encoded_is_a_clear_error(falkor: FalkorBackend) -> None:
    with pytest.raises(QueryError, match="non-finite"):
        falkor.read("RETURN $x AS x", {"x": float("nan")})
    with pytest.raises(QueryError, match="map key"):
        falkor.read("RETURN $x AS x", {"x": {"a`b": 1}})
    with pytest.raises(QueryError, match="NUL"):
        falkor.read("RETURN $x AS x", {"x": ["fine", "nul\x00"]})
    with pytest.raises(QueryError, match="cannot take a"):
        falkor.read("RETURN $x AS x", {"x": object()})


def test_header_matches_the_drivers_own_for_plain_values() -> None:
    from falkordb.helpers import stringify_param_value

    rnd = random.Random(9)
    for _ in range(200):
        value = random_value(rnd)
        if "True" in str(value) or "False" in str(value) or isinstance(value, bool):
            continue  # the driver writes Python's True/False; we write true/false
        assert params_header({"p": value}) == f"CYPHER `p`={stringify_param_value(value)} "
