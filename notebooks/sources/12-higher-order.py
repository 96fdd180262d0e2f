# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] lang="en"
# Backward is made of ordinary tensor operations: `MulBackward0` multiplies, `ExpBackward0`
# multiplies by a saved result. If those operations are *recorded* while backward runs, the
# gradient gets a graph of its own — and can be differentiated again. That is what
# `create_graph=True` does. Second derivatives give Newton's method, curvature, gradient penalties
# and meta-learning.

# %% [markdown] lang="zh"
# 反向传播由普通的张量运算组成：`MulBackward0` 做乘法，`ExpBackward0` 乘上保存的结果。
# 如果反向传播运行时把这些运算也**记录**下来，梯度就有了自己的计算图——于是还能再求一次导。
# 这正是 `create_graph=True` 的作用。有了二阶导数，就能做牛顿法、计算曲率、梯度惩罚和元学习。

# %%
import minigrad as torch
from minigrad.lessons import show_error

# %% [markdown] lang="en"
# ## `torch.autograd.grad`
#
# `backward()` adds into `.grad` of every leaf. `torch.autograd.grad(outputs, inputs)` instead
# *returns* the gradients of `outputs` with respect to the `inputs` you name, and leaves `.grad`
# alone — handy when the gradient is itself a value you want to compute with.

# %% [markdown] lang="zh"
# ## `torch.autograd.grad`
#
# `backward()` 会把梯度累加到每个叶子张量的 `.grad` 上。`torch.autograd.grad(outputs, inputs)`
# 则把 `outputs` 对你指定的 `inputs` 的梯度**直接返回**，不碰 `.grad`——当梯度本身就是你要继续计算的值时，
# 这样用正合适。

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 3).sum()
(dy_dx,) = torch.autograd.grad(y, x)
print("dy/dx =", dy_dx, " x.grad =", x.grad)

# %% [markdown] lang="en"
# That gradient is a plain tensor: no `grad_fn`, a dead end. Now ask for `create_graph=True`:

# %% [markdown] lang="zh"
# 这个梯度只是个普通张量：没有 `grad_fn`，无法再往下求导。现在加上 `create_graph=True`：

# %%
y = (x ** 3).sum()
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
print("dy/dx =", dy_dx)

# %% [markdown] lang="en"
# `dy/dx = 3x²` now has a `grad_fn`: the engine recorded the operations of `PowBackward0` as it ran
# them. Here is the graph *of the gradient* — the backward of `x ** 3` written out as a forward
# computation:

# %% [markdown] lang="zh"
# `dy/dx = 3x²` 现在带有 `grad_fn`：引擎在运行 `PowBackward0` 的同时记录下了其中的运算。
# 下面画出的是**梯度的**计算图——也就是把 `x ** 3` 的反向传播写成了一段前向计算：

# %% tags=["nbval-ignore-output"]
import minigrad.viz

minigrad.viz.graph(dy_dx, names={"x": x, "dy_dx": dy_dx})

# %% [markdown] lang="en"
# That graph was recorded *during* backward. `PowBackward0` computes its gradient as PyTorch's does,
# `grad * (3 * x.pow(2))`, and each of those three operations is recorded: `PowBackward0` (for
# `x.pow(2)`), `MulBackward1` (for `3 * …`, a tensor times a number) and `MulBackward0` (for
# `grad * …`), the same nodes PyTorch records. Replay the same call to `torch.autograd.grad` and
# watch the step where `PowBackward0` runs: the three new nodes appear beside the first graph, each
# saving what *its* backward will need. Notice too that no saved tensor is freed: `retain_graph`
# defaults to the value of `create_graph`, since you will probably backward through the graph again.

# %% [markdown] lang="zh"
# 这张图是在反向传播**进行中**记录下来的。`PowBackward0` 和 PyTorch 一样按 `grad * (3 * x.pow(2))`
# 计算梯度，其中三个运算都被记录下来：`PowBackward0`（对应 `x.pow(2)`）、`MulBackward1`（对应 `3 * …`，
# 张量乘以一个数）和 `MulBackward0`（对应 `grad * …`），与 PyTorch 记录的节点完全相同。回放同一次
# `torch.autograd.grad` 调用，留意 `PowBackward0` 运行的那一步：第一张图旁边冒出这三个新节点，
# 它们各自保存**自己的** backward 将要用到的张量。还要注意，这次没有任何保存的张量被释放：
# `retain_graph` 的默认值等于 `create_graph`，因为你多半还要再沿这张图做一次反向传播。

# %% tags=["nbval-ignore-output"]
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with minigrad.viz.record() as trace:
    y = (x ** 3).sum()
    (dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
minigrad.viz.animate(trace, names={"x": x, "y": y})

# %% [markdown] lang="en"
# Differentiate it once more to get `d²y/dx² = 6x`:

# %% [markdown] lang="zh"
# 再对它求一次导，得到 `d²y/dx² = 6x`：

# %%
(d2y_dx2,) = torch.autograd.grad(dy_dx.sum(), x)
print("d2y/dx2 =", d2y_dx2, "  6 * x =", 6 * x.detach())

# %% [markdown] lang="en"
# Why `dy_dx.sum()`? For an elementwise function, element *i* of the gradient depends only on
# `x[i]`, so the gradient of the sum is exactly the vector of second derivatives. A table for
# `sin`, whose derivatives we know by heart:

# %% [markdown] lang="zh"
# 为什么用 `dy_dx.sum()`？对逐元素函数而言，梯度的第 *i* 个元素只依赖于 `x[i]`，
# 所以对它们的和求梯度，得到的恰好就是各点二阶导数组成的向量。用导数烂熟于心的 `sin` 列个表验证：

# %%
x = torch.tensor([0.0, 0.5, 1.0, 2.0], requires_grad=True)
(first,) = torch.autograd.grad(torch.sin(x).sum(), x, create_graph=True)
(second,) = torch.autograd.grad(first.sum(), x)
print(f"{'x':>5} {'first':>8} {'cos x':>8} {'second':>8} {'-sin x':>8}")
for xi, d1, d2 in zip(x.tolist(), first.tolist(), second.tolist()):
    print(f"{xi:5.2f} {d1:8.4f} {torch.cos(torch.tensor(xi)).item():8.4f} "
          f"{d2:8.4f} {-torch.sin(torch.tensor(xi)).item():8.4f}")

# %% [markdown] lang="en"
# ### Exercise `second_derivative`
#
# Write `second_derivative(f, x)`: for an elementwise function `f` (tensor → tensor) and a tensor
# `x`, return `d²f/dx²` at every element of `x`, as a tensor shaped like `x`. Make your own leaf
# (`x.detach().requires_grad_()`) so that it works whether or not `x` requires grad, and use
# `torch.autograd.grad` twice.

# %% [markdown] lang="zh"
# ### 练习 `second_derivative`
#
# 实现 `second_derivative(f, x)`：对逐元素函数 `f`（张量 → 张量）和张量 `x`，返回 `f` 在 `x`
# 每个元素处的二阶导数 `d²f/dx²`，形状与 `x` 相同。先自己造一个叶子张量
# （`x.detach().requires_grad_()`），这样不管 `x` 本身是否需要梯度都能工作；然后调用两次
# `torch.autograd.grad`。

# %%
def second_derivative(f, x):
    ### BEGIN SOLUTION
    x = x.detach().requires_grad_()
    (first,) = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    (second,) = torch.autograd.grad(first.sum(), x)
    return second
    ### END SOLUTION


# %%
from minigrad.exercises import check

check("second_derivative", second_derivative)

# %% [markdown] lang="en"
# ## Custom Functions and double backward
#
# Built-in ops support this because their backward is written with differentiable tensor
# operations. A custom Function's backward is differentiable only if *you* write it that way.
# Here is a `Cube` whose backward escapes to numpy — a perfectly good *first* derivative:

# %% [markdown] lang="zh"
# ## 自定义 Function 与二次反向传播
#
# 内置运算之所以支持高阶导数，是因为它们的 backward 本身就是用可导的张量运算写成的。
# 自定义 Function 的 backward 是否可导，取决于**你**怎么写。下面这个 `Cube` 的 backward
# 绕道 numpy 计算——作为**一阶**导数它完全正确：

# %%
class NumpyCube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        slope = torch.from_numpy(3 * x.detach().numpy() ** 2)   # leaves the graph  # zh: 离开了计算图
        return grad_output * slope


x = torch.tensor([1.0, 2.0], requires_grad=True)
(first,) = torch.autograd.grad(NumpyCube.apply(x).sum(), x, create_graph=True)
print("first =", first, "  first.requires_grad =", first.requires_grad)
try:
    torch.autograd.grad(first.sum(), x)
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# The first derivative is right (3, 12), but it is disconnected from `x`: the engine never saw the
# numpy arithmetic, so there is nothing to differentiate, and the second `grad` says so. Worse
# cases fail *silently*. This backward computes `3x` in numpy and multiplies it by the saved `x`
# with a tensor op, so the engine records only that last product:

# %% [markdown] lang="zh"
# 一阶导数是对的（3 和 12），但它和 `x` 已经断开了：引擎从来没看到那段 numpy 计算，自然也就无从求导，
# 第二次调用 `grad` 时就报了错。更糟的情况是**悄无声息**地出错。下面这个 backward 先用 numpy 算出 `3x`，
# 再用张量运算乘上保存的 `x`，于是引擎只记录下最后这次乘法：

# %%
class PartlyNumpyCube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        three_x = torch.from_numpy(3 * x.detach().numpy())     # leaves the graph  # zh: 离开了计算图
        return grad_output * three_x * x                        # recorded: this product only  # zh: 被记录的只有这次乘法


x = torch.tensor([1.0, 2.0], requires_grad=True)
(first,) = torch.autograd.grad(PartlyNumpyCube.apply(x).sum(), x, create_graph=True)
(second,) = torch.autograd.grad(first.sum(), x)
print("first =", first.detach(), "  second =", second, "  6 * x =", 6 * x.detach())

# %% [markdown] lang="en"
# The second derivative comes out as `3x` instead of `6x`, and nothing says so. A backward that
# cannot be differentiated should say so: decorate it with `@once_differentiable` (from
# `torch.autograd.function`). It then runs with grad mode off, so it records nothing at all, and
# what happens next depends on the gradient that comes in:

# %% [markdown] lang="zh"
# 二阶导数算成了 `3x` 而不是 `6x`，而且没有任何提示。不可导的 backward 就应该明说：用
# `@once_differentiable`（在 `torch.autograd.function` 中）修饰它。这样它运行时梯度模式是关闭的，
# 什么都不会记录；接下来会发生什么，取决于传进来的梯度：

# %%
from minigrad.autograd.function import once_differentiable


class OnceCube(PartlyNumpyCube):
    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        return PartlyNumpyCube.backward(ctx, grad_output)


x = torch.tensor([1.0, 2.0], requires_grad=True)
(first,) = torch.autograd.grad(OnceCube.apply(x).sum(), x, create_graph=True)
print("y.sum():       first =", first, "  requires_grad:", first.requires_grad)
try:
    torch.autograd.grad(first.sum(), x)
except RuntimeError as error:
    show_error(error)

y = OnceCube.apply(x)
(first,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
print("(y * y).sum(): first =", first)
try:
    first.sum().backward()
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# - In the usual case, the loss built from the output directly (`y.sum()`), the incoming
#   gradient does not require grad, so neither does the result: a second `grad` raises the same
#   generic error as `NumpyCube` did.
# - When the incoming gradient requires grad (`(y * y).sum()` sends `2y` into the node), the
#   result hangs from an `Error` node, and a backward through it raises the decorator's own
#   message. (`torch.autograd.grad(first.sum(), x)` stops earlier, with "appears to not have been
#   used in the graph": the `Error` node has no edge back to `x`.)
#
# Either way an error, never a wrong number. (With PyTorch, the import is
# `from torch.autograd.function import once_differentiable`.)
#
# ### Exercise `cube_double_backward`
#
# Write `Cube`: `Cube.apply(x)` = `x³`, with a backward written in minigrad tensor operations on the
# saved tensor, so that `create_graph=True` gives the right second derivative, `6x`.

# %% [markdown] lang="zh"
# - 通常情况下，损失直接由输出构造（`y.sum()`），传进来的梯度不需要梯度，结果也就不需要梯度：
#   第二次调用 `grad` 报的是和上面 `NumpyCube` 一样的通用错误。
# - 当传进来的梯度需要梯度时（`(y * y).sum()` 传给这个节点的是 `2y`），结果挂在一个 `Error` 节点下面，
#   沿它做反向传播时，报的才是这个修饰器自己的错误信息。（`torch.autograd.grad(first.sum(), x)`
#   会更早报错，说 x “appears to not have been used in the graph”：`Error` 节点没有通回 `x` 的边。）
#
# 无论哪种情况，结果都是报错，而不是错误的数字。（在 PyTorch 中导入语句是
# `from torch.autograd.function import once_differentiable`。）
#
# ### 练习 `cube_double_backward`
#
# 实现 `Cube`：`Cube.apply(x)` = `x³`，backward 用 minigrad 的张量运算作用在保存的张量上写成，
# 使得 `create_graph=True` 时能得到正确的二阶导数 `6x`。

# %%
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        ctx.save_for_backward(x)
        return x ** 3
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x ** 2
        ### END SOLUTION


# %%
check("cube_double_backward", Cube)

# %% [markdown] lang="en"
# `torch.autograd.gradgradcheck` does for second derivatives what `gradcheck` does for first ones:
# it runs gradcheck on the gradient computed with `create_graph=True`. Every built-in op of minigrad
# passes it, for example `tanh`:

# %% [markdown] lang="zh"
# `torch.autograd.gradgradcheck` 之于二阶导数，正如 `gradcheck` 之于一阶导数：它对用
# `create_graph=True` 算出的梯度再跑一遍 gradcheck。minigrad 的每个内置运算都能通过，比如 `tanh`：

# %%
x64 = torch.tensor([-1.0, 0.3, 2.0], dtype=torch.float64, requires_grad=True)
print("gradcheck:    ", torch.autograd.gradcheck(torch.tanh, (x64,)))
print("gradgradcheck:", torch.autograd.gradgradcheck(torch.tanh, (x64,)))

# %% [markdown] lang="en"
# ## Putting it to work: Newton's method
#
# Gradient descent steps by `-lr · f'(x)` and needs a well-chosen learning rate. Newton's method
# uses the curvature instead: `x ← x - f'(x) / f''(x)`. Let us minimise
# `f(x) = x⁴ - 3x² + x` starting at `x = 2`, with both derivatives from autograd:

# %% [markdown] lang="zh"
# ## 实际应用：牛顿法
#
# 梯度下降每步走 `-lr · f'(x)`，需要精心挑选学习率。牛顿法则利用曲率：`x ← x - f'(x) / f''(x)`。
# 我们从 `x = 2` 出发最小化 `f(x) = x⁴ - 3x² + x`，两个导数都由自动求导给出：

# %%
def f(x):
    return x ** 4 - 3 * x ** 2 + x


x = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
print(f"{'step':>4} {'x':>12} {'f(x)':>12} {'f1(x)':>12} {'f2(x)':>10}")
for step in range(7):
    (d1,) = torch.autograd.grad(f(x), x, create_graph=True)
    (d2,) = torch.autograd.grad(d1, x)
    print(f"{step:>4} {x.item():12.8f} {f(x).item():12.8f} {d1.item():12.2e} {d2.item():10.4f}")
    with torch.no_grad():
        x -= d1 / d2

# %% [markdown] lang="en"
# The derivative falls from 21 to about 1e-13 in six steps: near a minimum, Newton's method doubles
# the number of correct digits at every step. (With `f''` ≤ 0 it would head for a maximum instead,
# which is why real optimisers guard it.)
#
# ## Summary
#
# - `torch.autograd.grad(outputs, inputs)` returns gradients instead of accumulating them.
# - `create_graph=True` records backward's own operations; the gradient can be differentiated again.
# - A custom Function supports double backward only if its backward uses differentiable tensor ops;
#   `once_differentiable` marks one that does not; `gradgradcheck` tests it.

# %% [markdown] lang="zh"
# 六步之内导数就从 21 降到约 1e-13：在极小值附近，牛顿法每走一步，正确的有效数字位数大约翻一倍。
# （如果 `f''` ≤ 0，它反而会奔向极大值，所以实际的优化器都会对此加以防范。）
#
# ## 小结
#
# - `torch.autograd.grad(outputs, inputs)` 直接返回梯度，而不是累加到 `.grad`。
# - `create_graph=True` 会把反向传播自己的运算也记录下来，得到的梯度还能继续求导。
# - 自定义 Function 只有在 backward 用可导的张量运算写成时才支持二次反向传播；
#   不可导的用 `once_differentiable` 标明；用 `gradgradcheck` 检验。

# %% [markdown] lang="en"
# ## Read the code
#
# `torch.autograd.grad` is `run_backward` with captures: look for the edges of the inputs
# handed to the engine, and `accumulate=False`, which leaves `.grad` alone. With
# `create_graph=True` the engine runs the nodes with grad mode on (the line of lesson 03's
# `run_backward` that sets grad mode to `create_graph`), so a backward written in tensor ops, as
# `Sin`'s is, records a graph of its own.
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# `torch.autograd.grad` 就是带捕获（captures）的 `run_backward`：留意输入的边怎样交给引擎，
# 以及让 `.grad` 保持不变的 `accumulate=False`。指定 `create_graph=True` 时，引擎在开启梯度模式的情况下运行各个节点
# （第 03 讲 `run_backward` 里把梯度模式设为 `create_graph` 的那一行），所以像 `Sin` 这样用张量运算写成的 backward 会记录下它自己的计算图。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.surface.api import grad
from minigrad.lessons import show_source
from minigrad.ops import unary

show_source(grad, unary.Sin)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("12-gradient-has-a-graph")

# %% [markdown] lang="en"
# Next lesson goes deeper into double backward: Jacobians, Hessians, and custom Functions that
# can be differentiated twice.

# %% [markdown] lang="zh"
# 下一讲深入讲解二次反向传播：雅可比矩阵、Hessian 矩阵，以及能求两次导的自定义 Function。
