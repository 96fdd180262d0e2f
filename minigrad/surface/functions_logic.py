"""torch.eq(a, b), torch.logical_and(a, b), torch.isclose(a, b) ...: the function forms of
the comparisons and logic methods of Tensor (tensor_math.py, tensor_logic.py).  None has
a gradient."""
from ..ops.arithmetic import is_tensor
from . import arguments


@arguments.function
def eq(input, other):
    return input.eq(other)


@arguments.function
def ne(input, other):
    return input.ne(other)


@arguments.function
def lt(input, other):
    return input.lt(other)


@arguments.function
def le(input, other):
    return input.le(other)


@arguments.function
def gt(input, other):
    return input.gt(other)


@arguments.function
def ge(input, other):
    return input.ge(other)


greater = arguments.function_alias("greater", gt)
greater_equal = arguments.function_alias("greater_equal", ge)
less = arguments.function_alias("less", lt)
less_equal = arguments.function_alias("less_equal", le)
not_equal = arguments.function_alias("not_equal", ne)


@arguments.function
def logical_and(input, other):
    return input.logical_and(other)


@arguments.function
def logical_or(input, other):
    return input.logical_or(other)


@arguments.function
def logical_xor(input, other):
    return input.logical_xor(other)


@arguments.function
def logical_not(input):
    return input.logical_not()


@arguments.function
def bitwise_and(input, other):          # (a number first: the same, its operands swapped)
    return input.bitwise_and(other) if is_tensor(input) else other.bitwise_and(input)


@arguments.function
def bitwise_or(input, other):
    return input.bitwise_or(other) if is_tensor(input) else other.bitwise_or(input)


@arguments.function
def bitwise_xor(input, other):
    return input.bitwise_xor(other) if is_tensor(input) else other.bitwise_xor(input)


@arguments.function
def bitwise_not(input):
    return input.bitwise_not()


@arguments.function
def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return input.isclose(other, rtol, atol, equal_nan)


__all__ = ["eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less",
           "less_equal", "not_equal", "logical_and", "logical_or", "logical_xor",
           "logical_not", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "isclose"]
