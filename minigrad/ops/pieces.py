"""Ops that cut a tensor into views (split, chunk, unbind, narrow, movedim) and ops that
pick or rearrange its elements into a copy (gather, index_select, repeat, flip, roll,
tril, triu); diagonals are in diagonals.py.

The views share their base's data and version counter (`x._view`), as in PyTorch.
"""

from .. import backend
from ..surface import dtypes
from .builtin import BuiltinFunction
from .shape import normalize_dim
from .combine import Cat, Stack


def _along(dim, piece):
    """The key that takes `piece` (an int or a slice) along `dim`."""
    return (slice(None),) * dim + (piece,)


class SplitWithSizes(BuiltinFunction):
    """outs = consecutive pieces of x along `dim`, of the given sizes (views);  dx = the
    pieces' gradients joined again (cat)."""

    node_name = "SplitWithSizesBackward0"

    @staticmethod
    def forward(ctx, x, sizes, dim):
        ctx.dim = dim = normalize_dim(dim, x.ndim)
        if x.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        length = x.shape[dim]
        if sum(sizes) != length or any(s < 0 for s in sizes):
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {length} (input "
                f"tensor's size at dimension {dim}), but got split_sizes={list(sizes)}")
        starts = [sum(sizes[:i]) for i in range(len(sizes))]
        return tuple(x._view(x._data[_along(dim, slice(s, s + n))])
                     for s, n in zip(starts, sizes))

    @staticmethod
    def backward(ctx, *grads):
        return Cat.apply(ctx.dim, *grads), None, None


class Split(SplitWithSizes):
    """split(x, n): pieces of n elements (the last may be shorter)."""

    node_name = "SplitBackward0"


class UnsafeSplitWithSizes(SplitWithSizes):
    """unsafe_split_with_sizes: SplitWithSizes's pieces as tensors of their own (the same
    memory, but not views: each has its own version counter, none is refused in place)."""

    node_name = "UnsafeSplitWithSizesBackward0"

    @staticmethod
    def forward(ctx, x, sizes, dim):
        return tuple(x._new(view._data) for view in SplitWithSizes.forward(ctx, x, sizes, dim))


class UnsafeSplit(UnsafeSplitWithSizes):
    """unsafe_split(x, n) and unsafe_chunk."""

    node_name = "UnsafeSplitBackward0"


def split_sizes(length, size):
    """The piece sizes of split(size) along a dim of `length`: PyTorch's rule."""
    if size == 0 and length != 0:
        raise RuntimeError(
            f"split_size can only be 0 if dimension size is 0, but got dimension size of {length}")
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
    count = max(-(-length // size), 1) if size else 1
    return [min(size, length - i * size) for i in range(count)]


class Unbind(BuiltinFunction):
    """outs = x[i] along `dim` for every i (views);  dx = the gradients stacked again."""

    node_name = "UnbindBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        if x.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        ctx.dim = dim = normalize_dim(dim, x.ndim)
        return tuple(x._view(x._data[_along(dim, i) + (Ellipsis,)]) for i in range(x.shape[dim]))

    @staticmethod
    def backward(ctx, *grads):
        return Stack.apply(ctx.dim, *grads), None


def refuse_inplace(outputs, name):
    """Split / unbind outputs that require grad may not change in place (PyTorch's rule)."""
    for nr, out in enumerate(outputs):
        if out.requires_grad:
            out._view_made_by = (name, nr, "one of many")    # (tensor_inplace's messages)
    return outputs


class Gather(BuiltinFunction):
    """out[i][j] = x[index[i][j]][j] (dim 0);  dx = g scatter-added back at index."""

    node_name = "GatherBackward0"
    nondifferentiable_args = (2,)          # the index

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.dim = dim = normalize_dim(dim, x.ndim)
        if index.dtype is not dtypes.int64 and index.dtype is not dtypes.int32:
            raise RuntimeError("gather(): Expected dtype int32/int64 for index")
        if index.ndim != x.ndim:
            raise RuntimeError("Index tensor must have the same number of dimensions as input "
                               "tensor")
        bad = (index._data < 0) | (index._data >= x.shape[dim])
        if bad.any():
            raise RuntimeError(f"index {int(index._data[bad][0])} is out of bounds for "
                               f"dimension {dim} with size {x.shape[dim]}")
        ctx.shape = x.shape
        ctx.save_for_backward(index, x)    # x only for its version check, as PyTorch saves it
        rows = tuple(slice(None) if d == dim else slice(0, s) for d, s in enumerate(index.shape))
        return x._new(x._xp.take_along_axis(x._data[rows], index._data, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        index, _ = ctx.saved_tensors
        return ScatterAdd.apply(grad, ctx.shape, ctx.dim, index), None, None


class ScatterAdd(BuiltinFunction):
    """out = zeros(shape) with g added at index along dim (Gather's backward);  dg = h gathered."""

    node_name = "ScatterAddBackward0"
    nondifferentiable_args = (3,)          # the index

    @staticmethod
    def forward(ctx, grad, shape, dim, index):
        ctx.dim = dim
        ctx.save_for_backward(index)
        xp = grad._xp
        out = xp.zeros(shape, grad._data.dtype)
        spots = list(xp.ix_(*[xp.arange(n) for n in index.shape]))   # an open grid
        spots[dim] = index._data
        backend.scatter_add(out, tuple(spots), grad._data)
        return grad._new(out)

    @staticmethod
    def backward(ctx, h):
        (index,) = ctx.saved_tensors
        return Gather.apply(h, ctx.dim, index), None, None, None


class ScatterOnZeros(ScatterAdd):
    """out = zeros(shape).scatter(dim, index, g), for an index that never repeats (max/min
    along a dim's backward): ScatterAdd's numbers, PyTorch's node (ScatterBackward0)."""

    node_name = "ScatterBackward0"


class IndexSelect(BuiltinFunction):
    """out = x's slices at `index` along dim;  dx = g index-added back."""

    node_name = "IndexSelectBackward0"
    nondifferentiable_args = (2,)          # the index

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.dim = dim = normalize_dim(dim, x.ndim)
        if index.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        if index.dtype not in (dtypes.int64, dtypes.int32):
            raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
        size = x.shape[dim] if x.ndim else 1
        if ((index._data < 0) | (index._data >= size)).any():
            raise IndexError("index out of range in self")
        ctx.shape = x.shape
        ctx.save_for_backward(index)
        # numpy's take refuses int64 indices where its platform int is int32 (Pyodide)
        positions = index._data.reshape(-1).astype(x._xp.intp, copy=False)
        return x._new(x._xp.take(x._data, positions, axis=dim if x.ndim else None)
                      .reshape(x.shape[:dim] + (index.numel(),) * (x.ndim > 0) + x.shape[dim + 1:]))

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        return IndexAdd.apply(grad, ctx.shape, ctx.dim, index), None, None


class IndexFill(BuiltinFunction):
    """out = x with `value` in the slices at index along dim;  dx = g with zeros there."""

    node_name = "IndexFillBackward0"
    nondifferentiable_args = (2,)          # the index

    @staticmethod
    def forward(ctx, x, dim, index, value):
        ctx.dim = dim = normalize_dim(dim, x.ndim)
        if index.dtype is not dtypes.int64:
            raise IndexError("index_fill_(): Expected dtype int64 for index.")
        if index.ndim > 1:
            raise RuntimeError("Index has to be a vector/scalar")
        size = x.shape[dim] if x.ndim else 1
        bad = (index._data < -size) | (index._data >= size)
        if bad.any():
            raise IndexError(f"index {int(index._data[bad][0])} is out of bounds for dimension "
                             f"{dim} with size {size}")
        ctx.save_for_backward(index)
        out = x._data.copy()
        out[_along(dim, index._data.reshape(-1))] = value
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        (index,) = ctx.saved_tensors
        return IndexFill.apply(grad, ctx.dim, index, 0), None, None, None


class IndexAdd(BuiltinFunction):
    """out = zeros(shape) with g's slices added at index along dim;  dg = h index-selected."""

    node_name = "IndexAddBackward0"
    nondifferentiable_args = (3,)          # the index

    @staticmethod
    def forward(ctx, grad, shape, dim, index):
        ctx.dim = dim
        ctx.save_for_backward(index)
        xp = grad._xp
        out = xp.zeros(shape, grad._data.dtype)
        if not shape:
            return grad._new(out + grad._data.sum())
        backend.scatter_add(out, _along(dim, index._data.reshape(-1)), grad._data)
        return grad._new(out)

    @staticmethod
    def backward(ctx, h):
        (index,) = ctx.saved_tensors
        return IndexSelect.apply(h, ctx.dim, index), None, None, None


class Repeat(BuiltinFunction):
    """out = x tiled `repeats` times along each dim;  dx = g summed over the copies."""

    node_name = "RepeatBackward0"

    @staticmethod
    def forward(ctx, x, repeats):
        if len(repeats) < x.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than "
                               "number of dimensions of tensor")
        padded = (1,) * (len(repeats) - x.ndim) + tuple(x.shape)
        sizes = [size * times for size, times in zip(padded, repeats)]
        if any(size < 0 for size in sizes):
            raise RuntimeError("Trying to create tensor with negative dimension "
                               f"{min(sizes)}: {sizes}")
        ctx.shape, ctx.repeats = x.shape, repeats
        return x._new(x._xp.tile(x._data, repeats))

    @staticmethod
    def backward(ctx, grad):
        # PyTorch's repeat_backward, op for op (so a double backward records its nodes)
        if 0 in ctx.repeats:
            return grad._new(grad._xp.zeros(ctx.shape, grad._data.dtype)), None
        lead = len(ctx.repeats) - len(ctx.shape)
        for _ in range(lead):
            grad = grad.sum(0)
        split, copies_dims = _copies_split(ctx.repeats[lead:], ctx.shape)
        return (grad.reshape(split).sum(copies_dims) if copies_dims else grad), None


def _copies_split(repeats, shape):
    """The shape that pairs each repeated dim as (copies, size) (size alone where copies is
    1), and where the copies dims are in it: one reshape and one sum undo repeat()."""
    split, copies_dims = [], []
    for copies, size in zip(repeats, shape):
        if copies != 1:
            split.append(copies)
            copies_dims.append(len(split) - 1)
        split.append(size)
    return split, tuple(copies_dims)


class Flip(BuiltinFunction):
    """out = x reversed along `dims`;  dx = g reversed back."""

    node_name = "FlipBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        ctx.dims = tuple(normalize_dim(d, x.ndim) for d in dims)
        if len(set(ctx.dims)) < len(ctx.dims):
            raise RuntimeError(f"dims has duplicates, original flip dims size={len(dims)}, "
                               f"but unique flip dims size={len(set(ctx.dims))}")
        # copy(), not ascontiguousarray: that keeps a flipped view of one element (a view!)
        return x._new(x._xp.flip(x._data, ctx.dims).copy())

    @staticmethod
    def backward(ctx, grad):
        return Flip.apply(grad, ctx.dims), None


class Roll(BuiltinFunction):
    """out = x shifted cyclically by `shifts` along `dims` (flattened when none);
    dx = g shifted back."""

    node_name = "RollBackward0"

    @staticmethod
    def forward(ctx, x, shifts, dims):
        if dims and len(shifts) != len(dims):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, "
                               f"dims:{len(dims)}")
        if dims and not x.ndim:
            raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
        ctx.shifts, ctx.dims = shifts, tuple(normalize_dim(d, x.ndim) for d in dims)
        data = x._xp.roll(x._data, shifts if dims else shifts[0], ctx.dims or None)
        return x._new(data)

    @staticmethod
    def backward(ctx, grad):
        return Roll.apply(grad, tuple(-s for s in ctx.shifts), ctx.dims), None, None


class Tril(BuiltinFunction):
    """out = x with the elements above diagonal k zeroed;  dx = g with them zeroed too."""

    node_name = "TrilBackward0"
    compute = "tril"

    @staticmethod
    def forward(ctx, x, diagonal=0):
        name = ctx._function_cls.compute
        if x.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
        ctx.diagonal = diagonal
        return x._new(getattr(x._xp, name)(x._data, diagonal))

    @staticmethod
    def backward(ctx, grad):
        return ctx._function_cls.apply(grad, ctx.diagonal), None


class Triu(Tril):
    """out = x with the elements below diagonal k zeroed;  dx = g with them zeroed too."""

    node_name = "TriuBackward0"
    compute = "triu"
