"""Lesson 01, tensors and the graph: graph_edges, predicting the edges of a small graph.

The answer is a function returning the edges the student predicts for

    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    k = torch.tensor(4.0)
    out = (a * b).exp() + a.sin() / k

as (node name, node name) pairs, a leaf's AccumulateGrad written as the
leaf's name.  The check builds that graph with the engine and compares:
every node name comes from `node.name()`, so the expected edges are the
engine's, not a list written here.
"""
from .. import creation
from ..autograd.graph import AccumulateGrad
from . import _tools
from ._tools import Hint
from ._trial import field

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


CHECKS = {"graph_edges": check_graph_edges}


class _EdgesTrial:
    """The graph is the lesson's own, always the same: the predicted edges are reported and
    compared with the engine's where no student code runs (the seed draws nothing)."""

    def run(self, answer, seed):
        predict = _tools.require_callable(answer)
        return {"edges": sorted([list(pair) for pair in _as_pairs(predict())])}

    def judge(self, report, seed):
        _judge_edges(_as_pairs(field(report, "edges", list)))


TRIALS = {"graph_edges": _EdgesTrial()}
