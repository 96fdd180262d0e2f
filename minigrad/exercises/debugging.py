"""Lesson 10, retain_graph: separate_gradients, two losses that share a graph.

The answer `separate_gradients(loss_a, loss_b, w)` returns the gradient of
each loss with respect to `w`, from one forward pass.  The check builds the
two losses on a shared trunk that saves tensors (tanh saves its output), so
a second backward without `retain_graph` fails as it would in training; the
engine's trace counts the backward passes, and a last probe tells whether
the answer left the graph's saved tensors alive.
"""
import numpy as np

from .. import tracing
from ..surface import creation
from ..autograd import grad
from . import _tools
from ._tools import Hint, as_array
from ._trial import seen, uniform, value_of

MESSAGES = {
    "retain_the_first": {
        "en": "The second backward found the saved tensors already freed: the first backward "
              "released them. Pass retain_graph=True to the first backward (only the first).",
        "zh": "第二次反向传播时，保存的张量已经被第一次反向传播释放了。"
              "给第一次 backward 传入 retain_graph=True（只给第一次）。"},
    "two_gradients_expected": {
        "en": "Return a tuple (gradient of loss_a, gradient of loss_b), got {got}.",
        "zh": "请返回元组（loss_a 的梯度, loss_b 的梯度），收到的是 {got}。"},
    "summed_losses": {
        "en": "Both results are the gradient of loss_a + loss_b: one backward of the sum gives "
              "their total, not each loss's own gradient. Run one backward per loss.",
        "zh": "两个结果都是 loss_a + loss_b 的梯度：对两者之和做一次反向传播，得到的是总和，"
              "而不是每个损失各自的梯度。每个损失各做一次反向传播。"},
    "first_gradient_overwritten": {
        "en": "Your first result is w.grad itself, and the second backward accumulated into "
              "that same tensor, in place, so it changed too. Keep a copy of the first "
              "gradient (clone()), or set w.grad = None in between.",
        "zh": "你的第一个结果就是 w.grad 这个张量本身，而第二次反向传播把梯度原地累加进了同一个张量，"
              "所以它也变了。先把第一个梯度复制一份（clone()），或者在两次之间设 w.grad = None。"},
    "gradients_accumulated": {
        "en": "Your second result is the sum of both gradients: .grad accumulates, so after the "
              "second backward w.grad holds the first gradient plus the second. Set w.grad = "
              "None between the two.",
        "zh": "你的第二个结果是两个梯度之和：.grad 会累加，第二次反向传播之后，w.grad "
              "里是第一个梯度加上第二个。在两次之间设 w.grad = None。"},
    "gradients_swapped": {
        "en": "The two gradients are swapped: return (gradient of loss_a, gradient of loss_b).",
        "zh": "两个梯度的顺序反了：请返回（loss_a 的梯度, loss_b 的梯度）。"},
    "not_the_gradients": {
        "en": "Result {number} is not the gradient of its loss with respect to w. Compute each "
              "with a backward of that loss alone (or torch.autograd.grad).",
        "zh": "第 {number} 个结果不是对应损失对 w 的梯度。每个梯度都应该由那个损失单独做反向传播"
              "（或用 torch.autograd.grad）得到。"},
    "kept_the_graph": {
        "en": "The gradients are right, but the graph still holds its saved tensors: the last "
              "backward also used retain_graph=True. Keep the graph only while a later "
              "backward needs it, so the last one can free that memory.",
        "zh": "梯度是对的，但计算图仍然留着保存的张量：最后一次反向传播也用了 retain_graph=True。"
              "只有后面还要再做反向传播时才保留计算图，这样最后一次才能释放那部分内存。"},
}

_W = [0.3, -0.8, 1.2, 0.05]
_SCALE = [1.0, -2.0, 0.5, 3.0]
_WEIGHTS = [2.0, 1.0, -1.0, 0.5]


def _losses(w, scale=_SCALE, weights=_WEIGHTS):
    """Two losses on one trunk; tanh saves its output, so the trunk holds saved tensors."""
    features = (w * creation.tensor(scale)).tanh()
    return (features ** 2).sum(), (features * creation.tensor(weights)).sum()


def _expected(values=_W, scale=_SCALE, weights=_WEIGHTS):
    """Each loss's gradient with respect to w, by minigrad's autograd."""
    w = creation.tensor(values, requires_grad=True)
    return [as_array(grad(loss, w, retain_graph=True)[0]) for loss in _losses(w, scale, weights)]


def check_separate_gradients(answer):
    separate = _tools.require_callable(answer)
    want_a, want_b = _expected()
    w = creation.tensor(_W, requires_grad=True)
    loss_a, loss_b = _losses(w)
    with tracing.record() as recorded:
        try:
            result = separate(loss_a, loss_b, w)
        except RuntimeError as error:
            if "second time" in str(error):
                raise Hint("retain_the_first") from None
            raise
    got_a, got_b = _two_gradients(result)
    _diagnose(got_a, got_b, want_a, want_b, result, len(recorded.of_kind("backward_started")))
    if _graph_still_held(loss_a, loss_b, w):
        raise Hint("kept_the_graph")


def _two_gradients(result):
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise Hint("two_gradients_expected", got=_tools.describe(result))
    for number, gradient in enumerate(result, 1):
        _tools.require_tensor(gradient, f"separate_gradients (result {number})")
    return [as_array(gradient) for gradient in result]


def _diagnose(got_a, got_b, want_a, want_b, result, passes):
    def same(x, y):
        return x.shape == y.shape and np.allclose(x, y, rtol=1e-5, atol=1e-6)
    total = want_a + want_b
    if same(got_a, want_a) and same(got_b, want_b):
        return
    if same(got_a, total) and same(got_b, total):
        if passes >= 2 and result[0] is result[1]:
            raise Hint("first_gradient_overwritten")
        raise Hint("summed_losses")
    if same(got_a, total):
        raise Hint("first_gradient_overwritten")
    if same(got_a, want_a) and same(got_b, total):
        raise Hint("gradients_accumulated")
    if same(got_a, want_b) and same(got_b, want_a):
        raise Hint("gradients_swapped")
    raise Hint("not_the_gradients", number=1 if not same(got_a, want_a) else 2)


def _graph_still_held(loss_a, loss_b, w):
    """Whether a further backward still finds every saved tensor (nothing was freed)."""
    for loss in (loss_a, loss_b):
        try:
            grad(loss, w)
        except RuntimeError:
            continue
        return True
    return False


CHECKS = {"separate_gradients": check_separate_gradients}


class _SeparateTrial:
    """The two gradients on a trunk whose values (w, scale, weights) are drawn from the seed."""

    @staticmethod
    def draw(seed):
        rng = np.random.default_rng(seed)
        size = int(rng.integers(2, 7))
        return [uniform(rng, size, "float64") for _ in range(3)]

    def run(self, answer, seed):
        separate = _tools.require_callable(answer)
        values, scale, weights = self.draw(seed)
        w = creation.tensor(values, requires_grad=True)
        result = separate(*_losses(w, scale, weights), w)
        if not isinstance(result, (tuple, list)):
            return {"result": seen(result)}
        return {"result": [seen(gradient) for gradient in result]}

    def judge(self, report, seed):
        want_a, want_b = _expected(*self.draw(seed))
        result = report["result"]
        result = [value_of(entry) for entry in result] if isinstance(result, list) \
            else value_of(result)
        got_a, got_b = _two_gradients(result)
        _diagnose(got_a, got_b, want_a, want_b, result, passes=0)


TRIALS = {"separate_gradients": _SeparateTrial()}
