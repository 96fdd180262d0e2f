"""The math methods of Tensor.  Each is one line that calls an op in ops/;
read the op's class for its forward and backward."""
import operator

from . import backend, return_types
from .autograd.grad_mode import is_grad_enabled
from .ops import arithmetic, combine, index, inplace, linalg, reduce, shape, unary
from .ops._helpers import (binary_arrays, check_expandable, check_flatten_dims, is_tensor,
                           wrap_number)


def _shape_args(args):
    """Accept both t.view(2, 3) and t.view((2, 3))."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


class TensorMath:
    __slots__ = ()

    # --- arithmetic ----------------------------------------------------------
    def add(self, other, alpha=1):
        return arithmetic.Add.apply(self, wrap_number(other, self), alpha)

    def sub(self, other, alpha=1):
        return arithmetic.Sub.apply(self, wrap_number(other, self), alpha)

    def mul(self, other):
        return arithmetic.Mul.apply(self, wrap_number(other, self))

    def div(self, other):
        return arithmetic.Div.apply(self, wrap_number(other, self))

    def pow(self, exponent):
        if is_tensor(exponent):
            return arithmetic.PowTensor.apply(self, exponent)
        return arithmetic.Pow.apply(self, exponent)

    def neg(self):
        return arithmetic.Neg.apply(self)

    def reciprocal(self):
        return arithmetic.Reciprocal.apply(self)

    def square(self):
        return arithmetic.Pow.apply(self, 2)

    def matmul(self, other):
        return linalg.matmul(self, other)

    def mm(self, other):
        return linalg.Mm.apply(self, other)

    def dot(self, other):
        return linalg.Dot.apply(self, other)

    __add__ = add
    __sub__ = sub
    __mul__ = mul
    __truediv__ = div
    __pow__ = pow
    __matmul__ = matmul
    __neg__ = neg

    def __radd__(self, other):
        return arithmetic.Add.apply(self, wrap_number(other, self))

    def __rsub__(self, other):
        return arithmetic.RSub.apply(self, other)

    def __rmul__(self, other):
        return arithmetic.Mul.apply(self, wrap_number(other, self))

    def __rtruediv__(self, other):
        return self.reciprocal() * other

    def __rpow__(self, other):
        return arithmetic.RPow.apply(self, other)

    def __rmatmul__(self, other):
        return linalg.matmul(other, self)

    def __pos__(self):
        return self

    def __abs__(self):
        return self.abs()

    # --- elementwise functions ------------------------------------------------
    def exp(self):
        return unary.Exp.apply(self)

    def log(self):
        return unary.Log.apply(self)

    def sin(self):
        return unary.Sin.apply(self)

    def cos(self):
        return unary.Cos.apply(self)

    def tanh(self):
        return unary.Tanh.apply(self)

    def sigmoid(self):
        return unary.Sigmoid.apply(self)

    def relu(self):
        return unary.Relu.apply(self)

    def sqrt(self):
        return unary.Sqrt.apply(self)

    def abs(self):
        return unary.Abs.apply(self)

    def sign(self):
        return unary.Sign.apply(self)

    def clamp(self, min=None, max=None):
        return unary.clamp(self, min, max)

    clip = clamp

    def softmax(self, dim):
        return combine.Softmax.apply(self, dim)

    def log_softmax(self, dim):
        return combine.LogSoftmax.apply(self, dim)

    def masked_fill(self, mask, value):
        fill = combine.MaskedFillTensor if is_tensor(value) else combine.MaskedFill
        return fill.apply(self, mask, value)

    def maximum(self, other):
        return combine.Maximum.apply(self, other)

    def minimum(self, other):
        return combine.Minimum.apply(self, other)

    # --- reductions -------------------------------------------------------------
    def sum(self, dim=None, keepdim=False, dtype=None):
        result = (reduce.Sum if dim is None else reduce.SumDim).apply(self, dim, keepdim)
        return result if dtype is None else result.to(dtype)

    def mean(self, dim=None, keepdim=False):
        return (reduce.Mean if dim is None else reduce.MeanDim).apply(self, dim, keepdim)

    def max(self, dim=None, keepdim=False):
        if is_tensor(dim):
            return self.maximum(dim)
        if dim is None:
            return reduce.Max.apply(self)
        return return_types.max(*reduce.MaxDim.apply(self, dim, keepdim))

    def min(self, dim=None, keepdim=False):
        if is_tensor(dim):
            return self.minimum(dim)
        if dim is None:
            return reduce.Min.apply(self)
        return return_types.min(*reduce.MinDim.apply(self, dim, keepdim))

    def argmax(self, dim=None, keepdim=False):
        if dim is None:
            return self._new(self._data.argmax())
        return self.max(dim, keepdim).indices

    def argmin(self, dim=None, keepdim=False):
        if dim is None:
            return self._new(self._data.argmin())
        return self.min(dim, keepdim).indices

    def sum_to_size(self, *size):
        """Sum broadcast dims away so the result has shape `size` (used by backward)."""
        size = _shape_args(size)
        if self._data.shape == size:
            return self
        if not size:                  # PyTorch's sum_to: a plain sum() (SumBackward0)
            return self.sum()
        check_expandable(size, self._data.shape)
        lead = self.ndim - len(size)
        dims = tuple(range(lead)) + tuple(
            lead + i for i, s in enumerate(size) if s == 1 and self.shape[lead + i] != 1)
        summed = reduce.SumDim.apply(self, dims, True)
        return summed.view(size) if lead else summed

    # --- shape ------------------------------------------------------------------
    def view(self, *shape_):
        return shape.View.apply(self, _shape_args(shape_), True)

    def view_as(self, other):
        return self.view(other.shape)

    def reshape(self, *shape_):
        target = _shape_args(shape_)
        if self.is_contiguous():
            return shape.View.apply(self, target, True)
        try:                          # PyTorch: _reshape_alias when a view is possible
            return shape.ReshapeAlias.apply(self, target, True)
        except RuntimeError as error:
            if "view size is not compatible" not in str(error):
                raise
            return shape.ReshapeCopy.apply(self, target, False)

    def flatten(self, start_dim=0, end_dim=-1):
        start, end = check_flatten_dims(start_dim, end_dim, self.ndim)
        if self.ndim == 0:
            return self.reshape(1)
        if start == end:
            return self                     # nothing to merge: PyTorch returns self itself
        new_shape = self.shape[:start] + (-1,) + self.shape[end + 1:]
        return self.reshape(new_shape)

    def transpose(self, dim0, dim1):
        return shape.Transpose.apply(self, dim0, dim1)

    def t(self):
        return shape.T.apply(self)

    def permute(self, *dims):
        return shape.Permute.apply(self, _shape_args(dims))

    def squeeze(self, dim=None):
        if dim is None:
            return shape.Squeeze.apply(self, None)
        return shape.SqueezeDim.apply(self, dim)

    def unsqueeze(self, dim):
        return shape.Unsqueeze.apply(self, dim)

    def expand(self, *sizes):
        return shape.Expand.apply(self, _shape_args(sizes))

    def expand_as(self, other):
        return self.expand(other.shape)

    def clone(self):
        return shape.Clone.apply(self)

    def contiguous(self):
        return self if self.is_contiguous() else self.clone()

    def to(self, *args, dtype=None, device=None, copy=False, **kwargs):
        from . import backend, dtypes
        for arg in args:
            if is_tensor(arg):
                dtype, device = arg.dtype, arg.device
            elif isinstance(arg, (str, backend.device)):
                device = arg
            else:
                dtype = arg
        dtype = self.dtype if dtype is None else dtypes.to_dtype(dtype)
        device = self.device if device is None else backend.resolve(device)
        if dtype is self.dtype and device is self.device and not copy:
            return self
        return shape.ToCopy.apply(self, dtype, device)

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None):
        return self.to(f"cuda:{device}" if isinstance(device, int) else device or "cuda")

    def float(self):
        from . import dtypes
        return self.to(dtypes.float32)

    def double(self):
        from . import dtypes
        return self.to(dtypes.float64)

    def half(self):
        from . import dtypes
        return self.to(dtypes.float16)

    def long(self):
        from . import dtypes
        return self.to(dtypes.int64)

    def int(self):
        from . import dtypes
        return self.to(dtypes.int32)

    def bool(self):
        from . import dtypes
        return self.to(dtypes.bool)

    def type_as(self, other):
        return self.to(other.dtype)

    # --- indexing -----------------------------------------------------------------
    def __getitem__(self, key):
        return index.getitem(self, key)

    def __setitem__(self, key, value):
        advanced = inplace.is_advanced_key(key)
        if not advanced and index.makes_view(self, key):
            self._check_inplace_allowed(through_view=True)     # x[0] = 1 writes through x[0]
        self._inplace(inplace.IndexPut if advanced else inplace.SetItem, key, value)

    # --- in-place -------------------------------------------------------------------
    def _inplace(self, op, *args):
        """Run an in-place op; through a view, the base's history is updated too."""
        self._check_inplace_allowed()
        base = self._base
        if base is not None and is_grad_enabled() and (
                base.requires_grad or any(is_tensor(a) and a.requires_grad for a in args)):
            return inplace.inplace_on_view(self, op, *args)
        return op.apply(self, *args)

    def add_(self, other, alpha=1):
        return self._inplace(inplace.AddInplace, wrap_number(other, self), alpha)

    def sub_(self, other, alpha=1):
        return self._inplace(inplace.SubInplace, wrap_number(other, self), alpha)

    def mul_(self, other):
        return self._inplace(inplace.MulInplace, wrap_number(other, self))

    def div_(self, other):
        return self._inplace(inplace.DivInplace, wrap_number(other, self))

    def pow_(self, exponent):
        op = inplace.PowTensorInplace if is_tensor(exponent) else inplace.PowInplace
        return self._inplace(op, exponent)

    def zero_(self):
        return self._inplace(inplace.ZeroInplace)

    def fill_(self, value):
        return self._inplace(inplace.FillInplace, value)

    def copy_(self, src):
        return self._inplace(inplace.CopyInplace, src)

    def clamp_(self, min=None, max=None):
        return self._inplace(inplace.ClampInplace, min, max)

    __iadd__ = add_
    __isub__ = sub_
    __imul__ = mul_
    __itruediv__ = div_
    __ipow__ = pow_

    # --- comparisons and logic (no gradient) --------------------------------------------
    def _compare(self, other, op):
        if not (is_tensor(other) or isinstance(other, (int, float, bool, complex))):
            return NotImplemented
        if is_tensor(other) and other.device is not self.device:     # PyTorch's error
            self, other = backend.match_devices("elementwise", (self, other))
        x, y = binary_arrays(self, other)
        return self._new(op(x, y))

    def __eq__(self, other):
        return self._compare(other, operator.eq)

    def __ne__(self, other):
        return self._compare(other, operator.ne)

    def __lt__(self, other):
        return self._compare(other, operator.lt)

    def __le__(self, other):
        return self._compare(other, operator.le)

    def __gt__(self, other):
        return self._compare(other, operator.gt)

    def __ge__(self, other):
        return self._compare(other, operator.ge)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    def __and__(self, other):
        return self._compare(other, operator.and_)

    def __or__(self, other):
        return self._compare(other, operator.or_)

    def __xor__(self, other):
        return self._compare(other, operator.xor)

    def __invert__(self):
        return self._new(~self._data)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def logical_not(self):
        return self._new(self._xp.logical_not(self._data))

    def equal(self, other):
        return self.shape == other.shape and bool((self == other).all())
