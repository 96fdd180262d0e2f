"""repr(tensor) in PyTorch's format: tensor([1.0000, 2.5000], requires_grad=True).

The rules are PyTorch's (torch/_tensor_str.py): one format for all elements,
chosen from the non-zero finite values; rows wrapped at 80 columns; more than
1000 elements summarized with "...".
"""
import math

import numpy as np

from . import dtypes

PRECISION = 4
THRESHOLD = 1000        # summarize with "..." above this many elements
EDGE_ITEMS = 3
LINE_WIDTH = 80
SCI_MODE = None         # None: chosen from the values; True / False: always / never
_PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80),
             "full": (4, math.inf, 3, 80)}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """torch.set_printoptions: digits after the point, the element count above which a
    tensor is summarized, the edge items kept, the line width; a profile ("default",
    "short", "full") sets all four.  sci_mode: True or False forces scientific notation
    on or off, None lets the values choose.

    Example::

        >>> import minigrad as torch
        >>> torch.set_printoptions(precision=2)
        >>> torch.tensor([1.2345, 2.0])
        tensor([1.23, 2.00])
        >>> torch.set_printoptions(profile="default")
    """
    global PRECISION, THRESHOLD, EDGE_ITEMS, LINE_WIDTH, SCI_MODE
    if profile is not None:
        PRECISION, THRESHOLD, EDGE_ITEMS, LINE_WIDTH = _PROFILES[profile]
    PRECISION = PRECISION if precision is None else precision
    THRESHOLD = THRESHOLD if threshold is None else threshold
    EDGE_ITEMS = EDGE_ITEMS if edgeitems is None else edgeitems
    LINE_WIDTH = LINE_WIDTH if linewidth is None else linewidth
    SCI_MODE = sci_mode


class _Formatter:
    """PyTorch's choice for floats: integers as '1.', else 4 decimals, or scientific
    when the non-zero finite values span a wide range; every element padded to one width."""

    def __init__(self, values, floating):
        self.floating, self.int_mode, self.sci_mode, self.width = floating, True, False, 1
        if not floating:
            self.width = max([1] + [len(str(v)) for v in values.tolist()])
            return
        values = values.astype(np.float64)
        shown = values[np.isfinite(values) & (values != 0)]
        if shown.size == 0:
            return
        largest, smallest = np.abs(shown).max(), np.abs(shown).min()
        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        self.sci_mode = bool(largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4)
        if SCI_MODE is not None:
            self.sci_mode = SCI_MODE
        if self.sci_mode:
            pattern, extra = f"{{:.{PRECISION}e}}", 0
        elif self.int_mode:
            pattern, extra = "{:.0f}", 1            # room for the "." that marks a float
        else:
            pattern, extra = f"{{:.{PRECISION}f}}", 0
        self.width = max(len(pattern.format(v)) + extra for v in shown.tolist())

    def format(self, value):
        if not self.floating:
            text = str(value)
        elif self.sci_mode:
            text = f"{value:{self.width}.{PRECISION}e}"
        elif self.int_mode:
            text = f"{value:.0f}" + ("" if math.isinf(value) or math.isnan(value) else ".")
        else:
            text = f"{value:.{PRECISION}f}"
        return text.rjust(self.width)


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
    """The bracketed body: a row wraps at 80 columns, nested rows are indented."""
    summarize = array.size > THRESHOLD
    formatter = _Formatter(_summarized_values(array), array.dtype.kind == "f")

    def vector(a, indent):
        per_line = max(1, (LINE_WIDTH - indent) // (formatter.width + 2))
        items = [formatter.format(v) for v in a.tolist()]
        if summarize and a.shape[0] > 2 * EDGE_ITEMS:
            items = items[:EDGE_ITEMS] + [" ..."] + items[-EDGE_ITEMS:]
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"

    def block(a, indent):
        if a.ndim == 0:
            return formatter.format(a.item())
        if a.ndim == 1:
            return vector(a, indent)
        rows = list(range(a.shape[0]))
        if summarize and a.shape[0] > 2 * EDGE_ITEMS:
            rows = rows[:EDGE_ITEMS] + [None] + rows[-EDGE_ITEMS:]
        parts = ["..." if r is None else block(a[r], indent + 1) for r in rows]
        return "[" + ("," + "\n" * (a.ndim - 1) + " " * (indent + 1)).join(parts) + "]"

    return block(array, indent)


def _add_suffixes(text, suffixes, indent):
    """Append ', suffix' for each suffix, starting a new line where 80 columns would overflow."""
    last_line = len(text) - text.rfind("\n") + 1          # (PyTorch's count, quirks included)
    for suffix in suffixes:      # (measured as PyTorch's text: "torch." is 3 shorter)
        if last_line + len(suffix.replace("minigrad.", "torch.")) + 2 > LINE_WIDTH:
            text += ",\n" + " " * indent + suffix
            last_line = indent + len(suffix)
        else:
            text += ", " + suffix
            last_line += len(suffix) + 2
    return text + ")"


def tensor_repr(t):
    data = np.asarray(t._data) if t.device.type == "cpu" else t._data.get()
    prefix = "tensor("
    suffixes = []
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    if data.size == 0:
        body = "[]"
        if data.ndim != 1:
            suffixes.append(f"size={tuple(data.shape)}")
        if t.dtype is not dtypes.get_default_dtype():
            suffixes.append(f"dtype={t.dtype}")
    else:
        body = format_array(data, len(prefix))
        if t.dtype not in (dtypes.get_default_dtype(), dtypes.int64, dtypes.bool):
            suffixes.append(f"dtype={t.dtype}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{t.grad_fn.name().split('::')[-1]}>")   # CopySlices
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    from .autograd import forward_ad
    tangent = forward_ad._tangent_of(t) if forward_ad._state["level"] is not None else None
    if tangent is not None:                   # a dual tensor (forward-mode AD)
        suffixes.append(f"tangent={tensor_repr(tangent)}")
    return _add_suffixes(prefix + body, suffixes, len(prefix))
