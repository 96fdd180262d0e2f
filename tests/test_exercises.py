"""minigrad.exercises: right answers pass, stubs are 'not solved', check never raises or hangs.

The diagnoses of wrong answers (at least three per exercise) are in
test_exercise_hints.py.
"""
import contextlib
import importlib
import inspect
import pathlib
import re
import string
import threading
import time

import numpy as np
import pytest
from exercise_answers import ANSWERS

import minigrad as torch
import worked_solutions
from minigrad import settings
from minigrad.autograd import Function
from minigrad.autograd.graph import AccumulateGrad
from minigrad.exercises import EXERCISES, NotPassed, Result, _exceptions, _messages, _tools, check

SOURCES = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "sources"
CONTRACT = {      # the ids of the lesson/exercise contract, by lesson
    "01-tensors-and-the-graph": ("graph_edges", "jacobian"),
    "03-backward-order": ("topo_order", "count_dependencies", "backpropagate"),
    "04-custom-functions": ("exp", "sigmoid", "relu", "mul_constant", "add_broadcast",
                            "batched_matmul"),
    "05-saving-tensors": ("seed_func", "tanh_saves_output"),
    "06-inplace-and-versions": ("inplace_relu",),
    "07-ctx-flags": ("matmul", "max_with_index", "polar"),
    "08-hooks": ("clip_grad_hook", "pack_float16"),
    "10-retain-graph-and-debugging": ("separate_gradients",),
    "12-higher-order": ("second_derivative", "cube_double_backward"),
    "15-gpu": ("offload_to_cpu",),
    "16-capstone": ("linear",),
    "14-forward-mode": ("mul_jvp", "normalize_both_modes"),
    "02-out-of-the-graph": ("straight_through", "newton_sqrt", "finetune_head"),
    "09-memory": ("saved_bytes", "checkpoint"),
    "11-bug-hunts": ("logsumexp", "pairwise_distances", "fix_inplace"),
    "13-double-backward": ("hvp", "softplus_double_backward", "sin_backward_function"),
}
FUNCTION_ANSWERS = ("topo_order", "count_dependencies", "clip_grad_hook", "second_derivative",
                    "graph_edges", "separate_gradients", "jacobian", "backpropagate",
                    "straight_through", "newton_sqrt", "finetune_head", "saved_bytes",
                    "pairwise_distances", "fix_inplace", "hvp")
HOOK_PAIRS = ("pack_float16", "offload_to_cpu")
SETUP_CONTEXT = ("polar", "normalize_both_modes")     # forward(*inputs) and setup_context


def reference(exercise_id):
    """A right answer (the package holds none: tests/exercise_answers.py)."""
    return ANSWERS[exercise_id]


def stub_for(exercise_id):
    """What a student notebook holds before the exercise is solved."""
    def unsolved(*args):
        # YOUR CODE HERE
        raise NotImplementedError()
    if exercise_id in HOOK_PAIRS:
        return (unsolved, unsolved)
    if exercise_id in FUNCTION_ANSWERS:
        return unsolved
    methods = {"forward": staticmethod(unsolved), "backward": staticmethod(unsolved)}
    if exercise_id in SETUP_CONTEXT:
        methods["setup_context"] = staticmethod(unsolved)
    return type("Unsolved", (Function,), methods)


@pytest.fixture(autouse=True)
def no_progress_file(tmp_path, monkeypatch):
    """Progress goes to a temporary workspace, never into the checkout."""
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(tmp_path))
    monkeypatch.setattr(settings, "lang", None)
    monkeypatch.delenv("MINIGRAD_LANG", raising=False)


def test_the_exercise_ids_are_the_contracts():
    assert len(EXERCISES) >= 15
    assert {lesson: tuple(i for i in EXERCISES if EXERCISES[i]["lesson"] == lesson)
            for lesson in CONTRACT} == CONTRACT
    for entry in EXERCISES.values():
        assert entry["en"] and re.search(r"[\u4e00-\u9fff]", entry["zh"])


def test_the_lessons_metadata_names_the_same_exercises():
    lessons = pytest.importorskip("minigrad.lessons")
    for lesson in lessons.LESSONS:
        for exercise_id in lesson.exercises:
            assert EXERCISES[exercise_id]["lesson"] == lesson.slug


def lesson_cells(lesson):
    """The code cells of a lesson's source, as text."""
    source = (SOURCES / f"{lesson}.py").read_text(encoding="utf-8")
    return [cell for cell in re.split(r"^# %%.*$", source, flags=re.M)
            if cell.strip() and not cell.lstrip().startswith("# ")]


@pytest.mark.parametrize("exercise_id", list(worked_solutions.SOLUTIONS))
def test_a_worked_solution_kept_for_the_tests_is_its_lessons(exercise_id):
    """Line for line: the solution blocks of the last exercise cell before the check, and the
    rest of that cell (the class and def lines the student is given)."""
    cells = lesson_cells(EXERCISES[exercise_id]["lesson"])
    checked = next(i for i, cell in enumerate(cells) if f'check("{exercise_id}"' in cell)
    cell = next(cell for cell in reversed(cells[:checked]) if "### BEGIN SOLUTION" in cell)
    blocks = re.findall(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", cell, re.S)
    solution_lines = {line.strip() for block in blocks for line in block.splitlines()} - {""}
    answer = worked_solutions.SOLUTIONS[exercise_id]
    worked = set()
    parts = (answer if isinstance(answer, tuple) else (answer,))
    for part in parts + worked_solutions.HELPERS.get(exercise_id, ()):
        worked |= {line.strip() for line in inspect.getsource(part).splitlines()} - {""}
    given = {line.strip() for line in cell.splitlines()} - {""}
    assert solution_lines and solution_lines <= worked, solution_lines - worked
    assert worked <= given, worked - given


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_the_reference_solution_passes(exercise_id, lang):
    result = check(exercise_id, reference(exercise_id), lang=lang)
    assert result.passed and bool(result), result
    assert result.hint is None and result.status == "passed"
    assert result.message == _messages.text("passed", lang)
    assert repr(result).startswith(f"✓ {exercise_id}: ")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_an_unsolved_stub_is_not_solved_yet(exercise_id, lang):
    result = check(exercise_id, stub_for(exercise_id), lang=lang)
    assert not result.passed and result.status == "not_solved" and result.hint is None
    assert result.message == _messages.text("not_solved", lang)
    assert ("还没有完成" in result.message) == (lang == "zh")
    assert "✗" not in repr(result)


WEIRD = [None, 42, "exp", lambda x: x, int, type("NotAFunction", (), {}), Function,
         (1, 2, 3), np.zeros(3), torch.ones(2)]


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_check_never_raises_for_weird_answers(exercise_id):
    for answer in WEIRD:
        result = check(exercise_id, answer, time_limit=2)
        assert isinstance(result, Result) and not result.passed, (answer, result)
        assert result.status == "failed" and result.hint, (answer, result)
        assert result.message == _messages.text(result.hint, "en", **result.params)


def function_class(forward, backward=None):
    def default_backward(ctx, grad_output):
        return grad_output
    return type("Answer", (Function,), {"forward": staticmethod(forward),
                                        "backward": staticmethod(backward or default_backward)})


def test_an_answer_that_raises_gets_feedback():
    def forward(ctx, x):
        raise ValueError("something odd")
    result = check("exp", function_class(forward))
    assert result.hint == "raised" and "ValueError: something odd" in result.message
    zh = check("exp", function_class(forward), lang="zh")
    assert zh.hint == "raised" and "抛出了异常" in zh.message


def test_an_answer_that_loops_is_stopped_within_the_time_limit():
    def forward(ctx, x):
        while True:
            pass
    start = time.perf_counter()
    result = check("sigmoid", function_class(forward), time_limit=1)
    assert time.perf_counter() - start < 3
    assert result.hint == "timeout" and "longer than 1 s" in result.message
    zh = check("sigmoid", function_class(forward), lang="zh", time_limit=0.5)
    assert zh.hint == "timeout" and "0.5 秒" in zh.message


def test_a_stopped_answer_leaves_no_switch_of_minigrad_behind():
    """An answer may switch things on and never off, and the time limit may stop it
    anywhere: after the check, grad mode, anomaly mode, saved-tensor hooks, forward AD
    and numpy's error state are as they were before it."""
    from minigrad import backend
    from minigrad.core import hooks
    from minigrad.core.grad_mode import state as modes
    from minigrad.surface import anomaly, forward_ad

    def forward(ctx, x):
        torch.autograd.set_detect_anomaly(True)
        torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
        forward_ad.enter_dual_level()
        torch.set_grad_enabled(False)
        while True:
            pass
    numpy_state = backend.numpy_errors.get()
    result = check("sigmoid", function_class(forward), time_limit=0.5)
    assert result.hint == "timeout"
    assert (modes.enabled, modes.inference, modes.in_forward) == (True, False, False)
    assert not anomaly._state["enabled"] and forward_ad._state["level"] is None
    assert hooks.saved_tensors_hooks_stack == []
    assert backend.numpy_errors.get() is numpy_state
    x = torch.tensor([1.0], requires_grad=True)
    assert (x * 2).requires_grad                    # the student's kernel records again


def test_a_loop_swallowing_exceptions_is_stopped_too():
    def forward(ctx, x):
        while True:
            try:
                sum(range(1000))
            except Exception:        # the time limit is a BaseException: not caught here
                pass
    result = check("relu", function_class(forward), time_limit=0.5)
    assert result.hint == "timeout"


def test_a_loop_is_stopped_off_the_main_thread():
    def topo_order(output):
        while True:
            pass
    box = {}
    worker = threading.Thread(target=lambda: box.update(result=check("topo_order", topo_order,
                                                                     time_limit=0.5)))
    start = time.perf_counter()
    worker.start()
    worker.join(10)
    assert time.perf_counter() - start < 5 and box["result"].hint == "timeout"


def test_garbage_results_get_feedback():
    result = check("exp", function_class(lambda ctx, x: "garbage"))
    assert result.hint == "not_a_tensor" and "str" in result.message
    backward_garbage = function_class(lambda ctx, x: x.exp(), lambda ctx, g: "garbage")
    assert check("exp", backward_garbage).hint == "not_a_tensor"
    assert check("topo_order", lambda output: 42).hint == "not_a_list"
    assert check("count_dependencies", lambda output: [output]).hint == "not_a_dict"


def test_an_unknown_id_lists_the_known_ones():
    for exercise_id in ("nope", None, 3, ["exp"]):
        result = check(exercise_id, lambda x: x)
        assert result.status == "unknown_exercise" and not result.passed
        assert all(known in result.message for known in EXERCISES)
    assert "没有名为" in check("nope", None, lang="zh").message


@pytest.mark.parametrize("typed, meant", [("Exp", "exp"), ("sigmod", "sigmoid"),
                                          ("topo-order", "topo_order"), ("Linear ", "linear")])
def test_a_near_miss_of_an_id_is_suggested(typed, meant):
    result = check(typed, lambda x: x)
    assert result.status == "unknown_exercise" and result.params["close"] == meant
    assert f"Did you mean {meant}?" in result.message
    said = check(typed, lambda x: x, lang="zh").message
    assert f"你是不是想写 {meant}？" in said and "、".join(EXERCISES) in said
    assert "close" not in check("nope", lambda x: x).params


def test_the_language_comes_from_settings_and_a_bad_one_falls_back(monkeypatch):
    monkeypatch.setattr(settings, "lang", "zh")
    assert "还没有完成" in check("exp", stub_for("exp")).message
    assert "Not solved" in check("exp", stub_for("exp"), lang="en").message
    monkeypatch.setattr(settings, "lang", None)
    monkeypatch.setenv("MINIGRAD_LANG", "zh_CN.UTF-8")
    assert check("exp", stub_for("exp")).lang == "zh"
    result = check("exp", reference("exp"), lang="klingon")
    assert result.passed and result.lang == "en"


def test_each_check_records_progress_but_an_untouched_stub_is_no_attempt(tmp_path):
    from minigrad import progress
    check("exp", reference("exp"))
    check("relu", stub_for("relu"))
    check("relu", function_class(lambda ctx, x: x * 0))
    check("unknown-id", None)
    for exercise_id in EXERCISES:                    # "Run all cells" of untouched lessons
        check(exercise_id, stub_for(exercise_id))
    entries = progress.load(tmp_path)
    assert entries["exp"]["passed"] is True and entries["exp"]["attempts"] == 1
    assert entries["relu"]["passed"] is False and entries["relu"]["attempts"] == 1
    assert set(entries) == {"exp", "relu"}


def test_results_show_as_text_and_as_html():
    failed = check("exp", function_class(lambda ctx, x: x.exp(), lambda ctx, g: g * 0 + 1))
    assert repr(failed).startswith("✗ exp: ") and not failed
    html = failed._repr_html_()
    assert "✗" in html and "#c62828" in html and "<code>exp</code>" in html
    passed = check("exp", reference("exp"))
    assert "✓" in passed._repr_html_() and "#2e7d32" in passed._repr_html_()
    odd = Result("<b>", "failed", "a < b & c", hint="raised")
    assert "&lt;b&gt;" in odd._repr_html_() and "a &lt; b &amp; c" in odd._repr_html_()



@pytest.mark.parametrize("stage", ["autograde", "validate"])
def test_where_nbgrader_grades_an_answer_that_does_not_pass_fails_its_cell(monkeypatch, stage):
    """nbgrader scores a graded cell by whether it raises: check() raises there (only there),
    with its feedback as the message, which nbgrader shows the student."""
    wrong = function_class(lambda ctx, x: x.exp(), lambda ctx, g: g * 0 + 1)
    assert not check("exp", wrong) and not check("exp", stub_for("exp"))
    monkeypatch.setenv("NBGRADER_EXECUTION", stage)
    assert check("exp", reference("exp")).passed
    with pytest.raises(NotPassed, match="^✗ exp: ") as failed:
        check("exp", wrong, lang="en")
    assert failed.value.result.hint and isinstance(failed.value, AssertionError)
    with pytest.raises(NotPassed, match="^○ exp: "):
        check("exp", stub_for("exp"))
    with pytest.raises(NotPassed, match="还没有完成"):
        check("exp", stub_for("exp"), lang="zh")
    with pytest.raises(NotPassed):
        check("no-such-exercise", None)

def all_tables():
    tables = {"_messages.COMMON": _messages.COMMON}
    for name in _messages.TOPICS:
        tables[name] = importlib.import_module(f"minigrad.exercises.{name}").MESSAGES
    return tables


def placeholders(text):
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_every_message_exists_in_both_languages_with_the_same_placeholders():
    seen = {}
    for table_name, table in all_tables().items():
        for key, entry in table.items():
            assert key not in seen, f"{key} defined in {seen.get(key)} and {table_name}"
            seen[key] = table_name
            assert set(entry) == {"en", "zh"}, key
            assert entry["en"].strip() and entry["zh"].strip(), key
            assert placeholders(entry["en"]) == placeholders(entry["zh"]), key
            assert re.search(r"[\u4e00-\u9fff]", entry["zh"]), key
            assert not re.search(r"[\u4e00-\u9fff]", entry["en"]), key
            params = {name: "X" for name in placeholders(entry["en"])}
            for lang in ("en", "zh"):
                assert _messages.text(key, lang, **params)


def solution_lines():
    """The computing lines of every reference solution (assignments and returns)."""
    lines = set()
    for exercise_id in EXERCISES:
        answer = reference(exercise_id)
        for part in answer if isinstance(answer, tuple) else (answer,):
            for line in inspect.getsource(part).splitlines():
                line = line.strip()
                computes = line.startswith("return ") or re.match(r"^[\w., ]+ = ", line)
                if computes and len(line) > 10:
                    lines.add(line)
    return lines


def test_hints_never_contain_the_reference_solutions_code():
    lines = solution_lines()
    assert len(lines) > 30
    for table in all_tables().values():
        for entry in table.values():
            for text in entry.values():
                leaked = [line for line in lines if line in text]
                assert not leaked, (text, leaked)


def test_minigrad_errors_are_recognised():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    with pytest.raises(RuntimeError) as error:
        y.sum().backward()
    assert _exceptions.hint_for_exception(error.value).key == "saved_then_modified"
    wrong_count = function_class(lambda ctx, x, c: x * c, lambda ctx, g: (g, g, g))
    with pytest.raises(RuntimeError) as error:
        wrong_count.apply(x, 2.0).sum().backward()
    hint = _exceptions.hint_for_exception(error.value)
    assert (hint.key, hint.params) == ("wrong_num_grads", {"expected": 2, "got": 3})
    assert _exceptions.hint_for_exception(KeyError("k")).key == "raised_no_line"   # no traceback


def test_the_graph_checks_expect_what_the_engine_does():
    """The order and the counts a graph check expects are the engine's own (read from its
    trace), and a hand-written walk by the lesson's rules gives the same."""
    from minigrad import tracing
    from minigrad.exercises import graph_order
    for build in graph_order._graphs():
        output = build()
        root = output.grad_fn
        order, counts = graph_order._engine_run(output)
        assert order == ANSWERS["topo_order"](output)
        assert counts == ANSWERS["count_dependencies"](output)
        with tracing.record() as recorded:
            output.backward()
        assert [e["node"] for e in recorded.of_kind("node_started")] == \
            [tracing.ident(node) for node in order]
        assert counts[root] == 0 and any(isinstance(n, AccumulateGrad) for n in order)


# ---------------------------------------------------------------- the state answers run in

def _off_in_another_thread():
    """Grad mode is one switch for the process: a thread may leave it off for everyone."""
    worker = threading.Thread(target=lambda: torch.set_grad_enabled(False))
    worker.start()
    worker.join()
    return contextlib.nullcontext()


@contextlib.contextmanager
def _float64_by_default():
    torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        torch.set_default_dtype(torch.float32)


CALLER_STATES = {
    "no_grad": torch.no_grad,
    "inference_mode": torch.inference_mode,
    "set_grad_enabled(False)": lambda: torch.set_grad_enabled(False),
    "off in another thread": _off_in_another_thread,
    "detect_anomaly": lambda: torch.autograd.set_detect_anomaly(True),
    "saved_tensors_hooks": lambda: torch.autograd.graph.saved_tensors_hooks(
        lambda t: t * 0, lambda t: t),
    "dual_level": lambda: torch.autograd.forward_ad.dual_level(),
    "float64 by default": _float64_by_default,
}


def _caller_state():
    from minigrad.core import hooks
    from minigrad.core.grad_mode import state as modes
    from minigrad.surface import anomaly, forward_ad
    return ((modes.enabled, modes.inference, modes.in_forward), dict(anomaly._state),
            dict(forward_ad._state), len(hooks.saved_tensors_hooks_stack),
            torch.get_default_dtype())


@pytest.mark.parametrize("state", list(CALLER_STATES))
def test_answers_are_judged_in_pytorchs_default_state_whatever_the_callers(state):
    """Inside no_grad or inference_mode, after set_grad_enabled(False), with hooks or a
    dual level open, every reference passes and every wrong answer gets its hint; the
    caller's state is the same after each check."""
    import test_exercise_hints
    import test_exercise_review_advanced
    torch.set_grad_enabled(True)
    try:
        with CALLER_STATES[state]():
            before = _caller_state()
            for exercise_id in EXERCISES:
                result = check(exercise_id, reference(exercise_id))
                assert result.passed, (exercise_id, result)
            for exercise_id, answer, key in (test_exercise_hints.WRONG
                                             + test_exercise_review_advanced.WRONG):
                assert check(exercise_id, answer).hint == key, (exercise_id, key)
            assert _caller_state() == before
    finally:
        torch.set_grad_enabled(True)


def _answer_that_changes(change):
    """A wrong Exp (no grad_output) whose forward first makes `change`."""
    def forward(ctx, x):
        change()
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    return function_class(forward, lambda ctx, g: ctx.saved_tensors[0])


def _patch_tensor_exp():
    torch.Tensor.exp = lambda self: self * 0 + 1


def _patch_the_checker():
    _tools.close = lambda *args: True


def _patch_numpy():
    np.allclose = lambda *args, **kwargs: True


def _replace_a_check():
    from minigrad.exercises import functions
    functions.CHECKS["exp"] = lambda answer: None


CHANGES = {
    "default dtype": (lambda: torch.set_default_dtype(torch.float64), "torch.set_default_dtype"),
    "language": (lambda: setattr(settings, "lang", "zh"), "minigrad.settings.lang"),
    "Tensor method": (_patch_tensor_exp, "Tensor.exp"),
    "checker function": (_patch_the_checker, "minigrad.exercises._tools.close"),
    "numpy function": (_patch_numpy, "numpy.allclose"),
    "checker table": (_replace_a_check, "minigrad.exercises.functions.CHECKS"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("change", list(CHANGES))
def test_what_an_answer_changes_is_put_back_and_its_verdict_refused(change, lang):
    make_change, name = CHANGES[change]
    routines = (torch.Tensor.exp, _tools.close, np.allclose)
    result = check("exp", _answer_that_changes(make_change), lang=lang)
    assert result.status == "failed" and result.hint == "changed_state", result
    assert f"`{name}" in result.message
    assert result.message == _messages.text("changed_state", lang, **result.params)
    assert (torch.Tensor.exp, _tools.close, np.allclose) == routines
    assert torch.get_default_dtype() is torch.float32 and settings.lang is None
    later = check("exp", function_class(exp_forward, lambda ctx, g: ctx.saved_tensors[0]))
    assert later.hint == "forgot_grad_output"          # no lasting ✓ for wrong answers


def exp_forward(ctx, x):
    y = x.exp()
    ctx.save_for_backward(y)
    return y


# ---------------------------------------------------------------- check never hangs or raises

class LoopingText(Exception):
    def __str__(self):
        while True:
            pass


class RaisingText(Exception):
    def __str__(self):
        raise RuntimeError("cannot print me")


class LoopingRepr:
    def __repr__(self):
        while True:
            pass


class FakeTensor:
    """Looks like a tensor to the checks; its shape prints forever."""
    _is_minigrad_tensor = True
    shape = (LoopingRepr(),)


def raising(error):
    def forward(ctx, x):
        raise error
    return forward


@pytest.mark.parametrize("answer, key", [
    (function_class(raising(LoopingText())), "timeout"),
    (function_class(raising(RaisingText())), "raised"),
    (function_class(lambda ctx, x: FakeTensor()), "timeout"),
], ids=["looping __str__", "raising __str__", "looping __repr__ of a returned value"])
def test_what_an_answer_raised_or_returned_is_printed_within_the_time_limit(answer, key):
    start = time.perf_counter()
    result = check("exp", answer, time_limit=1)
    assert time.perf_counter() - start < 3
    assert result.status == "failed" and result.hint == key, result
    if key == "raised":
        assert result.params["error"] == "RaisingText"


def test_a_check_inside_an_answer_does_not_freeze_the_outer_time_limit():
    started = time.perf_counter()

    def slow_exp(ctx, x):
        time.sleep(0.2)
        return exp_forward(ctx, x)

    def forward(ctx, x):
        while time.perf_counter() - started < 8:      # (ends by itself, should all else fail)
            check("exp", function_class(slow_exp, lambda ctx, g: g * ctx.saved_tensors[0]))
        return x.exp()
    result = check("exp", function_class(forward), time_limit=1)
    assert time.perf_counter() - started < 3
    assert result.hint == "timeout"
    assert check("exp", reference("exp")).passed


def test_in_the_browser_without_threads_or_timer_the_verdict_is_right(monkeypatch):
    """Pyodide (JupyterLite) starts no thread and has no setitimer: the answer runs
    without a time limit, the verdicts are right, and the student is told so once."""
    import signal
    import sys

    import minigrad.exercises as exercises

    def no_thread(self):
        raise RuntimeError("can't start new thread")
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.delattr(signal, "setitimer")
    monkeypatch.setattr(threading.Thread, "start", no_thread)
    monkeypatch.setitem(exercises._said, "no_time_limit", False)
    first = check("sigmoid", reference("sigmoid"), lang="zh")
    assert first.passed and first.notes == ("no_time_limit",)
    assert first.message == "\n\n".join(_messages.text(key, "zh")
                                         for key in ("passed", "no_time_limit"))
    again = check("sigmoid", reference("sigmoid"), lang="en")     # said once is enough
    assert again.passed and again.message == _messages.text("passed", "en")
    wrong = function_class(exp_forward, lambda ctx, g: ctx.saved_tensors[0])
    assert check("exp", wrong).hint == "forgot_grad_output"
    assert check("exp", stub_for("exp")).status == "not_solved"
