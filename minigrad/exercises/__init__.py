"""Auto-checked exercises: `check(id, answer)` tests an answer's behaviour and diagnoses it.

The cell after each exercise in a lesson runs::

    from minigrad.exercises import check
    check("exp", Exp)

and shows ✓, or ✗ with a hint naming the mistake (forgot grad_output, wrong
number of gradients, a broadcast gradient not reduced...), in the lesson's
language.  Checks test behaviour, not source text: values, gradients against
the private reference solutions and finite differences, dtypes, what was
saved.  `check` stops an answer that runs too long, and never raises, but
under nbgrader's autograder or validator (which set NBGRADER_EXECUTION):
there an answer that does not pass raises `NotPassed`, so that its graded
cell fails and scores no points (docs/teaching.md, "Grading with nbgrader").
`progress()` shows, lesson by lesson, which exercises are passed.

Example::

    >>> import minigrad as torch
    >>> from minigrad.exercises import check
    >>> class Exp(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         y = x.exp()
    ...         ctx.save_for_backward(y)
    ...         return y
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         (y,) = ctx.saved_tensors
    ...         return y                   # forgot grad_output
    >>> result = check("exp", Exp, lang="en")
    >>> result.passed, result.hint
    (False, 'forgot_grad_output')
    >>> check("exp", Exp, lang="zh").message[:10]
    '输入 0 的梯度没有'
"""
import importlib
import os
from typing import NamedTuple

from .. import progress as progress_file
from .. import settings
from . import _isolation, _messages
from ._result import GradedResult, NotPassed, Result
from ._runner import TIME_LIMIT, TimeLimitExceeded, run_limited
from ._exceptions import hint_for_exception
from ._tools import Hint
from .overview import progress
from .registry import EXERCISES

__all__ = ["check", "progress", "Result", "NotPassed", "EXERCISES"]

GRADING = "NBGRADER_EXECUTION"    # set by nbgrader while it autogrades or validates


def check(exercise_id, answer, lang=None, *, time_limit=TIME_LIMIT):
    """Check `answer` for the exercise `exercise_id`; returns a Result.

    Raises NotPassed, with the Result's message, only where nbgrader grades the
    notebook (NBGRADER_EXECUTION is set) and the answer does not pass; a pass
    there is a GradedResult, which is not taken for a score.

    The answer runs in PyTorch's default autograd state, whatever the caller's
    (`with torch.no_grad(): check(...)` judges the same), and the caller's state
    comes back afterwards; what the answer changes in minigrad is put back, and
    its verdict refused (see _isolation.py).  A check inside an answer that is
    being checked ends when the outer check's time is up, and stops that answer.

    Args:
        exercise_id: one of `EXERCISES` (an unknown id gives a Result listing them).
        answer: what the exercise asks for (a Function class, a function, a hook pair).
        lang: "en" or "zh"; None uses minigrad.settings.lang (the lesson's language).
        time_limit: seconds the whole check may take before the answer is stopped.
    """
    try:
        lang = settings.resolve_lang(lang)
    except Exception:       # noqa: BLE001 — a typo in lang must not hide the feedback
        lang = "en"
    try:
        result = _check(exercise_id, answer, lang, time_limit)
    except Exception:       # noqa: BLE001 — a bug here must not crash the lesson
        result = Result(exercise_id, "failed", _messages.text("check_failed", lang),
                        "check_failed", {}, lang)
    if os.environ.get(GRADING):        # nbgrader scores the cell: an error, or full points
        if not result.passed:
            raise NotPassed(result)
        return GradedResult(**vars(result))
    return result


def _check(exercise_id, answer, lang, time_limit):
    if not isinstance(exercise_id, str) or exercise_id not in EXERCISES:
        known = ", ".join(EXERCISES)
        params = {"id": repr(exercise_id), "known": known}
        return Result(exercise_id, "unknown_exercise",
                      _messages.text("unknown_exercise", lang, **params), None, params, lang)
    module = importlib.import_module(f"{__name__}.{EXERCISES[exercise_id]['module']}")
    checker = module.CHECKS[exercise_id]
    with _isolation.default_state() as changed:
        outcome = run_limited(lambda: _verdict(checker, answer, lang), time_limit)
    if changed:
        names = list(dict.fromkeys(changed))
        listed = ", ".join(f"`{name}`" for name in names[:5]) + (", ..." if len(names) > 5 else "")
        verdict = _Verdict.of("failed", Hint("changed_state", changed=listed), lang)
    elif outcome.timed_out:
        verdict = _Verdict.of("failed", Hint("timeout", seconds=f"{time_limit:g}"), lang)
    elif outcome.error is not None:        # the check itself failed, not the answer
        verdict = _Verdict.of("failed", Hint("check_failed"), lang)
    else:
        verdict = outcome.value
    notes = [(note, {}) for note in verdict.notes]
    if outcome.unlimited and not _said["no_time_limit"]:
        _said["no_time_limit"] = True
        notes.append(("no_time_limit", {}))
    if verdict.status != "not_solved":     # an untouched stub is no attempt
        backup = progress_file.record(exercise_id, verdict.status == "passed")
        if backup is not None:
            notes.append(("progress_damaged", {"file": progress_file.FILENAME,
                                               "backup": backup.name}))
    message = "\n\n".join([verdict.message] + [_messages.text(key, lang, **params)
                                              for key, params in notes])
    return Result(exercise_id, verdict.status, message, verdict.hint, verdict.params, lang,
                  [key for key, _ in notes])


_said = {"no_time_limit": False}      # what a kernel is told once


class _Verdict(NamedTuple):
    """A check's outcome in words: made inside the time limit, since printing what the
    answer raised or returned runs the answer's code (a `__str__` may loop or raise)."""
    status: str
    message: str
    hint: str = None
    params: dict = None
    notes: tuple = ()

    @classmethod
    def of(cls, status, hint, lang, notes=()):
        if hint is None:
            return cls(status, _messages.text(status, lang), notes=tuple(notes))
        params = {name: _plain(value) for name, value in hint.params.items()}
        return cls(status, _messages.text(hint.key, lang, **params), hint.key, params)


def _verdict(checker, answer, lang):
    try:
        notes = tuple(checker(answer) or ())      # a right answer may get notes
    except Hint as hint:
        return _Verdict.of("failed", hint, lang)
    except NotImplementedError:
        return _Verdict.of("not_solved", None, lang)
    except TimeLimitExceeded:
        raise
    except BaseException as error:        # noqa: BLE001 — the answer may raise anything
        return _Verdict.of("failed", hint_for_exception(error), lang)
    return _Verdict.of("passed", None, lang, notes)


def _plain(value):
    """A hint's value as a plain int, float, str or list of them: safe to print later."""
    if type(value) in (int, float, str, bool):
        return value
    if type(value) in (list, tuple) and all(type(item) in (int, float, str) for item in value):
        return list(value)
    return str.__str__(str(value))

