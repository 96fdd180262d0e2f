"""The player as a plain web page shows it: HTML, CSS and a few lines of JavaScript.

A player's widgets live in the kernel that made them.  Stop the tutor, start it
again, open the lesson: JupyterLab finds no widget behind the saved output and
used to say "Error displaying widget: model not found".  So `animate()` puts
this page player in the output too, just before the widget: the same picture
(every piece of every frame drawn once, `timeline.py`), the captions, and
controls of its own (Play, Previous, Next, a step slider, speed, the two
toggles) that set the step `--k` as the widget's browser links do.

Where it shows (the `<style>` inside it says so):

- in a JupyterLab output area that holds no live player: after a restart
  (JupyterLab runs the script of a trusted notebook's output, so it plays), or
  on a page nbconvert made before the widget manager has drawn the widget;
  there it also hides the dead widget's "model not found";
- on the lesson website (scripts/build-site.py keeps it and leaves the widget
  out, so a page loads no widget manager);
- nowhere else: it carries the `hidden` attribute, so Colab, or a notebook
  whose styles were removed as untrusted, shows the widget (or nothing) as before.

Without JavaScript it is a still of the step the player showed, with a note
to run the cell.  Its controls are real buttons with names, a labelled
slider and a labelled list, so a screen reader can use them.

DOM contract (the browser tests rely on it): the root is
`<div class="minigrad-page-player" id=...>`; `.mg-play` (named "Play", then
"Pause"), `.mg-previous`, `.mg-next`, `input.mg-slider`, and one
`.minigrad-caption` with `data-step` as in the widget.
"""
import json
import secrets
from xml.sax.saxutils import escape, quoteattr

from .settings import text

PAGE_PLAYER = "page-player"     # the output's metadata {"minigrad": ...}: which output it is
SPEEDS = (("0.5×", 0.5), ("1×", 1.0), ("2×", 2.0), ("4×", 4.0))
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
APPEAR_AFTER = 1.5          # s: a live widget usually draws before this; then no flash

SCRIPT = """(function () {
  var root = document.getElementById(%(id)s);
  if (!root || root.getAttribute("data-ready")) return;
  root.setAttribute("data-ready", "1");
  var words = %(words)s, interval = %(interval)d;
  function find(selector) { return root.querySelector(selector); }
  var steps = root.querySelectorAll("template.mg-step"), count = steps.length;
  var box = find(".mg-caption-box"), slider = find(".mg-slider"), readout = find(".mg-readout"),
      play = find(".mg-play"), previous = find(".mg-previous"), next = find(".mg-next"),
      speed = find(".mg-speed"), timer = null, k = +slider.value - 1;
  function show(step) {
    k = Math.max(0, Math.min(count - 1, step));
    var shown = steps[k];
    box.innerHTML = shown.innerHTML;
    ["k", "fx", "fy", "sy"].forEach(function (name) {
      root.style.setProperty("--" + name, shown.getAttribute("data-" + name));
    });
    slider.value = k + 1;
    slider.setAttribute("aria-valuetext", words.step_of.replace("{k}", k + 1));
    readout.textContent = k + 1;
    previous.disabled = k === 0;
    next.disabled = k === count - 1;
  }
  function name(button, label, glyph) {
    button.textContent = glyph;
    button.title = label;
    button.setAttribute("aria-label", label);
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    name(play, words.play, "\\u25B6");
  }
  function start() {
    if (k === count - 1) show(0);
    name(play, words.pause, "\\u275A\\u275A");
    timer = setInterval(function () {
      if (k >= count - 1) stop(); else show(k + 1);
    }, Math.max(20, interval / +speed.value));
  }
  play.onclick = function () { if (timer) stop(); else start(); };
  previous.onclick = function () { stop(); show(k - 1); };
  next.onclick = function () { stop(); show(k + 1); };
  slider.oninput = function () { stop(); show(+slider.value - 1); };
  speed.onchange = function () { if (timer) { stop(); start(); } };
  root.querySelectorAll("button[data-switch]").forEach(function (button) {
    button.onclick = function () {
      var on = button.getAttribute("data-on") === "1";
      root.classList.toggle(button.getAttribute("data-switch"), on);
      button.parentNode.querySelectorAll("button").forEach(function (other) {
        other.setAttribute("aria-pressed", String(other === button));
      });
    };
  });
  find(".mg-bar").hidden = false;
  find(".mg-still-note").hidden = true;
  show(k);
})();"""


def page_player(player):
    """The HTML of `player` (a `Player`) as a page shows it with no widget manager."""
    token = secrets.token_hex(4)
    ident, scope = f"mgpage-{token}", f"#mgpage-{token}"
    lang, frames, step = player.lang, player.frames, player.step
    count = len(frames)
    picture_css, picture = player._picture(scope).removeprefix("<style>").split("</style>", 1)
    css = [_where_it_shows(), picture_css,
           player.side_rules(True, f"{scope}.mg-src"),
           player.side_rules(False, f"{scope}:not(.mg-src)"),
           player.view_rules(True, f"{scope}.mg-follow"),
           player.view_rules(False, f"{scope}:not(.mg-follow)"),
           f"{scope}{{{css_variables(player.step_variables(frames[step]))}}}",
           _bar_css(scope)]
    templates = "".join(
        '<template class="mg-step" '
        + " ".join(f'data-{name}="{value}"' for name, value in
                   player.step_variables(frame).items())
        + f">{player.caption_html(frame)}</template>" for frame in frames)
    classes = ["minigrad-page-player"]
    if player.side.index == 1:
        classes.append("mg-src")
    if player.follows and player.zoom.index == 0:
        classes.append("mg-follow")
    words = {key: text(lang, key) for key in ("play", "pause")}
    words["step_of"] = text(lang, "step_of", k="{k}", n=count)
    script = SCRIPT % {"id": json.dumps(ident), "words": json.dumps(words, ensure_ascii=False),
                       "interval": player.interval_ms}
    return (f'<div class="{" ".join(classes)}" id="{ident}" lang="{lang}" hidden>'
            f"<style>{''.join(css)}</style>"
            f"{_bar(player, count, step)}"
            f'<div class="mg-caption-box">{player.caption_html(frames[step])}</div>'
            f"{picture}{templates}"
            f'<p class="mg-still-note">{escape(text(lang, "run_to_play"))}</p>'
            f"<script>{script}</script></div>")


def css_variables(variables):
    """{"k": "3", "fx": "120px"} as CSS: "--k:3;--fx:120px"."""
    return ";".join(f"--{name}:{value}" for name, value in variables.items())


def _bar(player, count, step):
    """Play, Previous, Next, the step slider and its readout, speed, the two toggles."""
    lang = player.lang

    def button(css_class, label, shown=None, extra=""):
        return (f'<button type="button" class="{css_class}" title={quoteattr(label)}{extra}>'
                f"{escape(shown or label)}</button>")

    def switch(css_class, choices, pressed):
        """Two buttons, one pressed: each sets (data-on="1") or clears `css_class` on the
        player; `choices` is [(label, "1" or "0")], `pressed` the index of the pressed one."""
        return ('<span class="mg-switch" role="group">'
                + "".join(button("", label, extra=f' data-switch="{css_class}" data-on="{on}" '
                                 f'aria-pressed="{str(index == pressed).lower()}"')
                          for index, (label, on) in enumerate(choices)) + "</span>")

    speeds = "".join(f'<option value="{factor}"{" selected" if factor == 1.0 else ""}>'
                     f"{label}</option>" for label, factor in SPEEDS)
    parts = [button("mg-play", text(lang, "play"), "▶", ' aria-label="{}"'.format(
                 escape(text(lang, "play")))),
             button("mg-previous", text(lang, "previous"), "◀ " + text(lang, "previous")),
             button("mg-next", text(lang, "next"), text(lang, "next") + " ▶"),
             f'<input type="range" class="mg-slider" min="1" max="{count}" '
             f'value="{step + 1}" aria-label={quoteattr(text(lang, "step"))}>',
             f'<output class="mg-readout">{step + 1}</output>',
             f'<label class="mg-speed-label">{escape(text(lang, "speed"))} '
             f'<select class="mg-speed">{speeds}</select></label>',
             switch("mg-src", [(text(lang, "side_panel"), "0"), (text(lang, "side_source"), "1")],
                    player.side.index)]
    if player.follows:              # the widget's order: follow, then the whole graph
        parts.append(switch("mg-follow", [(text(lang, "view_follow"), "1"),
                                          (text(lang, "view_whole"), "0")], player.zoom.index))
    return f'<div class="mg-bar" hidden>{"".join(parts)}</div>'


def _where_it_shows():
    """Shown only in an output area with no live player (see the module's docstring); there
    the widget's own output, dead or still loading, is hidden: JupyterLab's has no
    data-mime-type (other outputs have one), nbconvert's names the widget's."""
    empty = ".jp-OutputArea:not(:has(.minigrad-player))"
    widget = (f"{empty}:has(.minigrad-page-player) > .jp-OutputArea-child:has(> "
              ".jp-OutputArea-output{})")
    return (f"{empty} .minigrad-page-player{{display:block!important;"
            f"animation:mg-appear {APPEAR_AFTER}s step-end both}}"
            "@keyframes mg-appear{0%{visibility:hidden}100%{visibility:visible}}"
            + ",".join(widget.format(which) for which in
                       (":not([data-mime-type])", f'[data-mime-type="{WIDGET_MIME}"]'))
            + "{display:none}")


def _bar_css(scope):
    return (f"{scope} .mg-bar{{display:flex;flex-wrap:wrap;align-items:center;gap:4px 6px;"
            "margin:2px 0 4px;font:13px var(--jp-ui-font-family, sans-serif)}"
            f"{scope} .mg-bar[hidden]{{display:none}}"
            f"{scope} .mg-bar button,{scope} .mg-bar select{{font:inherit;color:#1a1a1a;"
            "background:#eeeeee;border:1px solid #9e9e9e;border-radius:3px;padding:3px 10px;"
            "min-height:28px;cursor:pointer}"
            f"{scope} .mg-bar button:disabled{{opacity:.45;cursor:default}}"
            f"{scope} .mg-bar button[aria-pressed=true]{{background:#d6d6d6;border-color:#616161;"
            "font-weight:600}"
            f"{scope} .mg-switch{{display:inline-flex;gap:2px;margin-right:8px}}"
            f"{scope} .mg-slider{{width:220px;max-width:45vw}}"
            f"{scope} .mg-readout{{min-width:2em}}"
            f"{scope} .mg-still-note{{margin:4px 0;color:#424242;font-style:italic}}")

