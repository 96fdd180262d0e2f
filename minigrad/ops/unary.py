"""Elementwise functions of one tensor.

Ops whose derivative is easiest in terms of their result (exp, tanh,
sigmoid, relu, sqrt) save the result; the others save their input.
"""

from .. import dtypes
from .builtin import BuiltinFunction
from .arithmetic import check_shapes_broadcast, is_tensor
from ._unrecorded import nothing_recorded
from .arithmetic import _sum_to
from .combine import Where


def _float_data(a):
    """Integer tensors are computed in the default float dtype, as in PyTorch."""
    if a.dtype.is_floating_point:
        return a._data
    return a._data.astype(dtypes.get_default_dtype().numpy)


class Exp(BuiltinFunction):
    """out = eˣ;  dx = g * out."""

    node_name = "ExpBackward0"

    @staticmethod
    def forward(ctx, x):
        result = x._new(x._xp.exp(_float_data(x)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result


class Log(BuiltinFunction):
    """out = ln x;  dx = g / x."""

    node_name = "LogBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.log(_float_data(x)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / x


class Sin(BuiltinFunction):
    """out = sin x;  dx = g * cos x."""

    node_name = "SinBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.sin(_float_data(x)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cos()


class Cos(BuiltinFunction):
    """out = cos x;  dx = -g * sin x."""

    node_name = "CosBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(x._xp.cos(_float_data(x)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return -grad * x.sin()


class Tanh(BuiltinFunction):
    """out = tanh x;  dx = g * (1 - out²)."""

    node_name = "TanhBackward0"

    @staticmethod
    def forward(ctx, x):
        result = x._new(x._xp.tanh(_float_data(x)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        if nothing_recorded():      # NOTE [backward on arrays]
            return grad._new(_tanh_grad(grad._xp, grad._data, result._data))
        return TanhBackward.apply(grad, result)


def _tanh_grad(xp, g, y):
    """g * (1 - y²).  Big arrays: one buffer for 1 - y² and the product (on tiny arrays
    the out= calls cost more than the temporaries they save)."""
    if y.size >= 4096 and g.shape == y.shape and g.dtype == y.dtype:
        d = y * y
        return xp.multiply(g, xp.subtract(1, d, out=d), out=d)
    return g * (1 - y * y)


class TanhBackward(BuiltinFunction):
    """Tanh's backward as one op, as in PyTorch (one step instead of three; create_graph
    records this node):  out = g * (1 - y²);  dg = h * (1 - y²),  dy = h * (-2 y g)."""

    node_name = "TanhBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, out):
        ctx.save_for_backward(grad if ctx.needs_input_grad[1] else None, out)
        return grad._new(_tanh_grad(grad._xp, grad._data, out._data))

    @staticmethod
    def backward(ctx, h):
        grad, out = ctx.saved_tensors
        grad_grad = TanhBackward.apply(h, out) if ctx.needs_input_grad[0] else None
        grad_out = h * (-2 * out * grad) if grad is not None else None
        return grad_grad, grad_out


class Sigmoid(BuiltinFunction):
    """out = 1 / (1 + e⁻ˣ);  dx = g * out * (1 - out)."""

    node_name = "SigmoidBackward0"

    @staticmethod
    def forward(ctx, x):
        data = _float_data(x)
        xp = x._xp
        result = x._new((1 / (1 + xp.exp(-data))).astype(data.dtype))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result * (1 - result)


class Relu(BuiltinFunction):
    """out = max(x, 0);  dx = g where out > 0, else 0."""

    node_name = "ReluBackward0"

    @staticmethod
    def forward(ctx, x):
        if x.dtype.name == "bool":
            raise RuntimeError("Boolean inputs not supported for relu")
        result = x._new(x._xp.maximum(x._data, 0).astype(x._data.dtype))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        if nothing_recorded():      # NOTE [backward on arrays]
            return grad._new(_threshold(grad._xp, grad._data, result._data))
        return ThresholdBackward.apply(grad, result)


def _threshold(xp, g, y):
    """0 where y <= 0, else g (PyTorch's threshold_backward: a where, not a product, so a
    nan gradient stops where y <= 0, and a nan y lets g through)."""
    return xp.where(y <= 0, 0, g).astype(g.dtype, copy=False)


class ThresholdBackward(BuiltinFunction):
    """Relu's backward as one op, as in PyTorch (create_graph records this node, which
    depends on relu's output too):  out = g where y > 0;  dg = h where y > 0,  dy = 0."""

    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, result):
        ctx.save_for_backward(result)
        return grad._new(_threshold(grad._xp, grad._data, result._data))

    @staticmethod
    def backward(ctx, h):
        (result,) = ctx.saved_tensors
        grad_grad = ThresholdBackward.apply(h, result) if ctx.needs_input_grad[0] else None
        grad_result = h._new(h._xp.zeros_like(h._data)) if ctx.needs_input_grad[1] else None
        return grad_grad, grad_result


class Sqrt(BuiltinFunction):
    """out = √x;  dx = g / (2 out)."""

    node_name = "SqrtBackward0"

    @staticmethod
    def forward(ctx, x):
        result = x._new(x._xp.sqrt(_float_data(x)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad / (2 * result)


class Abs(BuiltinFunction):
    """out = |x|;  dx = g * sign(x)."""

    node_name = "AbsBackward0"

    @staticmethod
    def forward(ctx, x):
        if x.dtype.name == "bool":
            raise NotImplementedError('"abs_cpu" not implemented for \'Bool\'')
        ctx.save_for_backward(x)
        return x._new(abs(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.sign()


class Sign(BuiltinFunction):
    """out = sign(x) (-1, 0 or 1);  dx = 0."""

    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, x):
        data = x._data                          # (numpy has no sign for bools: it is x)
        return x._new(data.copy() if data.dtype.kind == "b" else x._xp.sign(data))

    @staticmethod
    def backward(ctx, grad):
        return grad._new(grad._xp.zeros_like(grad._data))   # zeros_like(grad): no history, as PyTorch


def _where_inside(inside, grad):
    """where(inside, grad, 0): PyTorch's clamp_backward, so a second derivative sees WhereBackward0."""
    return Where.apply(inside, grad, grad._new(grad._xp.zeros((), grad._data.dtype)))


class Clamp(BuiltinFunction):
    """out = min(max(x, low), high);  dx = g where low ≤ x ≤ high, else 0."""

    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx, x, low=None, high=None):
        if low is None and high is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        ctx.low, ctx.high = low, high
        ctx.save_for_backward(x)
        data = x._data       # an integer tensor clamped to 0.5 becomes float, as in PyTorch
        result = dtypes.result_type(x, *[b for b in (low, high) if b is not None]).numpy
        if low is not None:
            data = x._xp.maximum(data, low)
        if high is not None:
            data = x._xp.minimum(data, high)
        return x._new(data.astype(result))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        inside = x == x                       # all True, then narrowed
        if ctx.low is not None:
            inside = inside & (x >= ctx.low)
        if ctx.high is not None:
            inside = inside & (x <= ctx.high)
        return _where_inside(inside, grad), None, None


class ClampMin(Clamp):
    """out = max(x, low);  dx = g where x ≥ low, else 0."""

    node_name = "ClampMinBackward0"

    @staticmethod
    def forward(ctx, x, low):
        return Clamp.forward(ctx, x, low, None)

    @staticmethod
    def backward(ctx, grad):
        return Clamp.backward(ctx, grad)[:2]


class ClampMax(Clamp):
    """out = min(x, high);  dx = g where x ≤ high, else 0."""

    node_name = "ClampMaxBackward0"

    @staticmethod
    def forward(ctx, x, high):
        return Clamp.forward(ctx, x, None, high)

    @staticmethod
    def backward(ctx, grad):
        return Clamp.backward(ctx, grad)[:2]


class ClampTensor(BuiltinFunction):
    """clamp with tensor bounds (all broadcast together): dx = g where low ≤ x ≤ high,
    dlow = g where x < low, dhigh = g where x > high, each summed back to its shape."""

    node_name = "ClampBackward0"

    @staticmethod
    def forward(ctx, x, low=None, high=None):
        for bound in (low, high):
            if bound is not None:
                check_shapes_broadcast(x.shape, bound.shape)
        ctx.save_for_backward(x, low, high)
        data = x._data
        if low is not None:
            data = x._xp.maximum(data, low._data)
        if high is not None:
            data = x._xp.minimum(data, high._data)
        bounds = [b for b in (low, high) if b is not None]
        return x._new(data.astype(dtypes.result_type(x, *bounds).numpy))

    @staticmethod
    def backward(ctx, grad):
        x, low, high = ctx.saved_tensors
        inside = x == x
        if low is not None:
            inside = inside & (x >= low)
        if high is not None:
            inside = inside & (x <= high)
        grad_x = _sum_to(_where_inside(inside, grad), x.shape) if ctx.needs_input_grad[0] else None
        grad_low = grad_high = None
        if low is not None and ctx.needs_input_grad[1]:
            grad_low = _sum_to(_where_inside(x < low, grad), low.shape)
        if high is not None and ctx.needs_input_grad[2]:
            grad_high = _sum_to(_where_inside(x > high, grad), high.shape)
        return grad_x, grad_low, grad_high


def clamp(x, low=None, high=None):
    """x.clamp(min, max): numbers (ClampBackward1) or tensors (ClampBackward0), not both."""
    if is_tensor(low) or is_tensor(high):
        if not all(b is None or is_tensor(b) for b in (low, high)):
            raise TypeError("clamp() received an invalid combination of arguments - got "
                            "a Tensor and a number for min and max")
        return ClampTensor.apply(x, low, high)
    return Clamp.apply(x, low, high)
