#!/usr/bin/env bash
# Run the whole test suite on a fresh machine: make .venv, install minigrad
# with its test extra (pytest, hypothesis and PyTorch's CPU build, the
# reference the differential tests compare against), then run pytest.
# Extra arguments go to pytest, e.g. scripts/run-tests.sh -k hooks
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "Creating .venv with $($PYTHON --version)..."
  "$PYTHON" -m venv .venv
fi
echo "Installing minigrad[test] into .venv (the first time this downloads PyTorch's CPU build)..."
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
exec .venv/bin/python -m pytest "$@"
