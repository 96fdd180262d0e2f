"""Read the code: a lesson shows the functions of minigrad that do what it taught.

The source is read from the running minigrad (`inspect.getsource`), so what a lesson
shows is always the code that ran in it.  Each piece is headed by its file and line
numbers, to open it beside the notebook::

    >>> from minigrad.autograd.engine import count_dependencies
    >>> from minigrad.lessons import show_source
    >>> shown = show_source(count_dependencies)
    >>> print(repr(shown).splitlines()[0])       # doctest: +ELLIPSIS
    minigrad/autograd/engine.py, lines ...: count_dependencies
    >>> "<pre" in shown._repr_html_()
    True

A notebook shows it syntax-highlighted: the colours are inline styles in the HTML
itself, with no stylesheet, so JupyterLab keeps them even in a notebook it does not
trust (stored outputs), and the lesson website, Colab and JupyterLite show the same
HTML.  A terminal, or anything that reads only text, gets the numbered lines.
"""
import html
import inspect
import pathlib

__all__ = ["show_source", "SourcePiece", "Source"]

PACKAGE_ROOT = pathlib.Path(__file__).resolve().parents[2]   # the folder that holds minigrad/
BACKGROUND = "#f7f7f7"        # light, in a light or a dark JupyterLab theme alike


class SourcePiece:
    """One function (or class) as its file holds it: `path` (minigrad/...), `first_line`,
    `lines` (the source, ending in newlines) and `qualname`."""

    def __init__(self, obj):
        function = inspect.unwrap(getattr(obj, "__func__", obj))     # classmethod, staticmethod
        lines, self.first_line = inspect.getsourcelines(function)
        self.lines = lines
        self.qualname = function.__qualname__
        path = pathlib.Path(inspect.getsourcefile(function)).resolve()
        try:
            self.path = path.relative_to(PACKAGE_ROOT).as_posix()
        except ValueError:                   # a function defined outside minigrad
            self.path = path.as_posix()

    @property
    def last_line(self):
        return self.first_line + len(self.lines) - 1

    def heading(self):
        return f"{self.path}, lines {self.first_line}–{self.last_line}: {self.qualname}"

    def text(self):
        """The heading, then each line with its number."""
        width = len(str(self.last_line))
        numbered = [f"{number:>{width}}  {line.rstrip()}"
                    for number, line in enumerate(self.lines, self.first_line)]
        return "\n".join([self.heading(), *numbered])

    def html(self):
        """The heading, then the highlighted lines with their numbers."""
        heading = (f'<div style="font-family: monospace; font-size: 0.9em; color: #555; '
                   f'margin: 0.8em 0 0.2em">{html.escape(self.heading())}</div>')
        return heading + _highlighted("".join(self.lines), self.first_line)


class Source:
    """What `show_source` returns: one or more `SourcePiece`s, shown one after the other."""

    def __init__(self, pieces):
        self.pieces = pieces

    def __repr__(self):
        return "\n\n".join(piece.text() for piece in self.pieces)

    def _repr_html_(self):
        return "\n".join(piece.html() for piece in self.pieces)


def show_source(*objects):
    """Show the source of functions, methods or classes of minigrad, as they are now.

    Args:
        objects: what to show, in order (`Function.apply`, `engine.run_backward` ...).

    Returns:
        a `Source` the notebook displays: the file, the line numbers and the code.
    """
    if not objects:
        raise TypeError("show_source() needs at least one function, method or class to show")
    return Source([SourcePiece(obj) for obj in objects])


def _highlighted(code, first_line):
    """HTML of `code` with its line numbers, coloured by Pygments with inline styles.
    (Only IPython asks for HTML, and IPython highlights with Pygments: it is there.)"""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer
    from pygments.styles.default import DefaultStyle

    class Style(DefaultStyle):
        line_number_color = "#616161"       # the numbers quieter than the code (5.7:1)

    box = (f"background: {BACKGROUND}; color: #1f1f1f; padding: 0.5em 0.8em; margin: 0; "
           "border-radius: 4px; overflow-x: auto; line-height: 1.35; font-size: 0.9em")
    formatter = HtmlFormatter(noclasses=True, nobackground=True, linenos="inline",
                              linenostart=first_line, style=Style, prestyles=box,
                              wrapcode=True)
    return highlight(code, PythonLexer(), formatter)
