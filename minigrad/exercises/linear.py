"""Lesson 16, the capstone: linear, x @ weight.T + bias with needs_input_grad.

The data x usually needs no gradient, so the check calls backward where x
does not require grad (and the weight or the bias does not, in turn) and
counts whether a gradient was computed anyway.
"""
import numpy as np

from ..surface import creation
from . import _tools
from ._trial import FunctionTrial, In, uniform
from ._tools import Hint, as_array, case

MESSAGES = {
    "weight_grad_transposed": {
        "en": "The weight's gradient is transposed: it must have the weight's shape "
              "(out_features × in_features).",
        "zh": "权重的梯度被转置了：它必须和权重的形状一致（out_features × in_features）。"},
}


# What Linear must compute, with minigrad's built-in ops (see functions.py)
def _linear(x, weight, bias):
    return x @ weight.T + bias


def check_linear(answer):
    cls = _tools.require_function_class(answer)
    _diagnose_transposed_weight(cls)
    # x: batch × in, weight: out × in, bias: out
    cases = (case((4, 3), (2, 3), (2,), seed=60),
             case((5, 2), (3, 2), (3,), seed=61, dtype="float32"),
             case((4, 3), (2, 3), (2,), seed=62, requires_grad=(False, True, True)),
             case((1, 3), (2, 3), (2,), seed=63, requires_grad=(False, True, False)),
             case((3, 3), (2, 3), (2,), seed=64, requires_grad=(False, False, True)),
             case((2, 4), (3, 4), (3,), seed=65, requires_grad=(True, False, False)))
    return _tools.check_function(answer, _linear, cases, needs_input_grad=True)


def _diagnose_transposed_weight(cls):
    x, weight, bias = case((4, 3), (2, 3), (2,), seed=66)()
    output = _tools.apply(cls, x, weight, bias)
    _tools.require_grad_fn(_tools.require_tensor(output, "forward"), (x, weight, bias))
    g = np.random.default_rng(67).uniform(-2, 2, size=(4, 2))
    raw = _tools.raw_backward(cls, output.grad_fn, (creation.tensor(g),))
    if len(raw) >= 2 and _tools.is_tensor(raw[1]) and tuple(raw[1].shape) == (3, 2):
        if np.allclose(as_array(raw[1]), (g.T @ as_array(x)).T):
            raise Hint("weight_grad_transposed")


CHECKS = {"linear": check_linear}


def _layer(rng, dtype):
    """x (batch × in), weight (out × in, not square), bias (out)."""
    batch, features = (int(size) for size in rng.integers(1, 5, size=2))
    outputs = features + int(rng.integers(1, 3))
    shapes = ((batch, features), (outputs, features), (outputs,))
    return [In(uniform(rng, shape, dtype)) for shape in shapes]


TRIALS = {"linear": FunctionTrial(_linear, _layer, needs_input_grad=True)}
