"""Rounding: floor ceil trunc round (division rounded, div's rounding_mode, is in
division.py).  Their gradient is 0 (a step function is flat almost everywhere); PyTorch
records them all the same."""
from ..surface.dtypes import legacy_name
from .builtin import BuiltinFunction


class _Rounding(BuiltinFunction):
    """A rounding of each element that numpy computes (`compute`: its numpy name);
    integers come back unchanged, and the gradient is 0."""

    compute = None

    @staticmethod
    def forward(ctx, x):
        compute = ctx._function_cls.compute
        if x.dtype.name == "bool":              # PyTorch has no bool kernel for these
            raise NotImplementedError(f'"{compute}_vml_cpu" not implemented for \'Bool\'')
        if not x.dtype.is_floating_point:
            return x._new(x._data.copy())
        return x._new(getattr(x._xp, compute)(x._data))

    @staticmethod
    def backward(ctx, grad):
        return grad._new(grad._xp.zeros_like(grad._data))   # zeros_like(grad): no history, as PyTorch


class Floor(_Rounding):
    """out = ⌊x⌋;  dx = 0."""

    node_name = "FloorBackward0"
    compute = "floor"


class Ceil(_Rounding):
    """out = ⌈x⌉;  dx = 0."""

    node_name = "CeilBackward0"
    compute = "ceil"


class Trunc(_Rounding):
    """out = x rounded toward 0;  dx = 0."""

    node_name = "TruncBackward0"
    compute = "trunc"


class Round(_Rounding):
    """out = x rounded to the nearest integer, halves to even;  dx = 0."""

    node_name = "RoundBackward0"
    compute = "round"


class RoundDecimals(BuiltinFunction):
    """out = x rounded to `decimals` places (halves to even);  dx = 0."""

    node_name = "RoundBackward1"

    @staticmethod
    def forward(ctx, x, decimals):
        if not x.dtype.is_floating_point:
            raise NotImplementedError(
                f'"round_cpu" not implemented for \'{legacy_name(x.dtype)}\'')
        return x._new(x._xp.round(x._data, decimals))

    @staticmethod
    def backward(ctx, grad):
        return grad._new(grad._xp.zeros_like(grad._data)), None
