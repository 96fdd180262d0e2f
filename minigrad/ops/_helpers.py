"""Small helpers shared by the ops: operands to arrays, broadcasting checks."""
import numpy as np

from .. import dtypes


def is_tensor(value):
    return getattr(value, "_is_minigrad_tensor", False)


def array_of(value, dtype, like):
    """The data of a tensor or a Python number, as an array of `dtype` on `like`'s device."""
    if is_tensor(value):
        data = value._data
        return data if data.dtype == dtype.numpy else data.astype(dtype.numpy)
    xp = like._xp
    return xp.asarray(value, dtype=dtype.numpy)


def binary_arrays(a, b, floating=False):
    """Both operands as arrays of their promoted dtype (PyTorch's promotion rules)."""
    result = dtypes.result_type(a, b)
    if floating and not result.is_floating_point:
        result = dtypes.get_default_dtype()
    like = a if is_tensor(a) else b
    check_broadcast(a, b)
    return array_of(a, result, like), array_of(b, result, like)


def check_broadcast(a, b):
    """PyTorch's message when shapes do not broadcast."""
    sa = a.shape if is_tensor(a) else ()
    sb = b.shape if is_tensor(b) else ()
    for i, (x, y) in enumerate(zip(reversed(sa), reversed(sb))):
        if x != y and x != 1 and y != 1:
            dim = max(len(sa), len(sb)) - 1 - i
            raise RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                f"non-singleton dimension {dim}")


def normalize_dim(dim, ndim):
    """A dim in range(ndim), with PyTorch's IndexError otherwise."""
    low, high = (-ndim, ndim - 1) if ndim > 0 else (-1, 0)
    if not low <= dim <= high:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})")
    return dim % ndim if ndim > 0 else 0


def normalize_dims(dim, ndim):
    """None -> all dims; an int or a sequence -> a sorted tuple of dims."""
    if dim is None:
        return tuple(range(ndim))
    if isinstance(dim, (int, np.integer)):
        dim = (dim,)
    return tuple(sorted(normalize_dim(d, ndim) for d in dim))
