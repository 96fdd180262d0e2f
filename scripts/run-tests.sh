#!/usr/bin/env bash
# Run the whole test suite on a fresh machine: make .venv, install minigrad
# with its test extra (pytest, hypothesis and PyTorch's CPU build, the
# reference the differential tests compare against), then run pytest.
# Extra arguments go to pytest (in one process), e.g. scripts/run-tests.sh -k hooks
#
# The whole suite (no arguments) then runs what compares stored outputs a second time (nbval
# on the worked lessons, and the doctests) under another numeric configuration: one OpenBLAS
# thread on an old CPU's kernel (OPENBLAS_CORETYPE; numpy's OpenBLAS is built for every CPU
# and takes it) and numpy's SIMD loops switched off (NPY_DISABLE_CPU_FEATURES).  Sums,
# matmuls and float32 exp round differently there, as they do on another machine, so an
# output that depends on them fails here and not elsewhere.
# MINIGRAD_SECOND_RUN=0 leaves it out.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
# Optional system packages, installed where we may (root with apt), after one `apt-get update`:
# graphviz's `dot` lets the tests draw graphs both ways (minigrad.viz draws without it too);
# Debian's chromium runs the browser tests (tests/browser: JupyterLab driven by Playwright,
# which never downloads a browser of its own), and a small CJK font makes the Chinese readable;
# npm fetches the widget manager of the pages with no kernel (the lesson website, its tests)
# and the core of the Pyodide the JupyterLite site carries (scripts/lite-pyodide.py);
# bubblewrap is the sandbox nbgrader's autograde runs each submission in (tests/test_grading*.py).
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null \
    && ! { command -v dot && command -v chromium && command -v npm && command -v bwrap; } >/dev/null; then
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
  if ! command -v bwrap >/dev/null; then
    echo "Installing bubblewrap for the grading tests..."
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null 2>&1 \
      || echo "  could not install bubblewrap with apt-get"
  fi
  if ! command -v npm >/dev/null; then
    echo "Installing npm for the lesson website's tests..."
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm \
      >/dev/null 2>&1 || echo "  could not install npm with apt-get"
  fi
fi
command -v chromium >/dev/null \
  || echo "No chromium: the browser tests (tests/browser) will be skipped; apt-get install chromium"
command -v bwrap >/dev/null \
  || echo "No bubblewrap: the sandboxed grading tests will be skipped; apt-get install bubblewrap"
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
if [ $# -gt 0 ]; then
  exec .venv/bin/python -m pytest "$@"
fi
# The whole suite runs in two processes (pytest-xdist), each test file whole in one of them
# (--dist loadfile: a file's fixtures are made once): a CI machine has two cores, and much
# of the suite waits on browsers, kernels and installs rather than computing.  The slowest
# tests are listed at the end.
WORKERS=(-n "${MINIGRAD_TEST_WORKERS:-2}" --dist loadfile)
.venv/bin/python -m pytest "${WORKERS[@]}" --durations=25
if [ "${MINIGRAD_SECOND_RUN:-1}" = 0 ]; then
  exit 0
fi

export OPENBLAS_NUM_THREADS=1
case "$(uname -m)" in
  x86_64|amd64) export OPENBLAS_CORETYPE=Prescott ;;    # SSE3 only: no AVX, no FMA
  aarch64|arm64) export OPENBLAS_CORETYPE=ARMV8 ;;       # the generic ARMv8 kernel
esac
# every optimisation numpy chose at run time, off: its loops run at the baseline it was built for
NPY_DISABLE_CPU_FEATURES="$(.venv/bin/python -c '
try:
    from numpy._core._multiarray_umath import __cpu_dispatch__
except ImportError:
    from numpy.core._multiarray_umath import __cpu_dispatch__
print(" ".join(__cpu_dispatch__))')"
export NPY_DISABLE_CPU_FEATURES
FINGERPRINT='import hashlib, numpy as np
a = np.random.default_rng(0).standard_normal((300, 257))
print(hashlib.sha1(b"".join((a.astype(t) @ a.T.astype(t)).tobytes() + np.exp(a.astype(t)).tobytes()
                            for t in (np.float32, np.float64))).hexdigest())'
if [ "$(env -u OPENBLAS_NUM_THREADS -u OPENBLAS_CORETYPE -u NPY_DISABLE_CPU_FEATURES \
        .venv/bin/python -c "$FINGERPRINT")" != "$(.venv/bin/python -c "$FINGERPRINT")" ]; then
  changed="matmul and exp round differently in the last bits there"
else
  changed="on this CPU, matmul and exp round the same there"
fi
echo
echo "Second run of nbval on the worked notebooks and the doctests: OPENBLAS_NUM_THREADS=1" \
     "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-(default)} NPY_DISABLE_CPU_FEATURES=\"$NPY_DISABLE_CPU_FEATURES\"" \
     "($changed)"
# the tests that compare stored outputs: nbval on every worked notebook, one test a lesson
.venv/bin/python -m pytest -n "${MINIGRAD_TEST_WORKERS:-2}" \
  tests/test_lessons.py::test_solution_notebooks_reproduce_their_outputs
.venv/bin/python -m pytest minigrad README.md
