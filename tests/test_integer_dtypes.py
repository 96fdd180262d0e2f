"""minigrad's integer results and indices have PyTorch's dtypes (tests/integer_dtypes.py).

Here, on a 64-bit machine, numpy's own integer is int64 like PyTorch's, so this shows the
list of expressions means what it says; tests/browser/test_lite.py runs the same list in
the browser's 32-bit Pyodide, where numpy's integer is int32.
"""
import minigrad

from integer_dtypes import EXPRESSIONS, describe_all


def test_integer_results_and_indices_have_pytorchs_dtypes():
    torch = __import__("torch")
    ours, theirs = describe_all(minigrad), describe_all(torch)
    assert len(ours) == len(EXPRESSIONS) > 300
    assert {e: ours[e] for e in EXPRESSIONS if ours[e] != theirs[e]} == {}
    assert sum("int64" in answer for answer in theirs.values()) > 100
