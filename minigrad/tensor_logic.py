"""The logic methods of Tensor beyond the comparison operators (tensor_math.py has ==, <
... and eq, lt ...): PyTorch's other names for the comparisons (greater, less_equal,
not_equal ...), logical_and / or / xor, bitwise_and / or / xor / not, and isclose.  None
of them has a gradient: each gives a bool tensor.  A mixin of Tensor.

Example::

    >>> import minigrad as torch
    >>> x = torch.tensor([1.0, 2.0, 3.0])
    >>> x.greater(1.5), x.logical_and(x > 2), x.isclose(torch.tensor([1.0, 2.1, 3.0]))
    (tensor([False,  True,  True]), tensor([False, False,  True]), tensor([ True, False,  True]))
"""
from . import dtypes
from .ops.arithmetic import binary_arrays, is_tensor


class TensorLogic:
    __slots__ = ()

    def greater(self, other):
        return self > other

    def greater_equal(self, other):
        return self >= other

    def less(self, other):
        return self < other

    def less_equal(self, other):
        return self <= other

    def not_equal(self, other):
        return self != other

    def logical_and(self, other):
        return self._logical(other, "logical_and")

    def logical_or(self, other):
        return self._logical(other, "logical_or")

    def logical_xor(self, other):
        return self._logical(other, "logical_xor")

    def _logical(self, other, name):
        if not is_tensor(other):
            raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not "
                            f"{type(other).__name__}")
        x, y = binary_arrays(self, other)
        return self._new(getattr(self._xp, name)(x, y))

    def bitwise_and(self, other):
        _integers_only(self, other, "bitwise_and_cpu")
        return self & other

    def bitwise_or(self, other):
        _integers_only(self, other, "bitwise_or_cpu")
        return self | other

    def bitwise_xor(self, other):
        _integers_only(self, other, "bitwise_xor_cpu")
        return self ^ other

    def bitwise_not(self):
        _integers_only(self, self, "bitwise_not_cpu")
        return ~self

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        """|self - other| <= atol + rtol * |other|, elementwise (a bool tensor)."""
        if is_tensor(other) and other.dtype is not self.dtype:
            raise RuntimeError(f"{dtypes.legacy_name(self.dtype)} did not match "
                               f"{dtypes.legacy_name(other.dtype)}")
        x, y = binary_arrays(self, other)
        return self._new(self._xp.isclose(x, y, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _integers_only(x, other, kernel):
    """PyTorch's bitwise kernels take integers and bools only."""
    result = dtypes.result_type(x, other)
    if result.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{dtypes.legacy_name(result)}'")
