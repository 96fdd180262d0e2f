"""The three-operand arithmetic that optimizer steps and moving averages are written
with: addcmul (x + value·t1·t2), addcdiv (x + value·t1/t2) and lerp (x + w·(end - x)),
each one node as in PyTorch (their in-place forms are in inplace_unary.py)."""
from .. import dtypes
from .arithmetic import binary_arrays, check_shapes_broadcast, is_tensor
from .builtin import BuiltinFunction


def _result(x, t1, t2):
    """The three operands as arrays of their common dtype, their shapes checked."""
    check_shapes_broadcast(x.shape, t1.shape)
    check_shapes_broadcast(x.shape, t2.shape)
    check_shapes_broadcast(t1.shape, t2.shape)
    a, b = binary_arrays(x, t1)
    _, c = binary_arrays(x, t2)
    return a, b, c


class Addcmul(BuiltinFunction):
    """out = x + value·t1·t2;  dx = g,  dt1 = g·value·t2,  dt2 = g·value·t1 (each summed to
    its operand's shape)."""

    node_name = "AddcmulBackward0"

    @staticmethod
    def forward(ctx, x, t1, t2, value=1):
        a, b, c = _result(x, t1, t2)
        ctx.value, ctx.shapes = value, (x.shape, t1.shape, t2.shape)
        ctx.save_for_backward(t1 if ctx.needs_input_grad[2] else None,
                              t2 if ctx.needs_input_grad[1] else None)
        return x._new(a + value * b * c)

    @staticmethod
    def backward(ctx, grad):
        t1, t2 = ctx.saved_tensors
        shape_x, shape_1, shape_2 = ctx.shapes
        grad_1 = (grad * ctx.value * t2).sum_to_size(shape_1) if t2 is not None else None
        grad_2 = (grad * ctx.value * t1).sum_to_size(shape_2) if t1 is not None else None
        return grad.sum_to_size(shape_x), grad_1, grad_2, None


class Addcdiv(BuiltinFunction):
    """out = x + value·t1/t2;  dx = g,  dt1 = g·value/t2,  dt2 = -g·value·t1/t2²."""

    node_name = "AddcdivBackward0"

    @staticmethod
    def forward(ctx, x, t1, t2, value=1):
        if not t1.dtype.is_floating_point and not t2.dtype.is_floating_point:
            raise RuntimeError(
                "Integer division with addcdiv is no longer supported, and in a future "
                "release addcdiv will perform a true division of tensor1 and tensor2. The "
                "historic addcdiv behavior can be implemented as (input + value * "
                "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
                "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv "
                "behavior is just the latter implementation: (input + value * tensor1 / "
                "tensor2), for all dtypes.")
        a, b, c = _result(x, t1, t2)
        ctx.value, ctx.shapes = value, (x.shape, t1.shape, t2.shape)
        ctx.save_for_backward(t1 if ctx.needs_input_grad[2] else None, t2)
        return x._new(a + value * b / c)

    @staticmethod
    def backward(ctx, grad):
        t1, t2 = ctx.saved_tensors
        shape_x, shape_1, shape_2 = ctx.shapes
        grad_1 = (grad * ctx.value / t2).sum_to_size(shape_1) if ctx.needs_input_grad[1] else None
        grad_2 = None
        if t1 is not None:
            grad_2 = (-grad * ctx.value * t1 / (t2 * t2)).sum_to_size(shape_2)
        return grad.sum_to_size(shape_x), grad_1, grad_2, None


def _check_lerp(x, end, weight=None):
    """PyTorch's checks: end and a tensor weight of x's dtype, a floating one."""
    for name, other in (("end", end), ("weight", weight)):
        if other is not None and other.dtype is not x.dtype:
            raise RuntimeError(f"expected dtype {dtypes.cpp_name(x.dtype)} for `{name}` but "
                               f"got dtype {dtypes.cpp_name(other.dtype)}")
    if not x.dtype.is_floating_point:
        kernel = "lerp_kernel_scalar" if weight is None else "lerp_kernel_tensor"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{dtypes.legacy_name(x.dtype)}'")


class Lerp(BuiltinFunction):
    """out = x + w·(end - x), w a number;  dx = g·(1 - w),  dend = g·w."""

    node_name = "LerpBackward0"

    @staticmethod
    def forward(ctx, x, end, weight):
        check_shapes_broadcast(x.shape, end.shape)
        _check_lerp(x, end)
        a, b = binary_arrays(x, end)
        ctx.weight, ctx.shapes = weight, (x.shape, end.shape)
        return x._new((a + weight * (b - a)).astype(a.dtype))

    @staticmethod
    def backward(ctx, grad):
        w = ctx.weight
        return (grad * (1 - w)).sum_to_size(ctx.shapes[0]), \
            (grad * w).sum_to_size(ctx.shapes[1]), None


class LerpTensor(BuiltinFunction):
    """out = x + w·(end - x), w a tensor;  dx = g·(1 - w),  dend = g·w,  dw = g·(end - x)."""

    node_name = "LerpBackward1"

    @staticmethod
    def forward(ctx, x, end, weight):
        for shape in (end.shape, weight.shape):
            check_shapes_broadcast(x.shape, shape)
        _check_lerp(x, end, weight)
        ctx.shapes = (x.shape, end.shape, weight.shape)
        ctx.save_for_backward(x, end, weight)
        a, b = binary_arrays(x, end)
        return x._new((a + weight._data * (b - a)).astype(a.dtype))

    @staticmethod
    def backward(ctx, grad):
        x, end, weight = ctx.saved_tensors
        shape_x, shape_e, shape_w = ctx.shapes
        return ((grad * (1 - weight)).sum_to_size(shape_x), (grad * weight).sum_to_size(shape_e),
                (grad * (end - x)).sum_to_size(shape_w))


def lerp(x, end, weight):
    """The op for a number weight or a tensor one."""
    if is_tensor(weight):
        return LerpTensor.apply(x, end, weight)
    return Lerp.apply(x, end, weight)
