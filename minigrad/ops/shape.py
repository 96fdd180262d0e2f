"""Ops that rearrange elements: view/reshape, transpose, permute, squeeze,
unsqueeze, expand; and copies: clone, to(dtype/device), contiguous.  Also how ops
take a dim (`normalize_dim`, `normalize_dims`).

Views share their base's data *and version counter* (`x._view(array)`), so
an in-place change through a view is seen by the saved-tensor checks of the base.
"""
import math

import numpy as np

from .. import backend
from .builtin import BuiltinFunction


def normalize_dim(dim, ndim):
    """A dim in range(ndim), with PyTorch's IndexError otherwise."""
    low, high = (-ndim, ndim - 1) if ndim > 0 else (-1, 0)
    if not low <= dim <= high:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})")
    return dim % ndim if ndim > 0 else 0


def normalize_dims(dim, ndim):
    """None or () -> all dims; an int or a sequence -> a sorted tuple of dims
    (none for a 0-d tensor, which accepts dim 0 or -1 but has no dim to reduce)."""
    if isinstance(dim, (int, np.integer)):
        dim = (dim,)
    if not dim:                                 # None, or an empty list: all dims, as in PyTorch
        return tuple(range(ndim))
    dims = sorted(normalize_dim(d, ndim) for d in dim)
    for first, second in zip(dims, dims[1:]):
        if first == second:
            raise RuntimeError(f"dim {first} appears multiple times in the list of dims")
    return tuple(dims) if ndim > 0 else ()


def check_expandable(size, shape):
    """sum_to_size's size must broadcast to the tensor's shape."""
    lead = len(shape) - len(size)
    if lead < 0 or any(s != 1 and s != shape[lead + i] for i, s in enumerate(size)):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")


def check_flatten_dims(start_dim, end_dim, ndim):
    """flatten's dims, in range and in order."""
    start, end = normalize_dim(start_dim, ndim), normalize_dim(end_dim, ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    return start, end


def infer_shape(shape, numel):
    """Resolve one -1 in `shape`; PyTorch's error when the sizes do not fit."""
    shape = tuple(int(s) for s in shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    if math.prod(shape) != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


class View(BuiltinFunction):
    """out = x seen with another shape (shares data);  dx = g reshaped back."""

    node_name = "ViewBackward0"

    @staticmethod
    def forward(ctx, x, shape, must_be_view=True):
        shape = infer_shape(shape, x.numel())
        ctx.shape = x.shape
        data = x._data.reshape(shape)
        if x._xp.may_share_memory(data, x._data) or data.size == 0:
            return x._view(data)
        if must_be_view:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least "
                "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                "instead.")
        ctx.copied = True
        return x._new(data)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None, None


class ReshapeAlias(View):
    """reshape() of a non-contiguous tensor that can still be seen as a view."""

    node_name = "ReshapeAliasBackward0"


class ReshapeCopy(View):
    """reshape() of a non-contiguous tensor: a copy, not a view."""

    node_name = "UnsafeViewBackward0"


class Transpose(BuiltinFunction):
    """out = x with dims d0 and d1 swapped (a view);  dx = g with them swapped back."""

    node_name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        ctx.dims = (normalize_dim(dim0, x.ndim), normalize_dim(dim1, x.ndim))
        return x._view(x._data.swapaxes(*ctx.dims))

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(*ctx.dims), None, None


class T(BuiltinFunction):
    """out = xᵀ for x of at most 2 dims (x.t());  dx = gᵀ."""

    node_name = "TBackward0"
    method = "t"                    # for messages (t_ shares this forward)

    @staticmethod
    def forward(ctx, x):
        if x.ndim > 2:
            raise RuntimeError(f"{ctx._function_cls.method}() expects a tensor with <= 2 "
                               f"dimensions, but self is {x.ndim}D")
        return x._view(x._data.T)

    @staticmethod
    def backward(ctx, grad):
        return grad.t()


class Permute(BuiltinFunction):
    """out = x with its dims reordered (a view);  dx = g with the inverse order."""

    node_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        if len(dims) == x.ndim:
            dims = tuple(normalize_dim(d, x.ndim) for d in dims)
        if len(dims) == x.ndim and len(set(dims)) < len(dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        if sorted(dims) != list(range(x.ndim)):
            raise RuntimeError(
                "permute(sparse_coo): number of dimensions in the tensor input does not match "
                "the length of the desired ordering of dimensions i.e. input.dim() = "
                f"{x.ndim} is not equal to len(dims) = {len(dims)}")
        ctx.inverse = tuple(dims.index(d) for d in range(len(dims)))
        return x._view(x._data.transpose(dims))

    @staticmethod
    def backward(ctx, grad):
        return grad.permute(*ctx.inverse), None


class Squeeze(BuiltinFunction):
    """out = x without its size-1 dims (a view);  dx = g with each removed dim put back
    by unsqueeze (PyTorch's unsqueeze_to: g itself when no dim was removed)."""

    node_name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dim=None):
        if dim is None:
            ctx.removed = [d for d, s in enumerate(x.shape) if s == 1]
            return x._view(x._data.reshape([s for s in x.shape if s != 1]))
        dims = {normalize_dim(d, x.ndim) for d in (dim if isinstance(dim, (tuple, list)) else
                                                       (dim,))}
        ctx.removed = sorted(d for d in dims if x.ndim and x.shape[d] == 1)
        if not ctx.removed:
            return x._view(x._data)
        return x._view(x._data.squeeze(tuple(ctx.removed)))

    @staticmethod
    def backward(ctx, grad):
        for dim in ctx.removed:
            grad = grad.unsqueeze(dim)
        return grad, None


class SqueezeDim(Squeeze):
    """squeeze(dim) (PyTorch names this node SqueezeBackward1)."""

    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    """squeeze((dim, ...)) (SqueezeBackward2)."""

    node_name = "SqueezeBackward2"


class Unsqueeze(BuiltinFunction):
    """out = x with a new size-1 dim at `dim` (a view);  dx = g squeezed there."""

    node_name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = normalize_dim(dim, x.ndim + 1)
        return x._view(x._xp.expand_dims(x._data, ctx.dim))

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim), None


def expanded_shape(old, shape):
    """The shape expand(shape) gives a tensor of shape `old` (-1 keeps a size); PyTorch's
    error where a size that is not 1 would have to change."""
    lead, target = len(shape) - len(old), list(shape)
    for i, size in enumerate(target):
        if i < lead and size == -1:
            raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a "
                               f"leading, non-existing dimension {i}")
        if size < -1:
            raise RuntimeError(f"numel: integer multiplication overflow. minigrad hint: the "
                               f"size {size} at dim {i} is negative; -1 keeps a dim's size.")
    for i, size in enumerate(old):
        if target[lead + i] == -1:
            target[lead + i] = size
        elif size != 1 and size != target[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the "
                f"existing size ({size}) at non-singleton dimension {lead + i}.  Target "
                f"sizes: {list(shape)}.  Tensor sizes: {list(old)}")
    return tuple(target)


class Expand(BuiltinFunction):
    """out = x broadcast to `shape` (a view, no copy);  dx = g summed back to x's shape."""

    node_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        shape, old = tuple(map(int, shape)), x._data.shape
        if len(shape) < len(old):
            raise RuntimeError(
                f"expand({_type_str(x)}{{{list(old)}}}, size={list(shape)}): the number "
                f"of sizes provided ({len(shape)}) must be greater or equal to the number of "
                f"dimensions in the tensor ({len(old)})")
        lead, target = len(shape) - len(old), expanded_shape(old, shape)   # lead: new dims
        ctx.shape = x.shape
        if target[:lead] == (1,) * lead and target[lead:] == old:
            return x._view(x._data[(None,) * lead + (Ellipsis,)])   # nothing repeated: writable
        return x._view(x._xp.broadcast_to(x._data, target))

    @staticmethod
    def backward(ctx, grad):
        return grad.sum_to_size(ctx.shape), None


def _type_str(x):
    return "torch." + {"float32": "Float", "float64": "Double"}.get(x.dtype.name, "") + "Tensor"


class Clone(BuiltinFunction):
    """out = a copy of x with its own storage;  dx = g."""

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, x):
        return x._new(x._xp.array(x._data, copy=True, order="C"))

    @staticmethod
    def backward(ctx, grad):
        return grad


class ToCopy(BuiltinFunction):
    """out = x converted to another dtype and/or device;  dx = g converted back."""

    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, x, dtype, device):
        ctx.dtype, ctx.device = x.dtype, x.device
        data = backend.move(x._data, device) if device != x.device else x._data
        return x._new(data.astype(dtype.numpy, copy=data is x._data))

    @staticmethod
    def backward(ctx, grad):
        return grad.to(dtype=ctx.dtype, device=ctx.device), None, None


class ConstantPad(BuiltinFunction):
    """out = x surrounded by `value`: pad = (before, after) for the last dim, then for
    the dim before it ... (a negative amount cuts);  dx = g's part where x was."""

    node_name = "ConstantPadNdBackward0"

    @staticmethod
    def forward(ctx, x, pad, value=0):
        if len(pad) % 2:
            raise RuntimeError("Padding length must be divisible by 2")
        if len(pad) // 2 > x.ndim:
            raise RuntimeError("Padding length should be less than or equal to two times the "
                               f"input dimension but got padding length {len(pad)} and input "
                               f"of dimension {x.ndim}")
        amounts = [(0, 0)] * (x.ndim - len(pad) // 2) + \
            [(pad[i], pad[i + 1]) for i in reversed(range(0, len(pad), 2))]
        ctx.inside = tuple(slice(max(b, 0), n + max(b, 0) + min(b, 0) + min(a, 0))
                           for (b, a), n in zip(amounts, x.shape))
        ctx.cut = tuple(slice(-min(b, 0), n + min(a, 0) if a < 0 else None)
                        for (b, a), n in zip(amounts, x.shape))
        ctx.shape = x.shape
        shape = tuple(n + b + a for (b, a), n in zip(amounts, x.shape))
        out = x._xp.full(shape, value, dtype=x._data.dtype)
        out[ctx.inside] = x._data[ctx.cut]
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        part = grad[ctx.inside]
        return ConstantPad.apply(part, _undo(ctx.cut, ctx.shape), 0), None, None


def _undo(cut, shape):
    """The pad that puts back, as zeros, what a negative pad cut."""
    pad = []
    for piece, n in reversed(list(zip(cut, shape))):
        stop = n if piece.stop is None else piece.stop
        pad += [piece.start, n - stop]
    return tuple(pad)
