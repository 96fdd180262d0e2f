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
from ..surface.tensor import Tensor


class Parameter(Tensor):
    """A leaf on `data`'s elements (shared, as PyTorch's), requiring grad unless told not
    to.  What is computed from it is a plain Tensor."""

    __slots__ = ()
    # What is computed from a Parameter is a Tensor: the core makes new tensors with the
    # class of a tensor it holds (type(x)._make, x._new), here Tensor's.
    _make = _new = Tensor._make

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            data = Tensor._make(Tensor([])._data)
        self._data, self._requires_grad = data._data, requires_grad      # (a new leaf)
        self._grad = self._grad_fn = self._base = None
        self._output_nr = 0
        self._version_counter = data.detach()._version_counter

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()
