"""Two renderers of a `GraphModel` to SVG: graphviz's `dot`, and pure Python.

`dot` draws the nicest pictures but is a system package (apt-get install
graphviz); pip-only installs and JupyterLite do not have it.  So the same
model can also be laid out by `layout.py` and written as SVG here, with no
dependency at all: a missing binary changes how the picture is drawn, never
whether the lesson runs.  Both renderers use the colours below (torchviz's
scheme: leaves light blue, the output green, saved tensors orange).
"""
import hashlib
import re
import shutil
import subprocess
from xml.sax.saxutils import escape

from .layout import LINE_HEIGHT, PAD_Y, font_size, layout, text_width

DOT_TIMEOUT = 20      # seconds; a lesson must not hang on a stuck subprocess
BIG_GRAPH = 60        # boxes; above this dot's network simplex gets an iteration limit
DOT_MARGIN = 0.12     # inches left and right of a label (the node's margin below)
CELL_PADDING = 4      # points around a saved tensor's label in its table cell
RED = "#d62728"
FONT_FAMILY = "DejaVu Sans Mono, Menlo, Consolas, 'Noto Sans Mono CJK SC', monospace"

# kind -> (fill, border, text)
COLORS = {
    "leaf": ("#cfe6fb", "#3f7fbf", "#102a43"),
    "function": ("#f2f2f2", "#707070", "#1a1a1a"),
    "output": ("#cdeec3", "#4f9a3a", "#16330f"),
    "saved": ("#ffe4bf", "#d9952b", "#4a2f05"),
    "collapsed": ("#e6e6e6", "#707070", "#1a1a1a"),
    "more": ("#ffffff", "#9a9a9a", "#555555"),
}
SAVED_STATES = {      # a saved tensor's state changes its colours
    "stale": ("#fde2e1", RED, RED),
    "freed": ("#eeeeee", "#a0a0a0", "#808080"),
    "packed": ("#eadff7", "#8a63c2", "#2e1a4d"),
}
DASHED = {"collapsed", "more"}      # borders that say "this box stands for several"


def colors(node):
    """Fill, border and text colour of a node; a saved tensor's state wins over its kind."""
    if node.kind == "saved":
        for state in ("stale", "freed", "packed"):
            if node.details.get(state):
                return SAVED_STATES[state]
    return COLORS[node.kind]


def dashed(node):
    return node.kind in DASHED or (node.kind == "saved" and node.details.get("freed"))


def tooltip(node):
    """What hovering a box shows: the model's details, without the flags that are off."""
    return "\n".join(f"{key}: {value}" for key, value in node.details.items()
                     if value is not False)


def find_dot():
    """The path of graphviz's `dot`, or None."""
    return shutil.which("dot")


def run_dot(source, fmt="svg"):
    """Run `dot -T<fmt>` on `source`; returns bytes, raises RuntimeError if dot fails."""
    dot = find_dot()
    if dot is None:
        raise RuntimeError(MISSING_DOT)
    try:
        done = subprocess.run([dot, f"-T{fmt}"], input=source.encode("utf-8"),
                              capture_output=True, timeout=DOT_TIMEOUT, check=False)
    except subprocess.TimeoutExpired as error:
        raise RuntimeError(f"graphviz's dot took more than {DOT_TIMEOUT} s") from error
    if done.returncode != 0:
        raise RuntimeError("graphviz's dot failed: " + done.stderr.decode("utf-8", "replace"))
    return done.stdout


MISSING_DOT = (
    "engine='dot' needs graphviz's `dot` program, which was not found on PATH. Install it "
    "with `apt-get install graphviz` (Debian/Ubuntu), `brew install graphviz` (macOS) or "
    "`conda install graphviz`, or draw with engine='python', which needs nothing else "
    "(engine='auto' picks it by itself when dot is missing).")


# --- graphviz ---------------------------------------------------------------

def dot_source(model):
    """The model in graphviz's DOT language.

    A node's saved tensors become one table beside it (same rank, a dashed
    edge), one rounded cell per tensor: separate nodes would be placed by dot
    in any order, and their dashed edges would arc over each other.
    """
    # A leaf used at every step of a long loop makes dot's network simplex run for
    # minutes; nslimit caps its iterations (placement gets a little less tidy).
    limit = ", nslimit=2, nslimit1=2" if len(model.nodes) > BIG_GRAPH else ""
    lines = [
        "digraph minigrad {",
        f'  graph [rankdir=TB, nodesep=0.3, ranksep=0.45, bgcolor="white", pad=0.2{limit}];',
        '  node [shape=box, style="filled,rounded", fontname="DejaVu Sans Mono", '
        f"fontsize=12, height=0.3, margin=\"{DOT_MARGIN},0.05\"];",
        '  edge [color="#606060", arrowsize=0.7];',
    ]
    saved = {}
    for node in model.nodes:
        if node.kind == "saved":
            saved.setdefault(node.owner, []).append(node)
        else:
            lines.append(f"  {_dot_id(node.id)} [{_dot_node_attrs(node)}];")
    for edge in model.edges:
        if edge.style == "data":
            lines.append(f"  {_dot_id(edge.src)} -> {_dot_id(edge.dst)};")
    for owner, nodes in saved.items():
        table = _dot_id(owner + ".saved")
        tip = _attr("\n\n".join(tooltip(n) for n in nodes))
        lines.append(f'  {table} [shape=plain, style="", tooltip="{tip}", '
                     f"label=<{_dot_saved_table(nodes)}>];")
        lines.append(f'  {_dot_id(owner)} -> {table} [style=dashed, dir=none, color="#b07a2a"];')
        lines.append(f"  {{rank=same; {_dot_id(owner)}; {table};}}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_saved_table(nodes):
    """An HTML table with one rounded, coloured cell per saved tensor."""
    rows = []
    for node in nodes:
        fill, border, ink = colors(node)
        text = f"<B>{escape(node.label[0])}</B>" + "".join(
            f"<BR/>{escape(line)}" for line in node.label[1:])
        style = "rounded,dashed" if dashed(node) else "rounded"
        width = round(label_width(node) + 2 * CELL_PADDING + 4)
        rows.append(f'<TR><TD BGCOLOR="{fill}" COLOR="{border}" BORDER="1" STYLE="{style}" '
                    f'CELLPADDING="{CELL_PADDING}" WIDTH="{width}">'
                    f'<FONT COLOR="{ink}" POINT-SIZE="{font_size(node.kind)}">{text}'
                    "</FONT></TD></TR>")
    return '<TABLE BORDER="0" CELLSPACING="3">' + "".join(rows) + "</TABLE>"


def label_width(node):
    """The width of a node's label in points, a Chinese character one em wide.

    graphviz measures text with the fonts it finds; without a CJK font, or with a
    Latin one's metrics, it makes "已保存（输出）" narrower than a browser draws it.
    So each box gets this as its minimum width (`width`, `WIDTH`): never narrower
    than what minigrad's own layout would give it.
    """
    return max(text_width(line, font_size(node.kind)) for line in node.label)


def _attr(value):
    """Text for a double-quoted attribute: XML-escaped, newlines kept."""
    return escape(value, {'"': "&quot;"}).replace("\n", "&#10;")


def _dot_id(node_id):
    return '"' + node_id.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _dot_node_attrs(node):
    """Colours, an HTML label (first line bold) and a tooltip, all XML-escaped."""
    fill, border, ink = colors(node)
    size = font_size(node.kind)
    first, rest = node.label[0], node.label[1:]
    html = f"<B>{escape(first)}</B>" + "".join(f"<BR/>{escape(line)}" for line in rest)
    style = "filled,rounded,dashed" if dashed(node) else "filled,rounded"
    tip = _attr(tooltip(node))
    width = (label_width(node) + 4) / 72 + 2 * DOT_MARGIN        # inches
    return (f'label=<{html}>, fillcolor="{fill}", color="{border}", fontcolor="{ink}", '
            f'fontsize={size}, width={width:.2f}, style="{style}", tooltip="{tip}"')


def dot_svg(model):
    """SVG drawn by graphviz, without the XML prologue (it is embedded in notebooks)."""
    svg = run_dot(dot_source(model)).decode("utf-8")
    return center_labels(svg[svg.index("<svg"):])


NODE_GROUP = re.compile(r'<g id="node\d+" class="node">.*?(?=<!--|</svg>|<g id="(?:node|edge)\d+")',
                        re.S)          # a node's group: up to the next comment, node or edge
COORDINATE = re.compile(r"(-?\d+\.?\d*),-?\d+\.?\d*")


def center_labels(svg):
    """Centre every line of a node's label on its box.

    graphviz writes an HTML label's lines with text-anchor="start", at a left
    edge computed from its own text width; where that width is too small (a
    Chinese line measured with a Latin font) the text runs out of the box on
    the right, however wide the box.  Anchored at the box's centre instead, a
    line fits whenever the box is as wide as the line (see `label_width`).
    """
    def centre(match):
        group = match.group(0)
        shapes = re.findall(r'<(?:path|polygon)[^>]* (?:d|points)="([^"]+)"', group)
        xs = [float(x) for shape in shapes for x in COORDINATE.findall(shape)]
        if not xs:
            return group
        middle = (min(xs) + max(xs)) / 2
        return re.sub(r'text-anchor="start" x="-?[\d.]+"',
                      f'text-anchor="middle" x="{middle:.2f}"', group)
    return NODE_GROUP.sub(centre, svg)


# --- pure Python ------------------------------------------------------------

def python_svg(model):
    """SVG from the pure-Python layered layout: boxes, curved edges, arrowheads."""
    placed = layout(model)
    marker = "mg-arrow-" + hashlib.sha1(dot_source(model).encode("utf-8")).hexdigest()[:10]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{placed.width}" '
        f'height="{placed.height}" viewBox="0 0 {placed.width} {placed.height}" '
        f'font-family="{FONT_FAMILY}">',
        f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="10" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#606060"/></marker></defs>',
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    for edge, points in placed.routes:
        out.append(_svg_edge(edge, points, marker))
    for node in model.nodes:
        out.append(_svg_node(node, placed.boxes[node.id]))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _svg_edge(edge, points, marker):
    """A data edge as a smooth curve; a saved edge as a dashed line."""
    if edge.style == "saved":
        (x0, y0), (x1, y1) = points
        return (f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                'stroke="#b07a2a" stroke-width="1.2" stroke-dasharray="4,3"/>')
    return (f'<path d="{smooth_path(points)}" fill="none" stroke="#606060" '
            f'stroke-width="1.3" marker-end="url(#{marker})"/>')


def smooth_path(points):
    """A Catmull-Rom curve through `points`, as cubic Beziers, leaving its source and
    entering its target vertically (so the arrowhead points into the box)."""
    ext = [points[0]] + list(points) + [points[-1]]
    path = [f"M{points[0][0]:.1f},{points[0][1]:.1f}"]
    for i in range(1, len(ext) - 2):
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = ext[i - 1:i + 3]
        c1 = (bx + (cx - ax) / 6, by + (cy - ay) / 6)
        c2 = (cx - (dx - bx) / 6, cy - (dy - by) / 6)
        if i == 1:                   # leave the source straight down
            c1 = (bx, by + (cy - by) / 2)
        if i == len(ext) - 3:        # and enter the target straight down
            c2 = (cx, cy - (cy - by) / 2)
        path.append(f"C{c1[0]:.1f},{c1[1]:.1f} {c2[0]:.1f},{c2[1]:.1f} {cx:.1f},{cy:.1f}")
    return " ".join(path)


def _svg_node(node, box):
    """A rounded box with its label lines centred, the first in bold, and a tooltip."""
    x, y, w, h = box
    fill, border, ink = colors(node)
    size = font_size(node.kind)
    dash = ' stroke-dasharray="5,3"' if dashed(node) else ""
    radius = 8 if node.kind == "saved" else 5
    parts = [f'<g class="mg-node mg-{node.kind}"><title>{escape(tooltip(node))}</title>',
             f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{radius}" '
             f'fill="{fill}" stroke="{border}" stroke-width="1.3"{dash}/>']
    for k, line in enumerate(node.label):
        baseline = y + PAD_Y + size * LINE_HEIGHT * k + size * 1.0
        weight = ' font-weight="bold"' if k == 0 and node.kind != "more" else ""
        parts.append(f'<text x="{x + w / 2:.1f}" y="{baseline:.1f}" font-size="{size}" '
                     f'text-anchor="middle" fill="{ink}"{weight}>{escape(line)}</text>')
    parts.append("</g>")
    return "".join(parts)
