"""Function: an op with a hand-written backward, the unit the engine runs.

Every built-in op of minigrad (ops/) is a `Function` subclass written with the
same public API a student uses: static `forward(ctx, ...)` and
`backward(ctx, *grads)`, `ctx.save_for_backward`, `ctx.saved_tensors`.
`Function.apply` runs forward with grad mode off and, when some input
requires grad, records a `BackwardNode` - which is also the `ctx`.
"""
import functools
import inspect
import traceback
import warnings

from .. import backend
from .anomaly import _state as _anomaly
from . import forward_ad
from .forward_ad import _state as _forward_ad
from .forward_mode import forward_mode, numpy_is_quiet
from .grad_mode import _state as _grad_mode, mark_inference, no_grad
from .graph import Node
from .metadata import positions_of_true, shared_flags, shared_sizes
from .outputs import record_outputs, unrecorded_outputs
from .ctx import FunctionCtx
from .saved_tensor import SavedTensor
from ..tensor_data import TensorData


class BackwardNode(FunctionCtx, Node):
    """The node a `Function` call records; it is the `ctx` that forward filled in."""

    materialize_grads = True
    # Defaults, until forward sets them (one node per op: a short __init__ pays off).
    _saved = None
    _dirty = ()
    _non_differentiable = ()
    to_save = ()
    _in_forward = True                   # until apply has run forward
    _function_cls = None                 # the Function (each op's node class sets it)

    def name(self):
        cls = self._function_cls
        return cls.__dict__.get("node_name") or cls.__name__ + "Backward"

    def __getattr__(self, name):     # only for names not found: y.grad_fn._saved_self ...
        if name.startswith(("_saved_", "_raw_saved_")):
            from .saved_attributes import saved_attribute
            return saved_attribute(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __repr__(self):     # a custom Function's node prints with its module, as in PyTorch
        if "node_name" in self._function_cls.__dict__:
            return Node.__repr__(self)
        return f"<minigrad.autograd.function.{self.name()} object at {hex(id(self))}>"

    def saved_tensors_info(self):
        """One dict (shape, dtype, versions, packed, freed) per slot of save_for_backward,
        None for a saved None: what minigrad.viz draws beside the node."""
        return [s.info() if s is not None else None for s in self._saved_slots() or ()]

    def release_saved_tensors(self):
        for saved in self._saved or ():
            if isinstance(saved, SavedTensor):
                saved.release(self)
        if self._bare_numbers:                  # NOTE [saved numbers]: freed too
            self._numbers_freed = True

    def apply(self, grad_outputs):
        if self.materialize_grads and _NoneType in map(type, grad_outputs):   # (not ==: elementwise)
            grad_outputs = tuple([
                g if g is not None or meta is None else meta.zeros()
                for g, meta in zip(grad_outputs, self._output_metadata)])
        grad_inputs = self._function_cls.backward(self, *grad_outputs)
        if self._function_cls._builtin:      # trusted to return one gradient per argument
            return self._conform(grad_inputs if type(grad_inputs) is tuple else (grad_inputs,))
        return self._conform(self._validate(grad_inputs))

    def _validate(self, grad_inputs):
        """Check what a custom backward returned: one gradient per forward input, each a
        tensor or None (None for arguments that are not tensors)."""
        if not isinstance(grad_inputs, tuple):
            grad_inputs = (grad_inputs,)
        expected = len(self._input_is_tensor)
        if len(grad_inputs) != expected:
            extra = grad_inputs[expected:]
            if len(grad_inputs) < expected or any(g is not None for g in extra):
                raise RuntimeError(
                    f"function {self.name()} returned an incorrect number of gradients "
                    f"(expected {expected}, got {len(grad_inputs)}). backward must return "
                    "one gradient per input of forward, None for inputs that are not "
                    "tensors or need no gradient.")
            grad_inputs = grad_inputs[:expected]
        for position, (grad, is_tensor) in enumerate(zip(grad_inputs, self._input_is_tensor)):
            if grad is not None and not is_tensor:
                raise RuntimeError(
                    f"function {self.name()} returned a gradient different than None at "
                    f"position {position + 1}, but the corresponding forward input was not "
                    "a Variable. Return None for non-tensor inputs of forward.")
            if grad is not None and not isinstance(grad, TensorData):
                kind = f"{type(grad).__module__}.{type(grad).__name__}".replace("builtins.", "")
                raise RuntimeError(
                    f"expected Variable or None (got {kind}). minigrad hint: "
                    f"{self.name()} returned it at position {position + 1}; compute the gradient "
                    "with tensor operations, or wrap a numpy result in torch.tensor(...).")
        return grad_inputs

    def _conform(self, grad_inputs):
        """One gradient per edge (next_functions), each made to fit the tensor it flows to:
        as PyTorch, the metadata comes from the node of that tensor."""
        checked = []
        for position, node, output_nr in zip(
                positions_of_true(self._input_is_tensor), self._next_nodes, self._next_nrs):
            grad = grad_inputs[position]
            if grad is not None and node is not None:        # no edge: dropped unchecked
                metadata = node._output_metadata[output_nr]
                data = grad._data
                if not (data.dtype is metadata._host_dtype and data.shape == metadata.shape
                        and data.__class__ is _HOST_ARRAY):      # it fits (nearly always)
                    grad = metadata.conform(grad, self, position)
            checked.append(grad)
        return tuple(checked)


class _ForwardOnlyCtx(FunctionCtx):
    """The ctx of a built-in op when nothing is recorded (no grad mode, or no input needs
    a gradient): a backward will never run, so saves are dropped, as PyTorch does; no node."""

    def __init__(self, function_cls, needs_input_grad):
        self._function_cls, self.needs_input_grad = function_cls, needs_input_grad

    def save_for_backward(self, *tensors):
        pass


class Function:
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

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f"{type(self)} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself: "
            f"{type(self).__name__}.apply(...).", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):     # Exp()(x), as before PyTorch 0.4
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please "
            "use new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    # NOTE [devices]: built-in ops refuse tensors on different devices, as PyTorch's kernels
    # do ("elementwise": its TensorIterator rules and text; (method, argument names): the
    # text of its other kernels).  A custom Function checks nothing itself: the ops inside
    # its forward do.  Ops that move data between devices (copy_, x[i] = v) set False.
    device_check = None
    # True for minigrad's own ops, which derive from ops.builtin.BuiltinFunction.
    _builtin = False
    # Positions of tensor arguments that never carry a gradient (a mask, a condition):
    # like PyTorch, the node gets no edge for them, so next_functions lists only the rest.
    nondifferentiable_args = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._node_class = _node_class_for(cls)
        if cls.vjp is not Function.vjp and cls.backward is Function.backward:
            cls.backward = cls.vjp                    # vjp is PyTorch's other name for it

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Optional: with it, forward takes no ctx and this fills ctx in instead."""
        raise NotImplementedError

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        if kwargs:      # bind keywords to forward's parameters, as PyTorch does
            args = _bind_keywords(cls, args, kwargs)
        # One pass over the arguments: which need a gradient, and are all on the CPU?
        needs, on_host = [], True
        for arg in args:
            if isinstance(arg, TensorData):
                needs.append(arg._requires_grad or (arg._base is not None and arg.requires_grad))
                if arg._data.__class__ is not _HOST_ARRAY:
                    on_host = False
            else:
                needs.append(False)
        if not on_host and cls.device_check and not _on_one_device(args):
            return cls.apply(*backend.match_devices(cls.device_check, args))  # or PyTorch's error
        needs = tuple(needs)
        record = _grad_mode["enabled"] and True in needs
        if not record and cls._builtin:           # a built-in op that records nothing
            ctx = _ForwardOnlyCtx(cls, needs)
            if _grad_mode["quiet"] and not _grad_mode["enabled"] and numpy_is_quiet():
                # already in forward mode (in this thread: see forward_mode.py)
                outputs = cls.forward(ctx, *args)
            else:
                with forward_mode():
                    outputs = cls.forward(ctx, *args)
            if _forward_ad["level"] is not None:      # a dual level is open: tangents
                outputs = forward_ad.propagate(cls, ctx, args, outputs)
            return mark_inference(outputs) if _grad_mode["inference"] else outputs
        ctx = cls._node_class()
        ctx.needs_input_grad = shared_flags(needs)        # NOTE [shared small tuples]
        if record:
            _connect(ctx, args)
        with forward_mode():
            if cls.setup_context is _NO_SETUP_CONTEXT:
                outputs = cls.forward(ctx, *args)
            else:                            # the newer style: forward(*args) + setup_context
                outputs = cls.forward(*args)
                cls.setup_context(ctx, args, outputs)
        ctx._in_forward = False              # from now on save_for_backward refuses
        if record:
            outputs = record_outputs(ctx, args, outputs)
        else:
            outputs = unrecorded_outputs(args, outputs)
            if _grad_mode["inference"]:
                outputs = mark_inference(outputs)
        if _forward_ad["level"] is not None:          # a dual level is open: tangents
            outputs = forward_ad.propagate(cls, ctx, args, outputs)
        return outputs


def _node_class_for(function_cls):
    """The class of the nodes a Function records: a BackwardNode subclass named as PyTorch
    names it (`type(y.grad_fn)` is `<class 'MulBackward0'>`, or `...function.ExpBackward`
    for a custom Function).  One class per op also keeps CPython's attribute layout of
    its nodes shared: each op's ctx sets its attributes in one order, so a node's
    attributes stay inline, with no dict object per node."""
    named = "node_name" in function_cls.__dict__        # PyTorch's C++ nodes: no module
    name = function_cls.__dict__.get("node_name") or function_cls.__name__ + "Backward"
    return type(name.split("::")[-1], (BackwardNode,), {
        "__slots__": (), "__module__": "builtins" if named else __name__,
        "__qualname__": name.split("::")[-1], "_function_cls": function_cls})


def _bind_keywords(cls, args, kwargs):
    """The positional arguments of forward, with keywords bound and defaults filled in."""
    leading = (None,) if cls.setup_context is _NO_SETUP_CONTEXT else ()   # forward's ctx
    bound = inspect.signature(cls.forward).bind(*leading, *args, **kwargs)
    bound.apply_defaults()
    for name in bound.kwargs:        # keyword-only: forward is called with positions only
        if name in kwargs or name in bound.arguments.get("kwargs", ()):
            raise TypeError(f"forward() got an unexpected keyword argument '{name}'")
    return bound.args[len(leading):]


def _connect(node, args):
    """The node's edges: one per tensor argument (masks and conditions get none).
    (Loops, not list comprehensions: on Python 3.11 each of those is a function call.)"""
    skip = node._function_cls.nondifferentiable_args
    is_tensor, nodes, output_nrs = [], [], []
    for position, arg in enumerate(args):
        if not isinstance(arg, TensorData) or (skip and position in skip):
            is_tensor.append(False)
            continue
        is_tensor.append(True)
        grad_fn = arg._grad_fn
        if arg._base is not None or (grad_fn is None and arg._requires_grad):
            grad_node, output_nr = arg._gradient_edge()   # a view, a leaf
        else:                                             # most edges: grad_fn, or none
            grad_node, output_nr = grad_fn, arg._output_nr
        nodes.append(grad_node)
        output_nrs.append(output_nr)
    node._next_nodes, node._next_nrs = tuple(nodes), shared_sizes(tuple(output_nrs))  # NOTE [edges]
    node._input_is_tensor = shared_flags(tuple(is_tensor))
    if _anomaly["enabled"]:
        node.metadata["traceback_"] = traceback.format_stack()[:-2]


_NoneType = type(None)
_HOST_ARRAY = backend.np.ndarray           # a tensor whose data is one is on the CPU
_NO_SETUP_CONTEXT = Function.setup_context


def _on_one_device(args):
    """True when all tensor arguments share one device.  The common case, all on the CPU,
    costs one type test per tensor; GPU arrays compare their devices."""
    for arg in args:
        if isinstance(arg, TensorData) and arg._data.__class__ is not _HOST_ARRAY:
            return len({a.device for a in args if isinstance(a, TensorData)}) == 1
    return True


def once_differentiable(backward):
    """Decorate a backward that is not itself differentiable: it runs without recording,
    and under create_graph its results differentiate into an error (PyTorch's DelayedError)."""
    @functools.wraps(backward)
    def wrapper(ctx, *grad_outputs):
        with no_grad():
            results = backward(ctx, *grad_outputs)
        if not (_grad_mode["enabled"] and any(
                isinstance(g, TensorData) and g.requires_grad for g in grad_outputs)):
            return results
        single = not isinstance(results, tuple)
        delayed = tuple(None if r is None else _DelayedError.apply(r.detach().requires_grad_())
                        for r in ((results,) if single else results))
        return delayed[0] if single else delayed
    return wrapper


class _DelayedError(Function):
    """The result of a once_differentiable backward under create_graph: differentiating
    it again raises."""

    node_name = "torch::autograd::DelayedError"

    @staticmethod
    def forward(ctx, x):
        return x._alias()

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")


# PyTorch's public name for the ctx class.
FunctionCtx.__module__ = __name__
