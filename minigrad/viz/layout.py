"""A layered layout in pure Python, for drawing without graphviz.

The classic recipe (Sugiyama's), in four short steps:

1. layers: each node's longest path to the output (the output at the bottom,
   each node just above its furthest consumer);
2. long edges get invisible "dummy" points, one per layer they cross, so they
   bend around boxes instead of going through them;
3. order within layers: barycenter sweeps (a node moves towards the mean
   position of its neighbours), keeping the order with the fewest crossings;
4. x positions: each node wants the mean x of its neighbours; an isotonic
   regression (pool adjacent violators) finds the closest positions that keep
   the order and the spacing.

Saved tensors are not layered: they sit in a column to the right of the node
that saved them.  Text is measured for a monospace font (0.6 em per Latin
character, 1 em per Chinese one), so labels are never clipped.
"""
import unicodedata
from collections import deque
from dataclasses import dataclass, field

FONT_SIZE = {"saved": 11, "more": 12}
DEFAULT_FONT = 14
LINE_HEIGHT = 1.3
PAD_X, PAD_Y = 12, 7
H_GAP, V_GAP, MARGIN = 28, 52, 20
SAVED_GAP, SAVED_STACK = 22, 6
DUMMY_WIDTH = 10


@dataclass
class Layout:
    width: float
    height: float
    boxes: dict                       # id -> (x, y, w, h), top-left corner
    routes: list = field(default_factory=list)     # (edge, [(x, y), ...])


def font_size(kind):
    return FONT_SIZE.get(kind, DEFAULT_FONT)


def text_width(line, size):
    """Width of `line` in a monospace font: wide (Chinese) characters take a full em."""
    return sum(size * (1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6) for c in line)


def box_size(node):
    """The box that holds a node's label, with padding."""
    size = font_size(node.kind)
    width = max(text_width(line, size) for line in node.label) + 2 * PAD_X
    height = len(node.label) * size * LINE_HEIGHT + 2 * PAD_Y
    return round(width, 1), round(height, 1)


def layout(model):
    """Positions of every box and the points of every edge of `model`."""
    main = [n for n in model.nodes if n.kind != "saved"]
    sizes = {n.id: box_size(n) for n in model.nodes}
    data = [e for e in model.edges if e.style == "data"]
    layer_of = assign_layers([n.id for n in main], data)
    chains, layers = add_dummies(data, layer_of)
    order_layers(layers, chains)
    saved = {}
    for n in model.nodes:
        if n.kind == "saved":
            saved.setdefault(n.owner, []).append(n.id)
    extents = {i: _extent(i, sizes, saved) for layer in layers for i in layer}
    xs = place_x(layers, chains, extents)
    return _finish(model, layers, chains, xs, sizes, saved)


def assign_layers(ids, edges):
    """Longest path to a sink (the outputs), turned upside down: layer 0 is the top."""
    consumers = {i: 0 for i in ids}
    producers = {i: [] for i in ids}
    for e in edges:
        consumers[e.src] += 1
        producers[e.dst].append(e.src)
    rank = {i: 0 for i in ids}
    queue = deque(i for i in ids if consumers[i] == 0)
    while queue:                      # Kahn's algorithm, from the outputs up
        node = queue.popleft()
        for src in producers[node]:
            rank[src] = max(rank[src], rank[node] + 1)
            consumers[src] -= 1
            if consumers[src] == 0:
                queue.append(src)
    top = max(rank.values(), default=0)
    return {i: top - r for i, r in rank.items()}


def add_dummies(edges, layer_of):
    """Split each edge into one-layer steps; returns the chain of ids per edge and the layers."""
    layers = [[] for _ in range(max(layer_of.values(), default=0) + 1)]
    for node_id, layer in layer_of.items():
        layers[layer].append(node_id)
    chains = []
    for k, e in enumerate(edges):
        chain = [e.src]
        for layer in range(layer_of[e.src] + 1, layer_of[e.dst]):
            dummy = ("dummy", k, layer)
            layers[layer].append(dummy)
            chain.append(dummy)
        chains.append((e, chain + [e.dst]))
    return chains, layers


def _neighbours(chains):
    """For every id: its neighbours in the layer above and in the layer below."""
    up, down = {}, {}
    for _, chain in chains:
        for a, b in zip(chain, chain[1:]):
            down.setdefault(a, []).append(b)
            up.setdefault(b, []).append(a)
    return up, down


def order_layers(layers, chains, sweeps=8):
    """Barycenter ordering, down and up sweeps, keeping the order with fewest crossings."""
    up, down = _neighbours(chains)
    best, best_crossings = [list(layer) for layer in layers], count_crossings(layers, down)
    for sweep in range(sweeps):
        downward = sweep % 2 == 0
        indices = range(1, len(layers)) if downward else range(len(layers) - 2, -1, -1)
        for i in indices:
            ref = layers[i - 1] if downward else layers[i + 1]
            pos = {n: k for k, n in enumerate(ref)}
            links = up if downward else down
            current = {n: k for k, n in enumerate(layers[i])}
            layers[i].sort(key=lambda n: _barycenter(links.get(n, ()), pos, current[n]))
        crossings = count_crossings(layers, down)
        if crossings < best_crossings:
            best, best_crossings = [list(layer) for layer in layers], crossings
    layers[:] = best


def _barycenter(neighbours, pos, fallback):
    found = [pos[n] for n in neighbours if n in pos]
    return sum(found) / len(found) if found else fallback


def count_crossings(layers, down):
    """Pairs of edges that cross between neighbouring layers."""
    total = 0
    for upper, lower in zip(layers, layers[1:]):
        pos = {n: k for k, n in enumerate(lower)}
        ends = [(k, pos[b]) for k, a in enumerate(upper) for b in down.get(a, ()) if b in pos]
        total += sum(1 for i, (a1, b1) in enumerate(ends) for a2, b2 in ends[i + 1:]
                     if (a1 - a2) * (b1 - b2) < 0)
    return total


def _extent(node_id, sizes, saved):
    """How far an item reaches left and right of its centre (saved tensors widen the right)."""
    if isinstance(node_id, tuple):
        return DUMMY_WIDTH / 2, DUMMY_WIDTH / 2
    w = sizes[node_id][0]
    column = max((sizes[s][0] for s in saved.get(node_id, ())), default=0)
    return w / 2, w / 2 + (SAVED_GAP + column if column else 0)


def place_x(layers, chains, extents, sweeps=12):
    """x of every item's centre: near its neighbours, in order, never overlapping."""
    up, down = _neighbours(chains)
    xs = {}
    for layer in layers:                       # start packed from the left
        x = 0.0
        for k, n in enumerate(layer):
            x += (extents[layer[k - 1]][1] + H_GAP + extents[n][0]) if k else extents[n][0]
            xs[n] = x
    for sweep in range(sweeps):
        indices = range(len(layers)) if sweep % 2 == 0 else range(len(layers) - 1, -1, -1)
        for i in indices:
            wanted = [_mean([xs[m] for m in up.get(n, []) + down.get(n, [])], xs[n])
                      for n in layers[i]]
            weights = [4.0 if isinstance(n, tuple) else 1.0 for n in layers[i]]   # straight long edges
            gaps = [extents[a][1] + H_GAP + extents[b][0]
                    for a, b in zip(layers[i], layers[i][1:])]
            for n, x in zip(layers[i], isotonic_spaced(wanted, weights, gaps)):
                xs[n] = x
    return xs


def _mean(values, fallback):
    return sum(values) / len(values) if values else fallback


def isotonic_spaced(wanted, weights, gaps):
    """Closest x (least squares) to `wanted` with x[k+1] - x[k] >= gaps[k].

    Shifting by the running sum of gaps turns this into isotonic regression,
    solved by pool-adjacent-violators: merge neighbouring blocks while out of order.
    """
    offsets = [0.0]
    for g in gaps:
        offsets.append(offsets[-1] + g)
    blocks = []                                # [mean, weight, count]
    for w_, target, off in zip(weights, wanted, offsets):
        blocks.append([target - off, w_, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, c2 = blocks.pop()
            m1, w1, c1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2])
    values = [m for m, _, c in blocks for _ in range(c)]
    return [v + off for v, off in zip(values, offsets)]


def _finish(model, layers, chains, xs, sizes, saved):
    """Turn layers and x centres into boxes and edge points, shifted into the margins."""
    left = min((xs[n] - _extent(n, sizes, saved)[0] for layer in layers for n in layer),
               default=0)
    shift = MARGIN - left
    boxes, band, y = {}, {}, MARGIN
    for i, layer in enumerate(layers):
        height = max((_item_height(n, sizes, saved) for n in layer), default=0)
        band[i] = (y, y + height)
        for n in layer:
            if not isinstance(n, tuple):
                w, h = sizes[n]
                boxes[n] = (xs[n] + shift - w / 2, y + (height - h) / 2, w, h)
                _place_saved(boxes, n, saved.get(n, ()), sizes)
        y += height + V_GAP
    right = max((xs[n] + shift + _extent(n, sizes, saved)[1] for layer in layers for n in layer),
                default=0)      # long edges (dummies) may reach further right than any box
    width = max([right] + [b[0] + b[2] for b in boxes.values()]) + MARGIN
    routes = _data_routes(chains, boxes, xs, shift, band)
    for e in model.edges:
        if e.style == "saved":
            sx, sy, _, sh = boxes[e.src]
            ox, oy, ow, oh = boxes[e.dst]
            routes.append((e, [(sx, sy + sh / 2), (ox + ow, oy + oh / 2)]))
    return Layout(round(width, 1), round(y - V_GAP + MARGIN, 1), boxes, routes)


def _item_height(node_id, sizes, saved):
    if isinstance(node_id, tuple):
        return 0
    column = saved.get(node_id, ())
    stacked = sum(sizes[s][1] for s in column) + SAVED_STACK * max(len(column) - 1, 0)
    return max(sizes[node_id][1], stacked)


def _place_saved(boxes, owner, column, sizes):
    """Saved tensors stacked to the right of their node, centred on it."""
    ox, oy, ow, oh = boxes[owner]
    total = sum(sizes[s][1] for s in column) + SAVED_STACK * max(len(column) - 1, 0)
    y = oy + oh / 2 - total / 2
    for s in column:
        w, h = sizes[s]
        boxes[s] = (ox + ow + SAVED_GAP, y, w, h)
        y += h + SAVED_STACK


def _data_routes(chains, boxes, xs, shift, band):
    """Points of each data edge: out of the bottom of its source, through its dummies,
    into the top of its target.  Several edges at one box get ports spread along it."""
    outs, ins = {}, {}
    for k, (e, chain) in enumerate(chains):
        outs.setdefault(e.src, []).append((xs[chain[1]], k))
        ins.setdefault(e.dst, []).append((xs[chain[-2]], k))
    start = _ports(outs, boxes, bottom=True)
    end = _ports(ins, boxes, bottom=False)
    routes = []
    for k, (e, chain) in enumerate(chains):
        points = [start[k]]
        for dummy in chain[1:-1]:
            top, bottom = band[dummy[2]]       # its slot in that layer, kept free of boxes
            points.append((xs[dummy] + shift, (top + bottom) / 2))
        routes.append((e, points + [end[k]]))
    return routes


def _ports(edges_at, boxes, bottom):
    """Where each edge meets its box: spread along the box's side, in the order of the
    other ends, so that edges into one box do not cross there."""
    ports = {}
    for node_id, ends in edges_at.items():
        x, y, w, h = boxes[node_id]
        ends.sort()
        inset = min(w / 2, 14 * len(ends))      # keep ports near the middle of wide boxes
        for i, (_, k) in enumerate(ends):
            px = x + w / 2 - inset + 2 * inset * (i + 1) / (len(ends) + 1)
            ports[k] = (round(px, 1), round(y + h if bottom else y, 1))
    return ports
