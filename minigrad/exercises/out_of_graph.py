"""Lesson 13, keeping things out of the graph: straight_through, newton_sqrt, finetune_head.

Each answer is a function.  What it must compute comes from minigrad's
built-in ops, run here: `x.round()`, `a.sqrt()`'s derivative 1 / (2√a), and a
training loop of the head written with `autograd.grad`.  What it must leave
out of the graph is read from the graph itself (its nodes, walked from the
result) and from the engine's trace (the nodes forward created).
"""
import numpy as np

from .. import autograd, creation, dtypes, tracing
from . import _tools
from ._tools import Hint, as_array

MESSAGES = {
    "ste_not_rounded": {
        "en": "Your result has the values of x, not of x.round(): the forward value must be "
              "the rounded one.",
        "zh": "你的结果取的是 x 的值，而不是 x.round() 的值：前向结果必须是取整后的值。"},
    "ste_no_gradient": {
        "en": "Your result does not require grad: nothing leads back from it to x. Detach only "
              "the part whose gradient you want to drop, and keep a path from x to the result.",
        "zh": "你的结果不需要梯度：从它出发没有任何路径通回 x。只对你想去掉梯度的那一部分调用 detach，"
              "要保留一条从 x 通到结果的路径。"},
    "ste_zero_gradient": {
        "en": "The gradient with respect to x is 0: that is the gradient of x.round() itself "
              "(a staircase is flat almost everywhere). Build a result whose value is x.round() "
              "but whose recorded part is x alone.",
        "zh": "对 x 的梯度是 0：这正是 x.round() 本身的梯度（阶梯函数几乎处处是平的）。"
              "请构造这样一个结果：它的值是 x.round()，但被记录下来的部分只有 x 本身。"},
    "ste_wrong_gradient": {
        "en": "The gradient with respect to x is {factor} times grad_output, not grad_output "
              "itself: in backward the rounding must look like the identity.",
        "zh": "对 x 的梯度是 grad_output 的 {factor} 倍，而不是 grad_output 本身："
              "在反向传播看来，取整应该像恒等函数一样。"},
    "newton_no_graph": {
        "en": "Your result does not require grad: all of it was computed without recording (or "
              "detached). Record the step the gradient needs.",
        "zh": "你的结果不需要梯度：它完全是在不记录的情况下算出来的（或者被 detach 了）。"
              "请把梯度需要的那一步记录下来。"},
    "newton_graph_grows": {
        "en": "Your result's graph has {nodes} nodes for a = {small} and {other} for a = "
              "{large}: it grows with the number of iterations, so every iteration was "
              "recorded. Iterate without recording; record only what the gradient needs.",
        "zh": "对于 a = {small}，你的结果的计算图有 {nodes} 个节点，对于 a = {large} 则有 {other} 个："
              "它随迭代次数变长，说明每次迭代都被记录了。迭代时不要记录，只记录梯度需要的部分。"},
    "newton_no_sqrt": {
        "en": "Your result is computed with {name}: compute it with Newton's iteration instead.",
        "zh": "你的结果是用 {name} 算出来的：请改用牛顿迭代来算。"},
    "newton_not_converged": {
        "en": "At index {index}, a = {a}: your result is {got}, √a is {expected}. Iterate until "
              "|x·x − a| ≤ 1e-10·a holds for every element.",
        "zh": "在下标 {index} 处，a = {a}：你的结果是 {got}，而 √a 是 {expected}。"
              "要一直迭代到每个元素都满足 |x·x − a| ≤ 1e-10·a。"},
    "newton_cut_off": {
        "en": "The gradient with respect to a is 0 (or missing): the recorded step does not use "
              "a itself, only values computed without recording. In the step you record, a must "
              "appear as it is.",
        "zh": "对 a 的梯度是 0（或者根本没有）：被记录的那一步没有用到 a 本身，只用了在不记录时算出的值。"
              "在你记录的那一步里，a 必须以它本来的样子出现。"},
    "newton_wrong_grad": {
        "en": "The gradient with respect to a is wrong: at index {index}, a = {a}, you get "
              "{got}, 1 / (2√a) is {expected}.",
        "zh": "对 a 的梯度不对：在下标 {index} 处，a = {a}，你得到 {got}，而 1 / (2√a) 是 {expected}。"},
    "losses_format": {
        "en": "Return a list of {steps} losses, one number per step (loss.item()), got {got}.",
        "zh": "请返回一个含 {steps} 个损失的列表，每步一个数（loss.item()），收到的是 {got}。"},
    "body_changed": {
        "en": "The body ({name}) changed: only the head (w2, b2) may be trained.",
        "zh": "主干（{name}）被改动了：只能训练头部（w2、b2）。"},
    "body_has_grad": {
        "en": "After your function, {name}.grad is set: gradients were computed for the body. "
              "Freeze it, so that backward computes none for it.",
        "zh": "你的函数运行之后，{name}.grad 有了值：主干的梯度也被计算了。请把主干冻结，"
              "让反向传播不为它计算梯度。"},
    "body_recorded": {
        "en": "The body's operations were recorded ({names}), although none of its results "
              "needs a gradient: the body costs nodes and saved tensors for nothing. Freeze its "
              "parameters, so that nothing in it requires grad.",
        "zh": "主干的运算被记录下来了（{names}），可它的结果一个都不需要梯度：主干白白占用了节点和保存的张量。"
              "请冻结它的参数，让主干里没有任何东西需要梯度。"},
    "head_not_updated": {
        "en": "The head's parameters did not change: update params[\"w2\"] and params[\"b2\"] "
              "themselves, in place (p -= ...), inside torch.no_grad().",
        "zh": "头部的参数没有变：请在 torch.no_grad() 里原地更新 params[\"w2\"] 和 params[\"b2\"] "
              "本身（p -= ...）。"},
    "head_replaced": {
        "en": "params[\"{name}\"] is no longer the leaf it was: p = p - lr * p.grad makes a new "
              "tensor, recorded, with no .grad of its own in the next step. Update the "
              "parameter in place instead, inside torch.no_grad().",
        "zh": "params[\"{name}\"] 已经不是原来那个叶子张量了：p = p - lr * p.grad 会创建一个新张量，"
              "它被记录进计算图，下一步也不会有自己的 .grad。请改为在 torch.no_grad() 里原地更新参数。"},
    "zero_the_grads": {
        "en": "Your losses are those of a descent whose gradients pile up: .grad accumulates, so "
              "each step used the sum of all gradients so far. Clear the head's .grad (set it "
              "to None) before each backward.",
        "zh": "你的损失对应的是梯度不断累加的下降过程：.grad 会累加，所以每一步用的都是到目前为止所有梯度之和。"
              "每次反向传播之前先清掉头部的 .grad（设为 None）。"},
    "finetune_losses_wrong": {
        "en": "Loss number {step} is {got}; the descent gives {expected}. Check the loss "
              "((two_layers(...) - y) ** 2).mean(), the update p - lr * p.grad, and that each "
              "loss is taken before its update.",
        "zh": "第 {step} 个损失是 {got}，而梯度下降应该给出 {expected}。检查损失 "
              "((two_layers(...) - y) ** 2).mean()、更新 p - lr * p.grad，"
              "以及每个损失是否都是在对应的更新之前记录的。"},
}


# --- straight_through --------------------------------------------------------------

_STE_VALUES = [0.4, 1.6, -2.5, 3.5, -0.7, 2.2]


def check_straight_through(answer):
    straight_through = _tools.require_callable(answer)
    x = creation.tensor(_STE_VALUES, dtype=dtypes.float64, requires_grad=True)
    before = as_array(x)
    result = straight_through(x)
    _tools.require_unchanged([x], [before])
    _tools.require_tensor(result, "round_straight_through")
    got, rounded = as_array(result), np.round(before)          # half to even, as torch
    if got.shape == before.shape and np.allclose(got, before) and not np.allclose(got, rounded):
        raise Hint("ste_not_rounded")
    _tools.check_output(result, x.detach().round())
    if not result.requires_grad:
        raise Hint("ste_no_gradient")
    grad_output = np.random.default_rng(30).uniform(0.5, 2.0, size=before.shape)
    (grad,) = autograd.grad(result, [x], creation.tensor(grad_output), allow_unused=True)
    grad = np.zeros_like(before) if grad is None else as_array(grad)
    if np.allclose(grad, grad_output):
        return
    if np.allclose(grad, 0):
        raise Hint("ste_zero_gradient")
    factor = float(np.median(grad / grad_output))
    raise Hint("ste_wrong_gradient", factor=f"{factor:.3g}")


# --- newton_sqrt -------------------------------------------------------------------

_SMALL, _LARGE = [0.25, 4.0, 9.0], [1e-3, 2.0, 9e4]      # few iterations, many


def _graph_nodes(tensor):
    """The backward nodes a result's graph holds (its leaves' AccumulateGrad left out)."""
    seen, stack = [], [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen or hasattr(node, "variable"):
            continue
        seen.append(node)
        stack.extend(n for n, _ in node.next_functions)
    return seen


def check_newton_sqrt(answer):
    newton_sqrt = _tools.require_callable(answer)
    sizes = []
    for values in (_SMALL, _LARGE):
        a = creation.tensor(values, dtype=dtypes.float64, requires_grad=True)
        root = newton_sqrt(a)
        _tools.require_tensor(root, "newton_sqrt")
        if tuple(root.shape) != tuple(a.shape):
            raise Hint("wrong_shape", where="newton_sqrt", got=list(root.shape),
                       expected=list(a.shape))
        if not root.requires_grad:
            raise Hint("newton_no_graph")
        nodes = _graph_nodes(root)
        _diagnose_sqrt(nodes)
        sizes.append(len(nodes))
        want = np.sqrt(values)
        _require_close(root, want, values, "newton_not_converged")
        (grad,) = autograd.grad(root.sum(), [a], allow_unused=True)
        if grad is None or np.allclose(as_array(grad), 0):
            raise Hint("newton_cut_off")
        _require_close(grad, 1 / (2 * want), values, "newton_wrong_grad", rtol=1e-4)
    if sizes[0] != sizes[1]:
        raise Hint("newton_graph_grows", nodes=sizes[0], other=sizes[1], small=str(_SMALL),
                   large=str(_LARGE))


def _diagnose_sqrt(nodes):
    for node in nodes:
        name = node.name()
        exponent = getattr(node, "_saved_exponent", None) if name == "PowBackward0" else None
        if name == "SqrtBackward0" or exponent == 0.5:
            raise Hint("newton_no_sqrt", name=name)


def _require_close(tensor, want, values, key, rtol=1e-7):
    got = as_array(tensor)
    if not np.allclose(got, want, rtol=rtol, atol=0):
        index = int(np.argmax(~np.isclose(got, want, rtol=rtol, atol=0)))
        raise Hint(key, index=[index], a=f"{values[index]:.6g}", got=f"{got[index]:.10g}",
                   expected=f"{want[index]:.10g}")


# --- finetune_head -----------------------------------------------------------------

def _two_layers(x, w1, b1, w2, b2):
    return (x @ w1 + b1).tanh() @ w2 + b2


def _problem(seed):
    """Fresh (params, x, y) with fixed values: x (4, 2), a body 2 → 3, a head 3 → 1."""
    generator = np.random.default_rng(seed)
    shapes = {"w1": (2, 3), "b1": (3,), "w2": (3, 1), "b2": (1,)}
    params = {name: creation.tensor(generator.uniform(-1, 1, size=shape),
                                    dtype=dtypes.float64, requires_grad=True)
              for name, shape in shapes.items()}
    x = creation.tensor(generator.uniform(-2, 2, size=(4, 2)), dtype=dtypes.float64)
    y = creation.tensor(generator.uniform(-1, 1, size=(4, 1)), dtype=dtypes.float64)
    return params, x, y


def _descent(seed, steps, lr, accumulate=False):
    """The losses of gradient descent on the head alone, with the built-in ops: what the
    answer must give (accumulate=True: the gradients never cleared, a typical slip)."""
    params, x, y = _problem(seed)
    body = [params["w1"].detach(), params["b1"].detach()]
    head = [params["w2"].detach().clone(), params["b2"].detach().clone()]
    total, losses = [0, 0], []
    for _ in range(steps):
        trained = [p.requires_grad_() for p in head]
        loss = ((_two_layers(x, *body, *trained) - y) ** 2).mean()
        losses.append(loss.item())
        grads = autograd.grad(loss, trained)
        total = [t + g for t, g in zip(total, grads)] if accumulate else list(grads)
        head = [(p - lr * g).detach() for p, g in zip(trained, total)]
    return losses


def check_finetune_head(answer):
    finetune_head = _tools.require_callable(answer)
    for seed, steps, lr in ((40, 3, 0.1), (41, 5, 0.3)):
        params, x, y = _problem(seed)
        originals = dict(params)
        body_before = {name: as_array(params[name]) for name in ("w1", "b1")}
        head_before = {name: as_array(params[name]) for name in ("w2", "b2")}
        with tracing.record() as trace:
            try:
                losses = finetune_head(params, x, y, steps, lr)
            except Exception:
                _diagnose_replaced(params, originals)
                raise
        _diagnose_replaced(params, originals)
        for name, values in body_before.items():
            if not np.array_equal(as_array(params[name]), values):
                raise Hint("body_changed", name=name)
            if params[name].grad is not None:
                raise Hint("body_has_grad", name=name)
        body_recorded = any(e["name"] == "TanhBackward0" for e in trace.of_kind("node_created"))
        got = _losses(losses, steps)
        if all(np.array_equal(as_array(params[n]), v) for n, v in head_before.items()):
            raise Hint("head_not_updated")
        want = _descent(seed, steps, lr)
        if not np.allclose(got, want, rtol=1e-6, atol=1e-10):
            if np.allclose(got, _descent(seed, steps, lr, accumulate=True), rtol=1e-6):
                raise Hint("zero_the_grads")
            step = int(np.argmax(~np.isclose(got, want, rtol=1e-6, atol=1e-10)))
            raise Hint("finetune_losses_wrong", step=step, got=f"{got[step]:.6g}",
                       expected=f"{want[step]:.6g}")
        if body_recorded:
            raise Hint("body_recorded", names="TanhBackward0")


def _diagnose_replaced(params, originals):
    for name in ("w2", "b2"):
        if params.get(name) is not originals[name]:
            raise Hint("head_replaced", name=name)


def _losses(losses, steps):
    """The answer's losses as floats: numbers, or 0-d tensors (loss.detach())."""
    if not isinstance(losses, (list, tuple)) or len(losses) != steps:
        raise Hint("losses_format", steps=steps, got=_tools.describe(losses))
    numbers = []
    for loss in losses:
        if _tools.is_tensor(loss) and loss.numel() == 1:
            loss = float(as_array(loss).reshape(()))
        if not isinstance(loss, (int, float)):
            raise Hint("losses_format", steps=steps, got=_tools.describe(losses))
        numbers.append(float(loss))
    return np.array(numbers)


CHECKS = {"straight_through": check_straight_through, "newton_sqrt": check_newton_sqrt,
          "finetune_head": check_finetune_head}
