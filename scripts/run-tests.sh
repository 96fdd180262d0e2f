#!/usr/bin/env bash
# Run the whole test suite on a fresh machine: make .venv, install minigrad
# with its test extra (pytest, hypothesis and PyTorch's CPU build, the
# reference the differential tests compare against), then run pytest.
# Extra arguments go to pytest, e.g. scripts/run-tests.sh -k hooks
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
# Optional system packages, installed where we may (root with apt), after one `apt-get update`:
# graphviz's `dot` lets the tests draw graphs both ways (minigrad.viz draws without it too);
# Debian's chromium runs the browser tests (tests/browser: JupyterLab driven by Playwright,
# which never downloads a browser of its own), and a small CJK font makes the Chinese readable;
# npm fetches the widget manager of the pages with no kernel (the lesson website, its tests)
# and the core of the Pyodide the JupyterLite site carries (scripts/lite-pyodide.py).
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null \
    && ! { command -v dot && command -v chromium && command -v npm; } >/dev/null; then
  apt-get update -qq >/dev/null 2>&1 || true
  if ! command -v dot >/dev/null; then
    echo "Installing graphviz (optional: minigrad.viz draws without it too)..."
    apt-get install -y -qq graphviz >/dev/null 2>&1 \
      || echo "  could not install graphviz; its tests will be skipped"
  fi
  if ! command -v chromium >/dev/null; then
    echo "Installing chromium for the browser tests..."
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      chromium fonts-wqy-microhei >/dev/null 2>&1 || echo "  could not install chromium with apt-get"
  fi
  if ! command -v npm >/dev/null; then
    echo "Installing npm for the lesson website's tests..."
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm \
      >/dev/null 2>&1 || echo "  could not install npm with apt-get"
  fi
fi
command -v chromium >/dev/null \
  || echo "No chromium: the browser tests (tests/browser) will be skipped; apt-get install chromium"
command -v npm >/dev/null \
  || echo "No npm: the pages with no kernel (tests/browser/test_site.py ...) and the JupyterLite" \
          "tests (Pyodide comes from the npm registry) will be skipped; apt-get install npm"
if [ ! -x .venv/bin/python ]; then
  echo "Creating .venv with $($PYTHON --version)..."
  "$PYTHON" -m venv .venv
fi
echo "Installing minigrad-tutor[test] into .venv (the first time this downloads PyTorch's CPU build)..."
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
exec .venv/bin/python -m pytest "$@"
