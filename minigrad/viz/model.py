"""The graph behind a tensor, as plain data that any renderer can draw.

`build(tensor)` walks `grad_fn.next_functions` with an explicit queue (no
recursion: a chain of a million ops must not hit Python's recursion limit)
and returns a `GraphModel`: nodes with an `id`, a `kind`, a `label` (lines
of text, already in the drawing's language) and `details`; and edges.

Kinds:
  "leaf"       a leaf tensor that requires grad (its AccumulateGrad node)
  "function"   a backward node, with PyTorch's name (MulBackward0)
  "saved"      a tensor that node saved for backward, drawn beside it
  "output"     the tensor you asked to draw
  "collapsed"  the middle of a long chain of the same op ("× 994 MulBackward0")
  "more"       the nodes left out by `max_nodes` ("… 1,234 more nodes not shown")

Edges point the way data flowed in forward (input -> op -> output), as in
torchviz; a saved tensor's edge has style "saved" and points at its node.
Ids and order follow creation (`_sequence_nr`), so a graph always draws the
same way.  Only the public API is used: grad_fn, name(), next_functions,
variable, saved_tensors_info().
"""
from collections import deque
from dataclasses import dataclass, field

from .settings import resolve_lang, text

CHAIN_HEAD = 3       # a collapsed chain keeps its first 3 nodes ...
CHAIN_TAIL = 3       # ... and its last 3
CHAIN_MIN = 10       # chains shorter than this are drawn in full


@dataclass
class GraphNode:
    id: str
    kind: str
    label: tuple
    details: dict = field(default_factory=dict)
    owner: str = None        # for "saved": the id of the node that saved it


@dataclass
class GraphEdge:
    src: str
    dst: str
    style: str = "data"      # "data" or "saved"


@dataclass
class GraphModel:
    nodes: list
    edges: list
    lang: str = "en"
    hidden: int = 0          # autograd nodes that the drawing leaves out (max_nodes)
    collapsed: int = 0       # autograd nodes folded into "× N" nodes

    def node(self, node_id):
        return next(n for n in self.nodes if n.id == node_id)

    def of_kind(self, kind):
        return [n for n in self.nodes if n.kind == kind]


def short_name(node):
    """PyTorch's node name without its C++ namespace: AccumulateGrad, not torch::autograd::..."""
    return node.name().split("::")[-1]


def dtype_name(dtype):
    """float32, not minigrad.float32 (nor torch.float32): the part a student compares."""
    return str(dtype).split(".")[-1]


def shape_text(shape):
    """(3, 4) for a shape; () for a scalar."""
    dims = tuple(int(d) for d in shape)
    return "(" + ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def walk(roots):
    """Every node reachable from `roots`, breadth first, and each node's inputs.

    Returns (order, inputs, uses): nodes in the order met, a dict id -> list of
    input nodes (None edges dropped), and a dict id -> how many edges use it.
    """
    order, inputs, uses, queue = [], {}, {}, deque(roots)
    seen = {id(r) for r in roots}
    while queue:
        node = queue.popleft()
        order.append(node)
        inputs[id(node)] = [n for n, _ in node.next_functions if n is not None]
        for child in inputs[id(node)]:
            uses[id(child)] = uses.get(id(child), 0) + 1
            if id(child) not in seen:
                seen.add(id(child))
                queue.append(child)
    return order, inputs, uses


def find_chains(order, inputs, uses, roots):
    """Long runs of the same op, each link the only use of the node before it.

    A link B -> A needs: A has exactly one input that is not a leaf, that
    input is B, B has the same name as A and no other use.  Each node then has
    at most one link in and one out, so chains are simple paths, followed here
    with a loop.  Returns lists of nodes, earliest first.
    """
    root_ids = {id(r) for r in roots}
    pred = {}
    for node in order:
        fns = [n for n in inputs[id(node)] if not hasattr(n, "variable")]
        if (len(fns) == 1 and id(fns[0]) not in root_ids and uses.get(id(fns[0])) == 1
                and short_name(fns[0]) == short_name(node)):
            pred[id(node)] = fns[0]
    succ = {id(b): a for a, b in ((a, pred[id(a)]) for a in order if id(a) in pred)}
    chains = []
    for node in order:
        if id(node) in succ and id(node) not in pred:      # the start of a chain
            chain = [node]
            while id(chain[-1]) in succ:
                chain.append(succ[id(chain[-1])])
            if len(chain) >= CHAIN_MIN:
                chains.append(chain)
    return chains


def build(tensors, *, show_shapes=False, show_saved=True, lang=None, max_nodes=150,
          names=None):
    """The drawing data of the graph behind `tensors` (a tensor or a list of them).

    Args:
        show_shapes: add shapes and dtypes to saved tensors and dtypes to leaves.
        show_saved: draw what each node saved for backward.
        lang: "en" or "zh" (default: minigrad.settings.lang, MINIGRAD_LANG, "en").
        max_nodes: draw at most this many autograd nodes, those nearest the output.
        names: optional {"x": x, ...} to label leaves and outputs by name.

    Example::

        >>> import minigrad as torch
        >>> from minigrad.viz.model import build
        >>> x = torch.ones(2, requires_grad=True)
        >>> [n.label[0] for n in build((x * 2).sum(), show_saved=False).nodes]
        ['MulBackward0', 'SumBackward0', 'leaf', 'output']
    """
    tensors = list(tensors) if isinstance(tensors, (list, tuple)) else [tensors]
    lang = resolve_lang(lang)
    names = {id(t): n for n, t in (names or {}).items()}
    roots = list({id(t.grad_fn): t.grad_fn for t in tensors if t.grad_fn is not None}.values())
    order, inputs, uses = walk(roots)
    ranked = sorted(order, key=lambda n: n._sequence_nr)   # stable: ties keep walk order
    rank = {id(n): i for i, n in enumerate(ranked)}
    units, rep = _units(ranked, inputs, uses, roots, rank)
    unit_inputs = {u: _unit_inputs(members, inputs, rep, u) for u, members in units.items()}
    shown = _nearest(units, unit_inputs, [rep[id(r)] for r in roots], max_nodes)
    total = len(order)
    drawn = sum(len(units[u]) for u in shown)
    model = GraphModel(nodes=[], edges=[], lang=lang, hidden=total - drawn)
    model.collapsed = sum(len(m) for u, m in units.items() if u in shown and u[0] == "c")
    for unit in (u for u in units if u in shown):      # units keep creation order
        _add_unit(model, unit, units[unit], show_shapes, show_saved, names)
        for src in unit_inputs[unit]:
            model.edges.append(GraphEdge(src if src in shown else "more", unit))
    _dedupe_edges(model)
    for k, t in enumerate(tensors):
        _add_output(model, k, t, rep, show_shapes, names)
    if model.hidden:
        label = (text(lang, "more", count=f"{model.hidden:,}"),)
        model.nodes.append(GraphNode("more", "more", label, {"count": model.hidden}))
    return model


def _units(ranked, inputs, uses, roots, rank):
    """What is drawn as one box: each autograd node, or the hidden middle of a chain.

    Returns ({unit id: [member nodes]} in creation order, {id(node): unit id}).
    """
    rep = {id(n): f"n{rank[id(n)]}" for n in ranked}
    for k, chain in enumerate(find_chains(ranked, inputs, uses, roots)):
        for node in chain[CHAIN_HEAD:len(chain) - CHAIN_TAIL]:
            rep[id(node)] = f"c{k}"
    units = {}
    for node in ranked:
        units.setdefault(rep[id(node)], []).append(node)
    return units, rep


def _unit_inputs(members, inputs, rep, unit):
    """The units feeding a unit, in next_functions order, without repeats or itself."""
    found = []
    for node in members:
        for child in inputs[id(node)]:
            src = rep[id(child)]
            if src != unit and src not in found:
                found.append(src)
    return found


def _nearest(units, unit_inputs, start, limit):
    """The `limit` units nearest the outputs (breadth first): what a student looks at."""
    shown, queue = set(), deque(dict.fromkeys(start))
    while queue and len(shown) < limit:
        unit = queue.popleft()
        if unit in shown:
            continue
        shown.add(unit)
        queue.extend(u for u in unit_inputs[unit] if u not in shown)
    return shown


def _add_unit(model, unit, members, show_shapes, show_saved, names):
    """The box (and saved-tensor boxes) of one unit."""
    node, lang = members[0], model.lang
    name = short_name(node)
    if unit.startswith("c"):
        label = (text(lang, "collapsed", count=f"{len(members):,}", name=name),)
        model.nodes.append(GraphNode(unit, "collapsed", label,
                                     {"name": name, "count": len(members)}))
    elif hasattr(node, "variable"):
        leaf = node.variable
        details = {"name": name, "shape": tuple(leaf.shape), "dtype": dtype_name(leaf.dtype),
                   "has_grad": leaf.grad is not None}
        label = (names.get(id(leaf), text(lang, "leaf")), shape_text(leaf.shape))
        label += (details["dtype"],) if show_shapes else ()
        model.nodes.append(GraphNode(unit, "leaf", label, details))
    else:
        saved = node.saved_tensors_info()
        # creation order within this graph, not the global _sequence_nr: drawing the
        # same code twice must give the same picture (and notebook outputs that diff cleanly)
        details = {"name": name, "created": int(unit[1:]) + 1,
                   "saved": sum(s is not None and not s.get("wrapped_number") for s in saved)}
        model.nodes.append(GraphNode(unit, "function", (name,), details))
        if show_saved:
            _add_saved(model, unit, saved, show_shapes)


def _add_saved(model, owner, infos, show_shapes):
    """One small box per saved tensor, with its state: freed, packed, or changed in place."""
    lang = model.lang
    for slot, info in enumerate(infos):
        if info is None or info.get("wrapped_number"):   # None, or the 2 of x * 2: not
            continue                                     # something a student saved
        details = dict(info, dtype=dtype_name(info["dtype"]), slot=slot,
                       stale=info["current_version"] != info["version"] and not info["freed"])
        label = [text(lang, "saved_output" if info["is_output"] else "saved")]
        if show_shapes:
            label.append(f"{shape_text(info['shape'])} {details['dtype']}")
        if info["freed"]:
            label.append(text(lang, "freed"))
        if info["packed"]:
            label.append(text(lang, "packed"))
        if details["stale"]:
            label.append(text(lang, "stale", version=info["version"],
                              current=info["current_version"]))
        node_id = f"{owner}.s{slot}"
        model.nodes.append(GraphNode(node_id, "saved", tuple(label), details, owner=owner))
        model.edges.append(GraphEdge(node_id, owner, "saved"))


def _add_output(model, k, tensor, rep, show_shapes, names):
    """The box of the tensor that was asked for, below the node that made it."""
    lang = model.lang
    label = (names.get(id(tensor), text(lang, "output")), shape_text(tensor.shape))
    label += (dtype_name(tensor.dtype),) if show_shapes else ()
    if tensor.grad_fn is None and not tensor.requires_grad:
        label += (text(lang, "no_graph"),)
    details = {"shape": tuple(tensor.shape), "dtype": dtype_name(tensor.dtype),
               "requires_grad": tensor.requires_grad, "is_leaf": tensor.is_leaf}
    model.nodes.append(GraphNode(f"out{k}", "output", label, details))
    if tensor.grad_fn is not None:
        model.edges.append(GraphEdge(rep[id(tensor.grad_fn)], f"out{k}"))


def _dedupe_edges(model):
    """One edge per (src, dst): many hidden inputs of a node make one edge from "more"."""
    seen = set()
    model.edges[:] = [e for e in model.edges
                      if (e.src, e.dst, e.style) not in seen
                      and not seen.add((e.src, e.dst, e.style))]
