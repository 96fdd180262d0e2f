"""Lesson 07, ctx flags: matmul (needs_input_grad), max_with_index (mark_non_differentiable).

needs_input_grad is observed by calling the answer's backward directly on a
node where only one input requires grad: a gradient returned for the other
one is work the flag said to skip.
"""
import numpy as np

from ..autograd.grad_mode import no_grad
from ..surface import creation, dtypes
from . import _tools
from ._trial import (FunctionTrial, In, dtype_of, flags, seen, uniform,
                     value_of)
from ._tools import Hint, as_array, case

MESSAGES = {
    "matmul_transpose": {
        "en": "The gradient for input {input} has the right shape but its factors are "
              "transposed or in the wrong order. Check which matrix is transposed, and on "
              "which side of grad_output it goes (the shapes must line up).",
        "zh": "输入 {input} 的梯度形状对了，但因子被转置了或者顺序不对。检查哪个矩阵需要转置，"
              "以及它应该放在 grad_output 的哪一边（形状必须对得上）。"},
    "return_values_and_indices": {
        "en": "forward must return a tuple of two tensors: (values, indices).",
        "zh": "forward 必须返回一个元组，里面是两个张量：(values, indices)。"},
    "indices_dtype": {
        "en": "The indices have dtype {got}; they must be int64 (as x.max(dim=1) gives them).",
        "zh": "索引的数据类型是 {got}，必须是 int64（和 x.max(dim=1) 给出的一样）。"},
    "forgot_mark_non_differentiable": {
        "en": "The indices are not marked: call ctx.mark_non_differentiable(indices) in forward, "
              "on the tensor you return.",
        "zh": "索引没有被标记：请在 forward 中对你返回的那个张量调用 "
              "ctx.mark_non_differentiable(indices)。"},
    "marked_values_non_differentiable": {
        "en": "The values have no gradient: you marked them non-differentiable (or detached "
              "them), but the gradient flows back through them. Mark the indices instead.",
        "zh": "最大值（values）没有梯度：你把它们标记成了不可导（或者 detach 了），"
              "而梯度正是经过它们传回去的。应该标记的是索引（indices）。"},
    "grad_not_to_argmax": {
        "en": "The gradient reaches every element of a row. Only the position of the row's "
              "maximum contributed to the value, so only it gets the gradient; the others get 0.",
        "zh": "梯度流到了一行中的每个元素。只有最大值所在的位置对输出有贡献，"
              "所以只有它得到梯度，其余位置都是 0。"},
}


# What MatMul must compute, with minigrad's built-in ops (see functions.py)
def _matmul(a, b):
    return a @ b


def check_matmul(answer):
    cls = _tools.require_function_class(answer)
    _diagnose_transposes(cls)
    cases = (case((2, 3), (3, 4), seed=30), case((3, 2), (2, 2), seed=31, dtype="float32"),
             case((2, 3), (3, 4), seed=32, requires_grad=(True, False)),
             case((4, 3), (3, 2), seed=33, requires_grad=(False, True)),
             case((3, 3), (3, 1), seed=34, dtype="float32", requires_grad=(False, True)))
    return _tools.check_function(answer, _matmul, cases, needs_input_grad=True)


def _diagnose_transposes(cls):
    """On square matrices a misplaced transpose still runs: compare with those mistakes."""
    a, b = case((3, 3), (3, 3), seed=35)()
    output = _tools.apply(cls, a, b)
    _tools.require_grad_fn(_tools.require_tensor(output, "forward"), (a, b))
    g = np.random.default_rng(36).uniform(-2, 2, size=(3, 3))
    raw = _tools.raw_backward(cls, output.grad_fn, (creation.tensor(g),))
    a, b = as_array(a), as_array(b)
    right = (g @ b.T, a.T @ g)
    if len(raw) >= 2 and all(_tools.is_tensor(r) and tuple(r.shape) == (3, 3) for r in raw[:2]):
        if np.allclose(as_array(raw[0]), right[1]) and np.allclose(as_array(raw[1]), right[0]):
            raise Hint("grads_swapped", first=0, second=1)
    for position, grad in enumerate(raw[:2]):
        if not _tools.is_tensor(grad) or tuple(grad.shape) != (3, 3):
            continue
        got = as_array(grad)
        products = [*_products(g, a), *_products(g, b)]
        wrong = [p for p in products if not np.allclose(p, right[position])]
        if not np.allclose(got, right[position]) and any(np.allclose(got, p) for p in wrong):
            raise Hint("matmul_transpose", input=position)


def _products(g, other):
    """Every product of g or gᵀ with other or otherᵀ, both orders, and their transposes."""
    for left in (g, g.T):
        for right in (other, other.T):
            for product in (left @ right, right @ left):
                yield product
                yield product.T


def check_max_with_index(answer):
    cls = _tools.require_function_class(answer)
    generator = np.random.default_rng(37)
    for shape, dtype in (((3, 4), "float64"), ((2, 5), "float32"), ((4, 1), "float64")):
        values = generator.permutation(np.arange(-10, 10))[:shape[0] * shape[1]].reshape(shape)
        _check_max_case(cls, (values * 0.37).astype(dtype), generator)


def _check_max_case(cls, values, generator):
    x = creation.tensor(values, requires_grad=True)
    outputs = _tools.apply(cls, x)
    if not isinstance(outputs, tuple) or len(outputs) != 2:
        raise Hint("return_values_and_indices")
    maxima, indices = outputs
    _tools.check_output(maxima, creation.tensor(values.max(axis=1)), "forward (values)")
    _tools.require_tensor(indices, "forward (indices)")
    if indices.dtype is not dtypes.int64:
        raise Hint("indices_dtype", got=_tools.dtype_name(indices.dtype))
    # PyTorch's int64, not numpy's platform int (int32 in the browser's Pyodide)
    expected = creation.tensor(values.argmax(axis=1), dtype=dtypes.int64)
    _tools.check_output(indices, expected, "forward (indices)")
    node = maxima.grad_fn
    if node is None:                      # x requires grad, so only a mark (or detach) cuts it
        raise Hint("marked_values_non_differentiable")
    if indices.requires_grad or not any(t is indices for t in getattr(node, "_non_differentiable", ())):
        raise Hint("forgot_mark_non_differentiable")
    rows, columns = values.shape
    g = generator.uniform(0.5, 2, size=rows) * generator.choice([-1, 1], size=rows)
    grad_values = creation.tensor(g, dtype=x.dtype)
    grad_indices = creation.zeros(rows, dtype=dtypes.int64)
    raw = _tools.raw_backward(cls, node, (grad_values, grad_indices))
    if len(raw) < 1 or any(r is not None for r in raw[1:]):
        raise Hint("wrong_num_grads", got=len(raw), expected=1)
    grad = _tools.require_tensor(raw[0], "backward")
    if tuple(grad.shape) != values.shape:
        raise Hint("wrong_grad_shape", input=0, got=list(grad.shape), expected=list(values.shape))
    one_hot = np.eye(columns)[values.argmax(axis=1)]
    got = as_array(grad)
    if columns > 1 and _tools.close(got, np.repeat(g[:, None], columns, axis=1), x.dtype):
        raise Hint("grad_not_to_argmax")
    row_grads = np.broadcast_to(g[:, None], values.shape)     # each row's grad_output
    _tools.diagnose_values(got, one_hot * g[:, None], one_hot, 0, values, x.dtype, (x,),
                           row_grads)
    _tools.apply(cls, x)[0].backward(grad_values)
    _tools.diagnose_values(as_array(x.grad), one_hot * g[:, None], None, 0, values, x.dtype,
                           (x,), row_grads)


CHECKS = {"matmul": check_matmul, "max_with_index": check_max_with_index}


# --- the trials (see _trial): the same, on inputs drawn when a grader grades -----------------

def _two_matrices(rng, dtype):
    """(m, k) @ (k, n)."""
    m, k, n = (int(size) for size in rng.integers(1, 5, size=3))
    return [In(uniform(rng, (m, k), dtype)), In(uniform(rng, (k, n), dtype))]


class _MaxWithIndexTrial:
    """The row maxima and their int64 indices (marked non-differentiable); the gradient goes
    to each row's maximum only."""

    @staticmethod
    def draw(seed):
        rng = np.random.default_rng(seed)
        rows, columns = int(rng.integers(1, 5)), int(rng.integers(2, 6))
        values = rng.permutation(np.arange(-20, 20))[:rows * columns].reshape(rows, columns)
        return rng, (values * 0.37).astype(dtype_of(rng))

    def run(self, answer, seed):
        cls = _tools.require_function_class(answer)
        rng, values = self.draw(seed)
        x = creation.tensor(values, requires_grad=True)
        outputs = _tools.apply(cls, x)
        if not isinstance(outputs, tuple):
            return {"outputs": None}
        report = {"outputs": [seen(output) for output in outputs]}
        node = getattr(outputs[0], "grad_fn", None)
        if len(outputs) != 2 or node is None:
            return report
        report["marked"] = any(t is outputs[1] for t in getattr(node, "_non_differentiable", ()))
        grad_values = creation.tensor(uniform(rng, values.shape[0], values.dtype))
        with no_grad():
            raw = cls.backward(node, grad_values, creation.zeros(values.shape[0],
                                                                 dtype=dtypes.int64))
        report["backward"] = [seen(grad) for grad in (raw if isinstance(raw, tuple) else (raw,))]
        outputs[0].backward(grad_values)
        report["grad"] = seen(x.grad)
        return report

    def judge(self, report, seed):
        rng, values = self.draw(seed)
        if not isinstance(report["outputs"], list) or len(report["outputs"]) != 2:
            raise Hint("return_values_and_indices")
        maxima, indices = report["outputs"]
        _tools.check_output(value_of(maxima), creation.tensor(values.max(axis=1)),
                            "forward (values)")
        got_indices = _tools.require_tensor(value_of(indices), "forward (indices)")
        if got_indices.dtype is not dtypes.int64:
            raise Hint("indices_dtype", got=_tools.dtype_name(got_indices.dtype))
        # PyTorch's int64, not numpy's platform int (int32 in the browser's Pyodide)
        expected = creation.tensor(values.argmax(axis=1), dtype=dtypes.int64)
        _tools.check_output(got_indices, expected, "forward (indices)")
        if not flags(maxima)[1]:
            raise Hint("marked_values_non_differentiable")
        if flags(indices)[0] or report["marked"] is not True:
            raise Hint("forgot_mark_non_differentiable")
        g = uniform(rng, values.shape[0], values.dtype).astype(np.float64)
        one_hot = np.eye(values.shape[1])[values.argmax(axis=1)]
        raw = [value_of(entry) for entry in report["backward"]]
        if not raw or any(grad is not None for grad in raw[1:]):
            raise Hint("wrong_num_grads", got=len(raw), expected=1)
        for grad in (raw[0], value_of(report["grad"])):
            _tools.require_tensor(grad, "backward")
            if tuple(grad.shape) != values.shape:
                raise Hint("wrong_grad_shape", input=0, got=list(grad.shape),
                           expected=list(values.shape))
            _tools.diagnose_values(as_array(grad), one_hot * g[:, None], one_hot, 0, values,
                                   dtypes.from_numpy_dtype(values.dtype))


TRIALS = {"matmul": FunctionTrial(_matmul, _two_matrices, needs_input_grad=True),
          "max_with_index": _MaxWithIndexTrial()}
