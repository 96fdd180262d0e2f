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
# Everything comes together here. You will write the one layer every network is made of,
# `Linear`, as a custom Function; build a small multilayer perceptron (2 → 16 → 16 → 2) from it;
# train it to separate two interleaved moons; and finally check **every gradient** against a
# second computation of the same gradients.

# %% [markdown] lang="zh"
# 前面学到的东西在这里汇合。你将把所有网络都离不开的那一层 `Linear` 写成自定义 Function；
# 用它搭一个小型多层感知机（2 → 16 → 16 → 2）；训练它把交错的双月牙数据分成两类；
# 最后在相同的权重上，把**每一个梯度**都和另一种算法算出的梯度对一遍。

# %%
import numpy as np

import minigrad as torch
from minigrad.autograd import Function

# %% [markdown] lang="en"
# ## The data: two moons
#
# 200 points in the plane, two classes, each a noisy half circle; neither can be separated from the
# other by a straight line, so the network needs its hidden layers.

# %% [markdown] lang="zh"
# ## 数据：双月牙
#
# 平面上 200 个点，分成两类，每一类都是一道带噪声的月牙；两类无法用一条直线分开，
# 所以网络必须依靠隐藏层。

# %%
def two_moons(n, noise=0.15, seed=0):
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, np.pi, n)
    label = rng.integers(0, 2, n)
    x = np.where(label == 0, np.cos(angle), 1 - np.cos(angle))
    y = np.where(label == 0, np.sin(angle), 0.5 - np.sin(angle))
    points = np.stack([x, y], axis=1) + rng.normal(0, noise, (n, 2))
    return points.astype(np.float32), label.astype(np.int64)


points, labels = two_moons(200)
print("points:", points.shape, points.dtype, "  labels:", labels.shape,
      "  in each class:", (labels == 0).sum(), (labels == 1).sum())

# %% tags=["nbval-ignore-output"]
import matplotlib.pyplot as plt

from minigrad.lessons import plot_font, say

plot_font()      # a font for the labels in the lesson's language  # zh: 让图中的中文标签有字体可用
plt.figure(figsize=(4, 3))
plt.scatter(points[:, 0], points[:, 1], c=labels, cmap="coolwarm", s=12)
plt.title(say("two moons", "双月牙数据"))
plt.show()

# %% [markdown] lang="en"
# ### Exercise `linear`
#
# Write `Linear`: `Linear.apply(x, weight, bias)` = `x @ weight.T + bias`, with `x` of shape N×in,
# `weight` out×in and `bias` of shape out. In `backward`, compute each gradient only when
# `ctx.needs_input_grad` asks for it (lesson 07); the bias gradient is `grad_output` summed over the
# batch (dimension 0) — the bias was broadcast to every row (lesson 04).

# %% [markdown] lang="zh"
# ### 练习 `linear`
#
# 实现 `Linear`：`Linear.apply(x, weight, bias)` = `x @ weight.T + bias`，其中 `x` 的形状是 N×in，
# `weight` 是 out×in，`bias` 的形状是 out。在 `backward` 中，只在 `ctx.needs_input_grad`
# 要求时才计算对应的梯度（第 07 讲）；bias 的梯度是 `grad_output` 沿批次维（第 0 维）求和——
# 因为 bias 被广播到了每一行（第 04 讲）。

# %%
class Linear(Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        ### BEGIN SOLUTION
        ctx.save_for_backward(x, weight)
        return x @ weight.T + bias
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        x, weight = ctx.saved_tensors
        grad_x = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_x = grad_output @ weight
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.T @ x
        if ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_x, grad_weight, grad_bias
        ### END SOLUTION


# %%
from minigrad.exercises import check

check("linear", Linear)

# %% [markdown] lang="en"
# The network below uses your `Linear` as soon as it is written. Until then (a `NotImplementedError`),
# it falls back to the same formula made of built-in ops, so the rest of the notebook still runs —
# and the gradient check at the end is only interesting once it is yours.

# %% [markdown] lang="zh"
# 只要你写好了 `Linear`，下面的网络就会使用它。在那之前（会抛出 `NotImplementedError`），
# 网络退而使用由内置运算组成的同一个公式，好让笔记本的其余部分照常运行——
# 不过，只有当它是你自己写的 `Linear` 时，最后的梯度核对才有意义。

# %%
def builtin_linear(x, weight, bias):
    return x @ weight.T + bias


def my_linear(x, weight, bias):
    return Linear.apply(x, weight, bias)


try:
    my_linear(torch.ones(1, 2), torch.ones(3, 2), torch.ones(3))
    linear = my_linear
except NotImplementedError:
    linear = builtin_linear
print("linear =", linear.__name__)

# %% [markdown] lang="en"
# ## The network
#
# Three layers with ReLU between them, weights drawn with numpy (He initialisation) so that a
# second computation can later start from exactly the same numbers. The loss is the cross-entropy: the mean of
# `-log softmax(logits)[label]`.

# %% [markdown] lang="zh"
# ## 网络
#
# 三层，中间用 ReLU 连接；权重用 numpy 生成（He 初始化），这样稍后另一种算法也能从完全相同的数值出发。
# 损失函数是交叉熵：`-log softmax(logits)[label]` 的平均值。

# %%
SIZES = [2, 16, 16, 2]


def initial_weights(seed=1):
    rng = np.random.default_rng(seed)
    weights = {}
    for layer, (n_in, n_out) in enumerate(zip(SIZES, SIZES[1:]), 1):
        weights[f"W{layer}"] = (rng.normal(0, 1, (n_out, n_in)) * np.sqrt(2 / n_in)).astype(np.float32)
        weights[f"b{layer}"] = np.zeros(n_out, dtype=np.float32)
    return weights


def model(x, params, linear):
    h = linear(x, params["W1"], params["b1"]).relu()
    h = linear(h, params["W2"], params["b2"]).relu()
    return linear(h, params["W3"], params["b3"])


def cross_entropy(logits, target):
    log_probs = logits.log_softmax(dim=1)
    return -log_probs[torch.arange(len(target)), target].mean()


params = {name: torch.tensor(value, requires_grad=True) for name, value in initial_weights().items()}
X, Y = torch.tensor(points), torch.tensor(labels)
loss = cross_entropy(model(X, params, linear), Y)
print(f"loss = {loss.item():.4f}")

# %% [markdown] lang="en"
# The whole computation as the engine recorded it — with your Function's nodes
# (`LinearBackward`) once you have written it:

# %% [markdown] lang="zh"
# 下面是引擎记录下的整个计算——写好 `Linear` 之后，图中就会出现你的 Function 的节点（`LinearBackward`）：

# %% tags=["nbval-ignore-output"]
import minigrad.viz

minigrad.viz.graph(loss, names={**params, "loss": loss})

# %% [markdown] lang="en"
# Before training, replay the backward of one step. Watch for: the gradient entering at the loss
# and going down one layer at a time (topological order); each `LinearBackward` (once your
# `Linear` is in use) sending gradients to the layer below, to its weight and to its bias,
# whose `AccumulateGrad` nodes run at once, ahead of everything else in the ready queue; and the
# saved activations turning grey layer by layer, so the memory chart falls to 0 B by the end.

# %% [markdown] lang="zh"
# 开始训练之前，先回放一步训练的反向传播。留意三点：梯度从损失进入，按拓扑顺序一层一层往下走；
# 每个 `LinearBackward`（用上你写的 `Linear` 之后）把梯度分别送给下一层、它的权重和它的偏置，
# 而这两个参数的 `AccumulateGrad` 节点会在就绪队列里插到最前面，立刻运行；保存的激活值一层层变成灰色，
# 到最后内存图降到 0 B。

# %% tags=["nbval-ignore-output"]
with minigrad.viz.record() as trace:
    loss = cross_entropy(model(X, params, linear), Y)
    loss.backward()
for p in params.values():
    p.grad = None      # the training below starts from empty gradients  # zh: 下面的训练从空梯度开始
minigrad.viz.animate(trace, view="backward", names=params)

# %% [markdown] lang="en"
# ## Training
#
# Plain gradient descent on the full batch: forward, backward, then update every parameter under
# `no_grad` and clear its gradient. 300 steps take a few seconds.

# %% [markdown] lang="zh"
# ## 训练
#
# 在整个数据集上做最朴素的梯度下降：前向、反向，然后在 `no_grad` 下更新每个参数并清空它的梯度。
# 300 步只需几秒钟。

# %%
LEARNING_RATE = 0.5
losses = []
for step in range(301):
    loss = cross_entropy(model(X, params, linear), Y)
    loss.backward()
    with torch.no_grad():
        for p in params.values():
            p -= LEARNING_RATE * p.grad
            p.grad = None
    losses.append(loss.item())
    if step % 50 == 0:
        with torch.no_grad():
            accuracy = (model(X, params, linear).argmax(dim=1) == Y).float().mean().item()
        print(say(f"step {step:3}  loss {loss.item():.4f}  accuracy {accuracy:.1%}",
                  f"第 {step:3} 步  损失 {loss.item():.4f}  准确率 {accuracy:.1%}"))

# %% [markdown] lang="en"
# The loss curve, and what the network learned: the colour of the background is its prediction for
# every point of the plane.

# %% [markdown] lang="zh"
# 损失曲线，以及网络学到了什么：背景颜色是网络对平面上每个点的预测。

# %% tags=["nbval-ignore-output"]
grid_x, grid_y = np.meshgrid(np.linspace(-1.5, 2.5, 120), np.linspace(-1.0, 1.5, 90))
grid = torch.tensor(np.stack([grid_x.ravel(), grid_y.ravel()], axis=1).astype(np.float32))
with torch.no_grad():
    predicted = model(grid, params, linear).argmax(dim=1).numpy().reshape(grid_x.shape)

figure, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2))
left.plot(losses)
left.set_xlabel(say("step", "训练步数"))
left.set_ylabel(say("loss", "损失"))
left.set_yscale("log")
right.contourf(grid_x, grid_y, predicted, cmap="coolwarm", alpha=0.3)
right.scatter(points[:, 0], points[:, 1], c=labels, cmap="coolwarm", s=10)
plt.show()

# %% [markdown] lang="en"
# ## Every gradient, checked twice
#
# A falling loss is encouraging, but a slightly wrong gradient can still train. The real test:
# compute the same gradients another way, from the **same** weights and data, and compare every
# parameter's gradient. The second way is minigrad's built-in operations (`builtin_linear`) in
# float64, so it does not share your Function's code, nor float32's rounding.

# %% [markdown] lang="zh"
# ## 每一个梯度都核对两遍
#
# 损失在下降固然令人鼓舞，但梯度稍有偏差，网络往往也照样能训练。真正的检验是：从**相同的**权重和数据出发，
# 用另一种算法再算一遍梯度，逐个比较每个参数的梯度。这里的另一种算法是 minigrad 的内置运算
# （`builtin_linear`），而且用 float64 计算：它既不用你写的 Function，也没有 float32 的舍入误差。

# %% tags=["nbval-ignore-output"]
def gradients(layer, dtype):
    # one forward and backward from the trained weights, in `dtype`  # zh: 从训练好的权重出发，用 `dtype` 做一次前向和反向传播
    weights = {name: p.detach().to(dtype).requires_grad_() for name, p in params.items()}
    cross_entropy(model(X.to(dtype), weights, layer), Y).backward()
    return {name: weight.grad.numpy() for name, weight in weights.items()}


yours = gradients(linear, torch.float32)
second = gradients(builtin_linear, torch.float64)
differences = {name: np.abs(yours[name] - second[name]).max() for name in params}
print(f"linear = {linear.__name__}")
print(f"{'param':6} {'shape':10} {'max |difference|':>17}")
for name in params:
    print(f"{name:6} {str(yours[name].shape):10} {differences[name]:17.2e}")

# %%
# the digits above are rounding, a little different on every machine; the verdict is not  # zh: 上面的具体数字是舍入误差，每台机器上都略有不同；结论则处处一样
print(say("every max |difference| below 1e-6:", "每个最大差异都小于 1e-6："),
      all(difference < 1e-6 for difference in differences.values()))

# %% [markdown] lang="en"
# Differences around 1e-7 and below are float32 rounding. Anything larger points at a formula —
# and now you know how to find it: `gradcheck` (lesson 10) on your `Linear` in float64, a tensor
# hook (lesson 08) on each layer's output, anomaly mode for NaNs.
#
# PyTorch is a third opinion. The tutor does not install it (`%pip install torch` in a cell of
# this notebook adds it to the notebook's own Python; restart the kernel after); where it is
# installed, the next cell compares with it too, and otherwise it only says that it is missing.

# %% [markdown] lang="zh"
# 1e-7 及以下的差异来自 float32 的舍入。如果差异更大，那就是公式有问题——现在你知道怎么查了：
# 在 float64 下对你的 `Linear` 做 `gradcheck`（第 10 讲）、在每层输出上挂一个张量钩子（第 08 讲）、
# 遇到 NaN 就用异常检测模式。
#
# PyTorch 可以当第三方来核对。课程启动器不会安装 PyTorch（在本笔记本的一个单元格里运行 `%pip install torch`，
# 就会装进这个笔记本自己的 Python，装好后重启内核）；装了 PyTorch 时，下一个单元格也会和它比较；
# 没装时，它只提示一句缺少 PyTorch。

# %% tags=["nbval-ignore-output"]
try:
    import torch as pytorch
except ImportError:
    pytorch = None

if pytorch is None:
    print(say("PyTorch is not installed: no comparison with it.", "没有安装 PyTorch，不与它比较。"))
else:
    import torch.nn.functional as F

    reference = {name: pytorch.tensor(p.detach().numpy(), requires_grad=True)
                 for name, p in params.items()}
    h = F.linear(pytorch.tensor(points), reference["W1"], reference["b1"]).relu()
    h = F.linear(h, reference["W2"], reference["b2"]).relu()
    logits = F.linear(h, reference["W3"], reference["b3"])
    F.cross_entropy(logits, pytorch.tensor(labels)).backward()

    print(f"{'param':6} {'shape':10} {'max |difference|':>17}")
    for name in params:
        difference = np.abs(yours[name] - reference[name].grad.numpy()).max()
        print(f"{name:6} {str(yours[name].shape):10} {difference:17.2e}")

# %% [markdown] lang="en"
# ## What you built
#
# In these eleven lessons you have seen the graph that forward records, the order backward runs
# it in, custom Functions and what they save, version counters, the `ctx` switches, hooks,
# memory, debugging, higher-order gradients and devices — and every piece was a short Python
# file in `minigrad/` that you can open and read. The same code, with `import torch`, is PyTorch.

# %% [markdown] lang="zh"
# ## 你都做了些什么
#
# 这十一讲下来，你看到了前向传播记录的计算图、反向传播执行它的顺序、自定义 Function 及其保存的张量、
# 版本计数器、`ctx` 上的开关、钩子、内存、调试、高阶导数和设备——而每一部分都只是 `minigrad/`
# 里一个可以打开阅读的简短 Python 文件。把同样的代码换成 `import torch`，就是 PyTorch。

# %% [markdown] lang="en"
# ## Read the code
#
# minigrad's own `F.linear` computes what your `Linear` Function does. For a 2-d input with a
# bias it calls one Function, `Addmm` (bias + input @ weightᵀ), whose node PyTorch names
# `AddmmBackward0` too (other inputs are first flattened to 2-d, or multiplied with `matmul` and
# then added to the bias). `cross_entropy` ends in `NllLoss`, a Function like yours. Read each
# math docstring first, then the backward, which is itself made of ops (`NllLoss`'s is
# `NllLossBackward`), so that the gradient can be differentiated again.
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# minigrad 自带的 `F.linear` 算的正是你的 `Linear` Function 所算的东西。对带偏置的二维输入，它只调用
# 一个 Function——`Addmm`（偏置 + 输入 @ 权重ᵀ），PyTorch 也把这个节点叫作 `AddmmBackward0`（其他形状
# 的输入要么先展平成二维，要么先用 `matmul` 相乘、再加上偏置）。`cross_entropy` 的最后一步是 `NllLoss`，
# 它也和你写的一样是一个 Function。两者都先读数学文档字符串，再读 backward——backward 本身也由运算组成
# （`NllLoss` 的是 `NllLossBackward`），所以得到的梯度还能继续求导。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import show_source
from minigrad.ops.linalg import Addmm
from minigrad.ops.loss import NllLoss

show_source(Addmm, NllLoss)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("16-rows-sum-to-zero")

# %% [markdown] lang="en"
# This was the last lesson. The course index shows the exercises you have passed; the files in
# `minigrad/` are there to read whenever you want to see how a piece works.

# %% [markdown] lang="zh"
# 这是最后一讲。课程目录里能看到你已经通过的练习；想知道某个部分是怎么实现的，随时可以打开 `minigrad/` 里的文件读一读。
