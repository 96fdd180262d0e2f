"""Ops that choose or combine elements: where, maximum/minimum, masked_fill,
cat, stack; and softmax / log_softmax (for the lessons' small networks)."""
from .. import dtypes
from .builtin import BuiltinFunction
from .arithmetic import binary_arrays, check_shapes_broadcast, is_tensor, wrap_number
from .shape import normalize_dim
from ._unrecorded import nothing_recorded


def check_mask(mask, shape):
    """A masked_fill mask: bool, and broadcastable to the filled tensor's `shape`; its array."""
    if not is_tensor(mask):
        return mask
    if mask.dtype is not dtypes.bool:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{dtypes.cpp_name(mask.dtype)}")
    check_shapes_broadcast(shape, mask.shape)
    return mask._data


def _mask_array(mask):
    return mask._data if is_tensor(mask) else mask


class Where(BuiltinFunction):
    """out = a where cond else b;  da = g where cond,  db = g elsewhere."""

    node_name = "WhereBackward0"
    nondifferentiable_args = (0,)          # the condition

    @staticmethod
    def forward(ctx, condition, a, b):
        if condition.dtype.name != "bool":
            raise RuntimeError("where expected condition to be a boolean tensor, but got a "
                               f"tensor with dtype {dtypes.legacy_name(condition.dtype)}")
        x, y = binary_arrays(a, b)
        ctx.save_for_backward(condition)     # (as PyTorch: a second backward is refused)
        ctx.a_shape, ctx.b_shape = getattr(a, "shape", None), getattr(b, "shape", None)
        like = a if is_tensor(a) else b
        return like._new(like._xp.where(condition._data, x, y))

    @staticmethod
    def backward(ctx, grad):
        (condition,) = ctx.saved_tensors
        zero = grad._new(grad._xp.zeros((), grad._data.dtype))   # not grad * 0: nan * 0
        grad_a = where(condition, grad, zero).sum_to_size(ctx.a_shape) if ctx.needs_input_grad[1] else None
        grad_b = where(condition, zero, grad).sum_to_size(ctx.b_shape) if ctx.needs_input_grad[2] else None
        return None, grad_a, grad_b


def where(condition, a, b):
    """A number among a and b is wrapped as PyTorch wraps it: a 0-dim tensor that still
    promotes as a number, with an edge (None, 0) in next_functions."""
    if not is_tensor(a) and not is_tensor(b):      # where(c, 1.0, 0.0): two numbers
        a = condition._new(condition._xp.asarray(a, dtype=dtypes.result_type(a, b).numpy))
        a._wrapped_number = True
    like = a if is_tensor(a) else b
    return Where.apply(condition, wrap_number(a, like), wrap_number(b, like))


class Maximum(BuiltinFunction):
    """out = max(a, b) elementwise;  the gradient goes to the larger (half each on ties),
    the smaller gets 0 put in its place (not g * 0: an infinite g would give nan)."""

    node_name = "MaximumBackward0"
    pick = "maximum"

    @staticmethod
    def forward(ctx, a, b):
        x, y = binary_arrays(a, b)
        ctx.save_for_backward(b, a)                 # (PyTorch's order: other, self)
        return a._new(getattr(a._xp, ctx._function_cls.pick)(x, y))

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        a_wins = (a > b) if ctx._function_cls.pick == "maximum" else (a < b)
        b_wins = (a < b) if ctx._function_cls.pick == "maximum" else (a > b)
        shared = where(a == b, grad / 2, grad)
        return (shared.masked_fill(b_wins, 0).sum_to_size(a.shape),
                shared.masked_fill(a_wins, 0).sum_to_size(b.shape))


class Minimum(Maximum):
    """out = min(a, b) elementwise;  the gradient goes to the smaller (half each on ties)."""

    node_name = "MinimumBackward0"
    pick = "minimum"


class MaskedFill(BuiltinFunction):
    """out = x with `value` where mask is True (x and mask broadcast);
    dx = g where mask is False, summed back to x's shape."""

    node_name = "MaskedFillBackward0"
    nondifferentiable_args = (1,)          # the mask

    @staticmethod
    def forward(ctx, x, mask, value):
        check_mask(mask, x.shape)
        ctx.mask, ctx.shape = mask, x.shape
        out = x._xp.where(_mask_array(mask), value, x._data)
        return x._new(out.astype(x._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        return grad.masked_fill(ctx.mask, 0.0).sum_to_size(ctx.shape), None, None


class MaskedFillTensor(BuiltinFunction):
    """out = x with the 0-dim tensor `value` where mask is True;
    dx = g where mask is False (summed to x's shape),  dvalue = the sum of g where mask is True."""

    node_name = "MaskedFillBackward1"
    nondifferentiable_args = (1,)          # the mask

    @staticmethod
    def forward(ctx, x, mask, value):
        check_mask(mask, x.shape)
        if value.ndim != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got "
                               f"tensor with {value.ndim} dimension(s).")
        ctx.mask, ctx.shape = mask, x.shape
        out = x._xp.where(_mask_array(mask), value._data, x._data)
        return x._new(out.astype(x._data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        grad_x = grad.masked_fill(ctx.mask, 0.0).sum_to_size(ctx.shape)
        zero = grad._new(grad._xp.zeros((), grad._data.dtype))
        return grad_x, None, Where.apply(ctx.mask, grad, zero).sum()


class Cat(BuiltinFunction):
    """out = the tensors joined along `dim`;  each input gets its slice of g."""

    node_name = "CatBackward0"
    device_check = ("wrapper_CUDA_cat", "tensors")

    @staticmethod
    def forward(ctx, dim, *tensors):
        first = tensors[0]
        ctx.dim = _check_cat(tensors, dim)
        ctx.sizes = [t.shape[ctx.dim] for t in tensors]
        rt = dtypes.result_type(*tensors).numpy              # mixed dtypes promote
        out = first._xp.concatenate([t._data.astype(rt) for t in tensors], axis=ctx.dim)
        return first._new(first._xp.ascontiguousarray(out))      # contiguous, as PyTorch's

    @staticmethod
    def backward(ctx, grad):
        grads, start = [], 0
        for size in ctx.sizes:
            grads.append(grad[(slice(None),) * ctx.dim + (slice(start, start + size),)])
            start += size
        return (None, *grads)


def _check_cat(tensors, dim):
    """PyTorch's refusals, in its words; the dim to join along."""
    for position, t in enumerate(tensors):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {position}) cannot be "
                               "concatenated")
    first = tensors[0]
    dim = normalize_dim(dim, first.ndim)
    for number, t in enumerate(tensors[1:], 1):
        if t.ndim != first.ndim:
            raise RuntimeError("Tensors must have same number of dimensions: got "
                               f"{first.ndim} and {t.ndim}")
        for d, (want, got) in enumerate(zip(first.shape, t.shape)):
            if d != dim and want != got:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. "
                                   f"Expected size {want} but got size {got} for tensor "
                                   f"number {number} in the list.")
    return dim


class Stack(BuiltinFunction):
    """out = the tensors stacked along a new dim;  each input gets g selected there."""

    node_name = "StackBackward0"
    device_check = ("wrapper_CUDA_cat", "tensors")      # PyTorch's stack is cat of unsqueezed

    @staticmethod
    def forward(ctx, dim, *tensors):
        first = tensors[0]
        for entry, t in enumerate(tensors):
            if t.shape != first.shape:
                raise RuntimeError(
                    f"stack expects each tensor to be equal size, but got {list(first.shape)} "
                    f"at entry 0 and {list(t.shape)} at entry {entry}")
        ctx.dim = normalize_dim(dim, first.ndim + 1)
        rt = dtypes.result_type(*tensors).numpy              # mixed dtypes promote
        out = first._xp.stack([t._data.astype(rt) for t in tensors], axis=ctx.dim)
        return first._new(first._xp.ascontiguousarray(out))      # contiguous, as PyTorch's

    @staticmethod
    def backward(ctx, grad):
        count = grad.shape[ctx.dim]
        return (None, *(grad[(slice(None),) * ctx.dim + (i,)] for i in range(count)))


def _shifted_by_max(ctx, x, dim, kernel):
    """x minus its max along dim (so that exp cannot overflow), and ctx.dim: the axis, or
    None for a 0-dim tensor (its one element).  Integers and bools are refused, as
    PyTorch has no kernel for them."""
    dim = normalize_dim(dim, x.ndim)
    if not x.dtype.is_floating_point:
        kind = "lastdim_" if dim == max(x.ndim - 1, 0) else ""
        raise NotImplementedError(f'"{kernel}_{kind}kernel_impl" not implemented for '
                                  f"'{dtypes.legacy_name(x.dtype)}'")
    ctx.dim = dim if x.ndim else None
    if x._data.size == 0:                  # nothing to take the max of
        return x._data
    return x._data - x._data.max(axis=ctx.dim, keepdims=True)


class Softmax(BuiltinFunction):
    """out = eˣ / Σ eˣ along dim;  dx = out * (g - Σ g·out)."""

    node_name = "SoftmaxBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        shifted = _shifted_by_max(ctx, x, dim, "softmax")
        e = x._xp.exp(shifted)
        # contiguous, as PyTorch's softmax (a reshape of it is then a view)
        result = x._new(x._xp.ascontiguousarray(e / e.sum(axis=ctx.dim, keepdims=True)).reshape(x.shape))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return SoftmaxBackwardData.apply(grad, out, ctx.dim), None


class SoftmaxBackwardData(BuiltinFunction):
    """Softmax's backward as one op, as in PyTorch (so create_graph records this node):
    out = y * (g - Σ g·y);  dg = y * (h - Σ h·y),  dy = g·h - (Σ y·g)·h - g·Σ y·h  (h: its grad)."""

    node_name = "SoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, grad, out, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, out)
        g, y = grad._data, out._data
        return grad._new(y * (g - (g * y).sum(axis=dim, keepdims=True)))

    @staticmethod
    def backward(ctx, h):
        grad, out = ctx.saved_tensors
        dim = ctx.dim
        grad_grad = SoftmaxBackwardData.apply(h, out, dim) if ctx.needs_input_grad[0] else None
        grad_out = None
        if ctx.needs_input_grad[1]:
            grad_out = (grad * h - (out * grad).sum(dim, keepdim=True) * h
                        - grad * (out * h).sum(dim, keepdim=True))
        return grad_grad, grad_out, None


class LogSoftmax(BuiltinFunction):
    """out = x - log Σ eˣ along dim;  dx = g - softmax(x) * Σ g."""

    node_name = "LogSoftmaxBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        shifted = _shifted_by_max(ctx, x, dim, "log_softmax")
        log_sum = x._xp.log(x._xp.exp(shifted).sum(axis=ctx.dim, keepdims=True))
        result = x._new(x._xp.ascontiguousarray(shifted - log_sum).reshape(x.shape))  # as Softmax
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        if nothing_recorded():      # NOTE [backward on arrays]
            return grad._new(_log_softmax_grad(grad._xp, grad._data, out._data, ctx.dim)), None
        return LogSoftmaxBackwardData.apply(grad, out, ctx.dim), None


def _log_softmax_grad(xp, g, y, dim):
    """g - eʸ Σ g along dim."""
    return g - xp.exp(y) * g.sum(axis=dim, keepdims=True)


class LogSoftmaxBackwardData(BuiltinFunction):
    """LogSoftmax's backward as one op, as in PyTorch:
    out = g - eʸ Σ g;  dg = h - Σ h·eʸ,  dy = -Σg · eʸ · h  (h: its grad)."""

    node_name = "LogSoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, grad, out, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, out)
        return grad._new(_log_softmax_grad(grad._xp, grad._data, out._data, dim))

    @staticmethod
    def backward(ctx, h):
        grad, out = ctx.saved_tensors
        dim = ctx.dim
        grad_grad = h - (h * out.exp()).sum(dim, keepdim=True) if ctx.needs_input_grad[0] else None
        grad_out = -grad.sum(dim, keepdim=True) * out.exp() * h if ctx.needs_input_grad[1] else None
        return grad_grad, grad_out, None
