"""Write an animation to a file: `minigrad.viz.export(trace, "backward.svg")`.

- `.svg`: ONE animated SVG that plays all frames in a loop with CSS
  keyframes and no JavaScript, so it plays where scripts may not run: inside
  an `<img>` tag, in a README on GitHub, in a slide.  It holds each distinct
  piece of the frames once (`timeline.py`: a box that looks the same for
  twenty steps is drawn once), and keyframes show each piece during its
  steps; the last step stays a little longer before the loop restarts.  A
  viewer without CSS animation shows the last frame.
- `.gif`: the frames rasterised by cairosvg (`pip install cairosvg`) and
  joined by Pillow.
- `.html`: a page with the same pieces, a slider and Play / Previous / Next.

With `source=True` the .svg and the .html show the engine's own source to the
right of the frame (`source_view.py`), the line that made each step
highlighted; the whole function is shown, so the picture grows to its height
(the engine loop: about 60 lines).  A .gif is made of single frames: no source.
"""
import pathlib
from xml.sax.saxutils import escape

from .draw import FONT_FAMILY
from .storyboard import frames as make_frames
from .timeline import PARTS, SpanClasses, timeline

HOLD_LAST = 3            # the last frame stays this many slots before the loop restarts


def _frames_of(source, lang, view, names):
    """Frames from a Trace, a Player (its frames) or a list of frames."""
    if hasattr(source, "frames") and not hasattr(source, "events"):
        return list(source.frames)
    if isinstance(source, (list, tuple)):
        return list(source)
    return make_frames(source, lang, view=view, names=names)


def export(trace_or_player, path, lang=None, seconds_per_frame=0.8, *, view="all",
           names=None, source=False):
    """Write the animation of a trace to `path` (.svg, .gif or .html).

    Args:
        trace_or_player: a `Trace`, a `Player` from `animate`, or a list of frames.
        path: where to write; the suffix picks the format.
        lang: "en" or "zh" for a trace (a player keeps its own language).
        seconds_per_frame: how long each step is shown.
        view: "all", "forward" or "backward" (for a trace).
        names: optional {"x": x, "loss": loss, ...} to label leaves, outputs and saved
            tensors by name (for a trace; see `minigrad.viz.animate`).
        source: show the engine's source beside the frame (.svg and .html), each
            step's line highlighted.

    Returns:
        The path written.

    Example::

        >>> import pathlib, tempfile
        >>> import minigrad as torch
        >>> import minigrad.viz as viz
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> with viz.record() as trace:
        ...     x.exp().sum().backward()
        >>> path = viz.export(trace, pathlib.Path(tempfile.mkdtemp()) / "exp.svg")
        >>> "@keyframes" in path.read_text(encoding="utf-8")
        True
    """
    path = pathlib.Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".gif", ".html"):
        raise ValueError(f"export() writes .svg, .gif or .html files, not {path.name!r}")
    story = _frames_of(trace_or_player, lang, view, names)
    if not story:
        raise ValueError("nothing to export: the trace has no steps")
    if seconds_per_frame <= 0:
        raise ValueError(f"seconds_per_frame must be positive, got {seconds_per_frame}")
    if suffix == ".svg":
        path.write_text(animated_svg(story, seconds_per_frame, source), encoding="utf-8")
    elif suffix == ".html":
        path.write_text(html_page(story, seconds_per_frame, source), encoding="utf-8")
    else:
        path.write_bytes(gif_bytes(story, seconds_per_frame))
    return path


def animated_svg(story, seconds_per_frame=0.8, source=False):
    """One SVG whose pieces take turns, looping, by CSS keyframes alone."""
    count = len(story)
    total = (count - 1 + HOLD_LAST) * seconds_per_frame
    classes = SpanClasses(count)
    parts = [classes.wrap(timeline(story, part)) for part in PARTS]
    beside = classes.wrap(timeline(story, "source")) if source else None
    return _film(story, "minigrad-animation", classes.keyframes_css(seconds_per_frame, total),
                 parts, beside)


def _film(story, css_class, css, parts, source=None):
    """The whole picture (caption, graph, panel) holding every piece of the story, and
    the pieces of the source listing to its right when `source` is given."""
    drawer = story[0]._drawer
    width, height, beside = drawer.width, drawer.height, ""
    if source is not None:
        listing = story[0]._listing
        beside = (f'<g class="mg-source" transform="translate({width},0)">'
                  f'<rect width="{listing.width}" height="{max(height, listing.height)}" '
                  f'fill="#fcfcfc"/>\n{source}</g>\n')
        width, height = width + listing.width, max(height, listing.height)
    return (f'<svg class="{css_class}" xmlns="http://www.w3.org/2000/svg" '
            f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'font-family="{escape(FONT_FAMILY)}" data-frames="{len(story)}">\n'
            f'<style>{css}</style>\n<rect width="{width}" height="{height}" fill="white"/>\n'
            + drawer.defs() + drawer.assemble(*[[p] for p in parts]) + beside + "</svg>\n")


def gif_bytes(story, seconds_per_frame=0.8):
    """An animated GIF of the frames (needs cairosvg and Pillow)."""
    try:
        import cairosvg
        from PIL import Image
    except ImportError as error:
        raise RuntimeError(
            "exporting a .gif needs cairosvg (and Pillow) to turn the frames into pixels: "
            "pip install cairosvg pillow — or export a .svg, which animates by itself "
            "(also inside an <img> tag on GitHub)") from error
    import io
    images = [Image.open(io.BytesIO(cairosvg.svg2png(bytestring=f.svg.encode("utf-8"))))
              .convert("RGB") for f in story]
    durations = [int(seconds_per_frame * 1000)] * len(images)
    durations[-1] *= HOLD_LAST
    buffer = io.BytesIO()
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:],
                   duration=durations, loop=0)
    return buffer.getvalue()


PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>minigrad: backward, step by step</title>
<style>body{{font-family:sans-serif;margin:16px}} button{{font-size:15px}}
#mg-film{{max-width:100%;height:auto}}</style></head>
<body><div><button id="prev" title="Previous">◀</button> <button id="play">▶ / ❚❚</button>
<button id="next" title="Next">▶</button>
<input id="step" type="range" min="0" max="{last}" value="0" style="width:320px">
<span id="where"></span></div>
{film}
<script>
const film = document.getElementById("mg-film"), step = document.getElementById("step");
let timer = null;
function show(k) {{
  k = Math.max(0, Math.min({last}, k)); step.value = k;
  film.style.setProperty("--k", k);
  document.getElementById("where").textContent = (k + 1) + " / {count}";
}}
step.oninput = () => show(+step.value);
document.getElementById("prev").onclick = () => show(+step.value - 1);
document.getElementById("next").onclick = () => show(+step.value + 1);
document.getElementById("play").onclick = () => {{
  if (timer) {{ clearInterval(timer); timer = null; return; }}
  timer = setInterval(() => show(+step.value >= {last} ? 0 : +step.value + 1), {ms});
}};
show(0);
</script></body></html>
"""


def html_page(story, seconds_per_frame=0.8, source=False):
    """A standalone page: the pieces of every frame once, a slider, Previous / Play / Next
    (a few lines of JS set the step `--k` that the pieces' CSS reads)."""
    classes = SpanClasses(len(story))
    parts = [classes.wrap(timeline(story, part)) for part in PARTS]
    beside = classes.wrap(timeline(story, "source")) if source else None
    film = _film(story, "minigrad-film", classes.stepped_css("#mg-film"), parts, beside)
    film = film.replace("<svg ", '<svg id="mg-film" ', 1)
    return PAGE.format(film=film, last=len(story) - 1, count=len(story),
                       ms=int(seconds_per_frame * 1000))
