"""Division that rounds: floor_divide (//), div(rounding_mode="trunc" or "floor") and
remainder (%), whose results are flat between their steps, and PyTorch's error for an
integer division by zero."""
from .arithmetic import _remember_shapes, _sum_to, binary_arrays, is_tensor
from .builtin import BuiltinFunction


def _refuse_integer_zero(x, y):
    """PyTorch's error for an integer division by zero (numpy would warn and give 0)."""
    if x.dtype.kind in "iub" and y.dtype.kind in "iub" and (y == 0).any():
        raise RuntimeError("ZeroDivisionError")


class FloorDivide(BuiltinFunction):
    """out = a // b, rounded toward -inf;  no derivative (as in PyTorch: backward raises)."""

    node_name = "torch::autograd::NotImplemented"

    @staticmethod
    def forward(ctx, a, b):
        x, y = binary_arrays(a, b)
        _refuse_integer_zero(x, y)
        like = a if is_tensor(a) else b
        return like._new(x // y)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


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


class Remainder(BuiltinFunction):
    """out = a % b, with b's sign (a - (a // b)·b);  da = g,  db = -g·(a // b)."""

    node_name = "RemainderBackward1"

    @staticmethod
    def forward(ctx, a, b):
        x, y = binary_arrays(a, b)
        _refuse_integer_zero(x, y)
        _remember_shapes(ctx, a, b)
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None,
                              b if ctx.needs_input_grad[1] else None)
        like = a if is_tensor(a) else b
        return like._new(x % y)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad_b = _sum_to(-grad * FloorDivide.apply(a, b), ctx.b_shape) if b is not None else None
        return _sum_to(grad, ctx.a_shape), grad_b


class RemainderScalar(Remainder):
    """out = a % number;  da = g."""

    node_name = "RemainderBackward0"
