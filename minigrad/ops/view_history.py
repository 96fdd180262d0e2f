"""View history: how an in-place change through a view reaches its base.

NOTE [in-place changes through a view]
`v = y[0]; v.mul_(2)` changes y too, so y's history must change: as in
PyTorch, the op runs on a copy of the view, the result is written into the
base through a CopySlices node (the base's new grad_fn), and the view's
grad_fn becomes a fresh gather from the base (AsStridedBackward0).  Other views
of that base notice the base's new history and regenerate their grad_fn when it
is next read (Tensor.grad_fn).  Elements are located by their position in the
base's memory.
"""
from ..backend import address, array_module as backend_module, has_internal_overlap
from .builtin import InPlaceFunction

class CopySlices(InPlaceFunction):
    """base with the elements at flat positions `flat` replaced by `value`;
    dbase = g with zeros at flat (put there, not multiplied in: inf * 0 is nan),
    dvalue = g at flat."""

    node_name = "torch::autograd::CopySlices"

    @staticmethod
    def forward(ctx, base, flat, value):
        ctx.flat = flat
        key = _flat_key(base, flat)
        base._write(value._data.astype(base._data.dtype), base.dtype, key, bump=False)
        ctx.mark_dirty(base)
        return base

    @staticmethod
    def backward(ctx, grad):
        written = grad._xp.zeros(grad.shape, dtype=bool)
        written[_flat_key(grad, ctx.flat)] = True
        grad_value = AsStrided.apply(grad, ctx.flat) if ctx.needs_input_grad[2] else None
        return grad.masked_fill(grad._new(written), 0.0), None, grad_value


class AsStrided(InPlaceFunction):
    """out = the elements of x at flat positions `flat` (a view's place in its base);
    dx = g scattered back to those positions."""

    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx, x, flat):
        ctx.shape, ctx.flat = x.shape, flat
        return x._new(x._data[_flat_key(x, flat)])

    @staticmethod
    def backward(ctx, grad):
        from .index import IndexPutAccumulate      # positions are distinct: a plain scatter
        if not ctx.shape:                           # a 0-d base: the view's one element
            return grad.reshape(()), None
        key = grad._xp.unravel_index(ctx.flat, ctx.shape)
        return IndexPutAccumulate.apply(grad, ctx.shape, key), None


def _flat_key(tensor, flat):
    """An index that picks the elements at C-order positions `flat` (a 0-d tensor has one,
    which numpy's unravel_index refuses)."""
    if tensor.ndim == 0:
        return (None,) * flat.ndim + (Ellipsis,)
    return tensor._xp.unravel_index(flat, tensor.shape)


def _memory_offsets(array, start):
    """The byte offset from `start` of each element of `array`, in `array`'s own shape."""
    xp = backend_module(array)
    offsets = xp.full(array.shape, address(array) - start, dtype=xp.int64)
    for axis, stride in enumerate(array.strides):
        shape = [1] * array.ndim
        shape[axis] = array.shape[axis]
        offsets = offsets + xp.arange(array.shape[axis]).reshape(shape) * stride
    return offsets


def positions_in_base(view, base):
    """C-order positions in `base` of each element of `view` (from memory offsets).

    A C-contiguous base maps offsets to positions by division; any other layout (a
    transposed or Fortran-ordered result) by looking each offset up among the base's own.
    """
    start = address(base._data)
    offsets = _memory_offsets(view._data, start)
    if base._data.flags.c_contiguous:
        return offsets // base._data.itemsize
    xp = view._xp
    in_base = _memory_offsets(base._data, start).reshape(-1)
    order = xp.argsort(in_base)
    return order[xp.searchsorted(in_base[order], offsets)]


def inplace_on_view(view, op, *args):
    """Run the in-place `op` on `view` and record the change in its base's history."""
    base = view._base
    if has_internal_overlap(view._data):        # an expanded view: its copy would not
        view._check_write(view.shape, view.dtype)    # share memory (PyTorch's refusal)
    flat = positions_in_base(view, base)
    # The op runs on a copy of the region, taken from the base's history (not through the
    # view's old node: as in PyTorch, hooks on the view's old grad_fn do not fire).
    updated = op.apply(AsStrided.apply(base, flat).clone(), *args)
    CopySlices.apply(base, flat, updated)
    return regenerate_view_history(view, flat)


def regenerate_view_history(view, flat=None):
    """Point a view's grad_fn at its base's current history (AsStridedBackward0)."""
    from ..autograd.grad_mode import enable_grad
    base = view._base
    view._view_version = view._version_counter.value
    if base.requires_grad:
        if view._view_made_in is not None or view._view_made_by is not None:
            from ..tensor_inplace import no_grad_view_error, view_made_by_error
            error = no_grad_view_error if view._view_made_in else view_made_by_error
            raise error(view, "its base or another view of its base has been modified "
                              "inplace")
        if flat is None:
            flat = positions_in_base(view, base)
        with enable_grad():
            fresh = AsStrided.apply(base, flat)
        view._rebase_history(fresh._grad_fn, fresh._output_nr)
    return view


def inherit_creation(view, of):
    """A view of a view made in no_grad mode, in inference mode, by a function of many
    views (unbind) or by a custom Function is refused in place as its source is (PyTorch's
    creation meta, propagated); the messages then name the new view's own node."""
    view._view_made_in = of._view_made_in
    if of._view_made_by is not None:
        view._view_made_by = (None, None) + of._view_made_by[2:]


def rebase_view_changed_by_function(view):
    """A custom Function changed a view in place (mark_dirty): the base's history goes
    through a CopySlices node, as for a built-in in-place op, and the view's gradient
    then reaches the Function's node (the view is AsStridedBackward0 of its base)."""
    base = view._base
    counted = base._version_counter.value          # (the Function's mark_dirty counted it)
    flat = positions_in_base(view, base)
    CopySlices.apply(base, flat, view)
    base._version_counter.value = counted
    regenerate_view_history(view, flat)
