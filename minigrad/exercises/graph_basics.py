"""Lesson 01, tensors and the graph: graph_edges, predicting the edges of a small graph;
jacobian, a Jacobian matrix built one row per backward (the vector-Jacobian product).

The answer is a function returning the edges the student predicts for

    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    k = torch.tensor(4.0)
    out = (a * b).exp() + a.sin() / k

as (node name, node name) pairs, a leaf's AccumulateGrad written as the
leaf's name.  The check builds that graph with the engine and compares:
every node name comes from `node.name()`, so the expected edges are the
engine's, not a list written here.

`jacobian(f, x)` is compared with central finite differences of `f` in
float64: no gradient of minigrad's is taken for granted.
"""
import numpy as np

import minigrad as torch

from ..surface import creation
from ..autograd.graph import AccumulateGrad
from . import _tools
from ._tools import Hint
from ._trial import field, seen, value_of

MESSAGES = {
    "edges_format": {
        "en": "Return the edges as pairs of names, e.g. {{(\"ExpBackward0\", \"MulBackward0\"), "
              "...}}: each pair is (a node, the node of one of its inputs). Got {got}.",
        "zh": "请把边写成名字对，例如 {{(\"ExpBackward0\", \"MulBackward0\"), ...}}："
              "每一对是（一个节点, 它某个输入的节点）。收到的是 {got}。"},
    "node_names": {
        "en": "{name} is not a node's name. A node is called what its name() returns: the "
              "operation, then \"Backward0\" (MulBackward0, SinBackward0...).",
        "zh": "{name} 不是节点的名字。节点的名字就是它的 name() 返回的字符串："
              "运算名后面跟着 “Backward0”（MulBackward0、SinBackward0 等）。"},
    "leaf_names": {
        "en": "Write a leaf's AccumulateGrad node as the leaf's name (\"a\" or \"b\"): both "
              "leaves have an AccumulateGrad node, and the check must know which one you mean.",
        "zh": "叶子张量的 AccumulateGrad 节点请直接写成叶子张量的名字（“a” 或 “b”）："
              "两个叶子张量都有 AccumulateGrad 节点，检查程序需要知道你指的是哪一个。"},
    "constant_has_no_node": {
        "en": "k does not require grad: autograd does not watch it, so it has no node, and "
              "the edge for it in next_functions is None. Leave it out.",
        "zh": "k 不需要梯度：autograd 不会跟踪它，所以它没有节点，next_functions 里对应它的一项是 None。"
              "不要把它算进去。"},
    "unknown_node": {
        "en": "{name} is not in this graph. Its nodes are: {known}.",
        "zh": "这张图里没有 {name}。图中的节点是：{known}。"},
    "edges_reversed": {
        "en": "Your edges point the wrong way. An edge goes from a node to the node of one of "
              "its inputs (next_functions): start at out.grad_fn, AddBackward0, and go "
              "towards the leaves.",
        "zh": "你的边方向反了。边是从一个节点指向它某个输入的节点（next_functions）："
              "从 out.grad_fn，也就是 AddBackward0 出发，朝叶子张量的方向走。"},
    "shared_leaf_two_edges": {
        "en": "a is used twice, in a * b and in a.sin(): two edges point at its "
              "AccumulateGrad node, one from each use.",
        "zh": "a 被用了两次，一次在 a * b 里，一次在 a.sin() 里：所以有两条边指向它的 "
              "AccumulateGrad 节点，每次使用各一条。"},
    "missing_edges": {
        "en": "{count} edge(s) are missing, e.g. one leaving {name}. Every node has one edge "
              "per input that requires grad.",
        "zh": "少了 {count} 条边，比如从 {name} 出发的一条。每个节点对每个需要梯度的输入都有一条边。"},
    "jacobian_not_a_tensor": {
        "en": "Return the Jacobian as one tensor of shape (m, n); got {got}. torch.stack(rows) "
              "makes one tensor of a list of rows.",
        "zh": "请把雅可比矩阵作为一个形状为 (m, n) 的张量返回；收到的是 {got}。torch.stack(rows) "
              "能把一组行拼成一个张量。"},
    "jacobian_transposed": {
        "en": "Your matrix is the Jacobian transposed. Row i of the Jacobian holds the "
              "derivatives of output i (with respect to every input): it has n numbers, one per "
              "input, and there are m rows, one per output.",
        "zh": "你的矩阵是雅可比矩阵的转置。雅可比矩阵的第 i 行是输出 i 对各个输入的导数："
              "每行有 n 个数（每个输入一个），一共 m 行（每个输出一行）。"},
    "jacobian_every_row_the_sum": {
        "en": "Every row of your matrix is the sum of all the rows of the Jacobian: the gradient "
              "of y.sum(). Either v was all ones (row i needs the v that is 1 at i and 0 "
              "elsewhere), or each row is x.grad itself, to which the later backwards kept "
              "adding in place (clear x.grad, setting it to None, before each backward; or keep a clone()).",
        "zh": "你的矩阵每一行都是雅可比矩阵所有行的和，也就是 y.sum() 的梯度。要么 v 全是 1"
              "（第 i 行需要的 v 在位置 i 为 1、其他位置为 0），要么每一行都是 x.grad 这个张量本身，"
              "后面的反向传播又不断把梯度原地加了进去（每次反向传播前把 x.grad 清掉，设为 None；或者保存 clone()）。"},
    "jacobian_accumulated": {
        "en": "Row i of your matrix is the sum of rows 0 to i of the Jacobian: .grad accumulates, "
              "so each backward added its row to the rows before it. Clear x.grad (set it to "
              "None) before each backward.",
        "zh": "你的矩阵第 i 行是雅可比矩阵第 0 到第 i 行的和：.grad 会累加，"
              "每次反向传播都把它的那一行加到了之前的行上。每次反向传播之前把 x.grad 清掉（设为 None）。"},
    "jacobian_wrong": {
        "en": "Entry ({row}, {column}) is wrong: for f = {function} at x = {x}, your matrix "
              "gives {got}, the derivative of output {row} with respect to input {column} is "
              "{expected}.",
        "zh": "第 ({row}, {column}) 个元素不对：对于 f = {function}，在 x = {x} 处，你的矩阵给出 {got}，"
              "而输出 {row} 对输入 {column} 的导数是 {expected}。"},
    "extra_edges": {
        "en": "The edge ({source}, {target}) is not in the graph. Check which inputs {source} "
              "really has.",
        "zh": "图中没有 ({source}, {target}) 这条边。看看 {source} 真正的输入是哪些。"},
}

_LEAVES = ("a", "b")


def _graph():
    """The lesson's graph, made by the engine: (output, {AccumulateGrad node: leaf name})."""
    a = creation.tensor(2.0, requires_grad=True)
    b = creation.tensor(3.0, requires_grad=True)
    k = creation.tensor(4.0)
    out = (a * b).exp() + a.sin() / k
    return out, {id(a): "a", id(b): "b"}


def _engine_edges():
    """{(node name, input node name)} of the lesson's graph, walked with next_functions."""
    out, leaf_names = _graph()
    edges, stack, seen = set(), [out.grad_fn], {out.grad_fn}

    def label(node):
        if isinstance(node, AccumulateGrad):
            return leaf_names[id(node.variable)]
        return node.name()
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            edges.add((label(node), label(next_node)))
            if next_node not in seen:
                seen.add(next_node)
                stack.append(next_node)
    return edges


def _as_pairs(answer):
    try:
        pairs = {tuple(pair) for pair in answer}
    except TypeError:
        raise Hint("edges_format", got=_tools.describe(answer)) from None
    if isinstance(answer, (str, dict)) or not all(
            len(pair) == 2 and all(isinstance(name, str) for name in pair) for pair in pairs):
        raise Hint("edges_format", got=_tools.describe(answer))
    return pairs


def check_graph_edges(answer):
    predict = _tools.require_callable(answer)
    _judge_edges(_as_pairs(predict()))


def _judge_edges(predicted):
    expected = _engine_edges()
    known = sorted({name for edge in expected for name in edge})
    names = {name.strip() for edge in predicted for name in edge}
    for name in sorted(names - set(known)):
        if name == "AccumulateGrad":
            raise Hint("leaf_names")
        if name == "k":
            raise Hint("constant_has_no_node")
        if any(name and node.startswith(name) for node in known if node not in _LEAVES):
            raise Hint("node_names", name=name)
        raise Hint("unknown_node", name=name, known=", ".join(known))
    reversed_edges = {(target, source) for source, target in predicted}
    if len(reversed_edges & expected) > len(predicted & expected):
        raise Hint("edges_reversed")
    extra = sorted(predicted - expected)
    if extra:
        source, target = extra[0]
        raise Hint("extra_edges", source=source, target=target)
    missing = sorted(expected - predicted)
    into_a = {edge for edge in expected if edge[1] == "a"}
    if missing and set(missing) <= into_a and into_a & predicted:
        raise Hint("shared_leaf_two_edges")
    if missing:
        raise Hint("missing_edges", count=len(missing), name=missing[0][0])


# --- jacobian: one row per backward ----------------------------------------------------

# (how the hints write it, f, x): square, wide and tall Jacobians, no zero where a wrong
# answer could hide
_FUNCTIONS = (
    ("x * x.sum()", lambda t: t * t.sum(), [0.5, -1.0, 2.0]),
    ("x[:2] * x[1:].exp()", lambda t: t[:2] * t[1:].exp(), [0.3, -0.7, 1.1]),
    ("torch.cat([x.sin(), x * x[0]])", lambda t: torch.cat([t.sin(), t * t[0]]), [0.4, 1.3]),
)


def _finite_differences(f, values, eps=1e-6):
    """The Jacobian of f at `values` by central differences, in float64: (m, n)."""
    columns = []
    for j in range(len(values)):
        shift = np.zeros(len(values))
        shift[j] = eps
        up = f(creation.tensor(np.array(values) + shift, dtype=torch.float64))
        down = f(creation.tensor(np.array(values) - shift, dtype=torch.float64))
        columns.append((as_array(up) - as_array(down)) / (2 * eps))
    return np.stack(columns, axis=1)


def as_array(tensor):
    return np.array(tensor.detach()._data, dtype=np.float64)


def _as_matrix(result, m, n):
    if isinstance(result, np.ndarray):
        raise Hint("returned_numpy", where="jacobian")
    if isinstance(result, (list, tuple)):
        raise Hint("jacobian_not_a_tensor", got=_tools.describe(result))
    _tools.require_tensor(result, "jacobian")
    shape = tuple(result.shape)
    if shape == (n, m) and m != n:
        raise Hint("jacobian_transposed")
    if shape != (m, n):
        raise Hint("wrong_shape", where="jacobian", got=list(shape), expected=[m, n])
    return as_array(result)


def check_jacobian(answer):
    jacobian = _tools.require_callable(answer)
    for text, f, values in _FUNCTIONS:
        x = creation.tensor(values, dtype=torch.float64, requires_grad=True)
        _judge_jacobian(jacobian(f, x), text, f, values)


def _judge_jacobian(result, text, f, values):
    """Raise the Hint for what `jacobian(f, x)` returned at `values` (None when right)."""
    want = _finite_differences(f, values)
    got = _as_matrix(result, *want.shape)
    if _close(got, want):
        return
    every_row = np.tile(want.sum(0), (want.shape[0], 1))
    if _close(got, every_row) or _close(got, np.cumsum(every_row, axis=0)):
        raise Hint("jacobian_every_row_the_sum")      # (the second: also accumulated)
    if _close(got, np.cumsum(want, axis=0)):
        raise Hint("jacobian_accumulated")
    if want.shape[0] == want.shape[1] and _close(got, want.T):
        raise Hint("jacobian_transposed")
    row, column = (int(i) for i in np.argwhere(~np.isclose(got, want, 1e-5, 1e-7))[0])
    raise Hint("jacobian_wrong", row=row, column=column, function=text,
               x=str([float(v) for v in values]), got=f"{got[row, column]:.4g}",
               expected=f"{want[row, column]:.4g}")


def _close(got, want):
    return got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-7)


CHECKS = {"graph_edges": check_graph_edges, "jacobian": check_jacobian}


class _EdgesTrial:
    """The graph is the lesson's own, always the same: the predicted edges are reported and
    compared with the engine's where no student code runs (the seed draws nothing)."""

    def run(self, answer, seed):
        predict = _tools.require_callable(answer)
        return {"edges": sorted([list(pair) for pair in _as_pairs(predict())])}

    def judge(self, report, seed):
        _judge_edges(_as_pairs(field(report, "edges", list)))


class _JacobianTrial:
    """The lesson's three functions at points drawn from the seed: the answer's Jacobians are
    reported and compared with central differences of the same functions."""

    def points(self, seed):
        rng = np.random.default_rng(seed)
        return [np.round(np.array(values) + rng.uniform(-0.5, 0.5, len(values)), 4).tolist()
                for _, _, values in _FUNCTIONS]

    def run(self, answer, seed):
        jacobian = _tools.require_callable(answer)
        return {"jacobians": [seen(jacobian(f, creation.tensor(values, dtype=torch.float64,
                                                                requires_grad=True)))
                              for (_, f, _), values in zip(_FUNCTIONS, self.points(seed))]}

    def judge(self, report, seed):
        reported = field(report, "jacobians", list)
        for index, ((text, f, _), values) in enumerate(zip(_FUNCTIONS, self.points(seed))):
            got = value_of(field(reported, index, dict))
            _judge_jacobian(got, text, f, values)


TRIALS = {"graph_edges": _EdgesTrial(), "jacobian": _JacobianTrial()}
