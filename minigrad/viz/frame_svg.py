"""One frame of the animation as SVG: the graph, a caption, and a side panel.

The picture has three parts, all the same size in every frame of a story
(so that frames can be stacked and played):

- a caption strip on top: the phase, "step k of n" and one sentence;
- the graph, at the fixed positions of `Stage` (forward: only the nodes
  created so far).  The current node is yellow with a thick border; in
  backward each node wears a badge with its dependency count (a tick once it
  ran), edges that carried a gradient are blue, the edge carrying one now is
  thick orange with its arrow pointing the way the gradient goes, and leaves
  show their `.grad`;
- a panel on the right: the saved tensors and their state (held, packed,
  unpacked, freed; red with "v0 → v1" when a version check failed, red when
  backward needs one that was already freed), the memory they hold over time
  (the current step in orange; a tensor packed by saved_tensors_hooks counts
  what pack_hook returned: a tensor's or array's nbytes, 0 for a path; the
  current step marked in the colour of the current node), and in backward the
  ready queue with each node's priority (the order it was created in; a leaf's
  AccumulateGrad runs first of all).

The frame is as tall as its content (the graph, or the panel when taller);
the panel is as wide as its longest row, measured with `layout.text_width`
(a Chinese character counts one em), so no text overlaps or leaves its box.

Each part is drawn as a list of *pieces*, `(key, svg)`: a box, an edge, a row
of the panel.  A frame's picture is its pieces in key order; `timeline.py`
merges the pieces of all frames (a box that looks the same in twenty frames
is one piece shown in those twenty), which is how the player and the
animated SVG draw the graph once and only change what changes.

DOM contract (the browser tests rely on it): the root is
`<svg class="minigrad-frame" data-step=".." data-phase="forward|backward">`,
each node a `<g class="mg-node" data-node="{id}" data-name="{Name}">`, the
current one with the extra class `mg-current`.
"""
import re
from xml.sax.saxutils import escape

from .draw import COLORS, FONT_FAMILY, RED, SAVED_STATES, smooth_path
from .layout import LINE_HEIGHT, PAD_Y, font_size, text_width
from .settings import text
from .stage import LEAF_PRIORITY, format_bytes

CAPTION_SIZE, SMALL, ROW = 15, 12, 18
MARGIN, PANEL_MIN, PANEL_PAD = 16, 300, 12
ROW_INSET, ROW_GAP = 6, 14         # text inside a saved-tensor row; space between its texts
NOTE = 11                          # the memory chart's footnote
MAX_ROWS = 10                      # rows of a panel list before "… n more"
SPARK_H = 44
CURRENT = ("#fff1b8", "#d99a00", "#1a1a1a")
DONE_FILL = "#e9f5e4"
GRAD_BLUE, FLOW_ORANGE, EDGE_GREY = "#1f77b4", "#ff7f0e", "#606060"
MEMORY_GREY = "#9aa5b1"            # the memory chart: no colour of the graph's legend
STATE_COLORS = {
    "saved": COLORS["saved"], "packed": SAVED_STATES["packed"],
    "unpacked": ("#dcefff", "#2b7bb9", "#0b3c5d"),
    "freed": SAVED_STATES["freed"], "stale": SAVED_STATES["stale"],
    "freed_access": SAVED_STATES["stale"],
}
TOKENS = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]|[^\s\u2e80-\u9fff\uff00-\uffef]+\s*|\s+")


def wrap(line, size, width):
    """Greedy line breaking, between words or between Chinese characters."""
    lines, current = [], ""
    for token in TOKENS.findall(line):
        if current and text_width(current + token.rstrip(), size) > width:
            lines.append(current.rstrip())
            current = token.lstrip()
        else:
            current += token
    return lines + [current.rstrip()] if current.strip() else lines or [""]


def _text(x, y, content, size=SMALL, fill="#1a1a1a", anchor="start", bold=False):
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
            f'text-anchor="{anchor}"{weight}>{escape(content)}</text>')


class FrameDrawer:
    """Draws the frames of one story, all with the same size and positions."""

    def __init__(self, stage, story):
        self.stage, self.story, self.lang = stage, story, stage.lang
        placed = stage.placed
        self.memory = [f.memory_bytes for f in story]
        self.names = stage.trace.names
        # sequence numbers count every node ever made; the panel shows the creation
        # order within this trace instead (same order, and the same picture every run)
        numbers = sorted({e["sequence_nr"] for e in stage.trace.of_kind("node_created",
                                                                         "node_found")})
        self.created_rank = {seq: k + 1 for k, seq in enumerate(numbers)}
        self.has_backward = any(f.phase == "backward" for f in story)
        self.panel_w = max(PANEL_MIN, round(self._panel_content_width() + 2 * PANEL_PAD))
        self.width = round(max(placed.width + self.panel_w, 560), 1)
        self.caption_lines = {id(f): wrap(f.caption, CAPTION_SIZE, self.width - 2 * MARGIN)
                              for f in story}
        lines = max((len(v) for v in self.caption_lines.values()), default=1)
        self.header = MARGIN + SMALL * 1.4 + lines * CAPTION_SIZE * 1.35 + 8
        self.note = (wrap(text(self.lang, "memory_packed"), NOTE, self.panel_w - 2 * PANEL_PAD)
                     if stage.packed_bytes else [])
        self.saved_rows = min(len(stage.saved), MAX_ROWS + 1) or 1
        self.ready_rows = min(max([len(f.ready) for f in story] + [1]), MAX_ROWS + 1)
        # the panel's blocks, top to bottom (baselines), the same in every frame
        self.spark_y = ROW + (self.saved_rows + 2) * ROW
        self.ready_y = self.spark_y + SPARK_H + 3 * ROW + len(self.note) * NOTE * 1.3
        self.legend_y = self.ready_y + ((self.ready_rows + 2) * ROW if self.has_backward else 0)
        self.panel_h = self.legend_y + 2 * ROW + 10
        self.height = round(self.header + max(placed.height, self.panel_h), 1)

    def _panel_content_width(self):
        """The widest line of the panel, measured (Chinese characters one em each)."""
        def words(key, **values):
            return text(self.lang, key, **values)
        states = [words("state_" + s) for s in STATE_COLORS if s != "stale"]
        states.append(words("stale", version=99, current=99).split("：")[-1].split(": ")[-1])
        status = max(text_width(s, SMALL) for s in states)
        widths = [text_width(self._saved_row(key), SMALL) + ROW_GAP + status + 2 * ROW_INSET
                  for key in self.stage.saved]
        widths += [text_width(words(k), 13) for k in ("panel_saved", "panel_memory",
                                                       "panel_ready")]
        peak = format_bytes(max(self.memory + [0]))
        widths.append(text_width(words("memory_now", now=peak, peak=peak), SMALL))
        last = max(words("priority", p=max(len(self.created_rank), 1)),
                   words("priority_leaf"), key=lambda said: text_width(said, SMALL))
        widths += [text_width(f"{MAX_ROWS}. {self.names.get(node, '?')}", SMALL) + ROW_GAP
                   + text_width(last, SMALL) for node in self.stage.functions]
        widths += [34 + text_width(words("legend_" + k), SMALL)
                   for k in ("current_forward", "current_backward", "flowing", "carried")]
        return max(widths)

    # --- the whole frame --------------------------------------------------------

    def root(self, frame, body):
        return (f'<svg class="minigrad-frame" data-step="{frame.step}" '
                f'data-phase="{frame.phase}" xmlns="http://www.w3.org/2000/svg" '
                f'width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}" font-family="{FONT_FAMILY}">\n'
                + self.defs() + body + "</svg>\n")

    def svg(self, frame):
        """The whole frame: caption on top, the graph below it, the panel on the right."""
        return self.root(frame, self.assemble(*(
            [svg for _, svg in pieces] for pieces in (self.caption(frame), self.graph(frame),
                                                      self.panel(frame)))))

    def assemble(self, caption, graph, panel):
        """The three parts' SVG (lists of pieces) placed in one frame."""
        return "\n".join(
            [f'<rect width="{self.width}" height="{self.height}" fill="white"/>',
             '<g class="mg-caption">', *caption, "</g>",
             f'<g class="mg-graph" transform="translate(0,{self.header:.1f})">', *graph, "</g>",
             f'<g class="mg-panel" transform="translate({self.width - self.panel_w:.1f},'
             f'{self.header:.1f})">',
             *panel, "</g>"]) + "\n"

    @staticmethod
    def defs():
        """Arrowheads: grey data edges, blue and orange gradients."""
        marks = []
        for name, colour in (("data", EDGE_GREY), ("grad", GRAD_BLUE), ("flow", FLOW_ORANGE)):
            marks.append(f'<marker id="mgf-{name}" viewBox="0 0 10 10" refX="10" refY="5" '
                         'markerWidth="6" markerHeight="6" orient="auto-start-reverse">'
                         f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')
        return "<defs>" + "".join(marks) + "</defs>\n"

    def caption(self, frame):
        """The caption strip as pieces: its background, "phase · step k of n", the sentence."""
        phase = text(self.lang, "phase_" + frame.phase)
        where = text(self.lang, "step_of", k=frame.step + 1, n=len(self.story))
        colour = FLOW_ORANGE if frame.phase == "backward" else GRAD_BLUE
        failed = frame.failed
        out = [((0,), f'<rect x="0" y="0" width="{self.width}" height="{self.header - 6:.1f}" '
                      f'fill="{"#fdecea" if failed else "#f7f7f7"}"/>'),
               ((1,), _text(MARGIN, MARGIN + 4, f"{phase} · {where}", SMALL, colour, bold=True))]
        y = MARGIN + SMALL * 1.4 + CAPTION_SIZE
        for k, line in enumerate(self.caption_lines[id(frame)]):
            out.append(((2, k), _text(MARGIN, y, line, CAPTION_SIZE,
                                      RED if failed else "#1a1a1a")))
            y += CAPTION_SIZE * 1.35
        return out

    def focus(self, frame):
        """The centre of what this frame is about, or None: the current node with its saved
        tensors the frame shows (a window that follows it keeps them in view)."""
        if frame.current is not None and str(frame.current) in self.stage.placed.boxes:
            own = [f"{node}.s{slot}" for node, slot in frame.saved_states if node == frame.current]
            return self.stage.centre([frame.current, *own])

    # --- the graph ----------------------------------------------------------------

    def graph(self, frame):
        """The graph as pieces: the edges, then the boxes on top of them."""
        stage, shown = self.stage, {str(n) for n in frame.nodes_shown}
        shown |= {out for out, root in stage.outputs.items() if str(root) in shown} - frame.hidden
        shown |= {f"{n}.s{s}" for n, s in frame.saved_states}
        carried = {(str(b), str(a)) for a, b in frame.grad_edges}
        flowing = {(str(b), str(a)) for a, b in frame.flowing}
        out = []
        for k, (edge, points) in enumerate(stage.placed.routes):
            if edge.src in shown and edge.dst in shown and edge.dst not in frame.unconnected:
                out.append(((0, k), self.edge(edge, points, carried, flowing)))
        for k, node in enumerate(stage.model.nodes):
            if node.id in shown:
                out.append(((1, k), self.box(frame, node)))
        return out

    def edge(self, edge, points, carried, flowing):
        if edge.style == "saved":
            (x0, y0), (x1, y1) = points
            return (f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                    'stroke="#b07a2a" stroke-width="1.2" stroke-dasharray="4,3"/>')
        key = (edge.src, edge.dst)
        if key in flowing:
            look = f'stroke="{FLOW_ORANGE}" stroke-width="4" marker-start="url(#mgf-flow)"'
            css = "mg-edge mg-flowing"
        elif key in carried:
            look = f'stroke="{GRAD_BLUE}" stroke-width="2.2" marker-start="url(#mgf-grad)"'
            css = "mg-edge mg-carried"
        else:
            look = f'stroke="{EDGE_GREY}" stroke-width="1.3" marker-end="url(#mgf-data)"'
            css = "mg-edge"
        return (f'<path class="{css}" data-src="{edge.src}" data-dst="{edge.dst}" '
                f'd="{smooth_path(points)}" fill="none" {look}/>')

    def box(self, frame, node):
        """A node, leaf, saved tensor or output box, coloured by its state now."""
        x, y, w, h = self.stage.box(node.id)
        lines, (fill, border, ink), width = node.label, COLORS[node.kind], 1.3
        attrs, state = f'class="mg-{node.kind}"', None
        if node.kind in ("function", "leaf"):
            ident = int(node.id)
            current = frame.current == ident
            attrs = (f'class="mg-node{" mg-current" if current else ""}" data-node="{ident}" '
                     f'data-name="{escape(self.names.get(ident, "?"))}"')
            if node.kind == "leaf":
                lines = self.stage.leaf_lines(ident, self._leaf_grad(frame, ident))
                if lines[-1] != text(self.lang, "grad_is", grad="None"):
                    fill = "#bfe3b4"
            if ident in frame.done and node.kind == "function":
                fill = DONE_FILL
            if current:
                fill, border, ink, width = CURRENT[0], CURRENT[1], CURRENT[2], 3.2
        elif node.kind == "saved":
            key = (int(node.owner), int(node.id.rsplit(".s", 1)[1]))
            state = self._state(frame, key)
            lines = self.stage.saved_lines(key, state, frame.stale.get(key))
            fill, border, ink = STATE_COLORS[state]
            attrs += f' data-saved="{key[0]}.{key[1]}" data-state="{state}"'
            if state in ("stale", "freed_access"):
                width = 2.5
        dash = ' stroke-dasharray="5,3"' if state == "freed" else ""
        size = font_size(node.kind)
        parts = [f"<g {attrs}>",
                 f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="6" '
                 f'fill="{fill}" stroke="{border}" stroke-width="{width}"{dash}/>']
        for k, line in enumerate(lines):
            baseline = y + PAD_Y + size * LINE_HEIGHT * k + size
            parts.append(_text(x + w / 2, baseline, line, size, ink, "middle", bold=k == 0))
        if frame.phase == "backward" and node.kind == "function":
            parts.append(self.badge(frame, int(node.id), x + w, y))
        parts.append("</g>")
        return "".join(parts)

    @staticmethod
    def _state(frame, key):
        """A saved tensor's state in this frame; a failure of this step wins."""
        if key == frame.freed_access:
            return "freed_access"
        return "stale" if key in frame.stale else frame.saved_states[key]

    def _leaf_grad(self, frame, node):
        described = self.stage.leaves.get(node)
        return frame.leaf_grads.get(described["id"]) if described else None

    @staticmethod
    def badge(frame, node, x, y):
        """The dependency count at a node's corner; a tick once the node ran."""
        if node in frame.done:
            label, fill = "✓", "#4f9a3a"
        elif node in frame.dependencies:
            count = frame.dependencies[node]
            label, fill = str(count), "#3f7fbf" if count else "#2ca02c"
        else:
            return ""
        return (f'<g class="mg-badge"><circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="{fill}" '
                'stroke="white" stroke-width="1.5"/>'
                + _text(x, y + 4, label, 11, "white", "middle", bold=True) + "</g>")

    # --- the side panel ---------------------------------------------------------

    def _saved_row(self, key):
        event = self.stage.saved[key]
        name = self.names.get(key[0], "?")
        tensor = self.stage.names.get(event["tensor"]["id"])        # "x", when named
        return f"{name}[{key[1]}]{' ' + tensor if tensor else ''} {self.stage.held_bytes(key)} B"

    def panel(self, frame):
        """The panel as pieces: saved tensors, the memory chart, the ready queue, a legend."""
        lang, x, y = self.lang, PANEL_PAD, ROW
        right = self.panel_w - PANEL_PAD
        out = [((0, 0), f'<line x1="0" y1="0" x2="0" y2="{self.panel_h:.1f}" '
                        'stroke="#dddddd"/>'),
               ((0, 1), _text(x, y, text(lang, "panel_saved"), 13, bold=True))]
        keys = [k for k in self.stage.saved if k in frame.saved_states]
        for row, key in enumerate(keys[:MAX_ROWS]):
            y += ROW
            state = self._state(frame, key)
            fill, border, ink = STATE_COLORS[state]
            word = text(lang, "state_" + state) if state != "stale" else text(
                lang, "stale", version=frame.stale[key][0], current=frame.stale[key][1])
            word = word if state != "stale" else word.split("：")[-1].split(": ")[-1]
            out.append(((1, row), "".join((
                f'<g class="mg-saved-row" data-saved="{key[0]}.{key[1]}" '
                f'data-state="{state}">',
                f'<rect x="{x}" y="{y - 13}" width="{right - x}" height="{ROW - 2}"'
                f' rx="4" fill="{fill}" stroke="{border}"/>',
                _text(x + ROW_INSET, y, self._saved_row(key), SMALL, ink),
                _text(right - ROW_INSET, y, word, SMALL, ink, "end",
                      bold=state in ("stale", "freed_access")),
                "</g>"))))
        if len(keys) > MAX_ROWS:
            out.append(((1, MAX_ROWS), _text(x, y + ROW, f"… +{len(keys) - MAX_ROWS}", SMALL,
                                             "#555555")))
        if not keys:
            out.append(((1, 0), _text(x, y + ROW, text(lang, "empty"), SMALL, "#777777")))
        out += self.sparkline(frame, x, self.spark_y, right)
        if frame.phase == "backward":          # (its place stays reserved in forward)
            out += self.ready_queue(frame, x, self.ready_y, right)
        out += self.legend(x, self.legend_y, frame.phase)
        return out

    def sparkline(self, frame, x, y, right):
        """Memory held by saved tensors at every step, drawn once (grey), the current step
        in the colour of the current node, the steps still to come faded."""
        out = [((2, 0), _text(x, y, text(self.lang, "panel_memory"), 13, bold=True))]
        peak, count = max(self.memory + [1]), len(self.memory)
        step = (right - x) / max(count, 1)
        base = y + 10 + SPARK_H
        bars = "".join(f'<rect x="{x + k * step:.1f}" y="{base - h:.1f}" '
                       f'width="{max(step - 1, 0.6):.1f}" height="{h:.1f}"/>'
                       for k, h in enumerate(max(SPARK_H * v / peak, 1) for v in self.memory))
        out.append(((2, 1), f'<g class="mg-memory" fill="{MEMORY_GREY}">{bars}</g>'))
        now = max(SPARK_H * frame.memory_bytes / peak, 1)
        left = x + frame.step * step
        out.append(((2, 2), f'<rect class="mg-memory-now" x="{left:.1f}" y="{base - now:.1f}" '
                            f'width="{max(step - 1, 1.5):.1f}" height="{now:.1f}" '
                            f'fill="{CURRENT[1]}"/>'))
        if frame.step + 1 < count:
            out.append(((2, 3), f'<rect x="{left + step:.1f}" y="{base - SPARK_H:.1f}" '
                                f'width="{right - left - step:.1f}" height="{SPARK_H}" '
                                'fill="white" fill-opacity="0.65"/>'))
        said = text(self.lang, "memory_now", now=format_bytes(frame.memory_bytes),
                    peak=format_bytes(max(self.memory[:frame.step + 1] + [0])))  # so far
        out.append(((2, 4), _text(x, base + ROW, said, SMALL, "#333333")))
        for k, line in enumerate(self.note):      # only when some tensor was packed
            out.append(((2, 5 + k), _text(x, base + ROW + (k + 1) * NOTE * 1.3, line, NOTE,
                                          "#555555")))
        return out

    def ready_queue(self, frame, x, y, right):
        out = [((3, 0), _text(x, y, text(self.lang, "panel_ready"), 13, bold=True))]
        for rank, (node, priority) in enumerate(frame.ready[:MAX_ROWS]):
            y += ROW
            name = self.names.get(node, "?")
            colour = FLOW_ORANGE if rank == 0 else "#1a1a1a"
            out.append(((3, 1 + rank), f'<g class="mg-ready" data-node="{node}">'
                        + _text(x, y, f"{rank + 1}. {name}", SMALL, colour, bold=rank == 0)
                        + _text(right, y, self._priority(priority), SMALL, colour, "end")
                        + "</g>"))
        if not frame.ready:
            out.append(((3, 1), _text(x, y + ROW, text(self.lang, "empty"), SMALL, "#777777")))
        return out

    def _priority(self, sequence_nr):
        """"created #3" (the creation order within this trace); a leaf's AccumulateGrad
        has the highest priority of all (PyTorch: UINT64_MAX), which runs it first."""
        if sequence_nr == LEAF_PRIORITY:
            return text(self.lang, "priority_leaf")
        return text(self.lang, "priority", p=self.created_rank.get(sequence_nr, sequence_nr))

    def legend(self, x, y, phase):
        """What the colours mean; the yellow box is "just created" in forward."""
        out = []
        for k, (key, colour, stroke) in enumerate((("legend_current_" + phase, CURRENT[1], 0),
                                                   ("legend_flowing", FLOW_ORANGE, 4),
                                                   ("legend_carried", GRAD_BLUE, 2.2))):
            row = y + k * ROW
            if stroke:
                mark = (f'<line x1="{x}" y1="{row - 4}" x2="{x + 26}" y2="{row - 4}" '
                        f'stroke="{colour}" stroke-width="{stroke}"/>')
            else:
                mark = (f'<rect x="{x}" y="{row - 11}" width="26" height="12" rx="3" '
                        f'fill="{CURRENT[0]}" stroke="{colour}" stroke-width="2"/>')
            out.append(((4, k), mark + _text(x + 34, row, text(self.lang, key), SMALL,
                                             "#333333")))
        return out
