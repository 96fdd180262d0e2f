"""The math methods of Tensor: arithmetic and its operators, elementwise functions
(exp, log, erf ...), reductions (sum, mean, max, norm, var ...), sorting, and
comparisons.  Each calls one op of minigrad/ops/; read the op's class for its forward
and backward.  A mixin of Tensor."""
import operator

from . import backend, dtypes, functions_ops, return_types
from .ops import (arithmetic, combine, division, linalg, ordering, pieces, reduce, scatter,
                  special, stats, unary, unary_more)
from .ops.arithmetic import binary_arrays, is_tensor, wrap_number
from .ops.shape import check_expandable
from .tensor_shape import _sizes


class TensorMath:
    __slots__ = ()

    # --- arithmetic: + - * / // % ** @ ------------------------------------------
    def add(self, other, alpha=1):
        return arithmetic.Add.apply(self, wrap_number(other, self), alpha)

    def sub(self, other, alpha=1):
        return arithmetic.Sub.apply(self, wrap_number(other, self), alpha)

    def mul(self, other):
        return arithmetic.Mul.apply(self, wrap_number(other, self))

    def div(self, other, *, rounding_mode=None):
        if rounding_mode is not None:
            return division.div_rounded(self, wrap_number(other, self), rounding_mode)
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

    def mv(self, vec):
        """A matrix times a vector (MvBackward0)."""
        if self.ndim != 2 or vec.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {self.ndim}, "
                               f"{vec.ndim}")
        return linalg.Mv.apply(self, vec)

    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        """beta * self + alpha * (mat1 @ mat2), one AddmmBackward0 (F.linear's node)."""
        return linalg.Addmm.apply(self, mat1, mat2, beta, alpha)

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

    def __floordiv__(self, other):
        """self // other: rounded toward -inf, as Python's and numpy's (no gradient)."""
        return division.FloorDivide.apply(self, wrap_number(other, self))

    def __rfloordiv__(self, other):
        return division.FloorDivide.apply(wrap_number(other, self), self)

    def __mod__(self, other):
        """self % other, with the sign of other, as Python's and numpy's."""
        op = division.Remainder if is_tensor(other) else division.RemainderScalar
        return op.apply(self, wrap_number(other, self))

    def __rmod__(self, other):
        return division.Remainder.apply(wrap_number(other, self), self)

    floor_divide, remainder = __floordiv__, __mod__

    def outer(self, vec2):
        """self ⊗ vec2 for two vectors: self[:, None] * vec2 (see torch.outer)."""
        return functions_ops.outer(self, vec2)

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

    def clamp(self, min=None, max=None):
        return unary.clamp(self, min, max)

    clip = clamp

    def clamp_min(self, min):
        """clamp(min=min) (a tensor bound: clamp's ClampBackward0, PyTorch's ClampMinBackward1)."""
        return unary.clamp(self, min) if is_tensor(min) else unary.ClampMin.apply(self, min)

    def clamp_max(self, max):
        return unary.clamp(self, None, max) if is_tensor(max) else unary.ClampMax.apply(self, max)

    def index_add(self, dim, index, source, *, alpha=1):
        """self with alpha·source's slices added at `index` along dim (IndexAddBackward0)."""
        return scatter.IndexAddSource.apply(self, dim, index, source, alpha)

    def index_fill(self, dim, index, value):
        """self with `value` in the slices at `index` along dim (IndexFillBackward0)."""
        return pieces.IndexFill.apply(self, dim, index, value)

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
        return unary_more.Log1p.apply(self)

    def expm1(self):
        return unary_more.Expm1.apply(self)

    def log2(self):
        return unary_more.Log2.apply(self)

    def log10(self):
        return unary_more.Log10.apply(self)

    def sinh(self):
        return unary_more.Sinh.apply(self)

    def cosh(self):
        return unary_more.Cosh.apply(self)

    def asin(self):
        return unary_more.Asin.apply(self)

    def acos(self):
        return unary_more.Acos.apply(self)

    def atan(self):
        return unary_more.Atan.apply(self)

    arcsin, arccos, arctan = asin, acos, atan

    def atan2(self, other):
        return unary_more.Atan2.apply(self, other)

    arctan2 = atan2

    def floor(self):
        return unary_more.Floor.apply(self)

    def ceil(self):
        return unary_more.Ceil.apply(self)

    def trunc(self):
        return unary_more.Trunc.apply(self)

    def round(self, decimals=0):
        if decimals:
            return unary_more.RoundDecimals.apply(self, decimals)
        return unary_more.Round.apply(self)

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
    def sum(self, dim=None, keepdim=False, dtype=None):
        result = (reduce.Sum if dim is None else reduce.SumDim).apply(self, dim, keepdim)
        return result if dtype is None else result.to(dtype)

    def mean(self, dim=None, keepdim=False, *, dtype=None):
        source = self if dtype is None else reduce.cast_for_mean(self, dtype)
        return (reduce.Mean if dim is None else reduce.MeanDim).apply(source, dim, keepdim)

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

    def kthvalue(self, k, dim=-1, keepdim=False):
        """(values, indices) of the k-th smallest element along dim (k = 1: the smallest)."""
        return return_types.kthvalue(*ordering.Kthvalue.apply(self, k, dim, keepdim))

    def mode(self, dim=-1, keepdim=False):
        """(values, indices): the most frequent value along dim (the smallest, among equally
        frequent ones) and its last position."""
        return return_types.mode(*ordering.Mode.apply(self, dim, keepdim))

    def median(self, dim=None, keepdim=False):
        """The lower median (of all elements, or (values, indices) along dim); NaN if one is
        NaN.  Its gradient goes to the chosen element (shared among equal ones without dim)."""
        if dim is None:
            return ordering.Median.apply(self)
        return return_types.median(*ordering.MedianDim.apply(self, dim, keepdim))

    def nanmedian(self, dim=None, keepdim=False):
        """median, ignoring the NaNs."""
        if dim is None:
            return ordering.Nanmedian.apply(self)
        return return_types.nanmedian(*ordering.NanmedianDim.apply(self, dim, keepdim))

    # numpy's argmax and argmin give numpy's platform int (int32 on 32-bit machines, as in
    # the browser's Pyodide); PyTorch's indices are int64 everywhere
    def argmax(self, dim=None, keepdim=False):
        ordering.refuse_bool(self, "argmax")
        if dim is None:
            return self._new(self._data.argmax().astype(dtypes.int64.numpy))
        return self.max(dim, keepdim).indices

    def argmin(self, dim=None, keepdim=False):
        ordering.refuse_bool(self, "argmin")
        if dim is None:
            return self._new(self._data.argmin().astype(dtypes.int64.numpy))
        return self.min(dim, keepdim).indices

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

    def cumsum(self, dim, dtype=None):
        source = self if dtype is None else self.to(dtype)
        return stats.Cumsum.apply(source, dim)

    def prod(self, dim=None, keepdim=False, dtype=None):
        source = self if dtype is None else self.to(dtype)
        if dim is None:
            return stats.Prod.apply(source)
        return stats.ProdDim.apply(source, dim, keepdim)

    def amax(self, dim=(), keepdim=False):
        return stats.Amax.apply(self, dim, keepdim)

    def amin(self, dim=(), keepdim=False):
        return stats.Amin.apply(self, dim, keepdim)

    def logsumexp(self, dim, keepdim=False):
        return stats.Logsumexp.apply(self, dim, keepdim)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        """The vector p-norm over dim (all elements by default); "fro" is p = 2."""
        source = self if dtype is None else self.to(dtype)
        order = 2 if p in ("fro", None) else float(p)
        return stats.VectorNorm.apply(source, order, dim, keepdim)

    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        """Variance over dim; divides by n - correction (correction 1 unless unbiased=False)."""
        dim, correction = stats.var_arguments(dim, unbiased, correction)
        return stats.Var.apply(self, dim, correction, keepdim)

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        """Standard deviation: √var (same arguments as var)."""
        dim, correction = stats.var_arguments(dim, unbiased, correction)
        return stats.Std.apply(self, dim, correction, keepdim)

    def all(self, dim=None, keepdim=False):
        """True where every element (over `dim`, or all of them) is nonzero."""
        return functions_ops.all(self, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        """True where some element (over `dim`, or all of them) is nonzero."""
        return functions_ops.any(self, dim, keepdim)

    def count_nonzero(self, dim=None):
        """How many elements (over `dim`, or all of them) are not zero (int64)."""
        return functions_ops.count_nonzero(self, dim)

    def sort(self, *dim_descending, dim=-1, descending=False, stable=None):
        """(values, indices): the elements along dim in order, and where each came from.
        Equal values keep their order (see ops/ordering.py for PyTorch's ties).

        Example::

            >>> import minigrad as torch
            >>> values, indices = torch.tensor([3.0, 1.0, 2.0]).sort(descending=True)
            >>> values, indices
            (tensor([3., 2., 1.]), tensor([0, 2, 1]))
        """
        dim, descending = ordering.sort_arguments(dim_descending, dim, descending, stable)
        op = ordering.Sort if stable is None else ordering.SortStable
        return return_types.sort(*op.apply(self, dim, descending))

    def argsort(self, dim=-1, descending=False, stable=False):
        """The indices that sort the elements along dim: sort's indices (no gradient)."""
        return self.sort(dim=dim, descending=descending, stable=stable).indices

    def topk(self, k, dim=-1, largest=True, sorted=True):
        """(values, indices) of the k largest elements along dim, largest first (or the k
        smallest, smallest first).  sorted=False keeps that order (PyTorch's is unspecified).

        Example::

            >>> import minigrad as torch
            >>> torch.tensor([1.0, 5.0, 3.0, 4.0]).topk(2).indices
            tensor([1, 3])
        """
        return return_types.topk(*ordering.Topk.apply(self, k, dim, largest))


    # --- comparisons and logic (no gradient) ------------------------------------
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
