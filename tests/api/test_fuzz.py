"""A property-based fuzz of the OpenAPI schema (Schemathesis) against a real uvicorn over real FalkorDB: no
5xx, every response conforms to the schema, for valid (positive) and invalid (negative) inputs. A small fixed,
derandomised budget per operation keeps it short; a longer run is
`schemathesis run http://127.0.0.1:8000/openapi.json` against `openresearch serve`.

Hypothesis drives each operation's strategy directly: the Schemathesis pytest fixture loader does not work
with the pytest this project uses."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import schemathesis
from api_support import Server
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.specs.openapi.checks import negative_data_rejection

from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration
EXAMPLES = 10  # per operation and mode
# well-formed by the schema yet refused, and documented so: a cursor this API did not issue, a NUL character
CONFIG = schemathesis.Config.from_dict({"checks": {"positive_data_acceptance": {
    "expected-statuses": ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]}}})

EXCLUDED = {schemathesis.GenerationMode.POSITIVE: [],
            schemathesis.GenerationMode.NEGATIVE: [negative_data_rejection]}


def property_test(url: str, strategy: st.SearchStrategy[schemathesis.Case], mode: schemathesis.GenerationMode,
                  examples: int) -> Callable[[], None]:
    @given(data=st.data())
    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def check(data: st.DataObject) -> None:
        case = data.draw(strategy)
        # invalid data must still get no 5xx and a response that conforms; whether it is refused is not
        # checked: a query string cannot carry a type ("entity=-215" is a string) and a repeated scalar
        # parameter takes its last value, which Schemathesis counts as accepting invalid data
        case.call_and_validate(base_url=url, excluded_checks=EXCLUDED[mode])
    return check  # type: ignore[no-any-return]


def fuzz(url: str, examples: int = EXAMPLES, key: str | None = None) -> list[str]:
    """Every operation of the schema (read with `key` when the server has one; the cases are sent without)."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    schema = schemathesis.openapi.from_url(url + "/openapi.json", config=CONFIG, headers=headers)
    tried = []
    for result in schema.get_all_operations():
        op = result.ok()
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
            try:
                property_test(url, op.as_strategy(generation_mode=mode), mode, examples)()
            except Unsatisfiable:
                if mode == schemathesis.GenerationMode.POSITIVE:
                    raise
                continue  # an operation without inputs has no invalid ones
            tried.append(f"{mode.value} {op.label}")
    return tried


def test_no_5xx_and_no_schema_violation(api: Server) -> None:
    tried = fuzz(api.url)
    assert "positive GET /evidence" in tried and "negative POST /feedback" in tried


def test_fuzz_with_an_api_key(falkor_store: GraphStore) -> None:
    from api_support import serve

    with serve(falkor_store, api_key="k") as server:
        tried = fuzz(server.url, examples=3, key="k")  # without the key: every guarded route is a 401 problem
    assert tried
