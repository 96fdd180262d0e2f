"""Lessons 04 and 05, what to save: seed_func, tanh_saves_output, inplace_relu.

Besides values and gradients, these checks look at what forward saved:
`saved_tensors_hooks` observes every tensor packed (which object it was, and
its values: `y.detach()` saves the output as well as `y`), and the node
(which is the ctx) shows the attributes forward kept on it.
"""
import numpy as np

from .. import creation
from ..autograd.function import Function
from ..autograd.grad_mode import no_grad
from . import _tools
from ._trial import (FunctionTrial, In, dtype_of, matrix_shape, one_tensor, seen, tensor_of,
                     uniform, value_of)
from ._tools import Hint, as_array, case, values_case

MESSAGES = {
    "keep_z_on_ctx": {
        "en": "ctx.z should hold z, the Python number given to forward. Numbers are not saved "
              "with save_for_backward: keep them as ctx attributes.",
        "zh": "ctx.z 应该保存传给 forward 的 Python 数字 z。数字不用 save_for_backward 保存，"
              "而是作为 ctx 的属性保留下来。"},
    "keep_w_on_ctx": {
        "en": "ctx.w should hold w = x·y·z as computed in forward: an intermediate tensor "
              "(neither input nor output) that backward may want.",
        "zh": "ctx.w 应该保存 forward 中算出的 w = x·y·z：它是中间结果张量（既不是输入也不是输出），"
              "backward 可能会用到它。"},
    "inputs_on_ctx": {
        "en": "An input tensor was stored as a ctx attribute. Save input and output tensors with "
              "ctx.save_for_backward: only saved tensors are version-checked, and an output kept "
              "on ctx makes a reference cycle.",
        "zh": "你把输入张量直接存成了 ctx 的属性。输入和输出张量要用 ctx.save_for_backward 保存："
              "只有保存的张量才会做版本检查，而把输出挂在 ctx 上会造成循环引用。"},
    "save_x_y_out": {
        "en": "forward should save x, y and its output with ctx.save_for_backward (check what "
              "you pass to it).",
        "zh": "forward 应该用 ctx.save_for_backward 保存 x、y 和输出（检查一下你传给它的参数）。"},
    "forgot_w_term": {
        "en": "The gradients miss the contribution of w: w = x·y·z depends on x and y too, so "
              "its derivative adds to both gradients.",
        "zh": "梯度漏掉了 w 的贡献：w = x·y·z 也依赖于 x 和 y，所以它的导数要加到这两个梯度上。"},
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
    return x * y + y * z + x * y * z


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
    cls = _tools.require_function_class(answer)
    x, y = case((3,), (3,), seed=20)()
    output, saved = _tools.apply_observing_saves(cls, x, y, 2)
    _tools.require_grad_fn(_tools.require_tensor(output, "forward"), (x, y))
    node = output.grad_fn
    if _kept_on_ctx(node, x, y):
        raise Hint("inputs_on_ctx")
    if getattr(node, "z", None) != 2:
        raise Hint("keep_z_on_ctx")
    w = getattr(node, "w", None)
    if not _tools.is_tensor(w) or not _tools.close(as_array(w), as_array(x * y * 2), x.dtype):
        raise Hint("keep_w_on_ctx")
    if not all(_contains(saved, t) for t in (x, y, output)):
        raise Hint("save_x_y_out")
    _diagnose_missing_w(cls, x, y, 2)
    cases = (case((3,), (3,), seed=21, extra=(2,)), case((2, 2), (2, 2), seed=22, extra=(-3,)),
             case((4,), (4,), seed=23, dtype="float32", extra=(5,)),
             values_case([[0.0, -1.0], [2.0, 0.0]], extra=(0,)))
    _tools.check_function(answer, _func, cases)


def _diagnose_missing_w(cls, x, y, z):
    """The classic slip: differentiating x·y + y·z and forgetting that w depends on x, y."""
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
    """Func's values and gradients, and what forward kept: z and w on ctx, x, y and the
    output saved (which objects forward saved is reported by name)."""

    def __init__(self):
        super().__init__(_func, self.draw_inputs)

    @staticmethod
    def draw_inputs(rng, dtype):
        shape = matrix_shape(rng)
        return [In(uniform(rng, shape, dtype)), In(uniform(rng, shape, dtype)),
                int(rng.integers(-3, 6))]

    def observe(self, cls, inputs):
        output, saved = _tools.apply_observing_saves(cls, *inputs)
        node = getattr(output, "grad_fn", None)
        if node is None:
            return None
        z = getattr(node, "z", None)
        names = {id(inputs[0]): "x", id(inputs[1]): "y", id(output): "output"}
        return {"z": z if type(z) in (int, float) else seen(z), "w": seen(getattr(node, "w", None)),
                "saved": [names.get(id(tensor), "other") for tensor in saved]}

    def confirm(self, extra, inputs, expected):
        x, y, z = inputs
        if _number(extra["z"]) != z:
            raise Hint("keep_z_on_ctx")
        w = value_of(extra["w"])
        if not _tools.same_values(w, (x * y * z).detach()):
            raise Hint("keep_w_on_ctx")
        if not {"x", "y", "output"} <= set(extra["saved"]):
            raise Hint("save_x_y_out")


def _number(entry):
    """A reported number, or the one number of a reported tensor (a 0-d tensor z is fine)."""
    if isinstance(entry, dict):
        tensor = value_of(entry)
        return as_array(tensor).item() if _tools.is_tensor(tensor) and tensor.numel() == 1 else None
    return entry


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
