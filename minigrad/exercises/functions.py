"""Lesson 04, custom Functions: exp, sigmoid, relu, mul_constant, add_broadcast,
batched_matmul.

Each answer is a Function subclass.  `check_function` (see _tools) runs it on
float64 and float32 inputs with negative values and zeros, compares forward
with the same function written with minigrad's built-in ops (`_exp`,
`_batched_matmul`...), calls backward directly to see exactly what it returns,
then runs a real backward through the engine.  The trials (`TRIALS`, see
_trial) do the same on inputs drawn when a grader grades.
"""
import numpy as np

from ..surface import creation
from . import _tools
from ._trial import FunctionTrial, In, matrix_shape, one_tensor, uniform
from ._tools import Hint, case, values_case

MESSAGES = {
    "matmul_vjp_shapes": {
        "en": "The gradient for input {input} has shape {got}, not {expected}: its factors "
              "are in the wrong order or not transposed. grad_output is (b, n, m), A is "
              "(b, n, k), B is (k, m): which product of them (one transposed) has the shape "
              "{expected}? Check it on the sum out[i,p,q] = Σ_r A[i,p,r]·B[r,q].",
        "zh": "输入 {input} 的梯度形状是 {got}，而不是 {expected}：因子的顺序不对，或者少了转置。"
              "grad_output 的形状是 (b, n, m)，A 是 (b, n, k)，B 是 (k, m)：它们之中哪两个相乘"
              "（其中一个转置）得到的形状是 {expected}？再用求和式 out[i,p,q] = Σ_r A[i,p,r]·B[r,q] 验证一下。"},
    "matmul_shapes_dont_fit": {
        "en": "Your backward multiplies matrices whose shapes do not fit. grad_output is "
              "(b, n, m), A is (b, n, k), B is (k, m): ∂L/∂A must come out (b, n, k) and ∂L/∂B "
              "(k, m). Which product of two of them, one transposed, gives each? Check it on "
              "the sum out[i,p,q] = Σ_r A[i,p,r]·B[r,q].",
        "zh": "你的 backward 把形状对不上的矩阵相乘了。grad_output 是 (b, n, m)，A 是 (b, n, k)，"
              "B 是 (k, m)：∂L/∂A 的结果应该是 (b, n, k)，∂L/∂B 应该是 (k, m)。"
              "它们之中哪两个相乘（其中一个转置）分别得到这两个形状？再用求和式 "
              "out[i,p,q] = Σ_r A[i,p,r]·B[r,q] 验证一下。"},
    "batch_not_summed": {
        "en": "The gradient for B is the product for one matrix of the batch only. B was used "
              "by every matrix A[i] of the batch: its gradient is the sum of the contributions "
              "of all of them.",
        "zh": "B 的梯度只算了这一批中一个矩阵的乘积。B 被这一批里的每个矩阵 A[i] 都用到了："
              "它的梯度是所有这些矩阵的贡献之和。"},
    "batched_grad_transposed": {
        "en": "The gradient for input {input} is transposed: it must have that input's shape "
              "{expected}, not {got}.",
        "zh": "输入 {input} 的梯度被转置了：它必须和这个输入的形状 {expected} 一致，而不是 {got}。"},
    "exp_saved_input": {
        "en": "Note: your Exp saves its input x, so backward computes eˣ a second time. The "
              "lesson asks you to save the output instead: the derivative of eˣ is eˣ "
              "itself, so backward needs no second exp.",
        "zh": "提示：你的 Exp 保存的是输入 x，所以 backward 又把 eˣ 算了一遍。这节课要求保存输出："
              "eˣ 的导数就是 eˣ 本身，这样 backward 就不必再算一次 exp。"},
    "relu_grad_where_negative": {
        "en": "Where x is negative your ReLU still sends a gradient back. There the output is "
              "the constant 0, whatever x is, so the gradient must be 0.",
        "zh": "在 x 为负的位置，你的 ReLU 仍然把梯度传了回去。那里的输出恒为 0，与 x 无关，"
              "所以梯度必须是 0。"},
    "relu_grad_at_zero": {
        "en": "At x = 0 your ReLU passes the gradient through. Like PyTorch, the gradient at "
              "x ≤ 0 must be 0: only strictly positive inputs let the gradient through.",
        "zh": "在 x = 0 处，你的 ReLU 让梯度通过了。和 PyTorch 一样，x ≤ 0 处的梯度必须是 0："
              "只有严格大于 0 的输入才让梯度通过。"},
}


# What each Function must compute, written with minigrad's built-in ops: the checks compare
# an answer's output with these, and its gradients with theirs (by minigrad's autograd).
def _exp(x):
    return x.exp()


def _sigmoid(x):
    return x.sigmoid()


def _relu(x):
    return x.relu()


def _mul_constant(tensor, constant):
    return tensor * constant


def _add_broadcast(a, b):
    return a + b


# Inputs away from 0 first (general mistakes), then edge cases: zeros, float32.
_UNARY_CASES = (case((2, 3), seed=1), case((4,), seed=2, dtype="float32"),
                values_case([[0.0, -3.0, 5.0]]), values_case([[-0.5, 0.0, 0.25]], "float32"))


def check_exp(answer):
    _tools.check_function(answer, _exp, _UNARY_CASES)
    x = creation.tensor([0.5, -1.0, 2.0], requires_grad=True)
    _, saved = _tools.apply_observing_saves(answer, x)
    if any(t is x or _tools.same_values(t, x) for t in saved):
        return ("exp_saved_input",)     # right, but not what the lesson asks: a note


def check_sigmoid(answer):
    _tools.check_function(answer, _sigmoid, _UNARY_CASES + (values_case([[-30.0, 30.0]]),))


def check_relu(answer):
    cls = _tools.require_function_class(answer)
    away_from_zero = (values_case([[-1.5, 2.0, -0.3, 0.7]]),
                      values_case([[[1.0, -2.0], [-3.0, 4.0]]], "float32"))
    try:
        _tools.check_function(answer, _relu, away_from_zero)
    except Hint as hint:
        if hint.key in ("wrong_grad", "wrong_grad_broadcast", "wrong_sign", "wrong_factor"):
            grad = _relu_raw_grad(cls, [-1.5, 2.0, -0.3, 0.7], [1.0, 2.0, -3.0, -4.0])
            if grad is not None and np.allclose(grad[[1, 3]], [2.0, -4.0]) and np.any(grad[[0, 2]]):
                raise Hint("relu_grad_where_negative") from None
        raise
    grad = _relu_raw_grad(cls, [-1.0, 0.0, 2.0, 0.0], [1.0, 2.0, 3.0, -4.0])
    if grad is not None and np.any(grad[[1, 3]] != 0):
        raise Hint("relu_grad_at_zero")
    _tools.check_function(answer, _relu, _UNARY_CASES)


def _relu_raw_grad(cls, values, grad_values):
    """What the answer's backward returns for these inputs (None: not a gradient yet)."""
    x = creation.tensor(values, requires_grad=True)
    output = _tools.apply(cls, x)
    if not _tools.is_tensor(output) or output.grad_fn is None:
        return None
    raw = _tools.raw_backward(cls, output.grad_fn, (creation.tensor(grad_values),))
    if not raw or not _tools.is_tensor(raw[0]) or tuple(raw[0].shape) != tuple(x.shape):
        return None
    return _tools.as_array(raw[0])


def check_mul_constant(answer):
    cases = (case((2, 3), seed=3, extra=(3.0,)), case((5,), seed=4, extra=(-2.5,)),
             case((3,), seed=5, dtype="float32", extra=(2,)), case((2, 2), seed=6, extra=(0.0,)))
    _tools.check_function(answer, _mul_constant, cases)


def check_add_broadcast(answer):
    cases = (case((2, 3), (2, 3), seed=7),
             case((2, 3), (3,), seed=8),
             case((4, 1), (1, 5), seed=9, dtype="float32"),
             case((3,), (), seed=10),
             case((2, 1, 3), (4, 1), seed=11))
    return _tools.check_function(answer, _add_broadcast, cases)


def _batched_matmul(A, B):
    return A @ B


def check_batched_matmul(answer):
    """A (b, n, k) @ B (k, m); shapes with b, n, k, m all different, so that a product in
    the wrong order or untransposed shows in the shapes."""
    cls = _tools.require_function_class(answer)
    _diagnose_batched_matmul(cls)
    cases = (case((2, 3, 4), (4, 5), seed=12),
             case((3, 2, 3), (3, 4), seed=13, dtype="float32"),
             case((1, 4, 2), (2, 3), seed=14),
             case((2, 3, 4), (4, 5), seed=15, requires_grad=(False, True)),
             case((2, 3, 4), (4, 5), seed=16, requires_grad=(True, False)))
    return _tools.check_function(answer, _batched_matmul, cases)


def _diagnose_batched_matmul(cls):
    """The shape slips of deriving G·Bᵀ and Σᵢ AᵢᵀGᵢ, named before the values are compared."""
    A, B = case((2, 3, 4), (4, 5), seed=17)()
    output = _tools.apply(cls, A, B)
    _tools.require_grad_fn(_tools.require_tensor(output, "forward"), (A, B))
    if tuple(output.shape) != (2, 3, 5):
        return                                   # forward's own check will say so
    G = np.random.default_rng(18).uniform(-2, 2, size=(2, 3, 5))
    try:
        raw = _tools.raw_backward(cls, output.grad_fn, (creation.tensor(G),))
    except RuntimeError as error:             # a product whose shapes do not fit
        if "multiplied" in str(error) or "batch2" in str(error):
            raise Hint("matmul_shapes_dont_fit") from None
        raise
    for position, (grad, tensor) in enumerate(zip(raw[:2], (A, B))):
        if not _tools.is_tensor(grad):
            continue
        shape, want = tuple(grad.shape), tuple(tensor.shape)
        if shape == want or _tools.expands_to(want, shape):
            continue
        key = "batched_grad_transposed" if shape == want[:-2] + want[::-1][:2] else \
            "matmul_vjp_shapes"
        raise Hint(key, input=position, got=list(shape), expected=list(want))
    if len(raw) > 1 and _tools.is_tensor(raw[1]) and tuple(raw[1].shape) == (4, 5):
        got = _tools.as_array(raw[1])
        a = _tools.as_array(A)
        if any(np.allclose(got, a[i].T @ G[i]) for i in range(2)):
            raise Hint("batch_not_summed")


CHECKS = {"exp": check_exp, "sigmoid": check_sigmoid, "relu": check_relu,
          "mul_constant": check_mul_constant, "add_broadcast": check_add_broadcast,
          "batched_matmul": check_batched_matmul}


def _tensor_and_number(rng, dtype):
    return [In(uniform(rng, matrix_shape(rng), dtype)), float(np.round(rng.uniform(-3, 3), 2))]


def _broadcastable(rng, dtype):
    """Two inputs whose shapes broadcast: a row, a column against a row, a scalar, or
    (m, 1, n) against (k, 1)."""
    rows, columns, depth = (int(size) for size in rng.integers(2, 5, size=3))
    pairs = [((rows, columns), (columns,)), ((rows, 1), (1, columns)), ((rows,), ()),
             ((depth, 1, columns), (rows, 1))]
    shapes = pairs[rng.integers(len(pairs))]
    if rng.random() < 0.5:
        shapes = shapes[::-1]
    return [In(uniform(rng, shape, dtype)) for shape in shapes]


def _batch_and_matrix(rng, dtype):
    """A (b, n, k) and B (k, m), with b, n, k, m drawn apart, so that a product in the
    wrong order or untransposed shows in the shapes."""
    b, n, k, m = (int(size) for size in rng.permutation(np.arange(2, 6))[:4])
    return [In(uniform(rng, (b, n, k), dtype)), In(uniform(rng, (k, m), dtype))]


def _far_from_zero(rng, dtype):
    """One input, a few of its values out at ±30 (where 1/(1 + e⁻ˣ) is 1, or tiny)."""
    (drawn,) = one_tensor(rng, dtype)
    drawn.values.reshape(-1)[:2] = (-30.0, 30.0)
    return [In(rng.permutation(drawn.values.reshape(-1)).reshape(drawn.values.shape))]


TRIALS = {"exp": FunctionTrial(_exp, one_tensor),
          "sigmoid": FunctionTrial(_sigmoid, _far_from_zero),
          "relu": FunctionTrial(_relu, lambda rng, dtype: one_tensor(rng, dtype, zeros=True)),
          "mul_constant": FunctionTrial(_mul_constant, _tensor_and_number),
          "add_broadcast": FunctionTrial(_add_broadcast, _broadcastable),
          "batched_matmul": FunctionTrial(_batched_matmul, _batch_and_matrix)}
