#!/usr/bin/env bash
# Build the lessons as a JupyterLite site: JupyterLab with Python (Pyodide) running in the
# browser, no server, no Binder queue.  The site holds every lesson in both languages
# (en/ and zh/, each with solutions/ unless hidden), the Pyodide it runs on, and the wheels
# piplite installs (minigrad-tutor, ipywidgets, comm), so the first cell of a notebook
# installs minigrad from the site itself and a student's browser asks nothing of a CDN or an index.
#
#   scripts/build-lite.sh                     # the site goes to build/lite/site
#   scripts/build-lite.sh /srv/minigrad       # ...or to a folder of your choice
#   scripts/build-lite.sh --hide-solutions    # no worked notebooks, in the site nor in the wheel
#                                             # (as MINIGRAD_HIDE_SOLUTIONS=1 does)
#   python3 -m http.server -d build/lite/site 8000
#   open http://localhost:8000/lab/index.html?path=en/01-tensors-and-the-graph.ipynb
#
# Any static web server (GitHub Pages, a university web space) serves the folder.
# The stack is pinned: jupyterlite-core and jupyterlite-pyodide-kernel in pyproject.toml's
# `lite` extra, Pyodide 0.27.7 in scripts/lite-pyodide.py, which assembles it from the npm
# registry and PyPI (npm is needed), checks every file against Pyodide's own lock and keeps
# it in ~/.cache/minigrad-tutor; MINIGRAD_PYODIDE_DIR=<folder of an unpacked Pyodide
# 0.27.7 release> takes the files from there instead (checked the same way).
# Makes .venv and installs the `lite` extra there if what it pins is missing.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
HIDE="${MINIGRAD_HIDE_SOLUTIONS:-0}"
OUTPUT=""
for argument in "$@"; do
  case "$argument" in
    --hide-solutions) HIDE=1 ;;
    *) OUTPUT="$argument" ;;
  esac
done
OUTPUT="${OUTPUT:-$ROOT/build/lite/site}"
if [ -e "$OUTPUT" ] && [ -n "$(ls -A "$OUTPUT")" ] && [ ! -f "$OUTPUT/jupyter-lite.json" ]; then
  echo "error: $OUTPUT is neither empty nor a JupyterLite site: choose another folder" >&2
  exit 2
fi

PYTHON=${PYTHON:-python3}
if [ ! -x "$ROOT/.venv/bin/python" ]; then
  echo "Creating .venv with $($PYTHON --version)..."
  "$PYTHON" -m venv "$ROOT/.venv"
fi
PY="$ROOT/.venv/bin/python"
# the pins of the `lite` extra, e.g. jupyterlite-core[contents]==0.6.4 (contents: jupyter-server)
PINS=$(grep -o '"jupyterlite-[a-z-]*\(\[[a-z]*\]\)\?==[0-9.]*"' "$ROOT/pyproject.toml" | tr -d '"')
if ! "$PY" - $PINS 2>/dev/null <<'EOF'
import re, sys
from importlib.metadata import version
import ipywidgets, jupyter_server
for pin in sys.argv[1:]:
    name, wanted = re.fullmatch(r"([a-z-]+)(?:\[\w+\])?==(.+)", pin).groups()
    assert version(name) == wanted, pin
EOF
then
  echo "Installing minigrad-tutor[lite] ($(echo $PINS)) into .venv..."
  "$PY" -m pip install --quiet -e "$ROOT[lite]"
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/source" "$WORK/wheels" "$WORK/contents" "$WORK/lite"

echo "1/4 Pyodide, checked against its lock (scripts/lite-pyodide.py)"
PYODIDE=$("$PY" "$ROOT/scripts/lite-pyodide.py")

echo "2/4 the wheels piplite installs in the browser"
# minigrad-tutor, built from a copy (no build/ left behind, no stale files taken from one)
cp -r "$ROOT/minigrad" "$ROOT/notebooks" "$ROOT/pyproject.toml" "$ROOT/setup.py" \
      "$ROOT/README.md" "$ROOT/LICENSE" "$WORK/source/"
find "$WORK/source" -name __pycache__ -prune -exec rm -rf {} +
MINIGRAD_HIDE_SOLUTIONS="$HIDE" "$PY" -m pip wheel --quiet --no-deps --wheel-dir "$WORK/wheels" \
    "$WORK/source"
# ipywidgets, jupyterlab_widgets and comm for the players (Pyodide has none), pinned with
# the Pyodide: jupyterlab_widgets' JupyterLab extension goes into the site below, so the
# widgets' two halves match
cp "$PYODIDE"/wheels/*.whl "$WORK/wheels/"

echo "3/4 the lessons: en/ and zh/, each with solutions/ (unless hidden)"
cp -r "$ROOT/notebooks/en" "$ROOT/notebooks/zh" "$WORK/contents/"
if [ "$HIDE" = 1 ]; then
  rm -rf "$WORK/contents/en/solutions" "$WORK/contents/zh/solutions"
fi
# only the two extensions the lessons need, whatever else this environment has installed:
# the Pyodide kernel's (the `lite` extra's) and the widget manager of the pinned wheel
EXTENSIONS="$("$PY" -c "import sys; print(sys.prefix)")/share/jupyter/labextensions"
mkdir -p "$WORK/extensions/@jupyterlite" "$WORK/widgets"
ln -s "$EXTENSIONS/@jupyterlite/pyodide-kernel-extension" "$WORK/extensions/@jupyterlite/"
"$PY" -m zipfile -e "$PYODIDE"/wheels/jupyterlab_widgets-*.whl "$WORK/widgets"
mv "$WORK"/widgets/jupyterlab_widgets-*.data/data/share/jupyter/labextensions/@jupyter-widgets \
   "$WORK/extensions/"
# The site's Pyodide goes to the kernel's well-known place.  piplite never asks PyPI (what
# the lessons install is all in the site: a missing wheel is an error, not a download).
# Pyodide loads what the kernel and every lesson need at once, side by side, while it
# starts (the kernel would install them one after the other).
mkdir -p "$WORK/lite/static"
ln -s "$PYODIDE/pyodide" "$WORK/lite/static/pyodide"
cat > "$WORK/lite/jupyter-lite.json" <<'EOF'
{"jupyter-lite-schema-version": 0, "jupyter-config-data": {"litePluginSettings": {
  "@jupyterlite/pyodide-kernel-extension:kernel": {"disablePyPIFallback": true,
    "loadPyodideOptions": {"packages": ["micropip", "ssl", "sqlite3", "jedi", "ipython", "numpy"]}}}}}
EOF

echo "4/4 jupyter lite build"
(cd "$WORK/lite" && "$PY" -m jupyter lite build --lite-dir "$WORK/lite" \
    --output-dir "$WORK/site" --contents "$WORK/contents" --piplite-wheels "$WORK/wheels" \
    --ignore-sys-prefix --FederatedExtensionAddon.extra_labextensions_path="$WORK/extensions" \
    --no-sourcemaps) > "$WORK/build.log" 2>&1 \
  || { tail -40 "$WORK/build.log" >&2; echo "error: jupyter lite build failed" >&2; exit 1; }

rm -rf "$OUTPUT"
mkdir -p "$(dirname "$OUTPUT")"
mv "$WORK/site" "$OUTPUT"
LESSONS=$(find "$OUTPUT/files" -name '[0-9][0-9]-*.ipynb' | wc -l)
echo "JupyterLite site in $OUTPUT: $LESSONS notebooks;" $(basename -a "$OUTPUT"/pypi/*.whl)
echo "Try it: python3 -m http.server -d $OUTPUT 8000, then open" \
     "http://localhost:8000/lab/index.html?path=en/01-tensors-and-the-graph.ipynb"
