"""More reductions: cumsum, prod, amax/amin, logsumexp, vector norms, var and std.

Each backward puts the gradient back in the reduced dims with reduce._unreduce.
"""
import math

from .. import dtypes
from .builtin import BuiltinFunction
from .shape import normalize_dim, normalize_dims
from .combine import MaskedFill, Where
from .reduce import _unreduce


def _int64_if_integral(x):
    """Sums and products of ints and bools are int64, as in PyTorch."""
    data = x._data
    return data if x.dtype.is_floating_point else data.astype(dtypes.int64.numpy)


def _float_only(x, message):
    if not x.dtype.is_floating_point:
        raise RuntimeError(message)


class Cumsum(BuiltinFunction):
    """out[i] = Σ_{j≤i} x[j] along dim;  dx[j] = Σ_{i≥j} g[i] (a cumsum of g reversed)."""

    node_name = "CumsumBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = normalize_dim(dim, x.ndim)
        data = _int64_if_integral(x)
        return x._new(data.cumsum(axis=ctx.dim) if x.ndim else data.copy())

    @staticmethod
    def backward(ctx, grad):
        if not grad.ndim:
            return grad, None
        return grad.flip(ctx.dim).cumsum(ctx.dim).flip(ctx.dim), None


class Prod(BuiltinFunction):
    """out = Π x over `dim` (all elements when dim is None);  dx = g * Π of the others
    (g * out / x where x ≠ 0; where a zero sits, the product of the rest)."""

    node_name = "ProdBackward0"

    @staticmethod
    def forward(ctx, x, dim=None, keepdim=False):
        ctx.shape, ctx.keepdim = x.shape, keepdim
        ctx.dims = normalize_dims(dim, x.ndim) if dim is not None else tuple(range(x.ndim))
        result = x._new(_int64_if_integral(x).prod(axis=ctx.dims, keepdims=keepdim))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if x.ndim == 0:                              # PyTorch's: the gradient itself
            return grad, None, None
        g = _unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim)
        out = _unreduce(out, ctx.shape, ctx.dims, ctx.keepdim)
        zero = x == 0
        if not zero.any():
            return g * (out / x), None, None       # PyTorch's order
        return _prod_backward_with_zeros(ctx, g, x, out, zero), None, None


def _prod_backward_with_zeros(ctx, g, x, out, zero):
    """Where a zero sits, its gradient is the product of the others (0 if two are 0)."""
    safe = MaskedFill.apply(x, zero, 1)
    if ctx._function_cls is ProdDim:
        rest, zeros = safe.prod(ctx.dims[0], True), zero.sum(ctx.dims[0], keepdim=True)
    else:
        rest, zeros = safe.prod(), zero.sum()
    grad_x = g * Where.apply(zero, rest * (zeros == 1), out / safe)
    # PyTorch's full prod ends in view_as(input) here (its node: ViewBackward0)
    return grad_x if ctx._function_cls is ProdDim else grad_x.view(ctx.shape)


class ProdDim(Prod):
    """prod along one dim (PyTorch names this node ProdBackward1)."""

    node_name = "ProdBackward1"


class Amax(BuiltinFunction):
    """out = max over `dim` (all dims when empty);  dx = g shared evenly among the maxima."""

    node_name = "AmaxBackward0"
    pick = "max"

    @staticmethod
    def forward(ctx, x, dim=(), keepdim=False):
        ctx.shape, ctx.keepdim, ctx.dims = x.shape, keepdim, normalize_dims(dim, x.ndim)
        for d in ctx.dims:
            if x.shape[d] == 0:
                raise IndexError(f"{ctx._function_cls.__name__.lower()}(): Expected reduction "
                                 f"dim {d} to have non-zero size.")
        result = x._new(getattr(x._data, ctx._function_cls.pick)(axis=ctx.dims, keepdims=keepdim))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        extreme = x == _unreduce(out, ctx.shape, ctx.dims, ctx.keepdim)
        count = extreme.sum(ctx.dims, keepdim=True) if ctx.dims else extreme.sum()
        # PyTorch's scale_grad_by_count: (grad / count) * mask, in that order
        return _unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim) / count * extreme, None, None


class Amin(Amax):
    """out = min over `dim`;  dx = g shared evenly among the minima."""

    node_name = "AminBackward0"
    pick = "min"


class Logsumexp(BuiltinFunction):
    """out = log Σ eˣ over `dim` (computed as m + log Σ e^(x-m), m the max);
    dx = g * e^(x - out)."""

    node_name = "LogsumexpBackward0"

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        if isinstance(dim, (tuple, list)) and not dim and x.ndim:     # PyTorch's own failure
            raise RuntimeError(f"output with shape [] doesn't match the broadcast shape "
                               f"{[1] * x.ndim}")
        ctx.shape, ctx.keepdim, ctx.dims = x.shape, keepdim, normalize_dims(dim, x.ndim)
        xp = x._xp
        data = x._data if x.dtype.is_floating_point else x._data.astype(
            dtypes.get_default_dtype().numpy)
        top = data.max(axis=ctx.dims, keepdims=True) if data.size else xp.zeros((), data.dtype)
        top = xp.where(xp.isfinite(top), top, 0)
        total = xp.log(xp.exp(data - top).sum(axis=ctx.dims, keepdims=True)) + top
        result = x._new((total if keepdim else total.squeeze(ctx.dims)).astype(data.dtype))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        out = _unreduce(out, ctx.shape, ctx.dims, ctx.keepdim)
        return _unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim) * (x - out).exp(), None, None


class VectorNorm(BuiltinFunction):
    """out = (Σ |x|ᵖ)^(1/p) over `dim` (p = ±inf: max or min |x|, p = 0: count of x ≠ 0);  dx = g * sign(x) |x|ᵖ⁻¹ / outᵖ⁻¹
    (p = 2: g * x / out; 0 where out = 0)."""

    node_name = "LinalgVectorNormBackward0"

    @staticmethod
    def forward(ctx, x, p=2, dim=None, keepdim=False):
        _float_only(x, "linalg.vector_norm: Expected a floating point or complex tensor as "
                    f"input. Got {dtypes.legacy_name(x.dtype)}")
        ctx.shape, ctx.keepdim, ctx.dims, ctx.p = x.shape, keepdim, normalize_dims(dim, x.ndim), p
        size = abs(x._data)
        if abs(p) == math.inf:
            data = (size.max if p > 0 else size.min)(axis=ctx.dims, keepdims=keepdim)
        elif p == 0:                           # how many are not 0
            data = (size != 0).sum(axis=ctx.dims, keepdims=keepdim)
        else:
            data = (size ** p).sum(axis=ctx.dims, keepdims=keepdim) ** (1 / p)
        result = x._new(data.astype(x._data.dtype))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        g = _unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim)
        out = _unreduce(out, ctx.shape, ctx.dims, ctx.keepdim)
        if ctx.p == 0:                         # a count: no gradient at all (as PyTorch)
            return None, None, None, None
        if abs(ctx.p) == math.inf:
            extreme = x.abs() == out
            count = extreme.sum(ctx.dims, keepdim=True) if ctx.dims else extreme.sum()
            return x.sign() * (g / count * extreme), None, None, None
        if ctx.p == 1:
            return x.sign() * g, None, None, None
        if ctx.p == 2:     # PyTorch's order: grad * (x / out).masked_fill_(out == 0, 0)
            return g * MaskedFill.apply(x / out, out == 0, 0), None, None, None
        return _p_norm_backward(x, g, out, ctx.p), None, None, None


def _p_norm_backward(x, g, out, p):
    """PyTorch's norm_backward for the other p, branch by branch (0 where x or out is 0)."""
    if p < 1:
        scaled = MaskedFill.apply(x.sign() * x.abs() ** (p - 1), x == 0, 0)
        return scaled * g * out ** (1 - p)
    scale = MaskedFill.apply(g / out ** (p - 1), out == 0, 0)
    if p < 2:
        return x.sign() * x.abs() ** (p - 1) * scale
    return x * x.abs() ** (p - 2) * scale


def var_arguments(dim, unbiased, correction):
    """(dim, correction) of var, std and their _mean forms: correction 1 unless
    unbiased=False; var(False) is the old unbiased argument."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if correction is None:
        correction = 0 if unbiased is False else 1
    return dim, correction


class Var(BuiltinFunction):
    """out = Σ (x - mean)² / (n - correction) over `dim`;
    dx = g * 2 (x - mean) / (n - correction)."""

    node_name = "VarBackward0"

    @staticmethod
    def forward(ctx, x, dim=None, correction=1, keepdim=False):
        _float_only(x, "std and var only support floating point and complex dtypes")
        ctx.shape, ctx.keepdim, ctx.dims = x.shape, keepdim, normalize_dims(dim, x.ndim)
        ctx.divisor = max(math.prod(x.shape[d] for d in ctx.dims) - correction, 0)
        centred = x._data - x._data.mean(axis=ctx.dims, keepdims=True)
        # divided, not multiplied by _inverse: with correction >= n, PyTorch's var is inf
        data = (centred * centred).sum(axis=ctx.dims, keepdims=keepdim) / ctx.divisor
        ctx.save_for_backward(x)      # not the result: PyTorch's var lets it change in place
        return x._new(data.astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return _var_backward(ctx, _unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim), x)


class Std(Var):
    """out = √var;  dx = g * (x - mean) / ((n - correction) out)."""

    node_name = "StdBackward0"

    @staticmethod
    def forward(ctx, x, dim=None, correction=1, keepdim=False):
        variance = Var.forward(ctx, x, dim, correction, keepdim)
        result = x._new(x._xp.sqrt(variance._data))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        out = _unreduce(out, ctx.shape, ctx.dims, ctx.keepdim)
        g = _unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim)
        return _var_backward(ctx, MaskedFill.apply(g / (out * 2), out == 0, 0), x)


def _var_backward(ctx, g, x):
    """PyTorch's var_backward: (2 / (n - correction)) * g * (x - mean), in that order (std
    passes g / (2 std), 0 where std is 0), so the nodes of a double backward match."""
    centred = x - x.mean(ctx.dims, keepdim=True) if ctx.dims else x - x.mean()
    return 2 * _inverse(ctx.divisor) * g * centred, None, None, None


def _inverse(divisor):
    """1 / divisor; nan for 0 (var of a single element), as PyTorch gives."""
    return 1 / divisor if divisor else math.nan


class VarMean(BuiltinFunction):
    """(var, mean) over `dim` in one node;  dx = Var's dx for g_var + g_mean / n."""

    node_name = "VarMeanBackward0"

    @staticmethod
    def forward(ctx, x, dim=None, correction=1, keepdim=False):
        _float_only(x, "var_mean only support floating point and complex dtypes")
        variance = Var.forward(ctx, x, dim, correction, keepdim)
        return variance, x._new(x._data.mean(axis=ctx.dims, keepdims=keepdim))

    @staticmethod
    def backward(ctx, grad_var, grad_mean):
        (x,) = ctx.saved_tensors
        dx = _var_backward(ctx, _unreduce(grad_var, ctx.shape, ctx.dims, ctx.keepdim), x)[0]
        return (dx + _mean_backward(ctx, grad_mean), None, None, None)


class StdMean(Std):
    """(std, mean) over `dim` in one node;  dx = Std's dx for g_std + g_mean / n."""

    node_name = "StdMeanBackward0"

    @staticmethod
    def forward(ctx, x, dim=None, correction=1, keepdim=False):
        _float_only(x, "std_mean only support floating point and complex dtypes")
        deviation = Std.forward(ctx, x, dim, correction, keepdim)
        return deviation, x._new(x._data.mean(axis=ctx.dims, keepdims=keepdim))

    @staticmethod
    def backward(ctx, grad_std, grad_mean):
        dx = Std.backward(ctx, grad_std)[0]
        return (dx + _mean_backward(ctx, grad_mean), None, None, None)


def _mean_backward(ctx, grad):
    """PyTorch's mean_backward: g spread back over the reduced dims, / n."""
    count = math.prod(ctx.shape[d] for d in ctx.dims)
    return _unreduce(grad, ctx.shape, ctx.dims, ctx.keepdim) / count



class Cumprod(BuiltinFunction):
    """out[i] = Π_{j≤i} x[j] along dim;  dx[j] = Σ_{i≥j} g[i]·Π_{k≤i, k≠j} x[k], which is
    Σ_{i≥j} g[i]·out[i] / x[j] when x has no zero."""

    node_name = "CumprodBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = normalize_dim(dim, x.ndim)
        data = _int64_if_integral(x)
        result = x._new(data.cumprod(axis=ctx.dim) if x.ndim else data.copy())
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        if not grad.ndim:
            return grad, None
        if bool((x != 0).all()):
            return (grad * out).flip(ctx.dim).cumsum(ctx.dim).flip(ctx.dim) / x, None
        return _cumprod_grad_with_zeros(grad, x, ctx.dim), None


def _cumprod_grad_with_zeros(grad, x, dim):
    """dx[j] = Σ_{i≥j} g[i]·Π_{k≤i, k≠j} x[k], term by term (x has a zero: no division)."""
    from .combine import Stack
    xs, gs = x.unbind(dim), grad.unbind(dim)
    result = []
    for j in range(len(xs)):
        before = gs[j] * 0 + 1
        for k in range(j):
            before = before * xs[k]
        total, running = gs[j] * before, before
        for i in range(j + 1, len(xs)):
            running = running * xs[i]
            total = total + gs[i] * running
        result.append(total)
    return Stack.apply(dim, *result)
