"""Captures: how autograd.grad (and backward(inputs=...)) takes the gradients it asks for.

autograd.grad passes the edges of its inputs to the engine as *captures*.  Only the
nodes that lead to a captured edge run, and nothing is written to `.grad`.  As in
PyTorch, a node that neither leads to a capture nor is one is skipped, tensor hooks
and all; a captured node that does not run has its tensor hooks applied before the
capture (a leaf's hooks change what `grad` returns); one that runs is captured before
its hooks, and only a node that runs calls its own pre-hooks.  A lone root is PyTorch's
graph root: its tensor hooks run, the node itself only if it leads to a capture.  For
backward(inputs=...), the node of each input runs (its pre-hooks too), and no further.
"""
from . import errors
from .hooks import call_pre_hooks


class Captures:
    """The edges one backward captures, the nodes it must run to reach them, and the
    gradients captured so far (`captured`: edge -> gradient)."""

    def __init__(self, edges, dependencies, roots, accumulate):
        self.edges, self.accumulate = edges, accumulate     # accumulate False: grad()
        self.captured = {}
        root_nodes = list(dict.fromkeys(node for (node, _), _ in roots))
        self.needed = _nodes_leading_to(edges, dependencies, root_nodes)
        self.captured_nodes = {node for node, _ in edges}
        lone_root = set(root_nodes) if len(roots) == 1 else set()
        self.will_run = self.needed | self.captured_nodes | lone_root   # whose hooks run

    def take(self, node, grads, create_graph):
        """Keep the gradients asked for, running the hooks in PyTorch's order.  Returns
        the gradients to run the node with, or None if it need not run."""
        if node not in self.will_run:
            return None
        runs = node in self.needed or (       # backward(inputs=[x]): x's node runs
            self.accumulate and node in self.captured_nodes)
        if not runs:                          # PyTorch's order: its tensor hooks, then capture
            grads = call_pre_hooks(node, grads, create_graph, node_hooks=False)
        for output_nr, grad in enumerate(grads):     # (a node that runs: captured before hooks)
            if (node, output_nr) in self.edges:
                self.captured[(node, output_nr)] = grad
        return call_pre_hooks(node, grads, create_graph) if runs else None

    def will_run_node(self, node):
        """Whether the engine runs `node` for these captures (a node it reaches).  A captured
        node with no next nodes (a leaf's AccumulateGrad) raises under autograd.grad."""
        if node not in self.will_run:
            return False
        if not self.accumulate and node in self.captured_nodes and not any(
                n is not None for n in node._next_nodes):
            raise RuntimeError(errors.LEAF_CAPTURED)
        return True


def _nodes_leading_to(edges, dependencies, root_nodes):
    """Nodes that must run for autograd.grad: those with a captured edge below them."""
    remaining = dict(dependencies)
    order = [node for node in root_nodes if remaining.get(node, 0) == 0]
    for node in order:                       # Kahn's algorithm: order grows as we go
        for next_node in node._next_nodes:
            if next_node is not None:
                remaining[next_node] -= 1
                if remaining[next_node] == 0:
                    order.append(next_node)
    targets = {node for node, _ in edges}
    needed = set()
    for node in reversed(order):
        if any(n in needed or n in targets for n in node._next_nodes if n is not None):
            needed.add(node)
    return needed
