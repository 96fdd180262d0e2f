"""Indexing.  Basic indexing (ints, slices, None, ...) gives views that share
data and version counter; it is decomposed into Select / Slice / Unsqueeze
nodes as in PyTorch.  Integer-array or mask indexing copies (IndexBackward0)
and its backward scatter-adds, so repeated indices accumulate.
"""
import numpy as np

from .. import backend
from .builtin import BuiltinFunction
from .arithmetic import check_shapes_broadcast
from .arithmetic import is_tensor
from ._unrecorded import nothing_recorded
from .shape import Unsqueeze


class Slice(BuiltinFunction):
    """out = x[key] for a basic key (a view);  dx = g placed into zeros at key."""

    node_name = "SliceBackward0"

    @staticmethod
    def forward(ctx, x, key):
        ctx.shape, ctx.key = x.shape, key
        return x._view(x._data[key + (Ellipsis,)])      # "..." keeps 0-d results arrays

    @staticmethod
    def backward(ctx, grad):
        return EmbedInZeros.apply(grad, ctx.shape, ctx.key), None


class Select(Slice):
    """x[i] along one dim: the dim disappears."""

    node_name = "SelectBackward0"

    @staticmethod
    def backward(ctx, grad):
        return SelectEmbed.apply(grad, ctx.shape, ctx.key), None


class Alias(Slice):
    """x[...]: the same elements, a new view;  dx = g."""

    node_name = "AliasBackward0"

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class EmbedInZeros(BuiltinFunction):
    """out = zeros(shape) with g at key (the backward of Slice);  dg = gg[key]."""

    node_name = "SliceBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        out = grad._xp.zeros(shape, dtype=grad._data.dtype)
        out[key] = grad._data
        return grad._new(out)

    @staticmethod
    def backward(ctx, grad):
        return ctx._function_cls.picks.apply(grad, ctx.key), None, None


class SelectEmbed(EmbedInZeros):
    """The backward of Select (PyTorch's select_backward);  dg = gg selected again."""

    node_name = "SelectBackwardBackward0"


EmbedInZeros.picks, SelectEmbed.picks = Slice, Select


class Index(BuiltinFunction):
    """out = x[arrays] (a copy);  dx = g scatter-added at the indices."""

    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, x, key):
        key = key_on_device(key, x)
        ctx.shape, ctx.key = x.shape, key
        # PyTorch saves the indices, so a second backward through this node is refused
        ctx.save_for_backward(*[x._new(x._xp.asarray(c)) for c in key
                                if isinstance(c, list) or hasattr(c, "shape")])
        try:
            out = x._data[key]
            return x._new(out if out.flags.c_contiguous else out.copy(order="C"))  # as PyTorch's
        except IndexError as exc:
            raise IndexError(str(exc).replace("axis", "dimension")) from None

    @staticmethod
    def backward(ctx, grad):
        ctx.saved_tensors           # (the indices: raises if the graph was freed)
        if nothing_recorded():      # NOTE [backward on arrays]
            return grad._new(_index_grad(grad._xp, grad._data, ctx.shape, ctx.key)), None
        return IndexPutAccumulate.apply(grad, ctx.shape, ctx.key), None


def _index_grad(xp, g, shape, key):
    """zeros(shape) with g added at key (repeated indices add up)."""
    out = xp.zeros(shape, dtype=g.dtype)
    backend.scatter_add(out, key, g)
    return out


class IndexPutAccumulate(BuiltinFunction):
    """out = zeros(shape) with g added at the indices (the backward of Index);  dg = gg[key]."""

    node_name = "IndexPutImplBackward0"      # PyTorch's index_backward uses _index_put_impl_

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        return grad._new(_index_grad(grad._xp, grad._data, shape, key))

    @staticmethod
    def backward(ctx, grad):
        return Index.apply(grad, ctx.key), None, None


class MaskedSelect(BuiltinFunction):
    """out = the elements of x where mask is True, in order, as a vector (x and mask
    broadcast);  dx = g put back at those places, zeros elsewhere (summed to x's shape)."""

    node_name = "MaskedSelectBackward0"
    nondifferentiable_args = (1,)          # the mask

    @staticmethod
    def forward(ctx, x, mask):
        if mask.dtype.name != "bool":
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        check_shapes_broadcast(mask.shape, x.shape)
        xp = x._xp
        shape = xp.broadcast_shapes(x.shape, mask.shape)
        ctx.shape, ctx.key = x.shape, (xp.broadcast_to(mask._data, shape),)
        ctx.full = shape
        return x._new(xp.broadcast_to(x._data, shape)[ctx.key[0]])

    @staticmethod
    def backward(ctx, grad):
        return IndexPutAccumulate.apply(grad, ctx.full, ctx.key).sum_to_size(ctx.shape), None


def is_advanced(component):
    if is_tensor(component):
        return component.ndim > 0 or component.dtype.name == "bool"
    return isinstance(component, (list, np.ndarray)) or (
        hasattr(component, "__array__") and not isinstance(component, (int, np.integer)))


def to_key(index):
    """An index as a tuple numpy understands (tensors become arrays)."""
    if not isinstance(index, tuple):
        index = (index,)
    if any(is_tensor(c) and c.dtype.is_floating_point for c in index):
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return tuple(c._data if is_tensor(c) and c.ndim > 0 else
                 (c.item() if is_tensor(c) else c) for c in index)


def key_on_device(key, x):
    """Index arrays on x's device: CPU indices may index a GPU tensor (copied over), as in
    PyTorch; GPU indices may not index a CPU tensor."""
    on_cpu = x.device is backend.CPU
    moved = []
    for component in key:
        if backend.is_array(component) and backend.device_of(component) is not x.device:
            if on_cpu:
                raise RuntimeError("indices should be either on cpu or on the same device "
                                   "as the indexed tensor (cpu)")
            component = backend.move(component, x.device)
        moved.append(component)
    return tuple(moved)


def _check_leading_mask(x, mask):
    """PyTorch's message when x[mask] has a mask of the wrong shape."""
    if not (is_tensor(mask) and mask.dtype.name == "bool"):
        return
    for i, (m, s) in enumerate(zip(mask.shape, x.shape)):
        if m != s:
            raise IndexError(
                f"The shape of the mask {list(mask.shape)} at index {i} does not match the "
                f"shape of the indexed tensor {list(x.shape)} at index {i}")


def makes_view(x, index):
    """Whether a basic x[index] is a new view; PyTorch skips `...` and slices spanning a dim."""
    key = to_key(index)
    consuming = sum(1 for c in key if c is not None and c is not Ellipsis)
    dim = 0
    for c in key:
        if c is Ellipsis:
            dim += x.ndim - consuming
            continue
        if not isinstance(c, slice) or c.start not in (None, 0) or c.step not in (None, 1) or (
                c.stop is not None and (dim >= x.ndim or c.stop < x.shape[dim])):
            return True
        dim += 1
    return False


def as_tuple_if_sequence_inside(index):
    """PyTorch's (and old numpy's) reading of a list index: one of fewer than 32 items that
    holds a sequence, a slice, a tensor, `...` or None is a tuple of indices, so
    x[[[0, 1]]] is x[[0, 1]] and x[[0, slice(None)]] is x[0, :]."""
    if isinstance(index, list) and len(index) < 32 and any(
            is_tensor(c) or c is Ellipsis or c is None
            or isinstance(c, (list, tuple, slice, range, np.ndarray)) for c in index):
        return tuple(index)
    return index


def getitem(x, index):
    """x[index], decomposed like PyTorch's indexing."""
    index = as_tuple_if_sequence_inside(index)
    key = to_key(index)
    if any(is_advanced(c) for c in (index if isinstance(index, tuple) else (index,))):
        _check_leading_mask(x, index[0] if isinstance(index, tuple) else index)
        return Index.apply(x, key)
    consuming = sum(1 for c in key if c is not None and c is not Ellipsis)
    if consuming and x.ndim == 0 and any(isinstance(c, slice) for c in key):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if consuming and x.ndim == 0:       # loss[0] of an old tutorial (loss.data[0])
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if consuming > x.ndim:
        raise IndexError(f"too many indices for tensor of dimension {x.ndim}")
    lone_slice = len(key) == 1 and isinstance(key[0], slice)
    result, dim = x, 0
    for component in key:
        if component is None:
            result = Unsqueeze.apply(result, dim)
            dim += 1
        elif component is Ellipsis:
            dim += x.ndim - consuming
        elif isinstance(component, slice):
            if component.step == 0:
                raise ValueError("slice step cannot be zero")
            if component.step is not None and component.step < 0:
                raise ValueError("step must be greater than zero")
            if component != slice(None) or lone_slice:
                result = Slice.apply(result, (slice(None),) * dim + (component,))
            dim += 1
        elif isinstance(component, (bool, np.bool_)):
            raise IndexError("minigrad does not support indexing with a Python bool")
        elif not isinstance(component, (int, np.integer)):
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or "
                             f"byte Variables are valid indices (got {type(component).__name__})")
        else:
            size = result.shape[dim]
            if not -size <= component < size:
                raise IndexError(
                    f"index {component} is out of bounds for dimension {dim} with size {size}")
            result = Select.apply(result, (slice(None),) * dim + (int(component) % size,))
    if result is x:
        result = Alias.apply(x, ())
    return result
