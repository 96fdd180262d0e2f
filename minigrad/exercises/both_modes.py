"""One Function for both modes, lesson 14's normalize_both_modes.

A backward (Jᵀg) and a jvp (J·t), each reading what was saved for it (save_for_backward,
save_for_forward).  `Normalize.apply(x)` divides each row of x by its sum, whose Jacobian
is not symmetric: the two products are different formulas.  The right gradient comes from
the same division in built-in ops run backward, the right tangent from it run in forward
mode.
"""
import numpy as np

from .. import autograd
from ..surface import creation
from ..autograd import forward_ad
from ..autograd.function import Function
from ..autograd.grad_mode import no_grad
from . import _tools
from ._observed import ObservedTrial
from ._tools import Hint, as_array
from ._trial import dtype_of, uniform


MESSAGES = {
    "normalize_each_row": {
        "en": "forward divides by the sum of the whole tensor. Normalize each row on its own: "
              "divide by the sum over the last dimension, kept as a dimension of size 1 "
              "(keepdim=True) so that it broadcasts against x.",
        "zh": "forward 除以的是整个张量的和。每一行要各自归一化：除以沿最后一维求的和，"
              "并保留这一维（keepdim=True），这样它才能和 x 广播。"},
    "add_a_backward": {
        "en": "Your Function has no backward, so a loss cannot be differentiated through it. "
              "Add a static method backward(ctx, grad_output) that returns Jᵀ·grad_output.",
        "zh": "你的 Function 没有 backward，损失无法经由它求导。请添加静态方法 "
              "backward(ctx, grad_output)，返回 Jᵀ·grad_output。"},
    "add_a_jvp": {
        "en": "Your Function has no jvp, so forward mode cannot use it. Add a static method "
              "jvp(ctx, x_t) that returns the tangent of the output, J·x_t.",
        "zh": "你的 Function 没有 jvp，前向模式用不了它。请添加静态方法 jvp(ctx, x_t)，"
              "返回输出的切向量 J·x_t。"},
    "backward_needs_save_for_backward": {
        "en": "backward found nothing in ctx.saved_tensors ({error}): only save_for_forward "
              "was called, and backward sees only what ctx.save_for_backward(...) saved. "
              "Save for each direction what it reads.",
        "zh": "backward 在 ctx.saved_tensors 里什么也没找到（{error}）：只调用了 save_for_forward，"
              "而 backward 只能看到用 ctx.save_for_backward(...) 保存的张量。每个方向要读什么，就为它保存什么。"},
    "jvp_needs_save_for_forward": {
        "en": "jvp found nothing in ctx.saved_tensors ({error}): only save_for_backward was "
              "called, and jvp sees only what ctx.save_for_forward(...) saved. Save for each "
              "direction what it reads.",
        "zh": "jvp 在 ctx.saved_tensors 里什么也没找到（{error}）：只调用了 save_for_backward，"
              "而 jvp 只能看到用 ctx.save_for_forward(...) 保存的张量。每个方向要读什么，就为它保存什么。"},
    "backward_is_jvp": {
        "en": "backward computes J·g, the formula of the tangent: for x = {x} and grad_output "
              "g = {g} it gives {got}, the gradient is {expected}. backward goes the other "
              "way, Jᵀ·g: input j collects gᵢ·∂yᵢ/∂xⱼ over every output i. This J is not "
              "symmetric, so the two formulas differ.",
        "zh": "backward 算的是 J·g，那是切向量的公式：对于 x = {x}、grad_output g = {g}，它给出 {got}，"
              "正确的梯度是 {expected}。backward 的方向正好相反，是 Jᵀ·g：输入 j 要把每个输出 i 的 "
              "gᵢ·∂yᵢ/∂xⱼ 都加起来。这里的 J 不对称，所以两个公式不一样。"},
    "jvp_is_backward": {
        "en": "jvp computes Jᵀ·t, the formula of backward: for x = {x} and tangent t = {t} it "
              "gives {got}, the tangent of the output is {expected}. jvp goes forward, J·t: "
              "output i collects ∂yᵢ/∂xⱼ·tⱼ over every input j. This J is not symmetric, so "
              "the two formulas differ.",
        "zh": "jvp 算的是 Jᵀ·t，那是 backward 的公式：对于 x = {x}、切向量 t = {t}，它给出 {got}，"
              "输出的切向量应该是 {expected}。jvp 是顺着前向走的，算的是 J·t：输出 i 要把每个输入 j 的 "
              "∂yᵢ/∂xⱼ·tⱼ 都加起来。这里的 J 不对称，所以两个公式不一样。"},
    "sum_held_constant": {
        "en": "{method} treats the sum s = Σx as a constant: for x = {x} and {name} = {v} it "
              "gives {got}, the right value is {expected}. Every xⱼ is in s too, so each "
              "yᵢ = xᵢ / s depends on every xⱼ: differentiate the quotient.",
        "zh": "{method} 把和 s = Σx 当成了常数：对于 x = {x}、{name} = {v}，它给出 {got}，"
              "正确值是 {expected}。每个 xⱼ 也出现在 s 里，所以每个 yᵢ = xᵢ / s 都依赖于所有的 xⱼ："
              "要按商的求导法则来求导。"},
    "forgot_division_by_sum": {
        "en": "{method} leaves out the division by s = Σx: for x = {x} (s = {s}) and "
              "{name} = {v} it gives {got}, the right value is {expected}, s times smaller.",
        "zh": "{method} 漏掉了除以 s = Σx 这一步：对于 x = {x}（s = {s}）、{name} = {v}，它给出 {got}，"
              "正确值是 {expected}，是你的结果的 s 分之一。"},
    "sums_across_rows": {
        "en": "{method} mixes the rows: it sums over the whole tensor where each row is "
              "normalized on its own (x of shape {shape}). Sum over the last dimension, with "
              "keepdim=True.",
        "zh": "{method} 把不同的行混在一起了：每一行是各自归一化的，它却对整个张量求和"
              "（x 的形状是 {shape}）。要沿最后一维求和，并设 keepdim=True。"},
    "wrong_normalize_gradient": {
        "en": "backward is wrong for x = {x} and grad_output g = {g}: it gives {got}, the "
              "gradient is {expected}. Write ∂yᵢ/∂xⱼ for this row on paper, then add up "
              "gᵢ·∂yᵢ/∂xⱼ over i for each input j.",
        "zh": "对于 x = {x}、grad_output g = {g}，backward 算错了：它给出 {got}，正确的梯度是 {expected}。"
              "先在纸上写出这一行的 ∂yᵢ/∂xⱼ，再对每个输入 j 把 gᵢ·∂yᵢ/∂xⱼ 对 i 求和。"},
    "wrong_normalize_tangent": {
        "en": "jvp is wrong for x = {x} and tangent t = {t}: it gives {got}, the tangent of the "
              "output is {expected}. Write ∂yᵢ/∂xⱼ for this row on paper, then add up "
              "∂yᵢ/∂xⱼ·tⱼ over j for each output i.",
        "zh": "对于 x = {x}、切向量 t = {t}，jvp 算错了：它给出 {got}，输出的切向量应该是 {expected}。"
              "先在纸上写出这一行的 ∂yᵢ/∂xⱼ，再对每个输出 i 把 ∂yᵢ/∂xⱼ·tⱼ 对 j 求和。"},
}

# rows to redo on paper: x, the gradient g arriving in backward, the tangent t given to jvp
_ROWS = np.array([[1.0, 2.0, 5.0], [0.5, 1.5, 2.0]])
_GRADS = np.array([[1.0, -1.0, 0.5], [2.0, 0.0, -1.0]])
_TANGENTS = np.array([[1.0, 0.5, -1.0], [0.5, 1.0, 1.0]])


def _normalize(x):
    sums = x.sum(dim=-1, keepdim=True)
    return x / sums


def _cases():
    """(x, g, t): one row, then two rows, then a batch of them."""
    batch = np.random.default_rng(12).uniform(0.2, 3.0, size=(2, 3, 4))
    signs = np.random.default_rng(13).uniform(-2.0, 2.0, size=(2, 2, 3, 4))
    return ((_ROWS[0], _GRADS[0], _TANGENTS[0]), (_ROWS, _GRADS, _TANGENTS),
            (batch, signs[0], signs[1]))


def _builtin_gradient(values, g):
    x = creation.tensor(values, requires_grad=True)
    (grad,) = autograd.grad(_normalize(x), x, creation.tensor(g))
    return as_array(grad)


def _builtin_tangent(values, t):
    with forward_ad.dual_level():
        output = _normalize(forward_ad.make_dual(creation.tensor(values), creation.tensor(t)))
        return as_array(forward_ad.unpack_dual(output).tangent)


def check_normalize_both_modes(answer):
    cls = _tools.require_function_class(answer)
    for values, _, _ in _cases():
        for dtype in ("float64", "float32"):
            _check_forward(cls, values.astype(dtype))
    if cls.backward is Function.backward:
        raise Hint("add_a_backward")
    for values, g, _ in _cases():
        _check_backward(cls, values, g)
    if getattr(cls, "jvp", None) in (None, getattr(Function, "jvp", None)):
        raise Hint("add_a_jvp")
    for values, _, t in _cases():
        _check_jvp(cls, values, t)
    _check_both_at_once(cls)


def _check_forward(cls, values):
    x = creation.tensor(values, requires_grad=True)
    output = _tools.apply(cls, x)
    with no_grad():
        plain = creation.tensor(values)
        expected = _normalize(plain)
        if values.ndim > 1 and _tools.same_values(output, plain / plain.sum()):
            raise Hint("normalize_each_row")
    _tools.check_output(output, expected)
    _tools.require_grad_fn(output, (x,))


def _saved_for_the_other_only(node, reader):
    """Whether forward saved tensors for the other direction only: `reader` ("backward" or
    "jvp") finds nothing in ctx.saved_tensors."""
    for_backward = bool(getattr(node, "to_save", None) or getattr(node, "_saved", None))
    for_jvp = bool(getattr(node, "saved_for_forward", None))
    return (for_jvp and not for_backward) if reader == "backward" else (
        for_backward and not for_jvp)


def _check_backward(cls, values, g):
    x = creation.tensor(values, requires_grad=True)
    output = _tools.apply(cls, x)
    node = output.grad_fn
    try:
        raw = _tools.raw_backward(cls, node, (creation.tensor(g),))
    except (ValueError, IndexError) as error:
        if _saved_for_the_other_only(node, "backward"):
            raise Hint("backward_needs_save_for_backward",
                       error=f"{type(error).__name__}: {str(error)[:80]}") from None
        raise
    if len(raw) < 1 or any(r is not None for r in raw[1:]):       # (trailing Nones: fine)
        raise Hint("wrong_num_grads", got=len(raw), expected=1)
    grad = raw[0]
    if grad is None:
        raise Hint("missing_grad", input=0)
    _tools.require_tensor(grad, "backward")
    if tuple(grad.shape) != tuple(x.shape):
        raise Hint("wrong_grad_shape", input=0, got=list(grad.shape), expected=list(x.shape))
    _diagnose("backward", as_array(grad), _builtin_gradient(values, g), values, g)


def _check_jvp(cls, values, t):
    plain = _tools.apply(cls, creation.tensor(values, requires_grad=True)).grad_fn
    try:
        with forward_ad.dual_level():
            output = _tools.apply(cls, forward_ad.make_dual(creation.tensor(values),
                                                            creation.tensor(t)))
            tangent = forward_ad.unpack_dual(output).tangent
    except (ValueError, IndexError) as error:
        if _saved_for_the_other_only(plain, "jvp"):
            raise Hint("jvp_needs_save_for_forward",
                       error=f"{type(error).__name__}: {str(error)[:80]}") from None
        raise
    if tangent is None:
        raise Hint("add_a_jvp")
    _tools.require_tensor(tangent, "jvp")
    if tuple(tangent.shape) != values.shape:
        raise Hint("wrong_shape", where="jvp", got=list(tangent.shape),
                   expected=list(values.shape))
    _diagnose("jvp", as_array(tangent), _builtin_tangent(values, t), values, t)


def _diagnose(method, got, expected, values, v):
    """Right, or which mistake: the other direction's formula, s held constant, 1/s left out,
    rows summed together; else the first row that is wrong, to redo on paper."""
    dtype = creation.tensor(values).dtype
    if _tools.close(got, expected, dtype):
        return
    total = values.sum(-1, keepdims=True)
    y = values / total
    if method == "backward":
        other, over_all = (v - y * v.sum(-1, keepdims=True)) / total, (v - (v * y).sum()) / total
    else:
        other, over_all = (v - (v * y).sum(-1, keepdims=True)) / total, (v - y * v.sum()) / total
    rows = lambda array: array.reshape(-1, values.shape[-1])          # noqa: E731
    bad = next(i for i, (a, b) in enumerate(zip(rows(got), rows(expected)))
               if not _tools.close(a, b, dtype))
    name = "g" if method == "backward" else "t"
    params = {"x": _numbers(rows(values)[bad]), name: _numbers(rows(v)[bad]),
              "got": _numbers(rows(got)[bad]), "expected": _numbers(rows(expected)[bad])}
    said = {"method": method, "name": "grad_output" if method == "backward" else "x_t",
            "v": params[name], "x": params["x"], "got": params["got"],
            "expected": params["expected"]}
    if _tools.close(got, other, dtype):
        raise Hint("backward_is_jvp" if method == "backward" else "jvp_is_backward", **params)
    if _tools.close(got, v / total, dtype):
        raise Hint("sum_held_constant", **said)
    if _tools.close(got, expected * total, dtype):
        raise Hint("forgot_division_by_sum", s=f"{total.reshape(-1)[bad]:.4g}", **said)
    if values.ndim > 1 and _tools.close(got, over_all, dtype):
        raise Hint("sums_across_rows", method=method, shape=list(values.shape))
    raise Hint("wrong_normalize_gradient" if method == "backward" else "wrong_normalize_tangent",
               **params)


def _check_both_at_once(cls):
    """x requires grad and is dual: the output has a tangent and a graph, both right."""
    values, g, t = _cases()[1]
    x = creation.tensor(values, requires_grad=True)
    with forward_ad.dual_level():
        output = _tools.apply(cls, forward_ad.make_dual(x, creation.tensor(t)))
        tangent = forward_ad.unpack_dual(output).tangent
    _diagnose("jvp", as_array(tangent), _builtin_tangent(values, t), values, t)
    (grad,) = autograd.grad(output, x, creation.tensor(g))
    _diagnose("backward", as_array(grad), _builtin_gradient(values, g), values, g)


def _numbers(values):
    return "[" + ", ".join(f"{value:.4g}" for value in values) + "]"


CHECKS = {"normalize_both_modes": check_normalize_both_modes}


# ---------------------------------------------------------------- trials

def _normalize_draw(rng):
    dtype = dtype_of(rng)
    rows, columns = (int(n) for n in rng.integers(2, 5, size=2))
    shape = (rows, columns) if rng.random() < 0.5 else (2, rows, columns)
    return (uniform(rng, shape, dtype, 0.2, 3.0), uniform(rng, shape, dtype),
            uniform(rng, shape, dtype))


def _normalize_values(function, drawn):
    values, g, t = drawn
    x = creation.tensor(values, requires_grad=True)
    output = function(x)
    _tools.require_tensor(output, "forward")
    (grad,) = autograd.grad(output, x, creation.tensor(g), allow_unused=True)
    with forward_ad.dual_level():
        dual = function(forward_ad.make_dual(creation.tensor(values), creation.tensor(t)))
        tangent = forward_ad.unpack_dual(dual).tangent
    return {"forward": output, "backward": grad, "jvp": tangent}


def _normalize_expect(drawn):
    found = _normalize_values(_normalize, drawn)
    return {name: value.detach() for name, value in found.items()}


TRIALS = {"normalize_both_modes": ObservedTrial(
    _normalize_draw, lambda answer, drawn: _normalize_values(_tools.applied(answer), drawn),
    _normalize_expect)}
