# %% [markdown] lang="en"
# Welcome! This course opens up PyTorch's **autograd**, the machinery that computes
# gradients for you, and shows it working step by step. We use **minigrad**, a small
# copy of PyTorch's autograd written in plain Python on top of numpy: it has the same
# API (`import minigrad as torch` runs the code in these notebooks unchanged), but
# its insides are short enough to read.
#
# Sixteen lessons take you from "what is a computational graph" to writing, checking
# and debugging your own autograd Functions.
#
# **How the notebooks work**
#
# * Run a cell with **Shift+Enter**; run them in order, top to bottom.
# * An exercise is a cell with `# YOUR CODE HERE` and `raise NotImplementedError()`:
#   replace those two lines with your code.
# * The cell after an exercise is a **check**: it tests your answer and says
#   ✓ (correct), ✗ (not yet right, with a hint) or ○ (not solved yet).
# * Stuck? Every lesson has a worked version. It is in the `solutions/` folder next to
#   this notebook if you see one; if not, start the course again with `--solutions`, in a
#   terminal, the way you started it: `scripts/start-tutor.sh --solutions` in your copy of
#   minigrad's repository, or `minigrad-tutor --solutions` if you installed minigrad-tutor with
#   pip; the folder is added. (In a class whose teacher has hidden the solutions, ask your
#   teacher instead.)
#
# This first lesson shows what a tensor records when it is used, and how that record
# becomes a graph, and what backward computes from it. Its exercises ask you to predict the
# graph of a small computation and to build a Jacobian matrix with backward.

# %% [markdown] lang="zh"
# 欢迎！这门课带你拆开 PyTorch 的 **autograd**（自动求导）——替你算梯度的那套机制，一步一步看它怎么工作。
# 我们用的是 **minigrad**：一个用纯 Python 在 numpy 之上写成的“迷你版” PyTorch autograd。
# 它的 API 和 PyTorch 相同（写上 `import minigrad as torch`，本课程里按 PyTorch 写法写的代码原样就能运行），
# 而内部实现很短，完全读得懂。
#
# 全课共十六讲，从“什么是计算图”讲起，一直讲到自己动手编写、检查和调试自定义 Function。
#
# **笔记本怎么用**
#
# * 按 **Shift+Enter** 运行一个单元格；请从上到下按顺序运行。
# * 练习单元格里写着 `# 在这里写你的代码` 和 `raise NotImplementedError()`：把这两行换成你自己的代码。
# * 练习后面紧跟一个**检查**单元格，它会测试你的答案，显示 ✓（正确）、✗（还不对，附提示）或 ○（还没有完成）。
# * 卡住了？每一讲都有一份参考答案。如果这个笔记本旁边有 `solutions/` 文件夹，答案就在里面；
#   如果没有，就在终端里按你启动课程的方式，加上 `--solutions` 重新启动：在 minigrad 代码仓库的副本里运行
#   `scripts/start-tutor.sh --solutions`；用 pip 安装了 minigrad-tutor 的话，运行 `minigrad-tutor --solutions`。
#   这样就会添上这个文件夹。
#   （如果老师在课上隐藏了参考答案，那就去问老师吧。）
#
# 第一讲先看看张量在参与运算时记录了什么，这些记录又是怎样连成一张图的，
# 以及反向传播怎样沿着这张图计算。本讲的练习请你预测一个小计算的计算图，再用反向传播构造一个雅可比矩阵。

# %%
import minigrad as torch
import minigrad.viz
from minigrad.exercises import check
from minigrad.lessons import say, show_error

# %% [markdown] lang="en"
# ## A tensor that asks for gradients
#
# A tensor is an array of numbers with a shape and a dtype. Passing
# `requires_grad=True` asks autograd to watch it: every operation that uses it
# will be recorded, so that later we can ask "how does the result change when
# this tensor changes?"

# %% [markdown] lang="zh"
# ## 需要梯度的张量
#
# 张量就是带有形状（shape）和数据类型（dtype）的多维数组。创建时传入 `requires_grad=True`，
# 就是告诉 autograd：“盯住它。”之后凡是用到它的运算都会被记录下来，
# 这样我们才能回头追问：这个张量变一点，结果会跟着变多少？

# %%
x = torch.tensor([1.0, 1.5, 2.0], requires_grad=True)
w = torch.tensor(0.5, requires_grad=True)
print(x)
print(x.shape, x.dtype, x.requires_grad)

# %% [markdown] lang="en"
# ## Forward records a graph
#
# Now compute something. Each result remembers the operation that made it in its
# `grad_fn` attribute: a **node** of the backward graph. The tensors we made by
# hand have no `grad_fn`.

# %% [markdown] lang="zh"
# ## 前向传播会记录一张图
#
# 现在来算点东西。每个结果都会在 `grad_fn` 属性里记住产生它的那个运算——这就是计算图里的一个**节点**。
# 我们亲手创建的张量则没有 `grad_fn`。

# %%
z = x * w
y = z.exp().sum()
print(y)
print("y.grad_fn:", y.grad_fn.name())
print("z.grad_fn:", z.grad_fn.name())
print("x.grad_fn:", x.grad_fn)

# %% [markdown] lang="en"
# The names end in `Backward0`: a node does not redo the forward computation, it
# knows how to send gradients **backward** through it. `MulBackward0` knows the
# derivative of a product, `ExpBackward0` the derivative of `exp`.

# %% [markdown] lang="zh"
# 这些名字都以 `Backward0` 结尾：节点并不会重做前向计算，它只知道怎样把梯度沿着这一步**往回**传。
# `MulBackward0` 知道乘法的导数，`ExpBackward0` 知道 `exp` 的导数。

# %% [markdown] lang="en"
# ## Leaves
#
# A tensor is a **leaf** when no recorded operation made it: its `grad_fn` is `None`.
# The tensors you create are leaves. So, by convention, is **every tensor that does not
# require grad**, even one computed by an operation: autograd recorded nothing for it, so
# nothing in the graph leads back from it. A tensor that requires grad and was made by an
# operation (`z`, `y`) is not a leaf. The gradients autograd computes are stored only in
# leaves that require grad: they are the parameters you want to train.
#
# `plain` below did not ask for gradients, so autograd ignores it, and an operation whose
# inputs all ignore gradients records nothing at all: `plain * 3` is a leaf. So is
# `z.detach()`, the values of `z` cut off from its graph (a later lesson is about keeping
# things out of the graph). As soon as one input requires grad, the result does too.

# %% [markdown] lang="zh"
# ## 叶子张量
#
# 如果一个张量不是由被记录下来的运算产生的（它的 `grad_fn` 是 `None`），它就是**叶子张量**。
# 你亲手创建的张量都是叶子张量。按照约定，**所有不需要梯度的张量**也都是叶子张量，
# 哪怕它是某个运算算出来的：autograd 没有为它记录任何东西，计算图里也就没有一条路从它往回走。
# 需要梯度、又由运算产生的张量（如 `z`、`y`）不是叶子张量。
# autograd 算出的梯度只会存进那些 `requires_grad=True` 的叶子张量——它们通常就是你要训练的参数。
#
# 下面的 `plain` 没有要求梯度，所以 autograd 不理会它；如果一个运算的所有输入都不需要梯度，
# 那它什么都不会记录：`plain * 3` 是叶子张量。`z.detach()` 也是：它是 `z` 的值，但和 `z` 的计算图断开了
# （后面有一讲专门讲怎样把东西挡在计算图之外）。只要有一个输入需要梯度，结果也就需要梯度。

# %%
plain = torch.tensor([4.0, 5.0, 6.0])
print(f"{'tensor':16}{'is_leaf':>9}{'requires_grad':>15}  grad_fn")
for name, t in [("x", x), ("w", w), ("plain", plain), ("z", z), ("y", y),
                ("plain * 3", plain * 3), ("z.detach()", z.detach())]:
    node = t.grad_fn.name() if t.grad_fn is not None else "None"
    print(f"{name:16}{str(t.is_leaf):>9}{str(t.requires_grad):>15}  {node}")
print((plain * 3).grad_fn, (plain * 3).requires_grad)
print((plain * x).grad_fn.name(), (plain * x).requires_grad)

# %% [markdown] lang="en"
# ## Edges: `next_functions`
#
# A node points to the nodes that made its inputs, through `next_functions`: one pair
# `(node, output_nr)` per input of the operation. `node` is where that input's gradient
# goes: the input's `grad_fn`, the `AccumulateGrad` node of a leaf that requires grad, or
# `None` for an input that needs no gradient. `output_nr` says **which output of that
# node** the input was: a node that made one tensor has only output 0. These pointers are
# the **edges** of the graph. Follow them from `y` down:

# %% [markdown] lang="zh"
# ## 边：`next_functions`
#
# 每个节点都通过 `next_functions` 指向产生它各个输入的节点：运算的每个输入对应一对 `(node, output_nr)`。
# `node` 是这个输入的梯度要送去的地方：输入的 `grad_fn`；如果输入是需要梯度的叶子张量，就是它的
# `AccumulateGrad` 节点；如果输入不需要梯度，就是 `None`。`output_nr` 说明这个输入是**那个节点的第几个输出**：
# 只产生一个张量的节点只有输出 0。这些指针就是图的**边**。我们从 `y` 出发，顺着边往下走：

# %%
node = y.grad_fn
while node is not None:
    print(node.name())
    nexts = [n for n, _ in node.next_functions if n is not None]
    node = nexts[0] if nexts else None

# %% [markdown] lang="en"
# At the bottom sits `AccumulateGrad`: the node of a leaf. Its job in backward is to
# add the gradient that arrives into the leaf's `.grad`; its `variable` is the leaf
# itself. `MulBackward0` has two inputs, so it has two edges, one to each leaf's
# `AccumulateGrad`; each leaf is output 0 of its node.
#
# The number is not the input's position. `m.unbind(0)` makes one node with two outputs,
# the rows of `m`; multiply the rows and the two edges of `MulBackward0` go to the same
# node, output 0 and output 1. `x * x` also has two edges to one node, both to output 0:

# %% [markdown] lang="zh"
# 最底下是 `AccumulateGrad`，也就是叶子张量对应的节点。反向传播时，它负责把流到这里的梯度累加进叶子张量的 `.grad`；
# 它的 `variable` 属性就是那个叶子张量本身。`MulBackward0` 有两个输入，所以有两条边，各自指向一个叶子张量的
# `AccumulateGrad`；每个叶子张量都是自己节点的输出 0。
#
# 这个编号并不是输入的位置。`m.unbind(0)` 只产生一个节点，却有两个输出：`m` 的两行；
# 把这两行相乘，`MulBackward0` 的两条边指向同一个节点，分别是它的输出 0 和输出 1。
# `x * x` 也有两条边指向同一个节点，但两条都指向输出 0：

# %%
for next_node, output_nr in z.grad_fn.next_functions:
    print(next_node.name(), output_nr, next_node.variable is x, next_node.variable is w)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
row0, row1 = m.unbind(0)
for label, product in [("row0 * row1", row0 * row1), ("x * x", x * x)]:
    print(label, [(n.name(), output_nr) for n, output_nr in product.grad_fn.next_functions])

# %% [markdown] lang="en"
# ## A picture of the graph
#
# `minigrad.viz.graph` draws the same thing: blue boxes are the leaves, grey boxes
# the backward nodes, and beside a node, in orange, the tensors it saved for
# backward (lesson 05 is about those). Arrows follow the data of the forward pass.

# %% [markdown] lang="zh"
# ## 把图画出来
#
# `minigrad.viz.graph` 把同一张图画了出来：蓝色方框是叶子张量，灰色方框是计算图的节点，
# 节点旁边橙色的是它为反向传播保存的张量（第 05 讲专门讲这个）。箭头的方向就是前向传播时数据流动的方向。

# %% tags=["nbval-ignore-output"]
minigrad.viz.graph(y, names={"x": x, "w": w, "y": y})

# %% [markdown] lang="en"
# ## Watching the graph grow
#
# The graph is not built at the end: each operation adds its node the moment it runs.
# `minigrad.viz.record()` records what happens inside its `with` block, and
# `minigrad.viz.animate` replays it, here only its forward steps (`"forward"`). Press
# **Next ▶** and watch for three things: each operation adds one node, linked to the nodes of its
# inputs (the leaves `x` and `w` first); the tensors it saves for backward appear beside it;
# and nothing runs backward yet.

# %% [markdown] lang="zh"
# ## 看计算图一步步长出来
#
# 计算图不是最后才一次性建好的：每个运算一执行，就立刻添上自己的节点。
# `minigrad.viz.record()` 会记下 `with` 块里发生的一切，`minigrad.viz.animate` 再把它回放出来，
# 这里只回放前向传播的步骤（`"forward"`）。按 **下一步 ▶** 一步步看，留意三件事：每个运算添上一个节点，
# 并连到它输入的节点上（最先连上的是叶子张量 `x` 和 `w`）；它为反向传播保存的张量出现在节点旁边；
# 而此时反向传播还一步都没有运行。

# %% tags=["nbval-ignore-output"]
x = torch.tensor([1.0, 1.5, 2.0], requires_grad=True)
w = torch.tensor(0.5, requires_grad=True)
with minigrad.viz.record() as trace:
    z = x * w
    y = z.exp().sum()
minigrad.viz.animate(trace, view="forward", names={"x": x, "w": w})

# %% [markdown] lang="en"
# ## Walking the whole graph
#
# To visit every node (not just one path) we keep a list of nodes still to visit:
# no recursion, so even a graph of a million nodes is fine. Each line below is one
# edge, from a node to the node of one of its inputs.

# %% [markdown] lang="zh"
# ## 遍历整张图
#
# 要访问所有节点（而不只是一条路径），我们用一个列表存放“还没访问的节点”——不用递归，
# 所以即使图里有一百万个节点也没问题。下面每一行是一条边：从一个节点指向它某个输入的节点。

# %%
a = torch.tensor([1.0, -1.0], requires_grad=True)
b = torch.tensor([0.5, 2.0], requires_grad=True)
loss = (a * b + a.sin()).sum()

to_visit, seen = [loss.grad_fn], {loss.grad_fn}
while to_visit:
    node = to_visit.pop()
    for next_node, output_nr in node.next_functions:
        if next_node is None:
            continue
        print(f"{node.name():14} -> {next_node.name().split('::')[-1]} "
              f"({say('output', '输出')} {output_nr})")
        if next_node not in seen:
            seen.add(next_node)
            to_visit.append(next_node)

# %% [markdown] lang="en"
# `a` is used twice (in `a * b` and in `a.sin()`), so two edges point at its
# `AccumulateGrad`: the graph is not a tree but a **DAG**, a directed acyclic graph.
# In backward, `a.grad` must receive the sum of the gradients along both edges.

# %% [markdown] lang="zh"
# `a` 被用了两次（在 `a * b` 和 `a.sin()` 里），所以有两条边指向它的 `AccumulateGrad`：
# 计算图不是一棵树，而是一张**有向无环图**（DAG）。反向传播时，`a.grad` 必须等于沿这两条边传来的梯度之和。

# %%
a_node = next(n for n in seen if getattr(n, "variable", None) is a)
edges_into_a = [node.name() for node in seen for next_node, _ in node.next_functions
                if next_node is a_node]
print(say("edges into a's AccumulateGrad come from:", "指向 a 的 AccumulateGrad 的边来自："),
      sorted(edges_into_a))

# %% [markdown] lang="en"
# ## Exercise: predict a graph
#
# Before running anything, predict the graph that the cell below records. Write its edges
# in `graph_edges()` as a set of pairs `(node, input's node)`, each node named as its
# `name()` says (`"MulBackward0"`), and a leaf's `AccumulateGrad` written as the leaf's
# name (`"a"`, `"b"`). Think about three things: which tensors have a node at all, how
# many edges a tensor used twice receives, and which way the edges point.

# %% [markdown] lang="zh"
# ## 练习：预测一张计算图
#
# 先别运行，预测一下下面这个单元格会记录出怎样的计算图。在 `graph_edges()` 里把它的边写成一组
# `(节点, 它某个输入的节点)` 对：节点用它的 `name()` 返回的名字表示（如 `"MulBackward0"`），
# 叶子张量的 `AccumulateGrad` 直接写成叶子张量的名字（`"a"`、`"b"`）。想清楚三件事：
# 哪些张量根本没有节点，被用了两次的张量会收到几条边，以及边朝哪个方向。

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
k = torch.tensor(4.0)                  # no gradient wanted  # zh: 不需要梯度
out = (a * b).exp() + a.sin() / k


def graph_edges():
    ### BEGIN SOLUTION
    return {
        ("AddBackward0", "ExpBackward0"), ("AddBackward0", "DivBackward0"),
        ("ExpBackward0", "MulBackward0"), ("MulBackward0", "a"), ("MulBackward0", "b"),
        ("DivBackward0", "SinBackward0"), ("SinBackward0", "a"),
    }
    ### END SOLUTION


# %%
check("graph_edges", graph_edges)

# %% [markdown] lang="en"
# Now compare your prediction with the drawing of the graph the engine recorded. The drawing's
# arrows follow the forward pass, so each of your edges shows as an arrow pointing the other way:

# %% [markdown] lang="zh"
# 现在把你的预测和引擎实际记录的计算图对照一下。图中的箭头沿着前向传播的方向，
# 所以你写的每一条边，在图里都是一支方向相反的箭头：

# %% tags=["nbval-ignore-output"]
minigrad.viz.graph(out, names={"a": a, "b": b, "k": k, "out": out})

# %% [markdown] lang="en"
# ## Backward walks the edges in reverse
#
# `y.backward()` starts at `y`'s node with gradient 1 and runs the nodes one by one,
# applying the **chain rule** at each. Here `y = Σ exp(x·w)`, so by hand
# `dy/dx = w·exp(x·w)` and `dy/dw = Σ x·exp(x·w)`:

# %% [markdown] lang="zh"
# ## 反向传播沿着边倒着走
#
# `y.backward()` 从 `y` 的节点出发，初始梯度为 1，逐个运行节点，每一步都用一次**链式法则**。
# 这里 `y = Σ exp(x·w)`，手算可得 `dy/dx = w·exp(x·w)`，`dy/dw = Σ x·exp(x·w)`：

# %%
y.backward()
by_hand = say("by hand:", "手算：")
print("x.grad: ", x.grad)
print(by_hand, w.detach() * (x.detach() * w.detach()).exp())
print("w.grad: ", w.grad)
print(by_hand, (x.detach() * (x.detach() * w.detach()).exp()).sum())

# %% [markdown] lang="en"
# Only leaves keep a `.grad`. To keep the gradient of a middle tensor too, ask for
# it with `retain_grad()` before calling backward.
#
# And `.grad` *adds up*: `AccumulateGrad` adds each gradient that arrives to what `.grad`
# holds, so a second backward adds its gradient to the first. That is what a leaf used
# twice needs (one gradient per edge), and why a training loop sets `.grad` back to `None`
# (or zero) before each backward:

# %% [markdown] lang="zh"
# 只有叶子张量会保留 `.grad`。如果也想拿到某个中间张量的梯度，要在调用 backward 之前对它调用 `retain_grad()`。
#
# 另外，`.grad` 是会**累加**的：`AccumulateGrad` 把每份送来的梯度加到 `.grad` 已有的值上，
# 所以第二次反向传播会把它的梯度加到第一次的结果上。一个被用了两次的叶子张量正需要这样（每条边送来一份梯度）；
# 这也是训练循环在每次反向传播之前都要把 `.grad` 重新设为 `None`（或清零）的原因：

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z = x * 2
z.retain_grad()
(z * z).sum().backward()
print("z.grad:", z.grad)
print("x.grad:", x.grad)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(x * x).sum().backward()
print(say("after one backward: ", "一次反向传播之后："), x.grad)
(x * x).sum().backward()
print(say("after two backwards:", "两次反向传播之后："), x.grad)
x.grad = None

# %% [markdown] lang="en"
# ## An output that is not one number: the vector-Jacobian product
#
# So far the output was a single number. `y = x * x` has three, and `y.backward()`
# refuses: which gradient should it compute? The derivatives of all outputs with respect
# to all inputs form the **Jacobian matrix** J, here 3 × 3 with row i holding ∂yᵢ/∂x.
# Backward never builds J. You give it a vector v of the output's shape,
# `y.backward(gradient=v)`, and it computes the **vector-Jacobian product** vᵀJ: the
# gradient of `(v * y).sum()`. Every node works this way: it receives the gradient of its
# output (a v) and passes on vᵀ times its own Jacobian. A scalar's `backward()` is the same
# with v = 1. `torch.autograd.grad(outputs, inputs, grad_outputs=v)` computes the same vᵀJ
# and returns it instead of adding it into `.grad`. The player below replays
# `y.backward(gradient=v)`: the gradient that enters at the root is v itself, not 1.

# %% [markdown] lang="zh"
# ## 输出不止一个数：向量-雅可比积
#
# 到目前为止，输出都只是一个数。`y = x * x` 有三个数，于是 `y.backward()` 拒绝执行：它该算哪个梯度呢？
# 所有输出对所有输入的导数组成**雅可比矩阵** J，这里是 3 × 3，第 i 行是 ∂yᵢ/∂x。
# 反向传播从来不构造 J。你给它一个和输出形状相同的向量 v，即 `y.backward(gradient=v)`，
# 它算出的是**向量-雅可比积** vᵀJ：也就是 `(v * y).sum()` 的梯度。每个节点都是这样工作的：
# 它收到对自己输出的梯度（一个 v），再把 vᵀ 乘以它自己的雅可比矩阵往下传。
# 标量的 `backward()` 也一样，只不过 v = 1。`torch.autograd.grad(outputs, inputs, grad_outputs=v)`
# 算的是同一个 vᵀJ，只是把它作为返回值，而不是累加进 `.grad`。下面的播放器回放 `y.backward(gradient=v)`：
# 从根节点进入的梯度就是 v 本身，而不是 1。

# %%
y = x * x
try:
    y.backward()
except RuntimeError as error:
    show_error(error, lines=1)
v = torch.tensor([1.0, 0.0, 10.0])
y.backward(gradient=v)
print("y.backward(gradient=v):       ", x.grad)
x.grad = None
(v * (x * x)).sum().backward()
print("(v * y).sum().backward():      ", x.grad)
x.grad = None
print("torch.autograd.grad(..., v):   ", torch.autograd.grad(x * x, x, grad_outputs=v)[0])

# %% tags=["nbval-ignore-output"]
with minigrad.viz.record() as trace_v:
    y = x * x
    y.backward(gradient=v)
x.grad = None
minigrad.viz.animate(trace_v, view="backward", names={"x": x, "y": y})

# %% [markdown] lang="en"
# ## Exercise: a Jacobian, one row at a time
#
# Write `jacobian(f, x)`: the Jacobian matrix of `f` at `x`, as a tensor of shape
# `(m, n)`, where `x` is a 1-D tensor of n numbers that requires grad and `f(x)` a 1-D
# tensor of m numbers. Build it with backward, one row per backward: which v gives you
# row i alone? Mind what `.grad` does between two backwards, and return one tensor
# (`torch.stack` makes one from a list of rows).

# %% [markdown] lang="zh"
# ## 练习：一行一行地求雅可比矩阵
#
# 编写 `jacobian(f, x)`：返回 `f` 在 `x` 处的雅可比矩阵，是一个形状为 `(m, n)` 的张量。
# 其中 `x` 是需要梯度、含 n 个数的一维张量，`f(x)` 是含 m 个数的一维张量。
# 用反向传播来构造它，每次反向传播得到一行：什么样的 v 恰好只给出第 i 行？
# 注意两次反向传播之间 `.grad` 会发生什么；最后返回一个张量（`torch.stack` 能把一组行拼成一个张量）。

# %%
def jacobian(f, x):
    ### BEGIN SOLUTION
    rows = []
    m = f(x).shape[0]
    for i in range(m):
        v = torch.zeros(m, dtype=x.dtype)
        v[i] = 1.0
        x.grad = None
        f(x).backward(gradient=v)
        rows.append(x.grad.clone())
    x.grad = None
    return torch.stack(rows)
    ### END SOLUTION


# %%
check("jacobian", jacobian)

# %% [markdown] lang="en"
# ## Summary
#
# | idea | where you see it |
# |---|---|
# | forward records a graph | `tensor.grad_fn` |
# | edges point to the inputs' nodes | `node.next_functions` |
# | each leaf that requires grad has an `AccumulateGrad` node | `node.variable`, `tensor.is_leaf` |
# | backward runs the nodes, gradients land in leaves | `tensor.grad` |
# | gradients add up in `.grad` | a second `backward()` |
# | a non-scalar output: vᵀJ for the v you give | `backward(gradient=v)`, `autograd.grad(..., grad_outputs=v)` |

# %% [markdown] lang="zh"
# ## 小结
#
# | 概念 | 在哪里能看到 |
# |---|---|
# | 前向传播会记录计算图 | `tensor.grad_fn` |
# | 边指向输入的节点 | `node.next_functions` |
# | 每个需要梯度的叶子张量对应一个 `AccumulateGrad` 节点 | `node.variable`、`tensor.is_leaf` |
# | 反向传播逐个运行节点，梯度落到叶子张量上 | `tensor.grad` |
# | 梯度在 `.grad` 里累加 | 第二次 `backward()` |
# | 输出不是标量：对给定的 v 计算 vᵀJ | `backward(gradient=v)`、`autograd.grad(..., grad_outputs=v)` |

# %% [markdown] lang="en"
# ## Read the code
#
# The graph is made of plain Python objects. `Tensor._gradient_edge` answers the question every
# edge asks: where does this tensor's gradient go? To its `grad_fn`, or, for a leaf, to its
# `AccumulateGrad` node. That node's `apply` is the last step of backward: look for how the first
# gradient becomes `.grad` and how later ones are added to it.
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# 计算图就是普通的 Python 对象。`Tensor._gradient_edge` 回答每条边都要问的问题：这个张量的梯度该送到哪里？
# 送到它的 `grad_fn`；如果是叶子张量，就送到它的 `AccumulateGrad` 节点。
# 这个节点的 `apply` 是反向传播的最后一步：留意第一份梯度怎样成为 `.grad`，之后的梯度又怎样累加上去。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.core.graph import AccumulateGrad
from minigrad.core.tensor import TensorBase
from minigrad.lessons import show_source

show_source(TensorBase._gradient_edge, AccumulateGrad.apply)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("01-accumulate-in-place")

# %% [markdown] lang="en"
# Next lesson: what is recorded and what is not, and how to keep things out of the graph
# (`detach`, `no_grad`, frozen parameters).

# %% [markdown] lang="zh"
# 下一讲：哪些运算会被记录、哪些不会，以及怎样把运算挡在计算图之外（`detach`、`no_grad`、冻结参数）。
