"""torch.max(x), torch.equal(a, b), torch.sort(x), torch.any(x) ...: the function forms
of Tensor's methods that compare elements (tensor_compare.py).  all, any and
count_nonzero are written here, on the arrays (no gradient); Tensor.all ... call them."""
import builtins

import numpy as np

from .. import backend
from ..ops import ordering
from ..ops.arithmetic import check_shapes_broadcast
from ..ops.arithmetic import is_tensor as _is_tensor
from ..ops.shape import normalize_dims
from . import arguments, devices, dtypes


@arguments.function
def max(x, dim=None, keepdim=False):
    if dim is None or _is_tensor(dim):         # torch.max(a, b) is torch.maximum(a, b)
        return x.max() if dim is None else x.max(dim)
    return x.max(dim, keepdim)


@arguments.function
def min(x, dim=None, keepdim=False):
    if dim is None or _is_tensor(dim):         # torch.min(a, b) is torch.minimum(a, b)
        return x.min() if dim is None else x.min(dim)
    return x.min(dim, keepdim)


@arguments.function
def maximum(a, b):
    return a.maximum(b)


@arguments.function
def minimum(a, b):
    return a.minimum(b)


@arguments.function
def argmax(x, dim=None, keepdim=False):
    return x.argmax(dim, keepdim)


@arguments.function
def argmin(x, dim=None, keepdim=False):
    return x.argmin(dim, keepdim)


@arguments.function
def equal(a, b):
    return a.equal(b)


@arguments.function
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    if _is_tensor(a) and _is_tensor(b) and a.dtype is not b.dtype:
        raise RuntimeError(f"{dtypes.legacy_name(a.dtype)} did not match {dtypes.legacy_name(b.dtype)}")
    if _is_tensor(a) and _is_tensor(b) and a.device is not b.device:
        a, b = devices.match_devices("elementwise", (a, b))      # PyTorch's error
    if _is_tensor(a) and _is_tensor(b):
        check_shapes_broadcast(a.shape, b.shape)
    x = a._data if _is_tensor(a) else a
    y = b._data if _is_tensor(b) else b
    xp = backend.array_module(x if _is_tensor(a) else y if _is_tensor(b) else np.asarray(x))
    return builtins.bool(xp.allclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))


@arguments.function
def isnan(input):
    return input.isnan()


@arguments.function
def isinf(input):
    return input.isinf()


@arguments.function
def isfinite(input):
    return input.isfinite()


@arguments.function
def sort(input, *dim_descending, dim=-1, descending=False, stable=None):
    dim, descending = ordering.sort_arguments(dim_descending, dim, descending, stable,
                                              caller=("Tensor",))
    return input.sort(dim=dim, descending=descending, stable=stable)


@arguments.function
def median(input, dim=None, keepdim=False):
    return input.median() if dim is None else input.median(dim, keepdim)


@arguments.function
def nanmedian(input, dim=None, keepdim=False):
    return input.nanmedian() if dim is None else input.nanmedian(dim, keepdim)


@arguments.function
def kthvalue(input, k, dim=-1, keepdim=False):
    return input.kthvalue(k, dim, keepdim)


@arguments.function
def mode(input, dim=-1, keepdim=False):
    return input.mode(dim, keepdim)


@arguments.function
def argsort(input, dim=-1, descending=False, stable=False):
    return input.argsort(dim=dim, descending=descending, stable=stable)


@arguments.function
def topk(input, k, dim=-1, largest=True, sorted=True):
    return input.topk(k, dim, largest, sorted)


@arguments.function
def any(input, dim=None, keepdim=False):
    """True where some element (over dim, or all of them) is nonzero."""
    return input._new(input._data.any(axis=_reduced(input, dim), keepdims=keepdim))


@arguments.function
def all(input, dim=None, keepdim=False):
    """True where every element (over dim, or all of them) is nonzero."""
    return input._new(input._data.all(axis=_reduced(input, dim), keepdims=keepdim))


@arguments.function
def count_nonzero(input, dim=None):
    """How many elements (over dim, or all of them) are not zero (int64, no gradient)."""
    counts = (input._data != 0).sum(axis=_reduced(input, dim))
    return input._new(input._xp.asarray(counts, dtype=dtypes.int64.numpy))


def _reduced(input, dim):
    return None if dim is None else normalize_dims(dim, input.ndim)


__all__ = [name for name, value in list(globals().items())     # the functions defined here
           if not name.startswith("_") and getattr(value, "__module__", None) == __name__]
