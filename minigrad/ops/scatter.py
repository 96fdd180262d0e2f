"""x.scatter(dim, index, src) and x.scatter_add(dim, index, src): write (or add) src's
elements into a copy of x at the positions index gives along dim -- gather's inverse:
with dim 1, out[i][index[i][j]] = src[i][j].  And x.index_add(dim, index, source), which
adds whole slices.  (pieces.py has the zeros-based forms that gather's and max's
backwards use.)"""
from .. import backend, dtypes
from .builtin import BuiltinFunction
from .shape import normalize_dim
from .pieces import Gather, IndexSelect, _along


def _spots(xp, index, dim):
    """The positions index names: an open grid over index's shape, index itself at dim."""
    spots = list(xp.ix_(*[xp.arange(n) for n in index.shape]))
    spots[dim] = index._data
    return tuple(spots)


def _check(name, x, dim, index, src):
    """PyTorch's checks, in its order."""
    if index.dtype is not dtypes.int64 and index.dtype is not dtypes.int32:
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")
    if src is not None and src.dtype is not x.dtype:
        raise RuntimeError(f"{name}(): Expected self.dtype to be equal to src.dtype")
    if index.ndim != x.ndim or (src is not None and index.ndim != src.ndim):
        raise RuntimeError("Index tensor must have the same number of dimensions as self "
                           "tensor")
    if index.numel() == 0:
        return
    if any(i > s for i, s in zip(index.shape, src.shape if src is not None else x.shape)) or \
            any(i > s for d, (i, s) in enumerate(zip(index.shape, x.shape)) if d != dim):
        raise RuntimeError(
            f"Expected index {list(index.shape)} to be no larger than self {list(x.shape)} "
            f"apart from dimension {dim}" + (f" and to be no larger size than src "
                                             f"{list(src.shape)}"
                                       if src is not None else ""))
    bad = (index._data < -x.shape[dim]) | (index._data >= x.shape[dim])
    if bad.any():
        raise RuntimeError(f"index {int(index._data[bad][0])} is out of bounds for dimension "
                           f"{dim} with size {x.shape[dim]}")


class Scatter(BuiltinFunction):
    """out = x with src's elements written at index along dim (the last write wins where
    index repeats);  dx = g with 0 where written,  dsrc = g gathered at index."""

    node_name = "ScatterBackward0"
    nondifferentiable_args = (2,)          # the index

    @staticmethod
    def forward(ctx, x, dim, index, src):
        ctx.dim = dim = normalize_dim(dim, x.ndim)
        _check("scatter", x, dim, index, src)
        ctx.save_for_backward(index)
        out = x._data.copy()
        if index.numel():
            cut = tuple(slice(0, n) for n in index.shape)
            out[_spots(x._xp, index, dim)] = src._data[cut]
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        grad_src = Gather.apply(grad, ctx.dim, index) if ctx.needs_input_grad[3] else None
        return ScatterValue.apply(grad, ctx.dim, index, 0), None, None, grad_src


class ScatterValue(BuiltinFunction):
    """out = x with `value` (a number) written at index along dim;  dx = g with 0 there."""

    node_name = "ScatterBackward1"
    nondifferentiable_args = (2,)

    @staticmethod
    def forward(ctx, x, dim, index, value):
        ctx.dim = dim = normalize_dim(dim, x.ndim)
        _check("scatter", x, dim, index, None)
        ctx.save_for_backward(index)
        out = x._data.copy()
        if index.numel():
            out[_spots(x._xp, index, dim)] = value
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        return ScatterValue.apply(grad, ctx.dim, index, 0), None, None, None


class ScatterAddSource(BuiltinFunction):
    """out = x with src's elements added at index along dim (repeats add up);
    dx = g,  dsrc = g gathered at index."""

    node_name = "ScatterAddBackward0"
    nondifferentiable_args = (2,)

    @staticmethod
    def forward(ctx, x, dim, index, src):
        from .. import backend
        ctx.dim = dim = normalize_dim(dim, x.ndim)
        _check("scatter_add", x, dim, index, src)
        ctx.save_for_backward(index)
        out = x._data.copy()
        if index.numel():
            cut = tuple(slice(0, n) for n in index.shape)
            backend.scatter_add(out, _spots(x._xp, index, dim), src._data[cut])
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        grad_src = Gather.apply(grad, ctx.dim, index) if ctx.needs_input_grad[3] else None
        return grad, None, None, grad_src


class IndexAddSource(BuiltinFunction):
    """out = x with alpha·source's slices added at index along dim (x.index_add);
    dx = g,  dsource = alpha · g's slices at index (index_select)."""

    node_name = "IndexAddBackward0"
    nondifferentiable_args = (2,)          # the index

    @staticmethod
    def forward(ctx, x, dim, index, source, alpha=1):
        ctx.dim = dim = normalize_dim(dim, x.ndim)
        _check_index_add(x, dim, index, source)
        ctx.alpha, ctx.source_shape = alpha, source.shape
        ctx.save_for_backward(index)
        out = x._data.copy()
        added = source._data if alpha == 1 else alpha * source._data
        if not x.ndim:
            return x._new(out + added.sum())
        backend.scatter_add(out, _along(dim, index._data.reshape(-1)),
                            added.reshape(out[_along(dim, index._data.reshape(-1))].shape))
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        grad_source = None
        if ctx.needs_input_grad[3]:
            picked = IndexSelect.apply(grad, ctx.dim, index) if grad.ndim else grad
            grad_source = (picked if ctx.alpha == 1 else picked * ctx.alpha).reshape(
                ctx.source_shape)
        return grad, None, None, grad_source, None


def _check_index_add(x, dim, index, source):
    """PyTorch's checks of index_add's index and source, in its order."""
    if index.ndim > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: "
                         f"{index.ndim} with type: {dtypes.legacy_name(index.dtype)} and size: "
                         f"{list(index.shape)}")
    if index.dtype not in (dtypes.int64, dtypes.int32):
        raise RuntimeError("index_add_(): Expected dtype int32/int64 for index but got: "
                           f"{dtypes.legacy_name(index.dtype)}")
    if source.ndim and dim >= source.ndim:
        raise RuntimeError(f"index_add_(): Indexing dim {dim} is out of bounds of the source "
                           f"tensor with dim {source.ndim}")
    size = source.shape[dim] if source.ndim else 1
    if index.numel() != size:
        raise RuntimeError(f"index_add_(): Number of indices ({index.numel()}) should be equal "
                           f"to source.size(dim): ({size}), for dim: {dim}")
    if source.dtype is not x.dtype:
        raise RuntimeError(f"index_add_(): self ({dtypes.legacy_name(x.dtype)}) and source "
                           f"({dtypes.legacy_name(source.dtype)}) must have the same scalar type")
    if source.ndim and any(a != b for d, (a, b) in enumerate(zip(x.shape, source.shape))
                           if d != dim) or source.ndim not in (0, x.ndim):
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(x.shape)} "
                           f"source.shape = {list(source.shape)}")
    length = x.shape[dim] if x.ndim else 1
    bad = (index._data < -length) | (index._data >= length)
    if bad.any():
        raise RuntimeError(f"index {int(index._data[bad][0])} is out of bounds for dimension "
                           f"{dim} with size {length}")
