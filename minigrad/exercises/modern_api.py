"""A custom Function in today's form, lesson 07's polar.

setup_context, set_materialize_grads and needs_input_grad, together.
`Polar.apply(r, theta)` returns `(r·cos θ, r·sin θ)`.  forward takes no ctx; setup_context
keeps what backward needs and turns materialization off, so that backward receives None
for an output the loss did not use.  The check calls the answer's backward directly with
each output's gradient present or None, and with one input needing no gradient; the
right gradients come from the same formula written with minigrad's built-in ops.
(Lesson 14's exercise on the same form, with a jvp, is in both_modes.py.)
"""
import inspect

import numpy as np

from .. import autograd
from ..surface import creation
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
        "zh": "forward 必须返回含两个张量的元组 (r·cos θ, r·sin θ)，收到的是 {got}。"},
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


CHECKS = {"polar": check_polar}


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


TRIALS = {"polar": ObservedTrial(
    _polar_draw, lambda answer, drawn: _polar_values(_tools.applied(answer), drawn), _polar_expect)}
