"""The backward graph and the engine that runs it (lessons 01 and 03).

Every tensor made by a recorded op points at a `Node` (its `grad_fn`); every node
points at the nodes of its inputs (`next_functions`).  Leaves that require grad end in
an `AccumulateGrad` node, which adds into `.grad`.  (The node a Function call records,
BackwardNode, is in function.py.)

`backward()` runs the graph backwards from the tensors it is given, without recursion:

1. Count, for every node reachable from the roots, how many edges point at it.
2. Put the roots' gradients into the input buffers of their nodes.
3. Repeatedly take the ready node (all its gradients have arrived) created most
   recently, run it, and add what it returns into the buffers of the nodes it points
   to; a node whose count falls to zero becomes ready.

AccumulateGrad nodes have the highest priority, so a leaf's `.grad` is filled as soon
as its gradient is complete.  What else happens around a node is one call each: hooks
(hooks.py), autograd.grad's captures (capture.py), and the seams of PyTorch's modes and
of the tutor's recorder (seams.py).
"""
import heapq
import itertools
import operator
import sys

import numpy as np

from .. import backend
from . import errors, reentrant, seams
from .capture import Captures
from .grad_mode import state as modes
from .hooks import (HookDict, add_hook, call_post_accumulate_hooks, call_post_hooks,
                    call_pre_hooks)
from .hooks import saved_tensors_hooks_stack

sequence_nrs = itertools.count()  # each new node takes the next: the engine runs newest first
# AccumulateGrad runs as soon as it is ready: the largest sequence number, PyTorch's UINT64_MAX
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

    # Its edges, PyTorch's next_functions ((node, output_nr), ...), as two tuples: the
    # node each input's gradient flows to (None: no gradient), and which output of it.
    _next_nodes = ()
    _next_nrs = ()
    # The shape, dtype and device of each of its outputs, which a gradient flowing in
    # there must fit (an InputMetadata each; None for an output that is not a tensor).
    _output_metadata = (None,)
    _sequence_nr = -1                    # set when it is recorded (Function.apply)
    _saved = None                        # what forward saved (BackwardNode)
    # Hook tables, made on first use: most nodes never get a hook.
    _pre_hooks = None
    _post_hooks = None
    _tensor_pre_hooks = None             # output number -> HookDict of tensor hooks
    _retained_grads = None               # output number -> weakref to a tensor
    _metadata = None

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
        self._output_metadata = (InputMetadata.of(variable),)
        # a leaf's own hooks stay on the leaf (they outlive this node): its output 0
        self._tensor_pre_hooks = {0: variable._leaf_hooks} if variable._leaf_hooks else None

    def name(self):
        return "torch::autograd::AccumulateGrad"       # PyTorch's name for this node

    def apply(self, grad_outputs):
        """Add the gradient into the leaf's .grad, as PyTorch's AccumulateGrad: the first
        becomes .grad (the gradient itself when nothing else holds it, else a copy); later
        ones are added in place, or out of place (recorded) when grad mode is on, as it is
        during a backward with create_graph=True."""
        (grad,) = grad_outputs
        leaf = self.variable
        if grad is None or not leaf._requires_grad:    # (requires_grad_(False) since)
            return ()
        if leaf._grad is None:
            leaf._grad = _first_grad(grad_outputs)
        elif modes.enabled:
            leaf._grad = leaf._grad + grad
        else:
            leaf._grad.add_(grad)
        if seams.recorder is not None:
            seams.recorder.grad_accumulated(self, leaf)
        if leaf._post_accumulate_hooks:
            call_post_accumulate_hooks(self, leaf)
        return ()


def _first_grad(grad_outputs):
    """A leaf's first .grad, made of the gradient AccumulateGrad was given (its only one),
    as PyTorch's AccumulateGrad makes it: while grad mode is on (create_graph), a copy that
    records (copy_: CopyBackwards), so that the gradient can be differentiated again; else
    the gradient's own array when nothing but the engine holds it, or a copy (NOTE [the
    first gradient of a leaf])."""
    grad = grad_outputs[0]
    if modes.enabled:
        return grad._new(grad._xp.zeros_like(grad._data)).copy_(grad)
    data = grad._data
    if _REFCOUNTS_EXACT and type(data) is np.ndarray and data.base is None and (
            data.flags.c_contiguous and data.flags.writeable):
        controls = (_Held(),)
        control = controls[0]
        control._data = held = np.empty(0)
        if (sys.getrefcount(grad) != sys.getrefcount(control) + 1
                or sys.getrefcount(data) != sys.getrefcount(held)):
            data = data.copy()                    # someone else holds it
    else:
        data = data.copy()
    first = grad._make(data)
    return made_by_the_engine(first) if modes.inference else first


# NOTE [the first gradient of a leaf]: PyTorch's AccumulateGrad keeps the gradient it is
# given as the leaf's .grad when nothing but the engine holds it (its use_count() test),
# and a copy when something else does (a hook kept it, it is the gradient you passed to
# backward ...), so that .grad shares its memory with nothing you can reach.  It shows: a
# post-hook of that node sees what a later hook changes in .grad.  minigrad asks CPython's
# reference counts the same question, against a control object held the same way at the
# same moment, so that whatever references the interpreter itself adds cancel out.  The
# gradient is held by the engine's tuple, by AccumulateGrad.apply's name for it and by
# this function's; the control by a tuple and by this function's name: one less.  An
# array that is a view, or where reference counts are not exact (a free-threaded build,
# another Python than CPython), is copied.


class _Held:
    """A control object held as a gradient is (see _held_elsewhere)."""

    __slots__ = ("_data",)


# Reference counts are exact in CPython with its global interpreter lock.
_REFCOUNTS_EXACT = (sys.implementation.name == "cpython"
                    and getattr(sys, "_is_gil_enabled", lambda: True)())


def leaf_accumulator(tensor):
    """The AccumulateGrad of a leaf that requires grad (see TensorBase._gradient_edge)."""
    return tensor._gradient_edge()[0]


class InputMetadata:
    """Shape, dtype and device of a kind of tensor (numpy's shape and dtype): what a
    gradient flowing to a tensor of that kind must fit.  It never changes, so one object
    describes every tensor of its kind (`InputMetadata.of`)."""

    __slots__ = ("shape", "dtype", "device", "tensor_class")
    _kinds = {}                  # (shape, dtype, device, class) -> its InputMetadata
    _tuples = {}                 # a tuple of them -> that tuple, kept once

    @classmethod
    def of(cls, tensor):
        """The InputMetadata of `tensor`'s kind."""
        return cls.of_outputs((tensor,))[0]

    @classmethod
    def of_outputs(cls, outputs):
        """The InputMetadata of each of a node's outputs (None for one that is not a tensor),
        as one tuple kept once for every node whose outputs are of those kinds."""
        metadata = []
        for output in outputs:
            data = getattr(output, "_data", None)
            if data is None:
                metadata.append(None)
                continue
            device = None if type(data) is np.ndarray else backend.device_of(data)
            kind = (data.shape, data.dtype, device, type(output))
            found = cls._kinds.get(kind)
            if found is None:
                if len(cls._kinds) > 10_000:     # (many shapes: start again)
                    cls._kinds.clear()
                found = cls._kinds[kind] = cls(*kind)
            metadata.append(found)
        metadata = tuple(metadata)
        found = cls._tuples.get(metadata)
        if found is None:
            if len(cls._tuples) > 10_000:
                cls._tuples.clear()
            found = cls._tuples[metadata] = metadata
        return found

    def __init__(self, shape, dtype, device, tensor_class):
        self.shape, self.dtype, self.tensor_class = shape, dtype, tensor_class
        self.device = backend.CPU if device is None else device

    def zeros(self):
        """Zeros of this shape, dtype and device: a gradient that never came."""
        zeros = np.zeros(self.shape, self.dtype)
        if self.device is not backend.CPU:
            zeros = backend.move(zeros, self.device)
        return made_by_the_engine(self.tensor_class._make(zeros))

    def conform(self, grad, node, position):
        """`grad` made to fit: a broadcast gradient reduced to this shape, cast to this
        dtype, moved to this device; or PyTorch's error, naming `node`, which returned it
        for its argument `position` (the error counts the tensor inputs only, as PyTorch's
        edges: the index of that argument among them)."""
        data = grad._data
        if type(data) is np.ndarray and data.dtype is self.dtype and (
                data.shape == self.shape and self.device is backend.CPU):
            return grad                       # it fits (nearly always)
        if data.shape != self.shape:
            if not _expandable(self.shape, data.shape):
                raise RuntimeError(errors.GRADIENT_SHAPE.format(
                    node=node.name(), position=node._input_positions.index(position),
                    got=list(data.shape),
                    expected=list(self.shape)))
            grad = grad.sum_to_size(self.shape)
        if grad._data.dtype != self.dtype:
            grad = grad.to(self.tensor_class._dtype_of(self.dtype))
        if grad.device is not self.device:   # gradients live on their tensor's device
            if grad._data.ndim != 0:
                raise RuntimeError(errors.GRADIENT_DEVICE.format(
                    node=node.name(), position=node._input_positions.index(position),
                    expected=self.device, got=grad.device))
            grad = grad.to(self.device)
        return grad


def _expandable(shape, target):
    """True if `shape` broadcasts to `target`."""
    return len(shape) <= len(target) and all(
        small in (large, 1) for small, large in zip(reversed(shape), reversed(target)))


def made_by_the_engine(tensor):
    """A tensor the engine made (a starting gradient, zeros for one that never came):
    inside inference_mode, an inference tensor (PyTorch's surface: seams.inference)."""
    if modes.inference and seams.inference is not None:
        seams.inference.made_in_inference_mode(tensor)
    return tensor


# --- the engine ---------------------------------------------------------------------------

def backward(outputs, grad_outputs=None, retain_graph=None, create_graph=False, inputs=None,
             capture=None, accumulate=True):
    """Backpropagate from `outputs` (a tuple of tensors), each starting from its gradient in
    `grad_outputs` (None: ones, for a one-element tensor): the leaves' .grad get theirs.
    `inputs`: only the way to them runs, and only they get a .grad.  autograd.grad passes
    `capture`, the edges it asks for, and accumulate=False: nothing is written to .grad,
    and the gradients captured are returned (edge -> gradient)."""
    if type(create_graph) is not bool or not (retain_graph is None or type(retain_graph) is bool):
        check_flags(retain_graph, create_graph)
    # Each output's graph edge, with its starting gradient (ones for a scalar).
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    for output, grad in zip(outputs, grad_outputs):
        if grad is not None and not isinstance(grad, type(output)):
            raise TypeError(errors.GRADIENT_NOT_A_TENSOR.format(kind=type(grad).__name__))
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(errors.GRADIENT_COUNT.format(outputs=len(outputs),
                                                        grads=len(grad_outputs)))
    roots = []
    for index, (output, grad) in enumerate(zip(outputs, grad_outputs)):
        edge = output._gradient_edge()
        if edge[0] is None:                  # (also a view made under no_grad)
            raise RuntimeError(errors.NO_GRAD_FN.format(index=index))
        if grad is None:
            if output._data.size != 1:
                raise RuntimeError(errors.NOT_A_SCALAR)
            grad = output._new(output._xp.ones_like(output._data))
            if modes.inference:
                grad = made_by_the_engine(grad)
        elif grad._data.shape != output._data.shape:
            raise RuntimeError(errors.GRADIENT_SHAPE_MISMATCH.format(
                index=index, grad_shape=repr(grad.shape), output_shape=repr(output.shape)))
        roots.append((edge, grad))
    if create_graph and accumulate:          # PyTorch warns (in minigrad.Tensor's words)
        outputs[0]._warn_create_graph()
    if retain_graph is None:                 # the graph is freed, unless it is built on
        retain_graph = create_graph
    if inputs is not None:
        capture = _capture_inputs(inputs)
    hooks = list(saved_tensors_hooks_stack)     # NOTE [saved tensors hooks in backward]
    try:
        if len(_running_tasks) % reentrant.DEPTH == reentrant.DEPTH - 1:  # nested deep in
            return reentrant.on_fresh_thread(_running_tasks, run_backward, roots,  # others
                                             retain_graph, create_graph, capture, accumulate)
        return run_backward(roots, retain_graph, create_graph, capture, accumulate)
    finally:
        saved_tensors_hooks_stack[:] = hooks


# NOTE [saved tensors hooks in backward]: a hook may enter or leave saved_tensors_hooks
# while backward runs; as in PyTorch (whose engine runs on a copy of the thread's hooks),
# that lasts until the backward ends: the hooks in force when it started are put back.


def _capture_inputs(inputs):
    """backward(inputs=...): the edges of the inputs, for the engine to stop at (a non-leaf
    input keeps its gradient as retain_grad does, as in PyTorch)."""
    if not inputs:
        raise RuntimeError(errors.NO_INPUTS)
    for tensor in inputs:
        if not tensor.requires_grad:
            raise RuntimeError(errors.INPUT_NEEDS_NO_GRAD)
    for tensor in inputs:
        if not tensor.is_leaf:
            tensor.retain_grad()
    return {tensor._gradient_edge(): slot for slot, tensor in enumerate(inputs)}


def run_backward(roots, retain_graph, create_graph, capture=None, accumulate=True):
    """Backpropagate `roots`, a list of ((node, output_nr), gradient).  `capture` maps
    the (node, output_nr) edges autograd.grad asks for to its slots: then only nodes leading
    to one run (`accumulate=False`: grad()).  Returns the captured gradients (edge -> grad)."""
    # 1. Count, for every node the roots reach, the edges that point at it.
    dependencies = count_dependencies(roots)
    captures = None if capture is None else Captures(capture, dependencies, roots, accumulate)
    # 2. Put the roots' gradients in their buffers; a root no edge points at is ready.
    buffers, ready, order = {}, [], itertools.count()
    for (node, output_nr), grad in roots:
        if node not in buffers and dependencies.get(node, 0) == 0:
            heapq.heappush(ready, (-node._sequence_nr, next(order), node))
        add_to_buffer(buffers, node, output_nr, grad, create_graph)
    if seams.recorder is not None:
        seams.recorder.backward_started(roots, dependencies)
    _running_tasks.append((next(_task_ids), roots, dependencies, captures))  # NOTE [graph tasks]
    enabled, in_forward = modes.enabled, modes.in_forward
    modes.enabled, modes.in_forward = create_graph, not create_graph   # records only to
    numpy_errors = backend.numpy_errors.set(backend.IGNORE_ALL)       # build on it
    try:
        # 3. Run the ready node created last (the highest sequence number) ...
        while ready:
            node = heapq.heappop(ready)[2]
            grads = tuple(buffers.pop(node, None) or [None] * len(node._output_metadata))
            if captures is not None:             # autograd.grad: keep what it asks for
                grads = captures.take(node, grads, create_graph)
                if grads is None:
                    continue                     # not on the way to what it asks for
            elif node._tensor_pre_hooks or node._retained_grads or node._pre_hooks:
                grads = call_pre_hooks(node, grads, create_graph)
            if seams.recorder is not None:
                seams.recorder.node_started(node, grads, ready)
            if seams.anomaly is None:
                grad_inputs = node.apply(grads)
            else:                                # detect_anomaly(): NaN is an error ...
                grad_inputs = seams.anomaly.run_checked(node, grads)
            if node._post_hooks:
                grad_inputs = call_post_hooks(node, grad_inputs, grads)
            if not retain_graph and node._saved:     # what it saved is freed now
                node.release_saved()
            # 4. ... and send each gradient it returns along its edge: a node whose
            #    count falls to zero has all its gradients, and is ready.
            for next_node, nr, grad in zip(node._next_nodes, node._next_nrs, grad_inputs):
                if next_node is None:
                    continue
                if grad is not None:
                    add_to_buffer(buffers, next_node, nr, grad, create_graph)
                dependencies[next_node] -= 1
                if dependencies[next_node] == 0:
                    heapq.heappush(ready, (-next_node._sequence_nr, next(order), next_node))
            if seams.recorder is not None:
                seams.recorder.node_finished(node, grad_inputs, dependencies)
    finally:
        modes.enabled, modes.in_forward = enabled, in_forward
        backend.numpy_errors.reset(numpy_errors)
        _running_tasks.pop()
    if seams.recorder is not None:
        seams.recorder.backward_finished()
    return {} if captures is None else captures.captured


def count_dependencies(roots):
    """How many edges point at each node the roots reach (iteratively: an explicit stack)."""
    dependencies, stack, seen = {}, [], set()
    for (node, _), _ in roots:
        if node not in seen:
            seen.add(node)
            stack.append(node)
    while stack:
        for next_node in stack.pop()._next_nodes:
            if next_node is None:
                continue
            dependencies[next_node] = dependencies.get(next_node, 0) + 1
            if next_node not in seen:
                seen.add(next_node)
                stack.append(next_node)
    return dependencies


def add_to_buffer(buffers, node, output_nr, grad, create_graph):
    """Add `grad` into the buffer of `node`'s output `output_nr` (one slot per output)."""
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * len(node._output_metadata)
    total = slots[output_nr]
    if total is None:
        slots[output_nr] = grad
    elif create_graph or total._data.dtype is not grad._data.dtype or (
            total._data.shape != grad._data.shape):
        slots[output_nr] = total + grad      # recorded (create_graph), or broadcast
    else:                                    # nothing to record: the arrays' sum
        slots[output_nr] = total._new(total._data + grad._data)


# --- graph tasks ----------------------------------------------------------------------------

# NOTE [graph tasks]: each run_backward call is one *graph task* (PyTorch's name).  A
# hook may ask which task is running (current_graph_task_id) and whether a node will run
# in it (will_engine_execute_node): autograd.graph.register_multi_grad_hook does both, to
# know how many gradients to wait for.  A hook may itself call backward, so the running
# tasks form a stack, each entry (its id, its roots, the dependencies of the nodes it
# reaches, its captures or None).
_running_tasks = []
_task_ids = itertools.count()


def current_graph_task_id():
    """The id of the backward now running (the innermost one), or -1 outside backward
    (PyTorch's torch._C._current_graph_task_id)."""
    return _running_tasks[-1][0] if _running_tasks else -1


def check_flags(*flags):
    """The flags as PyTorch's engine takes them (a C unsigned char): a bool, None or 0..255."""
    for number in [operator.index(f) for f in flags if f is not None and type(f) is not bool]:
        if not 0 <= number <= 255:          # (a float: "'float' object cannot be interpreted")
            raise OverflowError(errors.FLAG_OUT_OF_RANGE[number > 255])


def will_engine_execute_node(node):
    """Whether the backward now running will run `node` (reaching it, and with captures
    needing it), as PyTorch's torch._C._will_engine_execute_node."""
    if not _running_tasks:
        raise RuntimeError(errors.NOT_IN_BACKWARD)
    _, roots, reached, captures = _running_tasks[-1]
    # Several roots hang under one GraphRoot node in PyTorch, so they count as reached;
    # a lone root *is* PyTorch's graph root, which it does not count.
    if node not in reached and not (len(roots) > 1 and any(node is n for (n, _), _ in roots)):
        return False
    return captures is None or captures.will_run_node(node)
