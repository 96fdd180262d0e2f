"""A tensor's shape (Size), and the Tensor methods that rearrange or pick elements:
views and reshaping (view, reshape, unflatten, transpose, permute, squeeze, unsqueeze,
expand, .T; their in-place forms are in tensor_inplace.py), indexing (x[...], select,
gather, take_along_dim, index_select), pieces (split, chunk, tensor_split, unbind,
narrow), tiling (repeat, flip, roll, tril, triu) and diagonals (diag, diagonal, trace).
Each calls one op of minigrad/ops/ (shape.py, index.py, pieces.py, diagonals.py); read
the op's class for its forward and backward.  A mixin of Tensor."""
import warnings

from . import dtypes, settings
from .ops import diagonals, index, pieces, shape
from .ops.arithmetic import check_shapes_broadcast
from .ops.index import Select
from .ops.shape import check_flatten_dims, normalize_dim


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


def _piece_sizes(x, split_size, dim):
    """The sizes of split(split_size)'s pieces along dim."""
    length = x.shape[normalize_dim(dim, x.ndim)] if x.ndim else 0
    return pieces.split_sizes(length, split_size)


def _chunk_size(x, chunks, dim):
    """The piece size of chunk(chunks): as many elements as make `chunks` pieces at most."""
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if x.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    length = x.shape[normalize_dim(dim, x.ndim)]
    return max(-(-length // chunks), 1) if length else 0


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

    def view(self, *shape_):
        return shape.View.apply(self, _sizes(shape_), True)

    def view_as(self, other):
        return self.view(other.shape)

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

    def flatten(self, start_dim=0, end_dim=-1):
        start, end = check_flatten_dims(start_dim, end_dim, self.ndim)
        if self.ndim == 0:
            return self.reshape(1)
        if start == end:
            return self                     # nothing to merge: PyTorch returns self itself
        new_shape = self.shape[:start] + (-1,) + self.shape[end + 1:]
        return self.reshape(new_shape)

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

    def transpose(self, dim0, dim1):
        return shape.Transpose.apply(self, dim0, dim1)

    def t(self):
        return shape.T.apply(self)

    def permute(self, *dims):
        return shape.Permute.apply(self, _sizes(dims))

    def squeeze(self, dim=None):
        if dim is None:
            return shape.Squeeze.apply(self, None)
        if isinstance(dim, (tuple, list)):
            return shape.SqueezeDims.apply(self, tuple(dim))
        return shape.SqueezeDim.apply(self, dim)

    def unsqueeze(self, dim):
        return shape.Unsqueeze.apply(self, dim)

    def expand(self, *sizes):
        return shape.Expand.apply(self, _sizes(sizes))

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


    # --- indexing and pieces ----------------------------------------------------
    def __getitem__(self, key):
        return index.getitem(self, key)

    def split(self, split_size, dim=0):
        """Pieces of `split_size` along dim (or of the sizes in a list); views.

        Example::

            >>> import minigrad as torch
            >>> [p.tolist() for p in torch.arange(5).split(2)]
            [[0, 1], [2, 3], [4]]
        """
        if isinstance(split_size, (list, tuple)):
            return self.split_with_sizes(split_size, dim)
        outs = pieces.Split.apply(self, _piece_sizes(self, split_size, dim), dim)
        return pieces.refuse_inplace(outs, "Split")

    def split_with_sizes(self, split_sizes, dim=0):
        """Consecutive pieces of the given sizes along dim; views."""
        outs = pieces.SplitWithSizes.apply(self, tuple(split_sizes), dim)
        return pieces.refuse_inplace(outs, "SplitWithSizes")

    def chunk(self, chunks, dim=0):
        """`chunks` pieces of equal size (the last may be smaller, or fewer pieces); views."""
        return self.split(_chunk_size(self, chunks, dim), dim)

    def unsafe_split(self, split_size, dim=0):
        """split's pieces, but not views: they share the memory of self and may change in
        place, each with its own version counter (UnsafeSplitBackward0)."""
        return pieces.UnsafeSplit.apply(self, _piece_sizes(self, split_size, dim), dim)

    def unsafe_split_with_sizes(self, split_sizes, dim=0):
        return pieces.UnsafeSplitWithSizes.apply(self, tuple(split_sizes), dim)

    def unsafe_chunk(self, chunks, dim=0):
        return self.unsafe_split(_chunk_size(self, chunks, dim), dim)

    def tensor_split(self, indices_or_sections, dim=0):
        """Views of self along dim: `sections` pieces as equal as can be (the first ones one
        longer), or the pieces between the given indices (SliceBackward0 each)."""
        dim = normalize_dim(dim, self.ndim)
        length = self.shape[dim]
        if getattr(indices_or_sections, "_is_minigrad_tensor", False):
            indices_or_sections = indices_or_sections.tolist()
        if isinstance(indices_or_sections, int):
            if indices_or_sections <= 0:
                raise RuntimeError("number of sections must be larger than 0, got "
                                   f"{indices_or_sections}")
            size, longer = divmod(length, indices_or_sections)
            ends = [(i + 1) * size + min(i + 1, longer) for i in range(indices_or_sections)]
        else:
            ends = [min(i, length) for i in indices_or_sections] + [length]
        starts = [0] + ends[:-1]
        return tuple(index.Slice.apply(self, (slice(None),) * dim + (slice(a, max(a, b)),))
                     for a, b in zip(starts, ends))

    def unbind(self, dim=0):
        """The slices along dim, as a tuple of views."""
        return pieces.refuse_inplace(pieces.Unbind.apply(self, dim), "Unbind")

    def select(self, dim, index):
        """The slice at `index` along dim, that dim removed: a view, x.select(0, i) is x[i].

        Example::

            >>> import minigrad as torch
            >>> torch.tensor([[1, 2], [3, 4]]).select(1, 0)
            tensor([1, 3])
        """
        if self.ndim == 0:
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        dim = normalize_dim(dim, self.ndim)
        size = self.shape[dim]
        if not -size <= index < size:
            raise IndexError(f"select(): index {index} out of range for tensor of size "
                             f"{list(self.shape)} at dimension {dim}")
        return Select.apply(self, (slice(None),) * dim + (index % size,))

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

    def gather(self, dim, index):
        return pieces.Gather.apply(self, dim, index)

    def take_along_dim(self, indices, dim=None):
        """The elements at `indices` along dim (gather, after broadcasting the other dims of
        self and indices); without dim, of the flattened tensor."""
        if dim is None:
            return self.view(-1).gather(0, indices.view(-1))
        if indices.dtype is not dtypes.int64:
            raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but "
                               f"got {dtypes.legacy_name(indices.dtype)}")
        if indices.ndim != self.ndim:
            raise RuntimeError(
                "torch.take_along_dim(): input and indices should have the same number of "
                f"dimensions, but got {self.ndim} dimensions for input, and {indices.ndim} "
                "dimensions for indices")
        dim = normalize_dim(dim, self.ndim)
        own_sizes = list(self.shape)
        own_sizes[dim] = indices.shape[dim]
        check_shapes_broadcast(own_sizes, indices.shape)
        common = [max(a, b) for a, b in zip(own_sizes, indices.shape)]
        indices = indices.expand(common)
        common[dim] = self.shape[dim]
        return self.expand(common).gather(dim, indices)

    def index_select(self, dim, index):
        return pieces.IndexSelect.apply(self, dim, index)


    # --- tiling and triangles ---------------------------------------------------
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
            return diagonals.DiagEmbed.apply(self, diagonal)
        if self.ndim == 2:
            return diagonals.Diag.apply(self, diagonal)
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.ndim}D")

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
