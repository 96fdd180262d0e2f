"""repr(tensor) in PyTorch's format: tensor([1.0000, 2.5000], requires_grad=True)."""
import math

import numpy as np

from . import dtypes

PRECISION = 4
THRESHOLD = 1000        # summarize with "..." above this many elements
EDGE_ITEMS = 3


def _float_formatter(values):
    """PyTorch's choice: integers as '1.', else 4 decimals, or scientific for wide ranges."""
    finite = values[np.isfinite(values)]
    nonzero = np.abs(finite[finite != 0])
    if finite.size and np.all(finite == np.ceil(finite)):
        if nonzero.size and nonzero.max() > 1e8:
            return lambda v: _special(v) or f"{v:.{PRECISION}e}"
        return lambda v: _special(v) or f"{v:.0f}."
    if nonzero.size and (nonzero.max() / nonzero.min() > 1000 or nonzero.max() > 1e8
                         or nonzero.min() < 1e-4):
        return lambda v: _special(v) or f"{v:.{PRECISION}e}"
    return lambda v: _special(v) or f"{v:.{PRECISION}f}"


def _special(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return None


def _summarized_values(array):
    """The elements that will be printed (edges only when summarizing)."""
    if array.size <= THRESHOLD or array.ndim == 0:
        return array.reshape(-1)
    parts = [array]
    for axis in range(array.ndim):
        next_parts = []
        for part in parts:
            if part.shape[axis] > 2 * EDGE_ITEMS:
                next_parts.append(np.take(part, range(EDGE_ITEMS), axis=axis))
                next_parts.append(np.take(part, range(-EDGE_ITEMS, 0), axis=axis))
            else:
                next_parts.append(part)
        parts = next_parts
    return np.concatenate([p.reshape(-1) for p in parts])


def format_array(array, indent):
    """The bracketed body, with elements right-aligned to a common width."""
    summarize = array.size > THRESHOLD
    sample = _summarized_values(array)
    if array.dtype.kind == "f":
        fmt = _float_formatter(sample.astype(np.float64))
    elif array.dtype.kind == "b":
        fmt = str
    else:
        fmt = lambda v: str(int(v))  # noqa: E731
    width = max((len(fmt(v.item())) for v in sample), default=0)

    def element(v):
        return fmt(v.item()).rjust(width)

    def block(a, depth):
        if a.ndim == 0:
            return element(a)
        if a.ndim == 1:
            items = [element(v) for v in a]
            if summarize and a.shape[0] > 2 * EDGE_ITEMS:
                items = items[:EDGE_ITEMS] + ["..."] + items[-EDGE_ITEMS:]
            return "[" + ", ".join(items) + "]"
        rows = list(range(a.shape[0]))
        if summarize and a.shape[0] > 2 * EDGE_ITEMS:
            rows = rows[:EDGE_ITEMS] + [None] + rows[-EDGE_ITEMS:]
        separator = "," + "\n" * (a.ndim - 1) + " " * (indent + depth + 1)
        parts = ["..." if r is None else block(a[r], depth + 1) for r in rows]
        return "[" + separator.join(parts) + "]"

    return block(array, 0)


def tensor_repr(t):
    data = np.asarray(t._data) if t.device.type == "cpu" else t._data.get()
    prefix = "tensor("
    suffixes = []
    if data.size == 0:
        body = "[]"
        if data.ndim != 1:
            suffixes.append(f"size={tuple(data.shape)}")
    else:
        body = format_array(data, len(prefix))
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    default_dtypes = (dtypes.get_default_dtype(), dtypes.int64, dtypes.bool)
    if t.dtype not in default_dtypes or (data.size == 0 and t.dtype is not dtypes.get_default_dtype()):
        suffixes.append(f"dtype={t.dtype}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name().split('::')[-1]}>")   # CopySlices
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return prefix + ", ".join([body] + suffixes) + ")"
