"""Result: what `check` returns, shown as text in Python and as a coloured box in Jupyter;
GradedResult and NotPassed: what it returns and raises while nbgrader grades."""
import html
import re

_MARKS = {"passed": "✓", "failed": "✗", "not_solved": "○", "unknown_exercise": "?"}
_COLOURS = {      # border, background
    "passed": ("#2e7d32", "#e8f5e9"), "failed": ("#c62828", "#ffebee"),
    "not_solved": ("#9e9e9e", "#f5f5f5"), "unknown_exercise": ("#ef6c00", "#fff3e0")}


class Result:
    """The outcome of one check.

    Attributes:
        exercise_id: the id checked.
        status: "passed", "failed", "not_solved" or "unknown_exercise".
        passed: True only for "passed" (a Result is also truthy exactly then).
        message: the feedback, in the notebook's language.
        hint: the key of the diagnosed mistake (e.g. "forgot_grad_output"), else None.
        params: the values the hint's text names.
        lang: "en" or "zh".
        notes: the keys of what the message adds after the verdict (e.g. "exp_saved_input":
            right, but not what the lesson asks for), in order.
    """

    def __init__(self, exercise_id, status, message, hint=None, params=None, lang="en",
                 notes=()):
        self.exercise_id, self.status, self.message = exercise_id, status, message
        self.hint, self.params, self.lang = hint, dict(params or {}), lang
        self.notes = tuple(notes)

    @property
    def passed(self):
        return self.status == "passed"

    def __bool__(self):
        return self.passed

    def __repr__(self):
        return f"{_MARKS[self.status]} {self.exercise_id}: {self.message}"

    def _repr_html_(self):
        border, background = _COLOURS[self.status]
        return (
            f'<div style="border-left: 6px solid {border}; background: {background}; '
            f'padding: 0.5em 0.8em; margin: 0.3em 0; border-radius: 4px; color: #212121;">'
            f'<span style="color: {border}; font-weight: bold; font-size: 1.2em;">'
            f'{_MARKS[self.status]}</span> <code>{html.escape(str(self.exercise_id))}</code> '
            f'{_as_html(self.message)}</div>')


def _as_html(message):
    """The message escaped, its `code` shown as <code> (as Markdown shows it), its line
    breaks kept."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(message)).replace("\n", "<br>")


class GradedResult(Result):
    """A passed Result while nbgrader grades: shown next to the cell's value, not as it,
    since nbgrader reads a graded cell's value as a number of points."""

    def _ipython_display_(self):
        from IPython.display import display
        display({"text/plain": repr(self), "text/html": self._repr_html_()}, raw=True)


class NotPassed(AssertionError):
    """An answer that does not pass, raised by `check` only while nbgrader grades, so its
    graded cell fails like a failed assert; the message is the check's feedback."""

    def __init__(self, result):
        super().__init__(repr(result))
        self.result = result
