"""In-place comparisons: x.eq_(other), ne_, lt_, le_, gt_, ge_ write (x op other) into x,
as 1 or 0 in x's own dtype.

A comparison has no gradient: the node passes zeros to x and to other (PyTorch's
EqBackward0 ... for a number other, EqBackward1 ... for a tensor).  The node still
exists, so x keeps a history, as after any in-place op.
"""
import operator

from ..surface import dtypes
from .builtin import InPlaceFunction
from .arithmetic import array_of, check_broadcast, is_tensor
from .inplace import _write_result


class CompareInplace(InPlaceFunction):
    """x ← (x `compare` other), the comparison of each subclass below;  dx = 0,  dother = 0."""

    @staticmethod
    def forward(ctx, x, other):
        check_broadcast(x, other)
        ctx.other_shape = other.shape if is_tensor(other) else None
        common = dtypes.result_type(x, other)
        result = ctx._function_cls.compare(array_of(x, common, x), array_of(other, common, x))
        return _write_result(ctx, x, dtypes.bool, result)

    @staticmethod
    def backward(ctx, grad):
        zeros = grad._new(grad._xp.zeros(grad.shape, grad._data.dtype))
        if ctx.other_shape is None:
            return zeros, None
        other = grad._new(grad._xp.zeros(ctx.other_shape, grad._data.dtype))
        return zeros, other


class EqInplace(CompareInplace):
    """x ← (x == other), other a tensor."""

    node_name, compare = "EqBackward1", staticmethod(operator.eq)


class EqScalarInplace(CompareInplace):
    """x ← (x == other), other a number."""

    node_name, compare = "EqBackward0", staticmethod(operator.eq)


class NeInplace(CompareInplace):
    """x ← (x != other), other a tensor."""

    node_name, compare = "NeBackward1", staticmethod(operator.ne)


class NeScalarInplace(CompareInplace):
    """x ← (x != other), other a number."""

    node_name, compare = "NeBackward0", staticmethod(operator.ne)


class LtInplace(CompareInplace):
    """x ← (x < other), other a tensor."""

    node_name, compare = "LtBackward1", staticmethod(operator.lt)


class LtScalarInplace(CompareInplace):
    """x ← (x < other), other a number."""

    node_name, compare = "LtBackward0", staticmethod(operator.lt)


class LeInplace(CompareInplace):
    """x ← (x <= other), other a tensor."""

    node_name, compare = "LeBackward1", staticmethod(operator.le)


class LeScalarInplace(CompareInplace):
    """x ← (x <= other), other a number."""

    node_name, compare = "LeBackward0", staticmethod(operator.le)


class GtInplace(CompareInplace):
    """x ← (x > other), other a tensor."""

    node_name, compare = "GtBackward1", staticmethod(operator.gt)


class GtScalarInplace(CompareInplace):
    """x ← (x > other), other a number."""

    node_name, compare = "GtBackward0", staticmethod(operator.gt)


class GeInplace(CompareInplace):
    """x ← (x >= other), other a tensor."""

    node_name, compare = "GeBackward1", staticmethod(operator.ge)


class GeScalarInplace(CompareInplace):
    """x ← (x >= other), other a number."""

    node_name, compare = "GeBackward0", staticmethod(operator.ge)
