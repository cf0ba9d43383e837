#!/usr/bin/env bash
# Install everything, then run every test (unit and integration, on real FalkorDB and real Neo4j), ruff and mypy.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/install.sh
PY=${PYTHON:-python3}
"$PY" -m ruff check openresearch tests bench
"$PY" -m mypy
"$PY" -m pytest -q -p no:cacheprovider "$@"
