"""InputMetadata: the shape, dtype and device a gradient must fit at an edge of the graph."""
import numpy as np


class InputMetadata:
    """Shape, dtype and device of a tensor at an edge of the graph (never changed)."""

    __slots__ = ("shape", "dtype", "device", "_host_dtype")

    def __init__(self, tensor):
        self.shape = tensor._data.shape
        self.dtype = tensor.dtype
        self.device = tensor.device
        # the numpy dtype of a CPU tensor: conform's one-line test for "fits already"
        self._host_dtype = tensor._data.dtype if type(tensor._data) is np.ndarray else None

    @classmethod
    def shared(cls, tensor):
        """The one metadata object of all tensors of this shape, dtype and device.

        NOTE [shared metadata]: a deep graph has a node per op but few kinds of outputs.
        Sharing their metadata saves memory and work for Python's garbage collector,
        whose full collections visit every live object (some 40% of the forward time
        of a chain of 10⁵ ops).  The same goes for the nodes' tuples of metadata, and
        for their small tuples of flags and sizes (NOTE [shared small tuples]).
        """
        return shared_metadata(tensor)[0]

    @classmethod
    def of_outputs(cls, outputs):
        """The (shared) tuple of the metadata of a node's outputs, None for non-tensors
        (record_outputs looks up the one tensor of most ops itself: shared_metadata)."""
        metadata = tuple([cls.shared(o) if hasattr(o, "_data") else None for o in outputs])
        return _SHARED.setdefault(metadata, metadata)

    def zeros(self):
        from ..creation import zeros
        return zeros(self.shape, dtype=self.dtype, device=self.device)

    def conform(self, grad, node, position):
        """Reduce a broadcast gradient to this shape, cast it to this dtype; or explain
        (naming `node`, the node that returned it)."""
        data = grad._data
        if data.dtype is self._host_dtype and data.shape == self.shape and type(data) is np.ndarray:
            return grad                       # it fits (nearly always)
        if grad._data.shape != self.shape:
            if not _expandable(self.shape, grad.shape):
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {position} - "
                    f"got {list(grad.shape)} but expected shape compatible with "
                    f"{list(self.shape)}. The gradient of an input must have that input's "
                    "shape.")
            grad = grad.sum_to_size(self.shape)
        if grad.dtype is not self.dtype:
            grad = grad.to(self.dtype)
        if grad.device is not self.device:   # gradients live on their tensor's device
            if grad.ndim != 0:
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {position} - "
                    f"expected device {self.device} but got {grad.device}")
            grad = grad.to(self.device)
        return grad


_SHARED = {}        # see NOTE [shared metadata]


def shared_flags(flags):
    """One shared copy of a tuple of booleans (a node's needs_input_grad, _input_is_tensor)."""
    return _FLAGS.setdefault(flags, flags)       # (at most 2^n of n flags)


def shared_sizes(sizes):
    """One shared copy of a tuple of ints (a node's _next_nrs, an op's remembered shapes).

    NOTE [shared small tuples]: a node keeps a few small tuples, and a graph has few
    kinds of them.  Shared, they are not new objects for the garbage collector to count
    (each new tuple brings its next collection closer), and a full collection, which
    visits every object a node refers to, finds them in the cache instead of one
    scattered object per node each: a chain of 10⁵ ops ran about 10% faster.  (Two
    tables: `(0,) == (False,)`, an output number must not come back as a flag.)
    """
    found = _SIZES.get(sizes)
    return found if found is not None else _keep(_SIZES, sizes, sizes)


def positions_of_true(flags):
    """(1, 2) for (False, True, True): where the tensor arguments of a node are, from its
    _input_is_tensor (found once for each kind of node)."""
    positions = _POSITIONS.get(flags)
    if positions is None:
        positions = _POSITIONS[flags] = tuple([i for i, flag in enumerate(flags) if flag])
    return positions


_FLAGS, _SIZES, _POSITIONS = {}, {}, {}


def shared_metadata(tensor):
    """(metadata, (metadata,)): the shared InputMetadata of tensors like this one, and the
    shared tuple of a node with it as its one output; made once (NOTE [shared metadata])."""
    data = tensor._data
    device = None if data.__class__ is np.ndarray else id(tensor.device)   # (one object each)
    key = (data.shape, data.dtype.char, device)
    found = _SHARED.get(key)
    if found is None:
        metadata = InputMetadata(tensor)
        found = _keep(_SHARED, key, (metadata, (metadata,)))
    return found


def _keep(table, key, value):
    """Put a new entry in one of the shared tables; a table past 10,000 entries (many
    shapes) starts again rather than grow."""
    if len(table) > 10_000:
        table.clear()
    table[key] = value
    return value



def _expandable(shape, target):
    """True if `shape` broadcasts to `target`."""
    if len(shape) > len(target):
        return False
    for small, large in zip(reversed(shape), reversed(target)):
        if small != large and small != 1:
            return False
    return True
