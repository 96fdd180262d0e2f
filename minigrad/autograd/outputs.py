"""How a recorded node meets the outputs of its forward: each output gets the node as
its grad_fn (`_attach`), the node keeps their metadata, and what forward asked to
save becomes SavedTensors."""
from .. import trace
from ..tensor_data import TensorData
from .metadata import InputMetadata, shared_metadata
from .saved_tensor import SavedTensor


def record_outputs(ctx, args, outputs):
    """Attach the node to the outputs of forward, then save what it asked to save."""
    is_tuple, metadata = isinstance(outputs, tuple), None
    if ctx._dirty or ctx._non_differentiable:
        results = _attach_marked(ctx, args, outputs if is_tuple else (outputs,))
    elif is_tuple:
        results = tuple([_attach(ctx, args, output, output_nr)
                         for output_nr, output in enumerate(outputs)])
    else:
        results = (_attach(ctx, args, outputs, 0),)
        if isinstance(results[0], TensorData):    # most ops: one tensor, one lookup
            metadata = shared_metadata(results[0])[1]
    ctx._output_metadata = metadata or InputMetadata.of_outputs(results)
    if trace.active is not None:
        _narrate_node_created(ctx, results)
    to_save = ctx.to_save
    if to_save:
        saved = []
        for slot, t in enumerate(to_save):
            saved.append(_save(t, ctx, slot))
        ctx._saved = tuple(saved)
        ctx.to_save = ()
    return results if is_tuple else results[0]


def _save(tensor, node, slot):
    """What a node keeps of a tensor given to save_for_backward: a SavedTensor.

    NOTE [saved numbers]: a saved Python number (the 2 of x * 2, the 0.999 of each
    step of a long chain) is kept as its bare 0-dim array instead: nothing can change
    it (no one else holds its tensor), so there is no version to check and no hook to
    run.  An array is no work for Python's garbage collector, where a SavedTensor is
    (each full collection visits every live object: in a chain of `y * 0.999` this
    was a third of the objects and half of the collector's time).  Backward unpacks
    it with `number_tensor`; `_saved_slots()` makes it a SavedTensor when someone
    looks closer (`grad_fn._saved_other`, the visualisations).  While a recorder
    listens it is a SavedTensor from the start, so that the saving is narrated.
    """
    if tensor is None:
        return None
    if tensor._wrapped_number and trace.active is None:
        node._bare_numbers = True
        return tensor._data
    return SavedTensor(tensor, node, slot, tensor._grad_fn is node)


def _attach(node, args, output, output_nr):
    """Make `output` the output `output_nr` of `node`: a floating tensor gets the node
    as its grad_fn; other tensors (integers, booleans) need no gradient."""
    if not isinstance(output, TensorData):
        return output
    for arg in args:
        if arg is output:                     # returning an input unchanged: a view of it
            output = output._alias()
            break
    if output._data.dtype.kind == "f" or output.dtype.is_floating_point:
        output._grad_fn, output._output_nr, output._requires_grad = node, output_nr, True
    else:
        output._requires_grad = False
    if output._base is not None and "node_name" not in node._function_cls.__dict__:
        # in-place changes to it would bypass the custom backward: refused later
        output._view_made_by = (node._function_cls.__name__, output_nr)
    return output


def _attach_marked(ctx, args, outputs):
    """`_attach` for a forward that called mark_dirty or mark_non_differentiable."""
    dirty = {id(t) for t in ctx._dirty}
    if not dirty <= {id(t) for t in outputs}:
        raise RuntimeError("Some elements marked as dirty during the forward method were not "
                           "returned as output. The inputs that are modified inplace must all "
                           "be outputs of the Function.")
    non_differentiable = {id(t) for t in ctx._non_differentiable}
    results = []
    for output_nr, output in enumerate(outputs):
        if id(output) not in dirty and id(output) not in non_differentiable:
            results.append(_attach(ctx, args, output, output_nr))
            continue
        is_dirty, non_diff = id(output) in dirty, id(output) in non_differentiable
        if is_dirty:
            output._check_inplace_allowed()
        elif any(output is a for a in args):
            # an input returned unchanged: a view of it, or a detached alias if it has no
            # gradient
            output = output.detach() if non_diff else output._alias()
        if non_diff or not (output._data.dtype.kind == "f" or output.dtype.is_floating_point):
            if is_dirty:                   # changed in place, and now without history
                output._drop_retained_grad()
                if non_diff:
                    output._grad_fn, output._output_nr, output._requires_grad = None, 0, False
            else:
                output._requires_grad = False
        elif is_dirty:                     # changed in place: a new history for it
            output._rebase_history(ctx, output_nr)
            if output._base is not None and output._base.requires_grad:
                _through_view(output)
        else:
            output._set_history(ctx, output_nr)
        if output._base is not None and "node_name" not in ctx._function_cls.__dict__:
            output._view_made_by = (ctx._function_cls.__name__, output_nr)
        results.append(output)
    return tuple(results)


def _narrate_node_created(node, outputs):
    """Tell the recorder about a new node, its edges, and leaves seen for the first time."""
    leaves = {trace.ident(n): trace.describe(n.variable)
              for n, _ in node.next_functions if n is not None and hasattr(n, "variable")}
    trace.emit("node_created", node=trace.ident(node), name=node.name(),
               sequence_nr=node._sequence_nr,
               inputs=[(trace.ident(n), nr) for n, nr in node.next_functions],
               outputs=[trace.describe(o) for o in outputs if isinstance(o, TensorData)],
               leaves=leaves)


def _through_view(view):
    """A custom Function changed a view in place: the base's history goes through a
    CopySlices node, as for a built-in in-place op (NOTE [in-place changes through a
    view], ops/inplace.py); the view's gradient then reaches the Function's node."""
    from ..ops.inplace import CopySlices, _positions_in_base, regenerate_view_history
    base = view._base
    counted = base._version_counter.value          # (the Function's mark_dirty counted it)
    flat = _positions_in_base(view, base)
    CopySlices.apply(base, flat, view)
    base._version_counter.value = counted
    regenerate_view_history(view, flat)           # the view: AsStridedBackward0 of base


def unrecorded_outputs(args, outputs):
    """What a custom Function that records nothing returns: an input it returns comes back
    as a new tensor on the same data, without history (as PyTorch's)."""
    if isinstance(outputs, tuple):
        return tuple(unrecorded_outputs(args, output) for output in outputs)
    if any(outputs is a for a in args):
        return outputs.detach()
    return outputs
