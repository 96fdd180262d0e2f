"""In-place ops, written exactly as a student writes one: forward changes its
input, calls `ctx.mark_dirty(x)` and returns it.  `Function.apply` then makes
the node the tensor's new `grad_fn`.  The low-level write (`x._write`) bumps
the tensor's version counter, which is what catches a saved tensor that was
modified before backward.
"""
from .. import dtypes
from .builtin import InPlaceFunction
from .arithmetic import Pow, PowTensor, _power, array_of, check_broadcast, check_sub, is_tensor
from .combine import check_mask
from .index import getitem, is_advanced, key_on_device, to_key
from .shape import expanded_shape
from .unary import _where_inside


def check_clamp_bounds(out, low, high):
    """clamp_'s bounds: one at least, and no float one for an integer tensor (it cannot take
    a float result)."""
    if low is None and high is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if not out.is_floating_point and any(isinstance(b, float) for b in (low, high)):
        result = dtypes.get_default_dtype()
        raise RuntimeError(f"result type {dtypes.legacy_name(result)} can't be cast to the "
                           f"desired output type {dtypes.cpp_name(out)}")


def _value_before(x):
    """A copy of x as it is now, still attached to x's current history, so that a
    backward that needs the old value stays differentiable (create_graph)."""
    before = x._new(x._data.copy())
    if x.grad_fn is not None:
        before._set_history(x.grad_fn, x._output_nr)
    return before


def _same_dtype_and_shape(x, other):
    """`other` is a tensor like x: the common case, with no promotion or broadcast to check."""
    return is_tensor(other) and other.dtype is x.dtype and other._data.shape == x._data.shape


def _write_result(ctx, x, result_dtype, array):
    x._write(array, result_dtype, bump=False)     # mark_dirty bumps the version
    ctx.mark_dirty(x)
    return x


class AddInplace(InPlaceFunction):
    """x.add_(other, alpha=1): x ← x + alpha·other;  dx = g,  dother = alpha·g."""

    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, x, other, alpha=1):
        ctx.other_shape, ctx.alpha = getattr(other, "shape", None), alpha
        if _same_dtype_and_shape(x, other):     # an SGD step: nothing to promote or broadcast
            rt, a, b = x.dtype, x._data, other._data
        else:
            check_broadcast(x, other)
            rt = dtypes.result_type(x, other)
            a, b = array_of(x, rt, x), array_of(other, rt, x)
        x._check_write(b.shape, rt)       # then write in place, with no temporary (SGD steps)
        if alpha == -1:
            x._xp.subtract(a, b, out=x._data)
        else:
            x._xp.add(a, b if alpha == 1 else alpha * b, out=x._data)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        grad_other = (grad * ctx.alpha).sum_to_size(ctx.other_shape) if ctx.needs_input_grad[1] else None
        return grad, grad_other, None


class SubInplace(AddInplace):
    """x.sub_(other, alpha=1) is x.add_(other, alpha=-alpha)."""

    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, x, other, alpha=1):
        if not (_same_dtype_and_shape(x, other) and x.dtype is not dtypes.bool):
            check_sub(x, other)                 # (refuses bools)
        return AddInplace.forward(ctx, x, other, -alpha)


class MulInplace(InPlaceFunction):
    """x.mul_(other): x ← x·other;  dx = g·other,  dother = g·(x before)."""

    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, x, other):
        check_broadcast(x, other)
        rt = dtypes.result_type(x, other)
        before = _value_before(x) if ctx.needs_input_grad[1] else None
        ctx.save_for_backward(other if ctx.needs_input_grad[0] else None, before)  # (Mul's order)
        ctx.other_shape = other.shape
        return _write_result(ctx, x, rt, array_of(x, rt, x) * array_of(other, rt, x))

    @staticmethod
    def backward(ctx, grad):
        other, before = ctx.saved_tensors
        grad_x = grad * other if other is not None else None
        grad_other = (grad * before).sum_to_size(ctx.other_shape) if before is not None else None
        return grad_x, grad_other


class DivInplace(InPlaceFunction):
    """x.div_(other): x ← x / other;  dx = g / other,  dother = -g·((x before / other) / other).
    Like PyTorch it saves a copy of x before the write, so changing x later is allowed."""

    node_name = "DivBackward0"

    @staticmethod
    def forward(ctx, x, other):
        check_broadcast(x, other)
        rt = dtypes.result_type(x, other)
        if not rt.is_floating_point:
            rt = dtypes.get_default_dtype()
        ctx.save_for_backward(other, _value_before(x) if ctx.needs_input_grad[1] else None)
        return _write_result(ctx, x, rt, array_of(x, rt, x) / array_of(other, rt, x))

    @staticmethod
    def backward(ctx, grad):
        other, before = ctx.saved_tensors
        grad_other = (-grad * (before / other / other)).sum_to_size(other.shape) if before is not None else None
        return grad / other, grad_other


class PowInplace(InPlaceFunction):
    """x.pow_(n), x **= n: x ← x ** n.  The backward is Pow's (PowTensor's for a tensor n),
    given a copy of x from before the write: the x that Pow would have saved."""

    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx, x, exponent):
        rt = dtypes.result_type(x, exponent)
        before = _value_before(x) if any(ctx.needs_input_grad) else None
        ctx.exponent = exponent
        _write_result(ctx, x, rt, _power(array_of(x, rt, x), array_of(exponent, rt, x)))
        ctx.save_for_backward(*((exponent, before, x) if is_tensor(exponent) else (before,)))
        return x

    @staticmethod
    def backward(ctx, grad):
        return ctx._function_cls.out_of_place.backward(ctx, grad)


class PowTensorInplace(PowInplace):
    """x.pow_(n) for a tensor n: x ← x ** n, with PowTensor's backward (dn too)."""
    node_name = "PowBackward1"


PowInplace.out_of_place, PowTensorInplace.out_of_place = Pow, PowTensor


class ZeroInplace(InPlaceFunction):
    """x.zero_(): x ← 0;  dx = 0."""

    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx, x):
        return _write_result(ctx, x, x.dtype, x._xp.zeros_like(x._data))

    @staticmethod
    def backward(ctx, grad):
        return _zeros_like(grad)


class FillInplace(InPlaceFunction):
    """x.fill_(value): x ← value everywhere;  dx = 0."""

    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, x, value):
        value = value.item() if is_tensor(value) else value
        full = x._xp.full(x.shape, value, dtype=x._data.dtype)
        return _write_result(ctx, x, x.dtype, full)

    @staticmethod
    def backward(ctx, grad):
        return _zeros_like(grad), None


class FillTensorInplace(InPlaceFunction):
    """x.fill_(value), value a 0-dim tensor: x ← value everywhere;  dx = 0,  dvalue = sum(g)."""

    node_name = "FillBackward3"

    @staticmethod
    def forward(ctx, x, value):
        if value.ndim != 0:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor "
                               f"with {value.ndim} dimensions.")
        full = x._xp.full(x.shape, value.item(), dtype=x._data.dtype)
        return _write_result(ctx, x, x.dtype, full)

    @staticmethod
    def backward(ctx, grad):
        return _zeros_like(grad), grad.sum()


def _zeros_like(grad):
    """PyTorch's zeros_like(grad): no history, so a double backward does not reach it."""
    return grad._new(grad._xp.zeros_like(grad._data))


class CopyInplace(InPlaceFunction):
    """x.copy_(src): x ← src (broadcast, cast);  dx = 0,  dsrc = g summed to src's shape."""

    node_name = "torch::autograd::CopyBackwards"
    device_check = False                 # copy_ copies between devices

    @staticmethod
    def forward(ctx, x, src):
        ctx.src_shape, ctx.src_dtype, ctx.src_device = src.shape, src.dtype, src.device
        check_broadcast(x, src)
        data = src._data if src.device == x.device else src.to(x.device)._data
        return _write_result(ctx, x, x.dtype, data.astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        grad_src = None
        if ctx.needs_input_grad[1]:          # PyTorch: cast to src's dtype and device, then sum
            grad_src = grad.to(ctx.src_device, ctx.src_dtype).sum_to_size(ctx.src_shape)
        return grad._new(grad._xp.zeros_like(grad._data)), grad_src   # zeros: no history


class ClampInplace(InPlaceFunction):
    """x.clamp_(min, max);  dx = g where min ≤ x_before ≤ max, else 0."""

    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx, x, low=None, high=None):
        check_clamp_bounds(x.dtype, low, high)
        data = x._data
        clamped = data.clip(low, high).astype(data.dtype)
        ctx.inside = data == clamped
        return _write_result(ctx, x, x.dtype, clamped)

    @staticmethod
    def backward(ctx, grad):
        return _where_inside(grad._new(ctx.inside), grad), None, None


class MaskedFillInplace(InPlaceFunction):
    """x.masked_fill_(mask, value): x ← value where mask is True (mask broadcasts to x);
    dx = g where mask is False, 0 where it is True."""

    node_name = "MaskedFillBackward0"
    nondifferentiable_args = (1,)          # the mask

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.mask = check_mask(mask, x.shape)
        filled = x._xp.where(ctx.mask, value, x._data).astype(x._data.dtype, copy=False)
        return _write_result(ctx, x, x.dtype, filled)

    @staticmethod
    def backward(ctx, grad):
        return grad.masked_fill(grad._new(ctx.mask), 0.0), None, None


class SetItem(InPlaceFunction):
    """x[key] = value;  dx = g with zeros at key,  dvalue = g[key] summed to value's shape.
    The overwritten elements' gradient is replaced by 0, not multiplied by it: an infinite
    gradient reaching one (x.sqrt() at 0) gives 0, as in PyTorch, not inf * 0 = nan."""

    node_name = "torch::autograd::CopySlices"
    same_dtype = False          # a basic key writes with fill_/copy_, which cast the value
    device_check = False        # ... and copy_ copies between devices

    @staticmethod
    def forward(ctx, x, index, value):
        key = key_on_device(to_key(index), x)
        ctx.index, ctx.value_shape = index, getattr(value, "shape", None)
        ctx.value_device = getattr(value, "device", None)
        if is_tensor(value) and value.device is not x.device:
            value = value.to(x.device)
        if ctx._function_cls.same_dtype and is_tensor(value) and value.dtype is not x.dtype:
            raise RuntimeError(
                "Index put requires the source and destination dtypes match, got "
                f"{dtypes.legacy_name(x.dtype)} for the destination and {dtypes.legacy_name(value.dtype)} for "
                "the source.")
        if is_tensor(value) and value.ndim:
            _check_value_fits(value, x._data[key].shape, ctx._function_cls is IndexPut)
        x._write(array_of(value, x.dtype, x), x.dtype, key, bump=False)   # cast, as fill_/copy_
        ctx.mark_dirty(x)
        ctx.written = x._xp.zeros(x.shape, dtype=bool)
        ctx.written[key] = True
        return x

    @staticmethod
    def backward(ctx, grad):
        grad_value = None
        if ctx.needs_input_grad[2]:
            grad_value = getitem(grad, ctx.index).sum_to_size(ctx.value_shape)
            grad_value = grad_value.to(ctx.value_device) if ctx.value_device else grad_value
        return grad.masked_fill(grad._new(ctx.written), 0.0), None, grad_value


def _check_value_fits(value, target, advanced):
    """PyTorch's checks that x[key] = value can broadcast the value to x[key]'s shape: an
    index_put's, or (a basic key) an expand's after the value's leading 1s are dropped."""
    shape = value.shape
    while shape and shape[0] == 1:
        shape = shape[1:]
    if advanced:
        if len(shape) > len(target) or any(a not in (1, b) for a, b in zip(
                reversed(shape), reversed(target))):
            raise RuntimeError(f"shape mismatch: value tensor of shape {list(value.shape)} "
                               f"cannot be broadcast to indexing result of shape {list(target)}")
    elif len(shape) > len(target):
        raise RuntimeError(
            f"expand(torch.{dtypes.legacy_name(value.dtype)}Tensor{{{list(shape)}}}, "
            f"size={list(target)}): the number of sizes provided ({len(target)}) must be "
            f"greater or equal to the number of dimensions in the tensor ({len(shape)})")
    else:
        expanded_shape(shape, target)


class IndexPut(SetItem):
    """x[arrays] = value (integer-array or mask index); a tensor value must have x's dtype."""

    node_name = "IndexPutBackward0"
    same_dtype = True


def is_advanced_key(index):
    """True for integer-array or mask indexing (x[[0, 2]] = v is IndexPutBackward0)."""
    components = index if isinstance(index, tuple) else (index,)
    return any(is_advanced(c) for c in components)
