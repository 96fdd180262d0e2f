"""Rounding: floor ceil trunc round, and division rounded (div's rounding_mode "trunc" or
"floor").  Their gradient is 0 (a step function is flat almost everywhere); PyTorch
records them all the same."""
from ..surface.dtypes import legacy_name
from .arithmetic import _refuse_integer_zero, binary_arrays
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


class DivRounding(BuiltinFunction):
    """out = a / b rounded ("trunc": toward 0, "floor": toward -inf), in a and b's dtype;
    da = 0,  db = 0 (as in PyTorch: the result is flat between its steps)."""

    node_name = "DivBackward2"

    @staticmethod
    def forward(ctx, a, b, rounding_mode):
        x, y = binary_arrays(a, b)
        _refuse_integer_zero(x, y)
        ctx.rounding_mode, ctx.shapes = rounding_mode, (a.shape, getattr(b, "shape", None))
        floor = x // y
        if rounding_mode == "floor":
            return a._new(floor)
        if x.dtype.kind == "f":
            return a._new(a._xp.trunc(x / y))
        return a._new(floor + ((floor * y != x) & ((x < 0) != (y < 0))))

    @staticmethod
    def backward(ctx, grad):
        return tuple(None if shape is None else grad.new_zeros(shape)
                     for shape in ctx.shapes) + (None,)


def check_rounding_mode(rounding_mode):
    """div's rounding_mode, checked as PyTorch checks it."""
    if rounding_mode not in ("trunc", "floor"):
        raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                           f"but found '{rounding_mode}'")


def div_rounded(a, b, rounding_mode):
    """div(a, b, rounding_mode=...)."""
    check_rounding_mode(rounding_mode)
    return DivRounding.apply(a, b, rounding_mode)
