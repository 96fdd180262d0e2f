"""More activations of `torch.nn.functional` (hardtanh, leaky_relu, threshold, silu, gelu), for the
students' own networks.  Each is one op with PyTorch's node name; the backward is
written with tensor ops, so a double backward works (gelu's and silu's double-backward
nodes are then the ones of those ops, not PyTorch's fused *BackwardBackward0 nodes)."""
import math

from ..dtypes import legacy_name
from .builtin import BuiltinFunction
from .combine import where
from .special import Erf


def _float_only(x, kernel):
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{legacy_name(x.dtype)}\'')


class Hardtanh(BuiltinFunction):
    """out = x clamped to [min_val, max_val];  dx = g where min_val < x < max_val, else 0
    (0 put in place, as PyTorch's where: an infinite g there gives 0, not nan)."""

    node_name = "HardtanhBackward0"

    @staticmethod
    def forward(ctx, x, low=-1.0, high=1.0):
        ctx.low, ctx.high = low, high
        ctx.save_for_backward(x)
        return x._new(x._xp.clip(x._data, low, high).astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return where((x > ctx.low) & (x < ctx.high), grad, 0.0), None, None


class LeakyRelu(BuiltinFunction):
    """out = x where x > 0, else slope·x;  dx = g where x > 0, else slope·g."""

    node_name = "LeakyReluBackward0"

    @staticmethod
    def forward(ctx, x, slope=0.01):
        _float_only(x, "leaky_relu_cpu")
        ctx.slope = slope
        ctx.save_for_backward(x)
        data = x._data
        return x._new(x._xp.where(data > 0, data, data * slope).astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return LeakyReluBackward.apply(grad, x, ctx.slope), None


class LeakyReluBackward(BuiltinFunction):
    """LeakyRelu's backward as one op, as in PyTorch (create_graph records this node, which
    depends on x too):  out = g where x > 0, else slope·g;  dg = the same of h,  dx = 0."""

    node_name = "LeakyReluBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, slope):
        ctx.slope = slope
        ctx.save_for_backward(x)
        g = grad._data
        return grad._new(grad._xp.where(x._data > 0, g, g * slope).astype(g.dtype))

    @staticmethod
    def backward(ctx, h):
        (x,) = ctx.saved_tensors
        grad_grad = LeakyReluBackward.apply(h, x, ctx.slope) if ctx.needs_input_grad[0] else None
        grad_x = h._new(h._xp.zeros_like(h._data)) if ctx.needs_input_grad[1] else None
        return grad_grad, grad_x, None


class Threshold(BuiltinFunction):
    """out = x where x > threshold, else value;  dx = g where x > threshold, else 0."""

    node_name = "ThresholdBackward0"

    @staticmethod
    def forward(ctx, x, threshold, value):
        ctx.threshold = threshold
        ctx.save_for_backward(x)
        data = x._data
        return x._new(x._xp.where(data > threshold, data, value).astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, x, ctx.threshold), None, None


class ThresholdBackward(BuiltinFunction):
    """Threshold's backward as one op, as in PyTorch:  out = g where x > threshold, else 0;
    dg = the same of h,  dx = 0."""

    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, threshold):
        ctx.threshold = threshold
        ctx.save_for_backward(x)
        g = grad._data
        return grad._new(grad._xp.where(x._data > threshold, g, 0).astype(g.dtype))

    @staticmethod
    def backward(ctx, h):
        (x,) = ctx.saved_tensors
        grad_grad = ThresholdBackward.apply(h, x, ctx.threshold) if ctx.needs_input_grad[0] \
            else None
        grad_x = h._new(h._xp.zeros_like(h._data)) if ctx.needs_input_grad[1] else None
        return grad_grad, grad_x, None


class Silu(BuiltinFunction):
    """out = x·σ(x);  dx = g·σ(x)·(1 + x·(1 - σ(x)))."""

    node_name = "SiluBackward0"

    @staticmethod
    def forward(ctx, x):
        _float_only(x, "silu_cpu")
        ctx.save_for_backward(x)
        data = x._data
        return x._new((data / (1 + x._xp.exp(-data))).astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        s = x.sigmoid()
        return grad * s * (1 + x * (1 - s))


class Gelu(BuiltinFunction):
    """out = x·Φ(x), Φ the normal distribution (approximate="tanh": PyTorch's tanh
    formula);  dx = g·(Φ(x) + x·φ(x)), φ the normal density (tanh: its derivative)."""

    node_name = "GeluBackward0"

    @staticmethod
    def forward(ctx, x, approximate="none"):
        _float_only(x, "GeluKernelImpl")
        if approximate not in ("none", "tanh"):
            raise RuntimeError("approximate argument must be either none or tanh.")
        ctx.approximate = approximate
        ctx.save_for_backward(x)
        return x._new(_gelu(x, approximate)._data.astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        if ctx.approximate == "tanh":
            inner = _TANH_SCALE * (x + 0.044715 * x ** 3)
            t = inner.tanh()
            slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _TANH_SCALE * (1 + 3 * 0.044715 * x * x)
            return grad * slope, None
        cdf = 0.5 * (1 + Erf.apply(x / math.sqrt(2)))
        return grad * (cdf + x * (-0.5 * x * x).exp() / math.sqrt(2 * math.pi)), None


_TANH_SCALE = math.sqrt(2 / math.pi)


def _gelu(x, approximate):
    """gelu's value, with tensor ops (on arrays: forward runs in no-grad mode)."""
    if approximate == "tanh":
        return 0.5 * x * (1 + (_TANH_SCALE * (x + 0.044715 * x ** 3)).tanh())
    return 0.5 * x * (1 + Erf.apply(x / math.sqrt(2)))


class LogSigmoid(BuiltinFunction):
    """out = log(sigmoid(x)) = -softplus(-x), computed stably;  dx = g·sigmoid(-x)."""

    node_name = "LogSigmoidBackward0"

    @staticmethod
    def forward(ctx, x):
        _float_only(x, "log_sigmoid_forward")
        ctx.save_for_backward(x)
        data = x._data
        return x._new((x._xp.minimum(data, 0) - x._xp.log1p(x._xp.exp(-abs(data))))
                      .astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (-x).sigmoid()


class Elu(BuiltinFunction):
    """out = x where x > 0, else alpha·(eˣ - 1);  dx = g where x > 0, else g·alpha·eˣ."""

    node_name = "EluBackward0"

    @staticmethod
    def forward(ctx, x, alpha=1.0):
        _float_only(x, "elu")
        ctx.alpha = alpha
        data = x._data
        result = x._new(x._xp.where(data > 0, data, alpha * x._xp.expm1(data))
                        .astype(data.dtype))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return where(result > 0, grad, grad * (result + ctx.alpha)), None
