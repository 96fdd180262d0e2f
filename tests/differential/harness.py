# Copied from the project's shared oracle (../shared/oracle/harness.py), unchanged
# below this header; tests/test_differential.py runs it under pytest.
"""Differential oracle: run the same autograd program under PyTorch and under
minigrad, record what each observes, and compare the two records.

A case is a function ``case_xxx(T, rec)``: ``T`` is the top-level module
(``torch`` or ``minigrad``), ``rec`` a Recorder.  The case uses only the
PyTorch-compatible surface (``T.tensor``, ``T.autograd.Function``,
``T.autograd.graph.saved_tensors_hooks`` ...) and records what it sees with
``rec("name", value)`` and ``with rec.raises("phrase", ...)``.

PyTorch's record is the expected one; minigrad's must match it.
"""
from __future__ import annotations

import contextlib
import importlib
import math
import traceback

import numpy as np


class Recorder:
    def __init__(self):
        self.items = []          # (name, normalised value)
        self.notes = []          # problems that are failures on their own

    def __call__(self, name, value):
        self.items.append((name, normalise(value)))

    @contextlib.contextmanager
    def raises(self, *phrases, name="error"):
        """Expect an exception; record its builtin type; check phrases occur
        (case-insensitive) in its message."""
        try:
            yield
        except Exception as exc:  # noqa: BLE001 - we record any exception
            kind = builtin_kind(exc)
            msg = str(exc).lower()
            missing = [p for p in phrases if p.lower() not in msg]
            self.items.append((name, ("raises", kind)))
            if missing:
                self.notes.append(
                    f"{name}: message lacks {missing!r}: {str(exc)[:300]!r}")
        else:
            self.items.append((name, ("no exception",)))


def builtin_kind(exc):
    for klass in type(exc).__mro__:
        if klass.__module__ == "builtins":
            return klass.__name__
    return type(exc).__name__


def normalise(value):
    """Turn tensors, arrays and containers into comparable plain values."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return ("num", float(value))
    if isinstance(value, (list, tuple)):
        return tuple(normalise(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, normalise(v)) for k, v in value.items()))
    if isinstance(value, np.ndarray) or np.isscalar(value):
        arr = np.asarray(value)
        return ("array", str(arr.dtype), arr.shape, arr.tolist())
    if hasattr(value, "detach") and hasattr(value, "numpy"):
        t = value.detach()
        if hasattr(t, "cpu"):
            t = t.cpu()
        arr = np.asarray(t.numpy())
        return ("array", str(arr.dtype), arr.shape, arr.tolist())
    if hasattr(value, "name") and callable(value.name):   # autograd Node
        return ("node", value.name())
    return ("repr", type(value).__name__)


def same(a, b, rtol=1e-5, atol=1e-7):
    if isinstance(a, tuple) and a and a[0] == "array":
        if not (isinstance(b, tuple) and b and b[0] == "array"):
            return False
        if a[1] != b[1] or tuple(a[2]) != tuple(b[2]):
            return False
        x, y = np.asarray(a[3], dtype=float), np.asarray(b[3], dtype=float)
        return bool(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True))
    if isinstance(a, tuple) and a and a[0] == "num":
        return (isinstance(b, tuple) and b and b[0] == "num"
                and (math.isclose(a[1], b[1], rel_tol=rtol, abs_tol=atol)
                     or (math.isnan(a[1]) and math.isnan(b[1]))))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y, rtol, atol) for x, y in zip(a, b))
    return a == b


def run_case(case, module_name):
    T = importlib.import_module(module_name)
    rec = Recorder()
    try:
        case(T, rec)
    except Exception:  # noqa: BLE001 - an unexpected crash is a result
        rec.items.append(("crash", ("crashed",)))
        rec.notes.append("crashed:\n" + traceback.format_exc(limit=6))
    return rec


def compare(case):
    """Return a list of problems (empty when minigrad matches PyTorch)."""
    want = run_case(case, "torch")
    if want.notes:
        return [f"oracle itself: {n}" for n in want.notes]
    got = run_case(case, "minigrad")
    problems = list(got.notes)
    wi, gi = dict(want.items), dict(got.items)
    for name, value in want.items:
        if name not in gi:
            problems.append(f"{name}: not reached (expected {short(value)})")
        elif not same(value, gi[name]):
            problems.append(f"{name}: expected {short(value)}, got {short(gi[name])}")
    for name, value in got.items:
        if name not in wi and name != "crash":
            problems.append(f"{name}: recorded only by minigrad ({short(value)})")
    return problems


def short(v, n=160):
    s = repr(v)
    return s if len(s) <= n else s[:n] + "..."
