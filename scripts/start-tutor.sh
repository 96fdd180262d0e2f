#!/usr/bin/env bash
# Start the tutor on a fresh machine: make .venv, install minigrad with JupyterLab
# (the "tutor" extra), copy the lessons (notebooks/<lang>/) into ./minigrad-lessons
# and open JupyterLab on the course index.  Re-running keeps the notebooks you edited.
# The install happens once (again only when pyproject.toml changes): later
# launches start at once, without a network.
# Options go to minigrad-tutor, e.g.
#   scripts/start-tutor.sh --lang zh        中文课程
#   scripts/start-tutor.sh --progress       which exercises you passed
#   scripts/start-tutor.sh --help           all of them
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON=${PYTHON:-python3}
INSTALLED="$ROOT/.venv/minigrad-installed-pyproject.toml"   # what the install was made from
if [ ! -x "$ROOT/.venv/bin/python" ]; then
  echo "Creating .venv with $($PYTHON --version)..."
  "$PYTHON" -m venv "$ROOT/.venv"
fi
if [ ! -x "$ROOT/.venv/bin/minigrad-tutor" ] || ! cmp -s "$ROOT/pyproject.toml" "$INSTALLED"; then
  echo "Installing minigrad-tutor[tutor] (JupyterLab, ipywidgets) into .venv..."
  if "$ROOT/.venv/bin/python" -m pip install --quiet -e "$ROOT[tutor]"; then
    cp "$ROOT/pyproject.toml" "$INSTALLED"
  elif [ -x "$ROOT/.venv/bin/minigrad-tutor" ]; then
    echo "Could not update the installation (no network?): starting the one installed before."
  else
    echo "Could not install minigrad-tutor[tutor]: pip needs the network the first time." >&2
    exit 1
  fi
fi
# the launcher's messages name the command to run again as the student typed it
export MINIGRAD_TUTOR_COMMAND="${MINIGRAD_TUTOR_COMMAND:-$0}"
exec "$ROOT/.venv/bin/minigrad-tutor" "$@"
