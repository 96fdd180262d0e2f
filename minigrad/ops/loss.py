"""Loss functions, for `minigrad.nn.functional`: the few that PyTorch's autograd
tutorials use (binary cross-entropy with logits on their first page).

Each is one op, as in PyTorch, so `loss.grad_fn` prints the same name
(`BinaryCrossEntropyWithLogitsBackward0`, `MseLossBackward0`, `NllLossBackward0`).
`reduction` is "mean" (default), "sum" or "none"; the backward of "mean"
divides the incoming gradient by the number of terms averaged.
"""
from .. import dtypes
from ..autograd.function import Function
from .arithmetic import DivScalar

REDUCTIONS = ("mean", "sum", "none")


def check_reduction(reduction):
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce(x, losses, reduction, count=None):
    """Sum, average (over `count` terms, all of them by default) or keep the losses."""
    if reduction == "none":
        return x._new(losses)
    total = losses.sum()
    if reduction == "mean":
        total = total / (losses.size if count is None else count)
    return x._new(x._xp.asarray(total).astype(losses.dtype))


def _scaled(grad, reduction, count):
    """The gradient reaching each term: g / n for "mean", g itself otherwise."""
    return grad / count if reduction == "mean" else grad


def _same_size(x, target):
    if target.shape != x.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size "
                         f"({x.shape})")


class BinaryCrossEntropyWithLogits(Function):
    """ℓ = max(x, 0) - x·y + log(1 + e^-|x|)  (= -y log σ(x) - (1-y) log(1-σ(x)), stably);
    dx = g·(σ(x) - y),  dy = -g·x."""

    node_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    def forward(ctx, x, target, reduction="mean"):
        _same_size(x, target)
        ctx.reduction, ctx.count = reduction, max(x.numel(), 1)
        ctx.save_for_backward(x, target)
        xp, a, y = x._xp, x._data, target._data
        losses = xp.maximum(a, 0) - a * y + xp.log1p(xp.exp(-xp.abs(a)))
        # PyTorch computes (1 - target).mul_(x)...: the loss has the target's float dtype.
        dtype = y.dtype if target.dtype.is_floating_point else a.dtype
        return _reduce(x, losses.astype(dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, target = ctx.saved_tensors
        # PyTorch's order: (σ(x) - y) * g, then /= n for "mean" (node DivBackward1)
        grad_x = (x.sigmoid() - target) * grad if ctx.needs_input_grad[0] else None
        grad_target = -x * grad if ctx.needs_input_grad[1] else None
        if ctx.reduction == "mean":
            grad_x, grad_target = (None if g is None else DivScalar.apply(g, ctx.count)
                                   for g in (grad_x, grad_target))
        return grad_x, grad_target, None


class BinaryCrossEntropy(Function):
    """ℓ = -(y·log p + (1-y)·log(1-p)), each log clamped at -100 as in PyTorch;
    dp = g·(p - y) / max(p(1-p), 1e-12),  dy = g·(log(1-p) - log p)."""

    node_name = "BinaryCrossEntropyBackward0"

    @staticmethod
    def forward(ctx, p, target, reduction="mean"):
        _same_size(p, target)
        xp, a, y = p._xp, p._data, target._data
        if ((a < 0) | (a > 1)).any():
            raise RuntimeError("all elements of input should be between 0 and 1")
        ctx.reduction, ctx.count = reduction, max(p.numel(), 1)
        ctx.save_for_backward(p, target)
        log_p, log_q = xp.maximum(xp.log(a), -100), xp.maximum(xp.log1p(-a), -100)
        return _reduce(p, (-(y * log_p + (1 - y) * log_q)).astype(a.dtype, copy=False),
                       reduction)

    @staticmethod
    def backward(ctx, grad):
        p, target = ctx.saved_tensors
        g = _scaled(grad, ctx.reduction, ctx.count)
        grad_p = grad_target = None
        if ctx.needs_input_grad[0]:
            grad_p = g * (p - target) / ((1 - p) * p).clamp(min=1e-12)
        if ctx.needs_input_grad[1]:
            grad_target = g * ((1 - p).log().clamp(min=-100) - p.log().clamp(min=-100))
        return grad_p, grad_target, None


class MseLoss(Function):
    """ℓ = (x - y)²  (x and y broadcast);  dx = 2g·(x - y),  dy = -2g·(x - y)."""

    node_name = "MseLossBackward0"

    @staticmethod
    def forward(ctx, x, target, reduction="mean"):
        ctx.reduction = reduction
        ctx.save_for_backward(x, target)
        losses = (x._data - target._data) ** 2
        ctx.count = max(losses.size, 1)
        dtype = dtypes.result_type(x, target).numpy
        return _reduce(x, losses.astype(dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, target = ctx.saved_tensors
        both = 2 * _scaled(grad, ctx.reduction, ctx.count) * (x - target)
        grad_x = both.sum_to_size(x.shape) if ctx.needs_input_grad[0] else None
        grad_target = (-both).sum_to_size(target.shape) if ctx.needs_input_grad[1] else None
        return grad_x, grad_target, None


def _picked(log_probs, target, weight, ignore_index):
    """Where each row's target class is, and its weight (0 for ignored rows):
    an array shaped like log_probs, zero except at (row, target[row])."""
    xp = log_probs._xp
    lp = log_probs._data.reshape(-1, log_probs.shape[-1])
    classes = target._data.reshape(-1)
    keep = classes != ignore_index
    if keep.any() and ((classes[keep] < 0) | (classes[keep] >= lp.shape[1])).any():
        bad = classes[keep][(classes[keep] < 0) | (classes[keep] >= lp.shape[1])][0]
        raise IndexError(f"Target {int(bad)} is out of bounds.")
    safe = xp.where(keep, classes, 0)
    w = xp.ones(lp.shape[1], lp.dtype) if weight is None else weight._data
    row_weight = xp.where(keep, w[safe], 0).astype(lp.dtype)
    where = xp.zeros_like(lp)
    where[xp.arange(len(safe)), safe] = row_weight
    return where.reshape(log_probs.shape), row_weight


class NllLoss(Function):
    """ℓᵢ = -wᵢ·x[i, targetᵢ] (rows of class scores x, target class indices);
    "mean" divides by Σ wᵢ;  dx[i, targetᵢ] = -g·wᵢ, 0 elsewhere."""

    node_name = "NllLossBackward0"

    @staticmethod
    def forward(ctx, x, target, weight=None, ignore_index=-100, reduction="mean"):
        if x.ndim not in (1, 2) or target.ndim != x.ndim - 1:
            raise RuntimeError(f"nll_loss: expected input of 1 or 2 dimensions and a target "
                               f"of one less, got input {x.shape} and target {target.shape}")
        where, row_weight = _picked(x, target, weight, ignore_index)
        ctx.where, ctx.reduction, ctx.count = where, reduction, float(row_weight.sum())
        losses = -(x._data * where).sum(axis=-1)
        return _reduce(x, losses.astype(x._data.dtype, copy=False), reduction, ctx.count)

    @staticmethod
    def backward(ctx, grad):
        g = _scaled(grad, ctx.reduction, ctx.count)
        if ctx.reduction == "none" and g.ndim:
            g = g.unsqueeze(-1)
        return -g * grad._new(ctx.where), None, None, None, None
