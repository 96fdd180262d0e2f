"""torch.exp(x), torch.sum(x), torch.cat([...]) ...: the function forms of the ops."""
import builtins

import numpy as np

from . import backend, dtypes
from .ops import combine
from .ops.arithmetic import check_shapes_broadcast
from .ops.arithmetic import is_tensor as _is_tensor


def add(input, other, alpha=1):
    return input.add(other, alpha=alpha) if _is_tensor(input) else other.__radd__(input)


def sub(input, other, alpha=1):
    if _is_tensor(input):
        return input.sub(other, alpha=alpha)
    return (other if alpha == 1 else other * alpha).__rsub__(input)     # torch.sub(2, x)


def mul(input, other):
    return input.mul(other) if _is_tensor(input) else other.__rmul__(input)


def div(input, other, *, rounding_mode=None):
    if _is_tensor(input):
        return input.div(other, rounding_mode=rounding_mode)
    if rounding_mode is not None:                  # torch.div(7, x, rounding_mode="floor")
        return other.new_tensor(input).div(other, rounding_mode=rounding_mode)
    return other.__rtruediv__(input)


def pow(input, exponent):
    return input.pow(exponent) if _is_tensor(input) else exponent.__rpow__(input)


def neg(x):
    return x.neg()


def square(x):
    return x.square()


def reciprocal(x):
    return x.reciprocal()


def sign(x):
    return x.sign()


def exp(x):
    return x.exp()


def log(x):
    return x.log()


def sin(x):
    return x.sin()


def cos(x):
    return x.cos()


def tanh(x):
    return x.tanh()


def sigmoid(x):
    return x.sigmoid()


def relu(x):
    return x.relu()


def sqrt(x):
    return x.sqrt()


def abs(x):
    return x.abs()


def clamp(x, min=None, max=None):
    return x.clamp(min, max)


def sum(x, dim=None, keepdim=False):
    return x.sum(dim, keepdim)


def mean(x, dim=None, keepdim=False, *, dtype=None):
    return x.mean(dim, keepdim, dtype=dtype)


def max(x, dim=None, keepdim=False):
    if dim is None or _is_tensor(dim):         # torch.max(a, b) is torch.maximum(a, b)
        return x.max() if dim is None else x.max(dim)
    return x.max(dim, keepdim)


def min(x, dim=None, keepdim=False):
    if dim is None or _is_tensor(dim):         # torch.min(a, b) is torch.minimum(a, b)
        return x.min() if dim is None else x.min(dim)
    return x.min(dim, keepdim)


def maximum(a, b):
    return a.maximum(b)


def minimum(a, b):
    return a.minimum(b)


def matmul(a, b):
    return a.matmul(b)


def mm(a, b):
    return a.mm(b)


def dot(a, b):
    return a.dot(b)


def softmax(x, dim, dtype=None):
    return (x if dtype is None else x.to(dtype)).softmax(dim)


def log_softmax(x, dim, dtype=None):
    return (x if dtype is None else x.to(dtype)).log_softmax(dim)


def masked_fill(x, mask, value):
    return x.masked_fill(mask, value)


def argmax(x, dim=None, keepdim=False):
    return x.argmax(dim, keepdim)


def argmin(x, dim=None, keepdim=False):
    return x.argmin(dim, keepdim)


def reshape(x, shape):
    return x.reshape(shape)


def flatten(x, start_dim=0, end_dim=-1):
    return x.flatten(start_dim, end_dim)


def transpose(x, dim0, dim1):
    return x.transpose(dim0, dim1)


def t(x):
    return x.t()


def permute(x, dims):
    return x.permute(dims)


def squeeze(x, dim=None):
    return x.squeeze() if dim is None else x.squeeze(dim)


def unsqueeze(x, dim):
    return x.unsqueeze(dim)


def clone(x):
    return x.clone()


def numel(x):
    return x.numel()


def is_floating_point(x):
    return x.is_floating_point()


def is_inference(x):
    return x.is_inference()


def equal(a, b):
    return a.equal(b)


def is_tensor(obj):
    """True for a minigrad Tensor (torch.is_tensor)."""
    return _is_tensor(obj)


def where(condition, a, b):
    return combine.where(condition, a, b)


def cat(tensors, dim=0):
    _check_sequence(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    return combine.Cat.apply(dim, *tensors)


def stack(tensors, dim=0):
    _check_sequence(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    return combine.Stack.apply(dim, *tensors)


def _check_sequence(tensors, name):
    """cat(a, b) instead of cat([a, b]): PyTorch's TypeError."""
    if _is_tensor(tensors):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        "not Tensor")


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    if _is_tensor(a) and _is_tensor(b) and a.dtype is not b.dtype:
        raise RuntimeError(f"{dtypes.legacy_name(a.dtype)} did not match {dtypes.legacy_name(b.dtype)}")
    if _is_tensor(a) and _is_tensor(b) and a.device is not b.device:
        a, b = backend.match_devices("elementwise", (a, b))      # PyTorch's error
    if _is_tensor(a) and _is_tensor(b):
        check_shapes_broadcast(a.shape, b.shape)
    x = a._data if _is_tensor(a) else a
    y = b._data if _is_tensor(b) else b
    xp = backend.array_module(x if _is_tensor(a) else y if _is_tensor(b) else np.asarray(x))
    return builtins.bool(xp.allclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))
