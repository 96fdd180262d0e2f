"""The Tensor methods that pick elements: indexing (x[...], select, narrow, gather,
take_along_dim, index_select) and pieces (split, chunk, tensor_split, unbind).  Each
calls one op of minigrad/ops/ (index.py, pieces.py); read the op's class for its forward
and backward; x[...] = v is in tensor_inplace.py.  A mixin of Tensor."""
from ..ops import index, pieces
from ..ops.arithmetic import check_shapes_broadcast
from ..ops.index import Select
from ..ops.shape import normalize_dim
from . import arguments, dtypes


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


class TensorIndex:
    __slots__ = ()

    # --- indexing and pieces ----------------------------------------------------
    def __getitem__(self, key):
        return index.getitem(self, key)

    @arguments.method
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

    @arguments.method
    def split_with_sizes(self, split_sizes, dim=0):
        """Consecutive pieces of the given sizes along dim; views."""
        outs = pieces.SplitWithSizes.apply(self, tuple(split_sizes), dim)
        return pieces.refuse_inplace(outs, "SplitWithSizes")

    @arguments.method
    def chunk(self, chunks, dim=0):
        """`chunks` pieces of equal size (the last may be smaller, or fewer pieces); views."""
        return self.split(_chunk_size(self, chunks, dim), dim)

    @arguments.method
    def unsafe_split(self, split_size, dim=0):
        """split's pieces, but not views: they share the memory of self and may change in
        place, each with its own version counter (UnsafeSplitBackward0)."""
        return pieces.UnsafeSplit.apply(self, _piece_sizes(self, split_size, dim), dim)

    @arguments.method
    def unsafe_split_with_sizes(self, split_sizes, dim=0):
        return pieces.UnsafeSplitWithSizes.apply(self, tuple(split_sizes), dim)

    @arguments.method
    def unsafe_chunk(self, chunks, dim=0):
        return self.unsafe_split(_chunk_size(self, chunks, dim), dim)

    @arguments.method
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

    @arguments.method
    def unbind(self, dim=0):
        """The slices along dim, as a tuple of views."""
        return pieces.refuse_inplace(pieces.Unbind.apply(self, dim), "Unbind")

    @arguments.method
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

    @arguments.method
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

    @arguments.method
    def gather(self, dim, index):
        return pieces.Gather.apply(self, dim, index)

    @arguments.method
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

    @arguments.method
    def index_select(self, dim, index):
        return pieces.IndexSelect.apply(self, dim, index)
