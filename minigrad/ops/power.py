"""Powers: a ** n for a number n, a ** b for tensors, n ** b for a number n.

Each keeps what its backward reads: the base (and the exponent, and the result, where
the formula uses them).  The gradient of a ** n records PyTorch's nodes in its order,
grad * (n * a ** (n - 1)): PowBackward0, then MulBackward1 (`MulScalar`), then
MulBackward0.  Integers to negative integer powers are computed as PyTorch does
(`_power`), where numpy would refuse.
"""
import math

from .. import backend
from .arithmetic import MulScalar, _reduce, binary_arrays
from .builtin import BuiltinFunction


class Pow(BuiltinFunction):
    """out = a ** n for a number n;  da = g * n * a ** (n - 1)."""

    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx, a, exponent):
        x, n = binary_arrays(a, exponent)
        if x.dtype.kind in "iub" and n.dtype.kind in "iub" and exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        ctx.exponent = exponent
        ctx.save_for_backward(a)
        return a._new(x ** n)

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        n = ctx.exponent
        if n == 0:
            return grad._new(grad._xp.zeros_like(grad._data)), None   # zeros_like(grad): no history
        return grad * MulScalar.apply(a ** (n - 1), n), None     # PyTorch's nodes, in its order


def _power(x, y):
    """x ** y on arrays; integers to negative integer powers as PyTorch computes them
    elementwise (1 for base 1, ±1 for base -1, else 0) where numpy would refuse."""
    if x.dtype.kind not in "iu" or y.dtype.kind not in "iu" or not (y < 0).any():
        return x ** y
    xp = backend.array_module(x)
    odd_sign = xp.where(y % 2 == 0, 1, -1)
    negative = xp.where(x == 1, 1, xp.where(x == -1, odd_sign, 0)).astype(x.dtype)
    return xp.where(y < 0, negative, x ** xp.abs(y))


class PowTensor(BuiltinFunction):
    """out = a ** b for tensors;  da = g * b * a ** (b - 1),  db = g * out * log(a)."""

    node_name = "PowBackward1"

    @staticmethod
    def forward(ctx, a, b):
        x, y = binary_arrays(a, b)
        result = a._new(_power(x, y))
        ctx.save_for_backward(b, a, result)     # (PyTorch's order)
        return result

    @staticmethod
    def backward(ctx, grad):
        b, a, result = ctx.saved_tensors
        grad_a = grad_b = None
        if ctx.needs_input_grad[0]:     # PyTorch's: 0 where b == 0 (0 ** 0 has slope 0)
            zero = grad._new(grad._xp.zeros((), grad._data.dtype))
            grad_a = _reduce(zero.where(b == 0, grad * (b * a ** (b - 1))), a)
        if ctx.needs_input_grad[1]:
            log_a = a.log().masked_fill((a == 0) & (b >= 0), 0.0)
            grad_b = _reduce(grad * result * log_a, b)
        return grad_a, grad_b


class RPow(BuiltinFunction):
    """out = number ** b;  db = g * out * log(number)."""

    node_name = "PowBackward2"

    @staticmethod
    def forward(ctx, b, number):
        y, x = binary_arrays(b, number)
        result = b._new(_power(x, y))
        ctx.number = number
        ctx.save_for_backward(b, result)      # PyTorch saves the exponent too
        return result

    @staticmethod
    def backward(ctx, grad):
        b, result = ctx.saved_tensors
        if ctx.number == 0:           # PyTorch's: 0 where b >= 0, else out * log(0) (-inf)
            return grad * (result * -math.inf).masked_fill(b >= 0, 0.0), None
        log_number = math.log(ctx.number) if ctx.number > 0 else math.nan
        return grad * result * log_number, None
