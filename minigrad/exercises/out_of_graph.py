"""Lesson 02, keeping things out of the graph: straight_through, newton_sqrt, finetune_head.

Each answer is a function.  What it must compute comes from minigrad's
built-in ops, run here: `x.round()`, `a.sqrt()`'s derivative 1 / (2√a), and a
training loop of the head written with `autograd.grad`.  What it must leave
out of the graph is read from the graph itself (its nodes, walked from the
result) and from the engine's trace (the nodes forward created).

Each check runs the answer in two halves, as its trial does (see _trial): one
runs the answer and reports what it did as plain data (`_run_*`), the other
judges that report against the built-ins (`_judge_*`).  The check uses the
lesson's own values; the trial draws them from its seed.
"""
import numpy as np

from .. import autograd, tracing
from ..surface import creation, dtypes
from . import _tools
from ._tools import Hint, as_array
from ._trial import field, flags, seen, value_of

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
    "finetune_head_wrong": {
        "en": "After the last step, {name}{index} is {got}; the descent gives {expected}. The "
              "losses were right: check the last update, p - lr * p.grad, made on the tensor "
              "params['{name}'] itself, once per step.",
        "zh": "最后一步之后，{name}{index} 是 {got}，而梯度下降应该给出 {expected}。损失都是对的："
              "检查最后一次更新 p - lr * p.grad，它应该直接作用在张量 params['{name}'] 本身上，"
              "并且每一步只做一次。"},
}


# --- straight_through --------------------------------------------------------------

_STE_VALUES = [0.4, 1.6, -2.5, 3.5, -0.7, 2.2]


def check_straight_through(answer):
    grad_output = np.random.default_rng(30).uniform(0.5, 2.0, size=len(_STE_VALUES))
    _judge_straight_through(_run_straight_through(answer, _STE_VALUES, grad_output),
                            _STE_VALUES, grad_output)


def _run_straight_through(answer, values, grad_output):
    straight_through = _tools.require_callable(answer)
    x = creation.tensor(values, dtype=dtypes.float64, requires_grad=True)
    before = as_array(x)
    result = straight_through(x)
    _tools.require_unchanged([x], [before])
    report = {"result": seen(result), "grad": None}
    if _tools.is_tensor(result) and result.requires_grad:
        (grad,) = autograd.grad(result, [x], creation.tensor(grad_output), allow_unused=True)
        report["grad"] = seen(grad)
    return report


def _judge_straight_through(report, values, grad_output):
    entry = field(report, "result", (dict, type(None)))
    result = _tools.require_tensor(value_of(entry), "round_straight_through")
    before = np.array(values, dtype=np.float64)
    got, rounded = as_array(result), np.round(before)          # half to even, as torch
    if got.shape == before.shape and np.allclose(got, before) and not np.allclose(got, rounded):
        raise Hint("ste_not_rounded")
    _tools.check_output(result, creation.tensor(before).round())
    if not flags(entry)[0]:
        raise Hint("ste_no_gradient")
    grad = value_of(report["grad"])
    grad = np.zeros_like(before) if grad is None else as_array(grad)
    if grad.shape == grad_output.shape and np.allclose(grad, grad_output):
        return
    if np.allclose(grad, 0):
        raise Hint("ste_zero_gradient")
    factor = float(np.median(grad / grad_output))
    raise Hint("ste_wrong_gradient", factor=f"{factor:.3g}")


class _StraightThroughTrial:
    """Six values drawn from the seed, none halfway between two integers, and a
    grad_output: the result and the gradient are reported and judged."""

    def drawn(self, seed):
        rng = np.random.default_rng(seed)
        values = np.round(rng.uniform(-4, 4, size=6), 2)
        values[np.isclose(values % 1, 0.5)] += 0.01
        return values.tolist(), np.round(rng.uniform(0.5, 2.0, size=6), 4)

    def run(self, answer, seed):
        return _run_straight_through(answer, *self.drawn(seed))

    def judge(self, report, seed):
        _judge_straight_through(report, *self.drawn(seed))


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
    _judge_newton(_run_newton(answer, (_SMALL, _LARGE)), (_SMALL, _LARGE))


def _run_newton(answer, value_sets):
    """For each set of values: the root, its graph's nodes (name, and pow's exponent) and
    the gradient of root.sum()."""
    newton_sqrt = _tools.require_callable(answer)
    reports = []
    for values in value_sets:
        a = creation.tensor(values, dtype=dtypes.float64, requires_grad=True)
        root = newton_sqrt(a)
        report = {"root": seen(root), "nodes": [], "grad": None}
        if _tools.is_tensor(root) and root.requires_grad:
            report["nodes"] = [[node.name(), _exponent(node)] for node in _graph_nodes(root)]
            if tuple(root.shape) == tuple(a.shape):
                (grad,) = autograd.grad(root.sum(), [a], allow_unused=True)
                report["grad"] = seen(grad)
        reports.append(report)
    return reports


def _exponent(node):
    exponent = getattr(node, "_saved_exponent", None) if node.name() == "PowBackward0" else None
    return exponent if type(exponent) in (int, float) else None


def _judge_newton(reports, value_sets):
    sizes = []
    for index, values in enumerate(value_sets):
        report = field(reports, index, dict)
        entry = field(report, "root", (dict, type(None)))
        root = _tools.require_tensor(value_of(entry), "newton_sqrt")
        if tuple(root.shape) != (len(values),):
            raise Hint("wrong_shape", where="newton_sqrt", got=list(root.shape),
                       expected=[len(values)])
        if not flags(entry)[0]:
            raise Hint("newton_no_graph")
        nodes = field(report, "nodes", list)
        _diagnose_sqrt([field(nodes, i, list) for i in range(len(nodes))])
        sizes.append(len(nodes))
        want = np.sqrt(values)
        _require_close(root, want, values, "newton_not_converged")
        grad = value_of(report["grad"])
        if grad is None or np.allclose(as_array(grad), 0):
            raise Hint("newton_cut_off")
        _require_close(grad, 1 / (2 * want), values, "newton_wrong_grad", rtol=1e-4)
    if sizes[0] != sizes[1]:
        raise Hint("newton_graph_grows", nodes=sizes[0], other=sizes[1],
                   small=str(list(value_sets[0])), large=str(list(value_sets[1])))


class _NewtonTrial:
    """Two sets of values drawn from the seed, one that needs few iterations and one whose
    values lie far apart (many): roots, graphs and gradients reported and judged."""

    def drawn(self, seed):
        rng = np.random.default_rng(seed)
        small = np.round(rng.uniform(0.2, 10.0, size=3), 4).tolist()
        large = [float(np.round(rng.uniform(1e-3, 1e-2), 6)), float(np.round(rng.uniform(1, 3), 4)),
                 float(np.round(rng.uniform(1e4, 1e5), 1))]
        return small, large

    def run(self, answer, seed):
        return {"sets": _run_newton(answer, self.drawn(seed))}

    def judge(self, report, seed):
        _judge_newton(field(report, "sets", list), self.drawn(seed))


def _diagnose_sqrt(nodes):
    """`nodes`: (name, pow's exponent or None) of each node of the root's graph."""
    for name, exponent in nodes:
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


def _descent(seed, steps, lr, accumulate=False, head_after=None):
    """The losses of gradient descent on the head alone, with the built-in ops: what the
    answer must give (accumulate=True: the gradients never cleared, a typical slip).
    A list given as `head_after` receives the head's values after the last step."""
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
    if head_after is not None:
        head_after.extend(as_array(p) for p in head)
    return losses


def check_finetune_head(answer):
    runs = ((40, 3, 0.1), (41, 5, 0.3))
    _judge_finetune(_run_finetune(answer, runs), runs)


def _run_finetune(answer, runs):
    """For each (seed, steps, lr): the losses the answer returned (as numbers), the
    parameters after it, the body's parameters that got a .grad, and whether forward
    recorded the body's tanh."""
    finetune_head = _tools.require_callable(answer)
    reports = []
    for seed, steps, lr in runs:
        params, x, y = _problem(seed)
        originals = dict(params)
        with tracing.record() as trace:
            try:
                losses = finetune_head(params, x, y, steps, lr)
            except Exception:
                _diagnose_replaced(params, originals)
                raise
        _diagnose_replaced(params, originals)
        reports.append({
            "params": {name: seen(params[name]) for name in _NAMES},
            "body_grad": [name for name in ("w1", "b1") if params[name].grad is not None],
            "body_recorded": any(e["name"] == "TanhBackward0"
                                 for e in trace.of_kind("node_created")),
            "losses": _losses(losses, steps).tolist()})
    return reports


_NAMES = ("w1", "b1", "w2", "b2")


def _judge_finetune(reports, runs):
    for index, (seed, steps, lr) in enumerate(runs):
        report = field(reports, index, dict)
        before, _, _ = _problem(seed)
        after = field(report, "params", dict)
        for name in ("w1", "b1"):
            values = value_of(after[name])
            if not _tools.is_tensor(values) or not np.array_equal(as_array(values),
                                                                  as_array(before[name])):
                raise Hint("body_changed", name=name)
        body_grad = field(report, "body_grad", list)
        if body_grad:
            raise Hint("body_has_grad", name=str(body_grad[0]))
        got = np.array(field(report, "losses", list), dtype=np.float64)
        if len(got) != steps:
            raise Hint("losses_format", steps=steps, got=f"{len(got)} losses")
        head = [value_of(after[name]) for name in ("w2", "b2")]
        if all(_tools.is_tensor(p) and np.array_equal(as_array(p), as_array(before[name]))
               for p, name in zip(head, ("w2", "b2"))):
            raise Hint("head_not_updated")
        want_head = []
        want = _descent(seed, steps, lr, head_after=want_head)
        if not np.allclose(got, want, rtol=1e-6, atol=1e-10):
            if np.allclose(got, _descent(seed, steps, lr, accumulate=True), rtol=1e-6):
                raise Hint("zero_the_grads")
            step = int(np.argmax(~np.isclose(got, want, rtol=1e-6, atol=1e-10)))
            raise Hint("finetune_losses_wrong", step=step, got=f"{got[step]:.6g}",
                       expected=f"{want[step]:.6g}")
        for name, tensor, values in zip(("w2", "b2"), head, want_head):
            _require_head(name, tensor, values)
        if field(report, "body_recorded", bool):
            raise Hint("body_recorded", names="TanhBackward0")


def _require_head(name, tensor, want):
    got = as_array(tensor) if _tools.is_tensor(tensor) else None
    if got is None or got.shape != want.shape:
        raise Hint("head_replaced", name=name)
    if not np.allclose(got, want, rtol=1e-6, atol=1e-10):
        index = tuple(int(i) for i in np.argwhere(~np.isclose(got, want, 1e-6, 1e-10))[0])
        raise Hint("finetune_head_wrong", name=name, index=list(index), got=f"{got[index]:.6g}",
                   expected=f"{want[index]:.6g}")


class _FinetuneTrial:
    """Two problems whose seeds, numbers of steps and learning rates are drawn from the
    trial's seed; losses and parameters reported and judged against the descent."""

    def runs(self, seed):
        rng = np.random.default_rng(seed)
        return tuple((int(rng.integers(1_000_000)), int(rng.integers(2, 6)),
                      float(np.round(rng.uniform(0.05, 0.4), 3))) for _ in range(2))

    def run(self, answer, seed):
        return {"runs": _run_finetune(answer, self.runs(seed))}

    def judge(self, report, seed):
        _judge_finetune(field(report, "runs", list), self.runs(seed))


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

TRIALS = {"straight_through": _StraightThroughTrial(), "newton_sqrt": _NewtonTrial(),
          "finetune_head": _FinetuneTrial()}
