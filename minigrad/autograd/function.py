"""Function: an op with a hand-written backward, and the node its call records
(lessons 04, 05, 07).  Every op of minigrad (ops/) is a `Function` subclass written
with the API a student uses: static `forward(ctx, ...)` and `backward(ctx, *grads)`,
`ctx.save_for_backward`, `ctx.saved_tensors`.  `Function.apply` runs forward with grad
mode off and, when some input requires grad, records a `BackwardNode`, which is also
the `ctx` that forward filled in.  PyTorch's rules around this (keywords, devices,
what a custom backward may return, outputs marked dirty) are in function_rules.py.
"""
import warnings

from .. import backend, tracing
from . import anomaly, forward_ad, function_rules, narration, speed, tensor_door
from .anomaly import _state as _anomaly
from .forward_ad import _state as _forward_ad
from .forward_mode import forward_mode
from .grad_mode import _state as _grad_mode, mark_inference, mark_no_grad_views
from .grad_mode import inference_tensors_made as _inference_tensors_made
from .node import Node, sequence_nrs
from .saved_attributes import saved_attribute, saved_attribute_names
from .saved_tensor import save, saved_info, unpack_all


class FunctionCtx:
    """What forward can leave for backward.  Any other attribute (`ctx.constant = 3`)
    is free for non-tensor values."""

    # Defaults, until forward sets them (one ctx per op: no __init__ to run).
    to_save = ()
    _saved = None                        # what the node keeps once recorded (saved_tensor.py)
    _dirty = _non_differentiable = ()
    _in_forward = True                   # until apply has run forward
    _numbers_freed = False               # NOTE [saved numbers] in saved_tensor.py
    materialize_grads = True
    _is_pure_view = False                # PyTorch's private flag (function_rules.py)

    def save_for_backward(self, *tensors):
        """Save tensors (or None) for backward; read them back with `ctx.saved_tensors`.

        Saved tensors are version-checked: if one is modified in place before
        backward, unpacking it raises an error instead of a wrong gradient.
        """
        if not self._in_forward:
            raise RuntimeError(
                "save_for_backward can only be called from forward: backward reads "
                "what forward saved through ctx.saved_tensors.")
        for position, tensor in enumerate(tensors):
            if not isinstance(tensor, tensor_door.Tensor) and tensor is not None:
                raise TypeError(
                    "save_for_backward can only save variables, but argument "
                    f"{position} is of type {type(tensor).__name__}. Keep non-tensor "
                    f"values as attributes instead, e.g. ctx.value = value.")
        self.to_save = tensors

    @property
    def saved_tensors(self):
        """The tensors given to `save_for_backward`, unpacked and version-checked."""
        if self._saved is None:        # (in forward: nothing is saved yet, as in PyTorch)
            return () if self._in_forward else tuple(self.to_save)
        if self._function_cls.clear_saved_tensors_on_access:
            return function_rules.saved_tensors_once(self)
        return unpack_all(self._saved, self)

    def save_for_forward(self, *tensors):
        """Save tensors (or None) for `jvp`, which reads them with `ctx.saved_tensors`."""
        for tensor in tensors:
            if not (isinstance(tensor, tensor_door.Tensor) or tensor is None):
                raise AssertionError("save_for_forward expects all arguments to be tensors; "
                                     "you should save non-tensors as attributes on ctx.")
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors):
        """Declare inputs that forward modified in place (and returns as outputs).
        Like PyTorch, this bumps their version once more."""
        self._dirty = tuple(tensors)
        for tensor in tensors:
            tensor._version_counter.value += 1

    def mark_non_differentiable(self, *tensors):
        """Declare outputs that have no gradient (indices, masks...)."""
        self._non_differentiable = tuple(tensors)

    def set_materialize_grads(self, value):
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self.materialize_grads = bool(value)


class BackwardNode(FunctionCtx, Node):
    """The node a `Function` call records; it is the `ctx` that forward filled in."""

    _function_cls = None                 # the Function (each op's node class sets it)

    def name(self):
        cls = self._function_cls
        return cls.__dict__.get("node_name") or cls.__name__ + "Backward"

    def apply(self, grad_outputs):
        """Run the op's backward: from the gradients of its outputs, one gradient for
        each tensor input, made to fit the tensor it flows to."""
        if self.materialize_grads:
            grad_outputs = self._zeros_for_missing(grad_outputs)
            if grad_outputs is None:             # a built-in op that got no gradient
                return (None,) * len(self._next_nodes)      # gives none
        grad_inputs = self._function_cls.backward(self, *grad_outputs)
        if not self._function_cls._builtin:      # a custom backward: PyTorch's checks
            grad_inputs = function_rules.checked_gradients(self, grad_inputs)
        elif type(grad_inputs) is not tuple:
            grad_inputs = (grad_inputs,)
        fitted = []            # the gradient of each tensor input, for the edge to it
        for position, node, output_nr in zip(self._input_positions, self._next_nodes,
                                             self._next_nrs):
            grad = grad_inputs[position]
            if grad is not None and node is not None:    # (no node: dropped unchecked)
                grad = node._output_metadata[output_nr].conform(grad, self, position)
            fitted.append(grad)
        return tuple(fitted)

    def _zeros_for_missing(self, grad_outputs):
        """Zeros instead of None for the outputs that got no gradient; None when none got
        one and the op is built in (PyTorch's formulas then give no gradient either)."""
        for grad in grad_outputs:
            if grad is None:
                if self._function_cls._builtin and all(g is None for g in grad_outputs):
                    return None
                return tuple([g if g is not None or meta is None else meta.zeros()
                              for g, meta in zip(grad_outputs, self._output_metadata)])
        return grad_outputs

    def saved_tensors_info(self):
        """One dict (shape, dtype, versions, packed, freed) per slot of save_for_backward,
        None for a saved None: what minigrad.viz draws beside the node."""
        return saved_info(self)

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
        if "node_name" in self._function_cls.__dict__:
            return Node.__repr__(self)
        return f"<minigrad.autograd.function.{self.name()} object at {hex(id(self))}>"


class Function(function_rules.FunctionInstance):    # (what an instance has: legacy)
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

    # NOTE [devices]: built-in ops refuse tensors on different devices, as PyTorch's kernels
    # do ("elementwise": its TensorIterator rules and text; (method, argument names): the
    # text of its other kernels).  A custom Function checks nothing itself: the ops inside
    # its forward do.  Ops that move data between devices (copy_, x[i] = v) set False.
    device_check = None
    # Positions of tensor arguments that never carry a gradient (a mask, a condition):
    # like PyTorch, the node gets no edge for them, so next_functions lists only the rest.
    nondifferentiable_args = ()
    # True for minigrad's own ops, which derive from ops.builtin.BuiltinFunction.
    _builtin = False
    # True: ctx.saved_tensors may be read once, and lets go of them (backward may free each
    # tensor as soon as it is done with it).
    clear_saved_tensors_on_access = False
    # torch.func.vmap's hooks, with PyTorch's defaults (minigrad has no vmap to call them).
    generate_vmap_rule = False
    vmap = staticmethod(function_rules.vmap_not_written)

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
        cls._node_class = cls._backward_cls = _node_class_for(cls)   # (PyTorch's name: the 2nd)
        if cls.vjp is not Function.vjp and cls.backward is Function.backward:
            cls.backward = cls.vjp                    # vjp is PyTorch's other name for it
        elif cls.vjp not in (Function.vjp, cls.backward):                 # both written
            cls.backward = staticmethod(function_rules.refuse_backward_and_vjp)

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
        """Run forward and, when an input requires grad, record the node that backward
        will run: the steps of lesson 03."""
        if kwargs or cls.setup_context is not Function.setup_context:    # bound to forward's
            # parameters, defaults filled in (setup_context sees them all, as in PyTorch)
            args = function_rules.bind_keywords(cls.forward, args, kwargs, _takes_ctx(cls))
        if cls.device_check and backend._cupy is not None:   # built-ins, once a GPU is used:
            args = function_rules.on_one_device(cls.device_check, args)   # on one device
        # 0. Which inputs need a gradient?  If none does, or grad mode is off (in no_grad,
        #    in backward), nothing is recorded: forward just runs.
        needs_input_grad = tuple([isinstance(arg, tensor_door.Tensor) and arg.requires_grad
                                  for arg in args])
        if not (_grad_mode.enabled and True in needs_input_grad) or (
                _inference_tensors_made[0]                         # (inference tensors:
                and function_rules.inference_tensors_only(args)):   # see inference_mode)
            return _run_unrecorded(cls, args, needs_input_grad)
        # 1. Make the node, numbered in the order nodes are made (the engine runs the
        #    newest first).  It is also the ctx that forward fills in.
        node = cls._node_class()
        node._sequence_nr, node.needs_input_grad = next(sequence_nrs), needs_input_grad
        # 2. Connect it: one edge per tensor input, to the node its gradient flows to.
        _connect(node, args)
        # 3. Run forward with grad mode off: the ops inside it record nothing.
        with forward_mode():
            if cls.setup_context is Function.setup_context:
                outputs = cls.forward(node, *args)
            else:                                # the newer style: forward(*args), then
                outputs = cls.forward(*args)     # setup_context(ctx, inputs, output)
                cls.setup_context(node, args, outputs)
        node._in_forward = False                 # from now on save_for_backward refuses
        # 4. Attach the outputs: each gets the node as its grad_fn.
        outputs = _attach_outputs(node, args, outputs)
        # 5. Save what forward asked to save, as SavedTensors that remember its version.
        if node.to_save:
            saved = [save(tensor, node, slot) for slot, tensor in enumerate(node.to_save)]
            node._saved, node.to_save = tuple(saved), ()
        if _forward_ad["level"] is not None:     # forward-mode AD (lesson 14): tangents too
            outputs = forward_ad.propagate(cls, node, args, outputs)
        if node._dirty:          # done with: a dirty output holds the node, not the reverse
            node._dirty = ()
        return outputs


def _connect(node, args):
    """The node's edges (next_functions): one per tensor argument, to the node its gradient
    flows to - its grad_fn, a leaf's AccumulateGrad, or None for a tensor that needs no
    gradient - and which output of that node it is.  Masks and conditions
    (nondifferentiable_args) get no edge.  (The node's small tuples are shared: speed.py.)"""
    skip, needs = node._function_cls.nondifferentiable_args, node.needs_input_grad
    positions, nodes, output_nrs = [], [], []
    for position, arg in enumerate(args):
        if not isinstance(arg, tensor_door.Tensor) or position in skip:
            continue
        grad_node, output_nr = arg._gradient_edge() if needs[position] else (None, 0)
        positions.append(position)
        nodes.append(grad_node)
        output_nrs.append(output_nr)
    node._next_nodes, node._next_nrs = tuple(nodes), speed.shared_sizes(tuple(output_nrs))
    node._input_positions = speed.shared_sizes(tuple(positions))   # of the tensor inputs
    node.needs_input_grad = speed.shared_flags(needs)
    if _anomaly["enabled"]:                      # anomaly mode: remember where forward ran
        anomaly.remember_forward(node)
    if tracing.active is not None:               # steps 1 and 2 of apply, told apart
        narration.node_connected(node)


def _call_forward(cls, ctx, args):
    """cls.forward(ctx, *args); in the newer style, forward(*args), then setup_context."""
    if cls.setup_context is Function.setup_context:
        return cls.forward(ctx, *args)
    outputs = cls.forward(*args)
    cls.setup_context(ctx, args, outputs)
    return outputs


def _takes_ctx(cls):
    return cls.setup_context is Function.setup_context


def _attach_outputs(node, args, outputs):
    """Each tensor output gets the node as its grad_fn; the node keeps the metadata a
    gradient flowing back into each must fit (InputMetadata, shared: speed.py)."""
    single = not isinstance(outputs, tuple)
    if single:
        outputs = (outputs,)
    if node._dirty or node._non_differentiable or node._is_pure_view:   # mark_dirty ...
        results = function_rules.attach_marked(node, args, outputs, _attach)
    elif single:
        results = (_attach(node, args, outputs[0], 0),)
    else:
        results = tuple([_attach(node, args, output, output_nr)
                         for output_nr, output in enumerate(outputs)])
    node._output_metadata = speed.metadata_of_outputs(results)
    if tracing.active is not None:
        narration.node_created(node, results)
    return results[0] if single else results


def _attach(node, args, output, output_nr):
    """Make `output` the output `output_nr` of `node`: a floating tensor gets the node
    as its grad_fn; other tensors (integers, booleans) have no gradient."""
    if not isinstance(output, tensor_door.Tensor):
        return output
    for arg in args:
        if arg is output:                        # an input returned unchanged: a view of it
            output = output._alias()
            break
    if output._data.dtype.kind == "f":          # a floating-point tensor
        output._grad_fn, output._output_nr, output._requires_grad = node, output_nr, True
    else:
        output._requires_grad = False
    if output._base is not None:
        function_rules.remember_view_of_custom_function(node, output, output_nr)
    return output


def _run_unrecorded(cls, args, needs_input_grad):
    """Forward alone, recording nothing.  A built-in op gets a plain ctx and no node, as
    PyTorch's kernels; a custom Function's forward still gets its node (it may look at
    it), without edges, and PyTorch's rules for the inputs it returns."""
    if cls._builtin:
        ctx = FunctionCtx()
        ctx._function_cls, ctx.needs_input_grad = cls, needs_input_grad
        with forward_mode():
            outputs = cls.forward(ctx, *args)
    else:
        ctx = cls._node_class()
        ctx.needs_input_grad = needs_input_grad
        with forward_mode():
            outputs = _call_forward(cls, ctx, args)
        ctx._in_forward = False
        outputs = function_rules.unrecorded_outputs(args, outputs, ctx._dirty)
    if _grad_mode.inference:
        outputs = mark_inference(outputs, args)
    elif not (_grad_mode.enabled or _grad_mode.quiet):     # in no_grad (not inside
        outputs = mark_no_grad_views(outputs, args)                # another op's forward)
    if _forward_ad["level"] is not None:
        outputs = forward_ad.propagate(cls, ctx, args, outputs)
    return outputs


def _node_class_for(function_cls):
    """The class of the nodes a Function records: a BackwardNode subclass named as PyTorch
    names it (`type(y.grad_fn)` is `<class 'MulBackward0'>`, or `...function.ExpBackward`
    for a custom Function).  One class per op also keeps CPython's attribute layout of
    its nodes shared: each op's ctx sets its attributes in one order, so a node's
    attributes stay inline, with no dict object per node (speed.py)."""
    named = "node_name" in function_cls.__dict__        # PyTorch's C++ nodes: no module
    name = function_cls.__dict__.get("node_name") or function_cls.__name__ + "Backward"
    return type(name.split("::")[-1], (BackwardNode,), {
        "__slots__": (), "__module__": "builtins" if named else __name__,
        "__qualname__": name.split("::")[-1], "_function_cls": function_cls})


class InplaceFunction(Function):
    """Kept for old code, as in PyTorch: write a Function (with ctx.mark_dirty) instead."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


# PyTorch's names: the class of the nodes (and ctx) of custom Functions; the ctx class.
BackwardCFunction = BackwardNode
FunctionCtx.__module__ = __name__


from .once_differentiable import once_differentiable  # noqa: E402  (PyTorch's place for it)
