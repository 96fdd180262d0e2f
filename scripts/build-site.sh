#!/usr/bin/env bash
# Build the lesson website: every lesson in both languages, each player playing on the page
# with no kernel, with Binder / Colab / JupyterLite buttons and a language switch.
#
#   scripts/build-site.sh                        # the whole site in build/site (a few minutes)
#   scripts/build-site.sh --lessons 1,2 OUTPUT   # some lessons only
#   scripts/build-site.sh --skip-lite            # without JupyterLite's lite/ (built apart)
#   scripts/build-site.sh --lite-url URL         # JupyterLite buttons to a site hosted elsewhere
#   scripts/build-site.sh --hide-solutions       # no answers anywhere (or MINIGRAD_HIDE_SOLUTIONS=1)
#   python3 -m http.server -d build/site 8000    # then open http://localhost:8000
#
# Any static web server (GitHub Pages, a department's web space) serves the folder: a page
# loads nothing from the internet, and every file is readable by every user (a server runs as
# a user of its own).  Needs npm the first time (the widget manager, require.js
# and MathJax come from the npm registry, kept in build/site-cache).  Makes .venv and
# installs the `site` extra there if it is missing; scripts/build-site.py does the work.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON=${PYTHON:-python3}
if [ ! -x "$ROOT/.venv/bin/python" ]; then
  echo "Creating .venv with $($PYTHON --version)..."
  "$PYTHON" -m venv "$ROOT/.venv"
fi
PY="$ROOT/.venv/bin/python"
if ! "$PY" -c "import minigrad, nbclient, nbconvert, jupytext, ipykernel, ipywidgets, matplotlib" \
    2>/dev/null; then
  echo "Installing minigrad-tutor[site] (nbconvert, nbclient, jupytext, the lessons' kernel) into .venv..."
  "$PY" -m pip install --quiet -e "$ROOT[site]"
fi
exec "$PY" "$ROOT/scripts/build-site.py" "$@"
