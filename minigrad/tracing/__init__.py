"""The engine narrates: events emitted while a recorder listens.

    with minigrad.viz.record() as trace:        # or minigrad.tracing.record()
        y = (x * w).exp().sum()
        y.backward()
    [e.kind for e in trace]                      # node_created, tensor_saved, ... node_started ...

The engine calls `emit(kind, ...)` at each step worth showing; with no
recorder active, each call site costs one global lookup and a comparison
(`if tracing.active is not None`), so the engine pays next to nothing.
Widgets replay a `Trace`; they never look at engine internals.

Event kinds and their fields (ids are small integers stable within a trace):

    apply_node_made   node, name, sequence_nr, function (the Function's class name):
                      step 1 of Function.apply, the node made, no edges yet
    apply_edges_connected  node, inputs [(node or None, output_nr)], leaves: step 2
    apply_forward_ran node, outputs [tensor], to_save (how many tensors forward asked to
                      save): step 3, forward has run with grad mode off
    node_created      node, name, sequence_nr, inputs [(node or None, input_nr)],
                      outputs [tensor], leaves {node: tensor} for new AccumulateGrad inputs,
                      caller (a Where: the line outside minigrad that used the op, or None)
                      (step 4: the outputs attached; tensor_saved events are step 5)
    tensor_saved      node, slot, tensor, version, nbytes, is_output, wrapped_number
    tensor_packed     node, slot, packed_nbytes (saved_tensors_hooks were active; the
                      bytes of what pack_hook returned: 0 unless a tensor or array)
    version_check     node, slot, saved_version, current_version, passed
    tensor_unpacked   node, slot
    tensor_freed      node, slot, nbytes
    saved_tensor_freed_access  node, slot      (backward needs a saved tensor that was
                      freed: emitted just before the "second time" RuntimeError)
    node_found        node, name, sequence_nr, inputs, leaves (as node_created), saved
                      [SavedTensor info or None]: a node built before recording began,
                      described just before the backward_started that reaches it, so
                      that a recorder started after forward still knows what it saved
    backward_started  roots [node], dependencies {node: count}
    node_started      node, name, grads_in [tensor or None],
                      ready [(node, priority)] (the others waiting, next to run first)
    node_finished     node, name, grads_out [tensor or None], edges [(node or None, input_nr)],
                      dependencies {node: count left} for the nodes it feeds
    hook_called       node, hook ("tensor", "retain_grad", "prehook", "hook", "post_accumulate")
    grad_accumulated  node, leaf, grad
    backward_finished
A "tensor" above is a dict: id, shape, dtype, and values (a nested list) when small.

Every event the core emits also carries `event.where`, the line of the engine's
own source that emitted it: a `Where` (file, line, function, first_line of that
function) in the engine loop (`run_backward`) or in `Function.apply`, whichever
ran it most recently (None outside both).  The player shows that source beside
the graph with the line highlighted (narration.py finds it).
"""
import contextlib
import weakref

from ..core import seams
from .narration import (SMALL, Narration, Where, describe, ident,  # noqa: F401
                        packed_nbytes)


def __getattr__(name):
    if name == "active":          # the Trace being recorded, or None (the core's seams.recorder)
        return seams.recorder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Event:
    """One thing the engine did: `kind`, its `step` in the trace, its fields, and `where`
    in the engine's source it was emitted (a `Where`, or None)."""

    __slots__ = ("step", "kind", "data", "where")

    def __init__(self, step, kind, data, where=None):
        self.step, self.kind, self.data, self.where = step, kind, data, where

    def __getitem__(self, key):
        return self.data[key]

    def get(self, key, default=None):
        return self.data.get(key, default)

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in self.data.items())
        return f"Event({self.step}, {self.kind!r}, {fields})"


class Trace(Narration):
    """The ordered events recorded by `record()`: the core tells it each step through the
    methods of Narration (narration.py)."""

    def __init__(self):
        self.events = []
        self.names = {}             # node id -> node name
        self.described = set()      # node ids of node_created and node_found events
        self.nodes = weakref.WeakValueDictionary()    # node id -> node, while it lives

    def __iter__(self):
        return iter(self.events)

    def __len__(self):
        return len(self.events)

    def __getitem__(self, index):
        return self.events[index]

    def of_kind(self, *kinds):
        return [e for e in self.events if e.kind in kinds]

    def backward_order(self):
        """The names of the nodes in the order backward ran them."""
        return [e["name"] for e in self.of_kind("node_started")]

    def emit(self, kind, where=None, **data):
        """Add an event (the core's seams.recorder calls only while this trace records)."""
        if kind == "backward_started":
            _describe_earlier_nodes(self, data["roots"] + list(data["dependencies"]), where)
        if kind == "node_created":
            self.described.add(data["node"])
        self.events.append(Event(len(self.events), kind, data, where))

    def __repr__(self):
        counts = {}
        for event in self.events:
            counts[event.kind] = counts.get(event.kind, 0) + 1
        return f"<Trace of {len(self)} events: {counts}>"


@contextlib.contextmanager
def record():
    """Record what the engine does inside the block; yields the Trace.

    Example::

        >>> import minigrad as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> with torch.tracing.record() as trace:
        ...     x.exp().sum().backward()
        >>> trace.backward_order()
        ['SumBackward0', 'ExpBackward0', 'AccumulateGrad']
    """
    trace = Trace()
    previous = seams.plug("recorder", trace)
    try:
        yield trace
    finally:
        seams.plug("recorder", previous)


def emit(kind, where=None, **data):
    """Add an event to the trace being recorded, if one is."""
    if seams.recorder is not None:
        seams.recorder.emit(kind, where, **data)


def _describe_earlier_nodes(trace, numbers, where):
    """node_found for each node of the graph that was built before recording began.

    A recorder started after forward saw no node_created nor tensor_saved: without
    these events its replay would show no saved tensors and no creation order."""
    earlier = [trace.nodes[n] for n in dict.fromkeys(numbers)
               if n not in trace.described and n in trace.nodes]
    for node in sorted(earlier, key=lambda n: n._sequence_nr):
        if hasattr(node, "variable"):           # AccumulateGrad: its leaf is described
            continue                            # by the nodes that feed into it
        number = ident(node)
        trace.described.add(number)
        edges = node.next_functions
        trace.events.append(Event(len(trace.events), "node_found", {
            "node": number, "name": node.name(), "sequence_nr": node._sequence_nr,
            "inputs": [(ident(n), nr) for n, nr in edges],
            "leaves": {ident(n): describe(n.variable) for n, _ in edges
                       if n is not None and hasattr(n, "variable")},
            "saved": node.saved_tensors_info()}, where))


