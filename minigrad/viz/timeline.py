"""A story drawn once: every distinct piece of its frames, with the steps it shows in.

A frame is drawn as pieces (`frame_svg.py`): a box, an edge, a row of the
panel.  Most pieces look the same for many steps: a box stays grey until its
node runs, a saved tensor stays "held" until backward frees it.  So instead of
one whole picture per step, `timeline(story, part)` keeps each distinct piece
once, with the spans of steps it is shown in.  The player and the animated SVG
hold these pieces and show, at step k, those whose spans contain k: the size
grows with the graph and with what changes, not with steps × graph (a 30-layer
MLP's 305 steps: see benchmarks/animation_size.py).

Both show a piece by its *span class* (one per distinct set of spans, `s0`,
`s1` ...): the player's CSS computes from the step `--k` whether it is inside
one of the spans (`stepped_css`), the animated SVG turns each class into
keyframes (`keyframes_css`).  `frame.svg` stays one frame's own pieces.

Example::

    >>> import minigrad as torch
    >>> import minigrad.viz as viz
    >>> from minigrad.viz.timeline import timeline
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> with viz.record() as trace:
    ...     x.exp().sum().backward()
    >>> story = viz.frames(trace)
    >>> pieces = timeline(story, "graph")
    >>> sum(len(p.steps) for p in pieces) < len(story) * max(len(story[-1]._drawer.graph(f))
    ...                                                     for f in story)
    True
"""
from dataclasses import dataclass

PARTS = ("caption", "graph", "panel")       # the frame; "source" is the listing beside it


@dataclass
class Piece:
    """One piece of SVG and the steps it shows in, as spans [(first, last)]."""
    key: tuple
    svg: str
    spans: tuple

    @property
    def steps(self):
        return [k for first, last in self.spans for k in range(first, last + 1)]


def spans(steps):
    """Consecutive steps joined: [2, 3, 4, 9] -> ((2, 4), (9, 9))."""
    joined = []
    for step in steps:
        if joined and joined[-1][1] == step - 1:
            joined[-1][1] = step
        else:
            joined.append([step, step])
    return tuple(tuple(span) for span in joined)


def timeline(story, part):
    """The distinct pieces of `part` ("caption", "graph", "panel" or "source") over all
    frames, in drawing order (a box over its edges), each with the steps it shows in."""
    drawer = story[0]._drawer
    draw = {"caption": drawer.caption, "graph": drawer.graph, "panel": drawer.panel,
            "source": story[0]._listing.pieces}[part]
    shown = {}
    for frame in story:
        for key, svg in draw(frame):
            shown.setdefault((key, svg), []).append(frame.step)
    pieces = [Piece(key, svg, spans(steps)) for (key, svg), steps in shown.items()]
    pieces.sort(key=lambda piece: (piece.key, piece.spans))
    return pieces


class SpanClasses:
    """A short class name for each distinct set of spans; pieces shown at every step
    get none (they need no rule)."""

    def __init__(self, count):
        self.count, self.names = count, {}

    def of(self, piece):
        if piece.spans == ((0, self.count - 1),):
            return None
        return self.names.setdefault(piece.spans, f"s{len(self.names)}")

    def wrap(self, pieces):
        """The pieces' SVG, each in a group of its span class."""
        out = []
        for piece in pieces:
            name = self.of(piece)
            out.append(piece.svg if name is None
                       else f'<g class="mg-t {name}">{piece.svg}</g>')
        return "\n".join(out)

    def stepped_css(self, scope):
        """Rules that show a piece while the step `--k` (set on `scope`) is in its spans.

        In one of its spans, min(k - first, last - k) >= 0 for that span, so the
        opacity, 1 + the largest of these, is at least 1 (clamped to 1); outside all
        of them each is <= -1, and the opacity 0."""
        rules = []
        for span_set, name in self.names.items():
            inside = [f"min(var(--k, 0) - {first}, {last} - var(--k, 0))"
                      for first, last in span_set]
            most = inside[0] if len(inside) == 1 else f"max({', '.join(inside)})"
            rules.append(f"{scope} .{name}{{opacity:clamp(0, calc(1 + {most}), 1)}}")
        return "\n".join(rules)

    def keyframes_css(self, seconds_per_frame, total):
        """Keyframes that show each span class during its steps of a loop `total` s long
        (step k starts k * seconds_per_frame into the loop; the last one lasts to its end).
        Without CSS animations a piece of the last step stays visible."""
        rules = [f".mg-t{{visibility:hidden;animation:{total:.3f}s step-end infinite}}"]
        for span_set, name in self.names.items():
            frames = [] if span_set[0][0] == 0 else ["0%{visibility:hidden}"]
            for first, last in span_set:
                frames.append(f"{_percent(first, seconds_per_frame, total)}%"
                              "{visibility:visible}")
                if last + 1 < self.count:
                    frames.append(f"{_percent(last + 1, seconds_per_frame, total)}%"
                                  "{visibility:hidden}")
            still = span_set[-1][1] == self.count - 1
            rules.append(f".{name}{{animation-name:k{name}"
                         + (";visibility:visible}" if still else "}"))
            rules.append(f"@keyframes k{name}{{{''.join(frames)}}}")
        return "\n".join(rules)


def _percent(step, seconds_per_frame, total):
    return f"{100.0 * step * seconds_per_frame / total:.4f}".rstrip("0").rstrip(".")
