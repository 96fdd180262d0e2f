"""Trials: every exercise's second half, judged from a report where no student code runs.

A right answer's report passes for any seed; the stub's, a wrong answer's, another
seed's, a damaged one do not; and the package holds no reference solution to
compare against (or to import as an answer).
"""
import copy
import importlib
import inspect
import json
import pathlib
import re
import warnings

import numpy as np
import pytest
from exercise_answers import ANSWERS
from test_exercise_hints import WRONG
from test_exercise_review import RIGHT, WRONG as REVIEW_WRONG

import minigrad
from minigrad.autograd import Function
from minigrad.exercises import EXERCISES, _messages, judge_report, trial_report
from test_exercises import WEIRD, stub_for

SEEDS = range(5)
# What the trials leave to the checks: a right value kept in the wrong way
# (separate_gradients that keeps the graph alive uses memory, not wrong numbers).
LEFT_TO_THE_CHECKS = {("separate_gradients", "kept_the_graph")}


def module(exercise_id):
    return importlib.import_module(f"minigrad.exercises.{EXERCISES[exercise_id]['module']}")


def verdict(exercise_id, answer, seed, lang="en"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # some wrong answers warn, as PyTorch does
        report = trial_report(exercise_id, answer, seed, time_limit=5)
    return judge_report(exercise_id, report, seed, lang)


def test_every_exercise_has_a_trial():
    trials = {exercise_id for exercise_id in EXERCISES if exercise_id in module(exercise_id).TRIALS}
    assert trials == set(EXERCISES) == set(ANSWERS)


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_a_right_answer_passes_for_every_seed(exercise_id):
    for seed in SEEDS:
        result = verdict(exercise_id, ANSWERS[exercise_id], seed)
        assert result.passed, (seed, result)


@pytest.mark.parametrize("exercise_id, answer", RIGHT,
                         ids=[f"{e}-{getattr(a, '__name__', 'pair')}" for e, a in RIGHT])
def test_an_unusual_right_answer_passes_its_trial(exercise_id, answer):
    for seed in range(3):
        assert verdict(exercise_id, answer, seed).passed


@pytest.mark.parametrize("exercise_id, answer, key", WRONG + REVIEW_WRONG,
                         ids=[f"{e}-{k}" for e, _, k in WRONG + REVIEW_WRONG])
def test_a_wrong_answer_fails_its_trial_too(exercise_id, answer, key):
    """A check that was fooled into a pass is not enough: the trial sees the mistake."""
    if (exercise_id, key) in LEFT_TO_THE_CHECKS:
        pytest.skip("a right value kept in the wrong way: the check's to see")
    for seed in range(2):
        result = verdict(exercise_id, answer, seed)
        assert not result.passed and result.hint, (seed, result)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_the_stub_and_weird_answers_fail_with_a_hint_in_the_lessons_language(exercise_id, lang):
    for answer in [stub_for(exercise_id), *WEIRD]:
        result = verdict(exercise_id, answer, 3, lang)
        assert not result.passed and result.hint
        assert result.message.startswith(_messages.text("checked_again", lang))
        assert result.message.endswith(_messages.text(result.hint, lang, **result.params))


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_a_report_is_good_for_its_own_seed_only(exercise_id):
    """Inputs drawn at grading time: a report saved from another run does not pass."""
    report = trial_report(exercise_id, ANSWERS[exercise_id], 11)
    assert judge_report(exercise_id, report, 11).passed
    if exercise_id == "graph_edges":             # the lesson's own graph: nothing is drawn
        return
    assert all(not judge_report(exercise_id, report, seed).passed for seed in (12, 13))


def changed_reports(report):
    """The report with each one of its numbers, flags and names changed, one at a time."""
    def walk(value, path):
        if isinstance(value, dict):
            for key, item in value.items():
                yield from walk(item, path + [key])
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield from walk(item, path + [index])
        else:
            yield path, value
    for path, value in walk(report, []):
        if isinstance(value, bool):
            changed = not value
        elif isinstance(value, (int, float)):
            changed = value + 1.5
        elif isinstance(value, str):
            changed = value + "x"
        else:
            continue
        copied = copy.deepcopy(report)
        target = copied
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = changed
        yield path, copied


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_a_report_changed_anywhere_that_matters_does_not_pass(exercise_id):
    """Every number of a right report is part of what is judged: changing any value a
    right answer computed (a value, a gradient, an order) makes the report fail."""
    report = trial_report(exercise_id, ANSWERS[exercise_id], 5)
    changed = 0
    for path, altered in changed_reports(report):
        if {"values", "graphs", "edges"} & set(path):
            changed += 1
            assert not judge_report(exercise_id, altered, 5).passed, path
    flags_as_numbers = json.loads(json.dumps(report).replace("true", "1"))
    for damaged in ({}, [], None, "report", {"cases": []}, {"hint": {"key": "no_such_key"}},
                    *([flags_as_numbers] if flags_as_numbers != report else [])):
        result = judge_report(exercise_id, damaged, 5)
        assert not result.passed and result.hint, damaged
    assert changed


def test_the_package_holds_no_reference_solution():
    """No Function subclass, no answer to import: the checks compare with minigrad's
    built-in ops, the engine's trace and plain formulas."""
    with pytest.raises(ImportError):
        exec("from minigrad.exercises.functions import _Exp")      # noqa: S102
    folder = pathlib.Path(minigrad.__file__).parent / "exercises"
    for exercise_id in EXERCISES:
        found = module(exercise_id)
        assert not hasattr(found, "_REFERENCES")
        assert not [value for value in vars(found).values() if inspect.isclass(value)
                    and issubclass(value, Function) and value.__module__ == found.__name__]
    text = "\n".join(path.read_text(encoding="utf-8") for path in folder.glob("*.py"))
    for answer in ANSWERS.values():
        for part in answer if isinstance(answer, tuple) else (answer,):
            for line in inspect.getsource(part).splitlines():
                line = line.strip()
                if re.match(r"^(return |\w+ = |\(\w+,\) = ).{20,}", line):
                    assert line not in text, line


class PlatformInt32(np.ndarray):
    """An array whose argmax gives int32, as numpy's platform int is in the browser's 32-bit
    Pyodide."""

    def argmax(self, *args, **kwargs):
        return np.asarray(super().argmax(*args, **kwargs)).astype(np.int32)


def test_max_with_index_expects_pytorchs_int64_indices_where_numpys_int_is_int32(monkeypatch):
    from minigrad.exercises import ctx_flags
    draw = ctx_flags._MaxWithIndexTrial.draw

    def drawn_on_wasm32(seed):
        rng, values = draw(seed)
        return rng, values.view(PlatformInt32)

    monkeypatch.setattr(ctx_flags._MaxWithIndexTrial, "draw", staticmethod(drawn_on_wasm32))
    assert drawn_on_wasm32(0)[1].argmax(axis=1).dtype == np.int32
    for seed in SEEDS:
        result = verdict("max_with_index", ANSWERS["max_with_index"], seed)
        assert result.passed, (seed, result)
