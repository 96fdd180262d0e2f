"""Lesson 12, higher-order gradients: second_derivative, cube_double_backward.

The second derivative is compared with the analytic one for a few elementwise
functions; the mistakes leave fingerprints (the first derivative, or the sum of
both when `.grad` accumulated).  A Function's backward is differentiable when
the gradient it returns under create_graph=True has a graph leading back to x.
"""
import numpy as np

from .. import autograd
from ..surface import creation
from ..autograd.graph import saved_tensors_hooks
from . import _tools
from ._tools import Hint, as_array, case, values_case
from ._trial import FunctionTrial, dtype_of, one_tensor, seen, uniform, value_of

MESSAGES = {
    "forgot_create_graph": {
        "en": "The first gradient has no graph, so it cannot be differentiated again. Ask for "
              "it with create_graph=True.",
        "zh": "第一次求出的梯度没有计算图，所以无法再求导。求它的时候要传入 create_graph=True。"},
    "backward_twice": {
        "en": "The graph was freed after the first gradient. With create_graph=True it is kept "
              "(and the gradient itself gets a graph).",
        "zh": "第一次求梯度之后计算图就被释放了。使用 create_graph=True 时计算图会被保留"
              "（而且梯度本身也会带上计算图）。"},
    "needs_sum": {
        "en": "autograd.grad needs a scalar output, or grad_outputs. The function is "
              "elementwise, so summing the output first gives every element's derivative.",
        "zh": "autograd.grad 需要标量输出，或者传入 grad_outputs。这个函数是逐元素的，"
              "所以先对输出求和，就能得到每个元素各自的导数。"},
    "x_detached": {
        "en": "autograd.grad was asked for the gradient with respect to a tensor that does not "
              "require grad. Differentiate with respect to the x you were given (it requires "
              "grad): x.detach() makes a new tensor cut off from the graph.",
        "zh": "你让 autograd.grad 对一个不需要梯度的张量求导。请对传进来的那个 x 求导（它需要梯度）："
              "x.detach() 得到的是一个与计算图断开的新张量。"},
    "grad_returns_tuple": {
        "en": "autograd.grad returns a tuple, one gradient per input, even for a single input. "
              "Unpack it: (first,) = autograd.grad(...), or take [0].",
        "zh": "autograd.grad 返回的是元组，每个输入对应一个梯度，只有一个输入时也是如此。"
              "要把它解包：(first,) = autograd.grad(...)，或者取 [0]。"},
    "saved_intermediate": {
        "en": "Your backward uses a tensor that forward computed and saved (neither an input nor "
              "the output). forward records no graph, so that tensor has no path back to x and "
              "the second derivative misses its part. Save the input and compute what backward "
              "needs inside backward, with minigrad operations.",
        "zh": "你的 backward 用到了一个在 forward 中算出并保存的张量（它既不是输入也不是输出）。"
              "forward 运行时不记录计算图，所以这个张量没有通往 x 的路径，二阶导数就少了这一部分。"
              "请保存输入，在 backward 里用 minigrad 的运算算出需要的值。"},
    "returned_first_derivative": {
        "en": "Your result is the first derivative df/dx. Differentiate it once more.",
        "zh": "你的结果是一阶导数 df/dx。还要再对它求一次导。"},
    "grad_accumulated": {
        "en": "Your result is f' + f'': backward() added the second derivative into x.grad, "
              "which already held the first. Use autograd.grad (it returns gradients without "
              "touching .grad), or clear x.grad in between.",
        "zh": "你的结果是 f' + f''：backward() 把二阶导数累加到了已经存着一阶导数的 x.grad 上。"
              "请使用 autograd.grad（它直接返回梯度，不会改动 .grad），或者在两次之间清空 x.grad。"},
    "wrong_second_derivative": {
        "en": "The second derivative is wrong for f = {function}. Check what you differentiate "
              "the second time, and with respect to which tensor.",
        "zh": "对于 f = {function}，二阶导数不对。检查第二次求导的对象是什么，以及是对哪个张量求导。"},
}


# What Cube must compute, with minigrad's built-in ops (see functions.py)
def _cube(x):
    return x ** 3


def _functions():
    """(name, f, f', f'') for the elementwise functions tried."""
    def tanh_second(x):
        t = np.tanh(x)
        return -2 * t * (1 - t * t)
    return (("x³", lambda x: x ** 3, lambda x: 3 * x ** 2, lambda x: 6 * x),
            ("sin x", lambda x: x.sin(), np.cos, lambda x: -np.sin(x)),
            ("x·eˣ", lambda x: x * x.exp(), lambda x: np.exp(x) * (x + 1),
             lambda x: np.exp(x) * (x + 2)),
            ("tanh x", lambda x: x.tanh(), lambda x: 1 - np.tanh(x) ** 2, tanh_second))


_GRAPH_ERRORS = (("does not require grad and does not have a grad_fn", "forgot_create_graph"),
                 ("One of the differentiated Tensors does not require grad", "x_detached"),
                 ("backward through the graph a second time", "backward_twice"),
                 ("grad can be implicitly created only for scalar", "needs_sum"))


def check_second_derivative(answer):
    second_derivative = _tools.require_callable(answer)
    values = np.array([-1.5, -0.2, 0.0, 0.7, 1.3])
    for dtype in ("float64", "float32"):
        for name, f, first, second in _functions():
            x = creation.tensor(values.astype(dtype), requires_grad=True)
            try:
                result = second_derivative(f, x)
            except RuntimeError as error:
                for fragment, key in _GRAPH_ERRORS:
                    if fragment in str(error):
                        raise Hint(key) from None
                raise
            except AttributeError as error:        # grad(...).sum(): the tuple kept
                if str(error).startswith("'tuple' object has no attribute"):
                    raise Hint("grad_returns_tuple") from None
                raise
            _check_second(result, x, name, first(values), second(values))


def _check_second(result, x, name, first, second):
    if isinstance(result, (tuple, list)) and any(_tools.is_tensor(r) for r in result):
        raise Hint("grad_returns_tuple")
    _tools.require_tensor(result, "second_derivative")
    if tuple(result.shape) != tuple(x.shape):
        raise Hint("wrong_shape", where="second_derivative", got=list(result.shape),
                   expected=list(x.shape))
    got = as_array(result)
    if _tools.close(got, second, x.dtype):
        return
    if _tools.close(got, first, x.dtype):
        raise Hint("returned_first_derivative")
    if _tools.close(got, first + second, x.dtype):
        raise Hint("grad_accumulated")
    raise Hint("wrong_second_derivative", function=name)


def check_cube_double_backward(answer):
    cases = (case((2, 3), seed=50), case((4,), seed=51, dtype="float32"),
             values_case([[0.0, -1.0, 2.0]]))
    _tools.check_function(answer, _cube, cases)
    cls = _tools.require_function_class(answer)
    values = np.array([-1.5, 0.5, 2.0, 0.0])
    x, saved = creation.tensor(values, requires_grad=True), []
    def observe(tensor):
        saved.append(tensor)
        return tensor

    with saved_tensors_hooks(observe, lambda tensor: tensor):
        output = _tools.apply(cls, x)
    (first,) = autograd.grad(output.sum(), x, create_graph=True)
    (second,) = ((None,) if first.grad_fn is None
                 else autograd.grad(first.sum(), x, allow_unused=True))
    if second is None or not _tools.close(as_array(second), 6 * values, x.dtype):
        if any(_is_intermediate(t, x, output) for t in saved):
            raise Hint("saved_intermediate")
        raise Hint("backward_not_differentiable")
    grad_output = creation.tensor([0.5, -1.0, 2.0, 1.5], dtype=x.dtype, requires_grad=True)
    if not autograd.gradgradcheck(cls.apply, (x,), (grad_output,), raise_exception=False):
        raise Hint("backward_not_differentiable")


def _is_intermediate(tensor, x, output):
    """A saved tensor that is neither x nor the output, nor a detached copy of them."""
    for known in (x, output):
        if tensor is known or _tools.close(as_array(tensor), as_array(known), known.dtype):
            return False
    return True


CHECKS = {"second_derivative": check_second_derivative,
          "cube_double_backward": check_cube_double_backward}


# --- the trials (see _trial): the same, on values drawn when a grader grades -----------------

class _SecondDerivativeTrial:
    """second_derivative(f, x) for one of the functions above, at x drawn from the seed."""

    @staticmethod
    def draw(seed):
        rng = np.random.default_rng(seed)
        function = _functions()[int(rng.integers(len(_functions())))]
        return function, uniform(rng, int(rng.integers(2, 7)), dtype_of(rng))

    def run(self, answer, seed):
        second_derivative = _tools.require_callable(answer)
        (_, f, _, _), values = self.draw(seed)
        result = second_derivative(f, creation.tensor(values, requires_grad=True))
        if isinstance(result, (tuple, list)) and any(_tools.is_tensor(r) for r in result):
            raise Hint("grad_returns_tuple")
        return {"result": seen(result)}

    def judge(self, report, seed):
        (name, _, first, second), values = self.draw(seed)
        x = creation.tensor(values)
        wide = values.astype(np.float64)
        _check_second(value_of(report["result"]), x, name, first(wide), second(wide))


TRIALS = {"second_derivative": _SecondDerivativeTrial(),
          "cube_double_backward": FunctionTrial(_cube, one_tensor, double_backward=True)}
