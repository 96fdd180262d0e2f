"""Auto-checked exercises: `check(id, answer)` tests an answer's behaviour and diagnoses it.

The cell after each exercise in a lesson runs::

    from minigrad.exercises import check
    check("exp", Exp)

and shows ✓, or ✗ with a hint naming the mistake (forgot grad_output, wrong
number of gradients, a broadcast gradient not reduced...), in the lesson's
language.  Checks test behaviour, not source text: values and gradients
against the same function written with minigrad's built-in ops, dtypes,
what was saved.  A passed check is confirmed by the exercise's trial, on
inputs drawn just then (see _trial: how a grader confirms it where no
student code runs).  `check` stops an answer that runs too long, and never raises, but
where nbgrader runs the notebook in the student's kernel (its validator, which
sets NBGRADER_EXECUTION): there an answer that does not pass raises
`NotPassed`, so that its graded cell fails.  nbgrader's autograde, as
`minigrad-tutor --nbgrader` configures it, does not trust that kernel: it runs
`diagnose` and `trial_report` in a sandbox and `judge_report` in its own
process (minigrad.tutor.grading; docs/teaching.md, "Grading with nbgrader").
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
import difflib
import importlib
import os
import secrets
from typing import NamedTuple

from .. import progress as progress_file
from .. import settings
from . import _isolation, _messages, _trial
from ._result import GradedResult, NotPassed, Result
from ._runner import TIME_LIMIT, TimeLimitExceeded, run_limited
from ._exceptions import hint_for_exception
from ._tools import Hint
from .overview import progress

__all__ = ["check", "progress", "Result", "NotPassed", "EXERCISES", "diagnose", "trial_report",
           "judge_report"]

GRADING = "NBGRADER_EXECUTION"    # set by nbgrader while it autogrades or validates


def _exercise(lesson, module, en, zh):
    return {"lesson": lesson, "module": module, "en": en, "zh": zh}


EXERCISES = {
    "graph_edges": _exercise(
        "01-tensors-and-the-graph", "graph_basics",
        "graph_edges(): the edges of a small graph, predicted before running it",
        "graph_edges()：先预测一张小计算图的边，再运行验证"),
    "jacobian": _exercise(
        "01-tensors-and-the-graph", "graph_basics",
        "jacobian(f, x): the Jacobian matrix, one row per backward(gradient=v)",
        "jacobian(f, x)：雅可比矩阵，每次 backward(gradient=v) 求出一行"),
    "topo_order": _exercise(
        "03-backward-order", "graph_order",
        "topo_order(output): the backward nodes in the order the engine runs them",
        "topo_order(output)：按引擎的执行顺序列出反向传播的节点"),
    "count_dependencies": _exercise(
        "03-backward-order", "graph_order",
        "count_dependencies(output): {node: number of edges pointing at it}",
        "count_dependencies(output)：{节点: 指向它的边数}，即引擎开始时的依赖计数"),
    "backpropagate": _exercise(
        "03-backward-order", "graph_order",
        "backpropagate(output, inputs): a whole backward by hand, calling the nodes",
        "backpropagate(output, inputs)：亲手完成一次反向传播，逐个调用节点"),
    "exp": _exercise("04-custom-functions", "functions", "Exp: eˣ as a custom Function",
                     "Exp：用自定义 Function 实现 eˣ"),
    "sigmoid": _exercise("04-custom-functions", "functions", "Sigmoid: 1/(1+e⁻ˣ)",
                         "Sigmoid：用自定义 Function 实现 1/(1+e⁻ˣ)"),
    "relu": _exercise("04-custom-functions", "functions",
                      "ReLU: max(x, 0), gradient 0 at x ≤ 0",
                      "ReLU：max(x, 0)，x ≤ 0 处梯度为 0"),
    "mul_constant": _exercise("04-custom-functions", "functions",
                              "MulConstant: tensor × Python number (no gradient for the number)",
                              "MulConstant：张量 × Python 数字（数字没有梯度）"),
    "add_broadcast": _exercise("04-custom-functions", "functions",
                               "AddBroadcast: a + b with broadcasting, gradients reduced",
                               "AddBroadcast：带广播的 a + b，梯度要归约回输入形状"),
    "batched_matmul": _exercise("04-custom-functions", "functions",
                                "BatchedMatMul: A (b, n, k) @ B (k, m), its backward derived",
                                "BatchedMatMul：A (b, n, k) @ B (k, m)，自己推导 backward"),
    "seed_func": _exercise("05-saving-tensors", "saving",
                           "Func(x, y, z): x·y + y·z + w, saving tensors and keeping z, w on ctx",
                           "Func(x, y, z)：x·y + y·z + w，保存张量，把 z 和 w 放在 ctx 上"),
    "tanh_saves_output": _exercise("05-saving-tensors", "saving",
                                   "Tanh: saves its output, dx = g·(1 − y²)",
                                   "Tanh：保存输出而不是输入，dx = g·(1 − y²)"),
    "inplace_relu": _exercise("06-inplace-and-versions", "saving",
                              "InplaceReLU: clamps in place and calls ctx.mark_dirty",
                              "InplaceReLU：原地截断并调用 ctx.mark_dirty"),
    "matmul": _exercise("07-ctx-flags", "ctx_flags",
                        "MatMul: a @ b computing only the gradients needs_input_grad asks for",
                        "MatMul：a @ b，只计算 needs_input_grad 要求的梯度"),
    "max_with_index": _exercise("07-ctx-flags", "ctx_flags",
                                "MaxWithIndex: (values, indices) of the row maxima",
                                "MaxWithIndex：每行最大值及其索引，索引不可导"),
    "polar": _exercise("07-ctx-flags", "modern_api",
                       "Polar: (r·cos θ, r·sin θ) with setup_context, materialization off and "
                       "needs_input_grad",
                       "Polar：(r·cos θ, r·sin θ)，用 setup_context、关闭补零并使用 needs_input_grad"),
    "clip_grad_hook": _exercise("08-hooks", "hooks",
                                "hook(grad): the gradient clamped to [-1, 1]",
                                "hook(grad)：把梯度截断到 [-1, 1] 的张量钩子"),
    "pack_float16": _exercise("08-hooks", "hooks",
                              "(pack, unpack): saved float32 tensors stored as float16",
                              "(pack, unpack)：把保存的 float32 张量存成 float16"),
    "separate_gradients": _exercise(
        "10-retain-graph-and-debugging", "debugging",
        "separate_gradients(loss_a, loss_b, w): each loss's gradient, one forward, retain_graph",
        "separate_gradients(loss_a, loss_b, w)：一次前向传播，用 retain_graph 分别求两个损失的梯度"),
    "second_derivative": _exercise("12-higher-order", "higher_order",
                                   "second_derivative(f, x): d²f/dx² with create_graph",
                                   "second_derivative(f, x)：用 create_graph 求 d²f/dx²"),
    "cube_double_backward": _exercise("12-higher-order", "higher_order",
                                      "Cube: x³ with a differentiable backward",
                                      "Cube：x³，backward 本身可导"),
    "offload_to_cpu": _exercise("15-gpu", "devices",
                                "(pack, unpack): saved tensors kept in host memory, back on "
                                "their device in backward",
                                "(pack, unpack)：把保存的张量放在主机内存里，反向传播时放回原设备"),
    "linear": _exercise("16-capstone", "linear",
                        "Linear: x @ weight.T + bias, using needs_input_grad",
                        "Linear：x @ weight.T + bias，使用 needs_input_grad"),
    "mul_jvp": _exercise("14-forward-mode", "forward_mode",
                         "Mul: a·b as a custom Function with a jvp (the product rule)",
                         "Mul：带 jvp 的自定义 Function，计算 a·b（乘积法则）"),
    "straight_through": _exercise(
        "02-out-of-the-graph", "out_of_graph",
        "round_straight_through(x): round in forward, gradient 1 in backward (detach)",
        "round_straight_through(x)：前向取整，反向梯度为 1（detach）"),
    "newton_sqrt": _exercise(
        "02-out-of-the-graph", "out_of_graph",
        "newton_sqrt(a): Newton's iteration whose graph does not grow (no_grad)",
        "newton_sqrt(a)：计算图不随迭代变长的牛顿迭代（no_grad）"),
    "finetune_head": _exercise(
        "02-out-of-the-graph", "out_of_graph",
        "finetune_head(params, x, y, steps, lr): train the head, the body frozen",
        "finetune_head(params, x, y, steps, lr)：冻结主干，只训练头部"),
    "normalize_both_modes": _exercise(
        "14-forward-mode", "both_modes",
        "Normalize: each row divided by its sum, with a backward (Jᵀg) and a jvp (J·t)",
        "Normalize：每一行除以该行的和，带 backward（Jᵀg）和 jvp（J·t）"),
    "saved_bytes": _exercise("09-memory", "memory",
                             "saved_bytes(output): the bytes a graph holds in saved tensors, "
                             "from the nodes' _saved_* attributes",
                             "saved_bytes(output)：从节点的 _saved_* 属性统计计算图保存的张量所占的字节数"),
    "checkpoint": _exercise("09-memory", "memory",
                            "Checkpoint: fn(x) keeping only x, fn run again in backward",
                            "Checkpoint：计算 fn(x)，只保留 x，反向传播时重新运行 fn"),
    "logsumexp": _exercise("11-bug-hunts", "bug_hunts",
                           "LogSumExp: log Σ exp over the last dimension, with no overflow",
                           "LogSumExp：沿最后一维计算 log Σ exp，不溢出"),
    "pairwise_distances": _exercise(
        "11-bug-hunts", "bug_hunts",
        "pairwise_distances(points): exact distances, a gradient with no NaN",
        "pairwise_distances(points)：精确的两两距离，梯度里没有 NaN"),
    "fix_inplace": _exercise("11-bug-hunts", "bug_hunts",
                             "features_fixed(x, w): features without its in-place error",
                             "features_fixed(x, w)：去掉原地修改错误的 features"),
    "hvp": _exercise("13-double-backward", "double_backward",
                     "hvp(f, x, v): the Hessian times v, in two backward passes",
                     "hvp(f, x, v)：用两次反向传播求 Hessian 乘以 v"),
    "softplus_double_backward": _exercise(
        "13-double-backward", "double_backward",
        "Softplus: log(1 + eˣ), its intermediate eˣ returned as an output for double backward",
        "Softplus：log(1 + eˣ)，把中间结果 eˣ 作为输出返回，让二次反向传播正确"),
    "sin_backward_function": _exercise(
        "13-double-backward", "double_backward",
        "Sin and SinBackward: numpy in forward, double backward through a Function of its own",
        "Sin 与 SinBackward：forward 用 numpy，二次反向传播经由独立的 Function"),
}


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
    verdict, unlimited = _diagnosis(exercise_id, answer, lang, time_limit)
    if verdict.status == "passed":          # the trial confirms it, as a grader would
        seed = secrets.randbits(32)
        report = trial_report(exercise_id, answer, seed, time_limit)
        confirmed = judge_report(exercise_id, report, seed, lang)
        if not confirmed.passed:
            verdict = _Verdict(confirmed.status, confirmed.message, confirmed.hint,
                               confirmed.params)
    notes = [(note, {}) for note in verdict.notes]
    if unlimited and not _said["no_time_limit"]:
        _said["no_time_limit"] = True
        notes.append(("no_time_limit", {}))
    if verdict.status not in ("not_solved", "unknown_exercise"):   # an untouched stub is no attempt
        backup = progress_file.record(exercise_id, verdict.status == "passed")
        if backup is not None:
            notes.append(("progress_damaged", {"file": progress_file.FILENAME,
                                               "backup": backup.name}))
    message = "\n\n".join([verdict.message] + [_messages.text(key, lang, **params)
                                              for key, params in notes])
    return Result(exercise_id, verdict.status, message, verdict.hint, verdict.params, lang,
                  [key for key, _ in notes])


def diagnose(exercise_id, answer, lang=None, time_limit=TIME_LIMIT):
    """The check proper, as `check` runs it, but nothing recorded and no trial: a Result.
    The grader's sandbox runs this next to the student's code (minigrad.tutor.grading)."""
    lang = settings.resolve_lang(lang)
    verdict, _ = _diagnosis(exercise_id, answer, lang, time_limit)
    return Result(exercise_id, verdict.status, verdict.message, verdict.hint, verdict.params,
                  lang, verdict.notes)


def trial_report(exercise_id, answer, seed, time_limit=TIME_LIMIT):
    """What the exercise's trial sees the answer do for inputs drawn from `seed`, as plain
    data (see _trial): run next to the answer, in PyTorch's default state, within the time
    limit; a timeout or a change to minigrad is reported as its hint."""
    trial = _module(exercise_id).TRIALS[exercise_id]
    value, refused, _ = _isolated(lambda: _trial.run_trial(trial, answer, seed), time_limit)
    if refused is not None:
        return {"hint": {"key": refused.hint, "params": refused.params}}
    return value


def judge_report(exercise_id, report, seed, lang=None):
    """The trial's verdict on `report` (what `trial_report` returned for `seed`), made from
    the report alone: no code of the answer runs here.  A Result: passed, or failed with the
    hint in `lang`, introduced as a check made again with new inputs."""
    lang = settings.resolve_lang(lang)
    try:
        with _isolation.default_state():      # the caller's no_grad() must not change it
            _trial.judge_trial(_module(exercise_id).TRIALS[exercise_id], report, seed)
    except Hint as hint:
        verdict = _Verdict.of("failed", hint, lang)
        message = f"{_messages.text('checked_again', lang)}\n{verdict.message}"
        return Result(exercise_id, "failed", message, verdict.hint, verdict.params, lang)
    except Exception:       # noqa: BLE001 — a bug of the judge is no verdict on the answer
        return Result(exercise_id, "failed", _messages.text("check_failed", lang),
                      "check_failed", {}, lang)
    return Result(exercise_id, "passed", _messages.text("passed", lang), lang=lang)


def _module(exercise_id):
    return importlib.import_module(f"{__name__}.{EXERCISES[exercise_id]['module']}")


def _diagnosis(exercise_id, answer, lang, time_limit):
    """(the check's _Verdict, whether nothing could have stopped the answer)."""
    if not isinstance(exercise_id, str) or exercise_id not in EXERCISES:
        known = ("、" if lang == "zh" else ", ").join(EXERCISES)
        params = {"id": repr(exercise_id), "known": known}
        close = _close_to(exercise_id)
        key = "unknown_exercise" if close is None else "unknown_exercise_close"
        if close is not None:
            params["close"] = close
        return _Verdict("unknown_exercise", _messages.text(key, lang, **params),
                        None, params), False
    checker = _module(exercise_id).CHECKS[exercise_id]
    verdict, refused, unlimited = _isolated(lambda: _verdict(checker, answer, lang), time_limit,
                                            lang)
    return refused or verdict, unlimited


def _isolated(func, time_limit, lang="en"):
    """func() in PyTorch's default state, within the time limit: (its value, None, unlimited),
    or (None, the _Verdict saying why there is none, unlimited)."""
    with _isolation.default_state() as changed:
        outcome = run_limited(func, time_limit)
    if changed:
        names = list(dict.fromkeys(changed))
        listed = ", ".join(f"`{name}`" for name in names[:5]) + (", ..." if len(names) > 5 else "")
        refused = _Verdict.of("failed", Hint("changed_state", changed=listed), lang)
    elif outcome.timed_out:
        refused = _Verdict.of("failed", Hint("timeout", seconds=f"{time_limit:g}"), lang)
    elif outcome.error is not None:        # the check itself failed, not the answer
        refused = _Verdict.of("failed", Hint("check_failed"), lang)
    else:
        return outcome.value, None, outcome.unlimited
    return None, refused, outcome.unlimited


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


def _close_to(exercise_id):
    """The exercise id `exercise_id` was probably meant to be ("Exp" -> "exp"), or None."""
    if not isinstance(exercise_id, str):
        return None
    wanted = exercise_id.strip().lower().replace("-", "_").replace(" ", "_")
    if wanted in EXERCISES:
        return wanted
    close = difflib.get_close_matches(wanted, EXERCISES, n=1, cutoff=0.75)
    return close[0] if close else None


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

