"""Lesson 03, backward order: topo_order, count_dependencies and backpropagate.

The answers walk the graph from `output.grad_fn`.  They are run on several
small graphs (a chain, a diamond, an input used twice, a constant input)
and compared with what the engine does, which follows its rules
(see minigrad/core/graph.py): count the edges into each node; among
the ready nodes run the most recently created first; AccumulateGrad first
of all.  The expected order and counts are the engine's own, read from its
trace (minigrad.tracing) on the same graph.

`backpropagate(output, inputs)` runs a whole backward by hand, calling the
nodes.  Its results are compared with what `autograd.grad` gives on the same
graph, built a second time; a recorder tells whether the answer ran the
engine itself.
"""
import numpy as np

from .. import autograd, tracing
from ..surface import creation
from ..autograd.graph import AccumulateGrad
from . import _tools
from ._tools import Hint
from ._trial import field, seen, uniform, value_of

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
    "used_the_engine": {
        "en": "Your backpropagate ran the engine ({call}). Run the nodes yourself: call "
              "node(grad) on each node in your topo_order's order.",
        "zh": "你的 backpropagate 调用了引擎（{call}）。请亲手运行各个节点：按 topo_order 的顺序，"
              "对每个节点调用 node(grad)。"},
    "called_accumulate_grad": {
        "en": "After your backpropagate, a leaf's .grad is set: an AccumulateGrad node was "
              "called, and it wrote into .grad. At an AccumulateGrad node keep the gradient "
              "that arrived (node.variable is its leaf) instead of calling the node.",
        "zh": "你的 backpropagate 运行之后，某个叶子张量的 .grad 被写入了：你调用了 AccumulateGrad 节点，"
              "它把梯度写进了 .grad。到了 AccumulateGrad 节点，应该把送到这里的梯度记下来"
              "（node.variable 就是它的叶子张量），而不是调用这个节点。"},
    "one_gradient_per_input": {
        "en": "Return a list with one entry per tensor of inputs ({expected}), in the same "
              "order; got {got}.",
        "zh": "请返回一个列表，inputs 里每个张量对应一项（共 {expected} 项），顺序相同；收到的是 {got}。"},
    "add_the_gradients": {
        "en": "Right where every node is reached by one edge, wrong where two edges meet (x * x, "
              "or a result used twice): there the node's gradient is the sum of what arrives "
              "along both edges. Add each new gradient to what the node already received, and "
              "run a node only after all its gradients have arrived (topo_order's order).",
        "zh": "每个节点只有一条边指向时结果是对的，两条边汇合的地方却错了（比如 x * x，或者一个结果被用了两次）："
              "那里节点的梯度是沿两条边送来的梯度之和。把新送来的梯度加到这个节点已经收到的梯度上，"
              "并且等它的梯度全部到齐之后再运行它（按 topo_order 的顺序）。"},
    "leaf_not_found": {
        "en": "Input {input} gets None, but the output depends on it. Its gradient arrives at "
              "its AccumulateGrad node, whose variable is the leaf: compare with `is` (or "
              "id()), since == on tensors compares values element by element.",
        "zh": "输入 {input} 得到的是 None，可输出是依赖它的。它的梯度会送到它的 AccumulateGrad 节点，"
              "这个节点的 variable 就是那个叶子张量：请用 `is`（或 id()）来比较，"
              "因为对张量用 == 比较的是逐个元素的值。"},
    "unused_input_grad": {
        "en": "Input {input} gets a gradient, but the output does not depend on it (no edge "
              "leads to it): return None for it.",
        "zh": "输入 {input} 得到了梯度，可输出并不依赖它（没有边通向它）：它应该对应 None。"},
    "wrong_backprop": {
        "en": "The gradient for input {input} is wrong on the graph {graph}: at index {index} "
              "you give {got}, the engine gives {expected}.",
        "zh": "在计算图 {graph} 上，输入 {input} 的梯度不对：在下标 {index} 处你给出 {got}，"
              "引擎给出的是 {expected}。"},
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


# --- backpropagate: the whole backward by hand ----------------------------------------

def _backprop_graphs(shift=0.0):
    """(name as the hints write it, build) for graphs whose nodes each make one output;
    build() returns (output, inputs).  Trees first, then graphs where edges meet.  A trial
    moves every leaf's values by `shift`, drawn from its seed."""
    def leaf(*values):
        return creation.tensor(np.array(values) + shift, requires_grad=True)

    def chain():
        x = leaf(0.5, 1.0)
        return x.exp().sin().sum(), [x]

    def constant():
        x, c, unused = leaf(0.3, 0.6), creation.tensor([1.0, 2.0]), leaf(1.0, 1.0)
        return ((x * c).exp() * 3).sum(), [x, unused]

    def twice():
        x, b = leaf(1.0, -2.0), leaf(3.0, 1.0)
        return (x * x + (b * 2).tanh()).sum(), [b, x]

    def diamond():
        x, w = leaf(1.0, 2.0), leaf(0.5, -1.0)
        a = x * w
        return (a.exp() + a.sin() * w).sum(), [x, w]
    return (("x.exp().sin().sum()", chain), ("((x * c).exp() * 3).sum()", constant),
            ("(x * x + (b * 2).tanh()).sum()", twice),
            ("a = x * w; (a.exp() + a.sin() * w).sum()", diamond))


def check_backpropagate(answer):
    _judge_backprop(_run_backprop(answer), _backprop_graphs())


def _run_backprop(answer, shift=0.0):
    """What `backpropagate` returned on each graph (a list, one entry per input); Hint when
    it ran the engine, filled a .grad or did not return one gradient per input."""
    backpropagate = _tools.require_callable(answer)
    results = []
    for _, build in _backprop_graphs(shift):
        output, inputs = build()
        with tracing.record() as trace:
            result = backpropagate(output, inputs)
        if trace.of_kind("backward_started"):
            raise Hint("used_the_engine", call="backward() / torch.autograd.grad")
        if any(leaf.grad is not None for leaf in inputs):
            raise Hint("called_accumulate_grad")
        if not isinstance(result, (list, tuple)) or len(result) != len(inputs):
            raise Hint("one_gradient_per_input", expected=len(inputs),
                       got=_tools.describe(result))
        results.append(list(result))
    return results


def _judge_backprop(results, graphs):
    """Compare each graph's results with autograd.grad on the same graph, built again."""
    wrong_where_edges_meet = None
    for index, ((name, build), result) in enumerate(zip(graphs, results)):
        want_output, want_inputs = build()
        expected = autograd.grad(want_output, want_inputs, allow_unused=True)
        if len(result) != len(expected):
            raise Hint("one_gradient_per_input", expected=len(expected),
                       got=f"{len(result)} values")
        for position, (got, want) in enumerate(zip(result, expected)):
            mistake = _backprop_mistake(position, got, want, name)
            if mistake is None:
                continue
            if mistake.key == "wrong_backprop" and index >= 2:    # graphs where edges meet
                wrong_where_edges_meet = wrong_where_edges_meet or mistake
                continue
            raise mistake
    if wrong_where_edges_meet is not None:
        raise Hint("add_the_gradients")


class _BackpropTrial:
    """The four graphs with every leaf moved by a shift drawn from the seed: the gradients
    the answer returns are reported and compared with autograd.grad's on the same graphs."""

    def shift(self, seed):
        return float(np.round(np.random.default_rng(seed).uniform(-0.5, 0.5), 4))

    def run(self, answer, seed):
        return {"results": [[seen(got) for got in result]
                            for result in _run_backprop(answer, self.shift(seed))]}

    def judge(self, report, seed):
        graphs = _backprop_graphs(self.shift(seed))
        reported = field(report, "results", list)
        results = [[value_of(entry) for entry in field(reported, index, list)]
                   for index in range(len(graphs))]
        _judge_backprop(results, graphs)


def _backprop_mistake(position, got, want, graph):
    """The Hint for one input's result, or None when it is right (zeros for an input the
    output does not depend on are right too: autograd.grad(materialize_grads=True))."""
    if want is None:
        if got is None or (_tools.is_tensor(got) and not np.any(_tools.as_array(got))):
            return None
        return Hint("unused_input_grad", input=position)
    if got is None:
        return Hint("leaf_not_found", input=position)
    if isinstance(got, np.ndarray):
        return Hint("returned_numpy", where="backpropagate")
    if not _tools.is_tensor(got):
        return Hint("not_a_tensor", where="backpropagate", got=_tools.describe(got))
    if tuple(got.shape) != tuple(want.shape):
        return Hint("wrong_grad_shape", input=position, got=list(got.shape),
                    expected=list(want.shape))
    got_values, want_values = _tools.as_array(got), _tools.as_array(want)
    if _tools.close(got_values, want_values, want.dtype):
        return None
    bad = _tools.first_mismatch(got_values, want_values, want.dtype)
    return Hint("wrong_backprop", input=position, graph=graph, index=list(bad),
                got=f"{got_values[bad]:.4g}", expected=f"{want_values[bad]:.4g}")


CHECKS = {"topo_order": check_topo_order, "count_dependencies": check_count_dependencies,
          "backpropagate": check_backpropagate}


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


TRIALS = {"topo_order": _GraphTrial(counts=False), "count_dependencies": _GraphTrial(counts=True),
          "backpropagate": _BackpropTrial()}
