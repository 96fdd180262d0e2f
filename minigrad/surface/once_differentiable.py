"""once_differentiable: a custom backward that is not itself differentiable (lesson 12).

Its backward runs without recording; under create_graph its results hang from an error
node, so that only differentiating them again raises.  PyTorch keeps it in
torch.autograd.function, and so does minigrad (minigrad/autograd/function.py).
"""
import functools

from ..core.grad_mode import no_grad, state as modes
from ..core.tensor import TensorBase
from .custom_function import Function


def once_differentiable(backward):
    """Decorate a backward that is not itself differentiable: it runs without recording,
    and under create_graph its results differentiate into an error (PyTorch's Error node,
    with one edge per result)."""
    @functools.wraps(backward)
    def wrapper(ctx, *grad_outputs):
        with no_grad():
            results = backward(ctx, *grad_outputs)
        if not (modes.enabled and any(
                isinstance(g, TensorBase) and g.requires_grad for g in grad_outputs)):
            return results
        single = not isinstance(results, tuple)
        results = (results,) if single else results
        present = [r for r in results if r is not None]
        if not present:
            return results[0] if single else results
        # A None result gets an edge too (to nothing): a tensor that needs no gradient
        # stands in for it, and comes back as None.
        stand_in = present[0]._new(present[0]._xp.zeros(0, present[0]._data.dtype))
        missing = tuple(position for position, r in enumerate(results) if r is None)
        delayed = _DelayedError.apply(missing, *[
            stand_in if r is None else r.detach().requires_grad_() for r in results])
        return delayed[0] if single else delayed
    return wrapper


class _DelayedError(Function):
    """The results of a once_differentiable backward under create_graph: differentiating
    them again raises."""

    node_name = "torch::autograd::Error"

    @staticmethod
    def forward(ctx, missing, *results):
        return tuple(None if position in missing else r._alias()
                     for position, r in enumerate(results))

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")
