"""Lesson 14, forward mode: mul_jvp, a custom Function's jvp (the product rule).

The answer is a Function whose `forward(ctx, a, b)` returns a·b and whose
`jvp(ctx, a_t, b_t)` returns the tangent of the output, a_t·b + a·b_t.  The
check runs forward, then calls the answer's jvp directly (what it returns,
before minigrad tidies it) with the ctx PyTorch would give it: there
`ctx.saved_tensors` holds only what `ctx.save_for_forward` saved.  Last, the
tangent through the engine, with both inputs dual and with one.
"""
import numpy as np

from ..surface import creation
from ..autograd import forward_ad
from ..autograd.grad_mode import no_grad
from . import _tools
from ._tools import Hint, as_array
from ._trial import seen, tensor_of, uniform, value_of

MESSAGES = {
    "no_jvp": {
        "en": "Your Function has no jvp, so forward mode cannot use it. Add a static method "
              "jvp(ctx, a_t, b_t) that returns the tangent of the output.",
        "zh": "你的 Function 没有 jvp，前向模式用不了它。请添加静态方法 jvp(ctx, a_t, b_t)，"
              "返回输出的切向量。"},
    "jvp_args": {
        "en": "jvp has the wrong parameters: it receives ctx, then one tangent per input of "
              "forward (here two: a_t and b_t).",
        "zh": "jvp 的参数不对：第一个参数是 ctx，后面是 forward 的每个输入各自的切向量（这里是两个："
              "a_t 和 b_t）。"},
    "jvp_reads_saved_for_backward": {
        "en": "jvp reads ctx.saved_tensors, but forward saved them with save_for_backward: in "
              "PyTorch, jvp sees only what ctx.save_for_forward(...) saved. Save a and b with "
              "save_for_forward (or keep them as ctx attributes).",
        "zh": "jvp 读取了 ctx.saved_tensors，可 forward 用的是 save_for_backward：在 PyTorch 里，"
              "jvp 只能看到用 ctx.save_for_forward(...) 保存的张量。请用 save_for_forward 保存 a 和 b"
              "（或者把它们作为 ctx 的属性）。"},
    "one_tangent_per_output": {
        "en": "jvp returned {got} tangents. It returns the tangent of each output of forward: "
              "here one tensor, the tangent of a·b, not one per input.",
        "zh": "jvp 返回了 {got} 个切向量。它返回的是 forward 每个输出的切向量：这里只有一个张量，"
              "即 a·b 的切向量，而不是每个输入各一个。"},
    "forgot_tangents": {
        "en": "Your jvp ignores the tangents it receives: it returns the same result whatever "
              "direction the inputs move in. Multiply each partial derivative by its input's "
              "tangent.",
        "zh": "你的 jvp 没有用到传进来的切向量：不管输入朝哪个方向变化，它返回的都一样。"
              "要把每个偏导数乘以对应输入的切向量。"},
    "product_rule_one_term": {
        "en": "Your jvp follows only one input: the tangent of a·b has two terms, one for each "
              "input that moves (the product rule, as in the ε part of a dual number).",
        "zh": "你的 jvp 只考虑了一个输入：a·b 的切向量有两项，每个变化的输入各贡献一项"
              "（乘积法则，正如对偶数里 ε 的那一部分）。"},
    "tangents_swapped": {
        "en": "The tangents are paired with the wrong factors: a's tangent multiplies b, and "
              "b's tangent multiplies a.",
        "zh": "切向量和因子配错了：a 的切向量应该乘以 b，b 的切向量应该乘以 a。"},
    "multiplied_tangents": {
        "en": "Your jvp multiplies the two tangents together. That is the ε² term of a dual "
              "number, which is 0: each tangent multiplies the other input's value.",
        "zh": "你的 jvp 把两个切向量相乘了。那是对偶数中 ε² 的那一项，它等于 0："
              "每个切向量应该乘以另一个输入的值。"},
    "wrong_jvp": {
        "en": "The tangent your jvp returns is wrong. Write the product rule for a·b on paper: "
              "how does the output move when a moves by a_t and b by b_t?",
        "zh": "你的 jvp 返回的切向量不对。在纸上写出 a·b 的乘积法则：a 移动 a_t、b 移动 b_t 时，"
              "输出怎样变化？"},
}


class _PyTorchJvpCtx:
    """The ctx as PyTorch's jvp sees it: saved_tensors holds what save_for_forward saved."""

    def __init__(self, ctx):
        object.__setattr__(self, "_ctx", ctx)

    def __getattr__(self, name):
        if name == "saved_tensors":
            return tuple(getattr(self._ctx, "saved_for_forward", None) or ())
        return getattr(self._ctx, name)

    def __setattr__(self, name, value):
        setattr(self._ctx, name, value)

    def __delattr__(self, name):
        delattr(self._ctx, name)


def _values(seed, shape=(2, 3)):
    generator = np.random.default_rng(seed)
    return [generator.uniform(-2, 2, size=shape) for _ in range(4)]


def check_mul_jvp(answer):
    cls = _tools.require_function_class(answer)
    a, b, a_t, b_t = _values(12)
    inputs = [creation.tensor(a, requires_grad=True), creation.tensor(b, requires_grad=True)]
    output = _tools.apply(cls, *inputs)
    _tools.check_output(output, creation.tensor(a * b))
    _check_raw_jvp(cls, output.grad_fn, creation.tensor(a_t), creation.tensor(b_t), a, b)
    _check_through_engine(cls, a, b, a_t, b_t, dual=(True, True))
    _check_through_engine(cls, a, b, a_t, b_t, dual=(True, False))


def _check_raw_jvp(cls, ctx, a_t, b_t, a, b):
    result = _raw_jvp(cls, ctx, a_t, b_t)
    _tools.require_tensor(result, "jvp")
    _diagnose(as_array(result), a, b, as_array(a_t), as_array(b_t))


def _raw_jvp(cls, ctx, a_t, b_t):
    """What the answer's jvp returns, called directly with PyTorch's ctx."""
    if getattr(cls, "jvp", None) is None:
        raise Hint("no_jvp")
    _tools.require_parameters(cls.jvp, (ctx, a_t, b_t), "jvp_args")
    reads_backward_saves = (getattr(ctx, "saved_for_forward", None) is None
                            and bool(getattr(ctx, "_saved", None)))
    try:
        with no_grad():
            result = cls.jvp(_PyTorchJvpCtx(ctx), a_t, b_t)
    except (ValueError, IndexError, TypeError):
        if reads_backward_saves:
            raise Hint("jvp_reads_saved_for_backward") from None
        raise
    if isinstance(result, (tuple, list)):
        if len(result) != 1:
            raise Hint("one_tangent_per_output", got=len(result))
        (result,) = result
    return result


def _diagnose(got, a, b, a_t, b_t):
    def same(expected):
        return got.shape == expected.shape and np.allclose(got, expected, 1e-6, 1e-8)
    if same(a_t * b + a * b_t):
        return
    if same(b + a):
        raise Hint("forgot_tangents")
    if same(a_t * b) or same(a * b_t):
        raise Hint("product_rule_one_term")
    if same(a_t * a + b * b_t):
        raise Hint("tangents_swapped")
    if same(a_t * b_t):
        raise Hint("multiplied_tangents")
    raise Hint("wrong_jvp")


def _check_through_engine(cls, a, b, a_t, b_t, dual):
    """The tangent forward mode computes with the answer, some inputs dual (others constant)."""
    tangents = [a_t if dual[0] else np.zeros_like(a), b_t if dual[1] else np.zeros_like(b)]
    tangent = _engine_tangent(cls, a, b, a_t, b_t, dual)
    if tangent is None:
        raise Hint("wrong_jvp")
    _diagnose(as_array(tangent), a, b, *tangents)


def _engine_tangent(cls, a, b, a_t, b_t, dual):
    with forward_ad.dual_level():
        inputs = [forward_ad.make_dual(creation.tensor(v), creation.tensor(t)) if is_dual
                  else creation.tensor(v) for v, t, is_dual in zip((a, b), (a_t, b_t), dual)]
        output = cls.apply(*inputs)
        return forward_ad.unpack_dual(output).tangent


CHECKS = {"mul_jvp": check_mul_jvp}


class _MulTrial:
    """forward, the jvp called directly, and forward mode with one or both inputs dual, on
    values and tangents drawn from the seed."""

    @staticmethod
    def draw(seed):
        rng = np.random.default_rng(seed)
        shape = tuple(int(size) for size in rng.integers(1, 5, size=2))
        return [uniform(rng, shape, "float64") for _ in range(4)], bool(rng.random() < 0.5)

    def run(self, answer, seed):
        cls = _tools.require_function_class(answer)
        (a, b, a_t, b_t), first_only = self.draw(seed)
        output = _tools.apply(cls, creation.tensor(a, requires_grad=True),
                              creation.tensor(b, requires_grad=True))
        report = {"forward": seen(output)}
        if getattr(output, "grad_fn", None) is None:
            return report
        report["jvp"] = seen(_raw_jvp(cls, output.grad_fn, creation.tensor(a_t),
                                      creation.tensor(b_t)))
        report["dual"] = seen(_engine_tangent(cls, a, b, a_t, b_t, (True, not first_only)))
        return report

    def judge(self, report, seed):
        (a, b, a_t, b_t), first_only = self.draw(seed)
        _tools.check_output(value_of(report["forward"]), creation.tensor(a * b))
        if "jvp" not in report:
            raise Hint("no_grad_fn")
        _diagnose(as_array(tensor_of(report["jvp"], "jvp")), a, b, a_t, b_t)
        dual = value_of(report["dual"])
        if dual is None:
            raise Hint("wrong_jvp")
        _diagnose(as_array(tensor_of(report["dual"], "jvp")), a, b, a_t,
                  np.zeros_like(b) if first_only else b_t)


TRIALS = {"mul_jvp": _MulTrial()}
