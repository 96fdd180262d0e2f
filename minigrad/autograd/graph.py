"""The backward graph: nodes and the leaves' AccumulateGrad (saved tensors: saved_tensor.py).

Every tensor made by a recorded op points at a `Node` (its `grad_fn`); every
node points at the nodes of its inputs (`next_functions`).  Leaves that
require grad end in an `AccumulateGrad` node, which adds into `.grad`.
"""
import itertools
import weakref

from .. import trace
from ..utils.hooks import HookDict, add_hook
from .fresh_grads import is_fresh
from .grad_mode import _state as _grad_mode, mark_inference

_sequence = itertools.count()
LEAF_PRIORITY = float("inf")    # AccumulateGrad runs as soon as it is ready


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

    def __init__(self):
        self._sequence_nr = next(_sequence)

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

    def tensor_pre_hooks(self, output_nr):
        hooks = self._tensor_pre_hooks and self._tensor_pre_hooks.get(output_nr)
        return hooks.values() if hooks else ()

    def _tensor_hook_dict(self, output_nr):
        """The dict that holds the hooks of this node's output `output_nr`."""
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        return self._tensor_pre_hooks.setdefault(output_nr, HookDict())

    def saved_tensors_info(self):
        """Descriptions of what this node saved for backward (see SavedTensor.info)."""
        return []

    def release_saved_tensors(self):
        """Free what was saved for backward (called after a backward without retain_graph)."""

    def __call__(self, *grad_outputs):
        """Run this node by hand: its gradients, a lone one as itself (as PyTorch)."""
        result = tuple(self.apply(grad_outputs))
        return result[0] if len(result) == 1 else result

    def __repr__(self):
        return f"<{self.name().split('::')[-1]} object at {hex(id(self))}>"


class AccumulateGrad(Node):
    """The node of a leaf tensor: adds the incoming gradient into `leaf.grad`."""

    _leaf_metadata = None

    def __init__(self, variable):
        super().__init__()
        self._sequence_nr = LEAF_PRIORITY
        self.variable = variable

    def name(self):
        return "torch::autograd::AccumulateGrad"       # PyTorch's name for this node

    @property
    def _tensor_pre_hooks(self):         # a leaf's hooks live on the leaf (its output 0)
        hooks = self.variable._leaf_hooks
        return {0: hooks} if hooks else None

    @property
    def _output_metadata(self):
        if self._leaf_metadata is None:         # found once (NOTE [shared metadata])
            from .metadata import shared_metadata
            self._leaf_metadata = shared_metadata(self.variable)[1]
        return self._leaf_metadata

    def apply(self, grad_outputs, create_graph=None):
        """Add the gradient into the leaf's .grad; recorded (create_graph) when grad mode
        is on, as the engine runs a backward with create_graph=True."""
        if create_graph is None:
            create_graph = _grad_mode["enabled"]
        (grad,) = grad_outputs
        leaf = self.variable
        if grad is None or not leaf._requires_grad:    # (requires_grad_(False) since)
            return ()
        if leaf.grad is None:       # a copy; with create_graph a recorded one (CopyBackwards)
            if create_graph:
                leaf.grad = copy_recorded(grad)
            else:                   # NOTE [stealing a fresh gradient]
                fresh = is_fresh(grad_outputs)
                leaf.grad = mark_inference(   # (inside inference_mode: an inference tensor)
                    grad._new(grad._data if fresh else grad._data.copy()))
        elif create_graph:
            leaf.grad = leaf.grad + grad
        else:
            leaf.grad._accumulate_in_place(grad)
        if trace.active is not None:
            trace.emit("grad_accumulated", node=trace.ident(self), leaf=trace.ident(leaf),
                       grad=trace.describe(leaf.grad))
        for hook in tuple((leaf._post_accumulate_hooks or {}).values()):
            if trace.active is not None:
                trace.emit("hook_called", node=trace.ident(self), hook="post_accumulate")
            if hook(leaf) is not None:
                raise RuntimeError("Tensor post accumulate grad hooks should return None.")
        return ()


def copy_recorded(tensor):
    """A copy made by copy_(), so that the graph sees it as PyTorch does."""
    from ..creation import empty_like
    return empty_like(tensor).copy_(tensor)




def register_leaf_accumulator(tensor):
    """The AccumulateGrad of a leaf, made once and shared while the graph holds it."""
    node = tensor._accumulator_ref() if tensor._accumulator_ref else None
    if node is None:
        node = AccumulateGrad(tensor)
        tensor._accumulator_ref = weakref.ref(node)
    return node


from .saved_tensor import (  # noqa: E402,F401  (they need register_leaf_accumulator)
    ERR_BACKWARD_TWICE, SavedTensor, disable_saved_tensors_hooks, saved_tensors_hooks)
from .save_on_cpu import save_on_cpu    # noqa: E402,F401  (it subclasses saved_tensors_hooks)
from .multi_grad_hook import register_multi_grad_hook  # noqa: E402,F401  (it asks the engine)
