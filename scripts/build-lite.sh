#!/usr/bin/env bash
# Build the lessons as a JupyterLite site: JupyterLab with Python (Pyodide) running in the
# browser, no server, no Binder queue.  The site holds every lesson in both languages
# (en/ and zh/, each with solutions/) and minigrad-tutor's wheel for piplite, so the first
# cell of a notebook installs minigrad from the site itself.
#
#   scripts/build-lite.sh                     # the site goes to build/lite/site
#   scripts/build-lite.sh /srv/minigrad       # ...or to a folder of your choice
#   scripts/build-lite.sh --hide-solutions    # no worked notebooks, in the site nor in the wheel
#                                             # (as MINIGRAD_HIDE_SOLUTIONS=1 does)
#   python3 -m http.server -d build/lite/site 8000
#   open http://localhost:8000/lab/index.html?path=en/01-tensors-and-the-graph.ipynb
#
# Any static web server (GitHub Pages, a university web space) serves the folder.
# Pyodide itself, and numpy for it, load from Pyodide's CDN on a student's first visit.
# MINIGRAD_PYODIDE_DIR=<folder of an unpacked Pyodide distribution> puts that one into
# the site instead, which then needs no network (tests/browser/test_lite.py runs so).
# Makes .venv and installs the `lite` extra there (jupyterlite-core,
# jupyterlite-pyodide-kernel) if it is missing.
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
if [ -n "${MINIGRAD_PYODIDE_DIR:-}" ] && [ ! -f "$MINIGRAD_PYODIDE_DIR/pyodide.mjs" ]; then
  echo "error: MINIGRAD_PYODIDE_DIR=$MINIGRAD_PYODIDE_DIR holds no pyodide.mjs" \
       "(it must name the folder of an unpacked Pyodide distribution)" >&2
  exit 2
fi

PYTHON=${PYTHON:-python3}
if [ ! -x "$ROOT/.venv/bin/python" ]; then
  echo "Creating .venv with $($PYTHON --version)..."
  "$PYTHON" -m venv "$ROOT/.venv"
fi
PY="$ROOT/.venv/bin/python"
if ! "$PY" -c "import jupyterlite_core, jupyterlite_pyodide_kernel, ipywidgets" 2>/dev/null; then
  echo "Installing minigrad-tutor[lite] (jupyterlite-core, jupyterlite-pyodide-kernel) into .venv..."
  "$PY" -m pip install --quiet -e "$ROOT[lite]"
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/source" "$WORK/wheels" "$WORK/contents" "$WORK/lite"

echo "1/3 the wheels piplite installs in the browser"
# minigrad-tutor, built from a copy (no build/ left behind, no stale files taken from one)
cp -r "$ROOT/minigrad" "$ROOT/notebooks" "$ROOT/pyproject.toml" "$ROOT/setup.py" \
      "$ROOT/README.md" "$ROOT/LICENSE" "$WORK/source/"
find "$WORK/source" -name __pycache__ -prune -exec rm -rf {} +
MINIGRAD_HIDE_SOLUTIONS="$HIDE" "$PY" -m pip wheel --quiet --no-deps --wheel-dir "$WORK/wheels" \
    "$WORK/source"
# ipywidgets for the players (Pyodide has none), at the versions whose JupyterLab
# extension goes into the site, so the widgets' two halves match
WIDGETS=$("$PY" -c "from importlib.metadata import version as v
print(f'ipywidgets=={v(\"ipywidgets\")} jupyterlab_widgets=={v(\"jupyterlab_widgets\")}')")
# shellcheck disable=SC2086
"$PY" -m pip download --quiet --no-deps --only-binary=:all: --dest "$WORK/wheels" $WIDGETS

echo "2/3 the lessons: en/ and zh/, each with solutions/ (unless hidden)"
cp -r "$ROOT/notebooks/en" "$ROOT/notebooks/zh" "$WORK/contents/"
if [ "$HIDE" = 1 ]; then
  rm -rf "$WORK/contents/en/solutions" "$WORK/contents/zh/solutions"
fi
# only the two extensions the lessons need, whatever else this environment has installed
EXTENSIONS="$("$PY" -c "import sys; print(sys.prefix)")/share/jupyter/labextensions"
mkdir -p "$WORK/extensions/@jupyter-widgets" "$WORK/extensions/@jupyterlite"
ln -s "$EXTENSIONS/@jupyter-widgets/jupyterlab-manager" "$WORK/extensions/@jupyter-widgets/"
ln -s "$EXTENSIONS/@jupyterlite/pyodide-kernel-extension" "$WORK/extensions/@jupyterlite/"
if [ -n "${MINIGRAD_PYODIDE_DIR:-}" ]; then     # the well-known place of a local Pyodide
  mkdir -p "$WORK/lite/static"
  ln -s "$(cd "$MINIGRAD_PYODIDE_DIR" && pwd)" "$WORK/lite/static/pyodide"
fi

echo "3/3 jupyter lite build"
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
