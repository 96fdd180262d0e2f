"""The backward engine: run the graph's nodes in dependency order, without recursion.

1. Count, for every node reachable from the roots, how many edges point at it.
2. Start with the roots' gradients in their input buffers.
3. Repeatedly take the ready node (all its gradients have arrived) created
   most recently, run it, and add what it returns into the buffers of the
   nodes it points to; a node whose count falls to zero becomes ready.

AccumulateGrad nodes have the highest priority, so a leaf's `.grad` is
filled as soon as its gradient is complete.
"""
import heapq
import itertools

from .. import trace
from . import anomaly
from .forward_mode import forward_mode
from .grad_mode import set_grad_enabled


def run_backward(roots, retain_graph, create_graph, capture=None, accumulate=True):
    """Backpropagate `roots`, a list of ((node, output_nr), gradient).

    `capture` maps (node, output_nr) edges to the gradient slots `autograd.grad`
    returns; then only nodes leading to a captured edge run (`accumulate=False`: grad()).
    Returns the captured gradients (a dict edge -> gradient).
    """
    dependencies = _count_dependencies(node for (node, _), _ in roots)
    needed = _nodes_leading_to(capture, dependencies, roots) if capture is not None else None
    task = GraphTask(roots, dependencies, capture, needed, accumulate)   # NOTE [graph tasks]
    buffers, captured, ready, tiebreak, follow = {}, {}, [], itertools.count(), None
    tracing = trace.active is not None       # the engine narrates only to a recorder

    def add_gradient(node, output_nr, grad):
        slots = buffers.get(node)
        if slots is None:
            slots = buffers[node] = [None] * len(node._output_metadata)
        total = slots[output_nr]
        slots[output_nr] = grad if total is None else _accumulate(total, grad, create_graph)

    with task, set_grad_enabled(True) if create_graph else forward_mode():  # records nothing
        for (node, output_nr), grad in roots:
            add_gradient(node, output_nr, grad)
        for node in {node for (node, _), _ in roots}:
            if dependencies.get(node, 0) == 0:
                follow = _make_ready(node, follow, ready, tiebreak)
        if tracing:
            trace.emit("backward_started", roots=[trace.ident(n) for (n, _), _ in roots],
                       dependencies=_named_counts(dependencies))
        # Once per node: the common path here, the rest in helpers (hooks, captures...).
        while ready or follow is not None:   # follow: NOTE [one ready node]
            node, follow = (follow, None) if follow is not None else (heapq.heappop(ready)[2], None)
            grads = buffers.pop(node, None) or [None] * len(node._output_metadata)
            if capture is not None:
                grads = _capture(node, grads, create_graph, capture, captured, task)
                if grads is None:
                    continue                 # not run: not on the way to a captured edge
            else:                            # most nodes have no hooks: no call
                grads = _call_pre_hooks(node, grads, create_graph) if (
                    node._pre_hooks or node._retained_grads or node._tensor_pre_hooks) else tuple(grads)
            if tracing:
                _narrate_start(node, grads, ready)
            grad_inputs = (_run_node(node, grads) if node._post_hooks or anomaly._state["enabled"]
                           else node.apply(grads))
            if not retain_graph and node._saved:
                node.release_saved_tensors()
            for next_node, input_nr, grad in zip(node._next_nodes, node._next_nrs, grad_inputs):
                if next_node is None:
                    continue
                if grad is not None:
                    add_gradient(next_node, input_nr, grad)
                dependencies[next_node] = remaining = dependencies[next_node] - 1
                if remaining == 0:
                    follow = _make_ready(next_node, follow, ready, tiebreak)
            if tracing:
                _narrate_finish(node, grad_inputs, dependencies)
            grad = grad_inputs = None        # hold no gradient: a leaf may keep a fresh one
    if tracing:
        trace.emit("backward_finished")
    return captured


# NOTE [graph tasks]: each run_backward call is one *graph task* (PyTorch's name).  A
# hook may ask which task is running (current_graph_task_id) and whether a node will run
# in it (will_engine_execute_node): autograd.graph.register_multi_grad_hook does both, to
# know how many gradients to wait for.  A hook may itself call backward, so the running
# tasks form a stack.  All a task knows is computed once per backward, never per node.
_running_tasks = []
_task_ids = itertools.count()


class GraphTask:
    """One backward: the nodes it reaches and, with captures, the nodes it runs."""

    def __init__(self, roots, dependencies, capture, needed, accumulate):
        self.id = next(_task_ids)
        self.reached = dependencies          # its keys: every node an edge points at
        # Several roots hang under one GraphRoot node in PyTorch, so they count as
        # reached; a lone root *is* PyTorch's graph root, which it does not count.
        root_nodes = {node for (node, _), _ in roots}
        self.roots = root_nodes if len(roots) > 1 else ()
        self.needed = needed                 # None: a plain backward runs all it reaches
        self.captured = {node for node, _ in capture} if capture is not None else ()
        # With captures, the nodes whose hooks run: needed, captured, or a lone root.
        lone_root = root_nodes if len(roots) == 1 else set()
        self.will_run = None if needed is None else needed | self.captured | lone_root
        self.accumulate = accumulate         # False: autograd.grad

    def __enter__(self):
        _running_tasks.append(self)
        return self

    def __exit__(self, *exc_info):
        _running_tasks.pop()

    def will_execute(self, node):
        """PyTorch's answer: reached, and with captures needed or captured.  A captured
        node with no next nodes (a leaf's AccumulateGrad) raises under autograd.grad."""
        if node not in self.reached and node not in self.roots:
            return False
        if self.will_run is None:
            return True
        if node not in self.will_run:
            return False
        if not self.accumulate and node in self.captured and not any(
                n is not None for n in node._next_nodes):
            raise RuntimeError(
                "A leaf node was passed to _will_engine_execute_node but we are currently "
                "running autograd.grad(). This is currently not supported.")
        return True


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


def _make_ready(node, follow, ready, tiebreak):
    """Queue a node whose gradients are all in: the ready queue runs the latest made
    first (as PyTorch's).  Returns the node to run next without the queue, or None.

    NOTE [one ready node]: a node that becomes ready when no other node is (most
    nodes of most graphs: each step of a chain) runs next whatever its priority, so
    it skips the heap (`follow`); a second one sends both to the heap, in order.
    """
    if follow is None and not ready:
        return node
    for waiting in (follow, node) if follow is not None else (node,):
        heapq.heappush(ready, (-waiting._sequence_nr, next(tiebreak), waiting))
    return None


def _named_counts(dependencies):
    return {trace.ident(node): count for node, count in dependencies.items()}


def _narrate_start(node, grads, ready):
    """node_started: what flows in, and what else is ready (with priorities)."""
    waiting = [(trace.ident(n), n._sequence_nr) for _, _, n in sorted(ready)]
    trace.emit("node_started", node=trace.ident(node), name=node.name().split("::")[-1],
               grads_in=[trace.describe(g) for g in grads], ready=waiting)


def _narrate_finish(node, grad_inputs, dependencies):
    """node_finished: what flows out along each edge, and the counts it decremented."""
    counts = {trace.ident(n): dependencies[n] for n, _ in node.next_functions if n is not None}
    trace.emit("node_finished", node=trace.ident(node), name=node.name().split("::")[-1],
               grads_out=[trace.describe(g) for g in grad_inputs],
               edges=[(trace.ident(n), nr) for n, nr in node.next_functions],
               dependencies=counts)


def _narrate_hook(node, kind):
    if trace.active is not None:
        trace.emit("hook_called", node=trace.ident(node), hook=kind)


def _count_dependencies(root_nodes):
    """How many edges point at each node reachable from the roots (iteratively)."""
    dependencies, stack, seen = {}, list(dict.fromkeys(root_nodes)), set()   # each root once
    seen.update(stack)
    while stack:
        for next_node in stack.pop()._next_nodes:
            if next_node is None:
                continue
            dependencies[next_node] = dependencies.get(next_node, 0) + 1
            if next_node not in seen:
                seen.add(next_node)
                stack.append(next_node)
    return dependencies


def _nodes_leading_to(capture, dependencies, roots):
    """Nodes that must run for autograd.grad: those with a captured edge below them."""
    remaining = dict(dependencies)
    order = [node for node in {node for (node, _), _ in roots} if remaining.get(node, 0) == 0]
    for node in order:                       # Kahn's algorithm: order grows as we go
        for next_node in node._next_nodes:
            if next_node is not None:
                remaining[next_node] -= 1
                if remaining[next_node] == 0:
                    order.append(next_node)
    targets = {node for node, _ in capture}
    needed = set()
    for node in reversed(order):
        if any(n in needed or n in targets for n in node._next_nodes if n is not None):
            needed.add(node)
    # A lone root always runs, as PyTorch's graph root does (a leaf's AccumulateGrad
    # need not: for backward(inputs=...), api.py adds the captured gradient to .grad).
    lone_root = roots[0][0][0] if len(roots) == 1 else None
    if lone_root is not None and lone_root._next_nodes:
        needed.add(lone_root)
    return needed


def _accumulate(total, grad, create_graph):
    """total + grad, for a node that gets several gradients.  Without create_graph
    nothing is recorded, so a plain array sum does (as fast as PyTorch's InputBuffer)."""
    if create_graph or total._data.dtype is not grad._data.dtype or (
            total._data.shape != grad._data.shape):
        return total + grad
    return total._new(total._data + grad._data)


def _capture(node, grads, create_graph, capture, captured, task):
    """autograd.grad: run the hooks, then keep the gradients asked for.

    Returns the gradients to run the node with, or None if it need not run.  As
    PyTorch, a node that neither leads to a captured edge nor is captured is
    skipped whole: its tensor hooks are not called either.
    """
    if node not in task.will_run:
        return None
    runs = node in task.needed or (       # backward(inputs=[leaf]): its AccumulateGrad runs
        task.accumulate and getattr(node, "variable", None) is not None)
    if not runs:                          # PyTorch's order: its tensor hooks, then capture
        grads = _call_pre_hooks(node, grads, create_graph, node_hooks=False)
    for output_nr, grad in enumerate(grads):     # (a node that runs: captured before hooks)
        if (node, output_nr) in capture:
            captured[(node, output_nr)] = grad
    return _call_pre_hooks(node, grads, create_graph) if runs else None


def _call_pre_hooks(node, grads, create_graph, node_hooks=True):
    """Tensor hooks, then retain_grad, then the node's own pre-hooks (PyTorch's order;
    node_hooks=False: a node autograd.grad captures from but does not run)."""
    if not (node._pre_hooks or node._retained_grads or node._tensor_pre_hooks):
        return tuple(grads)                  # most nodes: no hooks at all
    # the tensor hooks of all outputs, in the order they were registered (handle ids)
    for _, output_nr, hook in sorted((hook_id, output_nr, hook) for output_nr, hooks in (
            node._tensor_pre_hooks or {}).items() for hook_id, hook in hooks.items()):
        _narrate_hook(node, "tensor")
        grad = grads[output_nr]
        result = hook(grad)     # None too: an unused output of a node that runs (split)
        if result is not None:
            grads[output_nr] = result if grad is None else _check_hook_result(hook, grad, result)
    for output_nr, grad in enumerate(grads):      # then retain_grad, once all hooks ran
        if grad is None:
            continue
        retained = node._retained_grads and node._retained_grads.get(output_nr)
        tensor = retained() if retained is not None else None
        if tensor is not None:
            _narrate_hook(node, "retain_grad")
            kept = grad.clone() if create_graph else grad.detach().clone()   # CloneBackward0
            tensor._grad = kept if tensor._grad is None else tensor._grad + kept
    grads = tuple(grads)
    for hook in tuple((node._pre_hooks or {}).values()) if node_hooks else ():
        _narrate_hook(node, "prehook")
        result = hook(grads)
        if result is not None:
            grads = _check_node_hook_result(hook, grads, result)
    return grads


def _run_node(node, grads):
    """Run one node with what the loop leaves out: anomaly checks, then its post-hooks."""
    try:
        grad_inputs = node.apply(grads)
        if anomaly._state["enabled"]:
            anomaly.check_nan(node, grad_inputs)
    except Exception as exc:
        if anomaly.is_enabled():
            anomaly.annotate(exc, node)
        raise
    for hook in tuple(node._post_hooks.values()) if node._post_hooks else ():
        _narrate_hook(node, "hook")
        result = hook(grad_inputs, grads)
        if result is not None:
            grad_inputs = _check_node_hook_result(hook, grad_inputs, result)
    return grad_inputs


def _check_node_hook_result(hook, original, result):
    """PyTorch's checks of what a node's hook returned: a tuple with a gradient (or None)
    for each one it was given, None staying None, each like the gradient it replaces."""
    if not isinstance(result, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
    if len(result) != len(original):
        raise RuntimeError(
            f"hook '{getattr(hook, '__name__', type(hook).__name__)}' has returned an incorrect "
            f"number of values (got {len(result)}, but expected {len(original)})")
    for old, new in zip(original, result):
        if old is None and new is not None:
            raise RuntimeError("can't replace a None gradient with a non-None value")
        if old is not None and new is not None:
            _check_hook_result(hook, old, new)
    return result


def _check_hook_result(hook, original, result):
    name = getattr(hook, "__name__", type(hook).__name__)
    if not getattr(result, "_is_minigrad_tensor", False):
        raise TypeError(
            f"expected Variable, but hook returned '{type(result).__name__}'. A tensor "
            "hook must return a tensor (the new gradient) or None.")
    if result.shape != original.shape:
        raise RuntimeError(
            f"hook '{name}' has changed the size of value: the gradient had shape "
            f"{list(original.shape)} and the hook returned shape {list(result.shape)}.")
    if result.dtype is not original.dtype:
        raise RuntimeError(
            f"hook '{name}' has changed the type of value (was "
            f"{original._type_description().split()[0]} got "
            f"{result._type_description().split()[0]})")
    return result
