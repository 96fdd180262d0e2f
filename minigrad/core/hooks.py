"""Hooks (lesson 08): code of yours that backward runs, in PyTorch's order.

- Around a node, the engine runs (`call_pre_hooks`, `call_post_hooks`): before it, the
  tensor hooks of its outputs (`y.register_hook`, in the order they were registered),
  then `retain_grad`, then the node's own pre-hooks; after it, the node's post-hooks.
  A hook may return a new gradient, which must look like the one it replaces.  (A
  leaf's hooks run in its AccumulateGrad: graph.py.)
- Around every tensor an op saves, `saved_tensors_hooks(pack, unpack)`: what is kept is
  what `pack` returns, and backward gets back what `unpack` makes of it (function.py's
  SavedTensor).

Every `register_*hook` returns a `RemovableHandle`.
"""
import contextlib
import itertools
import weakref

from . import errors, seams


class RemovableHandle:
    """A handle that removes a hook from the dict it was registered in.

    It holds only a weak reference to that dict, so keeping a handle does not
    keep a tensor or a graph node alive.  Usable as a context manager.

    Example::

        >>> import minigrad as torch
        >>> x = torch.tensor([1.0], requires_grad=True)
        >>> handle = x.register_hook(lambda g: g * 2)
        >>> handle.remove()
    """

    def __init__(self, hooks_dict):
        self.id = next(_next_id)
        self.hooks_dict_ref = weakref.ref(hooks_dict)

    def remove(self):
        hooks_dict = self.hooks_dict_ref()
        if hooks_dict is not None and self.id in hooks_dict:
            del hooks_dict[self.id]

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()


_next_id = itertools.count()


class HookDict(dict):
    """A dict that can be weakly referenced (a plain dict cannot)."""


def add_hook(hooks_dict, hook):
    """Store `hook` in `hooks_dict` under a fresh id; return its handle.  Any object is
    stored, as PyTorch does: one that cannot be called fails when backward calls it."""
    handle = RemovableHandle(hooks_dict)
    hooks_dict[handle.id] = hook
    return handle


# --- around a node ----------------------------------------------------------------------

def call_pre_hooks(node, grads, create_graph, node_hooks=True):
    """The gradients of the node's outputs after its hooks: tensor hooks, then retain_grad,
    then the node's pre-hooks (node_hooks=False: a node autograd.grad captures from but
    does not run).  Returns a tuple."""
    if not (node._tensor_pre_hooks or node._retained_grads or node._pre_hooks):
        return tuple(grads)                  # most nodes: no hooks at all
    grads = list(grads)
    # the tensor hooks of all outputs, in the order they were registered (handle ids)
    for _, output_nr, hook in sorted((hook_id, output_nr, hook) for output_nr, hooks in (
            node._tensor_pre_hooks or {}).items() for hook_id, hook in hooks.items()):
        _narrate(node, "tensor")
        grad = grads[output_nr]
        result = hook(grad)     # None too: an unused output of a node that runs (split)
        if result is not None:
            grads[output_nr] = result if grad is None else _checked(hook, grad, result)
    for output_nr, grad in enumerate(grads):      # then retain_grad, once all hooks ran
        retained = node._retained_grads and node._retained_grads.get(output_nr)
        tensor = retained() if retained is not None and grad is not None else None
        if tensor is not None:
            _narrate(node, "retain_grad")
            kept = grad.clone() if create_graph else grad.detach().clone()   # CloneBackward0
            tensor._grad = kept if tensor._grad is None else tensor._grad + kept
    grads = tuple(grads)
    for hook in tuple((node._pre_hooks or {}).values()) if node_hooks else ():
        _narrate(node, "prehook")
        result = hook(grads)
        if result is not None:
            grads = _checked_node_result(hook, grads, result)
    return grads


def call_post_hooks(node, grad_inputs, grads):
    """The node's gradients for its inputs after its post-hooks, `hook(grad_inputs, grads)`."""
    for hook in tuple(node._post_hooks.values()):
        _narrate(node, "hook")
        result = hook(grad_inputs, grads)
        if result is not None:
            grad_inputs = _checked_node_result(hook, grad_inputs, result)
    return grad_inputs


def call_post_accumulate_hooks(node, leaf):
    """A leaf's post-accumulate-grad hooks, `hook(leaf)`, once its .grad is updated.  A hook
    returns None, or the leaf itself (`lambda p: p.add_(p.grad, alpha=-lr)`, the SGD step
    of PyTorch's docstring, returns p); anything else must look like the leaf, is passed
    to the next hooks in its place, and is refused once they ran, as PyTorch does."""
    value = leaf
    for hook in tuple(leaf._post_accumulate_hooks.values()):
        _narrate(node, "post_accumulate")
        result = hook(value)
        if result is not None and result is not value:
            value = _checked(hook, value, result)
    if value is not leaf:
        raise RuntimeError(errors.POST_ACCUMULATE_HOOK_RESULT)


def _narrate(node, kind):
    if seams.recorder is not None:
        seams.recorder.hook_called(node, kind)


def _checked_node_result(hook, original, result):
    """PyTorch's checks of what a node's hook returned: a tuple with a gradient (or None)
    for each one it was given, None staying None, each like the gradient it replaces."""
    if not isinstance(result, tuple):
        raise TypeError(errors.NODE_HOOK_NOT_A_TUPLE.format(kind=type(result).__name__))
    if len(result) != len(original):
        raise RuntimeError(errors.NODE_HOOK_COUNT.format(
            name=getattr(hook, "__name__", type(hook).__name__), got=len(result),
            expected=len(original)))
    for old, new in zip(original, result):
        if old is None and new is not None:
            raise RuntimeError(errors.NODE_HOOK_REPLACED_NONE)
        if old is not None and new is not None:
            _checked(hook, old, new)
    return result


def _checked(hook, original, result):
    """PyTorch's checks of what a tensor hook returned: a tensor like the gradient."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if not isinstance(result, type(original)):
        raise TypeError(errors.HOOK_NOT_A_TENSOR.format(kind=type(result).__name__))
    if result.shape != original.shape:
        raise RuntimeError(errors.HOOK_CHANGED_SIZE.format(
            name=name, expected=list(original.shape), got=list(result.shape)))
    if result.dtype is not original.dtype:
        raise RuntimeError(errors.HOOK_CHANGED_TYPE.format(
            name=name, expected=original._type_description().split()[0],
            got=result._type_description().split()[0]))
    return result


# --- around every saved tensor ------------------------------------------------------------

# The (pack_hook, unpack_hook) pairs of the saved_tensors_hooks blocks open, innermost last.
saved_tensors_hooks_stack = []
# The error messages of the disable_saved_tensors_hooks blocks open.
hooks_disabled = []


class saved_tensors_hooks:
    """Pack every tensor saved for backward with `pack_hook`; unpack with `unpack_hook`.

    `pack_hook(tensor)` runs when an op saves a tensor and may return anything;
    `unpack_hook(packed)` runs when backward needs it and must return a tensor
    equal to the one saved.  Nested blocks: the innermost pair wins.

    Example::

        >>> import minigrad as torch
        >>> log = []
        >>> def pack(t): log.append("pack"); return t
        >>> def unpack(t): log.append("unpack"); return t
        >>> a = torch.ones(3, requires_grad=True)
        >>> with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        ...     y = a.exp()
        >>> y.sum().backward()
        >>> log
        ['pack', 'unpack']
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if hooks_disabled:
            raise RuntimeError(hooks_disabled[-1])
        saved_tensors_hooks_stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc_info):
        saved_tensors_hooks_stack.pop()
        return False


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message="saved tensors hooks are disabled"):
    """Within this block, registering saved tensors hooks raises `error_message` (so does
    entering the block while hooks are active)."""
    if saved_tensors_hooks_stack:
        raise RuntimeError(error_message)
    hooks_disabled.append(error_message)
    try:
        yield
    finally:
        hooks_disabled.pop()
