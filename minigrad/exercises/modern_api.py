"""A custom Function in today's form.

Lesson 06, polar: setup_context, set_materialize_grads and needs_input_grad, together.
`Polar.apply(r, theta)` returns `(r·cos θ, r·sin θ)`.  forward takes no ctx; setup_context
keeps what backward needs and turns materialization off, so that backward receives None
for an output the loss did not use.  The check calls the answer's backward directly with
each output's gradient present or None, and with one input needing no gradient; the
right gradients come from the same formula written with minigrad's built-in ops.

Lesson 12, normalize_both_modes: one Function with a backward (Jᵀg) and a jvp (J·t), each
reading what was saved for it (save_for_backward, save_for_forward).  `Normalize.apply(x)`
divides each row of x by its sum, whose Jacobian is not symmetric: the two products are
different formulas.  The right gradient comes from the same division in built-in ops run
backward, the right tangent from it run in forward mode.
"""
import inspect

import numpy as np

from .. import autograd, creation
from ..autograd import forward_ad
from ..autograd.function import Function
from ..autograd.grad_mode import no_grad
from . import _tools
from ._observed import ObservedTrial
from ._tools import Hint, as_array
from ._trial import dtype_of, uniform

MESSAGES = {
    "use_setup_context": {
        "en": "Your Function is written in the older form, with ctx as forward's first "
              "parameter. Write it in today's form: forward(r, theta) computes the outputs "
              "only, and a static method setup_context(ctx, inputs, output) fills ctx in.",
        "zh": "你的 Function 用的是旧写法：ctx 是 forward 的第一个参数。请改用现在的写法："
              "forward(r, theta) 只负责算出输出，再写一个静态方法 setup_context(ctx, inputs, output) "
              "来填写 ctx。"},
    "forward_takes_no_ctx": {
        "en": "With setup_context, forward takes no ctx: it is called as forward(r, theta), and "
              "setup_context(ctx, inputs, output) receives ctx instead.",
        "zh": "有了 setup_context，forward 就不再接收 ctx：它被调用时是 forward(r, theta)，"
              "ctx 改由 setup_context(ctx, inputs, output) 接收。"},
    "setup_context_args": {
        "en": "setup_context has the wrong parameters: it is called as "
              "setup_context(ctx, inputs, output), with inputs the tuple of forward's "
              "arguments and output what forward returned.",
        "zh": "setup_context 的参数不对：它被调用时是 setup_context(ctx, inputs, output)，"
              "其中 inputs 是 forward 所有参数组成的元组，output 是 forward 的返回值。"},
    "return_two_outputs": {
        "en": "forward must return a tuple of two tensors, (r·cos θ, r·sin θ); got {got}.",
        "zh": "forward 必须返回由两个张量组成的元组 (r·cos θ, r·sin θ)，收到的是 {got}。"},
    "materialize_still_on": {
        "en": "The gradients are not asked to arrive as None: call "
              "ctx.set_materialize_grads(False) in setup_context, so that backward gets None "
              "(not a tensor of zeros) for an output the loss did not use.",
        "zh": "你还没有让缺失的梯度以 None 传入：请在 setup_context 中调用 "
              "ctx.set_materialize_grads(False)，这样对于损失没有用到的输出，backward "
              "收到的是 None，而不是全零张量。"},
    "none_not_handled": {
        "en": "backward failed when the gradient of output {output} was None (the loss used "
              "only the other output): {error}. With materialization off, test each incoming "
              "gradient for None before computing with it.",
        "zh": "当输出 {output} 的梯度是 None（损失只用到了另一个输出）时，backward 出错了：{error}。"
              "关闭补零之后，用每个传入的梯度计算之前，都要先判断它是不是 None。"},
    "dropped_output_term": {
        "en": "When both outputs are used, your gradients leave out the part that comes from "
              "output {output}: each input's gradient is the sum of one term per output (the "
              "chain rule adds the paths through x and through y).",
        "zh": "两个输出都被用到时，你的梯度漏掉了来自输出 {output} 的那一部分：每个输入的梯度是"
              "各个输出各贡献一项之和（链式法则要把经过 x 和经过 y 的路径加起来）。"},
    "zeros_where_none": {
        "en": "backward returned a gradient of zeros for input {input}, which needs none "
              "(ctx.needs_input_grad[{input}] is False): return None there, which also "
              "skips the work.",
        "zh": "输入 {input} 不需要梯度（ctx.needs_input_grad[{input}] 是 False），backward "
              "却为它返回了全零的梯度：那里应该返回 None，这样也省掉了那部分计算。"},
}


def _forward_inputs(seed, needs=(True, True), dtype="float64"):
    generator = np.random.default_rng(seed)
    r = generator.uniform(0.5, 2.0, size=5)
    theta = np.concatenate([[0.0], generator.uniform(-3.0, 3.0, size=4)])
    return tuple(creation.tensor(v.astype(dtype), requires_grad=flag)
                 for v, flag in zip((r, theta), needs))


def _expected(r, theta, grads):
    """The gradients of (r·cos θ, r·sin θ) for the incoming `grads` (None: an output the
    loss did not use), one per input (None where the input needs no gradient), from
    minigrad's built-in ops."""
    r2, theta2 = (t.detach().requires_grad_() for t in (r, theta))
    outputs = (r2 * theta2.cos(), r2 * theta2.sin())
    used = [(o, g) for o, g in zip(outputs, grads) if g is not None]
    found = autograd.grad([o for o, _ in used], [r2, theta2], [g for _, g in used])
    return [as_array(g) if t.requires_grad else None for g, t in zip(found, (r, theta))]


def check_polar(answer):
    cls = _tools.require_function_class(answer)
    if cls.setup_context is Function.setup_context:
        _tools.apply(cls, *_forward_inputs(60))        # (an untouched stub is not solved yet)
        raise Hint("use_setup_context")
    _check_signatures(cls)
    for dtype, seed in (("float64", 60), ("float32", 61)):
        r, theta = _forward_inputs(seed, dtype=dtype)
        outputs = _tools.apply(cls, r, theta)
        if (not isinstance(outputs, tuple) or len(outputs) != 2
                or not all(_tools.is_tensor(o) for o in outputs)):
            raise Hint("return_two_outputs", got=_tools.describe(outputs))
        with no_grad():
            expected = (r * theta.cos(), r * theta.sin())
        for number, (output, want) in enumerate(zip(outputs, expected)):
            _tools.check_output(output, want, f"forward (output {number})")
        _tools.require_grad_fn(outputs[0], (r, theta))
        if outputs[0].grad_fn.materialize_grads:
            raise Hint("materialize_still_on")
        _check_backward_calls(cls, outputs[0].grad_fn, r, theta, seed)
    _check_needs_input_grad(cls)
    _check_through_engine(cls)


def _check_signatures(cls):
    """forward(r, theta) without ctx; setup_context(ctx, inputs, output)."""
    try:
        forward = inspect.signature(cls.forward)
    except (TypeError, ValueError):
        forward = None
    if forward is not None:
        try:
            forward.bind(None, None)
        except TypeError:
            try:
                forward.bind(None, None, None)
            except TypeError:
                raise Hint("forward_args") from None
            raise Hint("forward_takes_no_ctx") from None
    _tools.require_parameters(cls.setup_context, (None, (), None), "setup_context_args")


def _incoming(generator, shape, dtype):
    return creation.tensor(generator.uniform(-2, 2, size=shape), dtype=dtype)


def _check_backward_calls(cls, node, r, theta, seed):
    """backward called directly: both gradients, then each one alone (the other None)."""
    generator = np.random.default_rng(seed + 100)
    gx, gy = (_incoming(generator, tuple(r.shape), r.dtype) for _ in range(2))
    inputs, shape = (r, theta), tuple(r.shape)
    for missing in (1, 0, None):
        grads = tuple(None if position == missing else g for position, g in enumerate((gx, gy)))
        try:
            raw = _tools.raw_backward(cls, node, grads)
        except (TypeError, AttributeError) as error:
            if missing is not None and "NoneType" in str(error):
                raise Hint("none_not_handled", output=missing,
                           error=f"{type(error).__name__}: {str(error)[:120]}") from None
            raise
        expected = _expected(r, theta, grads)
        ones = tuple(None if g is None else creation.ones_like(g) for g in grads)
        local = _expected(r, theta, ones)
        if missing is None:
            _diagnose_dropped_term(raw, r, theta, gx, gy)
        _tools.check_gradients(raw, inputs, expected, local, shape)


def _diagnose_dropped_term(raw, r, theta, gx, gy):
    """Both outputs used: gradients that are one output's part alone."""
    if len(raw) < 2 or not all(_tools.is_tensor(g) for g in raw[:2]):
        return
    got = [as_array(g) for g in raw[:2]]
    for dropped, grads in ((1, (gx, None)), (0, (None, gy))):
        partial = _expected(r, theta, grads)
        if all(_tools.close(g, p, r.dtype) for g, p in zip(got, partial)):
            raise Hint("dropped_output_term", output=dropped)


def _check_needs_input_grad(cls):
    """One input needing no gradient: None in its place, and the other still right."""
    generator = np.random.default_rng(62)
    for needs in ((True, False), (False, True)):
        r, theta = _forward_inputs(63, needs)
        outputs = _tools.apply(cls, r, theta)
        grads = (_incoming(generator, tuple(r.shape), r.dtype),
                 _incoming(generator, tuple(r.shape), r.dtype))
        raw = _tools.raw_backward(cls, outputs[0].grad_fn, grads)
        skipped = needs.index(False)
        if (len(raw) > skipped and _tools.is_tensor(raw[skipped])
                and not np.any(as_array(raw[skipped]))):
            raise Hint("zeros_where_none", input=skipped)
        expected = _expected(r, theta, grads)
        local = _expected(r, theta, tuple(creation.ones_like(g) for g in grads))
        _tools.check_gradients(raw, (r, theta), expected, local, tuple(r.shape),
                               needs_input_grad=True)


def _check_through_engine(cls):
    """A loss of the x coordinate alone, then of both: what a training loop does."""
    for use_y in (False, True):
        r, theta = _forward_inputs(64)
        x, y = _tools.apply(cls, r, theta)
        loss = (x * x).sum() + (y.sum() if use_y else 0)
        loss.backward()
        grads = (2 * x.detach(), creation.ones_like(y) if use_y else None)
        expected = _expected(r, theta, grads)
        for position, tensor in enumerate((r, theta)):
            if tensor.grad is None:
                raise Hint("missing_grad", input=position)
            _tools.diagnose_values(as_array(tensor.grad), expected[position], None, position,
                                   as_array(tensor), tensor.dtype)


# ---------------------------------------------------------------- normalize_both_modes

MESSAGES.update({
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
})

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


CHECKS = {"polar": check_polar, "normalize_both_modes": check_normalize_both_modes}


# ---------------------------------------------------------------- trials


def _polar_draw(rng):
    dtype, size = dtype_of(rng), int(rng.integers(2, 6))
    return (uniform(rng, size, dtype, 0.5, 2.0), uniform(rng, size, dtype, -3.0, 3.0),
            uniform(rng, size, dtype), uniform(rng, size, dtype))


def _polar_values(function, drawn):
    """Both outputs, and the gradients for a loss of both, of x alone, of y alone with r
    needing no gradient (so backward gets None, or zeros, for an output left out)."""
    r_values, theta_values, gx_values, gy_values = drawn
    gx, gy = creation.tensor(gx_values), creation.tensor(gy_values)
    found = {}
    r, theta = (creation.tensor(v, requires_grad=True) for v in (r_values, theta_values))
    outputs = function(r, theta)
    if (not isinstance(outputs, tuple) or len(outputs) != 2
            or not all(_tools.is_tensor(o) for o in outputs)):
        raise Hint("return_two_outputs", got=_tools.describe(outputs))
    found["x"], found["y"] = outputs
    both = autograd.grad(outputs, (r, theta), (gx, gy), allow_unused=True)
    found["gradient of r"], found["gradient of theta"] = both
    r, theta = (creation.tensor(v, requires_grad=True) for v in (r_values, theta_values))
    x_only = autograd.grad(function(r, theta)[0], (r, theta), gx, allow_unused=True)
    found["gradient of r (x alone)"], found["gradient of theta (x alone)"] = x_only
    r = creation.tensor(r_values)
    theta = creation.tensor(theta_values, requires_grad=True)
    (found["gradient of theta (y alone)"],) = autograd.grad(function(r, theta)[1], theta, gy,
                                                            allow_unused=True)
    return found


def _polar_expect(drawn):
    found = _polar_values(lambda r, theta: (r * theta.cos(), r * theta.sin()), drawn)
    return {name: value.detach() for name, value in found.items()}


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


def _applied(answer):
    cls = _tools.require_function_class(answer)
    return lambda *inputs: _tools.apply(cls, *inputs)


TRIALS = {"polar": ObservedTrial(
              _polar_draw, lambda answer, drawn: _polar_values(_applied(answer), drawn),
              _polar_expect),
          "normalize_both_modes": ObservedTrial(
              _normalize_draw, lambda answer, drawn: _normalize_values(_applied(answer), drawn),
              _normalize_expect)}
