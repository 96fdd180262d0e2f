"""Answers to the exercises on today's Function form, memory, debugging and double backward
(polar ...), in the style of test_exercise_review.py: right ones written as PyTorch 2.13's
docs and tutorials would write them, and other forms PyTorch accepts, which must pass;
wrong ones, each with the hint that names its mistake.  Every answer is checked in both
languages."""
import collections
import time

import numpy as np
import pytest

import minigrad as torch
from minigrad import settings
from minigrad.autograd import Function
from minigrad.exercises import _messages, check

WRONG, RIGHT = [], []


def wrong(exercise_id, key):
    """Register the decorated answer as wrong, diagnosed as `key`."""
    def register(answer):
        WRONG.append((exercise_id, answer, key))
        return answer
    return register


def right(exercise_id):
    def register(answer):
        RIGHT.append((exercise_id, answer))
        return answer
    return register


# ---------------------------------------------------------------- polar

class _Polar(Function):
    """Right in every part; the wrong answers below change one."""
    @staticmethod
    def forward(r, theta):
        return r * theta.cos(), r * theta.sin()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, theta = ctx.saved_tensors
        grad_r = grad_theta = None
        if ctx.needs_input_grad[0]:
            grad_r = sum(g * f for g, f in ((grad_x, theta.cos()), (grad_y, theta.sin()))
                         if g is not None)
        if ctx.needs_input_grad[1]:
            grad_theta = sum(g * f for g, f in ((grad_x, -r * theta.sin()),
                                                (grad_y, r * theta.cos())) if g is not None)
        return grad_r, grad_theta


@right("polar")
class PolarFromItsOutputs(Function):
    """setup_context keeps the outputs too: dθ of (x, y) is (-y, x), and cos θ = x / r."""
    @staticmethod
    def forward(r, theta):
        return r * torch.cos(theta), r * torch.sin(theta)

    @staticmethod
    def setup_context(ctx, inputs, output):
        r, _ = inputs
        x, y = output
        ctx.save_for_backward(r, x, y)
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, x, y = ctx.saved_tensors
        grad_r = grad_theta = None
        if grad_x is None:
            grad_x = torch.zeros_like(x)
        if grad_y is None:
            grad_y = torch.zeros_like(y)
        if ctx.needs_input_grad[0]:
            grad_r = (grad_x * x + grad_y * y) / r
        if ctx.needs_input_grad[1]:
            grad_theta = grad_y * x - grad_x * y
        return grad_r, grad_theta


@right("polar")
class PolarTensorsOnCtx(_Polar):
    """Keeps theta as a ctx attribute, which PyTorch tolerates (not enforced, its docs say)."""
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.theta = inputs[1]
        ctx.set_materialize_grads(False)

    @staticmethod
    def backward(ctx, grad_x, grad_y):
        (r,) = ctx.saved_tensors
        theta = ctx.theta
        needs_r, needs_theta = ctx.needs_input_grad
        grad_r = grad_theta = None
        if grad_x is not None:
            grad_r = grad_x * theta.cos() if needs_r else None
            grad_theta = -grad_x * r * theta.sin() if needs_theta else None
        if grad_y is not None:
            if needs_r:
                part = grad_y * theta.sin()
                grad_r = part if grad_r is None else grad_r + part
            if needs_theta:
                part = grad_y * r * theta.cos()
                grad_theta = part if grad_theta is None else grad_theta + part
        return grad_r, grad_theta


@wrong("polar", "use_setup_context")
class PolarOldForm(Function):
    @staticmethod
    def forward(ctx, r, theta):
        ctx.save_for_backward(r, theta)
        ctx.set_materialize_grads(False)
        return r * theta.cos(), r * theta.sin()

    backward = _Polar.backward


@wrong("polar", "forward_takes_no_ctx")
class PolarCtxInBoth(_Polar):
    @staticmethod
    def forward(ctx, r, theta):
        return r * theta.cos(), r * theta.sin()


@wrong("polar", "setup_context_args")
class PolarSetupContextUnpacked(_Polar):
    @staticmethod
    def setup_context(ctx, r, theta, output):
        ctx.save_for_backward(r, theta)
        ctx.set_materialize_grads(False)


@wrong("polar", "materialize_still_on")
class PolarMaterializes(_Polar):
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)


@wrong("polar", "none_not_handled")
class PolarAssumesBoth(_Polar):
    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, theta = ctx.saved_tensors
        return (grad_x * theta.cos() + grad_y * theta.sin(),
                -grad_x * r * theta.sin() + grad_y * r * theta.cos())


@wrong("polar", "dropped_output_term")
class PolarFirstGradientOnly(_Polar):
    """Takes whichever gradient came, as if only one could."""
    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, theta = ctx.saved_tensors
        if grad_x is not None:
            return grad_x * theta.cos(), -grad_x * r * theta.sin()
        return grad_y * theta.sin(), grad_y * r * theta.cos()


@wrong("polar", "ignored_needs_input_grad")
class PolarBothAlways(_Polar):
    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, theta = ctx.saved_tensors
        grad_r, grad_theta = torch.zeros_like(r), torch.zeros_like(theta)
        if grad_x is not None:
            grad_r, grad_theta = grad_r + grad_x * theta.cos(), grad_theta - grad_x * r * theta.sin()
        if grad_y is not None:
            grad_r, grad_theta = grad_r + grad_y * theta.sin(), grad_theta + grad_y * r * theta.cos()
        return grad_r, grad_theta


@wrong("polar", "zeros_where_none")
class PolarZerosForTheUnwanted(_Polar):
    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, _ = ctx.saved_tensors
        grads = _Polar.backward(ctx, grad_x, grad_y)
        return tuple(torch.zeros_like(r) if g is None else g for g in grads)


@wrong("polar", "wrong_sign")
class PolarSinSign(_Polar):
    """d/dθ (r cos θ) taken as +r sin θ."""
    @staticmethod
    def backward(ctx, grad_x, grad_y):
        r, theta = ctx.saved_tensors
        grad_r, grad_theta = _Polar.backward(ctx, grad_x, grad_y)
        if grad_x is not None and grad_theta is not None:
            grad_theta = grad_theta + 2 * grad_x * r * theta.sin()
        return grad_r, grad_theta


# ---------------------------------------------------------------- the tests

@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIGRAD_WORKSPACE", str(tmp_path))
    monkeypatch.setattr(settings, "lang", None)
    monkeypatch.delenv("MINIGRAD_LANG", raising=False)


def _label(answer):
    return getattr(answer, "__name__", type(answer).__name__)


EXERCISE_IDS = ("polar",)


def test_every_exercise_here_has_three_kinds_of_mistake_and_two_right_answers():
    wrong_keys = collections.defaultdict(set)
    for exercise_id, _, key in WRONG:
        wrong_keys[exercise_id].add(key)
    right_counts = collections.Counter(exercise_id for exercise_id, _ in RIGHT)
    assert set(wrong_keys) == set(right_counts) == set(EXERCISE_IDS)
    assert min(len(keys) for keys in wrong_keys.values()) >= 3
    assert min(right_counts.values()) >= 2


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("exercise_id, answer, key", WRONG,
                         ids=[f"{i}-{k}-{_label(a)}" for i, a, k in WRONG])
def test_a_wrong_answer_is_diagnosed(exercise_id, answer, key, lang):
    result = check(exercise_id, answer, lang=lang)
    assert not result.passed and result.status == "failed"
    assert result.hint == key, result
    assert result.message == _messages.text(key, lang, **result.params)
    other = "zh" if lang == "en" else "en"
    assert result.message != _messages.text(key, other, **result.params)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("exercise_id, answer", RIGHT,
                         ids=[f"{i}-{_label(a)}" for i, a in RIGHT])
def test_a_right_answer_passes_quickly(exercise_id, answer, lang):
    start = time.perf_counter()
    result = check(exercise_id, answer, lang=lang)
    elapsed = time.perf_counter() - start
    assert result.passed, result
    assert result.message == _messages.text("passed", lang)
    assert elapsed < 1.0, f"{exercise_id} took {elapsed:.2f} s"
