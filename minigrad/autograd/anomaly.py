"""Anomaly detection: find where the op that failed in backward was created.

With `detect_anomaly()` on, every recorded node remembers the stack of the
forward call that created it (and, made inside another node's backward, that
node).  If its backward raises, a warning shows that stack, then its parents';
if its backward returns NaN, that is an error too.
"""
import os
import sys
import traceback
import warnings

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep   # minigrad/

_state = {"enabled": False, "check_nan": True}


def is_enabled():
    return _state["enabled"]


def is_anomaly_enabled():
    """torch.is_anomaly_enabled(): whether anomaly mode is on."""
    return _state["enabled"]


def is_anomaly_check_nan_enabled():
    """torch.is_anomaly_check_nan_enabled(): whether anomaly mode looks for NaN too."""
    return _state["check_nan"]


class detect_anomaly:
    """Context manager: record forward tracebacks and check backward for NaN.

    Example::

        >>> import minigrad as torch
        >>> with torch.autograd.detect_anomaly():
        ...     x = torch.tensor([1.0], requires_grad=True)
        ...     (x * 2).sum().backward()
    """

    def __init__(self, check_nan=True):
        self.check_nan = check_nan

    def __enter__(self):
        self._previous = dict(_state)
        _state.update(enabled=True, check_nan=self.check_nan)
        _warn_slow()
        return self

    def __exit__(self, *exc_info):
        _state.update(self._previous)
        return False


class set_detect_anomaly(detect_anomaly):
    """Turn anomaly detection on or off (also a context manager)."""

    def __init__(self, mode, check_nan=True):
        super().__init__(check_nan)
        self._previous = dict(_state)
        _state.update(enabled=bool(mode), check_nan=check_nan)     # (no warning: PyTorch's

    def __enter__(self):
        return self


def _warn_slow():
    warnings.warn("Anomaly Detection has been enabled. This mode will increase the runtime "
                  "and should only be enabled for debugging.", UserWarning, stacklevel=3)


# The nodes anomaly mode is running, innermost last: a node recorded inside one's
# backward (create_graph, or a backward that runs ops) remembers it as its parent.
_running = []


def remember_forward(node):
    """Keep the stack of the forward call that recorded `node`, and the node whose backward
    recorded it, if any (PyTorch's metadata keys: traceback_, parent_).  The stack ends
    at the last call from outside minigrad, the line that used the op: PyTorch's ops are
    C++, so its stack ends there too (minigrad's own frames, from torch.log down to
    Function.apply, would only hide that line)."""
    stack = traceback.extract_stack()
    caller = len(stack)
    while caller and stack[caller - 1].filename.startswith(_PACKAGE):
        caller -= 1
    node.metadata["traceback_"] = traceback.format_list(stack[:caller] or stack[:-3])
    if _running:
        node.metadata["parent_"] = _running[-1]


def run_checked(node, grads):
    """Run `node` in anomaly mode: a NaN it returns is an error, and an error raised in it
    is preceded by PyTorch's warnings of where it and its parents were recorded."""
    _running.append(node)
    try:
        grad_inputs = node.apply(grads)
        check_nan(node, grad_inputs)
    except Exception:
        warn_forward_stacks(node)
        raise
    finally:
        _running.pop()
    return grad_inputs


def warn_forward_stacks(node):
    """PyTorch's warnings when `node`'s backward failed: "Error detected in ..." with the
    stack of the forward call that recorded it, then one for each parent."""
    _warn(node.name(), node.metadata.get("traceback_"),
          "Traceback of forward call that caused the error:\n")
    parent = node.metadata.get("parent_")
    while parent is not None:
        _warn(parent.name(), parent.metadata.get("traceback_"), "Traceback of forward call "
              "that induced the previous calculation:\n", "\n\nPrevious calculation was "
              "induced by ")
        parent = parent.metadata.get("parent_")


def _warn(name, stack, what, opening="Error detected in "):
    if stack is None:
        message = (f"Error detected in {name}. No forward pass information available. "
                   "Enable detect anomaly during forward pass for more information.")
    else:
        message = f"{opening}{name}. {what}{''.join(stack)}"
    try:
        warnings.warn(message, UserWarning, stacklevel=2)
    except Warning as raised:       # warnings are errors: the backward's own error goes on,
        print(f"{type(raised).__name__}: {raised}", file=sys.stderr)    # as PyTorch's


def check_nan(node, grads):
    if not _state["check_nan"]:
        return
    for index, grad in enumerate(grads):
        if grad is not None and grad._has_nan():
            raise RuntimeError(
                f"Function '{node.name()}' returned nan values in its {index}th output.")
