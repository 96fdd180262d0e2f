"""The notebook player: `minigrad.viz.animate(trace)` replays the engine step by step.

A plain ipywidgets VBox, no custom JavaScript: a `Play` linked to the step
slider in the browser (`jslink`: playing needs no round-trip to the kernel),
Previous / Next buttons, a speed control, and an `HTML` widget holding the
current frame's SVG.  An observer on the slider swaps the picture, so the
slider, the Play button and the buttons all drive one value.

The caption is drawn inside the SVG only (so an exported frame keeps it), and
the slider counts like the caption does: from 1 ("step 1 of 17" at 1), while
`player.step` and `frame.step` count from 0, as Python does.

The frames are computed by `storyboard.frames` (plain data); this module
only shows them (the model apart from the view, as in ipycytoscape).
"""
try:
    import ipywidgets as widgets
except ImportError as error:       # the widgets are an optional extra
    raise ImportError('minigrad.viz.animate needs ipywidgets: pip install "minigrad[widgets]"'
                      ) from error

from .settings import resolve_lang, text
from .storyboard import frames as make_frames

SPEEDS = (("0.5×", 0.5), ("1×", 1.0), ("2×", 2.0), ("4×", 4.0))


class Player(widgets.VBox):
    """Play / Pause, a step slider (1 to n), Previous / Next, speed, and the frame's SVG.

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

    def __init__(self, trace, lang=None, interval_ms=800, *, view="all", names=None):
        self.lang = resolve_lang(lang)
        self.frames = make_frames(trace, self.lang, view=view, names=names)
        if not self.frames:
            raise ValueError("this trace has nothing to replay: record some tensor operations "
                             "(and a backward) inside `with minigrad.viz.record() as trace:`")
        self.interval_ms, count = interval_ms, len(self.frames)
        # ipywidgets 8 draws no description next to Play: its tooltip names it instead
        self.play = widgets.Play(value=1, min=1, max=count, step=1, interval=interval_ms,
                                 tooltip=text(self.lang, "play"), show_repeat=False)
        self.slider = widgets.IntSlider(value=1, min=1, max=count, step=1, readout=True,
                                        continuous_update=True,
                                        layout=widgets.Layout(width="320px"))
        # in the browser Play drives the slider directly; the observers below keep the
        # kernel's copies equal when Python (or a test) moves one of them
        self.link = widgets.jslink((self.play, "value"), (self.slider, "value"))
        self.previous_button = widgets.Button(description="◀ " + text(self.lang, "previous"),
                                              tooltip=text(self.lang, "previous"),
                                              layout=widgets.Layout(width="auto"))
        self.next_button = widgets.Button(description=text(self.lang, "next") + " ▶",
                                          tooltip="Next",       # the same in every language
                                          layout=widgets.Layout(width="auto"))
        self.speed = widgets.Dropdown(options=SPEEDS, value=1.0,
                                      description=text(self.lang, "speed"),
                                      layout=widgets.Layout(width="150px"))
        self.picture = widgets.HTML(layout=widgets.Layout(overflow="auto"))
        self.previous_button.on_click(lambda _: self.previous())
        self.next_button.on_click(lambda _: self.next())
        self.slider.observe(self._on_step, names="value")
        self.play.observe(self._on_play, names="value")
        self.speed.observe(self._on_speed, names="value")
        controls = widgets.HBox([self.play, self.previous_button, self.next_button,
                                 self.slider, self.speed])
        super().__init__([controls, self.picture])
        self.add_class("minigrad-player")
        self._render(0)

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
        k = max(0, min(int(k), len(self.frames) - 1))
        self.slider.value = k + 1      # the observer draws it and moves Play along

    def next(self):
        self.show(self.step + 1)

    def previous(self):
        self.show(self.step - 1)

    def _on_step(self, change):
        self.play.value = change["new"]
        self._render(change["new"] - 1)

    def _on_play(self, change):
        self.slider.value = change["new"]

    def _on_speed(self, change):
        self.play.interval = max(int(self.interval_ms / change["new"]), 20)

    def _render(self, k):
        """Show frame k (from 0): its SVG carries the caption, "step k+1 of n"."""
        self.picture.value = self.frames[k].svg

    def __repr__(self):
        return f"<Player: {len(self.frames)} frames, step {self.step}>"
