"""The hooks the engine runs around a node (lesson 08), in PyTorch's order.

Before the node: the tensor hooks of its outputs (in the order they were
registered), then `retain_grad`, then the node's own pre-hooks.  After it: the
node's post-hooks.  A hook may return a new gradient, which must look like the one
it replaces.  A leaf's post-accumulate-grad hooks run last, from AccumulateGrad (node.py).
"""
from .. import tracing
from . import narration


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
        raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def _narrate(node, kind):
    if tracing.active is not None:
        narration.hook_called(node, kind)


def _checked_node_result(hook, original, result):
    """PyTorch's checks of what a node's hook returned: a tuple with a gradient (or None)
    for each one it was given, None staying None, each like the gradient it replaces."""
    if not isinstance(result, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
    if len(result) != len(original):
        raise RuntimeError(
            f"hook '{getattr(hook, '__name__', type(hook).__name__)}' has returned an incorrect "
            f"number of values (got {len(result)}, but expected {len(original)})")
    for old, new in zip(original, result):
        if old is None and new is not None:
            raise RuntimeError("can't replace a None gradient with a non-None value")
        if old is not None and new is not None:
            _checked(hook, old, new)
    return result


def _checked(hook, original, result):
    """PyTorch's checks of what a tensor hook returned: a tensor like the gradient."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if not getattr(result, "_is_minigrad_tensor", False):
        raise TypeError(
            f"expected Variable, but hook returned '{type(result).__name__}'. A tensor "
            "hook must return a tensor (the new gradient) or None.")
    if result.shape != original.shape:
        raise RuntimeError(
            f"hook '{name}' has changed the size of value: the gradient had shape "
            f"{list(original.shape)} and the hook returned shape {list(result.shape)}.")
    if result.dtype is not original.dtype:
        raise RuntimeError(
            f"hook '{name}' has changed the type of value (was "
            f"{original._type_description().split()[0]} got "
            f"{result._type_description().split()[0]})")
    return result
