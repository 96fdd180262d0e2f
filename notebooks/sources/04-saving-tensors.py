# %% [markdown] lang="en"
# Most backwards need values from forward: the derivative of `x * w` with respect
# to `x` is `w`, so `MulBackward0` must keep `w` until backward runs. These kept
# values are the **saved tensors**. This lesson is about choosing what to save, how
# to save it, and what saving costs in memory.

# %% [markdown] lang="zh"
# 大多数 backward 都要用到前向传播时的值：`x * w` 对 `x` 的导数是 `w`，所以 `MulBackward0`
# 必须一直留着 `w`，直到反向传播运行到这个节点为止。这些留下来的值就是**保存的张量**。
# 这一讲讨论：该保存什么、怎么保存，以及保存要占用多少内存。

# %%
import minigrad as torch
import minigrad.viz
from minigrad.autograd import Function
from minigrad.exercises import check
from minigrad.lessons import say, show_error

# %% [markdown] lang="en"
# ## What the built-in operations save
#
# The engine reports every tensor a node saves. For `(x * w).exp()`, the product
# keeps both of its inputs, and `exp` keeps its **output** (eˣ is its own
# derivative):

# %% [markdown] lang="zh"
# ## 内置运算保存了什么
#
# 引擎会报告每个节点保存了哪些张量。对于 `(x * w).exp()`，乘法保存了它的两个输入，
# 而 `exp` 保存的是它的**输出**（eˣ 的导数就是它自己）：

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, 0.5, 0.5], requires_grad=True)
with minigrad.viz.record() as trace:
    y = (x * w).exp()
names = {e["node"]: e["name"] for e in trace.of_kind("node_created")}
print(f"{'node':14}{'slot':>5}  {'is_output':10}{'nbytes':>6}")
for event in trace.of_kind("tensor_saved"):
    print(f"{names[event['node']]:14}{event['slot']:>5}  {event['is_output']!s:10}{event['nbytes']:>6}")

# %% tags=["nbval-ignore-output"]
minigrad.viz.graph(y.sum(), names={"x": x, "w": w})

# %% [markdown] lang="en"
# ## `save_for_backward` and plain attributes of `ctx`
#
# In your own Function there are two ways to keep something for backward:
#
# * **tensors that are inputs or outputs** of forward go through
#   `ctx.save_for_backward(...)` and come back as `ctx.saved_tensors`. Autograd then
#   checks them for in-place changes (lesson 05), frees them after backward, and lets
#   hooks move them elsewhere (lesson 07). `None` may be saved too.
# * **anything else**: numbers, shapes, and intermediate tensors that are neither
#   input nor output, go on `ctx` as plain attributes (`ctx.z = z`).

# %% [markdown] lang="zh"
# ## `save_for_backward` 与 `ctx` 的普通属性
#
# 在自己写的 Function 里，有两种方式为 backward 留东西：
#
# * forward 的**输入或输出张量**，用 `ctx.save_for_backward(...)` 保存，在 backward 里通过 `ctx.saved_tensors` 取回。
#   这样 autograd 会检查它们有没有被原地修改（第 05 讲），在反向传播之后释放它们，
#   还允许钩子把它们挪到别处（第 07 讲）。也可以保存 `None`。
# * **其他一切**：数字、形状，以及既不是输入也不是输出的中间张量，直接作为 `ctx` 的普通属性存起来（`ctx.z = z`）。

# %% [markdown] lang="en"
# ## Exercise: the documentation's `Func`
#
# PyTorch's documentation of `save_for_backward` uses this example, with `z` a
# Python int:
#
# $$w = x \cdot y \cdot z, \qquad out = x \cdot y + y \cdot z + w$$
#
# Write `Func` as the documentation does: save `x`, `y` and `out`; keep `z` (not a
# tensor) and `w` (neither input nor output) on `ctx`. In backward:
# ∂out/∂x = y + y·z and ∂out/∂y = x + z + x·z; `z` gets `None`.

# %% [markdown] lang="zh"
# ## 练习：文档里的 `Func`
#
# PyTorch 文档在讲 `save_for_backward` 时用了下面这个例子，其中 `z` 是一个 Python 整数：
#
# $$w = x \cdot y \cdot z, \qquad out = x \cdot y + y \cdot z + w$$
#
# 请照文档的写法实现 `Func`：保存 `x`、`y` 和 `out`；把 `z`（不是张量）和 `w`（既不是输入也不是输出）
# 存到 `ctx` 上。backward 中：∂out/∂x = y + y·z，∂out/∂y = x + z + x·z；`z` 对应的梯度为 `None`。

# %%
class Func(Function):
    @staticmethod
    def forward(ctx, x, y, z):
        ### BEGIN SOLUTION
        w = x * y * z
        out = x * y + y * z + w
        ctx.save_for_backward(x, y, out)
        ctx.z = z
        ctx.w = w
        return out
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_out):
        ### BEGIN SOLUTION
        x, y, out = ctx.saved_tensors
        z = ctx.z
        grad_x = grad_out * (y + y * z)
        grad_y = grad_out * (x + z + x * z)
        return grad_x, grad_y, None
        ### END SOLUTION


# %%
check("seed_func", Func)

# %% [markdown] lang="en"
# What is the difference between the two ways? A saved tensor is **managed**:
# backward frees it, and reading it after that is an error. An attribute of `ctx`
# is just an attribute: it stays alive (and holds its memory) as long as the graph
# does, and nobody checks it for in-place changes.

# %% [markdown] lang="zh"
# 这两种方式有什么区别？保存的张量是**受管理的**：反向传播会释放它，之后再读取就会报错。
# 而 `ctx` 的属性只是普通属性：只要计算图还在，它就一直存在（也一直占着内存），也没有人检查它是否被原地修改过。

# %%
class Twice(Function):
    @staticmethod
    def forward(ctx, x):
        doubled = x * 2
        ctx.save_for_backward(x)
        ctx.doubled = doubled
        return doubled.exp()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 2 * ctx.doubled.exp()


out = Twice.apply(x)
out.sum().backward()
try:
    out.grad_fn.saved_tensors
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# ## Saving the output instead of the input
#
# For some functions the derivative is easiest to write with the **output**:
# for y = tanh x, dy/dx = 1 − y². Saving `y` avoids recomputing tanh in backward,
# and often the output is kept alive anyway by the next operation, so saving it costs
# no extra memory.
#
# **Exercise.** Write `Tanh`, saving its output (not its input):
# backward returns `grad_output * (1 - y * y)`.

# %% [markdown] lang="zh"
# ## 保存输出而不是输入
#
# 有些函数的导数用**输出**来写最方便：对 y = tanh x，有 dy/dx = 1 − y²。
# 保存 `y` 就不用在 backward 里重新算一遍 tanh；而且输出往往本来就被下一个运算留着，保存它并不额外占内存。
#
# **练习**：编写 `Tanh`，保存它的输出（而不是输入）：backward 返回 `grad_output * (1 - y * y)`。

# %%
class Tanh(Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        y = x.tanh()
        ctx.save_for_backward(y)
        return y
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (y,) = ctx.saved_tensors
        return grad_output * (1 - y * y)
        ### END SOLUTION


# %%
check("tanh_saves_output", Tanh)

# %% [markdown] lang="en"
# ## Saved tensors cost memory
#
# Every saved tensor stays in memory from forward until backward. For a deep
# network that is most of the memory training needs. Count it on a chain of
# ten `tanh` layers of 1,000 numbers each (float32: 4 bytes a number):

# %% [markdown] lang="zh"
# ## 保存的张量会占用内存
#
# 每个保存的张量从前向传播一直留到反向传播。对于很深的网络，训练所需的内存大部分都花在这上面。
# 我们在一条由十层 `tanh` 组成、每层 1000 个数的链上数一数（float32：每个数 4 字节）：

# %%
h0 = torch.ones(1000, requires_grad=True)
with minigrad.viz.record() as trace:
    h = h0
    for _ in range(10):
        h = (h * 0.5).tanh()
    loss = h.sum()
    saved = trace.of_kind("tensor_saved")
    loss.backward()
    freed = trace.of_kind("tensor_freed")
names = {e["node"]: e["name"] for e in trace.of_kind("node_created")}
for name in ["MulBackward0", "TanhBackward0"]:
    mine = [e for e in saved if names[e["node"]] == name]
    count, size = len(mine), sum(e["nbytes"] for e in mine)
    print(say(f"{name:14} saved {count:>2} tensors, {size:>6} bytes",
              f"{name:14} 保存了 {count:>2} 个张量，共 {size:>6} 字节"))
freed_bytes = sum(e["nbytes"] for e in freed)
print(say(f"freed by backward: {freed_bytes} bytes", f"反向传播释放了 {freed_bytes} 字节"))

# %% [markdown] lang="en"
# `MulBackward0` by a Python number saves only that number (a 0-d tensor of 8 bytes),
# `TanhBackward0` saves its output: 10 × 4,000 bytes. Backward frees them as it goes,
# which is why a second backward through the same graph fails:

# %% [markdown] lang="zh"
# 乘以 Python 数的 `MulBackward0` 只保存这个数（一个 8 字节的 0 维张量），`TanhBackward0` 保存它的输出：
# 共 10 × 4000 字节。反向传播一边运行一边释放它们，所以对同一张图第二次调用 backward 会失败：

# %%
try:
    loss.backward()
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# Lesson 08 shows `retain_graph=True`, which keeps them; lesson 07 shows hooks that
# store saved tensors more cheaply.
#
# ## Summary
#
# * Inputs and outputs that backward needs: `ctx.save_for_backward`, read back with `ctx.saved_tensors`.
# * Non-tensors and intermediates: plain attributes of `ctx`.
# * Save the output when the derivative is written with it (exp, sigmoid, tanh).
# * Saved tensors live until backward frees them: that is the memory training costs.

# %% [markdown] lang="zh"
# 第 08 讲会介绍 `retain_graph=True`，它能把这些张量留下来；第 07 讲介绍用钩子更省内存地存放保存的张量。
#
# ## 小结
#
# * backward 需要的输入和输出：用 `ctx.save_for_backward` 保存，用 `ctx.saved_tensors` 取回。
# * 非张量和中间结果：作为 `ctx` 的普通属性保存。
# * 如果导数用输出来写更方便（exp、sigmoid、tanh），就保存输出。
# * 保存的张量会一直占着内存，直到反向传播把它们释放——训练时的内存大多花在这里。

# %% [markdown] lang="en"
# ## Read the code
#
# `save_for_backward` only notes what to keep; once forward has returned, `Function.apply`
# (its step 5) makes each of those tensors a `SavedTensor`. Look for what a `SavedTensor` remembers
# besides the tensor: its version (next lesson), and whether it is an output of its own node, kept
# as a bare array so that the node and its output do not hold on to each other.

# %% [markdown] lang="zh"
# ## 读源码
#
# `save_for_backward` 只是记下要保存什么；等 forward 返回之后，`Function.apply`（它的第 5 步）
# 才把这些张量逐个变成 `SavedTensor`。留意 `SavedTensor` 除了张量本身还记住了什么：
# 它的版本（下一讲的内容），以及它是不是所属节点自己的输出——如果是，就只保存数组，免得节点和输出互相引用。

# %% tags=["nbval-ignore-output"]
from minigrad.autograd.function import FunctionCtx
from minigrad.autograd.saved_tensor import SavedTensor
from minigrad.lessons import show_source

show_source(FunctionCtx.save_for_backward, SavedTensor.__init__)
