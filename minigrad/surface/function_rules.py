"""PyTorch's rules around a Function call, beyond the recipe of Function.apply.

What a student rarely meets, kept here so that function.py shows the idea: keyword
arguments, tensors on several devices, what a custom backward may return, outputs
that forward marked dirty or non-differentiable, inputs returned as outputs.
"""
import inspect
import warnings

from ..core.hooks import HookDict, add_hook
from ..core.tensor import TensorBase


class FunctionInstance:
    """What an instance of a Function has.  Making one is a legacy pattern (PyTorch warns),
    but PyTorch's instance is a node without edges, so these work on it."""

    next_functions = ()

    def name(self):
        return type(self).__name__

    @property
    def metadata(self):
        return self.__dict__.setdefault("_metadata", {})

    def register_hook(self, hook):
        return add_hook(self.__dict__.setdefault("_post_hooks", HookDict()), hook)

    def register_prehook(self, hook):
        return add_hook(self.__dict__.setdefault("_pre_hooks", HookDict()), hook)


def bind_keywords(forward, args, kwargs, takes_ctx):
    """The positional arguments of `forward`, with keywords bound and defaults filled in
    (`takes_ctx`: forward's first parameter is the ctx, not an argument)."""
    leading = (None,) if takes_ctx else ()
    bound = inspect.signature(forward).bind(*leading, *args, **kwargs)
    bound.apply_defaults()
    for name in bound.kwargs:        # keyword-only: forward is called with positions only
        if name in kwargs or name in bound.arguments.get("kwargs", ()):
            raise TypeError(f"forward() got an unexpected keyword argument '{name}'")
    return bound.args[len(leading):]


def checked_gradients(node, grad_inputs):
    """What a custom backward returned, checked as PyTorch checks it: one gradient per
    forward input (extra Nones are dropped), each a tensor or None, None for arguments
    that are not tensors."""
    if not isinstance(grad_inputs, tuple):
        grad_inputs = (grad_inputs,)
    expected = len(node.needs_input_grad)          # one per argument of forward
    if len(grad_inputs) != expected:
        extra = grad_inputs[expected:]
        if len(grad_inputs) < expected or any(g is not None for g in extra):
            raise RuntimeError(
                f"function {node.name()} returned an incorrect number of gradients "
                f"(expected {expected}, got {len(grad_inputs)}). backward must return "
                "one gradient per input of forward, None for inputs that are not "
                "tensors or need no gradient.")
        grad_inputs = grad_inputs[:expected]
    for position, grad in enumerate(grad_inputs):
        if grad is not None and position not in node._input_positions:
            raise RuntimeError(
                f"function {node.name()} returned a gradient different than None at "
                f"position {position + 1}, but the corresponding forward input was not "
                "a Variable. Return None for non-tensor inputs of forward.")
        if grad is not None and not isinstance(grad, TensorBase):
            kind = f"{type(grad).__module__}.{type(grad).__name__}".replace("builtins.", "")
            raise RuntimeError(
                f"expected Variable or None (got {kind}). minigrad hint: "
                f"{node.name()} returned it at position {position + 1}; compute the gradient "
                "with tensor operations, or wrap a numpy result in torch.tensor(...).")
    return grad_inputs


def refuse_backward_and_vjp(ctx, *grad_outputs):
    """The backward of a Function that wrote both backward and vjp (PyTorch's two names for
    one method): which one to run is unclear, so backward refuses."""
    raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not "
                       "allowed. You should only implement one of them.")


def saved_tensors_once(node):
    """ctx.saved_tensors of a Function with clear_saved_tensors_on_access: the node lets go
    of them as it hands them over, so a second read is refused."""
    if node._saved == ():
        raise RuntimeError(
            "saved_tensors can only be accessed once when clear_saved_tensors_on_access=True "
            "is set on the autograd.Function. Either access saved_tensors only once, or set "
            "clear_saved_tensors_on_access=False.")
    tensors = tuple(None if saved is None else saved.unpack(node) for saved in node._saved)
    node._saved = ()
    return tensors


def vmap_not_written(info, in_dims, *args):
    """Function.vmap until a subclass writes its own: PyTorch's refusal."""
    raise NotImplementedError("To use autograd.Function with vmap, you must either override "
                              "the vmap staticmethod or set generate_vmap_rule=True.")


def remember_view_of_custom_function(node, view, output_nr):
    """A custom Function returned a view: changing it in place later would bypass the
    Function's backward, so it is refused then (Tensor._check_inplace_allowed)."""
    if not node._is_pure_view:
        view._view_made_by = (node._function_cls.__name__, output_nr)


def attach_marked(node, args, outputs):
    """The outputs of a forward that called mark_dirty or mark_non_differentiable (or set
    PyTorch's private ctx._is_pure_view: its one output, a view of its one input, may be
    changed in place as any view), with the numbers of those it attached: a dirty input
    gets a new history, as an in-place op's result; a non-differentiable output does not
    require grad.  Function.apply attaches the others as any output."""
    if node._is_pure_view and (len(outputs) != 1 or len(node._input_positions) != 1):
        raise RuntimeError("Pure view custom Function can only have one input Tensor and one "
                           "output Tensor. Open an issue if you need to support more.")
    dirty = {id(t) for t in node._dirty}
    if not dirty <= {id(t) for t in outputs}:
        raise RuntimeError("Some elements marked as dirty during the forward method were not "
                           "returned as output. The inputs that are modified inplace must all "
                           "be outputs of the Function.")
    non_differentiable = {id(t) for t in node._non_differentiable}
    results, marked = [], []
    for output_nr, output in enumerate(outputs):
        is_dirty, non_diff = id(output) in dirty, id(output) in non_differentiable
        if not (is_dirty or non_diff):
            results.append(output)
            continue
        marked.append(output_nr)
        if is_dirty:
            output._check_inplace_allowed()
            check_dirty(output, args, len(outputs))
        elif any(output is a for a in args):
            # an input returned unchanged: a view of it, or a detached alias if it has no
            # gradient
            output = output.detach() if non_diff else output._alias()
        if non_diff or not output.dtype.is_floating_point:
            if is_dirty:                   # changed in place, and now without history
                output._drop_retained_grad()
                if non_diff:
                    output._grad_fn, output._output_nr, output._requires_grad = None, 0, False
            else:
                output._requires_grad = False
        elif is_dirty:                     # changed in place: a new history for it
            output._rebase_history(node, output_nr)
            if output._base is not None and output._base.requires_grad:
                node._rebase_view(output)       # (a custom Function's: CopySlices)
        else:
            output._set_history(node, output_nr)
        if output._base is not None:
            node._view_returned(output, output_nr)
        results.append(output)
    return tuple(results), marked


def check_dirty(output, args, how_many):
    """PyTorch's rules for an output marked dirty: it should be an input (a view made
    inside forward cannot be one), and an input view changed in place can only be the
    one output (the view's new history goes through its base: one edge, to one node)."""
    is_view = output._base is not None
    if not any(output is a for a in args):
        message = ("ctx.mark_dirty() received a tensor that was not an input. Only input "
                   "Tensors that have been mutated should be passed to ctx.mark_dirty().")
        if is_view:
            raise RuntimeError(message)
        warnings.warn(message, stacklevel=5)
    elif is_view and how_many > 1:
        raise RuntimeError(
            "If your Function modifies inplace an input that is a view of another Tensor, "
            "your Function cannot return more than one Tensor. This is not supported by the "
            "current autograd engine. You should either make sure the input is not a view "
            "(using .clone() for example) or make your Function only return one Tensor "
            "(potentially splitting it into two Functions: one doing the inplace that "
            "returns a single Tensor and a second one that does the other operations). You "
            "can ask on the forum https://discuss.pytorch.org/ if you need help to do this "
            "change.")


def unrecorded_outputs(args, outputs, dirty):
    """What a custom Function that records nothing returns, as PyTorch's: an input it
    returns comes back detached if it requires grad, else as itself if forward marked it
    dirty, else as a view of itself."""
    if isinstance(outputs, tuple):
        return tuple(unrecorded_outputs(args, output, dirty) for output in outputs)
    if isinstance(outputs, TensorBase) and any(outputs is a for a in args):
        if outputs.requires_grad:
            return outputs.detach()
        if not any(outputs is d for d in dirty):
            return outputs._alias()
    return outputs               # (a number returned, even the one passed in, stays as is)
