"""A custom Function's `jvp` under forward-mode AD (lesson 14): called as PyTorch calls
it, and what it returns checked as PyTorch checks it.

A jvp gets one tangent per argument of forward (zeros for a tensor that is not dual,
None for other arguments) and returns one per output.  In it, `ctx.saved_tensors` reads
what forward gave `ctx.save_for_forward` (never what it saved for backward).  Its
tangents must keep the shape of what forward did:

- an output that has no gradient (a number, an integer tensor, one marked
  non-differentiable) gets None;
- an input forward changed in place (mark_dirty) gets its own tangent back, changed
  in place too;
- an output that is a view of an input (the input itself, returned as is, is one)
  gets a view of that input's tangent.
"""
from ..core.tensor import TensorBase


def custom_jvp(function_cls, ctx, args, tangents, outputs):
    """The tangents of the outputs of `function_cls.apply(*args)`, from its jvp."""
    jvp = getattr(function_cls, "jvp", None)
    if jvp is None:
        raise NotImplementedError("You must implement the jvp function for custom "
                                  "autograd.Function to use it with forward mode AD.")
    inputs = []
    for arg, tangent in zip(args, tangents):
        if tangent is None and isinstance(arg, TensorBase) and arg.dtype.is_floating_point:
            tangent = arg._new(arg._xp.zeros_like(arg._data))
        inputs.append(tangent)
    versions = [None if t is None else t._version for t in tangents]
    kept = ctx._saved, ctx.to_save           # in jvp, saved_tensors reads save_for_forward's
    ctx._saved, ctx.to_save = None, getattr(ctx, "saved_for_forward", None) or ()
    try:
        result = jvp(ctx, *inputs)
    finally:
        ctx._saved, ctx.to_save = kept
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    result = result if isinstance(result, tuple) else (result,)
    if len(result) != len(outputs):
        raise RuntimeError("Function's jvp returned an invalid number of forward gradients "
                           f"(expected {len(outputs)} but got {len(result)})")
    for position, (output, tangent) in enumerate(zip(outputs, result)):
        if tangent is not None and not isinstance(tangent, TensorBase):
            raise RuntimeError(f"expected Variable or None (got {type(tangent).__name__}) "
                               f"for grad output {position}.")
        if not _differentiable(output, ctx):
            if tangent is not None:
                raise RuntimeError(
                    f"Function's jvp returned a gradient at position {position}, but  the "
                    "corresponding forward output is not a differentiable Tensor.You should "
                    "return None at that position instead.")
        elif tangent is not None:
            _check_shape_kept(output, tangent, ctx, args, tangents, versions)
    return result


def _differentiable(output, ctx):
    return (isinstance(output, TensorBase) and output.dtype.is_floating_point
            and not any(output is n for n in ctx._non_differentiable))


def _check_shape_kept(output, tangent, ctx, args, tangents, versions):
    """PyTorch's rules for a dirty output and a view output (the module docstring)."""
    if any(output is d for d in ctx._dirty):
        for position, arg in enumerate(args):
            if arg is output and tangents[position] is not None:
                if tangent._version == versions[position]:
                    raise RuntimeError(
                        "An inplace custom Function is not modifying the forward mode "
                        "gradients inplace. If the forward is modifying an input inplace, then "
                        "the jvp function must modify the corresponding gradient inplace.")
                if tangent is not tangents[position]:
                    raise RuntimeError(
                        "An inplace custom Function is not returning the forward mode "
                        "gradients as-is. If the forward is modifying an input inplace, then "
                        "the jvp function must modify the gradient inplace and return it "
                        "as-is.")
        return
    if output._base is None:
        return
    for position, arg in enumerate(args):
        if isinstance(arg, TensorBase) and _base_of(arg) is output._base:
            given = tangents[position]
            if given is None:
                return
            if tangent._base is None:
                raise RuntimeError("A custom Function's forward is returning a view (or an "
                                   "input as-is) but the jvp is not returning a view.")
            if given._base is not None and tangent._base is not given._base:
                raise RuntimeError("A custom Function is returning a view but the jvp is not "
                                   "returning a view of the same base as the given grad input.")
            if given._base is None and tangent._base is not given:
                raise RuntimeError("A custom Function is returning a view but the jvp is not "
                                   "returning a view of the given grad input.")
            return


def _base_of(tensor):
    """The tensor a view's memory belongs to (the tensor itself if it is no view)."""
    return tensor if tensor._base is None else tensor._base
