"""Grad mode: whether new operations are recorded into the graph.

`Function.apply` records an op only while grad mode is on; it runs each forward with
grad mode off, so that the ops inside a forward record nothing, and the engine runs
backward with grad mode equal to `create_graph`.  `no_grad`, `enable_grad` and
`set_grad_enabled` switch it for a block (torch.no_grad is these, made decorators too:
minigrad/surface/grad_mode.py).

Each thread has its own grad mode, as in PyTorch: a new thread starts with grad mode
on, whatever the thread that started it had, and `no_grad()` in one thread leaves the
others recording.
"""
import threading


class _ModeState(threading.local):
    """The running thread's modes: setting one sets it for this thread only.

    NOTE [grad mode per thread]: threading.local, not a context variable.  PyTorch's
    modes belong to the thread (asyncio tasks on one thread share them), and Jupyter
    may run each cell in a copy of the context, where a context variable set by
    `torch.set_grad_enabled(False)` would be gone in the next cell.
    """

    def __init__(self):         # runs once in each thread that asks: its defaults
        self.enabled = True     # grad mode
        self.in_forward = False     # inside an op's forward (Function.apply turns it on)
        self.inference = False      # inside torch.inference_mode() (PyTorch's surface)


state = _ModeState()


def is_grad_enabled():
    """True when new operations are recorded for backward.

    Example::

        >>> import minigrad as torch
        >>> with torch.no_grad():
        ...     torch.is_grad_enabled()
        False
    """
    return state.enabled


class set_grad_enabled:
    """Set grad mode to `mode`: at once, and until the `with` block ends.

    Example::

        >>> import minigrad as torch
        >>> with torch.set_grad_enabled(False):
        ...     torch.is_grad_enabled()
        False
    """

    def __init__(self, mode):
        self._previous = state.enabled
        self.mode = bool(mode)
        state.enabled = self.mode

    def __enter__(self):
        pass

    def __exit__(self, *exc_info):
        state.enabled = self._previous
        return False


class no_grad:
    """Turn recording off inside the block: results of operations do not require grad.

    Example::

        >>> import minigrad as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> with torch.no_grad():
        ...     y = w * 2
        >>> y.requires_grad
        False
    """

    mode = False

    def __enter__(self):
        self._previous = state.enabled
        state.enabled = self.mode

    def __exit__(self, *exc_info):
        state.enabled = self._previous
        return False


class enable_grad(no_grad):
    """Turn recording back on inside a `no_grad` block."""

    mode = True
