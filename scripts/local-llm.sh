#!/usr/bin/env bash
# Run OpenResearch with no hosted LLM: a small instruct model on llama.cpp's own server, on loopback.
#   eval "$(scripts/local-llm.sh start)"        # fetch + verify the 0.5B model once, start, export the URL
#   eval "$(scripts/local-llm.sh start --model 1.5b)"
#   openresearch llm check                      # what the server supports, one answer per role
#   scripts/local-llm.sh stop
# Options after the command: --model 0.5b|1.5b --port N --threads N (default 1-2 by cores and load) --ctx N (4096)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
cmd=${1:-start}
shift || true
if [[ "$cmd" == "start" ]] && ! "$PY" -c "import xllamacpp" 2>/dev/null; then
  "$PY" -m pip install -q --disable-pip-version-check xllamacpp >&2
fi
exec "$PY" -m openresearch.llm_local "$cmd" "$@"
