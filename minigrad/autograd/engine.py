"""The backward engine: run the graph's nodes in dependency order, without recursion
(lesson 03).

1. Count, for every node reachable from the roots, how many edges point at it.
2. Put the roots' gradients into the input buffers of their nodes.
3. Repeatedly take the ready node (all its gradients have arrived) created most
   recently, run it, and add what it returns into the buffers of the nodes it points
   to; a node whose count falls to zero becomes ready.

AccumulateGrad nodes have the highest priority, so a leaf's `.grad` is filled as soon
as its gradient is complete.  What else happens around a node is one call each:
hooks (engine_hooks.py), autograd.grad's captures (capture.py), anomaly mode
(anomaly.py), the narration a recorder listens to (narration.py), and a backward
nested deep inside others (reentrant.py).
"""
import heapq
import itertools

from .. import tracing
from . import anomaly, narration, reentrant
from .anomaly import _state as _anomaly
from .capture import Captures
from .engine_hooks import call_post_hooks, call_pre_hooks
from .forward_mode import forward_mode
from .grad_mode import set_grad_enabled
from .reentrant import REENTRANT_DEPTH
from .saved_tensor import release_saved


def run_backward(roots, retain_graph, create_graph, capture=None, accumulate=True):
    """Backpropagate `roots`, a list of ((node, output_nr), gradient).  `capture` maps
    the (node, output_nr) edges autograd.grad asks for to its slots: then only nodes leading
    to one run (`accumulate=False`: grad()).  Returns the captured gradients (edge -> grad)."""
    if len(_running_tasks) % REENTRANT_DEPTH == REENTRANT_DEPTH - 1:   # nested deep: on a
        return reentrant.on_fresh_thread(run_backward, roots, retain_graph,  # fresh stack
                                         create_graph, capture, accumulate)  # (reentrant.py)
    # 1. Count, for every node the roots reach, the edges that point at it.
    dependencies = count_dependencies(roots)
    task = GraphTask(roots, dependencies, capture, accumulate)   # what hooks may ask
    # 2. Put the roots' gradients in their buffers; a root no edge points at is ready.
    buffers, ready, order = {}, [], itertools.count()
    for (node, output_nr), grad in roots:
        add_to_buffer(buffers, node, output_nr, grad, create_graph)
    for node in task.root_nodes:
        if dependencies.get(node, 0) == 0:
            heapq.heappush(ready, (-node._sequence_nr, next(order), node))
    if tracing.active is not None:
        narration.backward_started(roots, dependencies)
    _running_tasks.append(task)                  # (hooks may ask which backward runs)
    try:
        with set_grad_enabled(True) if create_graph else forward_mode():  # records nothing
            # 3. Run the ready node created last (the highest sequence number) ...
            while ready:
                node = heapq.heappop(ready)[2]
                grads = tuple(buffers.pop(node, None) or [None] * len(node._output_metadata))
                if task.captures is not None:    # autograd.grad: keep what it asks for
                    grads = task.captures.take(node, grads, create_graph)
                    if grads is None:
                        continue                 # not on the way to what it asks for
                elif node._tensor_pre_hooks or node._retained_grads or node._pre_hooks:
                    grads = call_pre_hooks(node, grads, create_graph)
                if tracing.active is not None:
                    narration.node_started(node, grads, ready)
                if _anomaly["enabled"]:
                    grad_inputs = anomaly.run_checked(node, grads)
                else:
                    grad_inputs = node.apply(grads)
                if node._post_hooks:
                    grad_inputs = call_post_hooks(node, grad_inputs, grads)
                if not retain_graph and node._saved:     # what it saved is freed now
                    release_saved(node)
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
                if tracing.active is not None:
                    narration.node_finished(node, grad_inputs, dependencies)
    finally:
        _running_tasks.pop()
    if tracing.active is not None:
        narration.backward_finished()
    return {} if task.captures is None else task.captures.captured


# NOTE [graph tasks]: each run_backward call is one *graph task* (PyTorch's name).  A
# hook may ask which task is running (current_graph_task_id) and whether a node will run
# in it (will_engine_execute_node): autograd.graph.register_multi_grad_hook does both, to
# know how many gradients to wait for.  A hook may itself call backward, so the running
# tasks form a stack.  All a task knows is computed once per backward, never per node.
_running_tasks = []
_task_ids = itertools.count()


class GraphTask:
    """One backward: the nodes it reaches and, with captures, the nodes it runs."""

    def __init__(self, roots, dependencies, capture, accumulate):
        self.id = next(_task_ids)
        self.reached = dependencies          # its keys: every node an edge points at
        self.root_nodes = []                 # the roots' nodes, each once, in order
        for (node, _), _ in roots:
            if node not in self.root_nodes:
                self.root_nodes.append(node)
        # Several roots hang under one GraphRoot node in PyTorch, so they count as
        # reached; a lone root *is* PyTorch's graph root, which it does not count.
        self.roots = set(self.root_nodes) if len(roots) > 1 else ()
        self.captures = None if capture is None else Captures(
            capture, dependencies, self.root_nodes, len(roots) == 1, accumulate)

    def will_execute(self, node):
        """PyTorch's answer: reached, and with captures needed or captured."""
        if node not in self.reached and node not in self.roots:
            return False
        return self.captures is None or self.captures.will_run_node(node)


def current_graph_task_id():
    """The id of the backward now running (the innermost one), or -1 outside backward
    (PyTorch's torch._C._current_graph_task_id)."""
    return _running_tasks[-1].id if _running_tasks else -1


def will_engine_execute_node(node):
    """Whether the backward now running will run `node` (reaching it, and with captures
    needing it), as PyTorch's torch._C._will_engine_execute_node."""
    if not _running_tasks:
        raise RuntimeError(
            "_get_should_execute_nodes should only be called during the backward pass")
    return _running_tasks[-1].will_execute(node)


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
    slots[output_nr] = grad if total is None else _sum(total, grad, create_graph)


def _sum(total, grad, create_graph):
    """total + grad, for a node that gets several gradients.  Without create_graph
    nothing is recorded, so a plain array sum does (as PyTorch's InputBuffer)."""
    if create_graph or total._data.dtype is not grad._data.dtype or (
            total._data.shape != grad._data.shape):
        return total + grad
    return total._new(total._data + grad._data)
