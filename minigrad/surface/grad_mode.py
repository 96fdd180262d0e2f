"""torch's grad-mode switches: the core's (minigrad/core/grad_mode.py), usable as
decorators too (of a function, or of a generator function: utils/_contextlib.py), and
PyTorch's further modes: inference_mode, and the multithreading flag."""
from ..core import grad_mode as core
from ..core.grad_mode import is_grad_enabled, state
from ..utils._contextlib import _DecoratorContextManager
from . import inference

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled", "set_multithreading_enabled",
           "is_multithreading_enabled"]


class _NoParamDecorator(_DecoratorContextManager):
    """`@torch.no_grad` works without the parentheses too, as in PyTorch."""

    def __new__(cls, func=None):
        if func is None:
            return super().__new__(cls)
        if not callable(func):
            raise TypeError(f"{cls.__name__}() takes no arguments")
        return cls()(func)


class no_grad(_NoParamDecorator, core.no_grad):
    """Turn recording off: results of operations do not require grad.

    Example::

        >>> import minigrad as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> with torch.no_grad():
        ...     y = w * 2
        >>> y.requires_grad
        False
    """


class enable_grad(_NoParamDecorator, core.enable_grad):
    """Turn recording back on inside a `no_grad` block."""


class set_grad_enabled(_DecoratorContextManager, core.set_grad_enabled):
    """Set grad mode to `mode`: at once, and until the `with` block ends.

    Example::

        >>> import minigrad as torch
        >>> with torch.set_grad_enabled(False):
        ...     torch.is_grad_enabled()
        False
    """

    def __call__(self, func):
        state.enabled = self._previous
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
    return state.inference


class inference_mode(_DecoratorContextManager):
    """no_grad, and more: tensors made inside are *inference tensors*, which autograd
    refuses to save for backward or to let change in place outside the mode (clone one
    to get a normal tensor).  PyTorch skips version counting for them, which makes
    inference faster; minigrad only copies the rules (surface/inference.py).

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
        inference.plug()                   # the core asks it about inference tensors
        self._previous = (state.enabled, state.inference)
        if self.mode:
            state.enabled = False
        state.inference = self.mode

    def __exit__(self, *exc_info):
        state.enabled, state.inference = self._previous
        return False

    def clone(self):
        return self.__class__(self.mode)
