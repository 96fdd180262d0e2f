"""torch.autograd.Function: the core's Function (minigrad/core/function.py), with
PyTorch's rules for the Functions a student writes.

As torch.autograd.Function's Python wraps PyTorch's C++ `_FunctionBase`, this class wraps
the core's recipe: keyword arguments and the newer `setup_context` style are bound
before the core's `apply` runs; what a custom backward returns is checked with PyTorch's
messages (function_rules.py); an input returned unchanged, outputs marked dirty or
non-differentiable, views returned by forward follow PyTorch's rules; and the legacy
ways of using a Function (an instance, `__call__`) answer as PyTorch does.
"""
import warnings

from .. import backend
from ..core import function as core
from ..core.grad_mode import state as modes
from . import function_rules, view_history
from .saved_attributes import saved_attribute, saved_attribute_names


class BackwardCFunction(core.BackwardNode):
    """The node (and ctx) of a custom Function: PyTorch's name for its class."""

    def _check_gradients(self, grad_inputs):
        return function_rules.checked_gradients(self, grad_inputs)

    def _attach_marked(self, args, outputs):
        return function_rules.attach_marked(self, args, outputs)

    def _view_returned(self, view, output_nr):
        function_rules.remember_view_of_custom_function(self, view, output_nr)

    def _rebase_view(self, view):
        """forward changed `view` in place (mark_dirty): its base's history goes through
        CopySlices, as for a built-in in-place op (view_history.py)."""
        view_history.rebase_view_changed_by_function(view)

    @property
    def saved_tensors(self):
        """The tensors given to `save_for_backward`, unpacked and version-checked (once
        only, with the Function's clear_saved_tensors_on_access)."""
        if self._function_cls.clear_saved_tensors_on_access:
            return function_rules.saved_tensors_once(self)
        return core.FunctionCtx.saved_tensors.fget(self)

    def save_for_forward(self, *tensors):
        """Save tensors (or None) for `jvp`, which reads them with `ctx.saved_tensors`."""
        for tensor in tensors:
            if not (isinstance(tensor, core.TensorBase) or tensor is None):
                raise AssertionError("save_for_forward expects all arguments to be tensors; "
                                     "you should save non-tensors as attributes on ctx.")
        self.saved_for_forward = tensors

    def __getattr__(self, name):     # only for names not found: y.grad_fn._saved_self ...
        if name.startswith(("_saved_", "_raw_saved_")):
            return saved_attribute(self, name)
        if name == "saved_variables":            # PyTorch's old name for saved_tensors
            warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'",
                          DeprecationWarning, stacklevel=2)
            return self.saved_tensors
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self):     # dir(y.grad_fn) lists the _saved_* names, as PyTorch's does
        return [*super().__dir__(), *saved_attribute_names(self)]

    def __repr__(self):     # a custom Function's node prints with its module, as in PyTorch
        return f"<minigrad.autograd.function.{self.name()} object at {hex(id(self))}>"


class Function(function_rules.FunctionInstance, core.Function):   # (an instance: legacy)
    """Base class for ops with a custom backward.

    Subclass it with two static methods, then call `YourFunction.apply(...)`
    (not `forward`): apply records the node that backward will run.

    Example::

        >>> import minigrad as torch
        >>> class Exp(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, i):
        ...         result = i.exp()
        ...         ctx.save_for_backward(result)
        ...         return result
        ...     @staticmethod
        ...     def backward(ctx, grad_output):
        ...         result, = ctx.saved_tensors
        ...         return grad_output * result
        >>> x = torch.tensor([0.0, 1.0], requires_grad=True)
        >>> Exp.apply(x).sum().backward()
        >>> x.grad
        tensor([1.0000, 2.7183])
    """

    _node_base = BackwardCFunction
    # True: ctx.saved_tensors may be read once, and lets go of them (backward may free each
    # tensor as soon as it is done with it).
    clear_saved_tensors_on_access = False
    # torch.func.vmap's hooks, with PyTorch's defaults (minigrad has no vmap to call them).
    generate_vmap_rule = False
    vmap = staticmethod(function_rules.vmap_not_written)
    # True when the subclass writes setup_context: forward then takes no ctx
    _has_setup_context = False

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f"{type(self)} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself. Instantiating an autograd "
            "function will raise an error in a future version of PyTorch. minigrad hint: "
            f"{type(self).__name__}.apply(...).", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):     # Exp()(x), as before PyTorch 0.4
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please "
            "use new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._has_setup_context = cls.setup_context is not Function.setup_context
        if cls.vjp is not Function.vjp and cls.backward is Function.backward:
            cls.backward = cls.vjp                    # vjp is PyTorch's other name for it
        elif cls.vjp not in (Function.vjp, cls.backward):                 # both written
            cls.backward = staticmethod(function_rules.refuse_backward_and_vjp)

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Optional: with it, forward takes no ctx and this fills ctx in instead."""
        raise NotImplementedError

    vjp = core.Function.backward

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run forward and record its node, as the core's Function.apply (lesson 04), with
        keywords bound to forward's parameters first (defaults filled in for setup_context,
        which sees them all, as in PyTorch)."""
        if kwargs or cls._has_setup_context:
            args = function_rules.bind_keywords(cls.forward, args, kwargs,
                                                not cls._has_setup_context)
        return super().apply(*args)

    @classmethod
    def _run_forward(cls, ctx, args):
        """forward(ctx, *args) as the core runs it; in the newer style, forward(*args), then
        setup_context(ctx, inputs, output).  When nothing is recorded (a ctx that joins no
        graph), PyTorch's rules for the inputs it returns (unrecorded_outputs)."""
        if not cls._has_setup_context:
            outputs = super()._run_forward(ctx, args)
        else:
            enabled, in_forward = modes.enabled, modes.in_forward
            modes.enabled, modes.in_forward = False, True
            numpy_errors = backend.numpy_errors.set(backend.IGNORE_ALL)
            try:
                outputs = cls.forward(*args)
                cls.setup_context(ctx, args, outputs)
            finally:
                modes.enabled, modes.in_forward = enabled, in_forward
                backend.numpy_errors.reset(numpy_errors)
            ctx._in_forward = False
        if ctx._sequence_nr < 0:                  # nothing recorded
            outputs = function_rules.unrecorded_outputs(args, outputs, ctx._dirty)
        return outputs


class InplaceFunction(Function):
    """Kept for old code, as in PyTorch: write a Function (with ctx.mark_dirty) instead."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


# PyTorch's module for them: <class 'torch.autograd.function.ExpBackward'> ...
BackwardCFunction.__module__ = Function.__module__ = "minigrad.autograd.function"
InplaceFunction.__module__ = "minigrad.autograd.function"
