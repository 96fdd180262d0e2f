"""The nodes of the backward graph (lesson 01).

Every tensor made by a recorded op points at a `Node` (its `grad_fn`); every
node points at the nodes of its inputs (`next_functions`).  Leaves that require
grad end in an `AccumulateGrad` node, which adds into `.grad`.  The node of a
Function call (BackwardNode) is in function.py.
"""
import itertools
import weakref

import numpy as np

from .. import tracing
from ..utils.hooks import HookDict, add_hook
from . import narration, tensor_door
from .engine_hooks import call_post_accumulate_hooks
from .grad_mode import _state as _grad_mode

sequence_nrs = itertools.count()  # each new node takes the next: the engine runs newest first
# AccumulateGrad runs as soon as it is ready: its sequence number is the largest there is,
# PyTorch's UINT64_MAX (what `node._sequence_nr()` prints there: 18446744073709551615).
LEAF_PRIORITY = 2 ** 64 - 1


class Node:
    """A step of backward: turns gradients of its outputs into gradients of its inputs.

    Example::

        >>> import minigrad as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> y = (x.exp() * 3).sum()
        >>> y.grad_fn.name(), y.grad_fn.next_functions[0][0].name()
        ('SumBackward0', 'MulBackward0')
    """

    # Hook tables are made on first use: most nodes never get a hook, and a
    # graph may have a million nodes.
    _pre_hooks = None
    _post_hooks = None
    _tensor_pre_hooks = None             # output number -> HookDict of tensor hooks
    _retained_grads = None               # output number -> weakref to a tensor
    _metadata = None
    # Shape, dtype and device of each forward output: what a gradient flowing in there
    # must fit.  Kept once per output, not per edge to it.
    _output_metadata = (None,)           # one output (a BackwardNode sets its own)
    _saved = None                        # what forward saved (BackwardNode)

    # NOTE [edges]: next_functions, PyTorch's ((node, output_nr), ...), is kept as two
    # flat tuples: a deep graph then has one tuple per node for Python's garbage
    # collector to visit, not one more per edge (its full collections visit every
    # live object: a large share of the time of building a long chain).
    _next_nodes = ()                     # the node each input's gradient flows to (or None)
    _next_nrs = ()                       # ... and which output of that node the input is
    _sequence_nr = -1                    # set when it is recorded (Function.apply)

    @property
    def next_functions(self):
        """((node, output_nr), ...): where this node sends the gradient of each input;
        (None, 0) for an input that needs none."""
        return tuple(zip(self._next_nodes, self._next_nrs))

    @property
    def metadata(self):
        """A dict for your own notes about this node (anomaly mode keeps the forward stack here)."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def __dir__(self):     # without minigrad's own `_saved`: what starts with "_saved" is PyTorch's
        return [name for name in super().__dir__() if name != "_saved"]

    def name(self):
        raise NotImplementedError

    def register_prehook(self, hook):
        """`hook(grad_outputs)` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = HookDict()
        return add_hook(self._pre_hooks, hook)

    def register_hook(self, hook):
        """`hook(grad_inputs, grad_outputs)` runs after this node; it may return new grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = HookDict()
        return add_hook(self._post_hooks, hook)

    def _tensor_hook_dict(self, output_nr):
        """The dict that holds the hooks of this node's output `output_nr`."""
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        return self._tensor_pre_hooks.setdefault(output_nr, HookDict())

    def saved_tensors_info(self):
        """Descriptions of what this node saved for backward (see SavedTensor.info)."""
        return []

    def __call__(self, *grad_outputs):
        """Run this node by hand: its gradients, a lone one as itself (as PyTorch)."""
        if len(grad_outputs) != len(self._output_metadata):     # one per forward output
            raise TypeError(f"expected {len(self._output_metadata)} arguments, got "
                            f"{len(grad_outputs)} instead")
        result = tuple(self.apply(grad_outputs))
        return result[0] if len(result) == 1 else result

    def __repr__(self):
        return f"<{self.name().split('::')[-1]} object at {hex(id(self))}>"


class AccumulateGrad(Node):
    """The node of a leaf tensor: adds the incoming gradient into `leaf.grad`."""

    def __init__(self, variable):
        self._sequence_nr = LEAF_PRIORITY
        self.variable = variable
        self._output_metadata = (InputMetadata(variable),)
        # a leaf's own hooks stay on the leaf (they outlive this node): its output 0
        self._tensor_pre_hooks = {0: variable._leaf_hooks} if variable._leaf_hooks else None

    def name(self):
        return "torch::autograd::AccumulateGrad"       # PyTorch's name for this node

    def apply(self, grad_outputs):
        """Add the gradient into the leaf's .grad, as PyTorch's AccumulateGrad: the first
        becomes .grad (the gradient itself when nothing else holds it, else a copy);
        later ones are added in place, or out of place (recorded) when grad mode is on, as
        it is during a backward with create_graph=True."""
        (grad,) = grad_outputs
        leaf = self.variable
        if grad is None or not leaf._requires_grad:    # (requires_grad_(False) since)
            return ()
        if leaf._grad is None:
            leaf._grad = tensor_door.first_grad(grad_outputs)
        elif _grad_mode.enabled:
            leaf._grad = leaf._grad + grad
        else:
            leaf._grad._accumulate_in_place(grad)
        if tracing.active is not None:
            narration.grad_accumulated(self, leaf)
        if leaf._post_accumulate_hooks:
            call_post_accumulate_hooks(self, leaf)
        return ()


def leaf_accumulator(tensor):
    """The AccumulateGrad of a leaf, made once and shared while the graph holds it (the
    leaf keeps only a weak reference: a graph that is dropped frees it)."""
    node = tensor._accumulator_ref() if tensor._accumulator_ref else None
    if node is None:
        node = AccumulateGrad(tensor)
        tensor._accumulator_ref = weakref.ref(node)
    return node


class InputMetadata:
    """Shape, dtype and device of a tensor at an edge of the graph: what a gradient
    flowing there must fit (never changed, and shared: speed.shared_metadata)."""

    __slots__ = ("shape", "dtype", "device", "_host_dtype")

    def __init__(self, tensor):
        self.shape = tensor._data.shape
        self.dtype = tensor.dtype
        self.device = tensor.device
        # the numpy dtype of a CPU tensor: conform's one-line test for "fits already"
        self._host_dtype = tensor._data.dtype if type(tensor._data) is np.ndarray else None

    def zeros(self):
        return tensor_door.zeros(self.shape, self.dtype, self.device)

    def conform(self, grad, node, position):
        """`grad` made to fit: a broadcast gradient reduced to this shape, cast to this
        dtype, moved to this device; or PyTorch's error, naming `node`, which returned it
        for its argument `position` (the error counts the tensor inputs only, as PyTorch's
        edges: the index of that argument among them)."""
        data = grad._data
        if data.dtype is self._host_dtype and data.shape == self.shape and type(data) is np.ndarray:
            return grad                       # it fits (nearly always)
        if data.shape != self.shape:
            if not _expandable(self.shape, grad.shape):
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index "
                    f"{node._input_positions.index(position)} - "
                    f"got {list(grad.shape)} but expected shape compatible with "
                    f"{list(self.shape)}. The gradient of an input must have that input's "
                    "shape, or a shape it broadcasts to (the engine sums it down).")
            grad = grad.sum_to_size(self.shape)
        if grad.dtype is not self.dtype:
            grad = grad.to(self.dtype)
        if grad.device is not self.device:   # gradients live on their tensor's device
            if grad.ndim != 0:
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index "
                    f"{node._input_positions.index(position)} - "
                    f"expected device {self.device} but got {grad.device}")
            grad = grad.to(self.device)
        return grad


def _expandable(shape, target):
    """True if `shape` broadcasts to `target`."""
    if len(shape) > len(target):
        return False
    for small, large in zip(reversed(shape), reversed(target)):
        if small != large and small != 1:
            return False
    return True
