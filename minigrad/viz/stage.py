"""The whole graph of a trace, laid out once, so that nodes never jump between frames.

A recorded `Trace` tells the graph's story event by event; the animation
draws that story on one fixed stage.  `Stage(trace)` collects every node the
trace mentions (created in forward, or met in backward when the graph was
built before recording), the leaves (AccumulateGrad nodes), the tensors each
node saved, and one output box under each backward root; then it builds a
`GraphModel` (the same data `minigrad.viz.graph` draws) and lays it out with
minigrad's pure-Python layered layout.

Boxes are sized for the longest text they will ever hold (a leaf's final
`.grad`, a saved tensor's longest state), so a frame can write any of its
states into the box without overflowing it.

Example::

    >>> import minigrad as torch
    >>> from minigrad.viz.stage import Stage
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> with torch.tracing.record() as trace:
    ...     x.exp().sum().backward()
    >>> [trace.names[n] for n in Stage(trace).functions]
    ['ExpBackward0', 'SumBackward0']
"""
from .layout import layout
from .model import GraphEdge, GraphModel, GraphNode, shape_text
from .settings import text

GRAD_VALUES = 4            # a gradient shows its values when it has at most this many
LEAF_PRIORITY = 2 ** 64 - 1   # an AccumulateGrad's sequence number (PyTorch's UINT64_MAX)


def format_tensor(described):
    """A short text for a tensor as events carry it: its values, or its shape.

    Example::

        >>> format_tensor({"shape": (2,), "values": [0.5, 1.0 / 3]})
        '[0.5, 0.3333]'
        >>> format_tensor({"shape": (3, 4), "values": None})
        '(3, 4)'
    """
    if described is None:
        return "None"
    values, shape = described.get("values"), described["shape"]
    size = 1
    for dim in shape:
        size *= dim
    if values is None or size > GRAD_VALUES:
        return shape_text(shape)
    return _format_values(values)


def shape_and_values(described):
    """'(2,): [1, 2]' for a small tensor, '(3, 4)' for a larger one (or unknown values)."""
    shape = shape_text(described["shape"])
    shown = format_tensor(described)
    return shape if shown == shape else f"{shape}: {shown}"


def _format_values(values):
    if isinstance(values, list):
        return "[" + ", ".join(_format_values(v) for v in values) + "]"
    if isinstance(values, bool):
        return str(values)
    return f"{values:.4g}"


def format_bytes(nbytes):
    """'0 B', '48 B', '1.5 KiB', '2.0 MiB'."""
    if nbytes < 1024:
        return f"{nbytes} B"
    if nbytes < 1024 ** 2:
        return f"{nbytes / 1024:.1f} KiB"
    return f"{nbytes / 1024 ** 2:.1f} MiB"


def saved_id(node, slot):
    """The box id of the tensor that `node` saved in `slot`."""
    return f"{node}.s{slot}"


class Stage:
    """The nodes, edges and fixed positions of everything a trace shows.

    Attributes:
        functions: backward node ids (not leaves), in the order the trace met them.
        leaves: {AccumulateGrad node id: leaf tensor description}.
        leaf_of_tensor: {leaf tensor id: AccumulateGrad node id}.
        saved: {(node, slot): tensor_saved event}, wrapped numbers (the 2 of
            x * 2) left out as `minigrad.viz.graph` does.
        inputs: {node: [input node ids]} (data flows input -> node).
        created_at: {node: index of its node_created event}; nodes built before
            recording are absent (they are on stage from the first frame; what they
            saved comes from their node_found event).
        outputs: {"out0": root node id, ...}.
        model, placed: the GraphModel and its Layout.
    """

    def __init__(self, trace, lang="en", names=None):
        self.trace, self.lang = trace, lang
        self.names = {}                 # tensor id -> the name the student gave it
        for label, tensor in (names or {}).items():
            number = tensor.__dict__.get("_trace_id")
            if number is not None:
                self.names[number] = label
        self.functions, self.leaves, self.leaf_of_tensor = [], {}, {}
        self.saved, self.inputs, self.created_at, self.outputs = {}, {}, {}, {}
        self.final_grads = {}           # leaf tensor id -> its last gradient text
        self.packed_bytes = {}          # (node, slot) -> bytes of what pack_hook returned
        self.made = {}                  # node -> the tensors it made (node_created outputs)
        self.saved_of_tensor = {}       # tensor id -> the (node, slot) keys that saved it
        self._collect(trace)
        self.model = self._model()
        self.placed = layout(self.model)

    def _collect(self, trace):
        """One pass over the events: who exists, who feeds whom, what was saved."""
        for index, event in enumerate(trace):
            kind = event.kind
            if kind in ("node_created", "node_found"):
                node = event["node"]
                if kind == "node_created":
                    self.created_at.setdefault(node, index)
                    self.made[node] = event.get("outputs") or []
                else:
                    self._add_found_saved(node, event["saved"])
                for leaf, described in event["leaves"].items():
                    self._add_leaf(leaf, described)
                self._add_node(node, [n for n, _ in event["inputs"] if n is not None])
            elif kind == "node_finished":
                self._add_node(event["node"], [n for n, _ in event["edges"] if n is not None])
            elif kind in ("node_started", "hook_called"):
                self._add_node(event["node"], [])
            elif kind == "tensor_saved" and not event["wrapped_number"]:
                self.saved[(event["node"], event["slot"])] = event
                self.saved_of_tensor.setdefault(event["tensor"]["id"], []).append(
                    (event["node"], event["slot"]))
            elif kind == "tensor_packed":
                self.packed_bytes[(event["node"], event["slot"])] = event.get("packed_nbytes")
            elif kind == "grad_accumulated":
                self._add_leaf(event["node"], {"id": event["leaf"],
                                               "shape": event["grad"]["shape"]})
                self.final_grads[event["leaf"]] = format_tensor(event["grad"])
            elif kind == "backward_started":
                for root in event["roots"]:
                    if root not in self.outputs.values():
                        self.outputs[f"out{len(self.outputs)}"] = root
        if not self.outputs:            # no backward: the nodes nothing consumes are outputs
            used = {n for ins in self.inputs.values() for n in ins}
            for node in self.functions:
                if node not in used:
                    self.outputs[f"out{len(self.outputs)}"] = node

    def _add_found_saved(self, node, infos):
        """The saved tensors of a node built before recording (a node_found event), in
        the shape of the tensor_saved events they stand for."""
        for slot, info in enumerate(infos):
            if info is not None and not info["wrapped_number"]:
                self.saved[(node, slot)] = {
                    "node": node, "slot": slot, "version": info["version"],
                    "tensor": {"id": None, "shape": info["shape"], "dtype": info["dtype"],
                               "values": None},
                    "nbytes": info["nbytes"], "is_output": info["is_output"],
                    "wrapped_number": False}

    def _add_leaf(self, node, described):
        if self.leaves.get(node) is None:
            self.leaves[node] = described
            self.leaf_of_tensor[described["id"]] = node
            self.inputs.setdefault(node, [])

    def _add_node(self, node, inputs):
        if self.trace.names.get(node) == "AccumulateGrad":
            self.inputs.setdefault(node, [])
            if node not in self.leaves:              # a leaf first met in backward
                self.leaves[node] = None
            return
        if node not in self.inputs:
            self.functions.append(node)
            self.inputs[node] = []
        for src in inputs:
            if src not in self.inputs[node]:
                self.inputs[node].append(src)
            if self.trace.names.get(src) == "AccumulateGrad":
                self._add_node(src, [])
            elif src not in self.inputs:
                self._add_node(src, [])

    # --- labels ------------------------------------------------------------

    def leaf_name(self, node):
        """What a leaf is called: the student's name for it (`names=`), else "leaf", or
        "leaf 1", "leaf 2" ... (in the order the trace met them) when there are several."""
        described = self.leaves.get(node)
        if described is not None and described["id"] in self.names:
            return self.names[described["id"]]
        if len(self.leaves) == 1:
            return text(self.lang, "leaf")
        return text(self.lang, "leaf_numbered", n=list(self.leaves).index(node) + 1)

    def leaf_lines(self, node, grad):
        """A leaf's label: name, shape (and values, when small), and its .grad (text or None)."""
        described = self.leaves.get(node)
        shape = shape_and_values(described) if described else ""
        return (self.leaf_name(node), shape, text(self.lang, "grad_is", grad=grad or "None"))

    def output_lines(self, root):
        """An output's label: its name (`names=`) or "output", its shape and small values."""
        made = self.made.get(root)
        if not made or made[0] is None:
            return (text(self.lang, "output"),)
        name = self.names.get(made[0]["id"], text(self.lang, "output"))
        return (name, shape_and_values(made[0]))

    def held_bytes(self, key):
        """The bytes a saved tensor holds while alive: what pack_hook returned when it was
        packed (0 for a path or a handle), else the tensor itself."""
        packed = self.packed_bytes.get(key)
        return self.saved[key]["nbytes"] if packed is None else packed

    def saved_lines(self, key, state, failed=None):
        """A saved tensor's label: what it is, and its state now."""
        event = self.saved[key]
        first = text(self.lang, "saved_output" if event["is_output"] else "saved")
        shape = shape_text(event["tensor"]["shape"])
        if event["tensor"]["id"] in self.names:          # "saved x (2,)"
            shape = f'{self.names[event["tensor"]["id"]]} {shape}'
        if failed is not None:
            return (f"{first} {shape}", text(self.lang, "stale", version=failed[0],
                                             current=failed[1]))
        return (f"{first} {shape}", text(self.lang, "state_" + state))

    def _model(self):
        """A GraphModel with every box at its widest, for the layout."""
        lang, nodes, edges = self.lang, [], []
        for node in self.functions:
            nodes.append(GraphNode(str(node), "function", (self.trace.names.get(node, "?"),)))
        for node, described in self.leaves.items():
            grad = self.final_grads.get(described["id"]) if described else None
            grad = max(grad or "", "None", key=len)
            nodes.append(GraphNode(str(node), "leaf", self.leaf_lines(node, grad)))
        for (node, slot), event in self.saved.items():
            states = [self.saved_lines((node, slot), s) for s in STATES]
            states.append(self.saved_lines((node, slot), "", failed=(99, 99)))
            label = tuple(max(lines, key=len) for lines in zip(*states))
            nodes.append(GraphNode(saved_id(node, slot), "saved", label, owner=str(node)))
            edges.append(GraphEdge(saved_id(node, slot), str(node), "saved"))
        for node, inputs in self.inputs.items():
            for src in inputs:
                edges.append(GraphEdge(str(src), str(node)))
        for out, root in self.outputs.items():
            nodes.append(GraphNode(out, "output", self.output_lines(root)))
            edges.append(GraphEdge(str(root), out))
        order = {n: k for k, n in enumerate(self.functions)}
        nodes.sort(key=lambda n: (n.kind == "output", order.get(_owner(n), -1)))
        return GraphModel(nodes=nodes, edges=edges, lang=lang)

    def box(self, box_id):
        """(x, y, w, h) of a box: a node id, a saved_id, or "out0"."""
        return self.placed.boxes[str(box_id)]

    def centre(self, box_ids):
        """The centre of the smallest rectangle around the boxes of `box_ids` that are placed."""
        boxes = [self.box(b) for b in box_ids if str(b) in self.placed.boxes]
        left, top = min(x for x, _, _, _ in boxes), min(y for _, y, _, _ in boxes)
        right, bottom = max(x + w for x, _, w, _ in boxes), max(y + h for _, y, _, h in boxes)
        return (left + right) / 2, (top + bottom) / 2


STATES = ("saved", "packed", "unpacked", "freed", "freed_access")


def _owner(graph_node):
    """The function a box belongs to (a saved tensor belongs to its node), as an int."""
    ident = graph_node.owner or graph_node.id
    return int(ident) if ident.isdigit() else None
