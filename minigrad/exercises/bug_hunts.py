"""Lesson 11, hunting bugs: logsumexp (overflow), pairwise_distances (a NaN from sqrt at 0),
fix_inplace (an in-place change through a view).

logsumexp's values and gradients come from the built-in `torch.logsumexp`, on inputs whose
exp overflows or underflows.  pairwise_distances is compared with distances taken by the
built-in vector norm, whose backward gives 0 where the distance is 0 (PyTorch's).  The
function to fix, `features`, is the lesson's: the answer must give its values, which the
check computes with it under no_grad (where changing a tensor in place is allowed), and
the gradient finite differences give.
"""
import numpy as np

from .. import autograd
from ..surface import creation
from ..autograd.grad_mode import no_grad
from . import _tools
from ._observed import ObservedTrial
from ._tools import Hint, as_array
from ._trial import dtype_of, uniform

MESSAGES = {
    "overflow": {
        "en": "forward gives {got} for a row whose largest entry is {largest}: exp overflows "
              "(float64's exp is inf above about 709, float32's above 88). Shift each row by "
              "its maximum before exp, and add the maximum back after the log.",
        "zh": "对最大元素为 {largest} 的一行，forward 给出了 {got}：exp 溢出了（float64 的 exp 在约 709 以上"
              "就是 inf，float32 在 88 以上）。在 exp 之前先把每一行减去它的最大值，取 log 之后再加回来。"},
    "underflow": {
        "en": "forward gives {got} for a row whose entries are all near {largest}: every exp "
              "underflows to 0 and the log of 0 is -inf. Shifting by the row's maximum fixes "
              "this end too: the largest term becomes exp(0) = 1.",
        "zh": "对所有元素都接近 {largest} 的一行，forward 给出了 {got}：每个 exp 都下溢成 0，"
              "而 0 的 log 是 -inf。减去这一行的最大值也能解决这一头的问题：最大的那一项变成 exp(0) = 1。"},
    "max_not_added_back": {
        "en": "forward is off by each row's maximum: log Σ exp(x - m) is log Σ exp(x) - m. "
              "Add the maximum back.",
        "zh": "forward 的结果与正确值正好差了每一行的最大值：log Σ exp(x - m) 等于 log Σ exp(x) - m。"
              "要把最大值加回来。"},
    "backward_overflows": {
        "en": "backward returns {got} for a row whose largest entry is {largest}: it takes exp of "
              "the raw inputs. The gradient is the softmax of the row, exp(x - result): "
              "compute it from the saved result (or shift by the maximum), and it never "
              "overflows.",
        "zh": "对最大元素为 {largest} 的一行，backward 返回了 {got}：它对原始输入直接取了 exp。"
              "梯度是这一行的 softmax，也就是 exp(x - result)：用保存的结果来算（或者同样减去最大值），"
              "就永远不会溢出。"},
    "grad_output_per_row": {
        "en": "Each row's gradient must be multiplied by that row's incoming gradient: "
              "grad_output has one value per row, so give it back its last dimension "
              "(grad_output[..., None], or unsqueeze(-1)) before multiplying.",
        "zh": "每一行的梯度都要乘以这一行传进来的梯度：grad_output 每行只有一个值，所以在相乘之前要把最后一维"
              "加回来（grad_output[..., None]，或者 unsqueeze(-1)）。"},
    "nan_gradient": {
        "en": "The gradient has NaN, at points[{index}] for the points {points}: where two "
              "points coincide, the distance is 0 and sqrt's derivative there is infinite. A "
              "torch.where after the sqrt does not help, since backward still multiplies that "
              "infinity by 0. Give sqrt a harmless input where the distance is 0 (a where "
              "before it), or take the distance with an op whose backward handles 0.",
        "zh": "梯度里出现了 NaN，位置是 points[{index}]，对应的点是 {points}：两个点重合时距离为 0，"
              "而 sqrt 在 0 处的导数是无穷大。在 sqrt 之后再用 torch.where 也没有用，因为反向传播仍然会"
              "把这个无穷大乘以 0。要在 sqrt 之前就让距离为 0 的地方换成一个无害的输入（在它前面用一次 where），"
              "或者改用一个反向传播能处理 0 的运算来求距离。"},
    "distances_changed": {
        "en": "The distances are not exact: distance[{index}] is {got}, the right value is "
              "{expected}. Adding a small number inside the sqrt keeps the gradient finite "
              "but changes every distance, most of all the zeros. Change the input of sqrt "
              "only where the distance is 0.",
        "zh": "距离算得不准：distance[{index}] 是 {got}，正确值是 {expected}。在 sqrt 里加一个小数，"
              "梯度确实不会无穷大，但每个距离都被改变了，0 变得最多。只在距离为 0 的地方改变 sqrt 的输入。"},
    "still_modified_in_place": {
        "en": "backward still fails: {error}. The tensor it names was saved by that op and "
              "then changed in place, through a view or directly. Find the change (anomaly "
              "mode shows where the op was called; the change is there or later) and make it "
              "out of place, or change a clone().",
        "zh": "backward 仍然失败：{error}。它提到的那个张量被这个运算保存了，之后又被原地修改（通过视图或直接修改）。"
              "找到这次修改（异常检测模式会告诉你这个运算在哪里被调用，修改就在那里或之后），"
              "把它改成非原地操作，或者改为修改一个 clone()。"},
    "features_changed": {
        "en": "Your function computes other values than features: at index {index} it gives "
              "{got}, features gives {expected}. Fix the in-place change, nothing else.",
        "zh": "你的函数算出的值和 features 不同：在下标 {index} 处得到 {got}，features 给出的是 {expected}。"
              "只修正那处原地修改，别的都不要动。"},
    "cut_from_graph": {
        "en": "No gradient reaches input {input}: somewhere the result was taken out of the "
              "graph (detach(), .data, or a new tensor made from values). Change the "
              "tensor out of place instead, so that its history stays.",
        "zh": "没有梯度传到输入 {input}：结果在某处被拿出了计算图（detach()、.data，或者用数值新建的张量）。"
              "请改用非原地操作，让它的历史保留下来。"},
}

# ---------------------------------------------------------------- logsumexp


def _builtin_logsumexp(values, grad_output):
    """torch.logsumexp's value and gradient (for grad_output, and for ones)."""
    results = []
    for seed in (grad_output, creation.ones_like(grad_output)):
        x = creation.tensor(values, requires_grad=True)
        out = x.logsumexp(dim=-1)
        (grad,) = autograd.grad(out, x, seed)
        results.append(as_array(grad))
    with no_grad():
        value = creation.tensor(values).logsumexp(dim=-1)
    return value, results[0], results[1]


def _logsumexp_cases(generator):
    """(values, what the case tests) — large entries last, so a plain formula is found out."""
    return ((generator.uniform(-2, 2, size=(3, 4)), "plain"),
            (generator.uniform(-2, 2, size=5).astype(np.float32), "plain"),
            (generator.uniform(-2, 2, size=(4, 4)), "plain"),
            (np.array([[1000.0, 1001.0, 999.0], [0.5, -0.5, 2.0]]), "large"),
            (np.array([[88.5, 90.0, 87.0, 89.0]], dtype=np.float32), "large"),
            (np.array([[-1000.0, -1001.0, -999.5], [-3.0, 0.0, 1.0]]), "small"))


def check_logsumexp(answer):
    cls = _tools.require_function_class(answer)
    generator = np.random.default_rng(80)
    for values, kind in _logsumexp_cases(generator):
        x = creation.tensor(values, requires_grad=True)
        output = _tools.apply(cls, x)
        grad_output = creation.tensor(generator.uniform(-2, 2, size=values.shape[:-1]),
                                      dtype=x.dtype)
        expected_value, expected, local = _builtin_logsumexp(values, grad_output)
        _check_logsumexp_value(output, expected_value, values, kind)
        _tools.require_grad_fn(output, (x,))
        try:
            raw = _tools.raw_backward(cls, output.grad_fn, (grad_output,))
        except RuntimeError as error:
            if "must match the size" in str(error) or "broadcast" in str(error):
                raise Hint("grad_output_per_row") from None
            raise
        _diagnose_logsumexp_backward(raw, values, grad_output, expected)
        _tools.check_gradients(raw, (x,), [expected], [local], tuple(output.shape))
        _tools.check_through_engine(output, (x,), grad_output, [expected])


def _check_logsumexp_value(output, expected, values, kind):
    _tools.require_tensor(output, "forward")
    if tuple(output.shape) != tuple(expected.shape):
        raise Hint("wrong_shape", where="forward", got=list(output.shape),
                   expected=list(expected.shape))
    got, want = as_array(output), as_array(expected)
    if _tools.close(got, want, expected.dtype):
        return
    bad = _tools.first_mismatch(got, want, expected.dtype)
    row = values[bad] if values.ndim > 1 else values
    largest = f"{float(np.max(row)):.5g}"
    if not np.isfinite(got[bad]):
        raise Hint("overflow" if kind == "large" else "underflow", got=f"{got[bad]}",
                   largest=largest)
    if _tools.close(got, want - values.max(axis=-1), expected.dtype):
        raise Hint("max_not_added_back")
    _tools.check_output(output, expected)


def _diagnose_logsumexp_backward(raw, values, grad_output, expected):
    if not raw or not _tools.is_tensor(raw[0]):
        return
    got = as_array(raw[0])
    if got.shape == values.shape and not np.isfinite(got).all():
        bad = tuple(np.argwhere(~np.isfinite(got))[0])
        row = values[bad[:-1]] if values.ndim > 1 else values
        raise Hint("backward_overflows", got=f"{got[bad]}", largest=f"{float(np.max(row)):.5g}")
    if values.ndim == 2 and values.shape[0] == values.shape[1] and got.shape == values.shape:
        g = as_array(grad_output)
        softmax = expected / g[:, None]
        if np.allclose(got, softmax * g[None, :]) and not np.allclose(got, expected):
            raise Hint("grad_output_per_row")


# ---------------------------------------------------------------- pairwise_distances

_POINT_SETS = (
    np.array([[0.0, 0.0], [3.0, 4.0], [1.0, -2.0]]),
    np.array([[1.0, 2.0, 2.0], [1.0, 2.0, 2.0], [0.0, 1.0, -1.0], [2.5, 0.5, 1.0]]),
    np.array([[0.5, -1.5], [2.0, 1.0]], dtype=np.float32),
)


def _builtin_distances(values, grad_output):
    points = creation.tensor(values, requires_grad=True)
    distances = (points[:, None, :] - points[None, :, :]).norm(dim=-1)
    (grad,) = autograd.grad(distances, points, grad_output)
    return distances.detach(), as_array(grad)


def check_pairwise_distances(answer):
    distances_of = _tools.require_callable(answer)
    generator = np.random.default_rng(81)
    for values in _POINT_SETS:
        points = creation.tensor(values, requires_grad=True)
        result = distances_of(points)
        count = len(values)
        grad_output = creation.tensor(generator.uniform(-2, 2, size=(count, count)),
                                      dtype=points.dtype)
        expected_distances, expected = _builtin_distances(values, grad_output)
        _tools.require_tensor(result, "pairwise_distances")
        if tuple(result.shape) != (count, count):
            raise Hint("wrong_shape", where="pairwise_distances", got=list(result.shape),
                       expected=[count, count])
        got, want = as_array(result), as_array(expected_distances)
        if not _tools.close(got, want, points.dtype):
            bad = _tools.first_mismatch(got, want, points.dtype)
            if np.all(np.abs(got - want) < 1e-2):
                raise Hint("distances_changed", index=list(bad), got=f"{got[bad]:.6g}",
                           expected=f"{want[bad]:.6g}")
            _tools.check_output(result, expected_distances, "pairwise_distances")
        _tools.require_grad_fn(result, (points,))
        (grad,) = autograd.grad(result, points, grad_output, allow_unused=True)
        if grad is None:
            raise Hint("missing_grad", input=0)
        got = as_array(grad)
        if np.isnan(got).any():
            bad = tuple(int(i) for i in np.argwhere(np.isnan(got))[0])
            raise Hint("nan_gradient", index=list(bad), points=values.tolist())
        _tools.diagnose_values(got, expected, None, 0, values, points.dtype)


# ---------------------------------------------------------------- fix_inplace


def features(x, w):
    """The lesson's function, with its in-place change through a view."""
    h = x @ w
    h += 1
    a = h.sigmoid()
    a[:, 0] = 0.0
    b = a * a
    b.clamp_(max=0.5)
    return b.sum(dim=1)


def _finite_differences(x, w, grad_output, eps=1e-6):
    """The gradient of (features(x, w) * grad_output).sum() by central differences."""
    def loss(xv, wv):
        with no_grad():
            out = features(creation.tensor(xv), creation.tensor(wv))
        return float((as_array(out) * grad_output).sum())
    grads = []
    for which, value in enumerate((x, w)):
        grad = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            shifted = [x.copy(), w.copy()]
            shifted[which][index] += eps
            up = loss(*shifted)
            shifted[which][index] -= 2 * eps
            grad[index] = (up - loss(*shifted)) / (2 * eps)
        grads.append(grad)
    return grads


def _features_inputs(seed):
    generator = np.random.default_rng(seed)
    return generator.uniform(-1, 1, size=(3, 2)), generator.uniform(-1, 1, size=(2, 3))


def check_fix_inplace(answer):
    fixed = _tools.require_callable(answer)
    for seed in (82, 83):
        x_values, w_values = _features_inputs(seed)
        with no_grad():
            expected_values = as_array(features(creation.tensor(x_values),
                                                creation.tensor(w_values)))
        x = creation.tensor(x_values, requires_grad=True)
        w = creation.tensor(w_values, requires_grad=True)
        result = _tools.require_tensor(fixed(x, w), "your function")
        got = as_array(result)
        if got.shape != expected_values.shape or not np.allclose(got, expected_values):
            if got.shape != expected_values.shape:
                raise Hint("wrong_shape", where="your function", got=list(got.shape),
                           expected=list(expected_values.shape))
            bad = _tools.first_mismatch(got, expected_values, x.dtype)
            raise Hint("features_changed", index=list(bad), got=f"{got[bad]:.6g}",
                       expected=f"{expected_values[bad]:.6g}")
        if result.grad_fn is None:
            raise Hint("cut_from_graph", input=0)
        grad_output = np.random.default_rng(seed + 10).uniform(-2, 2, size=got.shape)
        try:
            result.backward(creation.tensor(grad_output))
        except RuntimeError as error:
            if "modified by an inplace operation" in str(error):
                text = str(error).split(" Hint:")[0].rstrip(".")
                raise Hint("still_modified_in_place", error=text) from None
            raise
        expected = _finite_differences(x_values, w_values, grad_output)
        for position, tensor in enumerate((x, w)):
            if tensor.grad is None:
                raise Hint("cut_from_graph", input=position)
            _tools.diagnose_values(as_array(tensor.grad), expected[position], None, position,
                                   (x_values, w_values)[position], tensor.dtype)


CHECKS = {"logsumexp": check_logsumexp, "pairwise_distances": check_pairwise_distances,
          "fix_inplace": check_fix_inplace}


# ---------------------------------------------------------------- trials


def _logsumexp_draw(rng):
    """Rows of moderate values, then of large ones, then of very negative ones (m rows of
    n ≠ m values, so a gradient of the wrong shape does not broadcast by chance)."""
    dtype = dtype_of(rng)
    big = 120.0 if dtype == "float32" else 1000.0      # exp overflows, exp(-big) is 0
    cases = []
    for shift in (0.0, big, -big):
        rows = int(rng.integers(2, 5))
        shape = (rows, rows + int(rng.integers(1, 3)))
        values = uniform(rng, shape, dtype) + np.asarray(shift, dtype=dtype)
        cases.append((values, uniform(rng, rows, dtype)))
    return cases


def _logsumexp_values(function, drawn):
    found = {}
    for number, (values, grad_output) in enumerate(drawn):
        x = creation.tensor(values, requires_grad=True)
        output = function(x)
        _tools.require_tensor(output, "forward")
        (grad,) = autograd.grad(output, x, creation.tensor(grad_output), allow_unused=True)
        found[f"logsumexp {number}"], found[f"gradient {number}"] = output, grad
    return found


def _logsumexp_expect(drawn):
    found = _logsumexp_values(lambda x: x.logsumexp(dim=-1), drawn)
    return {name: value.detach() for name, value in found.items()}


def _distances_draw(rng):
    """Points at halves of integers, whose distances every right formula gets exactly."""
    count, size = (int(n) for n in rng.integers(2, 5, size=2))
    points = (np.round(rng.uniform(-3, 3, size=(count, size)) * 2) / 2).astype(dtype_of(rng))
    if rng.random() < 0.5:
        points[-1] = points[0]                 # two points at the same place
    return points, uniform(rng, (count, count), points.dtype.name)


def _distances_values(function, drawn):
    values, grad_output = drawn
    points = creation.tensor(values, requires_grad=True)
    result = function(points)
    _tools.require_tensor(result, "pairwise_distances")
    (grad,) = autograd.grad(result, points, creation.tensor(grad_output), allow_unused=True)
    return {"distances": result, "gradient": grad}


def _distances_expect(drawn):
    found = _distances_values(lambda p: (p[:, None, :] - p[None, :, :]).norm(dim=-1), drawn)
    return {"distances": found["distances"].detach(), "gradient": found["gradient"]}


def _features_draw(rng):
    return uniform(rng, (3, 2), "float64", -1, 1), uniform(rng, (2, 3), "float64", -1, 1), \
        uniform(rng, 3, "float64")


def _features_compute(answer, drawn):
    fixed = _tools.require_callable(answer)
    x_values, w_values, grad_output = drawn
    x = creation.tensor(x_values, requires_grad=True)
    w = creation.tensor(w_values, requires_grad=True)
    result = _tools.require_tensor(fixed(x, w), "your function")
    grads = autograd.grad(result, (x, w), creation.tensor(grad_output), allow_unused=True)
    return {"features": result, "gradient of x": grads[0], "gradient of w": grads[1]}


def _features_expect(drawn):
    x_values, w_values, grad_output = drawn
    with no_grad():
        expected = features(creation.tensor(x_values), creation.tensor(w_values))
    grads = _finite_differences(x_values, w_values, grad_output)
    return {"features": expected, "gradient of x": creation.tensor(grads[0]),
            "gradient of w": creation.tensor(grads[1])}


TRIALS = {"logsumexp": ObservedTrial(
              _logsumexp_draw,
              lambda answer, drawn: _logsumexp_values(_tools.applied(answer), drawn),
              _logsumexp_expect),
          "pairwise_distances": ObservedTrial(
              _distances_draw,
              lambda answer, drawn: _distances_values(_tools.require_callable(answer), drawn),
              _distances_expect),
          "fix_inplace": ObservedTrial(_features_draw, _features_compute, _features_expect)}
