"""register_multi_grad_hook: one hook over the gradients of several tensors.

It is made of ordinary tensor hooks, one per tensor, that share a little state
keyed by the backward now running (a *graph task*, see NOTE [graph tasks] in
engine.py).  In mode "all" the first of them asks the engine how many of the
tensors' nodes this backward will run, and the last to arrive calls `fn`; so
a tensor whose gradient this backward does not compute gets None instead of
being waited for.  The code follows PyTorch's (torch/autograd/graph.py), state
and all, so the same program makes the same calls; PyTorch's lock is left out
because minigrad runs a backward on one thread.
"""
import functools
from collections import defaultdict

from ..core import graph as engine
from ..core.hooks import RemovableHandle

SUPPORTED_MODES = ("all", "any")


class _MultiHandle(RemovableHandle):
    """The handle of a multi-grad hook: remove() removes every per-tensor hook.

    Removing twice is harmless, and `with handle:` removes on exit, as for any handle.
    """

    def __init__(self, handles):
        self.handles = tuple(handles)

    def remove(self):
        for handle in self.handles:
            handle.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Register `fn` to run once per backward, on the gradients of several tensors.

    Args:
        tensors: the tensors whose gradients `fn` waits for (mode "all": each must
            require grad).
        fn: mode "all": `fn(grads)`, a list with one gradient per tensor, called once
            the gradients of all the tensors this backward computes are ready; a tensor
            this backward does not reach (another graph, or not needed for the `inputs`
            of backward / autograd.grad) is not waited for and gets None.  Mode "any":
            `fn(grad)` with the first gradient computed among the tensors.  `fn`
            should not modify its arguments.
        mode: "all" (the default) or "any".

    Returns a handle whose `remove()` removes the hook.

    Example::

        >>> import minigrad as torch
        >>> a = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> b = torch.tensor([3.0, 4.0], requires_grad=True)
        >>> c = a * b
        >>> d = a * b
        >>> def fn(grads):
        ...     print([g is not None for g in grads])
        >>> handle = torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)
        >>> c.sum().backward(retain_graph=True)
        [True, True, True, False]
        >>> c.sum().backward(inputs=(a,), retain_graph=True)
        [True, False, True, False]
        >>> handle.remove()
        >>> c.sum().backward()              # removed: fn is not called
    """
    if mode not in SUPPORTED_MODES:
        raise ValueError(f"Expects mode to be one of {SUPPORTED_MODES} but got {mode}")
    if mode == "all":
        return _MultiHandle(_register_all(tensors, fn))
    return _MultiHandle(_register_any(tensors, fn))


def _register_all(tensors, fn):
    nodes = [_gradient_node(t) for t in tensors]
    count, buffer = {}, {}       # per graph task: gradients arrived so far, and them
    expected = None              # how many will arrive (shared by the tasks, as PyTorch)

    def make_hook(index):
        def hook(grad):
            nonlocal expected
            task_id = _current_task_id()
            arrived = count.get(task_id, 0)
            count[task_id] = arrived + 1
            grads = buffer.setdefault(task_id, [None] * len(nodes))
            if arrived == 0:     # the first gradient of this backward: how many will come?
                expected = sum(map(engine.will_engine_execute_node, nodes))
            grads[index] = grad
            if arrived == expected - 1:
                fn(grads)
                del count[task_id], buffer[task_id]
        return hook

    return [t.register_hook(make_hook(i)) for i, t in enumerate(tensors)]


def _register_any(tensors, fn):
    ran = defaultdict(bool)      # graph task -> fn already called

    @functools.wraps(fn)
    def hook(grad):
        task_id = _current_task_id()
        already, ran[task_id] = ran[task_id], True
        if not already:
            fn(grad)

    return [t.register_hook(hook) for t in tensors if t.requires_grad]


def _gradient_node(tensor):
    """The node whose run computes `tensor`'s gradient: its grad_fn or a leaf's
    AccumulateGrad (PyTorch's _get_grad_fn_or_grad_acc)."""
    node = tensor._gradient_edge()[0]
    if node is None:
        raise AssertionError(
            "Expected gradient function to be set. minigrad hint: every tensor given to "
            "register_multi_grad_hook (mode='all') must require grad: create the leaf with "
            "requires_grad=True, or leave this tensor out.")
    return node


def _current_task_id():
    task_id = engine.current_graph_task_id()
    if task_id == -1:
        raise AssertionError("expected this hook to be called inside a backward call")
    return task_id
