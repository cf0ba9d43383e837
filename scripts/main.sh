#!/usr/bin/env bash
# The main job on the embedded default (FalkorDB, started and owned by OpenResearch; data in ~/.openresearch):
# install, then a research run, offline, over the example corpus in examples/corpus, ending with a cited report.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
"$PY" -m pip install -q --disable-pip-version-check -e .
export HF_HUB_OFFLINE=1
openresearch research "Which message broker should we choose for high-throughput event streaming: Kafka, RabbitMQ or Pulsar?" \
  --source local:examples/corpus --offline --out out/example
echo
sed -n '1,/^## Evidence/p' out/example/report.md | head -n 80
echo "… full report: out/example/report.md (also report.json and report.html)"
