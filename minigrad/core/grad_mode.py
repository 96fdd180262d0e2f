"""Grad mode: whether operations are recorded into the graph.

`no_grad`, `enable_grad` and `set_grad_enabled` work as context managers and
as decorators, like PyTorch's.  A `Function`'s forward always runs with grad
mode off; its backward runs with grad mode equal to `create_graph`.

Each thread has its own grad mode, as in PyTorch: a new thread starts with grad
mode on, whatever the thread that started it had, and `no_grad()` in one thread
leaves the others recording.
"""
import threading

from ..utils._contextlib import _DecoratorContextManager


class _GradModeState(threading.local):
    """The running thread's modes: setting one sets it for this thread only.

    NOTE [grad mode per thread]: threading.local, not a context variable.  PyTorch's
    modes belong to the thread (asyncio tasks on one thread share them), and Jupyter
    may run each cell in a copy of the context, where a context variable set by
    `torch.set_grad_enabled(False)` would be gone in the next cell.  Each attribute
    read finds the thread's own dict first (about 50 ns more than a module dict's
    item): forward_mode, which every op opens, takes that dict once (`__dict__`).
    """

    def __init__(self):         # runs once in each thread that asks: its defaults
        self.enabled, self.inference = True, False
        self.quiet = False      # see forward_mode


_state = _GradModeState()


def is_grad_enabled():
    """True when new operations are recorded for backward.

    Example::

        >>> import minigrad as torch
        >>> with torch.no_grad():
        ...     torch.is_grad_enabled()
        False
    """
    return _state.enabled


class _GradModeContext(_DecoratorContextManager):
    """Base for the grad-mode context managers; also usable as decorators
    (`utils/_contextlib.py`: of a generator function too, as PyTorch's)."""

    mode = True

    def __enter__(self):
        self._previous = _state.enabled
        _state.enabled = self.mode

    def __exit__(self, *exc_info):
        _state.enabled = self._previous
        return False


class _NoParamDecorator(_GradModeContext):
    """`@torch.no_grad` works without the parentheses too, as in PyTorch."""

    def __new__(cls, func=None):
        if func is None:
            return super().__new__(cls)
        if not callable(func):
            raise TypeError(f"{cls.__name__}() takes no arguments")
        return cls()(func)


class no_grad(_NoParamDecorator):
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


class enable_grad(_NoParamDecorator):
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
        self._previous = _state.enabled
        self.mode = bool(mode)
        _state.enabled = self.mode

    def __enter__(self):
        pass

    def __call__(self, func):
        _state.enabled = self._previous
        return super().__call__(func)

    def clone(self):
        return self.__class__(self.mode)


def is_multithreading_enabled():
    """Whether backward may run its nodes on several threads (PyTorch's engine can, one
    thread per device).  minigrad's engine always runs on the calling thread: the flag is
    only remembered, for code written for PyTorch that sets it."""
    return _multithreading["enabled"]


class set_multithreading_enabled:
    """Set the multithreading flag to `mode`: at once, and until the `with` block ends."""

    def __init__(self, mode):
        self._previous = _multithreading["enabled"]
        _multithreading["enabled"] = bool(mode)

    def __enter__(self):
        pass

    def __exit__(self, *exc_info):
        _multithreading["enabled"] = self._previous
        return False


_multithreading = {"enabled": True}


def is_inference_mode_enabled():
    """True inside `inference_mode()`."""
    return _state.inference


class inference_mode(_GradModeContext):
    """no_grad, and more: tensors made inside are *inference tensors*, which autograd
    refuses to save for backward or to let change in place outside the mode (clone one
    to get a normal tensor).  PyTorch skips version counting for them, which makes
    inference faster; minigrad only copies the rules.

    Example::

        >>> import minigrad as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> with torch.inference_mode():
        ...     y = x * 2
        >>> y.requires_grad, y.is_inference()
        (False, True)
    """

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)                 # @inference_mode without parentheses

    def __init__(self, mode=True):
        self.mode = bool(mode)

    def __enter__(self):
        self._previous = (_state.enabled, _state.inference)
        if self.mode:
            _state.enabled = False
        _state.inference = self.mode

    def __exit__(self, *exc_info):
        _state.enabled, _state.inference = self._previous
        return False

    def clone(self):
        return self.__class__(self.mode)


inference_tensors_made = [False]   # until inference_mode makes one: Function.apply asks


def mark_inference(outputs, inputs=()):
    """Inside inference_mode, make new tensors inference tensors, as PyTorch does: not
    an input changed in place (it stays what it was), nor a view of a normal tensor (it
    stays normal, and remembers where it was made for the errors of Tensor._inplace)."""
    if not _state.inference:
        return outputs
    for output in outputs if isinstance(outputs, (tuple, list)) else (outputs,):
        if not getattr(output, "_is_minigrad_tensor", False) or any(
                output is tensor for tensor in inputs):
            continue
        if output._base is None:
            output._inference = True
            inference_tensors_made[0] = True
        else:
            output._view_made_in = "inference mode"
    return outputs


def mark_no_grad_views(outputs, inputs):
    """In no_grad mode, new views remember it (not an input changed in place): changing
    one in place later, in grad mode, is refused (Tensor._check_inplace_allowed), as in
    PyTorch."""
    for output in outputs if isinstance(outputs, (tuple, list)) else (outputs,):
        if getattr(output, "_base", None) is not None and not any(
                output is tensor for tensor in inputs):
            output._view_made_in = "no_grad mode"
    return outputs
