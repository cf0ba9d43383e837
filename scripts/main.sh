#!/usr/bin/env bash
# The main job on the embedded default (FalkorDB, started and owned by OpenResearch; data in ~/.openresearch):
# install, initialise the graph, import the example evidence, then show statistics, conflicts and a comparison.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
"$PY" -m pip install -q --disable-pip-version-check -e .
openresearch graph init
openresearch evidence import examples/evidence.jsonl
openresearch graph stats
openresearch conflicts
openresearch compare "Apache Kafka" RabbitMQ "Apache Pulsar" NATS --metric throughput
