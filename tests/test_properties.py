"""Property tests (minitorch style): random expression graphs built from a small
grammar of smooth ops, on random float64 inputs of broadcastable shapes.  The
gradients that backward computes must agree with central finite differences.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad
from minigrad import autograd

SETTINGS = settings(max_examples=100, deadline=None)


# --- the grammar ---------------------------------------------------------------------
# Every op is smooth everywhere on the reals, so finite differences are valid at
# any input: exp only of a bounded value, log and sqrt only of 1 + x², ...

UNARY = {
    "neg": lambda x: -x,
    "square": lambda x: x * x,
    "tanh": lambda x: x.tanh(),
    "sigmoid": lambda x: x.sigmoid(),
    "sin": lambda x: x.sin(),
    "cos": lambda x: x.cos(),
    "exp_tanh": lambda x: x.tanh().exp(),
    "exp_sin": lambda x: (x.sin() * 2).exp(),
    "log_1p_square": lambda x: (x * x + 1).log(),
    "sqrt_1p_square": lambda x: (1 + x * x).sqrt(),
    "reciprocal_1p_square": lambda x: 1 / (x * x + 1),
    "affine": lambda x: 0.5 * x - 2,
    "cube": lambda x: x ** 3,
    "softmax": lambda x: x.softmax(-1) if x.ndim else x,
    "log_softmax": lambda x: x.log_softmax(0) if x.ndim else x,
}

BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div_1p_square": lambda a, b: a / (b * b + 1),
    "add_alpha": lambda a, b: a.add(b, alpha=-1.5),
}

# Reductions that keep results broadcastable against the (2, 3) family of shapes.
REDUCE = {
    "sum_all": lambda x: x.sum(),
    "mean_all": lambda x: x.mean(),
    "sum_first": lambda x: x.sum(0) if x.ndim else x,
    "mean_last_keepdim": lambda x: x.mean(-1, keepdim=True) if x.ndim else x,
    "sum_last_keepdim": lambda x: x.sum(dim=-1, keepdim=True) if x.ndim else x,
}

SHAPES = [(), (3,), (1, 3), (2, 1), (2, 3)]       # all broadcast with each other
N_INPUTS = 3


def expressions(max_leaves=6):
    """Trees ("leaf", i) / ("unary", name, e) / ("binary", name, e, e) / ("reduce", name, e)."""
    leaf = st.tuples(st.just("leaf"), st.integers(0, N_INPUTS - 1))

    def extend(children):
        return st.one_of(
            st.tuples(st.just("unary"), st.sampled_from(sorted(UNARY)), children),
            st.tuples(st.just("binary"), st.sampled_from(sorted(BINARY)), children, children),
            st.tuples(st.just("reduce"), st.sampled_from(sorted(REDUCE)), children),
        )
    return st.recursive(leaf, extend, max_leaves=max_leaves)


def evaluate(tree, inputs):
    kind = tree[0]
    if kind == "leaf":
        return inputs[tree[1]]
    if kind == "unary":
        return UNARY[tree[1]](evaluate(tree[2], inputs))
    if kind == "binary":
        return BINARY[tree[1]](evaluate(tree[2], inputs), evaluate(tree[3], inputs))
    return REDUCE[tree[1]](evaluate(tree[2], inputs))


@st.composite
def input_arrays(draw, count=N_INPUTS):
    """`count` float64 arrays in [-2, 2], each of a shape from SHAPES."""
    arrays = []
    for _ in range(count):
        shape = draw(st.sampled_from(SHAPES))
        elements = st.floats(-2.0, 2.0, allow_nan=False, allow_infinity=False, width=64)
        arrays.append(draw(hnp.arrays(np.float64, shape, elements=elements)))
    return arrays


def leaves(arrays):
    return [minigrad.tensor(a, dtype=minigrad.float64, requires_grad=True) for a in arrays]


def weights_like(out):
    """Fixed, distinct weights: the loss sum(out * w) sees every output element."""
    n = out.numel()
    w = np.linspace(0.5, 1.5, n).reshape(out.shape) if n > 1 else np.ones(out.shape)
    return minigrad.tensor(w, dtype=minigrad.float64)


# --- finite differences ---------------------------------------------------------------

def central_difference(f, arrays, index, position, eps=1e-6):
    """(f(x + eps) - f(x - eps)) / 2eps for one element of one input; f returns a float."""
    plus = [a.copy() for a in arrays]
    minus = [a.copy() for a in arrays]
    plus[index][position] += eps
    minus[index][position] -= eps
    return (f(plus) - f(minus)) / (2 * eps)


def derivative_check(f, arrays, rtol=1e-4, atol=1e-6):
    """The gradients from `loss(f(...)).backward()` against central differences.

    f maps a list of minigrad tensors to one tensor; the scalar loss is a weighted
    sum of its elements.  Returns the leaves (their .grad filled) for further checks.
    """
    xs = leaves(arrays)
    out = f(xs)
    w = weights_like(out)
    (out * w).sum().backward()

    def loss(values):
        with minigrad.no_grad():
            return float((f(leaves(values)) * w).sum().item())

    for index, (x, array) in enumerate(zip(xs, arrays)):
        numeric = np.zeros(array.shape)
        for position in np.ndindex(*array.shape):
            numeric[position] = central_difference(loss, arrays, index, position)
        analytic = np.zeros(array.shape) if x.grad is None else x.grad.numpy()
        scale = 1.0 + np.abs(numeric).max(initial=0.0)
        np.testing.assert_allclose(analytic, numeric, rtol=rtol, atol=atol * scale,
                                   err_msg=f"gradient of input {index}")
    return xs


# --- properties --------------------------------------------------------------------------

@settings(max_examples=400, deadline=None)
@given(expressions(), input_arrays())
def test_backward_agrees_with_finite_differences(tree, arrays):
    derivative_check(lambda xs: evaluate(tree, xs), arrays)


@SETTINGS
@given(st.sampled_from(sorted(UNARY)), input_arrays(1))
def test_each_unary_op_agrees_with_finite_differences(name, arrays):
    derivative_check(lambda xs: UNARY[name](xs[0]), arrays)


@SETTINGS
@given(st.sampled_from(sorted(BINARY)), input_arrays(2))
def test_each_binary_op_agrees_with_finite_differences_when_broadcasting(name, arrays):
    derivative_check(lambda xs: BINARY[name](xs[0], xs[1]), arrays)


@SETTINGS
@given(st.sampled_from(sorted(REDUCE)), st.sampled_from(sorted(UNARY)), input_arrays(1))
def test_each_reduction_agrees_with_finite_differences(reduction, name, arrays):
    derivative_check(lambda xs: REDUCE[reduction](UNARY[name](xs[0])), arrays)


@settings(max_examples=150, deadline=None)
@given(expressions(max_leaves=4), input_arrays())
def test_second_derivatives_agree_with_finite_differences(tree, arrays):
    """create_graph=True: the gradient is itself differentiable, and correctly so."""
    def weighted_gradient(xs):
        with minigrad.enable_grad():                    # also when derivative_check perturbs
            out = evaluate(tree, xs)
            cubes = sum((x ** 3).sum() for x in xs)     # so no gradient is a constant
            grads = autograd.grad((out * weights_like(out)).sum() + cubes, xs,
                                  create_graph=True)
            return sum((g * (i + 1)).sum() for i, g in enumerate(grads))
    derivative_check(weighted_gradient, arrays, rtol=1e-3, atol=1e-5)


@SETTINGS
@given(expressions(), input_arrays())
def test_autograd_grad_equals_grad_after_backward(tree, arrays):
    xs = leaves(arrays)
    out = evaluate(tree, xs)
    loss = (out * weights_like(out)).sum()
    grads = autograd.grad(loss, xs, retain_graph=True, allow_unused=True)
    for x in xs:
        assert x.grad is None                        # grad() does not touch .grad
    loss.backward()
    for x, g in zip(xs, grads):
        if g is None:
            assert x.grad is None
        else:
            assert x.grad.shape == x.shape == g.shape
            np.testing.assert_array_equal(x.grad.numpy(), g.numpy())


@SETTINGS
@given(expressions(), input_arrays())
def test_two_backward_calls_accumulate_twice_the_gradient(tree, arrays):
    xs = leaves(arrays)
    out = evaluate(tree, xs)
    loss = (out * weights_like(out)).sum()
    loss.backward(retain_graph=True)
    once = [None if x.grad is None else x.grad.numpy().copy() for x in xs]
    loss.backward()
    for x, first in zip(xs, once):
        if first is None:
            assert x.grad is None
        else:
            np.testing.assert_array_equal(x.grad.numpy(), 2 * first)


@SETTINGS
@given(input_arrays(1), st.lists(st.sampled_from(["tensor", "detached"]), min_size=1,
                                 max_size=5), st.booleans())
def test_detach_shares_data_and_version_counter(arrays, writers, from_graph):
    leaf = minigrad.tensor(arrays[0], dtype=minigrad.float64, requires_grad=from_graph)
    x = leaf * 2 if from_graph else leaf             # a non-leaf, or a plain leaf
    d = x.detach()
    assert d.grad_fn is None and not d.requires_grad
    expected = x.detach().numpy().copy()
    for step, writer in enumerate(writers, start=1):
        version = x._version
        target = x if writer == "tensor" else d
        target.add_(1.0)
        expected = expected + 1.0
        assert x._version == d._version == version + 1 == step
        np.testing.assert_array_equal(d.numpy(), expected)
        np.testing.assert_array_equal(x.detach().numpy(), expected)


@SETTINGS
@given(input_arrays(1))
def test_a_saved_tensor_changed_through_detach_is_caught(arrays):
    """The shared counter is what lets backward see a change made through detach()."""
    x = minigrad.tensor(arrays[0], dtype=minigrad.float64, requires_grad=True)
    y = x.exp()                                      # saves its output
    y.detach().mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
