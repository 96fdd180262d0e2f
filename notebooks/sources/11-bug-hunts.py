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
# Lesson 10 gave the tools: the "second time" error and `retain_graph`, `gradcheck`, anomaly mode.
# This lesson uses them on three bugs that real models meet, each hunted the way you would hunt
# it in your own code:
#
# 1. a loss that overflows to `inf`: log-sum-exp, made stable (exercise `logsumexp`, which you
#    check yourself with `gradcheck` first);
# 2. a NaN gradient from a forward without a NaN in it: the distance of a point to itself
#    (exercise `pairwise_distances`);
# 3. a tensor "modified by an inplace operation" through a view (exercise `fix_inplace`).
#
# Apart from the checks and the cells that draw or replay with `minigrad.viz`, every cell also
# runs on PyTorch itself: write `import torch` in place of `import minigrad as torch`.

# %% [markdown] lang="zh"
# 第 10 讲介绍了几件工具：“第二次反向传播”报错与 `retain_graph`、`gradcheck`、异常检测模式。
# 这一讲用它们对付真实模型里常见的三种错误，每一种都按你在自己的代码里排查的方式来找：
#
# 1. 溢出成 `inf` 的损失：把 log-sum-exp 改写得数值稳定（练习 `logsumexp`，先由你自己用 `gradcheck` 检验）；
# 2. 前向计算里没有 NaN，梯度却是 NaN：一个点到它自身的距离（练习 `pairwise_distances`）；
# 3. 通过视图“被原地操作修改”的张量（练习 `fix_inplace`）。
#
# 除了检查单元格和用 `minigrad.viz` 画图、回放的单元格，每个单元格在 PyTorch 上也能照样运行：
# 把 `import minigrad as torch` 换成 `import torch` 即可。

# %%
import warnings

import minigrad as torch
import minigrad.viz
from minigrad.exercises import check
from minigrad.lessons import say, show_error

# %% [markdown] lang="en"
# ## Overflow: log-sum-exp
#
# The log of a sum of exponentials, `log Σⱼ exp(xⱼ)`, is everywhere: in cross-entropy, in
# attention, in the log-likelihood of any softmax. Written as it reads, it breaks on large
# inputs:

# %% [markdown] lang="zh"
# ## 溢出：log-sum-exp
#
# 指数和的对数 `log Σⱼ exp(xⱼ)` 随处可见：交叉熵、注意力机制，以及任何 softmax 的对数似然里都有它。
# 照字面写出来，遇到大的输入就会出问题：

# %%
x = torch.tensor([[1.0, 2.0, 3.0], [1000.0, 1001.0, 1002.0]], requires_grad=True)
naive = x.exp().sum(dim=1).log()
print("naive: ", naive)
naive.sum().backward()
print("x.grad:", x.grad)

# %% [markdown] lang="en"
# `exp(1000)` is beyond the largest float32, about 3.4e38 (float32's `exp` overflows above
# 88.7, float64's above 709.8), so the second row is `inf`, and its gradient, the softmax
# `exp(x) / Σ exp(x)` = inf / inf, is NaN. The cure is an identity: for any number `m`,
# `log Σ exp(x) = m + log Σ exp(x - m)`. With `m` the row's maximum, the largest term is
# `exp(0) = 1`: nothing overflows, and the sum cannot underflow to 0 either. PyTorch's
# `torch.logsumexp` does exactly this:

# %% [markdown] lang="zh"
# `exp(1000)` 超出了 float32 能表示的最大值（约 3.4e38；float32 的 `exp` 在 88.7 以上就会溢出，
# float64 在 709.8 以上），所以第二行是 `inf`，而它的梯度，也就是 softmax `exp(x) / Σ exp(x)` = inf / inf，
# 是 NaN。解决办法是一个恒等式：对任意数 `m`，都有 `log Σ exp(x) = m + log Σ exp(x - m)`。
# 取 `m` 为这一行的最大值，最大的那一项就是 `exp(0) = 1`：什么都不会溢出，和也不会下溢成 0。
# PyTorch 的 `torch.logsumexp` 正是这样做的：

# %%
print("torch.logsumexp:", torch.logsumexp(x, dim=1))

# %% [markdown] lang="en"
# ### Exercise `logsumexp`
#
# Write `LogSumExp`: `LogSumExp.apply(x)` is the log-sum-exp over the last dimension of `x`
# (one value per row of a 2-d `x`), with no overflow and no underflow, in forward and in
# backward. The gradient of log-sum-exp with respect to a row is that row's softmax,
# `exp(x - result)`: design the backward from what you save. Before you run the check, test
# your Function yourself: the cell after it runs `gradcheck` (lesson 10) on float64 inputs,
# small ones and large ones.

# %% [markdown] lang="zh"
# ### 练习 `logsumexp`
#
# 实现 `LogSumExp`：`LogSumExp.apply(x)` 沿 `x` 的最后一维计算 log-sum-exp（二维的 `x` 每行得到一个值），
# 前向和反向都不能溢出或下溢。log-sum-exp 对一行的梯度就是这一行的 softmax，即 `exp(x - result)`：
# 根据你保存的东西来设计 backward。运行检查之前，先自己检验一下：下一个单元格用 `gradcheck`（第 10 讲）
# 在 float64 输入上检验你的 Function，输入有小的，也有大的。

# %%
class LogSumExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        largest = x.max(dim=-1, keepdim=True).values
        result = largest.squeeze(-1) + (x - largest).exp().sum(dim=-1).log()
        ctx.save_for_backward(x, result)
        return result
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        x, result = ctx.saved_tensors
        softmax = (x - result.unsqueeze(-1)).exp()
        return grad_output.unsqueeze(-1) * softmax
        ### END SOLUTION


# %%
torch.manual_seed(0)
small = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
large = (torch.randn(3, 4, dtype=torch.float64) + 1000).requires_grad_()
for inputs in (small, large):
    try:
        print(torch.autograd.gradcheck(LogSumExp.apply, (inputs,)))
    except NotImplementedError:
        print(say("(write LogSumExp first)", "（请先写好 LogSumExp）"))
        break
    except RuntimeError as error:        # gradcheck's verdict on a wrong Function  # zh: gradcheck 对错误的 Function 给出的结论
        show_error(error)

# %%
check("logsumexp", LogSumExp)

# %% [markdown] lang="en"
# ## A NaN from nowhere: the distance of a point to itself
#
# Distances between points are the heart of k-means, of nearest neighbours, of contrastive
# losses. Here are two points, all their pairwise distances, and a loss of them. The forward has
# no NaN; the gradient has nothing else:

# %% [markdown] lang="zh"
# ## 凭空冒出的 NaN：一个点到它自身的距离
#
# 点与点之间的距离是 k-means、最近邻、对比损失的核心。下面有两个点，算出它们两两之间的距离，
# 再由这些距离构造一个损失。前向计算里没有 NaN，梯度里却全是 NaN：

# %%
def pairwise_distances_naive(points):
    differences = points[:, None, :] - points[None, :, :]
    return (differences ** 2).sum(dim=-1).sqrt()


points = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
distances = pairwise_distances_naive(points)
print("distances:  ", distances)
distances.sum().backward()
print("points.grad:", points.grad)

# %% [markdown] lang="en"
# Anomaly mode names the first node whose backward *returns* NaN (its warning, not shown here,
# holds the forward line that made that node, as in lesson 10):

# %% [markdown] lang="zh"
# 异常检测模式会指出第一个**返回** NaN 的节点（它的警告里有创建这个节点的那行前向代码，这里没有显示，
# 和第 10 讲一样）：

# %%
points = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.detect_anomaly():
        try:
            pairwise_distances_naive(points).sum().backward()
        except RuntimeError as error:
            show_error(error)

# %% [markdown] lang="en"
# `PowBackward0`, the `** 2`: yet squaring is harmless. Anomaly mode stops where the NaN
# appears, and the cause is often one node earlier, where an *infinity* was born, which anomaly
# mode does not look for. Hooks (lesson 08) make good probes: one on each intermediate prints
# the gradient that flows into it.

# %% [markdown] lang="zh"
# 是 `PowBackward0`，也就是 `** 2`：可平方本身是无害的。异常检测模式停在 NaN 出现的地方，
# 而原因往往在前一个节点：那里先产生了一个**无穷大**，而异常检测模式并不检查无穷大。
# 钩子（第 08 讲）是很好的探针：在每个中间结果上挂一个，打印流进它的梯度。

# %%
points = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
differences = points[:, None, :] - points[None, :, :]
squared = (differences ** 2).sum(dim=-1)
distances = squared.sqrt()
squared.register_hook(lambda grad: print(say("gradient of squared:", "squared 的梯度："), grad, sep="\n"))
differences.register_hook(lambda grad: print(say("gradient of differences:", "differences 的梯度："), grad, sep="\n"))
distances.sum().backward()

# %% [markdown] lang="en"
# A point and itself are at distance 0, and `sqrt`'s derivative there, `1 / (2·sqrt(0))`, is
# `inf`. `PowBackward0` then multiplies it by `2·(xᵢ - xⱼ) = 0`, and inf × 0 is NaN. The NaN
# was decided before the `sqrt` ran: its input was 0. Lesson 10 met the same trap with `log`,
# and the same fix works: give the op a harmless input where its value is not used.
#
# ### Exercise `pairwise_distances`
#
# Write `pairwise_distances(points)`: for `points` of shape (n, d), the (n, n) matrix of
# Euclidean distances, exact (0 where two points coincide), with a gradient that has no NaN:
# 0 where a distance is 0, as PyTorch's own norms give. Build it from elementwise ops.
# (PyTorch's `torch.cdist` is the ready-made op.)

# %% [markdown] lang="zh"
# 一个点到它自身的距离是 0，而 `sqrt` 在那里的导数 `1 / (2·sqrt(0))` 是 `inf`。接着 `PowBackward0`
# 把它乘以 `2·(xᵢ - xⱼ) = 0`，而 inf × 0 就是 NaN。其实在 `sqrt` 运行之前，NaN 就已经注定了：
# 它的输入是 0。第 10 讲里 `log` 也遇到过同样的陷阱，同样的修复办法在这里也管用：
# 在运算的结果用不到的地方，给它一个无害的输入。
#
# ### 练习 `pairwise_distances`
#
# 实现 `pairwise_distances(points)`：对形状为 (n, d) 的 `points`，返回 (n, n) 的欧几里得距离矩阵。
# 距离必须精确（两个点重合时为 0），梯度里不能有 NaN：距离为 0 的地方梯度为 0，和 PyTorch 自己的范数一样。
# 用逐元素运算来构造。（PyTorch 现成的运算是 `torch.cdist`。）

# %%
def pairwise_distances(points):
    ### BEGIN SOLUTION
    differences = points[:, None, :] - points[None, :, :]
    squared = (differences ** 2).sum(dim=-1)
    zero = squared == 0
    safe = torch.where(zero, torch.ones_like(squared), squared)
    return torch.where(zero, torch.zeros_like(squared), safe.sqrt())
    ### END SOLUTION


# %%
check("pairwise_distances", pairwise_distances)

# %% [markdown] lang="en"
# ## An in-place change through a view
#
# The last bug raises an error rather than hiding. A layer that zeroes the first column of its
# activations, in place:

# %% [markdown] lang="zh"
# ## 通过视图的原地修改
#
# 最后这个错误不会藏起来，而是直接报错。下面这一层把激活值的第一列原地置零：

# %%
def features(x, w):
    h = x @ w
    h += 1
    a = h.sigmoid()
    a[:, 0] = 0.0
    b = a * a
    b.clamp_(max=0.5)
    return b.sum(dim=1)


x = torch.tensor([[0.5, -1.0], [2.0, 0.3], [-0.7, 1.2]], requires_grad=True)
w = torch.tensor([[1.0, -0.5, 0.2], [0.3, 0.8, -1.0]], requires_grad=True)
try:
    features(x, w).sum().backward()
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# Three in-place ops, and the error names none of them. It names a tensor: "output 0 of
# Sigmoid", saved by `SigmoidBackward0` at version 0 and found at version 1. The replay tells the
# story in order. Step through it: during forward, `a[:, 0] = 0.0` records a node, `CopySlices`
# (PyTorch's node for a write through a view into its base), and the frame says it bumps the
# version of the tensor `SigmoidBackward0` saved; during backward, that node's version check
# fails.

# %% [markdown] lang="zh"
# 这里有三处原地操作，报错却一处都没点名。它点名的是一个张量：“output 0 of Sigmoid”，
# 它被 `SigmoidBackward0` 保存时是版本 0，用的时候已经是版本 1。回放按先后顺序讲清了来龙去脉。
# 一步步看：前向传播时，`a[:, 0] = 0.0` 记录下一个节点 `CopySlices`（PyTorch 用它表示通过视图写回其基张量），
# 画面说明它让 `SigmoidBackward0` 保存的张量版本加了一；反向传播时，这个节点的版本检查失败了。

# %% tags=["nbval-ignore-output"]
with minigrad.viz.record() as trace:
    y = features(x, w)
    try:
        y.sum().backward()
    except RuntimeError:
        pass
minigrad.viz.animate(trace, names={"x": x, "w": w})

# %% [markdown] lang="en"
# `h += 1` is harmless: `h` is nobody's saved tensor (`MmBackward0` saved `x` and `w`). So is
# `b.clamp_(max=0.5)`: `MulBackward0` saved `a`, not `b`. The culprit is `a[:, 0] = 0.0`, a write
# into `a` through the view `a[:, 0]`: a view shares its base's version counter. In a long model
# anomaly mode narrows the search: its warning shows the forward line that made the failing node,
# here `a = h.sigmoid()`, and its error says where to look: "The variable in question was changed
# in there or anywhere later."
#
# ### Exercise `fix_inplace`
#
# Write `features_fixed(x, w)`: the values of `features`, with a backward that works and gives
# the gradients `features` means (those finite differences of it give). Change as little as you
# can.

# %% [markdown] lang="zh"
# `h += 1` 没有问题：`h` 不是任何节点保存的张量（`MmBackward0` 保存的是 `x` 和 `w`）。
# `b.clamp_(max=0.5)` 也没问题：`MulBackward0` 保存的是 `a`，不是 `b`。罪魁祸首是 `a[:, 0] = 0.0`：
# 它通过视图 `a[:, 0]` 写入了 `a`，而视图和它的基张量共用同一个版本计数器。在很长的模型里，
# 异常检测模式能缩小搜索范围：它的警告给出创建出错节点的那行前向代码，这里是 `a = h.sigmoid()`；
# 它的报错则告诉你去哪里找：“The variable in question was changed in there or anywhere later.”
#
# ### 练习 `fix_inplace`
#
# 实现 `features_fixed(x, w)`：与 `features` 的值相同，但 backward 能正常运行，并且给出 `features`
# 本应有的梯度（也就是对它做有限差分得到的梯度）。改动越少越好。

# %%
def features_fixed(x, w):
    ### BEGIN SOLUTION
    h = x @ w
    h += 1
    a = h.sigmoid()
    a = a.clone()
    a[:, 0] = 0.0
    b = a * a
    b.clamp_(max=0.5)
    return b.sum(dim=1)
    ### END SOLUTION


# %%
check("fix_inplace", features_fixed)

# %% [markdown] lang="en"
# ## Summary
#
# | symptom | where to look | the fix |
# |---|---|---|
# | `inf` in forward, NaN in backward, on large inputs | `exp` overflows (above 88.7 in float32) | shift by the maximum: log-sum-exp |
# | a NaN gradient from a clean forward | anomaly mode names the first node returning NaN; hooks show the `inf` one node earlier | give `sqrt`, `log`... a harmless input where their value is unused |
# | "modified by an inplace operation" | the tensor it names ("output 0 of ..."), the replay, anomaly mode's forward line | change it out of place, or change a `clone()` |
#
# And before any of it: `gradcheck` on every Function you write.

# %% [markdown] lang="zh"
# ## 小结
#
# | 现象 | 去哪里找 | 修复办法 |
# |---|---|---|
# | 大的输入下前向出现 `inf`、反向出现 NaN | `exp` 溢出（float32 在 88.7 以上） | 减去最大值：log-sum-exp |
# | 前向干干净净，梯度却是 NaN | 异常检测模式指出第一个返回 NaN 的节点；钩子能看到前一个节点的 `inf` | 在 `sqrt`、`log` 等运算的值用不到的地方，给它一个无害的输入 |
# | “modified by an inplace operation” | 报错点名的张量（“output 0 of ...”）、回放、异常检测模式给出的前向代码行 | 改成非原地操作，或者修改一个 `clone()` |
#
# 而在这一切之前：你写的每个 Function 都先用 `gradcheck` 检验一遍。

# %% [markdown] lang="en"
# ## Read the code
#
# `inplace_on_view` is what runs for `a[:, 0] = 0.0`: the op runs on a copy of the view's region,
# taken from the base's history, and `CopySlices` writes the result into the base, becoming its
# new `grad_fn`. Its backward sends the gradient of the written elements to the value written,
# and zeros in their place to the base's old history.

# %% [markdown] lang="zh"
# ## 读源码
#
# 执行 `a[:, 0] = 0.0` 时运行的是 `inplace_on_view`：运算作用在视图所在区域的一个副本上（副本取自基张量的历史），
# 然后 `CopySlices` 把结果写回基张量，并成为它新的 `grad_fn`。它的 backward 把被写入元素的梯度传给写入的值，
# 而传给基张量原来历史的梯度在这些位置上是零。

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import show_source
from minigrad.surface.view_history import CopySlices, inplace_on_view

show_source(inplace_on_view, CopySlices)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("11-copy-slices")

# %% [markdown] lang="en"
# Next lesson: gradients of gradients, with `create_graph=True`.

# %% [markdown] lang="zh"
# 下一讲：用 `create_graph=True` 求梯度的梯度。
