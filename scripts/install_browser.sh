#!/usr/bin/env bash
# Install what the headless-browser tests (tests/browser/) need: Debian's chromium + chromium-driver and the
# Python selenium client. Idempotent and quick when already installed (no apt-get update then).
#   scripts/install_browser.sh
# Without root or apt-get it only prints what is missing; the tests then skip with a printed reason.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
  else
    echo "install_browser.sh: chromium and chromium-driver are missing (apt-get install chromium chromium-driver);" \
         "tests/browser will skip" >&2
  fi
fi

if ! "$PY" -c "import selenium" >/dev/null 2>&1; then
  "$PY" -m pip install -q --disable-pip-version-check "selenium>=4.20"
fi
