"""The property suite's budget, applied per test (not as a global profile, so other suites keep theirs).

`ci` (the default) is small and derandomized: the same examples every run, a fixed budget, no example
database written into the tree. `long` is the wider search that bench/bench_fuzz.py runs
(HYPOTHESIS_PROFILE=long; HYPOTHESIS_EXAMPLES=N sets its budget).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
          HealthCheck.function_scoped_fixture]
_LONG = os.environ.get("HYPOTHESIS_PROFILE", "ci") == "long"


def budget(ci: int = 50) -> settings:
    """`ci` examples in CI (a few heavy properties take fewer); the long profile's budget otherwise."""
    if _LONG:
        return settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "2000")), deadline=None,
                        database=None, suppress_health_check=_QUIET, print_blob=True)
    return settings(max_examples=ci, deadline=None, derandomize=True, database=None,
                    suppress_health_check=_QUIET, print_blob=True)
