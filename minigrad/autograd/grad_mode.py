"""Grad mode: whether operations are recorded into the graph.

`no_grad`, `enable_grad` and `set_grad_enabled` work as context managers and
as decorators, like PyTorch's.  A `Function`'s forward always runs with grad
mode off; its backward runs with grad mode equal to `create_graph`.
"""
import functools

_state = {"enabled": True}


def is_grad_enabled():
    """True when new operations are recorded for backward.

    Example::

        >>> import minigrad as torch
        >>> with torch.no_grad():
        ...     torch.is_grad_enabled()
        False
    """
    return _state["enabled"]


class _GradModeContext:
    """Base for the grad-mode context managers; also usable as decorators."""

    mode = True

    def __enter__(self):
        self._previous = _state["enabled"]
        _state["enabled"] = self.mode

    def __exit__(self, *exc_info):
        _state["enabled"] = self._previous
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return func(*args, **kwargs)
        return wrapper


class no_grad(_GradModeContext):
    """Turn recording off: results of operations do not require grad.

    Example::

        >>> import minigrad as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> with torch.no_grad():
        ...     y = w * 2
        >>> y.requires_grad
        False
    """

    mode = False


class enable_grad(_GradModeContext):
    """Turn recording back on inside a `no_grad` block."""

    mode = True


class set_grad_enabled(_GradModeContext):
    """Set grad mode to `mode`: at once, and until the `with` block ends.

    Example::

        >>> import minigrad as torch
        >>> with torch.set_grad_enabled(False):
        ...     torch.is_grad_enabled()
        False
    """

    def __init__(self, mode):
        self._previous = _state["enabled"]
        self.mode = bool(mode)
        _state["enabled"] = self.mode

    def __enter__(self):
        pass

    def __call__(self, func):
        _state["enabled"] = self._previous
        mode = self.mode

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return func(*args, **kwargs)
        return wrapper
