"""Tensor methods for the common ops beyond the basics: pieces (split, chunk, unbind,
narrow), picking (gather, index_select, where, diag), tiling (repeat, flip, roll),
ordering (sort, topk), more reductions (cumsum, prod, norm, var, std, logsumexp, amax,
amin), more elementwise functions (erf ...), and the new_* constructors.  A mixin of
Tensor, through TensorExtras."""
from . import functions_ops, return_types
from .ops import combine, index, ordering, pieces, shape, special, stats, unary_more
from .ops._helpers import normalize_dim


def _sizes(args):
    return tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else args


def _as_tuple(dims):
    return tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)


class TensorOps:
    __slots__ = ()

    # --- views of pieces ----------------------------------------------------------
    def split(self, split_size, dim=0):
        """Pieces of `split_size` along dim (or of the sizes in a list); views.

        Example::

            >>> import minigrad as torch
            >>> [p.tolist() for p in torch.arange(5).split(2)]
            [[0, 1], [2, 3], [4]]
        """
        if isinstance(split_size, (list, tuple)):
            outs = pieces.SplitWithSizes.apply(self, tuple(split_size), dim)
            return pieces.refuse_inplace(outs, "SplitWithSizes")
        length = self.shape[normalize_dim(dim, self.ndim)] if self.ndim else 0
        outs = pieces.Split.apply(self, pieces.split_sizes(length, split_size), dim)
        return pieces.refuse_inplace(outs, "Split")

    def chunk(self, chunks, dim=0):
        """`chunks` pieces of equal size (the last may be smaller, or fewer pieces); views."""
        if chunks <= 0:
            raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
        if self.ndim == 0:
            raise RuntimeError("chunk expects at least a 1-dimensional tensor")
        length = self.shape[normalize_dim(dim, self.ndim)]
        return self.split(max(-(-length // chunks), 1) if length else 0, dim)

    def unbind(self, dim=0):
        """The slices along dim, as a tuple of views."""
        return pieces.refuse_inplace(pieces.Unbind.apply(self, dim), "Unbind")

    def narrow(self, dim, start, length):
        """Elements start .. start+length along dim: a view (SliceBackward0)."""
        if self.ndim == 0:
            raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
        dim = normalize_dim(dim, self.ndim)
        size = self.shape[dim]
        if not -size <= start <= size:
            raise IndexError(f"start out of range (expected to be in range of [{-size}, "
                             f"{size}], but got {start})")
        start %= size if size else 1
        if length < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        if start + length > size:
            raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                               f"({size}).")
        return index.Slice.apply(self, (slice(None),) * dim + (slice(start, start + length),))

    def movedim(self, source, destination):
        """Move dims from `source` to `destination` positions: a view (PermuteBackward0)."""
        source = [normalize_dim(d, self.ndim) for d in _as_tuple(source)]
        destination = [normalize_dim(d, self.ndim) for d in _as_tuple(destination)]
        if len(source) != len(destination):
            raise RuntimeError(f"movedim: Invalid source or destination dims: source "
                               f"({source} dims) should contain the same number of dims as "
                               f"destination ({destination} dims)")
        order = [d for d in range(self.ndim) if d not in source]
        for dest, src in sorted(zip(destination, source)):
            order.insert(dest, src)
        return shape.Permute.apply(self, tuple(order))

    moveaxis = movedim

    def swapaxes(self, axis0, axis1):
        return self.transpose(axis0, axis1)

    swapdims = swapaxes

    # --- picking and tiling -----------------------------------------------------
    def gather(self, dim, index):
        return pieces.Gather.apply(self, dim, index)

    def index_select(self, dim, index):
        return pieces.IndexSelect.apply(self, dim, index)

    def repeat(self, *repeats):
        return pieces.Repeat.apply(self, tuple(int(r) for r in _sizes(repeats)))

    def flip(self, *dims):
        return pieces.Flip.apply(self, _sizes(dims))

    def roll(self, shifts, dims=None):
        dims = () if dims is None else _as_tuple(dims)
        return pieces.Roll.apply(self, _as_tuple(shifts), dims)

    def tril(self, diagonal=0):
        return pieces.Tril.apply(self, diagonal)

    def triu(self, diagonal=0):
        return pieces.Triu.apply(self, diagonal)

    def diag(self, diagonal=0):
        """A vector's square matrix (the vector on diagonal `diagonal`, zeros elsewhere), or
        a matrix's diagonal `diagonal` as a vector (> 0: above the main one, < 0: below).

        Example::

            >>> import minigrad as torch
            >>> torch.tensor([1, 2]).diag()
            tensor([[1, 0],
                    [0, 2]])
            >>> torch.tensor([[1, 2], [3, 4]]).diag(1)
            tensor([2])
        """
        if self.ndim == 1:
            return pieces.DiagEmbed.apply(self, diagonal)
        if self.ndim == 2:
            return pieces.Diag.apply(self, diagonal)
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.ndim}D")

    def outer(self, vec2):
        """self ⊗ vec2 for two vectors: self[:, None] * vec2 (see torch.outer)."""
        return functions_ops.outer(self, vec2)

    ger = outer

    def where(self, condition, other):
        """torch.where(condition, self, other): self where condition is True, else other.

        Example::

            >>> import minigrad as torch
            >>> x = torch.tensor([1.0, -2.0, 3.0])
            >>> x.where(x > 0, 0.0)
            tensor([1., 0., 3.])
        """
        return combine.where(condition, self, other)

    # --- ordering -----------------------------------------------------------------
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

    def topk(self, k, dim=-1, largest=True, sorted=True):
        """(values, indices) of the k largest elements along dim, largest first (or the k
        smallest, smallest first).  sorted=False keeps that order (PyTorch's is unspecified).

        Example::

            >>> import minigrad as torch
            >>> torch.tensor([1.0, 5.0, 3.0, 4.0]).topk(2).indices
            tensor([1, 3])
        """
        return return_types.topk(*ordering.Topk.apply(self, k, dim, largest))

    # --- more reductions --------------------------------------------------------
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
        if isinstance(dim, bool):                   # var(False): the old unbiased argument
            dim, unbiased = None, dim
        if correction is None:
            correction = 0 if unbiased is False else 1
        return stats.Var.apply(self, dim, correction, keepdim)

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        """Standard deviation: √var (same arguments as var)."""
        if isinstance(dim, bool):
            dim, unbiased = None, dim
        if correction is None:
            correction = 0 if unbiased is False else 1
        return stats.Std.apply(self, dim, correction, keepdim)

    # --- more elementwise functions -----------------------------------------------
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

    # --- constructors like this tensor ----------------------------------------------
    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        from .creation import full
        return full(_sizes(size if isinstance(size, (tuple, list)) else (size,)), fill_value,
                    dtype=dtype or self.dtype, device=device or self.device,
                    requires_grad=requires_grad)

    def all(self, dim=None, keepdim=False):
        """True where every element (over `dim`, or all of them) is nonzero."""
        return functions_ops.all(self, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        """True where some element (over `dim`, or all of them) is nonzero."""
        return functions_ops.any(self, dim, keepdim)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_full(_sizes(size), 0, dtype=dtype, device=device,
                             requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_full(_sizes(size), 1, dtype=dtype, device=device,
                             requires_grad=requires_grad)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
        from .creation import tensor
        return tensor(data, dtype=dtype or self.dtype, device=device or self.device,
                      requires_grad=requires_grad)

    # --- layout -----------------------------------------------------------------------
    def stride(self, dim=None):
        """Steps in elements between neighbours along each dim (PyTorch counts elements,
        numpy bytes)."""
        steps = tuple(s // self._data.itemsize for s in self._data.strides)
        return steps if dim is None else steps[normalize_dim(dim, self.ndim)]

    @property
    def nbytes(self):
        return int(self._data.nbytes)

    @property
    def itemsize(self):
        return int(self._data.itemsize)

