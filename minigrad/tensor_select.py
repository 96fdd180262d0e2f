"""Tensor's methods that pick or place elements by index or mask: x.scatter(dim, index,
src or value) and x.scatter_add(dim, index, src) with their in-place forms
(ops/scatter.py); masked_select, nonzero, repeat_interleave and unique.  A mixin of
Tensor.

Example::

    >>> import minigrad as torch
    >>> torch.zeros(2, 3).scatter_(1, torch.tensor([[2], [0]]), 1.0)
    tensor([[0., 0., 1.],
            [1., 0., 0.]])
"""
import warnings

from . import arguments, dtypes
from .ops import index, inplace_unary, ordering, scatter
from .ops.arithmetic import is_tensor
from .ops.shape import normalize_dim


class TensorSelect:
    __slots__ = ()

    def scatter(self, dim, index, src=None, *, value=None, reduce=None):
        src = value if src is None else src
        if reduce is not None:
            return _reduced(self.clone(), dim, index, src, reduce)
        if is_tensor(src):
            return scatter.Scatter.apply(self, dim, index, src)
        return scatter.ScatterValue.apply(self, dim, index, src)

    def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        src = value if src is None else src
        if reduce is not None:
            return _reduced(self, dim, index, src, reduce)
        if is_tensor(src):
            return self._inplace(inplace_unary.ScatterInplace, dim, index, src)
        return self._inplace(inplace_unary.ScatterValueInplace, dim, index, src)

    def scatter_add(self, dim, index, src):
        return scatter.ScatterAddSource.apply(self, dim, index, src)

    def scatter_add_(self, dim, index, src):
        return self._inplace(inplace_unary.ScatterAddInplace, dim, index, src)


    def masked_select(self, mask):
        """The elements where mask is True, as a vector (MaskedSelectBackward0)."""
        return index.MaskedSelect.apply(self, mask)

    def nonzero(self, *, as_tuple=False):
        """The indices of the elements that are not zero: one row per element (as_tuple:
        one vector per dim).  No gradient."""
        found = self._xp.nonzero(self._data)
        if as_tuple:
            return tuple(self._new(i.astype(self._xp.int64)) for i in found)
        return self._new(self._xp.stack(found, axis=-1).astype(self._xp.int64).reshape(
            -1, self.ndim))

    def repeat_interleave(self, repeats, dim=None, *, output_size=None):
        """Each element repeated `repeats` times along dim (all elements, flattened, by
        default): a copy of an expand for a number, index_select for a tensor (PyTorch's
        nodes)."""
        x, dim = (self.reshape(-1), 0) if dim is None else (self, normalize_dim(dim, self.ndim))
        if (repeats._data < 0).any() if is_tensor(repeats) else repeats < 0:
            raise RuntimeError("Repeats must be non-negative")
        if is_tensor(repeats):
            _check_repeats(x, dim, repeats)
            picks = self._xp.repeat(self._xp.arange(x.shape[dim]), repeats._data.reshape(-1))
            return x.index_select(dim, self._new(picks.astype(self._xp.int64)))
        times = int(repeats)
        shape = list(x.shape[:dim + 1]) + [times] + list(x.shape[dim + 1:])
        try:
            copied = x.unsqueeze(dim + 1).expand(shape).clone()
        except MemoryError:
            raise RuntimeError(f"[enforce fail at alloc_cpu.cpp:127] err == 0. "
                               f"DefaultCPUAllocator: can't allocate memory: you tried to "
                               f"allocate {x.numel() * times * x.element_size()} bytes. Error "
                               f"code 12 (Cannot allocate memory)") from None
        return copied.view(x.shape[:dim] + (x.shape[dim] * times,) + x.shape[dim + 1:])

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        if dim is not None:
            raise NotImplementedError("minigrad: unique(dim=...) is not implemented")
        return ordering.Unique.apply(self, return_inverse, return_counts)


def _check_repeats(x, dim, repeats):
    """PyTorch's checks of a tensor of repeats, in its order."""
    if repeats.ndim > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    if repeats.ndim and repeats.numel() not in (1, x.shape[dim]):
        raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                           f"repeats.size(0) = {repeats.numel()} and input.size({dim}) = "
                           f"{x.shape[dim]}")
    if repeats.dtype not in (dtypes.int64, dtypes.int32):
        raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for '
                                  f"'{dtypes.legacy_name(repeats.dtype)}'")


def _reduced(x, dim, index, src, reduce):
    """scatter_(..., reduce="add"): PyTorch's deprecated form, here for "add" only."""
    if is_tensor(src):
        warnings.warn("The reduce argument of torch.scatter with Tensor src is deprecated and "
                      "will be removed in a future PyTorch release. Use torch.scatter_reduce "
                      "instead for more reduction options.", UserWarning,
                      stacklevel=arguments.callers_stacklevel())
    if reduce != "add":
        raise RuntimeError(f"reduce argument must be either add or multiply, got {reduce}"
                           if reduce != "multiply" else
                           "minigrad: scatter's reduce='multiply' is not implemented")
    if not is_tensor(src):
        src = x._new(x._xp.full(index.shape, src, dtype=x._data.dtype))
    return x.scatter_add_(dim, index, src)
