"""Lessons 05 and 06, what to save: seed_func, tanh_saves_output, inplace_relu.

Besides values and gradients, these checks look at what forward saved:
`saved_tensors_hooks` observes every tensor packed (which object it was, and
its values: `y.detach()` saves the output as well as `y`), and the node
(which is the ctx) shows the attributes forward kept on it.  PyTorch's rule
since 1.11: every tensor backward needs goes through save_for_backward,
intermediates too; only non-tensors are ctx attributes.  What each Function
must compute comes from minigrad's built-in ops (`_func`, `_tanh`).
"""
import numpy as np

from ..surface import creation
from ..autograd.function import Function
from ..autograd.grad_mode import no_grad
from . import _tools
from ._trial import (FunctionTrial, In, dtype_of, matrix_shape, one_tensor, seen, tensor_of,
                     uniform, value_of)
from ._tools import Hint, as_array, case, values_case

MESSAGES = {
    "tensor_on_ctx": {
        "en": "A tensor is kept as a plain attribute of ctx (ctx.{name}). Tensors that backward "
              "needs, intermediates included, go through ctx.save_for_backward (or are "
              "recomputed in backward): only saved tensors are checked for in-place changes "
              "and seen by saved-tensor hooks. Keep only non-tensors (numbers, shapes) as ctx "
              "attributes.",
        "zh": "有一个张量被直接存成了 ctx 的普通属性（ctx.{name}）。backward 需要的张量，包括中间结果，"
              "都要用 ctx.save_for_backward 保存（或者在 backward 里重新计算）：只有保存的张量才会接受原地修改的检查，"
              "也才能被保存张量的钩子看到。ctx 的属性只用来放非张量（数字、形状）。"},
    "inputs_on_ctx": {
        "en": "An input tensor was stored as a ctx attribute. Save input and output tensors with "
              "ctx.save_for_backward: only saved tensors are version-checked, and an output kept "
              "on ctx makes a reference cycle.",
        "zh": "你把输入张量直接存成了 ctx 的属性。输入和输出张量要用 ctx.save_for_backward 保存："
              "只有保存的张量才会做版本检查，而把输出挂在 ctx 上会造成循环引用。"},
    "forgot_w_term": {
        "en": "The gradients miss the contribution of the term w·y: w = x·z depends on x, so "
              "w·y depends on both x and y, and its derivative adds to both gradients.",
        "zh": "梯度漏掉了 w·y 这一项的贡献：w = x·z 依赖于 x，所以 w·y 同时依赖 x 和 y，"
              "它的导数要加到这两个梯度上。"},
    "output_on_ctx": {
        "en": "The output was stored as a ctx attribute. Save it with ctx.save_for_backward "
              "instead: a saved tensor is version-checked, and an output kept on its own "
              "node makes a reference cycle.",
        "zh": "你把输出直接存成了 ctx 的属性。请改用 ctx.save_for_backward 保存它：保存的张量会做版本检查，"
              "而把输出挂在它自己的节点上会造成循环引用。"},
    "saved_input_not_output": {
        "en": "Save the output of tanh, not its input: the derivative 1 − tanh²(x) is written "
              "with the output alone, so backward needs no recomputation.",
        "zh": "要保存 tanh 的输出，而不是输入：导数 1 − tanh²(x) 只用输出就能写出来，"
              "backward 不必重新计算。"},
    "save_the_output": {
        "en": "forward saved a tensor that is neither the input nor the output. This exercise "
              "is about saving the output y itself: backward can compute everything it needs "
              "from y.",
        "zh": "forward 保存的张量既不是输入也不是输出。这道练习要保存的就是输出 y 本身："
              "backward 需要的一切都可以由 y 算出来。"},
    "nothing_saved": {
        "en": "forward saved nothing with ctx.save_for_backward; backward needs a saved tensor.",
        "zh": "forward 没有用 ctx.save_for_backward 保存任何张量，而 backward 需要一个保存的张量。"},
    "not_in_place": {
        "en": "forward did not modify x in place: x still has its old values. Use an in-place "
              "operation (the ones ending in _) on x itself.",
        "zh": "forward 没有原地修改 x：x 的值还是原来的。请在 x 本身上使用原地操作（名字以 _ 结尾的那些）。"},
    "forgot_mark_dirty": {
        "en": "x was modified in place but not declared: call ctx.mark_dirty(x) in forward, so "
              "the graph knows x now comes from your Function.",
        "zh": "x 被原地修改了，但没有声明：请在 forward 中调用 ctx.mark_dirty(x)，"
              "让计算图知道 x 现在来自你的 Function。"},
    "return_dirty_input": {
        "en": "forward marked x dirty but returned another tensor: the output must be x itself.",
        "zh": "forward 把 x 标记为已修改（dirty），却返回了另一个张量：输出必须就是 x 本身。"},
    "mask_after_clamp": {
        "en": "The gradient passes everywhere, also where the input was negative: it must be 0 "
              "where x ≤ 0. Mask it with the saved x, and remember that after the in-place "
              "clamp the negative entries are 0, so a mask 'x ≥ 0' lets everything through.",
        "zh": "梯度在所有位置都通过了，包括输入为负的位置：x ≤ 0 处的梯度必须是 0。"
              "请用保存的 x 做掩码；注意原地截断后负数都已变成 0，所以“x ≥ 0”这样的掩码会让所有位置都通过。"},
    "mark_dirty_wrong_tensor": {
        "en": "ctx.mark_dirty was called on another tensor, not on x. Mark the input that forward "
              "modified in place (and returns).",
        "zh": "ctx.mark_dirty 标记的是另一个张量，而不是 x。请标记 forward 原地修改过（并且返回）的那个输入。"},
}


# What Func and Tanh must compute, with minigrad's built-in ops (see functions.py)
def _func(x, y, z):
    """PyTorch 2.13's example of save_for_backward: w = x·z, out = x·y + y·z + w·y."""
    w = x * z
    return x * y + y * z + w * y


def _tanh(x):
    return x.tanh()


def _marked_dirty(cls, x):
    """What forward passes to ctx.mark_dirty, found by running it once more on a node of
    its own (apply's error, as PyTorch's, does not say which tensor it was)."""
    node = cls._node_class()
    node.needs_input_grad = (True,)
    with no_grad():
        if cls.setup_context is Function.setup_context:
            cls.forward(node, x)
        else:
            cls.setup_context(node, (x,), cls.forward(x))
    return node._dirty


def _contains(tensors, wanted):
    return any(t is wanted for t in tensors)


def _kept_on_ctx(node, *tensors):
    """Whether forward kept one of `tensors` as a ctx attribute (also inside a tuple, list
    or dict: ctx.inputs = (x, y))."""
    values = []
    for value in vars(node).values():
        if isinstance(value, dict):
            value = list(value.values())
        values.extend(value if isinstance(value, (tuple, list)) else [value])
    return any(_contains(values, t) for t in tensors)


def check_seed_func(answer):
    """Any Function PyTorch's rule accepts: what it saves is its choice (2.13's docstring
    saves x, y, w and out; x and y are enough), but no tensor may be a ctx attribute."""
    cls = _tools.require_function_class(answer)
    x, y = case((3,), (3,), seed=20)()
    output, _ = _tools.apply_observing_saves(cls, x, y, 2)
    _tools.require_grad_fn(_tools.require_tensor(output, "forward"), (x, y))
    _require_no_tensor_on_ctx(output.grad_fn, (x, y), output)
    _diagnose_missing_w(cls, x, y, 2)
    cases = (case((3,), (3,), seed=21, extra=(2,)), case((2, 2), (2, 2), seed=22, extra=(-3,)),
             case((4,), (4,), seed=23, dtype="float32", extra=(5,)),
             values_case([[0.0, -1.0], [2.0, 0.0]], extra=(0,)))
    return _tools.check_function(answer, _func, cases)


def _tensors_on_ctx(node, inputs, output):
    """(attribute name, what it is: "input", "output" or "other") for every tensor among the
    attributes forward set on ctx (also inside a tuple, list or dict)."""
    found = []
    for name, value in vars(node).items():
        if name == "saved_for_forward":          # save_for_forward's: tensors, rightly
            continue
        values = list(value.values()) if isinstance(value, dict) else value
        for item in values if isinstance(values, (tuple, list)) else [values]:
            if not _tools.is_tensor(item):
                continue
            if _contains(inputs, item):
                found.append([name, "input"])
            elif item is output or _tools.same_values(item, output):
                found.append([name, "output"])
            else:
                found.append([name, "other"])
    return found


def _refuse_tensor_on_ctx(found):
    """The Hint for the first tensor kept on ctx, named by what it is."""
    for name, kind in found:
        if kind == "input":
            raise Hint("inputs_on_ctx")
        if kind == "output":
            raise Hint("output_on_ctx")
        raise Hint("tensor_on_ctx", name=str(name))


def _require_no_tensor_on_ctx(node, inputs, output):
    _refuse_tensor_on_ctx(_tensors_on_ctx(node, inputs, output))


def _diagnose_missing_w(cls, x, y, z):
    """The classic slip: differentiating as if w = x·z did not depend on x (or forgetting
    the term w·y in y's gradient)."""
    output = _tools.apply(cls, x, y, z)
    grad_output = creation.tensor([0.5, -1.5, 2.0], dtype=x.dtype)
    g, xs, ys = as_array(grad_output), as_array(x), as_array(y)    # before backward runs
    raw = _tools.raw_backward(cls, output.grad_fn, (grad_output,))
    if len(raw) < 2 or not all(_tools.is_tensor(g) for g in raw[:2]):
        return
    if (_tools.close(as_array(raw[0]), g * ys, x.dtype)
            or _tools.close(as_array(raw[1]), g * (xs + z), x.dtype)):
        raise Hint("forgot_w_term")


def check_tanh_saves_output(answer):
    cls = _tools.require_function_class(answer)
    x = creation.tensor([0.3, -1.2, 2.0], requires_grad=True)
    output, saved = _tools.apply_observing_saves(cls, x)
    _tools.require_grad_fn(_tools.require_tensor(output, "forward"), (x,))
    if _kept_on_ctx(output.grad_fn, x):
        raise Hint("saved_input_not_output")
    if _kept_on_ctx(output.grad_fn, output):
        raise Hint("output_on_ctx")
    if not saved:
        raise Hint("nothing_saved")
    # by value: y.detach() (PyTorch's habit) saves the output too
    if any(_tools.same_values(t, x) for t in saved):
        raise Hint("saved_input_not_output")
    if not any(_tools.same_values(t, output) for t in saved):
        raise Hint("save_the_output")
    cases = (case((2, 3), seed=24), case((4,), seed=25, dtype="float32"),
             values_case([[0.0, -3.0, 5.0]]))
    _tools.check_function(answer, _tanh, cases)


def check_inplace_relu(answer):
    cls = _tools.require_function_class(answer)
    for dtype in ("float64", "float32"):
        _check_inplace_case(cls, np.array([-1.5, 2.0, -0.3, 0.7, -2.0, 0.1], dtype=dtype))


def _check_inplace_case(cls, values):
    leaf = creation.tensor(values, requires_grad=True)
    x = leaf * 1                              # not a leaf: in-place changes are allowed
    try:
        output = _tools.apply(cls, x)
    except RuntimeError as error:             # PyTorch's: a dirty tensor was not returned
        if "marked as dirty" not in str(error):
            raise
        probe = creation.tensor(values)
        raise Hint("return_dirty_input" if _contains(_marked_dirty(cls, probe), probe) else
                   "mark_dirty_wrong_tensor") from None
    if np.array_equal(as_array(x), values.astype(np.float64)):
        raise Hint("not_in_place")
    _tools.require_grad_fn(_tools.require_tensor(output, "forward"), (leaf,))
    node = output.grad_fn
    if x.grad_fn is not node:
        probe = creation.tensor(values)
        dirty = _marked_dirty(cls, probe)
        if _contains(dirty, probe):
            raise Hint("return_dirty_input")
        raise Hint("mark_dirty_wrong_tensor" if dirty else "forgot_mark_dirty")
    _tools.check_output(output, creation.tensor(np.maximum(values, 0)))
    generator = np.random.default_rng(26)
    grad_output = creation.tensor(generator.uniform(0.5, 2, size=values.shape) *
                                  generator.choice([-1, 1], size=values.shape), dtype=x.dtype)
    expected = as_array(grad_output) * (values > 0)
    raw = _tools.raw_backward(cls, node, (grad_output,))
    if len(raw) != 1 and not (len(raw) > 1 and all(g is None for g in raw[1:])):
        raise Hint("wrong_num_grads", got=len(raw), expected=1)
    grad = _tools.require_tensor(raw[0], "backward")
    if _tools.close(as_array(grad), as_array(grad_output), x.dtype):
        raise Hint("mask_after_clamp")
    _tools.diagnose_values(as_array(grad), expected, (values > 0).astype(float), 0, values,
                           x.dtype, (values,), as_array(grad_output))   # (x before relu_)
    output.backward(grad_output)
    _tools.diagnose_values(as_array(leaf.grad), expected, None, 0, values, x.dtype, (values,),
                           as_array(grad_output))


CHECKS = {"seed_func": check_seed_func, "tanh_saves_output": check_tanh_saves_output,
          "inplace_relu": check_inplace_relu}


# --- the trials (see _trial): the same, on inputs drawn when a grader grades -----------------

class _FuncTrial(FunctionTrial):
    """Func's values and gradients, and PyTorch's rule: no tensor kept as a ctx attribute
    (each one found is reported by its name and what it is)."""

    def __init__(self):
        super().__init__(_func, self.draw_inputs)

    @staticmethod
    def draw_inputs(rng, dtype):
        shape = matrix_shape(rng)
        return [In(uniform(rng, shape, dtype)), In(uniform(rng, shape, dtype)),
                int(rng.integers(-3, 6))]

    def observe(self, cls, inputs):
        output = _tools.apply(cls, *inputs)
        node = getattr(output, "grad_fn", None)
        if node is None:
            return None
        return {"on_ctx": _tensors_on_ctx(node, inputs[:2], output)}

    def confirm(self, extra, inputs, expected):
        found = extra["on_ctx"]
        if not isinstance(found, list) or not all(
                isinstance(entry, list) and len(entry) == 2 for entry in found):
            raise Hint("trial_unreadable")
        _refuse_tensor_on_ctx(found)


class _TanhTrial(FunctionTrial):
    """Tanh's values and gradients, and the values forward saved: the output's, not x's."""

    def __init__(self):
        super().__init__(_tanh, one_tensor)

    def observe(self, cls, inputs):
        _, saved = _tools.apply_observing_saves(cls, *inputs)
        return [seen(tensor) for tensor in saved]

    def confirm(self, extra, inputs, expected):
        saved = [value_of(entry) for entry in extra]
        if not saved:
            raise Hint("nothing_saved")
        if any(_tools.same_values(tensor, inputs[0].detach()) for tensor in saved):
            raise Hint("saved_input_not_output")
        if not any(_tools.same_values(tensor, expected.detach()) for tensor in saved):
            raise Hint("save_the_output")


class _InplaceReLUTrial:
    """A tensor that is not a leaf, clamped in place: it must be the output, marked dirty
    (so it now comes from the answer's node), with the gradient masked where x ≤ 0."""

    @staticmethod
    def draw(seed):
        rng = np.random.default_rng(seed)
        values = uniform(rng, int(rng.integers(4, 9)), dtype_of(rng))
        values[rng.random(values.shape) < 0.2] = 0.0
        values[:2] = (-abs(values[0]) - 0.5, abs(values[1]) + 0.5)     # one of each sign
        return rng, rng.permutation(values)

    def run(self, answer, seed):
        cls = _tools.require_function_class(answer)
        rng, values = self.draw(seed)
        leaf = creation.tensor(values, requires_grad=True)
        x = leaf * 1
        output = _tools.apply(cls, x)
        node = getattr(output, "grad_fn", None)
        report = {"forward": seen(output), "x": seen(x),
                  "returned_x": output is x, "x_from_node": node is not None and x.grad_fn is node}
        if node is None:
            return report
        grad_output = creation.tensor(uniform(rng, values.shape, values.dtype), dtype=x.dtype)
        kept = as_array(grad_output)
        with no_grad():
            raw = cls.backward(node, grad_output)
        report["grad_output_kept"] = bool(np.array_equal(as_array(grad_output), kept))
        report["backward"] = [seen(grad) for grad in (raw if isinstance(raw, tuple) else (raw,))]
        output.backward(grad_output)
        report["grad"] = seen(leaf.grad)
        return report

    def judge(self, report, seed):
        rng, values = self.draw(seed)
        x = tensor_of(report["x"], "forward")
        if np.array_equal(as_array(x), values.astype(np.float64)):
            raise Hint("not_in_place")
        expected = creation.tensor(np.maximum(values, 0))
        _tools.check_output(value_of(report["forward"]), expected)
        _tools.check_output(x, expected)
        if not (report["returned_x"] is True and report["x_from_node"] is True):
            raise Hint("forgot_mark_dirty")
        if report["grad_output_kept"] is not True:
            raise Hint("modified_grad_output")
        grad_output = uniform(rng, values.shape, values.dtype)
        wanted = grad_output.astype(np.float64) * (values > 0)
        raw = [value_of(entry) for entry in report["backward"]]
        if not raw or any(grad is not None for grad in raw[1:]):
            raise Hint("wrong_num_grads", got=len(raw), expected=1)
        for grad in (raw[0], value_of(report["grad"])):
            _tools.require_tensor(grad, "backward")
            _tools.diagnose_values(as_array(grad), wanted, (values > 0).astype(float), 0,
                                   values, expected.dtype)


TRIALS = {"seed_func": _FuncTrial(), "tanh_saves_output": _TanhTrial(),
          "inplace_relu": _InplaceReLUTrial()}
