"""Reductions: sum, mean, max, min (over all elements or along dims).

The backward of a reduction puts the gradient back in the reduced dims
(`_unreduce`: unsqueeze, then expand to the input's shape).
"""

from .. import dtypes
from .builtin import BuiltinFunction
from .shape import Expand, Unsqueeze, normalize_dim, normalize_dims
from ._unrecorded import nothing_recorded
from .arithmetic import DivScalar
from .combine import MaskedFillTensor
from .pieces import ScatterOnZeros


def _unreduce(grad, shape, dims, keepdim):
    """Broadcast the gradient of a reduction back to the input's shape (a full reduction's
    0-dim gradient expands as it is, as in PyTorch)."""
    if not keepdim and grad.ndim:
        for d in dims:
            grad = Unsqueeze.apply(grad, d)
    return Expand.apply(grad, shape)


class Sum(BuiltinFunction):
    """out = Σ x over `dim` (all elements when dim is None);  dx = g, broadcast back."""

    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, x, dim=None, keepdim=False):
        ctx.shape, ctx.dims, ctx.keepdim = x.shape, normalize_dims(dim, x.ndim), keepdim
        data = x._data
        if not x.dtype.is_floating_point and x.dtype is not dtypes.int64:
            data = data.astype(dtypes.int64.numpy)      # sums of ints and bools are int64
        return x._new(data.sum(axis=ctx.dims, keepdims=keepdim))

    @staticmethod
    def backward(ctx, grad):
        return _unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim), None, None


class SumDim(Sum):
    """Sum along given dims (PyTorch names this node SumBackward1)."""

    node_name = "SumBackward1"


def cast_for_mean(x, dtype):
    """mean(dtype=...)'s input: x in that dtype, which must be a floating one."""
    if not dtype.is_floating_point:
        raise RuntimeError(
            "mean(): could not infer output dtype. Optional dtype must be either a floating "
            f"point or complex dtype. Got: {dtypes.legacy_name(dtype)}")
    return x.to(dtype)


class Mean(BuiltinFunction):
    """out = mean of x over `dim`;  dx = g / n, broadcast back."""

    node_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, x, dim=None, keepdim=False):
        if not x.dtype.is_floating_point:
            raise RuntimeError(
                "mean(): could not infer output dtype. Input dtype must be either a floating "
                f"point or complex dtype. Got: {dtypes.legacy_name(x.dtype)}")
        ctx.shape, ctx.dims, ctx.keepdim = x.shape, normalize_dims(dim, x.ndim), keepdim
        ctx.count = 1
        for d in ctx.dims:
            ctx.count *= x.shape[d]
        if ctx.count == 0:      # numpy would warn "Mean of empty slice"; PyTorch gives nan quietly
            return x._new(x._data.sum(axis=ctx.dims, keepdims=keepdim) * x._xp.nan)
        return x._new(x._data.mean(axis=ctx.dims, keepdims=keepdim).astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        if nothing_recorded():      # NOTE [backward on arrays]: expand and divide arrays
            g, xp = grad._data, grad._xp
            if not ctx.keepdim and g.ndim:
                g = xp.expand_dims(g, ctx.dims)
            return grad._new(xp.broadcast_to(g, ctx.shape) / ctx.count), None, None
        return DivScalar.apply(_unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim), ctx.count), None, None


class MeanDim(Mean):
    """Mean along given dims (PyTorch names this node MeanBackward1)."""

    node_name = "MeanBackward1"


class Max(BuiltinFunction):
    """out = max of all elements;  dx = g shared evenly among the maxima."""

    node_name = "MaxBackward1"
    pick = "max"

    @staticmethod
    def forward(ctx, x):
        if x.numel() == 0:
            raise RuntimeError(
                "max(): Expected reduction dim to be specified for input.numel() == 0. "
                "Specify the reduction dim with the 'dim' argument.")
        result = x._new(getattr(x._data, ctx._function_cls.pick)())
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors          # PyTorch's evenly_distribute_backward
        data, xp = x._data, x._xp
        is_extreme = x._new(xp.isnan(data) if xp.isnan(result._data) else data == result._data)
        zeros = x._new(xp.zeros_like(data))
        return MaskedFillTensor.apply(zeros, is_extreme, grad / is_extreme.sum())


class Min(Max):
    """out = min of all elements;  dx = g shared evenly among the minima."""

    node_name = "MinBackward1"
    pick = "min"


class MaxDim(BuiltinFunction):
    """(values, indices) = max along `dim`;  dx = g at the chosen index, 0 elsewhere."""

    node_name = "MaxBackward0"
    pick = "argmax"

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        dim = normalize_dim(dim, x.ndim)
        data = x._data.reshape(x.shape or (1,))         # a 0-d tensor: its one element
        chosen = x._xp.expand_dims(getattr(data, ctx._function_cls.pick)(axis=dim), dim)
        return picked_along(ctx, x, data, dim, keepdim, chosen)

    @staticmethod
    def backward(ctx, grad, grad_indices):
        (indices,) = ctx.saved_tensors
        if not ctx.shape:                               # a 0-d tensor is its own max
            return grad, None, None
        # PyTorch's value_selecting_reduction_backward: zeros.scatter(dim, indices, grad)
        if not ctx.keepdim:
            grad, indices = grad.unsqueeze(ctx.dim), indices.unsqueeze(ctx.dim)
        return ScatterOnZeros.apply(grad, ctx.shape, ctx.dim, indices), None, None


def picked_along(ctx, x, data, dim, keepdim, chosen):
    """(values, indices) of a reduction that picks one element along dim, at `chosen` (its
    index, dim kept); the indices are not differentiable, and are saved for backward."""
    values = x._xp.take_along_axis(data, chosen, axis=dim)
    if not keepdim or x.ndim == 0:
        chosen, values = chosen.squeeze(dim), values.squeeze(dim)
    indices = x._new(chosen.astype(dtypes.int64.numpy))
    ctx.mark_non_differentiable(indices)
    ctx.save_for_backward(indices)
    ctx.shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
    return x._new(values), indices


class MinDim(MaxDim):
    """(values, indices) = min along `dim`;  dx = g at the chosen index, 0 elsewhere."""

    node_name = "MinBackward0"
    pick = "argmin"
