"""The math methods of Tensor: arithmetic and its operators, elementwise functions
(exp, log, erf ...) and reductions (sum, mean, norm, var ...).  Each calls one op of
minigrad/ops/; read the op's class for its forward and backward.  Comparing, max/min and
sorting are in tensor_compare.py.  A mixin of Tensor."""
from ..core.tensor import TensorBase
from ..ops import (arithmetic, combine, division, linalg, pieces, power, reduce, rounding,
                   scatter, special, stats, transcendental, unary)
from ..ops.arithmetic import is_tensor, wrap_number
from ..ops.shape import check_expandable
from . import arguments, functions_math
from .tensor_shape import _sizes


class TensorMath:
    __slots__ = ()

    # --- arithmetic: + - * / // % ** @ ------------------------------------------
    @arguments.method
    def add(self, other, alpha=1):
        return arithmetic.Add.apply(self, wrap_number(other, self), alpha)

    @arguments.method
    def sub(self, other, alpha=1):
        return arithmetic.Sub.apply(self, wrap_number(other, self), alpha)

    @arguments.method
    def mul(self, other):
        if isinstance(other, TensorBase):
            return arithmetic.Mul.apply(self, other)
        other = wrap_number(other, self)              # a Python number: a 0-dim tensor
        if other._wrapped_number:
            return arithmetic.MulNumber.apply(self, other)
        return arithmetic.Mul.apply(self, other)

    @arguments.method
    def div(self, other, *, rounding_mode=None):
        if rounding_mode is not None:
            return division.div_rounded(self, wrap_number(other, self), rounding_mode)
        if isinstance(other, TensorBase):
            return arithmetic.Div.apply(self, other)
        other = wrap_number(other, self)
        if other._wrapped_number:
            return arithmetic.DivNumber.apply(self, other)
        return arithmetic.Div.apply(self, other)

    @arguments.method
    def pow(self, exponent):
        if is_tensor(exponent):
            return power.PowTensor.apply(self, exponent)
        return power.Pow.apply(self, exponent)

    def neg(self):
        return arithmetic.Neg.apply(self)

    def reciprocal(self):
        return arithmetic.Reciprocal.apply(self)

    def square(self):
        return power.Pow.apply(self, 2)

    @arguments.method
    def matmul(self, other):
        return linalg.matmul(self, other)

    @arguments.method
    def mm(self, other):
        return linalg.Mm.apply(self, other)

    @arguments.method
    def dot(self, other):
        return linalg.Dot.apply(self, other)

    @arguments.method
    def mv(self, vec):
        """A matrix times a vector (MvBackward0)."""
        if self.ndim != 2 or vec.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {self.ndim}, "
                               f"{vec.ndim}")
        return linalg.Mv.apply(self, vec)

    @arguments.method
    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        """beta * self + alpha * (mat1 @ mat2), one AddmmBackward0 (F.linear's node)."""
        return linalg.Addmm.apply(self, mat1, mat2, beta, alpha)

    @arguments.method
    def bmm(self, mat2):
        """Batches of matrices multiplied pairwise, (b, n, m) @ (b, m, p) (BmmBackward0)."""
        for name, t in (("batch1", self), ("batch2", mat2)):
            if t.ndim != 3:
                raise RuntimeError(f"{name} must be a 3D tensor")
        if mat2.shape[:2] != (self.shape[0], self.shape[2]):
            raise RuntimeError(
                "Expected size for first two dimensions of batch2 tensor to be: "
                f"[{self.shape[0]}, {self.shape[2]}] but got: [{mat2.shape[0]}, {mat2.shape[1]}].")
        return linalg.Bmm.apply(self, mat2)

    # The operators: each a method's own code, giving way to an operand that is neither a
    # tensor nor a number (arguments.operator: `x * None` is Python's TypeError)
    __add__ = arguments.operator(add)

    __sub__ = arguments.operator(sub)

    __mul__ = arguments.operator(mul)
    __rmul__ = arguments.operator(mul, "reflected")

    __truediv__ = arguments.operator(div)

    __pow__ = arguments.operator(pow)

    __matmul__ = arguments.operator(matmul, "matrices")

    __neg__ = neg

    def _radd(self, other):
        return arithmetic.Add.apply(self, wrap_number(other, self))

    def _rsub(self, other):
        return arithmetic.RSub.apply(self, other)

    def _rtruediv(self, other):
        return self.reciprocal() * other

    def _rpow(self, other):
        return power.RPow.apply(self, other)

    def _rmatmul(self, other):
        return linalg.matmul(other, self)

    __radd__ = arguments.operator(_radd, "reflected")

    __rsub__ = arguments.operator(_rsub, "reflected")

    __rtruediv__ = arguments.operator(_rtruediv)

    __rpow__ = arguments.operator(_rpow, "reflected")

    __rmatmul__ = arguments.operator(_rmatmul, "tensors")

    def __pos__(self):
        return self

    def __abs__(self):
        return self.abs()

    @arguments.method
    def floor_divide(self, other):
        """self // other: rounded toward -inf, as Python's and numpy's (no gradient)."""
        return division.FloorDivide.apply(self, wrap_number(other, self))

    def _rfloordiv(self, other):
        return division.FloorDivide.apply(wrap_number(other, self), self)

    @arguments.method
    def remainder(self, other):
        """self % other, with the sign of other, as Python's and numpy's."""
        op = division.Remainder if is_tensor(other) else division.RemainderScalar
        return op.apply(self, wrap_number(other, self))

    def _rmod(self, other):
        return division.Remainder.apply(wrap_number(other, self), self)

    __floordiv__ = arguments.operator(floor_divide)

    __rfloordiv__ = arguments.operator(_rfloordiv, "reflected")

    __mod__ = arguments.operator(remainder)

    __rmod__ = arguments.operator(_rmod, "reflected")

    @arguments.method
    def outer(self, vec2):
        """self ⊗ vec2 for two vectors: self[:, None] * vec2 (see torch.outer)."""
        return functions_math.outer(self, vec2)

    ger = outer


    # --- elementwise functions --------------------------------------------------
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

    @arguments.method
    def clamp(self, min=None, max=None):
        return unary.clamp(self, min, max)

    clip = clamp

    @arguments.method
    def clamp_min(self, min):
        """clamp(min=min) (a tensor bound: clamp's ClampBackward0, PyTorch's ClampMinBackward1)."""
        return unary.clamp(self, min) if is_tensor(min) else unary.ClampMin.apply(self, min)

    @arguments.method
    def clamp_max(self, max):
        return unary.clamp(self, None, max) if is_tensor(max) else unary.ClampMax.apply(self, max)

    @arguments.method
    def index_add(self, dim, index, source, *, alpha=1):
        """self with alpha·source's slices added at `index` along dim (IndexAddBackward0)."""
        return scatter.IndexAddSource.apply(self, dim, index, source, alpha)

    @arguments.method
    def index_fill(self, dim, index, value):
        """self with `value` in the slices at `index` along dim (IndexFillBackward0)."""
        return pieces.IndexFill.apply(self, dim, index, value)

    @arguments.method
    def softmax(self, dim):
        return combine.Softmax.apply(self, dim)

    @arguments.method
    def log_softmax(self, dim):
        return combine.LogSoftmax.apply(self, dim)

    @arguments.method
    def masked_fill(self, mask, value):
        fill = combine.MaskedFillTensor if is_tensor(value) else combine.MaskedFill
        return fill.apply(self, mask, value)

    @arguments.method
    def maximum(self, other):
        return combine.Maximum.apply(self, other)

    @arguments.method
    def minimum(self, other):
        return combine.Minimum.apply(self, other)

    def where(self, condition, other):
        """torch.where(condition, self, other): self where condition is True, else other.

        Example::

            >>> import minigrad as torch
            >>> x = torch.tensor([1.0, -2.0, 3.0])
            >>> x.where(x > 0, 0.0)
            tensor([1., 0., 3.])
        """
        return combine.where(condition, self, other)

    def log1p(self):
        return transcendental.Log1p.apply(self)

    def expm1(self):
        return transcendental.Expm1.apply(self)

    def log2(self):
        return transcendental.Log2.apply(self)

    def log10(self):
        return transcendental.Log10.apply(self)

    def sinh(self):
        return transcendental.Sinh.apply(self)

    def cosh(self):
        return transcendental.Cosh.apply(self)

    def asin(self):
        return transcendental.Asin.apply(self)

    def acos(self):
        return transcendental.Acos.apply(self)

    def atan(self):
        return transcendental.Atan.apply(self)

    arcsin, arccos, arctan = asin, acos, atan

    @arguments.method
    def atan2(self, other):
        return transcendental.Atan2.apply(self, other)

    arctan2 = atan2

    def floor(self):
        return rounding.Floor.apply(self)

    def ceil(self):
        return rounding.Ceil.apply(self)

    def trunc(self):
        return rounding.Trunc.apply(self)

    @arguments.method
    def round(self, decimals=0):
        if decimals:
            return rounding.RoundDecimals.apply(self, decimals)
        return rounding.Round.apply(self)

    def erf(self):
        """erf x = 2/√π ∫₀ˣ e^(-t²) dt (GELU's exact form uses it).

        Example::

            >>> import minigrad as torch
            >>> torch.tensor([0.0, 1.0, -2.0]).erf()
            tensor([ 0.0000,  0.8427, -0.9953])
        """
        return special.Erf.apply(self)

    def erfc(self):
        """erfc x = 1 - erf x (accurate where erf x is close to 1)."""
        return special.Erfc.apply(self)

    def isnan(self):
        return self._new(self._xp.isnan(self._data))

    def isinf(self):
        return self._new(self._xp.isinf(self._data))

    def isfinite(self):
        return self._new(self._xp.isfinite(self._data))


    # --- reductions -------------------------------------------------------------
    @arguments.method
    def sum(self, dim=None, keepdim=False, dtype=None):
        if dim is None and not keepdim:
            result = reduce.Sum.apply(self)
        else:
            result = reduce.SumDim.apply(self, dim, keepdim)
        return result if dtype is None else result.to(dtype)

    @arguments.method
    def mean(self, dim=None, keepdim=False, *, dtype=None):
        source = self if dtype is None else reduce.cast_for_mean(self, dtype)
        return (reduce.Mean if dim is None else reduce.MeanDim).apply(source, dim, keepdim)

    @arguments.method
    def sum_to_size(self, *size):
        """Sum broadcast dims away so the result has shape `size` (used by backward)."""
        size = _sizes(size)
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

    @arguments.method
    def cumsum(self, dim, dtype=None):
        source = self if dtype is None else self.to(dtype)
        return stats.Cumsum.apply(source, dim)

    @arguments.method
    def prod(self, dim=None, keepdim=False, dtype=None):
        source = self if dtype is None else self.to(dtype)
        if dim is None:
            return stats.Prod.apply(source)
        return stats.ProdDim.apply(source, dim, keepdim)

    @arguments.method
    def amax(self, dim=(), keepdim=False):
        return stats.Amax.apply(self, dim, keepdim)

    @arguments.method
    def amin(self, dim=(), keepdim=False):
        return stats.Amin.apply(self, dim, keepdim)

    @arguments.method
    def logsumexp(self, dim, keepdim=False):
        return stats.Logsumexp.apply(self, dim, keepdim)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        """The vector p-norm over dim (all elements by default); "fro" is p = 2."""
        source = self if dtype is None else self.to(dtype)
        order = 2 if p in ("fro", None) else float(p)
        return stats.VectorNorm.apply(source, order, dim, keepdim)

    @arguments.method
    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        """Variance over dim; divides by n - correction (correction 1 unless unbiased=False)."""
        dim, correction = stats.var_arguments(dim, unbiased, correction)
        return stats.Var.apply(self, dim, correction, keepdim)

    @arguments.method
    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        """Standard deviation: √var (same arguments as var)."""
        dim, correction = stats.var_arguments(dim, unbiased, correction)
        return stats.Std.apply(self, dim, correction, keepdim)
