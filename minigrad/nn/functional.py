"""minigrad.nn.functional: the functions of `torch.nn.functional` that autograd
tutorials use, with PyTorch's signatures, numbers and `grad_fn` names.

Example::

    >>> import minigrad as torch
    >>> x = torch.ones(5)                      # "Learn the Basics", autograd page
    >>> y = torch.zeros(3)
    >>> w = torch.full((5, 3), 0.1, requires_grad=True)
    >>> b = torch.zeros(3, requires_grad=True)
    >>> z = torch.matmul(x, w) + b
    >>> loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    >>> loss
    tensor(0.9741, grad_fn=<BinaryCrossEntropyWithLogitsBackward0>)
    >>> loss.backward()
    >>> b.grad
    tensor([0.2075, 0.2075, 0.2075])
"""
import math as _math
import warnings as _warnings

import numpy as _np

from .. import arguments as _arguments
from .. import dtypes
from ..ops import activations as _activations
from ..ops import arithmetic as _arithmetic
from ..ops import inplace_unary as _inplace_unary
from ..ops import linalg as _linalg
from ..ops import loss as _loss
from ..ops import shape as _shape


def relu(input, inplace=False):
    """max(x, 0), elementwise."""
    return input.relu_() if inplace else input.relu()


def sigmoid(input):
    return input.sigmoid()


def softplus(input, beta=1.0, threshold=20.0):
    """ln(1 + e^(βx)) / β, a smooth relu (x itself where βx > threshold)."""
    from ..ops.unary_more import Softplus
    return Softplus.apply(input, beta, threshold)


def tanh(input):
    return input.tanh()


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """x clamped to [min_val, max_val]."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if input.dtype is dtypes.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if inplace:
        return input._inplace(_inplace_unary.HardtanhInplace, min_val, max_val)
    return _activations.Hardtanh.apply(input, min_val, max_val)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):
    """min(max(x, 0), 6): hardtanh(x, 0, 6)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def logsigmoid(input):
    """log(sigmoid(x)), computed without overflow."""
    return _activations.LogSigmoid.apply(input)


def elu(input, alpha=1.0, inplace=False):
    """x where x > 0, else alpha·(eˣ - 1)."""
    if inplace:
        return input._inplace(_inplace_unary.EluInplace, alpha)
    return _activations.Elu.apply(input, alpha)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """x where x > 0, else negative_slope·x."""
    if inplace:
        return input._inplace(_inplace_unary.LeakyReluInplace, negative_slope)
    return _activations.LeakyRelu.apply(input, negative_slope)


def relu_(input):
    return relu(input, inplace=True)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    return leaky_relu(input, negative_slope, inplace=True)


def threshold(input, threshold, value, inplace=False):
    """x where x > threshold, else value (relu is threshold(x, 0, 0))."""
    if inplace:
        return threshold_(input, threshold, value)
    return _activations.Threshold.apply(input, threshold, value)


def threshold_(input, threshold, value):
    return input._inplace(_inplace_unary.ThresholdInplace, threshold, value)


def silu(input, inplace=False):
    """x·sigmoid(x) (also called swish)."""
    return _activations.Silu.apply(input)


def gelu(input, approximate="none"):
    """x·Φ(x), Φ the standard normal's distribution function (approximate="tanh": a
    cheaper formula)."""
    return _activations.Gelu.apply(input, approximate)


def dropout(input, p=0.5, training=True, inplace=False):
    """In training, each element zeroed with probability p and the others scaled by
    1 / (1 - p); otherwise the input itself."""
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p != p:                                   # NaN: PyTorch's kernel refuses it
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return input
    from ..creation import _rng                  # PyTorch's CPU dropout: input * noise
    keep = _rng["generator"].random(input.shape) >= p    # (numpy's random numbers)
    noise = input._new(input._xp.asarray(keep * (0.0 if p == 1 else 1 / (1 - p)),
                                         dtype=input._data.dtype))
    return input * noise


def one_hot(tensor, num_classes=-1):
    """Class indices (int64) as rows of 0s with a 1 at the class: shape (..., num_classes)."""
    if tensor.dtype.name != "int64":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    data = tensor._data
    if num_classes == -1:
        num_classes = int(data.max()) + 1 if data.size else 0
    if data.size and (data.min() < 0 or data.max() >= num_classes):
        raise RuntimeError("Class values must be smaller than num_classes." if data.min() >= 0
                           else "Class values must be non-negative.")
    return tensor._new((data[..., None] == tensor._xp.arange(num_classes)).astype(data.dtype))


def _softmax_dim(ndim, name):
    """PyTorch's choice when `dim` is left out, with its warning (at the caller's line)."""
    _warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", UserWarning,
                  stacklevel=_arguments.callers_stacklevel())
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, dtype=None):
    """exp(x) / sum(exp(x)) along `dim`."""
    if dtype is not None:
        input = input.to(dtype)
    return input.softmax(_softmax_dim(input.ndim, "softmax") if dim is None else dim)


def log_softmax(input, dim=None, dtype=None):
    """x - log(sum(exp(x))) along `dim`, computed stably."""
    if dtype is not None:
        input = input.to(dtype)
    return input.log_softmax(_softmax_dim(input.ndim, "log_softmax") if dim is None else dim)


def linear(input, weight, bias=None):
    """input @ weight.T + bias, recorded as PyTorch records it: one AddmmBackward0 for a
    2-d input with a bias; a contiguous input of other dims is flattened to 2-d for it
    and viewed back (ViewBackward0); otherwise a matmul, then the bias added."""
    if not input.ndim or not weight.ndim:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.ndim}D and {weight.ndim}D")
    if bias is None:
        return input.matmul(weight.t())
    if input.ndim == 2:
        return _linalg.Addmm.apply(bias, input, weight.t(), 1, 1)
    if input.is_contiguous() and (input.ndim == 3 or bias.ndim == 1):
        flat = input.reshape(_math.prod(input.shape[:-1]), input.shape[-1])
        output = _linalg.Addmm.apply(bias, flat, weight.t(), 1, 1)
        return output.view(*input.shape[:-1], output.shape[1])
    return input.matmul(weight.t()) + bias


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input divided by its p-norm along dim (at least eps), as PyTorch writes it."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """Σ (x1 / max(‖x1‖, eps))·(x2 / max(‖x2‖, eps)) along dim (x1 and x2 broadcast), as
    PyTorch computes it: each normalized first, so the result stays within [-1, 1]."""
    _arithmetic.check_shapes_broadcast(x1.shape, x2.shape)
    x1, x2 = x1.expand(_np.broadcast_shapes(x1.shape, x2.shape)), x2.expand(
        _np.broadcast_shapes(x1.shape, x2.shape))
    x1_normalized = x1 / x1.norm(dim=dim, keepdim=True).clamp_min(eps)
    x2_normalized = x2 / x2.norm(dim=dim, keepdim=True).clamp_min(eps)
    return (x1_normalized * x2_normalized).sum(dim)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):
    """(x - y)²/(2β) where |x - y| < β, else |x - y| - β/2, averaged (or summed, or kept)."""
    _loss.check_reduction(reduction)
    return _loss.SmoothL1Loss.apply(input, target, reduction, beta)


def pad(input, pad, mode="constant", value=None):
    """input surrounded by `value` (0 by default): pad = (left, right) for the last dim,
    then (top, bottom) for the one before it ...; a negative amount cuts."""
    if mode != "constant":
        raise NotImplementedError(f"minigrad: F.pad supports mode='constant' only, not {mode!r}")
    return _shape.ConstantPad.apply(input, tuple(pad), 0 if value is None else value)


def mse_loss(input, target, reduction="mean"):
    """(input - target)², averaged (or summed, or kept)."""
    _loss.check_reduction(reduction)
    return _loss.MseLoss.apply(input, target, reduction)


def l1_loss(input, target, reduction="mean"):
    """|input - target|, averaged (or summed, or kept)."""
    _loss.check_reduction(reduction)
    losses = (input - target).abs()
    return losses if reduction == "none" else getattr(losses, reduction)()


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean",
                                     pos_weight=None):
    """Binary cross-entropy of sigmoid(input) against target in [0, 1], computed stably
    from the logits.  (`weight` and `pos_weight` are not supported.)"""
    _loss.check_reduction(reduction)
    if weight is not None or pos_weight is not None:
        raise NotImplementedError("minigrad: binary_cross_entropy_with_logits supports "
                                  "neither weight nor pos_weight")
    if not input.dtype.is_floating_point:            # (its log-sigmoid has no such kernel)
        raise NotImplementedError(f'"log_sigmoid_cpu" not implemented for '
                                  f"'{dtypes.legacy_name(input.dtype)}'")
    return _loss.BinaryCrossEntropyWithLogits.apply(input, target, reduction)


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    """Binary cross-entropy of probabilities `input` in [0, 1] against `target`."""
    _loss.check_reduction(reduction)
    if weight is not None:
        raise NotImplementedError("minigrad: binary_cross_entropy does not support weight")
    return _loss.BinaryCrossEntropy.apply(input, target, reduction)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """Negative log-likelihood: -input[i, target[i]], for log-probabilities `input`
    of shape (N, C) (or (C,)) and class indices `target` of shape (N,) (or ())."""
    _loss.check_reduction(reduction)
    return _loss.NllLoss.apply(input, target, weight, ignore_index, reduction)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """nll_loss(log_softmax(input, dim=1), target) for class indices; for class
    probabilities (`target` shaped like `input`), -Σ target · log_softmax(input)."""
    _loss.check_reduction(reduction)
    if label_smoothing:
        raise NotImplementedError("minigrad: cross_entropy does not support label_smoothing")
    if not input.ndim and target.shape != input.shape:     # (its classes are along dim 1)
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    log_probs = input.log_softmax(1 if input.ndim > 1 else 0)
    if target.shape == input.shape:        # probabilities: PyTorch's ops, in its order
        if not target.dtype.is_floating_point:
            raise RuntimeError("Expected floating point type for target with class "
                               f"probabilities, got {dtypes.legacy_name(target.dtype)}")
        _loss.check_class_weight(input, weight, "cross_entropy: ")
        products = log_probs * target if weight is None else log_probs * target * weight
        if reduction == "none":
            return -products.sum(1 if input.ndim > 1 else 0)
        if reduction == "sum":
            return -products.sum()
        rows = input.numel() // input.shape[1 if input.ndim > 1 else 0]
        return _arithmetic.DivScalar.apply(-products.sum(), rows)
    return nll_loss(log_probs, target, weight, ignore_index, reduction)
