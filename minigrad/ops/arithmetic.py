"""Arithmetic: + - * / and negation (powers: power.py), and how two operands meet.

Each op is a Function: its forward computes on arrays, its backward in differentiable
Tensor ops (so that create_graph records it), and saves only what its backward will
use (`ctx.needs_input_grad`), as PyTorch does: `a * b` saves `b` only if `a` needs a
gradient.  Gradients of broadcast operands are summed back to the operand's shape
(by `_sum_to`, or by the engine: PyTorch's InputMetadata does it for every node).  A
Python number operand (`x * 2`) comes as a 0-dim tensor that needs no
grad, so that `next_functions` shows it as (None, 0); the ops that need its value in
backward keep it as a number (`MulNumber`, `DivNumber`).

At the end of the file, how two operands meet, as PyTorch takes them (used by every op
with two operands): a Python number becomes a 0-dim tensor that still promotes like a
number (`wrap_number`), and both operands become arrays of their promoted dtype, with
PyTorch's message when shapes do not broadcast (`binary_arrays`).
"""
import numpy as np

from ..core.grad_mode import state as _grad_mode
from ..core.tensor import TensorBase
from ..speed.unrecorded import nothing_recorded
from ..surface import dtypes
from .builtin import BuiltinBackward, BuiltinFunction



class Add(BuiltinFunction):
    """out = a + alpha * b;  da = g,  db = alpha * g."""

    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        _remember_shapes(ctx, a, b)
        ctx.alpha = alpha
        x, y = binary_arrays(a, b)
        return a._new(x + y if alpha == 1 else x + alpha * y)

    @staticmethod
    def backward(ctx, grad):
        grad_b = None
        if ctx.needs_input_grad[1]:
            grad_b = _sum_to(grad if ctx.alpha == 1 else _times(grad, ctx.alpha), ctx.b_shape)
        return _sum_to(grad, ctx.a_shape), grad_b, None


class Sub(BuiltinFunction):
    """out = a - alpha * b;  da = g,  db = -alpha * g."""

    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        _remember_shapes(ctx, a, b)
        ctx.alpha = alpha
        check_sub(a, b)
        x, y = binary_arrays(a, b)
        return a._new(x - y if alpha == 1 else x - alpha * y)

    @staticmethod
    def backward(ctx, grad):
        grad_b = None
        if ctx.needs_input_grad[1]:
            grad_b = _negative(grad) if ctx.alpha == 1 else _times(_negative(grad), ctx.alpha)
            grad_b = _sum_to(grad_b, ctx.b_shape)
        return _sum_to(grad, ctx.a_shape), grad_b, None


class RSub(BuiltinFunction):
    """out = number - a;  da = -g."""

    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, a, number):
        check_sub(number, a)
        x, y = binary_arrays(a, number)
        return a._new(y - x)

    @staticmethod
    def backward(ctx, grad):
        return _negative(grad), None


class Mul(BuiltinFunction):
    """out = a * b;  da = g * b,  db = g * a."""

    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        x, y = binary_arrays(a, b)
        ctx.save_for_backward(b if ctx.needs_input_grad[0] else None,
                              a if ctx.needs_input_grad[1] else None)
        return a._new(x * y)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        grad_a = None if b is None else _times(grad, b)
        grad_b = None if a is None else _times(grad, a)
        return grad_a, grad_b              # (a broadcast operand's: summed back by the engine)


class KeptNumberBackward(BuiltinBackward):
    """The node of an op that keeps a Python number as a number (`x * 2`: MulNumber).
    PyTorch's node saves that number as a tensor, in its slot `other`; this one has
    PyTorch's two slots (other, self), empty until `grad_fn._saved_other` asks for the
    number (surface/saved_attributes.py), and a backward frees them as any node's."""

    _saved = (None, None)


class MulNumber(BuiltinFunction):
    """out = a * n for a Python number n;  da = g * n.  (PyTorch's node is the one of a
    product of tensors, MulBackward0.  It keeps n as a number: nothing can change it in
    place, so there is nothing to save; `grad_fn._saved_other` shows it as PyTorch's saved
    tensor, and backward then reads that one.)"""

    node_name = "MulBackward0"
    _node_base = KeptNumberBackward

    @staticmethod
    def forward(ctx, a, number):
        x, y = binary_arrays(a, number)
        ctx.number = number._data.item()
        return a._new(x * y)

    @staticmethod
    def backward(ctx, grad):
        other, _ = ctx.saved_tensors
        return _times(grad, ctx.number if other is None else other), None


class Div(BuiltinFunction):
    """out = a / b;  da = g / b,  db = -g * ((a / b) / b)  (PyTorch's order of operations)."""

    node_name = "DivBackward0"

    @staticmethod
    def forward(ctx, a, b):
        x, y = binary_arrays(a, b, floating=True)
        _remember_shapes(ctx, a, b)
        ctx.save_for_backward(b, a if ctx.needs_input_grad[1] else None)   # (other, self)
        return a._new(x / y)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        grad_a = _sum_to(grad / b, ctx.a_shape) if ctx.needs_input_grad[0] else None
        grad_b = _sum_to(-grad * (a / b / b), ctx.b_shape) if a is not None else None
        return grad_a, grad_b


class DivNumber(BuiltinFunction):
    """out = a / n for a Python number n;  da = g / n.  (DivBackward0, as a quotient of
    tensors; the node keeps n as a number, as MulNumber does.)"""

    node_name = "DivBackward0"
    _node_base = KeptNumberBackward

    @staticmethod
    def forward(ctx, a, number):
        x, y = binary_arrays(a, number, floating=True)
        ctx.number = number._data.item()
        return a._new(x / y)

    @staticmethod
    def backward(ctx, grad):
        other, _ = ctx.saved_tensors
        return grad / (ctx.number if other is None else other), None


class DivScalar(BuiltinFunction):
    """out = a / number, the number not a tensor (PyTorch's div.Scalar, as mean's backward
    divides);  da = g / number."""

    node_name = "DivBackward1"

    @staticmethod
    def forward(ctx, a, number):
        ctx.number = number
        x, y = binary_arrays(a, number, floating=True)
        return a._new(x / y)

    @staticmethod
    def backward(ctx, grad):
        return DivScalar.apply(grad, ctx.number), None


class MulScalar(BuiltinFunction):
    """out = a * number, the number not a tensor (PyTorch's mul.Scalar, as pow's backward
    multiplies);  da = g * number."""

    node_name = "MulBackward1"

    @staticmethod
    def forward(ctx, a, number):
        ctx.number = number
        x, y = binary_arrays(a, number)
        return a._new(x * y)

    @staticmethod
    def backward(ctx, grad):
        return MulScalar.apply(grad, ctx.number), None


class Reciprocal(BuiltinFunction):
    """out = 1 / a;  da = -g * out²."""

    node_name = "ReciprocalBackward0"

    @staticmethod
    def forward(ctx, a):
        x, one = binary_arrays(a, 1.0, floating=True)
        result = a._new(one / x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return -grad * (result * result)


class Neg(BuiltinFunction):
    """out = -a;  da = -g."""

    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        check_sub(a)
        return a._new(-a._data)

    @staticmethod
    def backward(ctx, grad):
        return _negative(grad)


# --- what the backwards above share ----------------------------------------------------

def _reduce(grad, operand):
    """The gradient of a broadcast operand, summed to its shape (None for numbers)."""
    return _sum_to(grad, operand.shape) if is_tensor(operand) else None


def _sum_to(grad, shape):
    """`grad.sum_to_size(shape)` (shape None: nothing was broadcast).  When nothing is
    recorded and only leading dims go (a bias's gradient), one plain sum: a new array
    that the leaf can keep, not a view."""
    if shape is None or grad._data.shape == shape:     # nothing was broadcast (most ops)
        return grad
    lead = grad._data.ndim - len(shape)
    if lead > 0 and grad._data.shape[lead:] == shape and nothing_recorded():
        return grad._new(grad._data.sum(axis=tuple(range(lead))))
    return grad.sum_to_size(shape)


def _times(grad, factor):
    """grad * factor: recorded under create_graph; else the same product on arrays, as
    Mul's forward computes it (NOTE [backward on arrays] in minigrad/speed/)."""
    if nothing_recorded():
        x, y = binary_arrays(grad, factor)
        return grad._new(x * y)
    return grad * factor


def _negative(grad):
    """-grad: recorded under create_graph; else the same on arrays (as _times)."""
    if nothing_recorded():
        return grad._new(-grad._data)
    return -grad


def _remember_shapes(ctx, a, b):
    """The shape of each operand that was broadcast, for backward to sum its gradient
    back to; None for one of the result's shape (nothing to sum).  A 0-dim operand
    (a number) leaves the other one as it is."""
    a_shape = a._data.shape
    b_shape = b._data.shape if isinstance(b, TensorBase) else a_shape
    if a_shape == b_shape:
        ctx.a_shape = ctx.b_shape = None
    elif not b_shape:
        ctx.a_shape, ctx.b_shape = None, ()
    elif not a_shape:
        ctx.a_shape, ctx.b_shape = (), None
    else:
        ctx.a_shape, ctx.b_shape = a_shape, b_shape


# --- operands: how two operands meet, as PyTorch takes them ----------------------------

def is_tensor(value):
    return isinstance(value, TensorBase)


def array_of(value, dtype, like):
    """The data of a tensor or a Python number, as an array of `dtype` on `like`'s device."""
    if is_tensor(value):
        data = value._data
        return data if data.dtype == dtype.numpy else data.astype(dtype.numpy)
    xp = like._xp
    return xp.asarray(value, dtype=dtype.numpy)


def wrap_number(value, like):
    """A Python number operand of + - * / as PyTorch passes it: a 0-dim tensor that needs
    no grad (next_functions shows it as (None, 0)) and that still promotes like a number
    (`dtypes.result_type`).  Anything else is returned unchanged."""
    if type(value) is float:                    # the common case first: no isinstance chain
        kind = dtypes.float64                   # (doubles, as PyTorch)
    elif isinstance(value, TensorBase):
        return value
    elif isinstance(value, np.ndarray):         # x * an array: PyTorch goes through numpy
        if like.requires_grad and _grad_mode.enabled:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        return like._new(like._xp.asarray(value))
    elif not isinstance(value, (bool, int, float, np.number, np.bool_)):
        return value
    else:
        floating = isinstance(value, (float, np.floating))
        kind = dtypes.float64 if floating else dtypes.scalar_dtype(value)
    if type(like._data) is np.ndarray:
        wrapped = like._make(np.array(value, kind.numpy))
    else:
        wrapped = like._new(like._xp.asarray(value, dtype=kind.numpy))
    wrapped._wrapped_number = True
    return wrapped


def binary_arrays(a, b, floating=False):
    """Both operands as arrays of their promoted dtype (PyTorch's promotion rules)."""
    if isinstance(a, TensorBase) and isinstance(b, TensorBase):   # one dtype: nothing to do
        x, y = a._data, b._data
        if x.dtype is y.dtype and (not floating or x.dtype.kind == "f"):
            if x.shape != y.shape and x.ndim and y.ndim:    # (0-dim always broadcasts)
                check_shapes_broadcast(x.shape, y.shape)
            return x, y
        if x.ndim and not y.ndim and x.dtype.kind == "f":    # a number: a's float dtype wins
            return x, y.astype(x.dtype)
    elif type(b) is float and isinstance(a, TensorBase) and a._data.dtype.kind == "f":
        return a._data, a._data.dtype.type(b)              # a float: a's float dtype wins
    result = dtypes.result_type(a, b)
    if floating and not result.is_floating_point:
        result = dtypes.get_default_dtype()
    like = a if is_tensor(a) else b
    check_broadcast(a, b)
    return array_of(a, result, like), array_of(b, result, like)


def check_sub(a, b=None):
    """PyTorch refuses `-` on bool operands (a Python bool counts as one); b=None: negation."""
    bools = [getattr(v, "dtype", None) is dtypes.bool or isinstance(v, (bool, np.bool_))
             for v in ((a,) if b is None else (a, b))]
    if b is None and bools[0]:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If "
                           "you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    if all(bools):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not "
                           "supported. Use the `^` or `logical_xor()` operator instead.")
    if any(bools):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")


def check_broadcast(a, b):
    """PyTorch's message when shapes do not broadcast."""
    check_shapes_broadcast(a.shape if is_tensor(a) else (), b.shape if is_tensor(b) else ())


def check_shapes_broadcast(sa, sb):
    """The same check on two shapes (matmul checks only its batch dims)."""
    for i, (x, y) in enumerate(zip(reversed(sa), reversed(sb))):
        if x != y and x != 1 and y != 1:
            dim = max(len(sa), len(sb)) - 1 - i
            raise RuntimeError(
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                f"non-singleton dimension {dim}")
