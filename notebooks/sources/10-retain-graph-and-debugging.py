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
# Three tools for when backward does not do what you expect:
#
# 1. the "backward through the graph a second time" error, and `retain_graph`;
# 2. `gradcheck`, which tests a hand-written backward against finite differences;
# 3. anomaly mode, which tells you *which forward line* produced a NaN gradient.

# %% [markdown] lang="zh"
# 当反向传播的结果和预期不一样时，有三件工具可用：
#
# 1. “第二次对计算图做反向传播”的报错，以及 `retain_graph`；
# 2. `gradcheck`：用有限差分检验你手写的 backward；
# 3. 异常检测模式（anomaly mode）：告诉你 NaN 梯度是**前向中哪一行**造成的。

# %%
import minigrad as torch
from minigrad.lessons import show_error

# %% [markdown] lang="en"
# ## The second time
#
# Call `backward()` twice on the same output:

# %% [markdown] lang="zh"
# ## 第二次反向传播
#
# 对同一个输出调用两次 `backward()`：

# %%
import minigrad.viz

x = torch.tensor([1.0, 2.0], requires_grad=True)
with minigrad.viz.record() as trace:
    y = (x.exp() * x).sum()
    y.backward()
    print("x.grad =", x.grad)
    try:
        y.backward()
    except RuntimeError as error:
        show_error(error)

# %% [markdown] lang="en"
# The graph is still there — `y.grad_fn` and its `next_functions` did not go away. What is gone
# are the **saved tensors**: right after each node runs in a backward without `retain_graph`, the
# engine frees what that node saved, so memory returns while backward is still going.
#
# The player replays both calls. In the first backward, watch the saved tensors beside each node
# (orange while held) turn grey, freed, as soon as their node has run, and the memory chart fall to
# 0 B. In the second, `MulBackward0` starts, but the tensors it needs are already grey: that is
# where the error is raised, and where the replay stops.

# %% [markdown] lang="zh"
# 计算图其实还在——`y.grad_fn` 和它的 `next_functions` 都没有消失。消失的是**保存的张量**：
# 在没有 `retain_graph` 的反向传播中，每个节点一运行完，引擎就释放它保存的张量，
# 所以内存在反向传播进行的过程中就逐步归还了。
#
# 下面的播放器把这两次调用都回放出来。第一次反向传播时，留意每个节点旁边保存的张量（被持有时是橙色）：
# 节点一运行完，它们就变成灰色，表示已被释放；内存图也随之降到 0 B。第二次反向传播时，
# `MulBackward0` 开始运行，可它要用的张量早已是灰色——报错就发生在这里，回放也停在这里。

# %% tags=["nbval-ignore-output"]
minigrad.viz.animate(trace, names={"x": x, "y": y})

# %% [markdown] lang="en"
# The error is about saved tensors, not about the graph: a graph whose nodes saved nothing (`+`
# and `sum` need no values for their gradients) can be run backward again, and the gradients
# simply accumulate.

# %% [markdown] lang="zh"
# 所以这个报错针对的是保存的张量，而不是计算图本身：如果图中的节点什么都没保存
# （`+` 和 `sum` 求梯度时不需要任何数值），再做一次反向传播是可以的，梯度会照常累加。

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
z = (x + 1).sum()
z.backward()
z.backward()
print("x.grad =", x.grad)

# %% [markdown] lang="en"
# ## `retain_graph=True`
#
# When you really need a second pass, keep the saved tensors with `retain_graph=True`. Gradients
# accumulate into `.grad` on every pass:

# %% [markdown] lang="zh"
# ## `retain_graph=True`
#
# 如果确实需要第二次反向传播，就用 `retain_graph=True` 保留保存的张量。
# 每做一次，梯度都会累加到 `.grad` 上：

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x.exp() * x).sum()
for step in range(1, 4):
    y.backward(retain_graph=True)
    print(step, "x.grad =", x.grad)

# %% [markdown] lang="en"
# Compare with the replay above: one backward with `retain_graph=True`, then one without. In the
# first, the saved tensors turn blue when their node unpacks them and *stay*: the memory chart
# does not fall. Only the last backward, without `retain_graph`, frees them.

# %% [markdown] lang="zh"
# 和上面的回放对比一下：先做一次带 `retain_graph=True` 的反向传播，再做一次不带的。
# 第一次反向传播中，保存的张量被节点解包时变成蓝色，之后**一直留着**，内存图不会下降；
# 直到最后那次不带 `retain_graph` 的反向传播，它们才被释放。

# %% tags=["nbval-ignore-output"]
x = torch.tensor([1.0, 2.0], requires_grad=True)
with minigrad.viz.record() as trace:
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    y.backward()
minigrad.viz.animate(trace, view="backward", names={"x": x, "y": y})

# %% [markdown] lang="en"
# A common reason to want it: two losses that share a trunk. Two backwards need `retain_graph=True`
# on the first; summing the losses needs one backward and no retained graph, and gives the same
# gradients — usually the better choice.

# %% [markdown] lang="zh"
# 一个常见的场景：两个损失共用同一段网络主干。分开做两次反向传播，第一次必须加 `retain_graph=True`；
# 而把两个损失加起来，只需一次反向传播，也不必保留计算图，得到的梯度完全相同——通常这是更好的做法。

# %%
def trunk_and_losses(w):
    features = (w * torch.tensor([1.0, -2.0, 3.0])).tanh()   # shared trunk  # zh: 共用的主干
    return (features ** 2).sum(), features.sum()


w = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
loss_a, loss_b = trunk_and_losses(w)
loss_a.backward(retain_graph=True)
loss_b.backward()
two_passes = w.grad.clone()

w.grad = None
loss_a, loss_b = trunk_and_losses(w)
(loss_a + loss_b).backward()
print("loss_a.backward(retain_graph=True); loss_b.backward():", two_passes)
print("(loss_a + loss_b).backward():                         ", w.grad)
print("allclose:", torch.allclose(two_passes, w.grad))

# %% [markdown] lang="en"
# ### Exercise `separate_gradients`
#
# Sometimes you do need each loss's own gradient, for instance to compare how hard the two
# losses pull on the shared weights. Write `separate_gradients(loss_a, loss_b, w)`: given two
# losses built on one graph, return `(gradient of loss_a, gradient of loss_b)` with respect to
# `w`, without running forward again. Three things to get right: keep the saved tensors for the
# second pass (and only for it), keep the first gradient from being added to by the second
# (`.grad` accumulates), and let the last backward free the graph.

# %% [markdown] lang="zh"
# ### 练习 `separate_gradients`
#
# 有时确实需要每个损失各自的梯度，比如想比较两个损失对共享权重的“拉力”各有多大。请实现
# `separate_gradients(loss_a, loss_b, w)`：给定建在同一张计算图上的两个损失，不再重新做前向传播，
# 返回 `(loss_a 对 w 的梯度, loss_b 对 w 的梯度)`。有三点要做对：为第二次反向传播保留保存的张量
# （只为它保留）；别让第一个梯度被第二次反向传播累加上去（`.grad` 会累加）；让最后一次反向传播释放计算图。

# %%
def separate_gradients(loss_a, loss_b, w):
    ### BEGIN SOLUTION
    loss_a.backward(retain_graph=True)
    grad_a = w.grad.clone()
    w.grad = None
    loss_b.backward()
    return grad_a, w.grad
    ### END SOLUTION


# %%
from minigrad.exercises import check

check("separate_gradients", separate_gradients)

# %% [markdown] lang="en"
# ## gradcheck: is my backward right?
#
# A hand-written backward can be wrong and still run. `torch.autograd.gradcheck(f, inputs)` compares
# the Jacobian your backward implies with a numerical one from central differences,
# $\big(f(x+\varepsilon) - f(x-\varepsilon)\big) / 2\varepsilon$, element by element. Here is a
# Sigmoid whose backward forgot a factor:

# %% [markdown] lang="zh"
# ## gradcheck：我的 backward 写对了吗？
#
# 手写的 backward 即使写错了也照样能运行。`torch.autograd.gradcheck(f, inputs)` 会逐个元素比较
# 两个雅可比矩阵：一个由你的 backward 得出，另一个用中心差分
# $\big(f(x+\varepsilon) - f(x-\varepsilon)\big) / 2\varepsilon$ 数值计算。
# 下面这个 Sigmoid 的 backward 漏掉了一个因子：

# %%
class BuggySigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = 1 / (1 + (-x).exp())
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output * out          # the right formula: grad_output * out * (1 - out)  # zh: 正确的公式：grad_output * out * (1 - out)


x = torch.tensor([-1.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
try:
    torch.autograd.gradcheck(BuggySigmoid.apply, (x,))
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# Row = input element, column = output element: the diagonal is off, by exactly the missing
# `(1 - out)`. The built-in passes:

# %% [markdown] lang="zh"
# 行对应输入元素，列对应输出元素：对角线上的值不对，差的正好是漏掉的 `(1 - out)`。内置的版本则能通过：

# %%
print(torch.autograd.gradcheck(torch.sigmoid, (x,)))

# %% [markdown] lang="en"
# Why `dtype=torch.float64`? Finite differences subtract two nearly equal numbers. The table shows
# the error of the central difference of `sin` at 1 (the true derivative is `cos 1`) for several
# step sizes: in float32, a step of 1e-6 is lost in rounding; in float64 it is accurate to 1e-10 or better.

# %% [markdown] lang="zh"
# 为什么要用 `dtype=torch.float64`？有限差分是两个非常接近的数相减。下表给出不同步长下，
# 在 1 处对 `sin` 做中心差分的误差（真实导数是 `cos 1`）：float32 下 1e-6 的步长完全淹没在舍入误差里；
# 而 float64 下用同样的步长，误差在 1e-10 以内。

# %%
import numpy as np

from minigrad.lessons import say

print(say("|central difference - cos 1| for sin at 1:", "在 1 处对 sin 做中心差分，与 cos 1 之差的绝对值："))
print(f"{'eps':>8} {'float32':>14} {'float64':>14}")
for eps in (1e-2, 1e-4, 1e-6):
    errors = []
    for dtype in (np.float32, np.float64):
        one, step = dtype(1.0), dtype(eps)
        estimate = (np.sin(one + step) - np.sin(one - step)) / (2 * step)
        errors.append(abs(float(estimate) - np.cos(1.0)))
    print(f"{eps:>8.0e} {errors[0]:>14.2e} {errors[1]:>14.2e}")

# %% [markdown] lang="en"
# ## Anomaly mode: where did the NaN come from?
#
# A classic trap: `torch.where` to avoid `log(0)`. The forward looks safe, yet the gradient is NaN:

# %% [markdown] lang="zh"
# ## 异常检测模式：NaN 是从哪里来的？
#
# 一个经典陷阱：用 `torch.where` 来避开 `log(0)`。前向看起来很安全，梯度却是 NaN：

# %%
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = torch.where(x > 0, torch.log(x), torch.zeros_like(x))
print("y =", y)
y.sum().backward()
print("x.grad =", x.grad)

# %% [markdown] lang="en"
# `where` sends a gradient of 0 to the `log` branch at `x = 0`, but `log`'s backward computes
# `0 / x = 0 / 0 = NaN` anyway. In a real model, that NaN surfaces thousands of ops later. Under
# `torch.autograd.detect_anomaly()`, every node remembers the forward line that created it, and a
# node whose backward returns NaN raises at once, naming itself; just before the error, a warning
# shows the forward stack of that node (as PyTorch's does).

# %% [markdown] lang="zh"
# `where` 在 `x = 0` 处传给 `log` 分支的梯度是 0，但 `log` 的 backward 还是会计算 `0 / x = 0 / 0 = NaN`。
# 在真实模型里，这个 NaN 可能要过上千个运算之后才冒出来。在 `torch.autograd.detect_anomaly()` 下，
# 每个节点都会记住创建它的那行前向代码；一旦某个节点的 backward 返回 NaN，就立即报错并说出自己的名字；
# 报错之前，还会有一条警告打印出这个节点的前向调用栈（和 PyTorch 一样）。

# %% tags=["nbval-ignore-output"]
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
try:
    with torch.autograd.detect_anomaly():
        y = torch.where(x > 0, torch.log(x), torch.zeros_like(x))
        y.sum().backward()
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# The warning "Error detected in LogBackward0" holds the forward stack of the failing node, the
# oldest call first. Skip the lines of
# Jupyter's own machinery at the top: the last one is the line of your cell with `torch.log(x)`,
# as in PyTorch (minigrad leaves out its own calls below it). The fix is to make the unused
# branch harmless *before* the op: feed `log` a safe value where the mask is false.

# %% [markdown] lang="zh"
# 警告 `Error detected in LogBackward0` 里是出错节点的前向调用栈，最早的调用排在最前面。开头那些是 Jupyter 自身的调用，可以跳过；
# 调用栈的最后一项就是你单元格里写着 `torch.log(x)` 的那一行，和 PyTorch 一样（minigrad 不列出它自己内部的调用）。
# 修复方法是在运算**之前**就让不用的分支变得无害：在掩码为假的位置给 `log` 喂一个安全的值。

# %%
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
safe_x = torch.where(x > 0, x, torch.ones_like(x))
y = torch.where(x > 0, torch.log(safe_x), torch.zeros_like(x))
y.sum().backward()
print("x.grad =", x.grad)

# %% [markdown] lang="en"
# Anomaly mode makes every op record a stack trace, so it is slow: turn it on to hunt a bug, then off.
#
# ## Summary
#
# | symptom | tool |
# |---|---|
# | "Trying to backward through the graph a second time" | `retain_graph=True`, or better: sum the losses, one backward |
# | a custom backward you are not sure of | `gradcheck` with float64 inputs |
# | each of two losses' gradients, one forward | `retain_graph=True` on the first backward only |
# | NaN gradients from nowhere | `torch.autograd.detect_anomaly()` |

# %% [markdown] lang="zh"
# 异常检测模式会让每个运算都记录调用栈，所以很慢：查 bug 时打开，查完就关掉。
#
# ## 小结
#
# | 现象 | 工具 |
# |---|---|
# | “Trying to backward through the graph a second time” | `retain_graph=True`；更好的办法：把损失加起来，只做一次反向传播 |
# | 拿不准自己写的 backward 对不对 | 用 float64 输入跑 `gradcheck` |
# | 一次前向传播，分别求两个损失的梯度 | 只在第一次 backward 时用 `retain_graph=True` |
# | 莫名其妙的 NaN 梯度 | `torch.autograd.detect_anomaly()` |

# %% [markdown] lang="en"
# ## Read the code
#
# After running a node, the engine calls `release_saved` unless `retain_graph` was given: each
# `SavedTensor` is marked freed and lets go of its data, which is what the “second time” error
# reports. In anomaly mode the engine runs each node through `run_checked`, which looks for NaN in
# what the node returned and adds the forward call's stack to any error.
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# 引擎运行完一个节点后，如果没有指定 `retain_graph`，就调用 `release_saved`：
# 每个 `SavedTensor` 都被标记为已释放，并丢掉它的数据——“第二次反向传播”报错说的就是这件事。
# 在异常检测模式下，引擎通过 `run_checked` 运行每个节点：它检查节点返回的梯度里有没有 NaN，
# 并给任何报错附上前向调用时的调用栈。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.core.function import BackwardNode
from minigrad.lessons import show_source
from minigrad.surface import anomaly

show_source(BackwardNode.release_saved, anomaly.run_checked)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("10-twice-without-retain")

# %% [markdown] lang="en"
# Next lesson: three bug hunts with these tools: an overflow, a NaN, an in-place change
# through a view.

# %% [markdown] lang="zh"
# 下一讲：用这些工具排查三个错误：溢出、NaN，以及通过视图的原地修改。
