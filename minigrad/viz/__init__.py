"""Drawings of the autograd graph: `minigrad.viz.graph(tensor)`.

Example::

    >>> import minigrad as torch
    >>> import minigrad.viz
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> drawing = minigrad.viz.graph((x.exp() * 3).sum(), show_shapes=True)
    >>> drawing.svg.startswith("<svg")
    True

In Jupyter the drawing shows itself.  It is drawn by graphviz when its `dot`
program is installed, else by minigrad's own layout (`drawing.renderer`
says which); `minigrad.settings.lang = "zh"` labels it in Chinese.

To watch the engine work, record it and replay the trace: `frames(trace)`
cuts it into pictures (plain data, testable), `animate(trace)` plays them in
a notebook (ipywidgets), `export(trace, "backward.svg")` writes one animated
SVG that plays by itself, even inside an `<img>` tag.
"""
import pathlib

from . import settings
from .draw import dot_source, dot_svg, find_dot, python_svg, run_dot, MISSING_DOT
from .model import build
from .storyboard import Frame, frames
from .animation_export import export
from ..tracing import record

__all__ = ["graph", "GraphDrawing", "record", "settings", "frames", "Frame", "animate",
           "export"]

ENGINES = ("auto", "dot", "python")


class GraphDrawing:
    """A drawn graph: `.svg`, `.dot_source`, `.renderer` ("dot" or "python"), `.model`."""

    def __init__(self, model, svg, source, renderer):
        self.model, self.svg, self.dot_source, self.renderer = model, svg, source, renderer

    def _repr_svg_(self):
        """Jupyter calls this to show the drawing inline."""
        return self.svg

    def save(self, path):
        """Write the drawing to `path`: .svg always, .dot/.gv the source, .png with graphviz."""
        path = pathlib.Path(path)
        suffix = path.suffix.lower()
        if suffix == ".svg":
            path.write_text(self.svg, encoding="utf-8")
        elif suffix in (".dot", ".gv"):
            path.write_text(self.dot_source, encoding="utf-8")
        elif suffix == ".png":
            if find_dot() is None:
                raise RuntimeError("saving a .png needs graphviz's dot: save a .svg instead, "
                                   "or install graphviz (apt-get install graphviz / conda "
                                   "install graphviz)")
            path.write_bytes(run_dot(self.dot_source, "png"))
        else:
            raise ValueError(f"save() writes .svg, .png, .dot or .gv files, not {path.name!r}")
        return path

    def __repr__(self):
        shown = sum(n.kind != "saved" for n in self.model.nodes)
        return f"<GraphDrawing: {shown} boxes, drawn by {self.renderer}>"


def graph(tensor, *, show_shapes=False, show_saved=True, lang=None, max_nodes=150,
          engine="auto", names=None):
    """Draw the backward graph behind `tensor` (or a list of tensors).

    Args:
        tensor: a tensor, or a list of tensors drawn together.
        show_shapes: show shapes and dtypes (leaves always show their shape).
        show_saved: draw the tensors each node saved for backward, beside it:
            orange; grey when freed; purple when packed by saved_tensors_hooks;
            red when changed in place since it was saved (backward would fail).
        lang: "en" or "zh"; default `minigrad.settings.lang`, MINIGRAD_LANG, "en".
        max_nodes: draw the nodes nearest the output, at most this many.
        engine: "dot" (graphviz), "python" (no dependency), or "auto": dot if installed.
        names: optional {"x": x, "W": W} to label leaves and outputs by name.

    Returns:
        GraphDrawing, shown inline by Jupyter; `.save("graph.svg")`.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    if engine == "dot" and find_dot() is None:
        raise RuntimeError(MISSING_DOT)
    model = build(tensor, show_shapes=show_shapes, show_saved=show_saved, lang=lang,
                  max_nodes=max_nodes, names=names)
    source = dot_source(model)
    if engine != "python" and find_dot() is not None:
        try:
            return GraphDrawing(model, dot_svg(model), source, "dot")
        except RuntimeError:
            if engine == "dot":
                raise           # asked for graphviz: say that it failed
    return GraphDrawing(model, python_svg(model), source, "python")


def animate(trace, lang=None, interval_ms=800, *, view="all", names=None, source=False):
    """A player widget replaying `trace` step by step (needs ipywidgets).

    Args:
        trace: a `Trace` from `minigrad.viz.record()`.
        lang: "en" or "zh"; default `minigrad.settings.lang`, MINIGRAD_LANG, "en".
        interval_ms: time per step while playing (the speed control scales it).
        view: "all", "forward" or "backward": replay only one phase.
        names: optional {"x": x, "w": w, "loss": loss}: label the leaves, outputs
            and saved tensors of the picture by your variable names (a trace knows
            tensors, not variables).  Without it a leaf is "leaf" ("leaf 1",
            "leaf 2" ... when there are several), an output "output"; both show
            their shape, and their values when they have at most 4 elements.
        source: start with the engine's own source beside the graph instead of the
            panel ("Source / 源码"; a toggle in the player switches): each step
            highlights the line of the engine loop, or of Function.apply in forward,
            that emitted it.

    Returns:
        `Player`, an ipywidgets.VBox of core widgets linked in the browser, so that it
        also plays on a page with no kernel (a notebook saved with its widget state):
        Play, Previous / Next, a step slider (1 to the number of frames, as the
        caption's "step k of n"), speed, the caption, and the picture (the graph drawn
        once, a big one in a window that follows the running node); `.next()`,
        `.previous()`, `.show(k)`, `.step` (from 0), `.frames`.

    Example::

        >>> import minigrad as torch
        >>> import minigrad.viz as viz
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> with viz.record() as trace:
        ...     loss = (x * x).sum()
        ...     loss.backward()
        >>> player = viz.animate(trace, names={"x": x, "loss": loss})
        >>> "step 1 of" in player.captions.children[1].value and ">x<" in player.picture.value
        True
    """
    from .player import Player      # ipywidgets is optional: imported only here
    return Player(trace, lang=lang, interval_ms=interval_ms, view=view, names=names,
                  source=source)
