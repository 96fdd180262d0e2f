"""The source beside the graph, with the line that made each step.

Every event says where it came from (`event.where`, minigrad/tracing/): the
line of the engine loop (`run_backward`) or of `Function.apply` that emitted
it.  A frame shows the function its event came from, read from the source file
that runs (so the picture cannot drift from the code), with the line that did
what the caption says highlighted:

- in forward, "X is created" shows the student's own code (the notebook cell,
  or their function) and the line that used the op and so created X: the event's
  `caller`.  Every node is made by the same line of Function.apply, which told
  nothing;
- the engine narrates a step just after doing it (`seams.recorder.node_started(...)`
  under the line that took the node off the ready queue), so a highlight never
  rests on a narration call: it moves to the line that did the step (DID_IT),
  found by its text in the function as it is now.

A frame whose event has no `where` keeps the listing of the step before it, with
nothing highlighted.  Lines longer than WRAP characters continue on the next row,
under their own indentation, so the whole line is read without scrolling.

Like the graph, the listing is drawn as pieces (`timeline.py`): each function
once, and one highlight per line, so the player and the animated SVG hold every
line of source once however many steps point into it.

DOM contract (the browser tests rely on it): each listing is a
`<g class="mg-listing" data-function="run_backward">`, each highlight a
`<g class="mg-line" data-line="61">` (the line number in its file); a listing
of the student's code has `data-function="<module>"` (a cell) or their
function's name.
"""
import inspect
import linecache
import pathlib
import re
from xml.sax.saxutils import escape

from .frame_svg import CURRENT
from .settings import text

CODE = 11                   # px: the size of the code
LINE = 15                   # px from one row to the next
CHAR = 0.61                 # a monospace character's width, in em
PAD, GUTTER = 8, 4          # px around the listing; digits of the line numbers
HEADER = 24                 # px: the file and function above the code
WRAP = 60                   # characters of code per row: a laptop notebook's source pane
MODULE_ROWS = 40            # a module longer than this shows this many lines around the line
COMMENT, NUMBER = "#6a737d", "#6e7781"
ROOT = pathlib.Path(__file__).resolve().parents[2]     # the folder that holds minigrad/
NOTEBOOK_CELL = re.compile(r"(ipykernel_\d+[/\\]\d+\.py|<ipython-input-[\w-]+>)$")

# The line that did what a step says, for the steps the engine narrates right after
# doing them: the nearest line above the narration call that holds this text.
DID_IT = {
    "backward_started": "count_dependencies(",   # the dependency counts the caption gives
    "node_started": "heappop(",                   # the node leaves the ready queue
    "node_finished": ".apply(",                   # its backward ran, the gradients out
    "backward_finished": "while ready",           # the queue is empty: the loop ends
}


def listing_start(where):
    """The first line of the listing `where` is shown in: its function's first line;
    for module-level code (a notebook cell), 1, or MODULE_ROWS // 2 lines above
    `where.line` in a file longer than MODULE_ROWS."""
    if where.function != "<module>":
        return where.first_line
    if len(linecache.getlines(where.file)) <= MODULE_ROWS:
        return 1
    return max(1, where.line - MODULE_ROWS // 2)


def read_function(where):
    """The lines of the function `where` points into, as the file holds them now, and
    the number of the first: (first_line, [line, ...]), dedented to its body's level.
    Module-level code is the whole cell, or MODULE_ROWS lines of a longer file."""
    lines = linecache.getlines(where.file)
    if not lines:
        return where.first_line, []
    first = listing_start(where)
    if where.function == "<module>":
        block = lines[first - 1:first - 1 + MODULE_ROWS]
    else:
        block = inspect.getblock(lines[first - 1:])
    block = [line.rstrip("\n").expandtabs() for line in block]
    while block and not block[-1].strip():
        block.pop()
    indent = min((len(line) - len(line.lstrip()) for line in block if line.strip()),
                 default=0)
    return first, [line[indent:] for line in block]


def _comment_start(line):
    """Where a `#` outside quotes starts a comment (good enough for the engine's code),
    or len(line)."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#":
            return index
    return len(line)


def wrap_code(line, width=WRAP):
    """A line as rows of at most `width` characters: [(start, end)] slices of the line,
    cut before its comment, else at a space where there is one; the rows after the first
    are shown indented four more than the line (at most a third of the row: a deeply
    indented continuation line keeps room for its words)."""
    indent = min(len(line) - len(line.lstrip()) + 4, width // 3)
    comment = _comment_start(line)
    rows, start = [], 0
    while len(line) - start > (width if not rows else width - indent):
        room = width if not rows else width - indent
        cut = line.rfind(" ", start + 1, start + room + 1)
        if start < comment <= start + room and line[start:comment].strip():
            cut = comment
        elif cut <= start + room // 2:
            cut = start + room
        rows.append((start, len(line[:cut].rstrip())))
        start = cut + (line[cut:cut + 1] == " ")
    rows.append((start, len(line)))
    return rows, indent


# how the core's narration reads: a call on the recorder, behind a check that one listens
NARRATION, NARRATION_GUARD = "seams.recorder.", "if seams.recorder"


def shown_where(frame, lines_of, callers=True):
    """Where frame k's highlight goes (see the module's docstring), or None.

    `lines_of(where)` gives (first line, lines) of the function `where` points into;
    `callers=False` (the view "apply", whose steps are Function.apply's own) keeps a
    node_created frame on apply's line rather than the caller's."""
    event, where = frame.event, frame.where
    caller = event.get("caller") if event.kind == "node_created" and callers else None
    if caller is not None and lines_of(caller)[1]:
        return caller
    if where is None:
        return None
    first, lines = lines_of(where)
    here = where.line - first
    if not 0 <= here < len(lines) or not lines[here].lstrip().startswith(NARRATION):
        return where
    wanted = DID_IT.get(event.kind)
    for index in range(here - 1, -1, -1):
        code = lines[index].strip()
        if (wanted in code if wanted else code and not code.startswith(("#", NARRATION_GUARD))):
            return where._replace(line=first + index)
    return where


class SourceView:
    """The listings a story points into, and for each frame the line it highlights."""

    def __init__(self, story, lang="en", callers=True):
        self.lang, read = lang, {}

        def lines_of(where):
            if self.key(where) not in read:
                read[self.key(where)] = read_function(where)
            return read[self.key(where)]

        self.located, last = [], None
        for frame in story:             # (where, whether this frame's own event says so)
            where = shown_where(frame, lines_of, callers)
            self.located.append((where or last, where is not None))
            last = where or last
        self.listings, self.rows = {}, {}   # key -> (function, first, lines); wrapped rows
        for where, _ in self.located:
            if where is not None and self.key(where) not in self.listings:
                first, lines = lines_of(where)
                self.listings[self.key(where)] = (where.function, first, lines)
                self.rows[self.key(where)] = self._wrapped(lines)
        longest = max([WRAP] + [len(self._title(key)) - GUTTER - 1 for key in self.listings])
        self.width = round(2 * PAD + (GUTTER + 1 + longest) * CHAR * CODE)
        rows = max([len(rows) for rows in self.rows.values()] + [1])
        self.height = HEADER + rows * LINE + PAD

    @staticmethod
    def key(where):
        """A listing's key: (file, first line, function)."""
        return (where.file, listing_start(where), where.function)

    @staticmethod
    def _wrapped(lines):
        """[(index of the line, start, end, indent of a continued row)], one per row."""
        rows = []
        for index, line in enumerate(lines):
            cuts, indent = wrap_code(line)
            rows += [(index, start, end, indent if k else 0) for k, (start, end) in
                     enumerate(cuts)]
        return rows

    def _title(self, key):
        """As minigrad.lessons.show_source heads a function: its file, lines and name; a
        notebook cell is "your code"."""
        function, first, lines = self.listings[key]
        last = first + len(lines) - 1
        if NOTEBOOK_CELL.search(key[0]):
            return text(self.lang, "source_cell", first=first, last=last)
        path = pathlib.Path(key[0]).resolve()
        if path.is_relative_to(ROOT):
            path = path.relative_to(ROOT)
        return f"{path.as_posix()}, lines {first}–{last}: {function}"

    def _row_span(self, where):
        """(first row, number of rows) of `where`'s line in its listing."""
        _, first, _ = self.listings[self.key(where)]
        rows = [k for k, row in enumerate(self.rows[self.key(where)])
                if row[0] == where.line - first]
        return (rows[0], len(rows)) if rows else (0, 1)

    def line_y(self, where):
        """The baseline of `where`'s line (its first row) in its listing."""
        return HEADER + (self._row_span(where)[0] + 1) * LINE - 4

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
        key = self.key(where)
        out = [((1,) + tuple(map(str, key)), self._listing(key))]
        if own:
            y, height = self.line_y(where), self._row_span(where)[1] * LINE
            out.insert(0, ((0, where.file, str(where.first_line), where.line), (
                f'<g class="mg-line" data-line="{where.line}" '
                f'data-function="{escape(where.function)}">'
                f'<rect x="2" y="{y - LINE + 4:.0f}" width="{self.width - 4}" height="{height}" '
                f'rx="3" fill="{CURRENT[0]}" stroke="{CURRENT[1]}" stroke-width="1.5"/>'
                f'<text x="{PAD - 6}" y="{y:.0f}" font-size="{CODE}" fill="{CURRENT[2]}">'
                "▶</text></g>")))
        return out

    def _listing(self, key):
        function, first, lines = self.listings[key]
        out = [f'<g class="mg-listing" data-function="{escape(function)}" '
               f'font-size="{CODE}" style="white-space:pre">',
               f'<text x="{PAD}" y="{HEADER - 8}" font-weight="bold" fill="#1a1a1a">'
               f"{escape(self._title(key))}</text>"]
        for row, (index, start, end, indent) in enumerate(self.rows[key]):
            y = HEADER + (row + 1) * LINE - 4
            line = lines[index]
            split = max(start, min(end, _comment_start(line)))
            code, comment = line[start:split], line[split:end]
            number = f"{first + index:>{GUTTER}}" if not indent else " " * GUTTER
            grey = (f'<tspan fill="{COMMENT}">{escape(comment)}</tspan>' if comment else "")
            out.append(f'<text x="{PAD}" y="{y}" xml:space="preserve">'
                       f'<tspan fill="{NUMBER}">{number} </tspan>'
                       f'<tspan fill="#1a1a1a">{" " * indent}{escape(code)}</tspan>{grey}</text>')
        return "\n".join(out + ["</g>"])
