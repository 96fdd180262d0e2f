"""Read the code, actively: after the code a lesson shows, a question about it, checked.

Each lesson's "Read the code" shows functions of minigrad (`show_source`), then asks
one question about them: predict what a line does, or make a small change in your own
code and observe.  `ask(question_id)` shows the question: in Jupyter with a choice for
each answer and a Check button (ipywidgets), elsewhere as text that says how to answer
with `answer(question_id, "b")`.  Every choice has its own explanation: a wrong one says
what that answer overlooked, the right one why it is right, in the lesson's language::

    >>> from minigrad.lessons.reading import answer
    >>> result = answer("04-no-input-requires-grad", "a", lang="en")
    >>> result.passed, result.message.startswith("Not quite")
    (False, True)
    >>> answer("04-no-input-requires-grad", "b", lang="zh").passed
    True

The questions themselves are data, one per lesson, in `questions.py`; the
tests run the code each one is about, in minigrad and in PyTorch, so that the
answer marked right stays right.
"""
import html

from .. import settings
from ..exercises._result import Result
from .questions import QUESTIONS, Choice, Question

__all__ = ["Choice", "Question", "ask", "answer", "QuestionView"]

WORDS = {
    "en": {"heading": "Question", "colon": ": ", "check": "Check", "how": 'Answer with answer("{id}", "a"), '
           '"b" ...', "right": "Right. ", "wrong": "Not quite. ", "choose": "Choose an answer "
           "first.", "unknown": "No choice {choice!r}: the choices are {labels}."},
    "zh": {"heading": "问题", "colon": "：", "check": "检查", "how": '用 answer("{id}", "a")、"b" …… 作答',
           "right": "答对了。", "wrong": "还不对。", "choose": "请先选一个答案。",
           "unknown": "没有选项 {choice!r}：可选的是 {labels}。"},
}


def _question(question_id):
    if question_id not in QUESTIONS:
        raise KeyError(f"no question {question_id!r}; the questions are: "
                       f"{', '.join(QUESTIONS)}")
    return QUESTIONS[question_id]


def answer(question_id, choice, lang=None):
    """Check `choice` ("a", "b", ...) for the question `question_id`; returns a Result
    (shown as ✓ or ✗ with the explanation of that choice)."""
    lang = settings.resolve_lang(lang)
    question = _question(question_id)
    words = WORDS[lang]
    labels = [label for label, _ in question.labelled(lang)]
    key = str(choice).strip().lower().rstrip(")")
    if key not in labels:
        message = words["unknown"].format(choice=choice, labels=", ".join(labels))
        return Result(question_id, "failed", message, "unknown_choice", {}, lang)
    picked = question.choices[labels.index(key)]
    why = picked.why_zh if lang == "zh" else picked.why_en
    why = why[:1].upper() + why[1:]           # a sentence of its own after "Right." 
    if picked.right:
        return Result(question_id, "passed", words["right"] + why, None, {}, lang)
    return Result(question_id, "failed", words["wrong"] + why, "wrong_choice", {}, lang)


class QuestionView:
    """What `ask` returns: the question as text and HTML; in Jupyter with ipywidgets, a
    radio button per choice, Check, and the feedback below them."""

    def __init__(self, question, lang):
        self.question, self.lang = question, lang

    def __repr__(self):
        words = WORDS[self.lang]
        lines = [words["heading"] + words["colon"] + self.question.text(self.lang)]
        lines += [f"  {label}) {text}" for label, text in self.question.labelled(self.lang)]
        lines.append(words["how"].format(id=self.question.id))
        return "\n".join(lines)

    def _repr_html_(self):
        items = "".join(f"<li><b>{label})</b> {_inline(text)}</li>"
                        for label, text in self.question.labelled(self.lang))
        how = html.escape(WORDS[self.lang]["how"].format(id=self.question.id))
        return (f'<div class="mg-question">{self._heading_html()}'
                f'<ul style="list-style: none; padding-left: 0.5em">{items}</ul>'
                f'<div style="color: #555">{how}</div></div>')

    def _heading_html(self):
        words = WORDS[self.lang]
        return (f'<div><b>{words["heading"]}{words["colon"].strip()}</b> '
                f'{_inline(self.question.text(self.lang))}</div>')

    def widget(self):
        """The question as ipywidgets: choices, Check, feedback (None without ipywidgets)."""
        try:
            import ipywidgets as widgets
        except ImportError:
            return None
        words = WORDS[self.lang]
        choices = widgets.RadioButtons(
            options=[(f"{label}) {text.replace('`', '')}", label) for label, text in
                     self.question.labelled(self.lang)],
            value=None, layout=widgets.Layout(width="auto"))
        button = widgets.Button(description=words["check"], button_style="primary")
        feedback = widgets.HTML()

        def on_check(_):
            if choices.value is None:
                feedback.value = html.escape(words["choose"])
            else:
                feedback.value = answer(self.question.id, choices.value, self.lang)._repr_html_()
        button.on_click(on_check)
        box = widgets.VBox([widgets.HTML(self._heading_html()), choices, button, feedback])
        box.add_class("mg-question")
        return box

    def _ipython_display_(self):
        from IPython.display import display
        box = self.widget()
        if box is None:
            display({"text/plain": repr(self), "text/html": self._repr_html_()}, raw=True)
        else:
            display(box)


def ask(question_id, lang=None):
    """Show the question `question_id` of a lesson's "Read the code" (see the module)."""
    return QuestionView(_question(question_id), settings.resolve_lang(lang))


def _inline(text):
    """Markdown's `code` spans as <code>, the rest escaped."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{part}</code>" if k % 2 else part for k, part in enumerate(parts))
