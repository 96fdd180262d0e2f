"""Function: an op with a hand-written backward, the node its call records, and what it
saves for backward (lessons 04 to 07).

Every op of minigrad (ops/) is a `Function` subclass written with the API a student
uses: static `forward(ctx, ...)` and `backward(ctx, *grads)`, `ctx.save_for_backward`,
`ctx.saved_tensors`.  `Function.apply` runs forward with grad mode off and, when some
input requires grad, records a `BackwardNode`, which is also the `ctx` that forward
filled in.  What it saves is kept as `SavedTensor`s, which remember the version of what
they saved.

`minigrad.autograd.Function`, the class a student derives from, adds PyTorch's rules
for custom Functions around this one (keywords, setup_context, what a custom backward
may return: minigrad/surface/function_rules.py), as torch.autograd.Function wraps
PyTorch's C++ `_FunctionBase`.
"""
import re
import weakref

from .. import backend
from . import errors, seams
from .grad_mode import no_grad, state as modes
from .graph import InputMetadata, Node, leaf_accumulator, sequence_nrs
from .hooks import saved_tensors_hooks_stack
from .tensor import TensorBase


class FunctionCtx:
    """What forward can leave for backward.  Any other attribute (`ctx.constant = 3`)
    is free for non-tensor values."""

    # Defaults, until forward sets them (one ctx per op: no __init__ to run).
    to_save = ()
    _saved = None                        # the SavedTensors, once recorded
    _released = False                    # True once a backward freed them
    _dirty = _non_differentiable = ()
    _in_forward = True                   # until apply has run forward
    materialize_grads = True
    _is_pure_view = False                # PyTorch's private flag (surface/function_rules.py)

    def save_for_backward(self, *tensors):
        """Save tensors (or None) for backward; read them back with `ctx.saved_tensors`.

        Saved tensors are version-checked: if one is modified in place before
        backward, unpacking it raises an error instead of a wrong gradient.
        """
        if not self._in_forward:
            raise RuntimeError(errors.SAVE_OUTSIDE_FORWARD)
        for position, tensor in enumerate(tensors):
            if not isinstance(tensor, TensorBase) and tensor is not None:
                raise TypeError(errors.SAVE_NOT_A_TENSOR.format(
                    position=position, kind=type(tensor).__name__))
        self.to_save = tensors

    @property
    def saved_tensors(self):
        """The tensors given to `save_for_backward`, unpacked and version-checked."""
        if self._saved is None:        # (in forward: nothing is saved yet, as in PyTorch)
            return () if self._in_forward else tuple(self.to_save)
        tensors = []
        for saved in self._saved:
            tensors.append(None if saved is None else saved.unpack(self))
        if self._released:         # (it saved only None, and a backward has freed it: as
            raise RuntimeError(errors.BACKWARD_TWICE)         # PyTorch's node, refused too)
        return tuple(tensors)

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
    _input_positions = ()                # the position among forward's arguments of each edge
    # What backward returned, checked: a custom Function's (BackwardCFunction) is, with
    # PyTorch's messages; a built-in op's returns a tensor or None per argument of forward.
    _check_gradients = None

    def name(self):
        """Its name, as PyTorch's: the op's `node_name` (MulBackward0 ...), else the
        Function's name and "Backward"."""
        cls = self._function_cls
        return cls.__dict__.get("node_name") or cls.__name__ + "Backward"

    def apply(self, grad_outputs):
        """Run the op's backward: from the gradients of its outputs, one gradient for
        each tensor input, made to fit the tensor it flows to."""
        if self.materialize_grads:              # an output that got no gradient: zeros
            for grad in grad_outputs:
                if grad is None:
                    grad_outputs = self._zeros_for_missing(grad_outputs)
                    if grad_outputs is None:            # none at all, for a built-in op:
                        return (None,) * len(self._next_nodes)   # it gives none either
                    break
        grad_inputs = self._function_cls.backward(self, *grad_outputs)
        if self._check_gradients is not None:       # a custom Function's: PyTorch's checks
            grad_inputs = self._check_gradients(grad_inputs)
        elif type(grad_inputs) is not tuple:        # one gradient, for one input
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
        """Zeros instead of None for the outputs that got no gradient (None, from a built-in
        op's node that got none at all: ops/builtin.py)."""
        return tuple([grad if grad is not None or meta is None else meta.zeros()
                      for grad, meta in zip(grad_outputs, self._output_metadata)])

    def release_saved(self):
        """Free what this node saved (after a backward without retain_graph): a later
        backward through it raises the "second time" error."""
        self._released = True
        for slot, saved in enumerate(self._saved):
            if saved is not None and not saved.freed:
                if seams.recorder is not None:
                    seams.recorder.tensor_freed(self, slot, saved)
                saved.freed, saved.packed = True, None
                saved.unpack_hook = saved.grad_fn = saved.accumulator = None

    def saved_tensors_info(self):
        """One dict (shape, dtype, versions, packed, freed) per slot of save_for_backward,
        None for a saved None: what minigrad.viz draws beside the node."""
        return [None if saved is None else saved.info() for saved in self._saved or ()]

    def _view_returned(self, view, output_nr):
        """Forward returned `view`, a view, as its output `output_nr`: PyTorch's rules
        for changing it in place later (a custom Function's: BackwardCFunction)."""

    def _attach_marked(self, args, outputs):
        """The outputs of a forward that called mark_dirty or mark_non_differentiable, those
        attached as PyTorch's rules say (the node classes of minigrad.autograd.Function and of
        the built-in ops follow them: surface/function_rules.py), and the numbers of those
        outputs; Function.apply attaches the others."""
        raise NotImplementedError(f"{type(self).__name__} cannot mark outputs")


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

    # Positions of tensor arguments that never carry a gradient (a mask, a condition):
    # like PyTorch, the node gets no edge for them, so next_functions lists only the rest.
    nondifferentiable_args = ()
    _node_base = BackwardNode            # the class its nodes derive from

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._backward_cls = cls._node_class = cls._new_node_class()   # (PyTorch's name: the 1st)

    @classmethod
    def _new_node_class(cls):
        """The class of the nodes this Function records, named as PyTorch names it:
        `type(y.grad_fn)` is `<class 'ExpBackward'>` for a custom Exp (built-in ops give
        PyTorch's names, `MulBackward0`: their `node_name`)."""
        named = "node_name" in cls.__dict__             # PyTorch's C++ nodes: no module
        name = cls.__dict__.get("node_name") or cls.__name__ + "Backward"
        short = name.split("::")[-1]
        module = "builtins" if named else cls._node_base.__module__
        return type(short, (cls._node_base,), {"__slots__": (), "__qualname__": short,
                                               "__module__": module, "_function_cls": cls})

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError(errors.NO_FORWARD)

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(errors.NO_BACKWARD)

    @classmethod
    def apply(cls, *args):
        """Run forward and, when an input requires grad, record the node that backward
        will run: the steps of lesson 04."""
        if backend._cupy is not None:            # once a GPU is used: tensors on several
            args = cls._on_one_device(args)      # devices (NOTE [devices])
        # 0. Which inputs need a gradient?  If none does, or grad mode is off (in no_grad,
        #    in backward), nothing is recorded: forward just runs.
        needs_input_grad = []
        for arg in args:
            needs_input_grad.append(isinstance(arg, TensorBase) and arg.requires_grad)
        needs_input_grad = tuple(needs_input_grad)
        if not (modes.enabled and True in needs_input_grad) or (
                seams.inference is not None and seams.inference.records_nothing(args)):
            ctx = cls._backward_cls()            # (a ctx that joins no graph)
            ctx.needs_input_grad = needs_input_grad
            outputs = cls._run_forward(ctx, args)
            if not (modes.enabled or modes.in_forward):     # in no_grad, or inference_mode
                outputs = made_without_recording(outputs, args)
            if seams.forward_ad is not None:
                outputs = seams.forward_ad.propagate(cls, ctx, args, outputs)
            return outputs
        # 1. Make the node, numbered in the order nodes are made (the engine runs the
        #    newest first).  It is also the ctx that forward fills in.
        node = cls._backward_cls()
        node._sequence_nr, node.needs_input_grad = next(sequence_nrs), needs_input_grad
        # 2. Connect it: one edge per tensor input, to the node its gradient flows to
        #    (its grad_fn, a leaf's AccumulateGrad, or None for one that needs none).
        positions, nodes, output_nrs = [], [], []
        for position, arg in enumerate(args):
            if isinstance(arg, TensorBase) and position not in cls.nondifferentiable_args:
                edge = arg._gradient_edge() if needs_input_grad[position] else (None, 0)
                positions.append(position)
                nodes.append(edge[0])
                output_nrs.append(edge[1])
        node._input_positions = tuple(positions)
        node._next_nodes, node._next_nrs = tuple(nodes), tuple(output_nrs)
        if seams.anomaly is not None:            # anomaly mode: remember where forward ran
            seams.anomaly.remember_forward(node)
        if seams.recorder is not None:           # steps 1 and 2, told apart
            seams.recorder.node_connected(node)
        # 3. Run forward with grad mode off: the ops inside it record nothing.
        outputs = cls._run_forward(node, args)
        # 4. Attach the outputs: each gets the node as its grad_fn.
        outputs = _attach_outputs(node, args, outputs)
        # 5. Save what forward asked to save, as SavedTensors that remember its version.
        if node.to_save:
            saved = []
            for slot, tensor in enumerate(node.to_save):
                saved.append(None if tensor is None else SavedTensor(tensor, node, slot))
            node._saved, node.to_save = tuple(saved), ()
        if seams.forward_ad is not None:         # forward-mode AD (lesson 14): tangents too
            outputs = seams.forward_ad.propagate(cls, node, args, outputs)
        node._dirty = ()             # (done with: a dirty output holds its node, not the reverse)
        return outputs

    @classmethod
    def _run_forward(cls, ctx, args):
        """cls.forward(ctx, *args) with grad mode off (the ops inside it record nothing),
        marked as running inside an op's forward, and numpy quiet about inf and nan (as
        PyTorch is); then save_for_backward is closed."""
        enabled, in_forward = modes.enabled, modes.in_forward
        modes.enabled, modes.in_forward = False, True
        numpy_errors = backend.numpy_errors.set(backend.IGNORE_ALL)
        try:
            outputs = cls.forward(ctx, *args)
        finally:
            modes.enabled, modes.in_forward = enabled, in_forward
            backend.numpy_errors.reset(numpy_errors)
        ctx._in_forward = False
        return outputs

    @classmethod
    def _on_one_device(cls, args):
        """The arguments, all on one device.  A custom Function checks nothing itself: the
        ops inside its forward do (the built-in ops: ops/builtin.py)."""
        return args


def _attach_outputs(node, args, outputs):
    """Each tensor output gets the node as its grad_fn: a floating-point one (integers and
    booleans have no gradient), an input returned unchanged as a view of it.  The node keeps
    the metadata a gradient flowing back into each must fit (InputMetadata)."""
    single = not isinstance(outputs, tuple)
    if single:
        outputs = (outputs,)
    marked = ()
    if node._dirty or node._non_differentiable or node._is_pure_view:   # mark_dirty ...
        outputs, marked = node._attach_marked(args, outputs)
    results = []
    for output_nr, output in enumerate(outputs):
        if isinstance(output, TensorBase) and output_nr not in marked:
            for arg in args:
                if arg is output:                # an input returned unchanged: a view of it
                    output = output._view(output._data)
                    break
            if output._data.dtype.kind == "f":
                output._grad_fn, output._output_nr, output._requires_grad = node, output_nr, True
            else:
                output._requires_grad = False
            if output._base is not None:
                node._view_returned(output, output_nr)
        results.append(output)
    node._output_metadata = InputMetadata.of_outputs(results)
    if seams.recorder is not None:
        seams.recorder.node_created(node, results)
    return results[0] if single else tuple(results)


def made_without_recording(outputs, args):
    """The outputs of an op run in no_grad mode or in inference_mode (not inside another
    op's forward): a view among them remembers it was made so, and is refused in place
    later in grad mode, as in PyTorch (Tensor._check_inplace_allowed); inside
    inference_mode, the others are inference tensors (PyTorch's surface: seams.inference)."""
    if modes.inference and seams.inference is not None:
        return seams.inference.made_in_inference_mode(outputs, args)
    for output in outputs if isinstance(outputs, tuple) else (outputs,):
        if isinstance(output, TensorBase) and output._base is not None and not any(
                output is arg for arg in args):
            output._view_made_in = "no_grad mode"
    return outputs


class SavedTensor:
    """One tensor saved by `ctx.save_for_backward` (lessons 05, 06), packed by the
    innermost `saved_tensors_hooks` if some are active (lesson 08).

    NOTE [saved tensors and version counters]
    A SavedTensor remembers the version of the tensor it saved.  In-place ops
    bump a tensor's version (views and detach() share the counter), so if the
    version moved before backward unpacks it, the value backward would use is
    not the one forward saw: unpacking raises PyTorch's "modified by an inplace
    operation" error.  After a backward without retain_graph the node releases
    its SavedTensors and a later unpack raises the "second time" error.
    """

    # What most saved tensors share: class defaults, set on the object only when they differ.
    is_output, output_nr, freed, non_leaf, wrapped_number = False, 0, False, False, False
    unpack_hook = grad_fn = accumulator = weak_grad_fn = None

    def __init__(self, tensor, node, slot):
        if tensor._inference:
            raise RuntimeError(errors.INFERENCE_TENSOR_SAVED)
        self.version_counter = tensor._version_counter
        self.version, self.slot = self.version_counter.value, slot
        self.tensor_class = type(tensor)
        data = tensor._data
        self.shape, self.numpy_dtype = data.shape, data.dtype
        is_output = tensor._grad_fn is node
        if node._dirty and tensor._base is not None and any(tensor is d for d in node._dirty):
            # a view forward changed in place (mark_dirty): its grad_fn now reads its base's
            # history, which leads back to `node`; kept as an output, its grad_fn weakly
            is_output, self.weak_grad_fn = True, weakref.ref(tensor.grad_fn)
        if is_output:
            self.is_output, self.output_nr = True, tensor._output_nr
        if seams.recorder is not None:
            seams.recorder.tensor_saved(node, slot, tensor, is_output)
        if tensor._wrapped_number:
            self.wrapped_number = True                        # x * 2 saves the 2
        if saved_tensors_hooks_stack and not self.wrapped_number:       # (never numbers)
            self._pack(tensor, node, *saved_tensors_hooks_stack[-1])
        elif is_output:
            # An output is kept as its array (with its grad_fn it would be a reference cycle,
            # node -> saved output -> node); unpack() makes its tensor again.
            self.packed = data
        else:
            self.packed = tensor
            if tensor._grad_fn is not None:     # (unpack refuses it once detach_()ed)
                self.non_leaf = True

    def _pack(self, tensor, node, pack_hook, unpack_hook):
        """saved_tensors_hooks are active: keep what `pack_hook` makes of the tensor."""
        with no_grad():                          # packing records nothing, as in PyTorch
            self.packed = pack_hook(tensor)
        if tensor._version != self.version:
            raise RuntimeError(errors.PACK_HOOK_IN_PLACE)
        self.unpack_hook = unpack_hook
        # unpack() gives the hook's result the saved tensor's place in the graph back; a
        # saved output's place is the node that saves it (unpack gets it): holding it here
        # would be a cycle, node -> saved output -> node, kept until Python looks for cycles,
        # and with it what the pack hook made (a file on disk, GPU memory)
        if not self.is_output:
            self.grad_fn, self.requires_grad = tensor.grad_fn, tensor._requires_grad
            self.accumulator = (leaf_accumulator(tensor)
                                if self.grad_fn is None and self.requires_grad else None)
        if seams.recorder is not None:
            seams.recorder.tensor_packed(node, self.slot, self.packed)

    def unpack(self, node):
        """The saved tensor again, for `node`'s backward.  Refused once freed (after a
        backward without retain_graph), and when it was changed in place since it was
        saved: backward would compute with a value forward never saw."""
        if self.freed:
            if seams.recorder is not None:
                seams.recorder.freed_tensor_asked(node, self.slot)
            raise RuntimeError(errors.BACKWARD_TWICE)
        if self.unpack_hook is not None:
            return self._unpack_with_hook(node)
        if self.non_leaf and self.packed._grad_fn is None:     # detach_()ed since saved
            raise RuntimeError(errors.DETACHED_IN_PLACE)
        unchanged = self.version_counter.value == self.version
        if seams.recorder is not None:
            seams.recorder.version_checked(node, self, unchanged)
        if not unchanged:
            raise RuntimeError(self._version_error(node))
        if not self.is_output:
            return self.packed
        # a saved output, kept as its array (see __init__): its tensor again, with its node
        output = self.tensor_class._make(self.packed, requires_grad=True)
        output._version_counter, output._grad_fn = self.version_counter, node
        if self.weak_grad_fn is not None:       # (a view forward changed in place)
            output._grad_fn = self.weak_grad_fn()
        output._output_nr = self.output_nr
        return output

    def _unpack_with_hook(self, node):
        """What `unpack_hook` makes of the packed value, put back in the saved tensor's place
        in the graph (PyTorch checks no version here: the hook may have made a copy)."""
        if seams.recorder is not None:
            seams.recorder.tensor_unpacked(node, self.slot)
        tensor = self.unpack_hook(self.packed)
        if not isinstance(tensor, TensorBase):
            raise TypeError(errors.UNPACK_HOOK_NOT_A_TENSOR.format(kind=type(tensor).__name__))
        # the hook's data as the saved tensor: its grad_fn (or its leaf's AccumulateGrad),
        # as PyTorch's SavedVariable::unpack does; its version counter stays the hook's
        # tensor's (changing it in place leaves the saved tensor's alone)
        restored = tensor._make(tensor._data, requires_grad=self.is_output or self.requires_grad)
        restored._version_counter = tensor._version_counter
        if self.is_output:
            restored._grad_fn, restored._output_nr = node, self.output_nr
        elif self.grad_fn is not None:
            restored._grad_fn, restored._output_nr = self.grad_fn, self.output_nr
        elif self.accumulator is not None:
            restored._accumulator_ref = weakref.ref(self.accumulator)
        return restored

    def kept_tensor(self):
        """The tensor this keeps, as it is now, without a check (a saved output without
        its node): what the pictures and PyTorch's raw saved tensors look at."""
        if not self.is_output:
            return self.packed
        tensor = self.tensor_class._make(self.packed)
        tensor._version_counter = self.version_counter
        return tensor

    @property
    def dtype(self):
        return self.tensor_class._dtype_of(self.numpy_dtype)

    @property
    def nbytes(self):
        count = 1
        for size in self.shape:
            count *= size
        return count * self.numpy_dtype.itemsize

    def info(self):
        """What the visualisations show of a saved tensor (without unpacking it)."""
        return {"shape": tuple(self.shape), "dtype": str(self.dtype), "nbytes": self.nbytes,
                "version": self.version, "current_version": self.version_counter.value,
                "is_output": self.is_output, "packed": self.unpack_hook is not None,
                "freed": self.freed, "wrapped_number": self.wrapped_number}

    def _version_error(self, node):
        # PyTorch names the node that made the tensor: for a saved output this node,
        # for a saved input its current grad_fn (none for a leaf).
        if self.is_output:
            maker, output_nr = node, self.output_nr
        else:
            maker, output_nr = self.packed.grad_fn, self.packed._output_nr
        where = "" if maker is None else (
            f", which is output {output_nr} of {_op_name(maker.name())},")
        return errors.MODIFIED_IN_PLACE.format(
            tensor=self.kept_tensor()._type_description(), where=where,
            version=self.version_counter.value, saved_version=self.version, node=node.name(),
            # in anomaly mode PyTorch's hint points at the backtrace that mode printed
            hint=errors.HINT_ANOMALY_MODE if seams.anomaly is None else errors.HINT_IN_ANOMALY_MODE)


def _op_name(node_name):
    """The op a node belongs to, as PyTorch's messages name it: MulBackward0 -> Mul."""
    return re.sub(r"Backward(0$)?(?=[0-9]*$)", "", node_name)
