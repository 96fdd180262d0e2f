"""The engine's own source beside the graph, with the line that made each step.

Every event says where it came from (`event.where`, minigrad/tracing.py): the
line of the engine loop (`run_backward`) or of `Function.apply` that emitted
it.  A frame shows the function its event came from, read from the source file
the engine runs (so the picture cannot drift from the code), with that line
highlighted.  A frame whose event has no `where` keeps the listing of the step
before it, with nothing highlighted.

Like the graph, the listing is drawn as pieces (`timeline.py`): each function
once, and one highlight per line, so the player and the animated SVG hold every
line of source once however many steps point into it.

DOM contract (the browser tests rely on it): each listing is a
`<g class="mg-listing" data-function="run_backward">`, each highlight a
`<g class="mg-line" data-line="61">` (the line number in its file).
"""
import inspect
import linecache
import pathlib
from xml.sax.saxutils import escape

from .frame_svg import CURRENT

CODE = 11                   # px: the size of the code
LINE = 15                   # px from one line to the next
CHAR = 0.61                 # a monospace character's width, in em
PAD, GUTTER = 8, 4          # px around the listing; digits of the line numbers
HEADER = 24                 # px: the file and function above the code
COMMENT, NUMBER = "#6a737d", "#9aa5b1"
ROOT = pathlib.Path(__file__).resolve().parents[2]     # the folder that holds minigrad/


def read_function(where):
    """The lines of the function `where` points into, as the file holds them now, and
    the number of the first: (first_line, [line, ...]), dedented to its body's level."""
    lines = linecache.getlines(where.file)
    if not lines:
        return where.first_line, []
    block = inspect.getblock(lines[where.first_line - 1:])
    block = [line.rstrip("\n").expandtabs() for line in block]
    indent = min((len(line) - len(line.lstrip()) for line in block if line.strip()),
                 default=0)
    return where.first_line, [line[indent:] for line in block]


def _split_comment(line):
    """(code, comment) at a `#` outside quotes (good enough for the engine's own code)."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#":
            return line[:index], line[index:]
    return line, ""


class SourceView:
    """The listings a story points into, and for each frame the line it highlights."""

    def __init__(self, story):
        self.located, last = [], None
        for frame in story:             # (where, whether this frame's own event says so)
            where = frame.where
            self.located.append((where or last, where is not None))
            last = where or last
        self.listings = {}              # (file, first_line) -> (function, first, lines)
        for where, _ in self.located:
            if where is not None and (where.file, where.first_line) not in self.listings:
                first, lines = read_function(where)
                self.listings[(where.file, where.first_line)] = (where.function, first, lines)
        longest = max([len(line) for _, _, lines in self.listings.values() for line in lines]
                      + [len(self._title(key)) - GUTTER - 1 for key in self.listings] + [20])
        self.width = round(2 * PAD + (GUTTER + 1 + longest) * CHAR * CODE)
        rows = max([len(lines) for _, _, lines in self.listings.values()] + [1])
        self.height = HEADER + rows * LINE + PAD

    def _title(self, key):
        """As minigrad.lessons.show_source heads a function: its file, lines and name."""
        function, first, lines = self.listings[key]
        path = pathlib.Path(key[0]).resolve()
        if path.is_relative_to(ROOT):
            path = path.relative_to(ROOT)
        return f"{path.as_posix()}, lines {first}–{first + len(lines) - 1}: {function}"

    def line_y(self, where):
        """The baseline of `where`'s line in its listing."""
        return HEADER + (where.line - where.first_line + 1) * LINE - 4

    def focus(self, frame):
        """The y to keep in view: the line this frame highlights (or the last one
        highlighted before it; the top when there was none)."""
        where, _ = self.located[frame.step]
        return 0 if where is None else self.line_y(where) - CODE / 3

    def pieces(self, frame):
        """The frame's listing and its highlighted line, as (key, svg) pieces: the
        highlight first, under the text."""
        where, own = self.located[frame.step]
        if where is None:
            return []
        key = (where.file, where.first_line)
        out = [((1,) + key, self._listing(key))]
        if own:
            y = self.line_y(where)
            out.insert(0, ((0, where.file, where.line), (
                f'<g class="mg-line" data-line="{where.line}" data-function="{where.function}">'
                f'<rect x="2" y="{y - LINE + 4:.0f}" width="{self.width - 4}" height="{LINE}" '
                f'rx="3" fill="{CURRENT[0]}" stroke="{CURRENT[1]}" stroke-width="1.5"/>'
                f'<text x="{PAD - 6}" y="{y:.0f}" font-size="{CODE}" fill="{CURRENT[1]}">'
                "▶</text></g>")))
        return out

    def _listing(self, key):
        function, first, lines = self.listings[key]
        out = [f'<g class="mg-listing" data-function="{escape(function)}" '
               f'font-size="{CODE}" style="white-space:pre">',
               f'<text x="{PAD}" y="{HEADER - 8}" font-weight="bold" fill="#1a1a1a">'
               f"{escape(self._title(key))}</text>"]
        for index, line in enumerate(lines):
            y = HEADER + (index + 1) * LINE - 4
            code, comment = _split_comment(line)
            grey = (f'<tspan fill="{COMMENT}">{escape(comment)}</tspan>' if comment else "")
            out.append(f'<text x="{PAD}" y="{y}" xml:space="preserve">'
                       f'<tspan fill="{NUMBER}">{first + index:>{GUTTER}} </tspan>'
                       f'<tspan fill="#1a1a1a">{escape(code)}</tspan>{grey}</text>')
        return "\n".join(out + ["</g>"])
