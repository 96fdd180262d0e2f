"""Lesson 13, double backward in depth: hvp (a Hessian-vector product), softplus_double_backward
(an intermediate returned as an output), sin_backward_function (a backward that is a Function
of its own).

hvp is compared with `autograd.functional.hessian(f, x) @ v`, and the engine's trace counts
the backward passes: a fixed number of them, not one per element of x.  The Functions are
compared, to the third derivative, with the same function written in built-in ops.
"""
import numpy as np

from .. import autograd, tracing
from ..autograd.grad_mode import no_grad
from ..surface import creation
from . import _tools
from ._observed import ObservedTrial, at_most, refused_or
from ._tools import Hint, as_array
from ._trial import dtype_of, matrix_shape, uniform

MESSAGES = {
    "returned_gradient": {
        "en": "Your result is the gradient ∇f(x), not the Hessian times v. Differentiate "
              "once more: the gradient of the dot product ∇f(x) · v, taken with respect to x.",
        "zh": "你的结果是梯度 ∇f(x)，而不是 Hessian 乘以 v。还要再求一次导：对点积 ∇f(x) · v 关于 x 求梯度。"},
    "multiplied_the_gradient": {
        "en": "Your result is ∇f(x) * v, the gradient times v element by element. H·v is the "
              "gradient of ∇f(x) · v: take ∇f(x) with create_graph=True, then differentiate "
              "(∇f(x) * v).sum() with respect to x.",
        "zh": "你的结果是 ∇f(x) * v，即梯度与 v 逐元素相乘。H·v 是 ∇f(x) · v 的梯度：先用 "
              "create_graph=True 求出 ∇f(x)，再对 (∇f(x) * v).sum() 关于 x 求导。"},
    "returned_hessian": {
        "en": "hvp returned the whole Hessian ({got}), a matrix; the product H·v is a vector "
              "shaped like x, and computing it needs no matrix at all.",
        "zh": "hvp 返回了整个 Hessian 矩阵（{got}）；乘积 H·v 是一个形状和 x 相同的向量，"
              "计算它根本不需要矩阵。"},
    "forgot_vector": {
        "en": "Your result is the Hessian times a vector of ones, H·1: v is missing. Take the "
              "gradient of (∇f(x) * v).sum(), not of ∇f(x).sum().",
        "zh": "你的结果是 Hessian 乘以全 1 向量，即 H·1：漏掉了 v。要对 (∇f(x) * v).sum() 求梯度，"
              "而不是对 ∇f(x).sum()。"},
    "built_the_hessian": {
        "en": "The result is right, but it took {passes} backward passes for x of {size} "
              "elements: the Hessian was built one row at a time. A Hessian-vector product "
              "costs two passes whatever the size of x: differentiate ∇f(x) · v.",
        "zh": "结果是对的，但对于 {size} 个元素的 x，它用了 {passes} 次反向传播：Hessian 被一行一行地算了出来。"
              "不管 x 有多大，Hessian-向量积只需要两次反向传播：对 ∇f(x) · v 求导。"},
    "make_a_leaf": {
        "en": "Here x does not require grad, so autograd cannot differentiate with respect to it. "
              "Make your own leaf first, x.detach().requires_grad_(), and use it throughout.",
        "zh": "这里的 x 不需要梯度，autograd 无法对它求导。先自己造一个叶子张量 "
              "x.detach().requires_grad_()，后面都用它。"},
    "wrong_hvp": {
        "en": "H·v is wrong for f = {function} at x = {x}, v = {v}: at index {index} you give {got}, "
              "the right value is {expected}. Check what you differentiate the second time.",
        "zh": "对于 f = {function}，在 x = {x}、v = {v} 处，H·v 不对：在下标 {index} 处你给出 {got}，"
              "正确值是 {expected}。检查第二次求导的对象是什么。"},
    "return_the_intermediate": {
        "en": "forward must return two tensors: log(1 + eˣ), and the intermediate eˣ that "
              "backward needs; got {got}.",
        "zh": "forward 必须返回两个张量：log(1 + eˣ)，以及 backward 需要的中间结果 eˣ；收到的是 {got}。"},
    "intermediate_not_returned": {
        "en": "The first derivative is right but has no graph: backward computes with a tensor "
              "forward made and saved, which is not among forward's outputs, so nothing leads "
              "from it back to x. Return it as an output too (and save it), as Sinh does.",
        "zh": "一阶导数是对的，但它没有计算图：backward 用到的张量是 forward 算出并保存的，却不在 forward "
              "的输出里，所以没有任何路径从它通回 x。像 Sinh 那样，把它也作为输出返回（并保存它）。"},
    "forgot_intermediate_gradient": {
        "en": "The second derivative is wrong (0 at x = {value}, where it is {expected}): backward "
              "ignores the gradient of its second output, eˣ. In a double backward that "
              "gradient is what carries the derivative through eˣ: add its term, the gradient "
              "of eˣ times eˣ.",
        "zh": "二阶导数不对（在 x = {value} 处本应是 {expected}，却是 0）：backward 忽略了第二个输出 eˣ 的梯度。"
              "在二次反向传播中，正是这个梯度把导数经由 eˣ 传回去：把它对应的那一项加上，即 eˣ 的梯度乘以 eˣ。"},
    "backward_needs_its_function": {
        "en": "The first derivative has no graph, so it cannot be differentiated again: Sin's "
              "backward computes in numpy. Let it call SinBackward.apply(grad_output, x), a "
              "Function whose own backward tells autograd how that result changes.",
        "zh": "一阶导数没有计算图，无法再求导：Sin 的 backward 是用 numpy 计算的。让它调用 "
              "SinBackward.apply(grad_output, x)：这个 Function 自己的 backward 会告诉 autograd "
              "这个结果如何变化。"},
    "grad_output_derivative": {
        "en": "The second derivative is right for the loss y.sum() but wrong for (y * y).sum(), "
              "where the incoming gradient 2y depends on x too: SinBackward's backward must "
              "also return the gradient with respect to grad_output (how grad_output · cos x "
              "changes with grad_output).",
        "zh": "对于损失 y.sum()，二阶导数是对的；但对于 (y * y).sum() 就不对了，因为那里传进来的梯度 2y "
              "也依赖于 x：SinBackward 的 backward 还必须返回对 grad_output 的梯度"
              "（grad_output · cos x 随 grad_output 怎样变化）。"},
    "inner_grads_swapped": {
        "en": "SinBackward's backward returns its two gradients in the wrong order: first the "
              "one for grad_output, then the one for x, as its forward takes them.",
        "zh": "SinBackward 的 backward 返回的两个梯度顺序反了：应该按它的 forward 接收参数的顺序，"
              "先返回对 grad_output 的梯度，再返回对 x 的梯度。"},
    "third_order_silently_wrong": {
        "en": "The third derivative is silently wrong (at x = {value} it gives {got}, the right "
              "value is {expected}): SinBackward's backward computes something in numpy that "
              "autograd records as a constant. Write it in tensor ops, or mark it @once_differentiable so that a "
              "third derivative raises instead.",
        "zh": "三阶导数悄无声息地算错了（在 x = {value} 处本应是 {expected}，却得到 {got}）："
              "SinBackward 的 backward 用 numpy 算了某个量，autograd 把它当成了常数。请用张量运算来写它，或者用 "
              "@once_differentiable 标记它，让三阶导数直接报错。"},
}

# ---------------------------------------------------------------- hvp

_DIAGONAL = creation.tensor(np.array([1.0, -2.0, 0.5, 3.0, 1.5]))


def _quartic(x):
    return (x ** 4).sum() / 12


def _chain(x):
    return (x[:-1] * x[1:]).sin().sum()


def _log_sum_exp(x):
    return x.logsumexp(dim=0) + (x * _DIAGONAL[:len(x)] * x).sum()


_HVP_FUNCTIONS = (("(x ** 4).sum() / 12", _quartic, [0.5, -1.0, 2.0], False),
                  ("(x[:-1] * x[1:]).sin().sum()", _chain, [0.3, -1.2, 0.8, 2.0, -0.4], True),
                  ("x.logsumexp(dim=0) + (x * d * x).sum()", _log_sum_exp,
                   [1.0, 0.0, -0.5, 2.0, 0.25], True))


def check_hvp(answer):
    hvp = _tools.require_callable(answer)
    generator = np.random.default_rng(90)
    for name, f, values, requires_grad in _HVP_FUNCTIONS:
        values = np.array(values)
        v_values = generator.uniform(-1, 1, size=values.shape)
        x = creation.tensor(values, requires_grad=requires_grad)
        v = creation.tensor(v_values)
        with tracing.record() as recorded:
            try:
                result = hvp(f, x, v)
            except RuntimeError as error:
                _diagnose_graph_error(error)
                raise
        passes = len(recorded.of_kind("backward_started"))
        hessian = as_array(autograd.functional.hessian(f, creation.tensor(values)))
        gradient = as_array(autograd.functional.jacobian(f, creation.tensor(values)))
        _check_hvp_result(result, hessian, gradient, values, v_values, name)
        if passes > 3 and passes >= len(values):
            raise Hint("built_the_hessian", passes=passes, size=len(values))


def _diagnose_graph_error(error):
    text = str(error)
    if "does not require grad and does not have a grad_fn" in text:
        raise Hint("forgot_create_graph") from None
    if "One of the differentiated Tensors does not require grad" in text:
        raise Hint("make_a_leaf") from None


def _check_hvp_result(result, hessian, gradient, x_values, v, name):
    if isinstance(result, (tuple, list)) and any(_tools.is_tensor(r) for r in result):
        raise Hint("grad_returns_tuple")
    _tools.require_tensor(result, "hvp")
    got = as_array(result)
    if got.shape == hessian.shape and got.ndim == 2:
        raise Hint("returned_hessian", got=f"{got.shape[0]}×{got.shape[1]}")
    if got.shape != v.shape:
        raise Hint("wrong_shape", where="hvp", got=list(got.shape), expected=list(v.shape))
    expected = hessian @ v
    if np.allclose(got, expected, rtol=1e-6, atol=1e-8):
        return
    if np.allclose(got, gradient, rtol=1e-6, atol=1e-8):
        raise Hint("returned_gradient")
    if np.allclose(got, hessian.sum(axis=1), rtol=1e-6, atol=1e-8):
        raise Hint("forgot_vector")
    if np.allclose(got, gradient * v, rtol=1e-6, atol=1e-8):
        raise Hint("multiplied_the_gradient")
    bad = _tools.first_mismatch(got, expected, creation.tensor(v).dtype)
    raise Hint("wrong_hvp", function=name, x=_numbers(x_values), v=_numbers(v),
               index=list(bad), got=f"{got[bad]:.4g}", expected=f"{expected[bad]:.4g}")


def _numbers(values):
    return "[" + ", ".join(f"{value:.3g}" for value in values) + "]"


# ---------------------------------------------------------------- softplus_double_backward


def _builtin_derivatives(function, values, orders, loss=lambda y: y.sum()):
    """function(x) and its derivatives up to `orders`, each the gradient of the previous
    one's sum, taken with the built-in ops function is made of."""
    x = creation.tensor(values, requires_grad=True)
    current, found = loss(function(x)), []
    for _ in range(orders):
        (current,) = autograd.grad(current, x, create_graph=True)
        found.append(as_array(current))
        current = current.sum()
    return found


def _softplus(x):
    return (1 + x.exp()).log()


def check_softplus_double_backward(answer):
    cls = _tools.require_function_class(answer)
    for values in (np.array([-1.5, -0.2, 0.0, 0.7, 2.0]), np.array([[0.5, -3.0], [1.0, 4.0]])):
        x = creation.tensor(values, requires_grad=True)
        outputs, saved = _tools.apply_observing_saves(cls, x)
        if (not isinstance(outputs, tuple) or len(outputs) != 2
                or not all(_tools.is_tensor(o) for o in outputs)):
            raise Hint("return_the_intermediate", got=_tools.describe(outputs))
        with no_grad():
            plain = creation.tensor(values)
            _tools.check_output(outputs[0], _softplus(plain), "forward (output 0)")
            _tools.check_output(outputs[1], plain.exp(), "forward (output 1)")
        first_expected, second_expected = _builtin_derivatives(_softplus, values, 2)
        (first,) = autograd.grad(outputs[0].sum(), x, create_graph=True)
        _tools.diagnose_values(as_array(first), first_expected, None, 0, values, x.dtype)
        kept_apart = any(not any(_tools.same_values(t, known) for known in (x, *outputs))
                         for t in saved)           # saved, but neither input nor output
        if first.grad_fn is None:
            raise Hint("intermediate_not_returned" if kept_apart else "backward_not_differentiable")
        (second,) = autograd.grad(first.sum(), x, allow_unused=True)
        got = np.zeros_like(values) if second is None else as_array(second)
        if not _tools.close(got, second_expected, x.dtype):
            if kept_apart:
                raise Hint("intermediate_not_returned")
            if not got.any():
                raise Hint("forgot_intermediate_gradient", value=f"{values.flat[0]:.4g}",
                           expected=f"{second_expected.flat[0]:.4g}")
            _tools.diagnose_values(got, second_expected, None, 0, values, x.dtype)
    wrapper = lambda x: _tools.apply(cls, x)[0]            # noqa: E731 — softplus(x)
    x = creation.tensor(np.array([0.3, -1.1, 1.7]), requires_grad=True)
    grad_output = creation.tensor(np.array([0.5, -1.0, 2.0]), requires_grad=True)
    if not autograd.gradgradcheck(wrapper, (x,), (grad_output,), raise_exception=False):
        raise Hint("backward_not_differentiable")


# ---------------------------------------------------------------- sin_backward_function


def _sin(x):
    return x.sin()


def check_sin_backward_function(answer):
    cls = _tools.require_function_class(answer)
    values = np.array([0.3, -1.2, 2.0, 0.0])
    for dtype in ("float64", "float32"):
        x = creation.tensor(values.astype(dtype), requires_grad=True)
        output = _tools.apply(cls, x)
        with no_grad():
            _tools.check_output(output, creation.tensor(values.astype(dtype)).sin())
        _tools.require_grad_fn(output, (x,))
    first_expected, second_expected, third_expected = _builtin_derivatives(_sin, values, 3)
    x = creation.tensor(values, requires_grad=True)
    output = _tools.apply(cls, x)
    try:
        (first,) = autograd.grad(output.sum(), x, create_graph=True)
    except RuntimeError as error:       # numpy in a backward that runs with grad mode on
        if "Can't call numpy() on Tensor that requires grad" in str(error):
            raise Hint("backward_needs_its_function") from None
        raise
    _tools.diagnose_values(as_array(first), first_expected, None, 0, values, x.dtype)
    if first.grad_fn is None:
        raise Hint("backward_needs_its_function")
    (second,) = autograd.grad(first.sum(), x, create_graph=True)
    got = as_array(second)
    if not _tools.close(got, second_expected, x.dtype):
        if _tools.close(got, first_expected, x.dtype):         # grad · cos x: the other slot
            raise Hint("inner_grads_swapped")
        _tools.diagnose_values(got, second_expected, None, 0, values, x.dtype)
    _check_incoming_gradient_depends_on_x(cls, values)
    _check_third_order(second, x, third_expected)


def _check_incoming_gradient_depends_on_x(cls, values):
    """The loss (y * y).sum(): the gradient SinBackward gets requires grad itself."""
    expected = _builtin_derivatives(_sin, values, 2, loss=lambda y: (y * y).sum())[1]
    x = creation.tensor(values, requires_grad=True)
    y = _tools.apply(cls, x)
    (first,) = autograd.grad((y * y).sum(), x, create_graph=True)
    (second,) = autograd.grad(first.sum(), x, allow_unused=True)
    if second is None or not _tools.close(as_array(second), expected, x.dtype):
        raise Hint("grad_output_derivative")


def _check_third_order(second, x, expected):
    """A third derivative right, or refused (once_differentiable): never silently wrong."""
    try:
        (third,) = autograd.grad(second.sum(), x, allow_unused=True)
    except RuntimeError:
        return
    got = np.zeros_like(expected) if third is None else as_array(third)
    if not _tools.close(got, expected, x.dtype):
        bad = _tools.first_mismatch(got, expected, x.dtype)
        raise Hint("third_order_silently_wrong", value=f"{x.detach().tolist()[bad[0]]:.4g}",
                   got=f"{got[bad]:.4g}", expected=f"{expected[bad]:.4g}")


CHECKS = {"hvp": check_hvp, "softplus_double_backward": check_softplus_double_backward,
          "sin_backward_function": check_sin_backward_function}


# ---------------------------------------------------------------- trials


def _hvp_draw(rng):
    """x does not require grad: hvp makes its own leaf."""
    name, f, _, _ = _HVP_FUNCTIONS[int(rng.integers(len(_HVP_FUNCTIONS)))]
    size = int(rng.integers(3, 6))
    return (name, f, uniform(rng, size, "float64", low=-1.5, high=1.5), False,
            uniform(rng, size, "float64"))


def _hvp_compute(answer, drawn):
    hvp = _tools.require_callable(answer)
    _, f, values, requires_grad, v = drawn
    with tracing.record() as recorded:
        try:
            result = hvp(f, creation.tensor(values, requires_grad=requires_grad),
                         creation.tensor(v))
        except RuntimeError as error:
            _diagnose_graph_error(error)
            raise
    return {"hvp": result, "passes": len(recorded.of_kind("backward_started"))}


def _hvp_expect(drawn):
    _, f, values, _, v = drawn
    hessian = autograd.functional.hessian(f, creation.tensor(values))
    return {"hvp": hessian @ creation.tensor(v),
            "passes": at_most(max(3, len(values) - 1), "built_the_hessian", passes=None,
                              size=len(values))}


def _softplus_draw(rng):
    return uniform(rng, matrix_shape(rng), dtype_of(rng), low=-3.0, high=3.0)


def _softplus_derivatives(function, values):
    x = creation.tensor(values, requires_grad=True)
    outputs = function(x)
    if (not isinstance(outputs, tuple) or len(outputs) != 2
            or not all(_tools.is_tensor(o) for o in outputs)):
        raise Hint("return_the_intermediate", got=_tools.describe(outputs))
    (first,) = autograd.grad(outputs[0].sum(), x, create_graph=True)
    if first.grad_fn is None:
        raise Hint("backward_not_differentiable")
    (second,) = autograd.grad(first.sum(), x, allow_unused=True)
    return {"softplus": outputs[0], "intermediate": outputs[1], "first": first.detach(),
            "second": second}


def _softplus_expect(values):
    found = _softplus_derivatives(lambda x: (_softplus(x), x.exp()), values)
    return {name: value.detach() for name, value in found.items()}


def _sin_draw(rng):
    return uniform(rng, int(rng.integers(2, 7)), dtype_of(rng), low=-3.0, high=3.0)


def _sin_derivatives(function, values):
    x = creation.tensor(values, requires_grad=True)
    y = function(x)
    _tools.require_tensor(y, "forward")
    try:
        (first,) = autograd.grad(y.sum(), x, create_graph=True)
    except RuntimeError as error:
        if "Can't call numpy() on Tensor that requires grad" in str(error):
            raise Hint("backward_needs_its_function") from None
        raise
    if first.grad_fn is None:
        raise Hint("backward_needs_its_function")
    (second,) = autograd.grad(first.sum(), x, create_graph=True)
    try:
        (third,) = autograd.grad(second.sum(), x, allow_unused=True)
    except RuntimeError:           # refused by @once_differentiable: allowed
        third = None
    z = creation.tensor(values, requires_grad=True)
    w = function(z)
    (first_of_square,) = autograd.grad((w * w).sum(), z, create_graph=True)
    (second_of_square,) = autograd.grad(first_of_square.sum(), z, allow_unused=True)
    return {"sin": y.detach(), "first": first.detach(), "second": second.detach(),
            "third": third, "second_of_square": second_of_square}


def _sin_expect(values):
    found = {name: value.detach() for name, value in _sin_derivatives(_sin, values).items()}
    found["third"] = refused_or(found["third"], "the third derivative")
    return found


TRIALS = {"hvp": ObservedTrial(_hvp_draw, _hvp_compute, _hvp_expect),
          "softplus_double_backward": ObservedTrial(
              _softplus_draw,
              lambda answer, values: _softplus_derivatives(_tools.applied(answer), values),
              _softplus_expect),
          "sin_backward_function": ObservedTrial(
              _sin_draw, lambda answer, values: _sin_derivatives(_tools.applied(answer), values),
              _sin_expect)}
