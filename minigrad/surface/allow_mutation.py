"""torch.autograd.graph.allow_mutation_on_saved_tensors: change a tensor saved for
backward in place, and backward still sees the value forward saved.

Normally that change makes backward refuse the saved tensor (NOTE [saved tensors and
version counters] in saved_tensor.py).  Inside this block, saved_tensors_hooks keep a
handle for each saved tensor, and just before an in-place op writes into a tensor, every
saved tensor that shares its memory (the same first element) and its version is cloned:
backward unpacks the clone.  The same mechanism as PyTorch's, whose in-place ops reach it
through a TorchDispatchMode; minigrad's through `Tensor._inplace` (`before_write`).

Example::

    >>> import minigrad as torch
    >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
    ...     a = torch.ones(2, requires_grad=True)
    ...     b = a.clone()
    ...     out = (b ** 2).sum()
    ...     _ = b.sin_()                   # b ** 2 saved b: its old value is cloned now
    ...     out.backward()
    >>> a.grad
    tensor([2., 2.])
"""
import collections
import contextlib
import weakref

from .. import backend
from ..core.hooks import saved_tensors_hooks

_OUTSIDE = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
            "in which the graph was originally recorded.")

active = None       # the context of the open block: Tensor._inplace asks it before writing


class _Handle:
    """What the pack hook keeps for a saved tensor (the graph holds it; once the graph is
    freed, the entries keyed by it go)."""


class _AllowMutationOnSavedContext:
    """The state of one block: the saved tensors (`original`), the clones made of them
    before a write (`cloned`), keyed by handle; which handle each saved tensor got, by
    (id, memory address, version); and which of those share a memory address and version."""

    def __init__(self):
        self.cloned = weakref.WeakKeyDictionary()
        self.original = weakref.WeakKeyDictionary()
        self.tid_to_weakhandle = weakref.WeakValueDictionary()
        self.sid_to_tid = collections.defaultdict(set)

    def clear(self):
        self.cloned.clear()
        self.original.clear()
        self.tid_to_weakhandle.clear()
        self.sid_to_tid.clear()

    def pack(self, tensor):
        tid, sid = _ids(tensor)
        self.sid_to_tid[sid].add(tid)
        handle = self.tid_to_weakhandle.get(tid)     # the same tensor, saved again
        if handle is None:
            handle = self.tid_to_weakhandle[tid] = _Handle()
            self.original[handle] = tensor
        return handle

    def unpack(self, handle):
        if active is not self:
            raise AssertionError(_OUTSIDE)
        if handle in self.cloned:
            return self.cloned[handle]
        if handle not in self.original:
            raise AssertionError(_OUTSIDE)
        return self.original[handle]

    def before_write(self, tensor):
        """`tensor` is about to be changed in place: clone every saved tensor that shares
        its memory and version (once each; skipped if backward has freed it already)."""
        for tid in self.sid_to_tid.get(_ids(tensor)[1], ()):
            handle = self.tid_to_weakhandle.get(tid)
            if handle is None or handle in self.cloned:
                continue
            self.cloned[handle] = self.original.pop(handle).clone()


def _ids(tensor):
    """PyTorch's two keys of a tensor: (id, memory address, version), and (memory address,
    version), which the tensor's views at the same address share."""
    sid = (backend.address(tensor._data), tensor._version)
    return (id(tensor),) + sid, sid


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Inside this block, tensors saved for backward may be changed in place: each is
    cloned just before the change, and backward uses the clone.  Run backward inside the
    same block.  Yields the block's state (cleared when it ends); blocks do not nest."""
    global active
    context = _AllowMutationOnSavedContext()
    with saved_tensors_hooks(context.pack, context.unpack):
        try:
            if active is not None:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            active = context
            yield context
        finally:
            context.clear()
            active = None
