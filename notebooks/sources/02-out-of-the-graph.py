# %% [markdown] lang="en"
# Lesson 01 recorded everything: every operation on a tensor that requires grad added a
# node. Not everything belongs in the graph, though: the data, a target, the update of a
# parameter, an evaluation, the frozen part of a model. This lesson shows how autograd
# decides what to record, that it decides anew every time the code runs, and the tools that
# keep things out: `detach()`, `torch.no_grad()`, `torch.inference_mode()`,
# `torch.set_grad_enabled()` and `requires_grad_(False)`.

# %% [markdown] lang="zh"
# 第 01 讲里什么都被记录下来了：对需要梯度的张量做的每个运算都添上一个节点。可并不是什么都该进计算图：
# 数据、目标值、参数的更新、模型的评估、模型里被冻结的那一部分，都不该进去。
# 这一讲介绍 autograd 怎样决定记录什么，它每次运行代码时都会重新做这个决定，
# 以及把东西挡在计算图之外的几件工具：`detach()`、`torch.no_grad()`、`torch.inference_mode()`、
# `torch.set_grad_enabled()` 和 `requires_grad_(False)`。

# %%
import minigrad as torch
import minigrad.viz
from minigrad.exercises import check
from minigrad.lessons import say, show_error

# %% [markdown] lang="en"
# ## Who requires grad
#
# The rule is short: an operation is recorded, and its result requires grad, when grad
# mode is on and **at least one input requires grad**. Otherwise nothing is recorded and
# the result is a leaf: every tensor that does not require grad is a leaf. `requires_grad`
# can be switched only on leaves, the tensors you made: a result's flag follows from its
# inputs, and to cut a result off, `detach()` it (below).

# %% [markdown] lang="zh"
# ## 谁需要梯度
#
# 规则很简单：当梯度模式开启、并且**至少有一个输入需要梯度**时，运算才会被记录，它的结果也需要梯度。
# 否则什么都不记录，结果是叶子张量：所有不需要梯度的张量都是叶子张量。
# `requires_grad` 只能在叶子张量上切换，也就是你自己创建的张量：运算结果的这个标志由它的输入决定；
# 要把一个结果和计算图断开，得用 `detach()`（后面会讲）。

# %%
w = torch.tensor([1.0, -1.0], requires_grad=True)
data = torch.tensor([2.0, 3.0])
print(f"{'tensor':18}{'requires_grad':>14}{'is_leaf':>9}  grad_fn")
for name, t in [("w", w), ("data", data), ("data * 2", data * 2), ("w * data", w * data),
                ("(w * data).sum()", (w * data).sum())]:
    node = t.grad_fn.name() if t.grad_fn is not None else "None"
    print(f"{name:18}{str(t.requires_grad):>14}{str(t.is_leaf):>9}  {node}")
try:
    (w * data).requires_grad_(False)
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# ## The graph is built as the code runs
#
# The graph is not declared before the code runs: each operation adds its node when it
# runs, and every run builds a new graph. So Python's `if`, `while` and `for` simply decide
# which operations run, and the graph follows. In this function (from the d2l book) the
# number of doublings depends on the input's value, and so does the graph:

# %% [markdown] lang="zh"
# ## 计算图是在代码运行时建起来的
#
# 计算图并不是在代码运行之前声明好的：每个运算在运行时添上自己的节点，每运行一次就建一张新图。
# 所以 Python 的 `if`、`while`、`for` 只管决定哪些运算会运行，计算图随之而变。
# 下面这个函数（取自《动手学深度学习》）要翻倍多少次取决于输入的值，计算图也就随之不同：

# %%
def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c


def count_nodes(tensor):
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None and node not in seen:
            seen.add(node)
            stack.extend(n for n, _ in node.next_functions)
    return len(seen)


for value in (0.5, -0.01):
    a = torch.tensor(value, requires_grad=True)
    c = f(a)
    c.backward()
    print(say(f"a = {value:5}: {count_nodes(c):2} nodes, a.grad = {a.grad.item():10.0f}, c / a = {(c / a).item():10.0f}",
              f"a = {value:5}：{count_nodes(c):2} 个节点，a.grad = {a.grad.item():10.0f}，c / a = {(c / a).item():10.0f}"))

# %% [markdown] lang="en"
# `f` is linear in `a` along each path it takes, so `a.grad` is `c / a`, whichever path it
# was. Here are the two graphs side by side: the engine differentiates the operations that
# ran, nothing else.

# %% [markdown] lang="zh"
# `f` 沿它走的每条路径都是 `a` 的线性函数，所以不论走的是哪条路径，`a.grad` 都等于 `c / a`。
# 下面把两张计算图并排画出来：引擎只对实际运行过的运算求导，别的一概不管。

# %% tags=["nbval-ignore-output"]
small, negative = torch.tensor(0.5, requires_grad=True), torch.tensor(-0.01, requires_grad=True)
minigrad.viz.graph([f(small), f(negative)], names={"a = 0.5": small, "a = -0.01": negative})

# %% [markdown] lang="en"
# ## `detach()`: the same values, no history
#
# `y.detach()` is a new tensor that shares `y`'s memory (and its version counter), but has
# no `grad_fn` and does not require grad: a leaf. Gradients do not flow through it. Below,
# `z = u.detach() * w` with `u = w * w`: backward sees `z` as a constant times `w`, so
# `w.grad` is `u`, not the `3w²` of `w * w * w`. The drawing shows the cut: `u`'s branch
# is not in the graph of `z`.

# %% [markdown] lang="zh"
# ## `detach()`：值不变，历史没了
#
# `y.detach()` 是一个新张量，它和 `y` 共享内存（也共享版本计数器），但没有 `grad_fn`，也不需要梯度：
# 它是叶子张量。梯度不会穿过它往回流。下面 `u = w * w`，`z = u.detach() * w`：
# 在反向传播看来，`z` 就是一个常数乘以 `w`，所以 `w.grad` 是 `u`，而不是 `w * w * w` 的导数 `3w²`。
# 图中也能看出断开的地方：`u` 那一支不在 `z` 的计算图里。

# %%
w = torch.tensor([1.0, -2.0], requires_grad=True)
u = w * w
z = u.detach() * w
z.sum().backward()
print("u.detach() * w:", w.grad)
w.grad = None
(w * w * w).sum().backward()
print("w * w * w:     ", w.grad)

# %% tags=["nbval-ignore-output"]
minigrad.viz.graph(z, names={"w": w, "z": z})

# %% [markdown] lang="en"
# ## Exercise: a gradient that skips a step
#
# Rounding has a derivative of 0 wherever it has one, so a model that rounds learns
# nothing through it. The **straight-through estimator** pretends, in backward, that the
# rounding was not there: its forward gives `x.round()`, its gradient with respect to `x`
# is 1. Write `round_straight_through(x)` with built-in operations and `detach()`, no
# custom Function: how can a result have the value of one expression and the gradient of
# another?

# %% [markdown] lang="zh"
# ## 练习：让梯度跳过一步
#
# 取整的导数在有定义的地方处处为 0，所以模型里一旦有取整，梯度就传不过去，什么也学不到。
# **直通估计器**（straight-through estimator）在反向传播时假装取整不存在：它的前向结果是 `x.round()`，
# 它对 `x` 的梯度却是 1。请只用内置运算和 `detach()`（不写自定义 Function）编写 `round_straight_through(x)`：
# 一个结果怎样才能取一个表达式的值，却带着另一个表达式的梯度？

# %%
def round_straight_through(x):
    ### BEGIN SOLUTION
    return x + (x.round() - x).detach()
    ### END SOLUTION


# %%
check("straight_through", round_straight_through)

# %% [markdown] lang="en"
# ## `torch.no_grad()`: record nothing
#
# Inside `with torch.no_grad():` nothing is recorded: every result has
# `requires_grad=False`, even when its inputs require grad. That is the mode of everything
# that must not become part of the graph: updating parameters, evaluating a model, computing
# a metric. `torch.enable_grad()` turns recording back on inside it, and
# `torch.set_grad_enabled(mode)` sets it from a flag (`mode=training`, say). The recorder
# confirms it: no node is created inside `no_grad`.

# %% [markdown] lang="zh"
# ## `torch.no_grad()`：什么都不记录
#
# 在 `with torch.no_grad():` 里面什么都不会被记录：每个结果的 `requires_grad` 都是 `False`，
# 即使它的输入需要梯度。凡是不该成为计算图一部分的事，都在这个模式下做：更新参数、评估模型、计算指标。
# 在它里面用 `torch.enable_grad()` 可以重新打开记录；`torch.set_grad_enabled(mode)` 则按一个开关来设置
# （比如 `mode=training`）。记录器可以作证：`no_grad` 里面一个节点都没有创建。

# %%
with minigrad.viz.record() as trace:
    with torch.no_grad():
        y = (w * data).sum()
        with torch.enable_grad():
            recorded = (w * data).sum()
    training = False
    with torch.set_grad_enabled(training):
        evaluated = (w * data).sum()
print("no_grad:                 ", y.requires_grad)
print("enable_grad in no_grad:  ", recorded.requires_grad)
print("set_grad_enabled(False): ", evaluated.requires_grad)
print(say("nodes created:", "创建的节点："), [e["name"] for e in trace.of_kind("node_created")])

# %% [markdown] lang="en"
# `no_grad` also works as a decorator, `@torch.no_grad()` above a function. And it is how
# a gradient-descent step updates its parameters: the update itself must not be recorded
# (lesson 06 shows that an in-place change of a leaf that requires grad is refused while
# recording).

# %% [markdown] lang="zh"
# `no_grad` 也可以当作装饰器用，写成函数上方的 `@torch.no_grad()`。梯度下降更新参数时用的也正是它：
# 更新本身不能被记录下来（第 06 讲会看到：在记录时原地修改需要梯度的叶子张量会被拒绝）。

# %% [markdown] lang="en"
# ## `torch.inference_mode()`: no_grad, and more
#
# `torch.inference_mode()` records nothing either, and goes further: the tensors made inside
# are **inference tensors**, with no version counter and no record of how they were made.
# That makes it cheaper, and stricter: an inference tensor can never be saved for backward
# later. Use it where the results will never meet autograd again (serving a model); where
# they might, use `no_grad`:

# %% [markdown] lang="zh"
# ## `torch.inference_mode()`：比 no_grad 更进一步
#
# `torch.inference_mode()` 同样什么都不记录，而且更进一步：在它里面创建的张量是**推理张量**，
# 没有版本计数器，也不记录自己是怎么来的。这让它更省开销，也更严格：推理张量以后永远不能被保存给反向传播用。
# 如果结果再也不会和 autograd 打交道（比如部署模型做推理），就用它；如果以后可能会，就用 `no_grad`：

# %%
with torch.inference_mode():
    p = w * 2
with torch.no_grad():
    n = w * 2
print("inference_mode:", p.requires_grad, p.is_inference())
print("no_grad:       ", n.requires_grad, n.is_inference())
for made in (n, p):
    try:
        (made * w).sum().backward()
        print(say("used in a recorded product: fine", "用在被记录的乘法里：没问题"))
    except RuntimeError as error:
        show_error(error, lines=1)

# %% [markdown] lang="en"
# ## Exercise: an iteration whose graph does not grow
#
# Newton's iteration computes √a: start from x = a and repeat x ← (x + a / x) / 2; each
# step roughly doubles the number of correct digits. Write `newton_sqrt(a)` for a 1-D
# tensor `a > 0` that requires grad: iterate until |x·x − a| ≤ 1e-10·a for every element
# (a `while` on the tensor's values, as `f` above did), and return √a with the right
# gradient, `1 / (2√a)`, but with a graph of a few nodes, **the same few however many
# iterations ran**. Think about which steps the gradient really needs. (Hint: at the fixed
# point x = √a, the derivative of (x + a / x) / 2 with respect to x is 0.) Do not call
# `sqrt` or `** 0.5`.

# %% [markdown] lang="zh"
# ## 练习：计算图不会变长的迭代
#
# 牛顿迭代可以求 √a：从 x = a 出发，反复执行 x ← (x + a / x) / 2，每一步大约让正确的位数翻一番。
# 请为需要梯度的一维张量 `a > 0` 编写 `newton_sqrt(a)`：一直迭代到每个元素都满足 |x·x − a| ≤ 1e-10·a
# （和上面的 `f` 一样，用 `while` 判断张量的值），返回 √a，梯度要正确，即 `1 / (2√a)`；
# 但它的计算图只能有几个节点，而且**不管迭代了多少次，都是同样的几个**。
# 想一想梯度真正需要的是哪几步。（提示：在不动点 x = √a 处，(x + a / x) / 2 对 x 的导数是 0。）
# 不要调用 `sqrt` 或 `** 0.5`。

# %%
def newton_sqrt(a):
    ### BEGIN SOLUTION
    with torch.no_grad():                    # the iterations: values only  # zh: 迭代过程：只要值
        x = a.clone()
        while ((x * x - a).abs() > 1e-10 * a).any():
            x = (x + a / x) / 2
    return (x + a / x) / 2                   # one recorded step: its gradient is 1 / (2x)  # zh: 记录下来的一步：它的梯度是 1 / (2x)
    ### END SOLUTION


# %%
check("newton_sqrt", newton_sqrt)

# %% [markdown] lang="en"
# The last step is recorded with `x` a constant, so backward differentiates
# (x + a / x) / 2 with respect to `a` alone: 1 / (2x), which is 1 / (2√a) at the fixed
# point. The loop before it leaves no trace, however long it ran (your `newton_sqrt`, once
# written):

# %% [markdown] lang="zh"
# 最后一步被记录时 `x` 是常数，所以反向传播只对 `a` 求 (x + a / x) / 2 的导数：1 / (2x)，
# 在不动点处正是 1 / (2√a)。它前面的循环不论跑了多久，都不留下任何痕迹（用你写好的 `newton_sqrt` 来看）：

# %%
for values in ([4.0, 9.0], [1e-4, 1e4]):
    a = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    try:
        root = newton_sqrt(a)
    except NotImplementedError:
        print(say("(write newton_sqrt above first)", "（请先写好上面的 newton_sqrt）"))
        break
    root.sum().backward()
    print(f"a = {values}: {count_nodes(root)} nodes, √a = {root.tolist()}, "
          f"a.grad = {[round(g, 6) for g in a.grad.tolist()]}")

# %% [markdown] lang="en"
# ## Freezing part of a model
#
# Fine-tuning trains only part of a model, the **head**, and keeps the rest, the **body**,
# as it is: its parameters get `requires_grad_(False)`. Then nothing in the body is
# recorded (its operations have no input that requires grad), its parameters get no
# `.grad`, and backward stops where the body begins. Compare the graphs:

# %% [markdown] lang="zh"
# ## 冻结模型的一部分
#
# 微调（fine-tuning）只训练模型的一部分，也就是**头部**（head），其余部分，即**主干**（body），保持不变：
# 对主干的参数调用 `requires_grad_(False)`。这样主干里什么都不会被记录（它的运算没有一个输入需要梯度），
# 主干的参数也得不到 `.grad`，反向传播到主干开始的地方就停下了。比较一下两张计算图：

# %%
def two_layers(x, w1, b1, w2, b2):
    h = (x @ w1 + b1).tanh()             # the body  # zh: 主干
    return h @ w2 + b2                   # the head  # zh: 头部


x = torch.tensor([[0.5, -1.0], [1.5, 0.2]])
w1 = torch.tensor([[0.3, -0.4, 0.8], [0.6, 0.1, -0.5]], requires_grad=True)
b1 = torch.tensor([0.1, 0.0, -0.1], requires_grad=True)
w2 = torch.tensor([[0.7], [-0.2], [0.4]], requires_grad=True)
b2 = torch.tensor([0.05], requires_grad=True)
everything = two_layers(x, w1, b1, w2, b2).sum()
w1.requires_grad_(False)
b1.requires_grad_(False)
head_only = two_layers(x, w1, b1, w2, b2).sum()
print(say("nodes, everything trained:", "节点数，全部训练："), count_nodes(everything))
print(say("nodes, body frozen:       ", "节点数，冻结主干："), count_nodes(head_only))

# %% tags=["nbval-ignore-output"]
names = {"w1": w1, "b1": b1, "w2": w2, "b2": b2, say("all trained", "全部训练"): everything,
         say("body frozen", "冻结主干"): head_only}
minigrad.viz.graph([everything, head_only], names=names)

# %% [markdown] lang="en"
# ## Exercise: fine-tune the head
#
# Write `finetune_head(params, x, y, steps, lr)`. `params` is a dict of the four parameters
# of `two_layers`, `"w1"`, `"b1"` (the body) and `"w2"`, `"b2"` (the head), all leaves that
# require grad. Train the head alone by gradient descent, `steps` times, on the loss
# `((two_layers(x, ...) - y) ** 2).mean()`, each parameter p of the head becoming
# `p - lr * p.grad`; return the list of the `steps` losses before each update (as numbers).
# The body's values must stay as they are, and get no `.grad`; and the body must cost
# nothing in the graph: no node recorded for it. Think about where each of this lesson's
# tools belongs: freezing, the update, the gradients between two steps.

# %% [markdown] lang="zh"
# ## 练习：微调头部
#
# 编写 `finetune_head(params, x, y, steps, lr)`。`params` 是一个字典，装着 `two_layers` 的四个参数：
# `"w1"`、`"b1"`（主干）和 `"w2"`、`"b2"`（头部），都是需要梯度的叶子张量。
# 只用梯度下降训练头部，共 `steps` 步，损失为 `((two_layers(x, ...) - y) ** 2).mean()`，
# 头部的每个参数 p 都更新为 `p - lr * p.grad`；返回每次更新之前的 `steps` 个损失组成的列表（数字）。
# 主干的值必须保持不变，也不能得到 `.grad`；而且主干在计算图里不能有任何开销：不许为它记录任何节点。
# 想一想本讲的每件工具各该用在哪里：冻结、更新、两步之间的梯度。

# %%
def finetune_head(params, x, y, steps, lr):
    ### BEGIN SOLUTION
    for name in ("w1", "b1"):
        params[name].requires_grad_(False)   # freeze the body  # zh: 冻结主干
    head = [params["w2"], params["b2"]]
    losses = []
    for _ in range(steps):
        prediction = two_layers(x, params["w1"], params["b1"], params["w2"], params["b2"])
        loss = ((prediction - y) ** 2).mean()
        losses.append(loss.item())
        for p in head:
            p.grad = None                    # no gradient left from the step before  # zh: 不留上一步的梯度
        loss.backward()
        with torch.no_grad():                # the update is not recorded  # zh: 更新不被记录
            for p in head:
                p -= lr * p.grad
    return losses
    ### END SOLUTION


# %%
check("finetune_head", finetune_head)

# %% [markdown] lang="en"
# ## Summary
#
# | you want | use | what happens |
# |---|---|---|
# | a value without its history | `y.detach()` | a leaf sharing `y`'s memory; gradients stop there |
# | to record nothing for a while | `with torch.no_grad():` | results do not require grad |
# | recording by a flag | `torch.set_grad_enabled(mode)` | on or off; `enable_grad` turns it back on |
# | never to use the results with autograd | `with torch.inference_mode():` | inference tensors: cheaper, never saved for backward |
# | to freeze parameters | `p.requires_grad_(False)` | no node, no `.grad`; only on leaves |
#
# And the graph is rebuilt every time the code runs, so `if` and `while` shape it freely.

# %% [markdown] lang="zh"
# ## 小结
#
# | 你想要 | 用什么 | 结果 |
# |---|---|---|
# | 只要值，不要历史 | `y.detach()` | 与 `y` 共享内存的叶子张量；梯度到这里就停下 |
# | 暂时什么都不记录 | `with torch.no_grad():` | 结果不需要梯度 |
# | 按开关决定是否记录 | `torch.set_grad_enabled(mode)` | 打开或关闭；`enable_grad` 可以重新打开 |
# | 结果永远不再和 autograd 打交道 | `with torch.inference_mode():` | 推理张量：更省开销，永远不能保存给反向传播 |
# | 冻结参数 | `p.requires_grad_(False)` | 不建节点，也没有 `.grad`；只能用在叶子张量上 |
#
# 另外，计算图在每次运行代码时都会重新建立，所以 `if` 和 `while` 可以随意决定它的形状。

# %% [markdown] lang="en"
# ## Read the code
#
# Every operation of minigrad is a `Function` (`x * w` is `Mul`; lesson 04 writes your own),
# and every one runs through `Function.apply`. The rule of this lesson is its step 0: it asks
# which inputs require grad, and if none does, or grad mode is off, it runs the operation's
# `forward` and records nothing. Grad mode itself is one flag per thread, which `no_grad` sets
# on entering and puts back on leaving.
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# minigrad 的每个运算都是一个 `Function`（`x * w` 就是 `Mul`；第 04 讲会让你自己写一个），而且都要经过
# `Function.apply`。本讲的规则就是它的第 0 步：先看哪些输入需要梯度；如果一个都没有，或者梯度模式是关闭的，
# 它就只运行这个运算的 `forward`，什么都不记录。梯度模式本身是每个线程一个的开关，`no_grad` 进入时把它关掉，离开时再恢复原样。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.core.function import Function
from minigrad.core.grad_mode import no_grad
from minigrad.lessons import show_source

show_source(Function.apply, no_grad.__enter__)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("02-function-in-no-grad")

# %% [markdown] lang="en"
# Next lesson: in which **order** does backward run the nodes, and why?

# %% [markdown] lang="zh"
# 下一讲：反向传播按什么**顺序**运行这些节点？为什么是这个顺序？
