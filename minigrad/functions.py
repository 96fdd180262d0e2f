"""torch.exp(x), torch.sum(x), torch.cat([...]) ...: the function forms of the ops."""
import builtins

import numpy as np

from .ops import combine
from .ops._helpers import is_tensor


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


def mean(x, dim=None, keepdim=False):
    return x.mean(dim, keepdim)


def max(x, dim=None, keepdim=False):
    return x.max(dim, keepdim)


def min(x, dim=None, keepdim=False):
    return x.min(dim, keepdim)


def maximum(a, b):
    return a.maximum(b)


def minimum(a, b):
    return a.minimum(b)


def matmul(a, b):
    return a.matmul(b)


def mm(a, b):
    return a.mm(b)


def where(condition, a, b):
    return combine.where(condition, a, b)


def cat(tensors, dim=0):
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    return combine.Cat.apply(dim, *tensors)


def stack(tensors, dim=0):
    return combine.Stack.apply(dim, *tensors)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    x = a._data if is_tensor(a) else a
    y = b._data if is_tensor(b) else b
    return builtins.bool(np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))
