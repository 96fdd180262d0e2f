"""Loss functions, for `minigrad.nn.functional`: the few that PyTorch's autograd
tutorials use (binary cross-entropy with logits on their first page).

Each is one op, as in PyTorch, so `loss.grad_fn` prints the same name
(`BinaryCrossEntropyWithLogitsBackward0`, `MseLossBackward0`, `NllLossBackward0`).
`reduction` is "mean" (default), "sum" or "none"; the backward of "mean"
divides the incoming gradient by the number of terms averaged.
"""
from .. import dtypes
from .builtin import BuiltinFunction
from .arithmetic import DivScalar, check_broadcast
from .combine import Where

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


class BinaryCrossEntropyWithLogits(BuiltinFunction):
    """ℓ = max(x, 0) - x·y + log(1 + e^-|x|)  (= -y log σ(x) - (1-y) log(1-σ(x)), stably);
    dx = g·(σ(x) - y),  dy = -g·x."""

    node_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    def forward(ctx, x, target, reduction="mean"):
        _same_size(x, target)
        if not target.dtype.is_floating_point:     # (its result is written in target's dtype)
            raise RuntimeError(f"result type {dtypes.legacy_name(x.dtype)} can't be cast to the "
                               f"desired output type {dtypes.legacy_name(target.dtype)}")
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


class BinaryCrossEntropy(BuiltinFunction):
    """ℓ = -(y·log p + (1-y)·log(1-p)), each log clamped at -100 as in PyTorch;
    dp = g·(p - y) / max(p(1-p), 1e-12),  dy = g·(log(1-p) - log p)."""

    node_name = "BinaryCrossEntropyBackward0"

    @staticmethod
    def forward(ctx, p, target, reduction="mean"):
        _same_size(p, target)
        if target.dtype is not p.dtype:
            raise RuntimeError(f"Found dtype {dtypes.legacy_name(target.dtype)} but expected "
                               f"{dtypes.legacy_name(p.dtype)}")
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


class MseLoss(BuiltinFunction):
    """ℓ = (x - y)²  (x and y broadcast);  dx = 2g·(x - y),  dy = -2g·(x - y)."""

    node_name = "MseLossBackward0"

    @staticmethod
    def forward(ctx, x, target, reduction="mean"):
        dtype = dtypes.result_type(x, target)
        if not dtype.is_floating_point:
            raise NotImplementedError(f'"mse_cpu" not implemented for \'{dtypes.legacy_name(dtype)}\'')
        check_broadcast(x, target)
        ctx.reduction = reduction
        ctx.save_for_backward(x, target)
        losses = (x._data - target._data) ** 2
        ctx.count = max(losses.size, 1)
        return _reduce(x, losses.astype(dtype.numpy, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, target = ctx.saved_tensors
        both = 2 * _scaled(grad, ctx.reduction, ctx.count) * (x - target)
        grad_x = both.sum_to_size(x.shape) if ctx.needs_input_grad[0] else None
        grad_target = (-both).sum_to_size(target.shape) if ctx.needs_input_grad[1] else None
        return grad_x, grad_target, None


def check_nll_arguments(x, target, weight):
    """PyTorch's refusals, in its order: rows that do not match, a target that is not
    class indices (int64 or uint8), a weight per class of the wrong size or dtype."""
    if not x.ndim:
        raise ValueError("Expected 1 or more dimensions (got 0)")
    rows = target.shape[0] if target.ndim else 0
    if x.ndim != 1 and x.shape[0] != rows:
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target "
                         f"batch_size ({rows}).")
    if x.ndim == 1 and target.ndim == 1 and target.shape[0] != 1:
        raise ValueError("For 1D input, 1D target must have size 1, but got target size: "
                         f"{target.shape[0]}")
    if target.dtype.name not in ("int64", "uint8"):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           f"{dtypes.legacy_name(target.dtype)}")
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f'"nll_loss_out_frame" not implemented for '
                                  f"'{dtypes.legacy_name(x.dtype)}'")
    check_class_weight(x, weight)
    if weight is not None and weight.requires_grad:
        raise RuntimeError("The function 'nll_loss_forward' is not differentiable with respect "
                           "to argument 'weight'. This input cannot have requires_grad True.")


def check_class_weight(x, weight, prefix=""):
    classes = x.shape[-1] if x.ndim else 1
    if weight is not None and weight.numel() != classes:
        raise RuntimeError(f"{prefix}weight tensor should be defined either for all {classes} "
                           "classes or no classes but got weight tensor of shape: "
                           f"{list(weight.shape)}")
    if weight is not None and weight.dtype is not x.dtype:
        raise RuntimeError(f"expected scalar type {dtypes.legacy_name(x.dtype)} but found "
                           f"{dtypes.legacy_name(weight.dtype)}")


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


class NllLoss(BuiltinFunction):
    """ℓᵢ = -wᵢ·x[i, targetᵢ] (rows of class scores x, target class indices);
    "mean" divides by Σ wᵢ;  dx[i, targetᵢ] = -g·wᵢ, 0 elsewhere."""

    node_name = "NllLossBackward0"
    nondifferentiable_args = (1, 2)        # the target, the weight: no edges (as PyTorch)

    @staticmethod
    def forward(ctx, x, target, weight=None, ignore_index=-100, reduction="mean"):
        check_nll_arguments(x, target, weight)
        if x.ndim not in (1, 2) or (target.ndim != x.ndim - 1 and target.shape != (1,)):
            raise RuntimeError(f"nll_loss: expected input of 1 or 2 dimensions and a target "
                               f"of one less, got input {x.shape} and target {target.shape}")
        where, row_weight = _picked(x, target, weight, ignore_index)
        ctx.where, ctx.reduction, ctx.count = where, reduction, float(row_weight.sum())
        ctx.arguments = (target, weight, ignore_index, reduction)     # for a double backward
        ctx.save_for_backward(x, weight)  # as PyTorch: changing x in place is then caught
        losses = -(x._data * where).sum(axis=-1)
        return _reduce(x, losses.astype(x._data.dtype, copy=False), reduction, ctx.count)

    @staticmethod
    def backward(ctx, grad):
        x, _ = ctx.saved_tensors
        return NllLossBackward.apply(grad, x, ctx), None, None, None, None


class NllLossBackward(BuiltinFunction):
    """NllLoss's backward as one op, as in PyTorch (create_graph records this node, which
    depends on the input x too):  out = -g·wᵢ at each (i, targetᵢ) ("mean": / Σ wᵢ);
    dg = nll_loss(h) with the same target and weight,  dx = 0."""

    node_name = "NllLossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, loss):
        ctx.loss = loss
        if loss.count == 0 and loss.reduction == "mean":     # every row ignored: all 0
            return grad._new(grad._xp.zeros_like(loss.where))
        g = grad._data / loss.count if loss.reduction == "mean" else grad._data
        if loss.reduction == "none" and g.ndim:
            g = g[..., None]
        return grad._new((-g * loss.where).astype(loss.where.dtype, copy=False))

    @staticmethod
    def backward(ctx, h):
        grad_grad = NllLoss.apply(h, *ctx.loss.arguments) if ctx.needs_input_grad[0] else None
        grad_x = h._new(h._xp.zeros_like(h._data)) if ctx.needs_input_grad[1] else None
        return grad_grad, grad_x, None


class SmoothL1Loss(BuiltinFunction):
    """ℓ = (x - y)²/(2β) where |x - y| < β, else |x - y| - β/2  (β = 0: |x - y|);
    dx = g·(x - y)/β where |x - y| < β, else g·sign(x - y);  dy = -dx."""

    node_name = "SmoothL1LossBackward0"

    @staticmethod
    def forward(ctx, x, target, reduction="mean", beta=1.0):
        check_broadcast(x, target)
        ctx.reduction, ctx.beta = reduction, beta
        ctx.save_for_backward(x, target)
        d = abs(x._data - target._data)
        losses = x._xp.where(d < beta, 0.5 * d * d / (beta or 1), d - 0.5 * beta)
        ctx.count = max(losses.size, 1)
        return _reduce(x, losses.astype(x._data.dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, target = ctx.saved_tensors
        diff, g = x - target, _scaled(grad, ctx.reduction, ctx.count)
        inner = diff.abs() < ctx.beta
        both = g * Where.apply(inner, diff / (ctx.beta or 1), diff.sign())
        grad_x = both.sum_to_size(x.shape) if ctx.needs_input_grad[0] else None
        grad_target = (-both).sum_to_size(target.shape) if ctx.needs_input_grad[1] else None
        return grad_x, grad_target, None, None
