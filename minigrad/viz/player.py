"""The notebook player: `minigrad.viz.animate(trace)` replays the engine step by step.

Only core ipywidgets, linked in the browser (`jslink`), so that it plays with no
kernel at all: on a web page made from a notebook with its widget state saved,
in Colab, in JupyterLite; and stepping is instant with a kernel too.

- The graph and the side panel are drawn ONCE, in one `HTML` widget: every
  distinct piece of every frame (`timeline.py`), each with a class that its
  CSS shows only while the current step `--k` is in the piece's steps.
- The step lives in the browser: Play, the slider and Previous / Next are
  linked to one value, and that value selects a child of a `Stack` (which
  shows only its selected child).  Child k is frame k's caption and a
  `<style>` that sets `--k: k` on this player (and the point the view
  follows), so showing child k shows frame k.
- Previous / Next are `ToggleButtons` with one button per step (button i
  goes to step i): the step's style shows only the buttons of the steps
  before and after it.  (A core `Button` needs the kernel to do anything.)
- A big graph is shown at a readable size in a window that follows the
  running node; "whole graph" fits it to the window instead, never with labels
  smaller than MIN_LABEL px: a graph too big for that scrolls in it.  The window,
  the panel and the caption fit a laptop's notebook (about 850 × 600 px).
- Beside the graph, "Tensors & queue / 张量与队列" shows the panel, "Source /
  源码" the engine's own source (`source_view.py`): the engine loop or
  `Function.apply`, the line that made the step highlighted and kept in view.

The frames are computed by `storyboard.frames` (plain data); this module
only shows them (the model apart from the view, as in ipycytoscape).
"""
import secrets

try:
    import ipywidgets as widgets
except ImportError as error:       # the widgets are an optional extra
    raise ImportError('minigrad.viz.animate needs ipywidgets: pip install "minigrad-tutor[widgets]"'
                      ) from error

from xml.sax.saxutils import escape

from .draw import FONT_FAMILY, RED
from .layout import FONT_SIZE
from .frame_svg import CURRENT, FLOW_ORANGE, GRAD_BLUE
from .settings import resolve_lang, text
from .ipywidgets7 import Stack, html_style, tooltip
from .page_player import PAGE_PLAYER, SPEEDS, css_variables, page_player
from .storyboard import frames as make_frames
from .timeline import SpanClasses, timeline

VIEW_HEIGHT = 480          # px: the graph's window (and the panel's most)
ASSUMED_WIDTH = 520        # px left for the graph beside the panel in a laptop's notebook
READABLE = 0.62            # a graph fitted smaller than this starts in the following view
CAPTION_BLUE, CAPTION_ORANGE = "#1a6496", "#a64b00"   # the graph's blue and orange, dark
                                                      # enough to read on the caption (5.4:1)
MIN_LABEL = 8              # px: the smallest label of the whole graph, at its smallest
MIN_SCALE = MIN_LABEL / min(FONT_SIZE.values())


class Player(widgets.VBox):
    """Play / Pause, Previous / Next, a step slider (1 to n), speed, the caption, the picture.

    Example::

        >>> import minigrad as torch
        >>> import minigrad.viz as viz
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> with viz.record() as trace:
        ...     x.exp().sum().backward()
        >>> player = viz.animate(trace)
        >>> player.next(); player.step
        1
        >>> player.current_frame.caption
        'SumBackward0 is created'
    """

    def __init__(self, trace, lang=None, interval_ms=800, *, view="all", names=None,
                 source=False):
        self.lang = resolve_lang(lang)
        self.frames = make_frames(trace, self.lang, view=view, names=names)
        if not self.frames:
            raise ValueError("this trace has nothing to replay: record some tensor operations "
                             "(and a backward) inside `with minigrad.viz.record() as trace:`")
        self.interval_ms, count = interval_ms, len(self.frames)
        self.scope = ".mgp-" + secrets.token_hex(4)     # this player's CSS, on its page
        drawer = self.frames[0]._drawer
        self.follows = min(1.0, ASSUMED_WIDTH / drawer.stage.placed.width,
                           VIEW_HEIGHT / drawer.stage.placed.height) < READABLE
        # ipywidgets 8 draws no description next to Play: its tooltip names it instead
        self.play = widgets.Play(value=1, min=1, max=count, step=1, interval=interval_ms,
                                 show_repeat=False,
                                 **tooltip(widgets.Play, text(self.lang, "play")))
        self.slider = widgets.IntSlider(value=1, min=1, max=count, step=1, readout=True,
                                        continuous_update=True,
                                        layout=widgets.Layout(width="260px"))
        self.previous_button = self._step_buttons("◀ " + text(self.lang, "previous"),
                                                  text(self.lang, "previous"), "mg-previous")
        self.next_button = self._step_buttons(text(self.lang, "next") + " ▶", "Next",
                                              "mg-next")      # the same tooltip in any language
        self.speed = widgets.Dropdown(options=SPEEDS, value=1.0,
                                      description=text(self.lang, "speed"),
                                      layout=widgets.Layout(width="140px"))
        self.speed.observe(self._on_speed, names="value")
        shared = {"layout": widgets.Layout(width="100%")}
        if (style := html_style()) is not None:
            shared["style"] = style
        self.captions = Stack(
            [widgets.HTML(**shared)]                                    # (steps count from 1)
            + [widgets.HTML(self._caption(frame), **shared) for frame in self.frames],
            selected_index=1)
        self.picture = widgets.HTML(self._picture())
        self.zoom = widgets.ToggleButtons(
            options=[text(self.lang, "view_follow"), text(self.lang, "view_whole")],
            index=0 if self.follows else 1, style={"button_width": "auto"})
        zoom_styles = Stack([widgets.HTML(self._view_css(follow)) for follow in
                                     (True, False)], selected_index=self.zoom.index)
        self.side = widgets.ToggleButtons(
            options=[text(self.lang, "side_panel"), text(self.lang, "side_source")],
            index=1 if source else 0, style={"button_width": "auto"},
            layout=widgets.Layout(margin="2px 18px 2px 2px"))   # apart from the zoom's pair
        self.side.add_class("mg-side-toggle")
        side_styles = Stack([widgets.HTML(self._side_css(shows_source)) for shows_source in
                             (False, True)], selected_index=self.side.index)
        # In the browser one value moves them all, kernel or no kernel.
        self.links = [widgets.jslink((self.play, "value"), (self.slider, "value")),
                      widgets.jslink((self.slider, "value"), (self.previous_button, "index")),
                      widgets.jslink((self.slider, "value"), (self.next_button, "index")),
                      widgets.jsdlink((self.slider, "value"), (self.captions, "selected_index")),
                      widgets.jsdlink((self.zoom, "index"), (zoom_styles, "selected_index")),
                      widgets.jsdlink((self.side, "index"), (side_styles, "selected_index"))]
        controls = [self.play, self.previous_button, self.next_button, self.slider, self.speed,
                    self.side]
        if self.follows:
            controls.append(self.zoom)
        super().__init__([widgets.HBox(controls, layout=widgets.Layout(flex_flow="row wrap")),
                          self.captions, zoom_styles, side_styles, self.picture])
        self.add_class("minigrad-player")
        self.add_class(self.scope[1:])

    def _ipython_display_(self, **kwargs):
        """In a notebook: the page player (`page_player.py`: shown where this widget is
        gone, after a restart or on a web page), then the widget itself."""
        from IPython.display import display
        display({"text/html": self.page_html(), "text/plain": repr(self)}, raw=True,
                metadata={"minigrad": PAGE_PLAYER})
        if hasattr(widgets.Widget, "_repr_mimebundle_"):
            display(self._repr_mimebundle_(**kwargs), raw=True)
        else:                                   # ipywidgets 7 displays itself
            super()._ipython_display_(**kwargs)

    def page_html(self):
        """This player as HTML that plays with no widget manager (`page_player.py`)."""
        return page_player(self)

    def _step_buttons(self, label, tooltip, css_class):
        """One button per step (0 is never shown: steps count from 1 like the slider)."""
        count = len(self.frames)
        buttons = widgets.ToggleButtons(options=[(label, k) for k in range(count + 1)],
                                        tooltips=[tooltip] * (count + 1), index=1,
                                        style={"button_width": "auto"})
        buttons.add_class(css_class)
        return buttons

    # --- moving (from Python; in the browser the links do it) -------------------------

    @property
    def step(self):
        """The index of the frame shown (from 0; the slider shows it plus 1)."""
        return self.slider.value - 1

    @step.setter
    def step(self, k):
        self.show(k)

    @property
    def current_frame(self):
        return self.frames[self.step]

    def show(self, k):
        """Show frame `k` (clamped to the first and last frame)."""
        value = max(0, min(int(k), len(self.frames) - 1)) + 1
        for widget, name in ((self.slider, "value"), (self.play, "value"),
                             (self.previous_button, "index"), (self.next_button, "index"),
                             (self.captions, "selected_index")):
            setattr(widget, name, value)

    def next(self):
        self.show(self.step + 1)

    def previous(self):
        self.show(self.step - 1)

    def _on_speed(self, change):
        self.play.interval = max(int(self.interval_ms / change["new"]), 20)

    # --- what the browser holds --------------------------------------------------------

    def _caption(self, frame):
        """Frame k's child of the Stack: its caption, and the style that shows step k."""
        scope, k, count = self.scope, frame.step, len(self.frames)
        value = k + 1
        before, after = max(value - 1, 1), min(value + 1, count)
        rules = [f"{scope}{{{css_variables(self.step_variables(frame))}}}",
                 f"{scope} .mg-previous button:nth-of-type({before + 1}),"
                 f"{scope} .mg-next button:nth-of-type({after + 1}){{display:inline-block}}"]
        if value == 1:
            rules.append(f"{scope} .mg-previous button{{opacity:.45;pointer-events:none}}")
        if value == count:
            rules.append(f"{scope} .mg-next button{{opacity:.45;pointer-events:none}}")
        return self.caption_html(frame) + f"<style>{''.join(rules)}</style>"

    def step_variables(self, frame):
        """The CSS variables that show frame k: the step `--k`, the point the view
        follows (`--fx`, `--fy`) and the highlighted source line (`--sy`)."""
        focus = frame._drawer.focus(frame) or self._last_focus(frame.step)
        line = frame._listing.focus(frame)
        return {"k": str(frame.step), "fx": f"{focus[0]:.0f}px", "fy": f"{focus[1]:.0f}px",
                "sy": f"{line:.0f}px"}

    def caption_html(self, frame):
        """The caption of frame k: "phase · step k of n" and its sentence."""
        drawer, k = frame._drawer, frame.step
        phase = text(self.lang, "phase_" + frame.phase)
        where = text(self.lang, "step_of", k=k + 1, n=len(self.frames))
        colour = CAPTION_ORANGE if frame.phase == "backward" else CAPTION_BLUE
        current = "" if frame.current is None else (
            f' data-node="{frame.current}" '
            f'data-name="{escape(drawer.names.get(frame.current, "?"))}"')
        return (f'<div class="minigrad-caption{" mg-failed" if frame.failed else ""}" '
                f'data-step="{k}" data-phase="{frame.phase}"{current}>'
                f'<b style="color:{colour}">{escape(phase)} · {escape(where)}</b><br>'
                f'<span style="color:{RED if frame.failed else "#1a1a1a"}">'
                f"{escape(frame.caption)}</span></div>")

    def _last_focus(self, k):
        """Where the view stays when a frame has no current node: the one before, or the
        middle of the graph."""
        for frame in reversed(self.frames[:k]):
            focus = frame._drawer.focus(frame)
            if focus is not None:
                return focus
        placed = self.frames[0]._drawer.stage.placed
        return placed.width / 2, placed.height / 2

    def _picture(self, scope=None):
        """The graph, the panel and the source, every piece of every frame drawn once, with
        the CSS that shows step `--k` inside `scope` (a selector; this player's own)."""
        drawer, count = self.frames[0]._drawer, len(self.frames)
        scope = scope or self.scope
        classes = SpanClasses(count)
        graph = classes.wrap(timeline(self.frames, "graph"))
        panel = classes.wrap(timeline(self.frames, "panel"))
        source = classes.wrap(timeline(self.frames, "source"))
        listing = self.frames[0]._listing
        placed = drawer.stage.placed
        width, height = placed.width, placed.height
        view = min(height, VIEW_HEIGHT)
        css = "\n".join([
            classes.stepped_css(scope),
            f"{scope} .mg-previous button,{scope} .mg-next button{{display:none}}",
            f"{scope} .minigrad-caption{{font:15px/1.35 var(--jp-ui-font-family, sans-serif);"
            "min-height:3.9em;padding:4px 8px;background:#f7f7f7}",
            f"{scope} .minigrad-caption.mg-failed{{background:#fdecea}}",
            f"{scope} .mg-stage{{display:flex;flex-wrap:wrap;gap:6px;align-items:flex-start;"
            "container-type:inline-size}",
            f"{scope} .mg-view{{position:relative;overflow:hidden;flex:1 1 360px;min-width:0;"
            f"height:{view:.0f}px;border:1px solid #e6e6e6}}",
            f"{scope} .mg-side{{flex:0 1 {drawer.panel_w}px;max-height:{view:.0f}px;"
            "overflow:auto}",
            f"{scope} .mg-mover{{transition:left .3s,top .3s}}",
            f"{scope} .mg-mover svg{{display:block}}",
            f"{scope} .mg-source{{flex:1 1 470px;min-width:0;height:{view:.0f}px;"
            "overflow-x:auto;overflow-y:hidden;border:1px solid #e6e6e6;background:#fcfcfc}",
            f"{scope} .mg-code{{position:relative;transition:top .3s;top:min(max("
            f"{view - listing.height:.0f}px, calc({view / 2:.0f}px - var(--sy, 0px))), 0px)}}",
            f"@container (max-width: 620px) {{{scope} .mg-side{{max-height:180px}}}}",
        ])
        font = escape(FONT_FAMILY)

        def region(name):       # a part that may scroll: named, and reached by Tab
            return f'role="region" tabindex="0" aria-label="{escape(text(self.lang, name))}"'
        return (f"<style>{css}</style>"
                f'<div class="mg-stage"><div class="mg-view" {region("graph_region")}>'
                '<div class="mg-mover">'
                f'<svg class="minigrad-graph" xmlns="http://www.w3.org/2000/svg" '
                f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
                f'data-frames="{count}" font-family="{font}">{drawer.defs()}{graph}</svg>'
                f'</div></div><div class="mg-side" {region("side_panel")}>'
                f'<svg class="minigrad-panel" xmlns="http://www.w3.org/2000/svg" '
                f'width="{drawer.panel_w}" height="{drawer.panel_h:.0f}" '
                f'font-family="{font}">{panel}</svg></div>'
                f'<div class="mg-source" {region("side_source")}><div class="mg-code">'
                f'<svg class="minigrad-source" xmlns="http://www.w3.org/2000/svg" '
                f'width="{listing.width}" height="{listing.height}" font-family="{font}">'
                f"{source}</svg></div></div></div>")

    def _side_css(self, shows_source):
        return f"<style>{self.side_rules(shows_source, self.scope)}</style>"

    @staticmethod
    def side_rules(shows_source, scope):
        """Beside the graph: the panel, or the engine's source (narrower graph window)."""
        if shows_source:
            return f"{scope} .mg-side{{display:none}}{scope} .mg-view{{flex-basis:300px}}"
        return f"{scope} .mg-source{{display:none}}"

    def _view_css(self, follow):
        return f"<style>{self.view_rules(follow, self.scope)}</style>"

    def view_rules(self, follow, scope):
        """The graph's window: following the running node at full size, or the whole graph,
        fitted to the window but never smaller than MIN_SCALE (its smallest label
        MIN_LABEL px): a bigger graph is then scrolled (panned) in the window."""
        placed = self.frames[0]._drawer.stage.placed
        width, height = placed.width, placed.height
        view = min(height, VIEW_HEIGHT)
        if follow:      # the focus in the middle, but no empty space past the graph's edges
            return (f"{scope} .mg-mover{{position:absolute;"
                    f"left:min(max(calc(100% - {width}px), calc(50% - var(--fx))), 0px);"
                    f"top:min(max({view - height:.0f}px, calc({view / 2:.0f}px - var(--fy))),"
                    " 0px)}")
        fit = view / height                       # the scale at which the height fits
        return (f"{scope} .mg-stage .mg-view{{overflow:auto}}"
                f"{scope} .mg-mover svg{{width:max({width * MIN_SCALE:.0f}px, "
                f"min(100%, {width * fit:.0f}px));height:auto;max-width:{width}px}}")

    def __repr__(self):
        return f"<Player: {len(self.frames)} frames, step {self.step}>"
