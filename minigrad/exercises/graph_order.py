"""Lesson 02, backward order: topo_order and count_dependencies.

The answers walk the graph from `output.grad_fn`.  They are run on several
small graphs (a chain, a diamond, an input used twice, a constant input)
and compared with what the engine does, which follows its rules
(see minigrad/autograd/engine.py): count the edges into each node; among
the ready nodes run the most recently created first; AccumulateGrad first
of all.  The expected order and counts are the engine's own, read from its
trace (minigrad.tracing) on the same graph.
"""
import numpy as np

from .. import creation, tracing
from ..autograd.graph import AccumulateGrad
from . import _tools
from ._tools import Hint
from ._trial import field, uniform

MESSAGES = {
    "not_a_list": {
        "en": "Return a list of nodes (in order), not {got}.",
        "zh": "请返回一个（有顺序的）节点列表，而不是 {got}。"},
    "not_a_dict": {
        "en": "Return a dict {{node: count}}, not {got}.",
        "zh": "请返回一个字典 {{节点: 计数}}，而不是 {got}。"},
    "not_nodes": {
        "en": "Use the nodes themselves (the grad_fn objects and what next_functions points to), "
              "not names, tensors or None.",
        "zh": "请使用节点本身（grad_fn 对象以及 next_functions 指向的对象），"
              "而不是名字、张量或 None。"},
    "duplicate_nodes": {
        "en": "Some nodes appear more than once. A node reached along two paths runs only once: "
              "remember which nodes you have already seen.",
        "zh": "有些节点出现了不止一次。一个节点即使能从两条路径到达，也只执行一次："
              "要记住哪些节点已经访问过。"},
    "missing_accumulate_grad": {
        "en": "The AccumulateGrad nodes of the leaves are missing. They are nodes too (in "
              "next_functions), and the engine runs them.",
        "zh": "缺少叶子张量的 AccumulateGrad 节点。它们也是节点（出现在 next_functions 里），"
              "引擎同样会执行它们。"},
    "root_missing": {
        "en": "The root, output.grad_fn, is missing. No edge points to it: its count is 0, and "
              "it must be in the dict.",
        "zh": "缺少根节点 output.grad_fn。没有边指向它：它的计数是 0，但它也必须出现在字典中。"},
    "missing_nodes": {
        "en": "You have {got} nodes; the graph has {expected} reachable from output.grad_fn. "
              "Follow next_functions from every node you reach (skipping None entries).",
        "zh": "你找到了 {got} 个节点，而从 output.grad_fn 出发可以到达 {expected} 个。"
              "要从每个到达的节点继续沿 next_functions 走下去（跳过 None）。"},
    "reversed_order": {
        "en": "Your order runs backwards: the leaves come first. Backward starts at the output's "
              "node and moves towards the leaves.",
        "zh": "你的顺序是反的：叶子排在了前面。反向传播从输出的节点开始，向叶子方向推进。"},
    "wrong_order": {
        "en": "A node comes before a node that still has to send it a gradient. A node may run "
              "only when everything pointing to it has run (its dependency count is 0).",
        "zh": "有个节点排在了还要给它传梯度的节点前面。只有当指向某个节点的所有节点都执行完"
              "（依赖计数降为 0）时，它才能执行。"},
    "not_engine_order": {
        "en": "That is a valid topological order, but not the engine's. Among the ready nodes "
              "the engine runs the most recently created one first (highest sequence number), "
              "and AccumulateGrad nodes before all others.",
        "zh": "这是一个合法的拓扑顺序，但不是引擎的顺序。在就绪队列里，引擎先执行最近创建的节点"
              "（序号最大的），而 AccumulateGrad 节点排在所有节点之前。"},
    "count_each_edge": {
        "en": "Count edges, not distinct nodes: if a node appears twice in next_functions (x * x), "
              "two gradients flow into it and its count is 2.",
        "zh": "要数边，而不是数不同的节点：如果一个节点在 next_functions 中出现两次（比如 x * x），"
              "就有两份梯度流向它，它的计数是 2。"},
    "counted_paths": {
        "en": "Some counts are too large: you counted paths, visiting a node once for every path "
              "that reaches it. Count each edge once: expand each node only the first time you "
              "see it.",
        "zh": "有些计数太大了：你数的是路径，每条到达某节点的路径都会再访问它一次。"
              "每条边只数一次：每个节点只在第一次遇到时展开。"},
    "counted_outgoing": {
        "en": "You counted the edges leaving each node (its next_functions). The engine needs the "
              "edges arriving at it: how many gradients it waits for.",
        "zh": "你数的是从每个节点出去的边（它的 next_functions）。引擎需要的是指向它的边："
              "它要等待多少份梯度。"},
    "root_not_zero": {
        "en": "Every count is right except the root's: you gave output.grad_fn {got}. No edge "
              "points to the root, so its count is 0 (backward starts it by hand).",
        "zh": "除了根节点，其他计数都对：你给 output.grad_fn 的计数是 {got}。没有边指向根节点，"
              "所以它的计数是 0（反向传播是直接从它开始的）。"},
    "wrong_counts": {
        "en": "The count of {node} is {got}; the engine starts it at {expected}. Count the "
              "next_functions entries that point to it from the reachable nodes.",
        "zh": "{node} 的计数是 {got}，而引擎开始时它的计数是 {expected}。"
              "数一数可达节点的 next_functions 中有多少项指向它。"},
}


def _engine_run(output):
    """What the engine does on `output`'s graph, read from its own trace: the nodes in the
    order backward runs them, and {node: the edges into it} as it counts them before it
    starts (the root: 0).  The graph is kept (retain_graph) for the answer to walk."""
    with tracing.record() as recorded:
        output.backward(retain_graph=True)
    nodes = recorded.nodes
    order = [nodes[event["node"]] for event in recorded.of_kind("node_started")]
    (started,) = recorded.of_kind("backward_started")
    counts = {output.grad_fn: 0}
    counts.update({nodes[number]: count for number, count in started["dependencies"].items()})
    return order, counts


def _graphs():
    """Small graphs whose orders tell the usual mistakes apart; each returns its output."""
    def leaf(*values):
        return creation.tensor(np.array(values), requires_grad=True)

    def chain():
        return leaf(0.5, 1.0).exp().sin().sum()

    def diamond():
        x, w = leaf(1.0, 2.0), leaf(0.5, -1.0)
        a = x * w
        return (a.exp() + a.sin() * w).sum()

    def twice():
        x, b = leaf(1.0, -2.0), leaf(3.0, 1.0)
        return (x * x + (b * 2).tanh() + x.exp()).sum()

    def constant():
        x, c = leaf(0.3, 0.6), creation.tensor([1.0, 2.0])
        d = (x * c).exp()
        return (d * x.sin() + d).sum()
    return (chain, diamond, twice, constant)


def _node_list(result):
    if not isinstance(result, (list, tuple)):
        raise Hint("not_a_list", got=_tools.describe(result))
    if not all(hasattr(node, "next_functions") for node in result):
        raise Hint("not_nodes")
    return list(result)


def _compare_sets(got, want, root):
    if got == want:
        return
    accumulators = {n for n in want if isinstance(n, AccumulateGrad)}
    if accumulators and got == want - accumulators:
        raise Hint("missing_accumulate_grad")
    if root not in got and got == want - {root}:
        raise Hint("root_missing")
    raise Hint("missing_nodes", got=len(got), expected=len(want))


def check_topo_order(answer):
    topo_order = _tools.require_callable(answer)
    for build in _graphs():
        output = build()
        want, _ = _engine_run(output)
        _judge_order(_node_list(topo_order(output)), want, output.grad_fn)


def _judge_order(got, want, root):
    if len(set(got)) != len(got):
        raise Hint("duplicate_nodes")
    _compare_sets(set(got), set(want), root)
    if got != want:
        raise Hint(_order_mistake(got))


def _order_mistake(got):
    position = {node: index for index, node in enumerate(got)}
    edges = [(position[node], position[child]) for node in got
             for child, _ in node.next_functions if child is not None]
    if all(parent < child for parent, child in edges):
        return "not_engine_order"
    if all(parent > child for parent, child in edges):
        return "reversed_order"
    return "wrong_order"


def check_count_dependencies(answer):
    count_dependencies = _tools.require_callable(answer)
    mistakes = []
    for build in _graphs():
        output = build()
        order, want = _engine_run(output)
        mistake = _counts_mistake(_node_dict(count_dependencies(output)), want, order,
                                  output.grad_fn)
        if mistake is not None:
            mistakes.append(mistake)
    # "only the root is wrong" must hold on every graph: on a chain every other count is 1
    # anyway, so a dict of ones would look like it there
    if mistakes:
        key, params = next((m for m in mistakes if m[0] != "root_not_zero"), mistakes[0])
        raise Hint(key, **params)


def _node_dict(result):
    if not isinstance(result, dict):
        raise Hint("not_a_dict", got=_tools.describe(result))
    if not all(hasattr(node, "next_functions") for node in result):
        raise Hint("not_nodes")
    return result


def _counts_mistake(got, want, order, root):
    """None when `got` is the engine's counts, else (hint key, params) of the mistake."""
    _compare_sets(set(got), set(want), root)
    return None if got == want else _count_mistake(got, want, order, root)


def _count_mistake(got, want, order, root):
    """Which wrong way of counting gives exactly `got` (`order`: the engine's, parents
    before children)."""
    parents, outgoing, paths = {n: 0 for n in want}, {}, {n: 0 for n in want}
    visits = {root: 1}
    for node in order:
        outgoing[node] = sum(child is not None for child, _ in node.next_functions)
        for child in {child for child, _ in node.next_functions if child is not None}:
            parents[child] += 1
        for child, _ in node.next_functions:
            if child is not None:
                paths[child] += visits[node]
                visits[child] = visits.get(child, 0) + visits[node]
    for wrong, key in ((parents, "count_each_edge"), (paths, "counted_paths"),
                       (outgoing, "counted_outgoing")):
        if wrong != want and got == wrong:
            return key, {}
    if got.get(root) != 0 and all(got[n] == want[n] for n in want if n is not root):
        return "root_not_zero", {"got": got.get(root)}
    node = next(n for n in want if got.get(n) != want[n])
    return "wrong_counts", {"node": node.name().split("::")[-1], "got": got.get(node),
                             "expected": want[node]}


CHECKS = {"topo_order": check_topo_order, "count_dependencies": check_count_dependencies}


# --- the trials (see _trial): a graph drawn when a grader grades -----------------------------

def _random_graph(rng):
    """A small graph drawn from `rng`: two leaves that require grad and a constant, one
    value squared (two edges into one node), then four to seven ops on values drawn from
    all so far (reused values make diamonds); their sum is the scalar output."""
    x, w = (creation.tensor(uniform(rng, 2, "float64"), requires_grad=True) for _ in range(2))
    values = [x, w, creation.tensor(uniform(rng, 2, "float64")), x * x]
    for _ in range(int(rng.integers(4, 8))):
        first, second = (values[int(i)] for i in rng.integers(len(values), size=2))
        kind = int(rng.integers(5))
        if kind < 3:
            values.append((first.exp, first.sin, first.tanh)[kind]())
        else:
            values.append(first * second if kind == 3 else first + second)
    total = values[3] + values[-1]
    for value in values[4:-1]:
        if rng.random() < 0.5:
            total = total + value
    return total.sum()


def _canonical(root):
    """The nodes reachable from `root` in the order a breadth-first walk along
    next_functions meets them: the same graph, built twice, lists them alike."""
    nodes, seen = [root], {root}
    for node in nodes:
        for child, _ in node.next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                nodes.append(child)
    return nodes


class _GraphTrial:
    """The answer walks three graphs drawn from the seed; the nodes it names are reported by
    their place in `_canonical`, and judged against the engine's own run."""

    GRAPHS = 3

    def __init__(self, counts):
        self.counts = counts        # count_dependencies, else topo_order

    def run(self, answer, seed):
        walk = _tools.require_callable(answer)
        return {"graphs": [self.run_graph(walk, seed, graph) for graph in range(self.GRAPHS)]}

    def run_graph(self, walk, seed, graph):
        output = _random_graph(np.random.default_rng([seed, graph]))
        place = {node: index for index, node in enumerate(_canonical(output.grad_fn))}
        result = walk(output)
        if self.counts:
            return [[place.get(node, -1), count if type(count) is int else None]
                    for node, count in _node_dict(result).items()]
        return [place.get(node, -1) for node in _node_list(result)]

    def judge(self, report, seed):
        graphs = field(report, "graphs", list)
        for graph in range(self.GRAPHS):
            self.judge_graph(field(graphs, graph, list), seed, graph)

    def judge_graph(self, reported, seed, graph):
        output = _random_graph(np.random.default_rng([seed, graph]))
        nodes = _canonical(output.grad_fn)
        order, want = _engine_run(output)

        def node(index):
            if type(index) is not int or not 0 <= index < len(nodes):
                raise Hint("not_nodes")
            return nodes[index]
        if self.counts:
            mistake = _counts_mistake({node(index): count for index, count in reported},
                                      want, order, output.grad_fn)
            if mistake is not None:
                raise Hint(mistake[0], **mistake[1])
        else:
            _judge_order([node(index) for index in reported], order, output.grad_fn)


TRIALS = {"topo_order": _GraphTrial(counts=False), "count_dependencies": _GraphTrial(counts=True)}
