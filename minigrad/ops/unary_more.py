"""More elementwise functions: log1p expm1 log2 log10, sinh cosh, asin acos atan atan2,
softplus, and the rounding family (floor ceil round trunc: gradient 0)."""
import math

from ..dtypes import legacy_name
from .builtin import BuiltinFunction
from .arithmetic import binary_arrays
from .combine import Where
from .unary import _float_data


class Log1p(BuiltinFunction):
    """out = ln(1 + x);  dx = g / (1 + x)."""

    node_name = "Log1PBackward0"
    compute = "log1p"

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x._new(getattr(x._xp, ctx._function_cls.compute)(_float_data(x)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x + 1)


class Log2(Log1p):
    """out = log₂ x;  dx = g / (x ln 2)."""

    node_name = "Log2Backward0"
    compute = "log2"

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x * math.log(2.0))


class Log10(Log1p):
    """out = log₁₀ x;  dx = g / (x ln 10)."""

    node_name = "Log10Backward0"
    compute = "log10"

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x * math.log(10.0))


class Sinh(Log1p):
    """out = sinh x;  dx = g * cosh x."""

    node_name = "SinhBackward0"
    compute = "sinh"

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cosh()


class Cosh(Log1p):
    """out = cosh x;  dx = g * sinh x."""

    node_name = "CoshBackward0"
    compute = "cosh"

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.sinh()


class Asin(Log1p):
    """out = arcsin x;  dx = g / √(1 - x²)."""

    node_name = "AsinBackward0"
    compute = "arcsin"

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * (1 - x * x).sqrt().reciprocal()    # a Mul last, as PyTorch's rsqrt


class Acos(Log1p):
    """out = arccos x;  dx = -g / √(1 - x²)."""

    node_name = "AcosBackward0"
    compute = "arccos"

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -(1 - x * x).sqrt().reciprocal()   # a Mul last, as PyTorch's


class Atan(Log1p):
    """out = arctan x;  dx = g / (1 + x²)."""

    node_name = "AtanBackward0"
    compute = "arctan"

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (x * x + 1)


class Expm1(BuiltinFunction):
    """out = eˣ - 1;  dx = g * (out + 1)."""

    node_name = "Expm1Backward0"

    @staticmethod
    def forward(ctx, x):
        result = x._new(x._xp.expm1(_float_data(x)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * (result + 1)


class Atan2(BuiltinFunction):
    """out = atan2(y, x), the angle of the point (x, y);
    dy = g * x / (x² + y²),  dx = -g * y / (x² + y²)  (both 0 at the origin, as PyTorch's)."""

    node_name = "Atan2Backward0"

    @staticmethod
    def forward(ctx, y, x):
        ctx.save_for_backward(x, y)                 # (PyTorch's order: other, self)
        a, b = binary_arrays(y, x, floating=True)
        return y._new(y._xp.arctan2(a, b))

    @staticmethod
    def backward(ctx, grad):
        x, y = ctx.saved_tensors
        denominator = x * x + y * y
        recip = denominator.reciprocal().masked_fill(denominator == 0, 0.0)   # 0 at (0, 0)
        return (grad * x * recip).sum_to_size(y.shape), (grad * -y * recip).sum_to_size(x.shape)


class Softplus(BuiltinFunction):
    """out = ln(1 + e^(βx)) / β  (x itself where βx > threshold);
    dx = g * sigmoid(βx)  (g where βx > threshold)."""

    node_name = "SoftplusBackward0"

    @staticmethod
    def forward(ctx, x, beta=1.0, threshold=20.0):
        if not x.dtype.is_floating_point:
            raise NotImplementedError(
                f'"softplus_cpu" not implemented for \'{legacy_name(x.dtype)}\'')
        ctx.beta, ctx.threshold = beta, threshold
        ctx.save_for_backward(x)
        xp, data = x._xp, x._data
        scaled = data * beta
        soft = xp.log1p(xp.exp(xp.minimum(scaled, threshold))) / beta
        return x._new(xp.where(scaled > threshold, data, soft).astype(data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        scaled = x * ctx.beta
        return Where.apply(scaled > ctx.threshold, grad, grad * scaled.sigmoid()), None, None


class Floor(BuiltinFunction):
    """out = ⌊x⌋ (integers come back unchanged);  dx = 0."""

    node_name = "FloorBackward0"
    compute = "floor"

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


class Ceil(Floor):
    """out = ⌈x⌉;  dx = 0."""

    node_name = "CeilBackward0"
    compute = "ceil"


class Trunc(Floor):
    """out = x rounded toward 0;  dx = 0."""

    node_name = "TruncBackward0"
    compute = "trunc"


class Round(Floor):
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



class Rsqrt(BuiltinFunction):
    """out = 1 / √x;  dx = -g·out³ / 2."""

    node_name = "RsqrtBackward0"

    @staticmethod
    def forward(ctx, x):
        result = x._new(1 / x._xp.sqrt(_float_data(x)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return -0.5 * grad * result * result * result


class NanToNum(BuiltinFunction):
    """out = x with nan, inf and -inf replaced (by 0 and the dtype's largest and smallest
    numbers unless given);  dx = g where x is finite, 0 elsewhere."""

    node_name = "NanToNumBackward0"

    @staticmethod
    def forward(ctx, x, nan=0.0, posinf=None, neginf=None):
        ctx.save_for_backward(x)
        return x._new(x._xp.nan_to_num(x._data, nan=0.0 if nan is None else nan, posinf=posinf,
                                        neginf=neginf))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return Where.apply(x.isfinite(), grad, grad * 0), None, None, None
