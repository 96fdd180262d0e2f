"""torch.eq(a, b), torch.logical_and(a, b), torch.isclose(a, b) ...: the function forms of
the comparisons and logic methods of Tensor (tensor_math.py, tensor_logic.py).  None has
a gradient."""
from .ops.arithmetic import is_tensor


def eq(input, other):
    return input.eq(other)


def ne(input, other):
    return input.ne(other)


def lt(input, other):
    return input.lt(other)


def le(input, other):
    return input.le(other)


def gt(input, other):
    return input.gt(other)


def ge(input, other):
    return input.ge(other)


greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne


def logical_and(input, other):
    return input.logical_and(other)


def logical_or(input, other):
    return input.logical_or(other)


def logical_xor(input, other):
    return input.logical_xor(other)


def logical_not(input):
    return input.logical_not()


def bitwise_and(input, other):          # (a number first: the same, its operands swapped)
    return input.bitwise_and(other) if is_tensor(input) else other.bitwise_and(input)


def bitwise_or(input, other):
    return input.bitwise_or(other) if is_tensor(input) else other.bitwise_or(input)


def bitwise_xor(input, other):
    return input.bitwise_xor(other) if is_tensor(input) else other.bitwise_xor(input)


def bitwise_not(input):
    return input.bitwise_not()


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return input.isclose(other, rtol, atol, equal_nan)


__all__ = ["eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less",
           "less_equal", "not_equal", "logical_and", "logical_or", "logical_xor",
           "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "isclose"]
