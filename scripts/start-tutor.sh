#!/usr/bin/env bash
# Start the tutor on a fresh machine: make .venv, install minigrad with JupyterLab
# (the "tutor" extra), copy the lessons (notebooks/<lang>/) into ./minigrad-lessons
# and open JupyterLab on the first one.  Re-running keeps the notebooks you edited.
# Options go to minigrad-tutor, e.g.
#   scripts/start-tutor.sh --lang zh        中文课程
#   scripts/start-tutor.sh --progress       which exercises you passed
#   scripts/start-tutor.sh --help           all of them
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON=${PYTHON:-python3}
if [ ! -x "$ROOT/.venv/bin/python" ]; then
  echo "Creating .venv with $($PYTHON --version)..."
  "$PYTHON" -m venv "$ROOT/.venv"
fi
echo "Installing minigrad-tutor[tutor] (JupyterLab, ipywidgets) into .venv..."
"$ROOT/.venv/bin/python" -m pip install --quiet -e "$ROOT[tutor]"
exec "$ROOT/.venv/bin/minigrad-tutor" "$@"
