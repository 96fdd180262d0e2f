"""torch.nn.Parameter: a tensor marked as a model's weight.  minigrad has no nn.Module to
collect parameters, so a Parameter is simply a leaf that requires grad by default, shown
as "Parameter containing:" -- what code that keeps its weights in Parameters needs.

Example::

    >>> import minigrad as torch
    >>> w = torch.nn.Parameter(torch.ones(2) * 0.5)
    >>> w
    Parameter containing:
    tensor([0.5000, 0.5000], requires_grad=True)
    >>> w.is_leaf, type(w * 2).__name__
    (True, 'Tensor')
"""
from ..tensor import Tensor


class Parameter(Tensor):
    """A leaf on `data`'s elements (shared, as PyTorch's), requiring grad unless told not
    to.  What is computed from it is a plain Tensor."""

    __slots__ = ()

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            data = Tensor._make(Tensor([])._data)
        self._init_from(data._data, requires_grad)
        self._version_counter = data.detach()._version_counter

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()
