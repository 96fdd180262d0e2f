"""Ops that order elements: sort, topk, median and nanmedian.

Each picks values by position, like max(dim): the backward puts each gradient
back where its value came from (a scatter into zeros, PyTorch's ScatterBackward0).

# NOTE: ties.  minigrad always sorts stably (equal values keep their order, for
# descending too), which is what PyTorch does for `stable=True`.  PyTorch's default
# sort and its topk may order ties differently; the values are the same, but the
# indices (and so where the gradient goes) can differ.  With topk(sorted=False)
# PyTorch returns the k elements in an order it does not document; minigrad
# returns them sorted.  median and nanmedian pick from the same stable order; PyTorch
# picks with C++'s nth_element, which gave the same indices for every tie tried, but
# another one for a slice of NaN only (nanmedian).  mode gives the last position of its
# value, as PyTorch did in every case tried (but the first of a NaN mode).
"""
from .. import dtypes
from .builtin import BuiltinFunction
from .shape import normalize_dim
from .pieces import ScatterOnZeros
from .reduce import Max, MaxDim, picked_along


def stable_order(data, axis, descending, xp):
    """Indices that sort `data` along `axis`, ties in their original order.

    Descending: sort the reversed array ascending, then reverse the answer.  This keeps
    ties in order and puts NaN first, as PyTorch (plain negation would fail on bools,
    unsigned ints and NaN)."""
    if not descending:
        return xp.argsort(data, axis=axis, kind="stable")
    backwards = xp.argsort(xp.flip(data, axis), axis=axis, kind="stable")
    return data.shape[axis] - 1 - xp.flip(backwards, axis)


def sort_arguments(positional, dim, descending, stable, caller=()):
    """(dim, descending) of sort(dim, descending) or sort(dim=, descending=, stable=).

    PyTorch has two signatures: with `stable`, dim and descending are keywords only, and
    positional ones are refused (a TypeError).  `caller` names what came before them
    (("Tensor",) for torch.sort)."""
    if stable is not None and positional:
        got = ", ".join([*caller, *(type(v).__name__ for v in positional),
                         f"stable={type(stable).__name__}"])
        raise TypeError(
            f"sort() received an invalid combination of arguments - got ({got}), but "
            "expected one of:\n * (*, bool stable, int dim = -1, bool descending = False)\n"
            " * (int dim = -1, bool descending = False)\n"
            "minigrad hint: with stable=, give dim= and descending= by name too.")
    given = dict(zip(("dim", "descending"), positional))
    return given.get("dim", dim), given.get("descending", descending)


def _picked(ctx, x, dim, order):
    """(values, indices) of x at `order` along dim; the indices are not differentiable."""
    data = x._data.reshape(x.shape or (1,))         # a 0-d tensor: its one element
    values = x._xp.take_along_axis(data, order, axis=dim).reshape(order.shape if x.ndim else ())
    indices = x._new(order.reshape(values.shape).astype(dtypes.int64.numpy))
    ctx.mark_non_differentiable(indices)
    ctx.save_for_backward(indices)
    ctx.shape, ctx.dim = x.shape, dim
    return x._new(values), indices


def _put_back(ctx, grad):
    """zeros(x.shape).scatter(dim, indices, grad): each gradient where its value came from."""
    (indices,) = ctx.saved_tensors
    if not ctx.shape:                               # a 0-d tensor is its own sort
        return grad
    return ScatterOnZeros.apply(grad, ctx.shape, ctx.dim, indices)


class Sort(BuiltinFunction):
    """(values, indices) = x sorted along dim;  dx = g scattered back to the indices."""

    node_name = "SortBackward0"

    @staticmethod
    def forward(ctx, x, dim=-1, descending=False):
        dim = normalize_dim(dim, x.ndim)
        data = x._data.reshape(x.shape or (1,))
        return _picked(ctx, x, dim, stable_order(data, dim, descending, x._xp))

    @staticmethod
    def backward(ctx, grad, grad_indices):
        return _put_back(ctx, grad), None, None


class SortStable(Sort):
    """sort(..., stable=...): the same op; PyTorch names its node SortBackward1."""

    node_name = "SortBackward1"


class Topk(BuiltinFunction):
    """(values, indices) = the k largest (or smallest) of x along dim;
    dx = g scattered back to the indices, 0 elsewhere."""

    node_name = "TopkBackward0"

    @staticmethod
    def forward(ctx, x, k, dim=-1, largest=True):
        dim = normalize_dim(dim, x.ndim)
        if x.dtype is dtypes.bool:
            raise RuntimeError("topk does not support bool dtypes on CPU")
        data = x._data.reshape(x.shape or (1,))
        if not 0 <= k <= data.shape[dim]:
            raise RuntimeError("selected index k out of range")
        order = stable_order(data, dim, largest, x._xp)
        k = k if x.ndim else 1                      # a 0-d tensor gives its element for k=0 too
        first_k = tuple(slice(0, k) if d == dim else slice(None) for d in range(data.ndim))
        return _picked(ctx, x, dim, order[first_k])

    @staticmethod
    def backward(ctx, grad, grad_indices):
        return _put_back(ctx, grad), None, None, None


def lower_median(data, dim, skip_nan, xp):
    """The index along dim (kept as a dim of size 1) of the lower median of each slice: the
    element at (n - 1) // 2 in stable ascending order.  A NaN is larger than any number:
    median gives the first NaN of a slice that has one, nanmedian the median of the others
    (of all of them, when all are NaN)."""
    if data.shape[dim] == 0:
        raise IndexError(f"median(): Expected reduction dim {dim} to have non-zero size.")
    order = xp.argsort(data, axis=dim, kind="stable")              # NaN last, as in sort
    count = data.shape[dim]
    nans = xp.isnan(data).sum(axis=dim, keepdims=True) if data.dtype.kind == "f" else 0
    if skip_nan:
        position = xp.maximum((count - nans - 1) // 2, 0)
    else:
        position = xp.where(nans > 0, count - nans, (count - 1) // 2)
    one_each = order.shape[:dim] + (1,) + order.shape[dim + 1:]
    return xp.take_along_axis(order, xp.broadcast_to(xp.asarray(position), one_each), axis=dim)


def refuse_bool(x, name):
    """PyTorch's argmax and argmin refuse a bool tensor."""
    if x.dtype is dtypes.bool:
        raise RuntimeError(f"{name}(): does not support bool input")


def _not_for_bool(x, kernel):
    """PyTorch's error for a bool tensor given to a kernel without a bool version."""
    if x.dtype is dtypes.bool:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


class Median(Max):
    """out = the lower median of all elements (NaN if one is NaN);  dx = g shared evenly
    among the elements equal to it (Max's backward)."""

    node_name = "MedianBackward0"
    skip_nan = False

    @staticmethod
    def forward(ctx, x):
        _not_for_bool(x, "median_cpu")
        data = x._data.reshape(-1)
        if data.size == 0:
            result = x._new(x._xp.asarray(float("nan"), dtype=x._data.dtype))
        else:
            chosen = lower_median(data, 0, ctx._function_cls.skip_nan, x._xp)
            result = x._new(data[chosen].reshape(()))
        ctx.save_for_backward(x, result)
        return result


class Nanmedian(Median):
    """out = the lower median of the elements that are not NaN;  dx as Median's."""

    node_name = "NanmedianBackward0"
    skip_nan = True


class MedianDim(MaxDim):
    """(values, indices) = the lower median along `dim`;  dx = g at the chosen index, 0
    elsewhere (MaxDim's backward)."""

    node_name = "MedianBackward1"
    skip_nan = False

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        _not_for_bool(x, "median_out")
        dim = normalize_dim(dim, x.ndim)
        data = x._data.reshape(x.shape or (1,))
        chosen = lower_median(data, dim, ctx._function_cls.skip_nan, x._xp)
        return picked_along(ctx, x, data, dim, keepdim, chosen)


class Kthvalue(MaxDim):
    """(values, indices) = the k-th smallest along `dim` (k from 1);  dx = g at the chosen
    index, 0 elsewhere (MaxDim's backward)."""

    node_name = "KthvalueBackward0"

    @staticmethod
    def forward(ctx, x, k, dim=-1, keepdim=False):
        _not_for_bool(x, "kthvalue_cpu")
        dim = normalize_dim(dim, x.ndim)
        data = x._data.reshape(x.shape or (1,))
        if not 1 <= k <= data.shape[dim]:
            raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
        order = stable_order(data, dim, False, x._xp)
        kth = tuple(slice(k - 1, k) if d == dim else slice(None) for d in range(data.ndim))
        return picked_along(ctx, x, data, dim, keepdim, order[kth])

    @staticmethod
    def backward(ctx, grad, grad_indices):
        return MaxDim.backward(ctx, grad, grad_indices) + (None,)


class Mode(MaxDim):
    """(values, indices) = the most frequent value along `dim` (the smallest of equally
    frequent ones) and where it occurs last;  dx = g at that index (MaxDim's backward)."""

    node_name = "ModeBackward0"

    @staticmethod
    def forward(ctx, x, dim=-1, keepdim=False):
        dim = normalize_dim(dim, x.ndim)
        data, xp = x._data.reshape(x.shape or (1,)), x._xp
        if data.shape[dim] == 0:
            raise IndexError(f"mode(): Expected reduction dim {dim} to have non-zero size.")
        moved = xp.moveaxis(data, dim, -1)
        rows = moved.reshape(-1, moved.shape[-1])
        chosen = xp.zeros(rows.shape[0], dtype=dtypes.int64.numpy)
        for r, row in enumerate(rows):
            values, counts = xp.unique(row, return_counts=True)    # ascending
            mode = values[int(counts.argmax())]
            chosen[r] = int(xp.nonzero(xp.isnan(row) if mode != mode else row == mode)[0][-1])
        chosen = xp.moveaxis(chosen.reshape(moved.shape[:-1] + (1,)), -1, dim)
        return picked_along(ctx, x, data, dim, keepdim, chosen)


class NanmedianDim(MedianDim):
    """(values, indices) = the lower median along `dim` of the elements that are not NaN."""

    node_name = "NanmedianBackward1"
    skip_nan = True


class Unique(BuiltinFunction):
    """values = the distinct elements of x, sorted (with, when asked, the place of each
    element of x among them and how often each occurs);  no derivative: PyTorch records
    the node and refuses to run its backward."""

    node_name = "Unique2Backward0"

    @staticmethod
    def forward(ctx, x, return_inverse, return_counts):
        values, inverse, counts = x._xp.unique(x._data, return_inverse=True,
                                               return_counts=True)
        outputs = [x._new(values)]
        if return_inverse:
            outputs.append(x._new(inverse.reshape(x.shape).astype(x._xp.int64)))
        if return_counts:
            outputs.append(x._new(counts.astype(x._xp.int64)))
        ctx.mark_non_differentiable(*outputs[1:])
        return tuple(outputs) if len(outputs) > 1 else outputs[0]

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError("the derivative for '_unique2' is not implemented.")
