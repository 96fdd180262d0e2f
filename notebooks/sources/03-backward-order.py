# %% [markdown] lang="en"
# In lesson 01 forward recorded a graph and `backward()` filled `.grad`. But in
# which order does backward run the nodes? This lesson answers that with the two
# tools PyTorch's engine uses: **dependency counts** and a **ready queue**. You will
# write both yourself, watch the engine do the same thing, and then run a whole
# backward by hand.

# %% [markdown] lang="zh"
# 第 01 讲里，前向传播记录下计算图，`backward()` 把梯度填进 `.grad`。可是反向传播到底按什么顺序运行各个节点？
# 这一讲用 PyTorch 引擎里的两件工具来回答：**依赖计数**和**就绪队列**。你会亲手把它们写出来，
# 看引擎是怎么做同一件事的，最后再亲手完成一次完整的反向传播。

# %%
import heapq
import minigrad as torch
import minigrad.viz
from minigrad.exercises import check
from minigrad.lessons import say

# %% [markdown] lang="en"
# ## A node must wait for all its gradients
#
# Here `x` feeds two branches that meet again in `c`. The gradient of `x` is the
# sum of what flows back along **both** branches, so `x`'s node may only run when
# both have arrived. A node that runs too early would pass on half a gradient.

# %% [markdown] lang="zh"
# ## 节点必须等它的梯度全部到齐
#
# 下面的 `x` 分成两路，最后又在 `c` 处汇合。`x` 的梯度是沿**两条**分支传回来的梯度之和，
# 所以 `x` 的节点只有在两路梯度都到达之后才能运行。要是提前运行，往下传的就只是一半的梯度。

# %%
x = torch.tensor([0.5, 1.0], requires_grad=True)
a = x * 2
b = x.exp()
c = a * b
loss = c.sum()

# %% tags=["nbval-ignore-output"]
minigrad.viz.graph(loss, names={"x": x, "a": a, "b": b, "c": c, "loss": loss})

# %% [markdown] lang="en"
# ## Why not just recurse?
#
# The simplest backward is a recursive function: "run this node, then recurse into
# each input". It has two problems. First, a node reached along two paths is visited
# twice, and everything below it twice again. When every step uses its input twice,
# the number of visits doubles with each step:

# %% [markdown] lang="zh"
# ## 为什么不直接递归？
#
# 最简单的反向传播是写一个递归函数：“先运行这个节点，再对它的每个输入递归。”这样做有两个问题。
# 第一，沿两条路径都能走到的节点会被访问两次，它下面的所有节点也跟着再访问两次。
# 如果每一步都把输入用两次，访问次数每多一步就翻一倍：

# %%
def recursive_visits(node):
    # how many times a naive recursive backward would run nodes below `node`  # zh: 朴素的递归式反向传播会在 `node` 之下运行多少次节点
    visits = 1
    for n, _ in node.next_functions:
        if n is not None:
            visits += recursive_visits(n)
    return visits


def count_nodes(node):
    seen, stack = {node}, [node]
    while stack:
        for n, _ in stack.pop().next_functions:
            if n is not None and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen)


print(f"{'steps':>5} {'count_nodes':>11} {'recursive_visits':>16}")
for steps in [1, 2, 4, 8, 12]:
    h = torch.tensor(1.0, requires_grad=True)
    for _ in range(steps):
        h = h.sin() * h.cos()
    print(f"{steps:>5} {count_nodes(h.grad_fn):>11} {recursive_visits(h.grad_fn):>16}")

# %% [markdown] lang="en"
# Second, recursion is limited by Python's stack. A network with a long chain of
# operations (an RNN unrolled over many steps, say) is a deep graph, and a
# recursive walk of it crashes, while the engine's loop does not:

# %% [markdown] lang="zh"
# 第二，递归深度受 Python 调用栈的限制。一个有很长运算链的网络（比如展开了很多步的 RNN）就是一张很深的图，
# 递归遍历会直接崩溃，而引擎用的循环则安然无恙：

# %%
h = x
for _ in range(5000):
    h = h * 1.0
try:
    recursive_visits(h.grad_fn)
except RecursionError as error:
    print("recursive_visits:  ", type(error).__name__)
h.sum().backward()
print("h.sum().backward():", x.grad)

# %% [markdown] lang="en"
# ## Dependency counts
#
# The engine first walks the graph once (with a loop, as in lesson 01) and counts,
# for every node, how many edges point at it: its **dependency count**. The root
# (the output's node) has count 0. During backward, each time a gradient arrives
# along an edge, the count of the node it arrives at drops by one; at 0 the node
# has everything it needs.
#
# **Exercise.** Write `count_dependencies(output)` returning a dict
# `{node: count}` for every node reachable from `output.grad_fn` (the root
# included, with 0). Use `node.next_functions` and skip `None` entries.

# %% [markdown] lang="zh"
# ## 依赖计数
#
# 引擎先把图遍历一遍（像第 01 讲那样用循环），统计每个节点被多少条边指向，这就是它的**依赖计数**。
# 根节点（输出张量的节点）的依赖计数为 0。反向传播过程中，每当沿一条边送来一份梯度，
# 那条边指向的节点的计数就减一；减到 0，说明这个节点需要的梯度已经全部到齐。
#
# **练习**：编写 `count_dependencies(output)`，返回字典 `{节点: 计数}`，
# 包含从 `output.grad_fn` 出发能到达的每一个节点（根节点也要有，计数为 0）。
# 用 `node.next_functions` 遍历，注意跳过其中的 `None`。

# %%
def count_dependencies(output):
    ### BEGIN SOLUTION
    root = output.grad_fn
    counts, stack = {root: 0}, [root]
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            if next_node not in counts:
                counts[next_node] = 0
                stack.append(next_node)
            counts[next_node] += 1
    return counts
    ### END SOLUTION


# %%
check("count_dependencies", count_dependencies)

# %% [markdown] lang="en"
# For our graph the counts are below (computed the same way by the engine, and
# recorded when it starts): `x`'s `AccumulateGrad` waits for two gradients,
# one from each branch.

# %% [markdown] lang="zh"
# 下面是我们这张图的依赖计数（由引擎以同样的方式算出，并在开始时记录下来）：
# `x` 的 `AccumulateGrad` 要等两份梯度，两条分支各一份。

# %%
x.grad = None
loss = (x * 2 * x.exp()).sum()
with minigrad.viz.record() as trace:
    loss.backward()

started = trace.of_kind("backward_started")[0]
print(say("node, in the order it ran: count at start",
          "节点（按运行顺序）：开始时的依赖计数"))
for event in trace.of_kind("node_started"):
    print(f"  {event['name']:26} {started['dependencies'].get(event['node'], 0)}")

# %% [markdown] lang="en"
# ## The ready queue
#
# A node whose count reached 0 is **ready**. Several nodes can be ready at the same
# time; PyTorch then runs the one created **most recently** first (the highest
# sequence number), and `AccumulateGrad` nodes before all others, so a leaf's
# `.grad` is written as soon as it is complete. A heap keeps the ready nodes
# sorted: `heapq` pops the smallest item, so we push `-sequence_nr`.
#
# Each node remembers when it was created. PyTorch calls it
# `node._sequence_nr()`; this small helper reads it in both libraries. An
# `AccumulateGrad` node gets the largest number there is, 2⁶⁴ − 1 (18446744073709551615):
# that is what puts it first.

# %% [markdown] lang="zh"
# ## 就绪队列
#
# 依赖计数降到 0 的节点就**就绪**了。同一时刻可能有好几个节点就绪；这时 PyTorch 先运行**最晚创建**的那个
# （序号最大的），而 `AccumulateGrad` 节点又排在所有其他节点之前，这样叶子张量的 `.grad` 一旦算完就立刻写入。
# 就绪的节点放在一个堆里保持有序：`heapq` 每次弹出最小的元素，所以我们压入的是 `-sequence_nr`。
#
# 每个节点都记得自己是什么时候创建的。PyTorch 里这个序号是 `node._sequence_nr()`；
# 下面这个小函数在两个库里都能读出它。`AccumulateGrad` 节点的序号是最大的那个数：
# 2⁶⁴ − 1（18446744073709551615），正是它让这些节点排在最前面。

# %%
def sequence_nr(node):
    # the node's creation number; AccumulateGrad nodes have the largest of all  # zh: 节点的创建序号；AccumulateGrad 节点的序号最大
    number = node._sequence_nr
    return number() if callable(number) else number


leaf_node = loss.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]
print(leaf_node.name(), sequence_nr(leaf_node))
print(say("the loss's node was created after the node below it:",
          "损失的节点在它下面那个节点之后创建："),
      sequence_nr(loss.grad_fn) > sequence_nr(loss.grad_fn.next_functions[0][0]))

ready = []
for node in [loss.grad_fn, loss.grad_fn.next_functions[0][0]]:
    heapq.heappush(ready, (-sequence_nr(node), node.name()))
first, second = heapq.heappop(ready)[1], heapq.heappop(ready)[1]
print(say(f"{first} runs before {second}", f"{first} 先于 {second} 运行"))

# %% [markdown] lang="en"
# **Exercise.** Write `topo_order(output)`: simulate the engine and return the list
# of nodes in the order it runs them. Start from your dependency counts with the
# root in the ready queue; repeatedly pop the ready node with the highest sequence
# number, append it to the order, and decrease the count of each node it points to,
# pushing those that reach 0. When two ready nodes have the same priority (two
# leaves), the one pushed first runs first: push `(-sequence_nr(node), counter, node)`
# with an increasing `counter`.

# %% [markdown] lang="zh"
# **练习**：编写 `topo_order(output)`，模拟引擎的调度，返回它运行节点的顺序列表。
# 先用你的依赖计数，把根节点放进就绪队列；然后反复弹出序号最大的就绪节点，追加到结果里，
# 再把它指向的每个节点的计数减一，减到 0 的就压入队列。
# 如果两个就绪节点优先级相同（比如两个叶子张量），先压入的先运行：
# 压入 `(-sequence_nr(node), counter, node)`，其中 `counter` 逐次递增。

# %%
def topo_order(output):
    ### BEGIN SOLUTION
    counts = count_dependencies(output)
    counter = 0
    ready = [(-sequence_nr(output.grad_fn), counter, output.grad_fn)]
    order = []
    while ready:
        node = heapq.heappop(ready)[2]
        order.append(node)
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            counts[next_node] -= 1
            if counts[next_node] == 0:
                counter += 1
                heapq.heappush(ready, (-sequence_nr(next_node), counter, next_node))
    return order
    ### END SOLUTION


# %%
check("topo_order", topo_order)

# %% [markdown] lang="en"
# ## Watching the engine
#
# minigrad's engine narrates what it does to a recorder. The order it ran the
# nodes in is the topological order you just computed; `minigrad.viz.animate`
# replays it step by step: press ▶ (Play), or step with **Next ▶**. Watch the counts
# fall and the ready queue fill and empty.
#
# Then press **Source**: beside the graph you see the engine's own loop,
# `run_backward` in `minigrad/core/graph.py`, and at each step the line that
# did it is highlighted: the ready node is taken, run, and its gradients sent
# along its edges, step by step. (You will read this loop at the end of the lesson.)

# %% [markdown] lang="zh"
# ## 看引擎怎么做
#
# minigrad 的引擎会把自己做的每一步“讲给”记录器听。它运行节点的顺序，正是你刚才算出的拓扑顺序；
# `minigrad.viz.animate` 把整个过程一步步回放出来：点 ▶ 播放，或者按 **下一步 ▶** 单步前进，
# 看依赖计数怎样减少、就绪队列里的节点怎样进出。
#
# 再点 **源码**：图的旁边会显示引擎自己的循环，也就是 `minigrad/core/graph.py`
# 里的 `run_backward`，每一步都会高亮完成这一步的那一行代码：取出就绪节点、运行它、
# 把梯度沿着边送出去，一步一步都看得见。（本讲最后还会再读一遍这个循环。）

# %%
print(trace.backward_order())

# %% tags=["nbval-ignore-output"]
minigrad.viz.animate(trace, view="backward", names={"x": x})

# %% [markdown] lang="en"
# ## Two outputs, one backward
#
# The same engine handles several roots at once: `torch.autograd.backward([u, v])`
# starts from both. Shared nodes still run exactly once, after both roots have sent
# their gradients:

# %% [markdown] lang="zh"
# ## 两个输出，一次反向传播
#
# 同一个引擎也能一次处理多个根：`torch.autograd.backward([u, v])` 同时从两个输出出发。
# 共享的节点依旧只运行一次，而且要等两个根都把梯度送到之后才运行：

# %%
x.grad = None
shared = x.exp()
u, v = (shared * 3).sum(), (shared * shared).sum()
with minigrad.viz.record() as trace_two:
    torch.autograd.backward([u, v])
print(trace_two.backward_order())
print(x.grad)

# %% [markdown] lang="en"
# ## Exercise: backward by hand
#
# You now have everything the engine has: the order (`topo_order`) and the nodes. A node
# can be called by hand: `node(grad)` turns the gradient of its output into the gradients
# of its inputs, one per edge in `next_functions` (a tuple; a lone gradient by itself, and
# `None` where an edge is `None`). The engine runs backward with recording off (unless you
# ask for `create_graph`, lesson 12), so call it inside `torch.no_grad()` as well:

# %% [markdown] lang="zh"
# ## 练习：亲手做一次反向传播
#
# 引擎有的东西，现在你全都有了：顺序（`topo_order`）和节点。节点可以直接调用：`node(grad)`
# 把对它输出的梯度变成对它各个输入的梯度，`next_functions` 里每条边一个（返回一个元组；只有一个梯度时
# 直接返回它本身；边为 `None` 的位置是 `None`）。引擎运行反向传播时是关闭记录的
# （除非你要求 `create_graph`，见第 12 讲），所以这里也在 `torch.no_grad()` 里调用它：

# %%
x.grad = None
y = x * 2 * x.exp()
node = y.grad_fn
print(node.name(), [n.name() for n, _ in node.next_functions])
with torch.no_grad():
    print(node(torch.ones_like(y)))

# %% [markdown] lang="en"
# **Exercise.** Write `backpropagate(output, inputs)`: the gradient of the scalar `output`
# with respect to each leaf in `inputs`, as a list (`None` for a leaf that `output` does
# not depend on), the way the engine computes it, but without calling `backward` or
# `torch.autograd.grad`: the root's node receives `torch.ones_like(output)`; run the nodes
# in your `topo_order`, calling each on the gradient it received; send each gradient it
# returns along its edge. Think about a node reached by two edges, and about what to do
# at an `AccumulateGrad` node (its `variable` is the leaf): calling it would write `.grad`.

# %% [markdown] lang="zh"
# **练习**：编写 `backpropagate(output, inputs)`：返回标量 `output` 对 `inputs` 中每个叶子张量的梯度，
# 组成一个列表（`output` 不依赖的叶子张量对应 `None`）。做法和引擎一样，但不许调用 `backward`
# 或 `torch.autograd.grad`：根节点收到的梯度是 `torch.ones_like(output)`；按你的 `topo_order`
# 的顺序运行各个节点，用它收到的梯度调用它；再把它返回的每个梯度沿对应的边送出去。
# 想一想：被两条边指向的节点该怎么办？到了 `AccumulateGrad` 节点（它的 `variable` 就是那个叶子张量）
# 又该怎么办？调用它会写入 `.grad`。

# %%
def backpropagate(output, inputs):
    ### BEGIN SOLUTION
    received = {output.grad_fn: torch.ones_like(output)}
    leaf_grads = {}
    with torch.no_grad():                         # as the engine: record nothing  # zh: 和引擎一样：什么都不记录
        for node in topo_order(output):
            grad = received.pop(node, None)
            if grad is None:
                continue
            if hasattr(node, "variable"):         # AccumulateGrad: the leaf's gradient  # zh: AccumulateGrad：叶子张量的梯度
                leaf_grads[id(node.variable)] = grad
                continue
            grads = node(grad)
            if not isinstance(grads, tuple):
                grads = (grads,)
            for (next_node, _), next_grad in zip(node.next_functions, grads):
                if next_node is None or next_grad is None:
                    continue
                if next_node in received:         # a second edge: add, do not overwrite  # zh: 第二条边：相加，不要覆盖
                    received[next_node] = received[next_node] + next_grad
                else:
                    received[next_node] = next_grad
    return [leaf_grads.get(id(leaf)) for leaf in inputs]
    ### END SOLUTION


# %%
check("backpropagate", backpropagate)

# %% [markdown] lang="en"
# Compare with the engine on another graph (once your `backpropagate` is written):

# %% [markdown] lang="zh"
# 换一张图，和引擎的结果对照一下（要先写好你的 `backpropagate`）：

# %%
w = torch.tensor([2.0, -1.0], requires_grad=True)
loss = (x * w + (x * 2).exp() * w).sum()
try:
    print(say("by hand:   ", "亲手计算："), backpropagate(loss, [x, w]))
except NotImplementedError:
    print(say("(write backpropagate above first)", "（请先写好上面的 backpropagate）"))
print(say("the engine:", "引擎计算："), list(torch.autograd.grad(loss, [x, w])))

# %% [markdown] lang="en"
# ## Summary
#
# * Backward is a schedule, not a recursion: a loop over a **ready queue**.
# * **Dependency counts** say how many gradients each node still waits for.
# * Among ready nodes, the most recently created runs first; `AccumulateGrad` first of all.
# * The result is a **topological order**: every node runs before the nodes it points to.
# * Each node turns the gradient it received into one per edge; where two edges meet, the
#   gradients add up.

# %% [markdown] lang="zh"
# ## 小结
#
# * 反向传播靠的是调度，而不是递归：它是围绕**就绪队列**的一个循环。
# * **依赖计数**记录每个节点还在等几份梯度。
# * 在就绪的节点里，最晚创建的先运行；`AccumulateGrad` 排在最前面。
# * 最终得到的是一种**拓扑顺序**：每个节点都在它所指向的节点之前运行。
# * 每个节点把收到的梯度变成每条边各一份梯度；两条边汇合的地方，梯度相加。

# %% [markdown] lang="en"
# ## Read the code
#
# `count_dependencies` is step 1 of the loop you watched; `run_backward` is the loop itself, its
# steps numbered in the comments as in this lesson. The lines that mention hooks, captures, anomaly
# mode or narration (what the player listens to) belong to later lessons: each is one call.
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# `count_dependencies` 就是你刚才看到的第 1 步；`run_backward` 是整个循环，注释里的编号和本讲的步骤一一对应。
# 那些提到钩子、捕获（captures）、异常检测模式或旁白（播放器听的就是它）的行属于后面几讲，每样都只是一次函数调用。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.core import graph
from minigrad.lessons import show_source

show_source(graph.count_dependencies, graph.run_backward)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("03-without-the-minus")

# %% [markdown] lang="en"
# Next lesson: writing nodes of your own, with `torch.autograd.Function`.

# %% [markdown] lang="zh"
# 下一讲：用 `torch.autograd.Function` 编写你自己的节点。
