"""Anomaly detection: find where the op that failed in backward was created.

With `detect_anomaly()` on, every recorded node remembers the stack of the
forward call that created it.  If its backward raises, the error carries that
stack as a note; if its backward returns NaN, that is an error too.
"""
import traceback
import warnings

_state = {"enabled": False, "check_nan": True}


def is_enabled():
    return _state["enabled"]


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


def remember_forward(node):
    """Keep the stack of the forward call that recorded `node` (without the frames of
    Function.apply's helpers: _connect, apply and this one)."""
    node.metadata["traceback_"] = traceback.format_stack()[:-3]


def run_checked(node, grads):
    """Run `node` in anomaly mode: a NaN it returns is an error, and an error raised in it
    carries the stack of the forward call that recorded it."""
    try:
        grad_inputs = node.apply(grads)
        check_nan(node, grad_inputs)
    except Exception as exc:
        annotate(exc, node)
        raise
    return grad_inputs


def annotate(exc, node):
    """Add the forward traceback of `node` to an exception raised in its backward."""
    stack = node.metadata.get("traceback_")
    if stack and hasattr(exc, "add_note"):
        exc.add_note(
            f"Error detected in {node.name()}. Traceback of forward call that caused "
            "the error:\n" + "".join(stack))


def check_nan(node, grads):
    if not _state["check_nan"]:
        return
    for index, grad in enumerate(grads):
        if grad is not None and grad._has_nan():
            raise RuntimeError(
                f"Function '{node.name()}' returned nan values in its {index}th output.")
