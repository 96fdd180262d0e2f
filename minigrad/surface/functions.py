"""torch.exp(x), torch.sum(x), torch.cat([...]) ...: the function forms of the ops."""
import builtins

import numpy as np

from .. import backend
from ..ops import combine
from ..ops.arithmetic import is_tensor as _is_tensor
from . import arguments, devices, dtypes


@arguments.function
def add(input, other, alpha=1):
    return input.add(other, alpha=alpha) if _is_tensor(input) else other.__radd__(input)


@arguments.function
def sub(input, other, alpha=1):
    if _is_tensor(input):
        return input.sub(other, alpha=alpha)
    return (other if alpha == 1 else other * alpha).__rsub__(input)     # torch.sub(2, x)


@arguments.function
def mul(input, other):
    return input.mul(other) if _is_tensor(input) else other.__rmul__(input)


@arguments.function
def div(input, other):
    return input.div(other) if _is_tensor(input) else other.__rtruediv__(input)


@arguments.function
def pow(input, exponent):
    return input.pow(exponent) if _is_tensor(input) else exponent.__rpow__(input)


@arguments.function
def neg(x):
    return x.neg()


@arguments.function
def square(x):
    return x.square()


@arguments.function
def reciprocal(x):
    return x.reciprocal()


@arguments.function
def sign(x):
    return x.sign()


@arguments.function
def exp(x):
    return x.exp()


@arguments.function
def log(x):
    return x.log()


@arguments.function
def sin(x):
    return x.sin()


@arguments.function
def cos(x):
    return x.cos()


@arguments.function
def tanh(x):
    return x.tanh()


@arguments.function
def sigmoid(x):
    return x.sigmoid()


@arguments.function
def relu(x):
    return x.relu()


@arguments.function
def sqrt(x):
    return x.sqrt()


@arguments.function
def abs(x):
    return x.abs()


@arguments.function
def clamp(x, min=None, max=None):
    return x.clamp(min, max)


@arguments.function
def sum(x, dim=None, keepdim=False):
    return x.sum(dim, keepdim)


@arguments.function
def mean(x, dim=None, keepdim=False):
    return x.mean(dim, keepdim)


@arguments.function
def max(x, dim=None, keepdim=False):
    return x.max(dim, keepdim)


@arguments.function
def min(x, dim=None, keepdim=False):
    return x.min(dim, keepdim)


@arguments.function
def maximum(a, b):
    return a.maximum(b)


@arguments.function
def minimum(a, b):
    return a.minimum(b)


@arguments.function
def matmul(a, b):
    return a.matmul(b)


@arguments.function
def mm(a, b):
    return a.mm(b)


@arguments.function
def dot(a, b):
    return a.dot(b)


@arguments.function
def softmax(x, dim, dtype=None):
    return (x if dtype is None else x.to(dtype)).softmax(dim)


@arguments.function
def log_softmax(x, dim, dtype=None):
    return (x if dtype is None else x.to(dtype)).log_softmax(dim)


@arguments.function
def masked_fill(x, mask, value):
    return x.masked_fill(mask, value)


@arguments.function
def argmax(x, dim=None, keepdim=False):
    return x.argmax(dim, keepdim)


@arguments.function
def argmin(x, dim=None, keepdim=False):
    return x.argmin(dim, keepdim)


@arguments.function
def reshape(x, shape):
    return x.reshape(shape)


@arguments.function
def flatten(x, start_dim=0, end_dim=-1):
    return x.flatten(start_dim, end_dim)


@arguments.function
def transpose(x, dim0, dim1):
    return x.transpose(dim0, dim1)


@arguments.function
def t(x):
    return x.t()


@arguments.function
def permute(x, dims):
    return x.permute(*dims)


@arguments.function
def squeeze(x, dim=None):
    return x.squeeze(dim)


@arguments.function
def unsqueeze(x, dim):
    return x.unsqueeze(dim)


@arguments.function
def clone(x):
    return x.clone()


@arguments.function
def numel(x):
    return x.numel()


def is_floating_point(x):
    return x.is_floating_point()


@arguments.function
def is_inference(x):
    return x.is_inference()


@arguments.function
def equal(a, b):
    return a.equal(b)


def is_tensor(obj):
    """True for a minigrad Tensor (torch.is_tensor)."""
    return _is_tensor(obj)


@arguments.function
def where(condition, a, b):
    return combine.where(condition, a, b)


@arguments.function
def cat(tensors, dim=0):
    _check_sequence(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    return combine.Cat.apply(dim, *tensors)


@arguments.function
def stack(tensors, dim=0):
    _check_sequence(tensors, "stack")
    return combine.Stack.apply(dim, *tensors)


def _check_sequence(tensors, name):
    """cat(a, b) instead of cat([a, b]): PyTorch's TypeError."""
    if _is_tensor(tensors):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        "not Tensor")


@arguments.function
def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    if _is_tensor(a) and _is_tensor(b) and a.dtype is not b.dtype:
        raise RuntimeError(f"{dtypes.legacy_name(a.dtype)} did not match {dtypes.legacy_name(b.dtype)}")
    if _is_tensor(a) and _is_tensor(b) and a.device is not b.device:
        a, b = devices.match_devices("elementwise", (a, b))      # PyTorch's error
    x = a._data if _is_tensor(a) else a
    y = b._data if _is_tensor(b) else b
    xp = backend.array_module(x if _is_tensor(a) else y if _is_tensor(b) else np.asarray(x))
    return builtins.bool(xp.allclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))
