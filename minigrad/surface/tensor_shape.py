"""A tensor's shape (Size), and the Tensor methods that rearrange its elements: views and
reshaping (view, reshape, unflatten, transpose, permute, squeeze, unsqueeze, expand, .T;
their in-place forms are in tensor_inplace.py), tiling (repeat, flip, roll, tril, triu)
and diagonals (diag, diagonal, trace).  Picking elements (x[...], split, gather ...) is
in tensor_index.py.  Each calls one op of minigrad/ops/ (shape.py, diagonals.py ...);
read the op's class for its forward and backward.  A mixin of Tensor."""
import warnings

from .. import settings
from ..ops import diagonals, pieces, reduce, shape
from ..ops.shape import check_flatten_dims, normalize_dim
from . import arguments


def _sizes(args):
    """Accept both t.view(2, 3) and t.view((2, 3))."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


def _as_tuple(dims):
    return tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)


_T_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
    "deprecated and it will throw an error in a future release. Consider `x.mT` to "
    "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
    "reverse the dimensions of a tensor.")
_warned = {"T": False, "T of 0-D": False}      # PyTorch gives these once per process


class Size(tuple):
    """A tensor's shape: a tuple that prints like PyTorch's."""

    def __repr__(self):
        return f"minigrad.Size({list(self)})"

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):                 # a slice of a Size is a Size
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other):
        return Size(tuple.__add__(self, other))

    def __radd__(self, other):
        return Size(tuple.__add__(other, self))

    def __mul__(self, times):
        return Size(tuple.__mul__(self, times))

    __rmul__ = __mul__


class TensorShape:
    __slots__ = ()

    # --- layout ----------------------------------------------------------------------
    def is_contiguous(self):
        return bool(self._data.flags.c_contiguous)

    @arguments.method
    def stride(self, dim=None):
        """Steps in elements between neighbours along each dim (PyTorch counts elements,
        numpy bytes)."""
        steps = tuple(s // self._data.itemsize for s in self._data.strides)
        return steps if dim is None else steps[normalize_dim(dim, self.ndim)]

    # --- views and reshaping ----------------------------------------------------
    def _is_view(self):
        """True for a view: a tensor that shares its base's storage (PyTorch's private
        test, which its own tests use)."""
        return self._base is not None

    @arguments.method
    def view(self, *shape_):
        return shape.View.apply(self, _sizes(shape_), True)

    @arguments.method
    def view_as(self, other):
        return self.view(other.shape)

    @arguments.method
    def reshape(self, *shape_):
        target = _sizes(shape_)
        if self.is_contiguous():
            return shape.View.apply(self, target, True)
        try:                          # PyTorch: _reshape_alias when a view is possible
            return shape.ReshapeAlias.apply(self, target, True)
        except RuntimeError as error:
            if "view size is not compatible" not in str(error):
                raise
            return shape.ReshapeCopy.apply(self, target, False)

    @arguments.method
    def flatten(self, start_dim=0, end_dim=-1):
        start, end = check_flatten_dims(start_dim, end_dim, self.ndim)
        if self.ndim == 0:
            return self.reshape(1)
        if start == end:
            return self                     # nothing to merge: PyTorch returns self itself
        new_shape = self.shape[:start] + (-1,) + self.shape[end + 1:]
        return self.reshape(new_shape)

    @arguments.method
    def unflatten(self, dim, sizes):
        """dim split into dims of `sizes` (one may be -1): a view.

        Example::

            >>> import minigrad as torch
            >>> torch.arange(6).unflatten(0, (2, -1)).shape
            minigrad.Size([2, 3])
        """
        dim = normalize_dim(dim, self.ndim)
        sizes, length = list(sizes), self.shape[dim]
        known = 1
        for size in sizes:
            known *= size if size != -1 else 1
        if (length % known if -1 in sizes and known else known != length):
            raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size "
                               f"of dim {dim} ({length}) in the input tensor")
        return self.view(self.shape[:dim] + tuple(sizes) + self.shape[dim + 1:])

    @arguments.method
    def transpose(self, dim0, dim1):
        return shape.Transpose.apply(self, dim0, dim1)

    def t(self):
        return shape.T.apply(self)

    @arguments.method
    def permute(self, *dims):
        return shape.Permute.apply(self, _sizes(dims))

    @arguments.method
    def squeeze(self, dim=None):
        if dim is None:
            return shape.Squeeze.apply(self, None)
        if isinstance(dim, (tuple, list)):
            return shape.SqueezeDims.apply(self, tuple(dim))
        return shape.SqueezeDim.apply(self, dim)

    @arguments.method
    def unsqueeze(self, dim):
        return shape.Unsqueeze.apply(self, dim)

    @arguments.method
    def expand(self, *sizes):
        return reduce.Expand.apply(self, _sizes(sizes))

    @arguments.method
    def expand_as(self, other):
        return self.expand(other.shape)

    def contiguous(self):
        return self if self.is_contiguous() else self.clone()

    @property
    def T(self):
        """All dims reversed (a matrix transposed); PyTorch warns, once, for other ranks."""
        which = "T" if self.ndim else "T of 0-D"
        if self.ndim != 2 and (settings.warn_always or not _warned[which]):
            _warned[which] = True
            warnings.warn(_T_WARNING if self.ndim else "Tensor.T is deprecated on 0-D tensors. "
                          "This function is the identity in these cases.", UserWarning,
                          stacklevel=2)
        return self.permute(*reversed(range(self.ndim)))

    @property
    def mT(self):
        """The matrices transposed (the last two dims swapped); mH is the same for real
        numbers."""
        if self.ndim < 2:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of "
                               f"matrices. Got {self.ndim}-D tensor.")
        return self.transpose(-2, -1)

    mH = mT

    @arguments.method
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

    @arguments.method
    def swapaxes(self, axis0, axis1):
        return self.transpose(axis0, axis1)

    swapdims = arguments.method_alias("swapdims", swapaxes)


    # --- tiling and triangles ---------------------------------------------------
    @arguments.method
    def repeat(self, *repeats):
        return pieces.Repeat.apply(self, tuple(int(r) for r in _sizes(repeats)))

    @arguments.method
    def flip(self, *dims):
        return pieces.Flip.apply(self, _sizes(dims))

    @arguments.method
    def roll(self, shifts, dims=None):
        dims = () if dims is None else _as_tuple(dims)
        return pieces.Roll.apply(self, _as_tuple(shifts), dims)

    @arguments.method
    def tril(self, diagonal=0):
        return pieces.Tril.apply(self, diagonal)

    @arguments.method
    def triu(self, diagonal=0):
        return pieces.Triu.apply(self, diagonal)

    @arguments.method
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
            return diagonals.DiagEmbed.apply(self, diagonal)
        if self.ndim == 2:
            return diagonals.Diag.apply(self, diagonal)
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.ndim}D")

    @arguments.method
    def diagonal(self, offset=0, dim1=0, dim2=1):
        """Diagonal `offset` of dims (dim1, dim2), as the last dim of a view.

        Example::

            >>> import minigrad as torch
            >>> torch.tensor([[1, 2], [3, 4]]).diagonal()
            tensor([1, 4])
        """
        return diagonals.Diagonal.apply(self, offset, dim1, dim2)

    def trace(self):
        """The sum of the main diagonal of a matrix (TraceBackward0)."""
        return diagonals.Trace.apply(self)
