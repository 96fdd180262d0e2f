#!/usr/bin/env bash
# Start the tutor on a fresh machine: make .venv, install minigrad, run the tour.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
.venv/bin/python -m pip install --quiet -e .
exec .venv/bin/python -m minigrad "$@"
