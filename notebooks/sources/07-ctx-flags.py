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
# In lessons 04 and 05 the `ctx` of a custom Function was a bag: `save_for_backward`
# in `forward`, `saved_tensors` in `backward`. It also carries three switches that
# make a Function *cheaper* and *more honest*:
#
# - `ctx.needs_input_grad` — which inputs want a gradient at all, so backward can skip work;
# - `ctx.mark_non_differentiable(...)` — outputs (indices, masks) that have no gradient;
# - `ctx.set_materialize_grads(False)` — let backward see `None` instead of a tensor of zeros.
#
# Apart from the checks and the drawing, every cell below also runs on PyTorch itself: write
# `import torch` in place of `import minigrad as torch`, and `torch.autograd` for `minigrad.autograd`.

# %% [markdown] lang="zh"
# 在第 04、05 讲里，自定义 Function 的 `ctx` 像一个口袋：`forward` 里用 `save_for_backward`
# 放进去，`backward` 里用 `saved_tensors` 取出来。其实它还带着三个开关，能让 Function
# 算得**更省**，也表达得**更准确**：
#
# - `ctx.needs_input_grad`：哪些输入真的需要梯度，backward 可以据此跳过不必要的计算；
# - `ctx.mark_non_differentiable(...)`：声明哪些输出（索引、掩码）没有梯度；
# - `ctx.set_materialize_grads(False)`：让 backward 收到 `None`，而不是一个全零张量。
#
# 除了检查单元格和画图的单元格，下面每个单元格在 PyTorch 上也能照样运行：把 `import minigrad as torch`
# 换成 `import torch`，把 `minigrad.autograd` 换成 `torch.autograd` 即可。

# %%
import minigrad as torch
from minigrad.autograd import Function

# %% [markdown] lang="en"
# ## `needs_input_grad`: who is asking?
#
# `Function.apply` looks at every argument before calling `forward` and stores one boolean per
# argument in `ctx.needs_input_grad`: `True` when the argument is a tensor that requires grad.
# A spy Function that only reports what it sees makes this visible.

# %% [markdown] lang="zh"
# ## `needs_input_grad`：谁需要梯度？
#
# `Function.apply` 在调用 `forward` 之前会逐个检查参数，并在 `ctx.needs_input_grad`
# 里为每个参数记一个布尔值：参数是需要梯度的张量时为 `True`。
# 下面写一个只负责“汇报”的 Function，把它看到的东西打印出来。

# %%
class Spy(Function):
    @staticmethod
    def forward(ctx, a, b, scale):
        print("needs_input_grad =", ctx.needs_input_grad)
        return a * b * scale

    @staticmethod
    def backward(ctx, grad_output):
        return None, None, None


weight = torch.ones(3, requires_grad=True)   # a parameter  # zh: 参数
data = torch.ones(3)                         # an input batch: no gradient wanted  # zh: 一批输入数据：不需要梯度
_ = Spy.apply(weight, data, 2.0)
_ = Spy.apply(data, weight, 2.0)
_ = Spy.apply(data, data, 2.0)

# %% [markdown] lang="en"
# One entry per argument of `forward`, in order; the Python number `2.0` is always `False`.
# In the last call nothing requires grad, so minigrad (like PyTorch) records no node at all,
# and backward would never run.
#
# Why care? The backward of a matrix product `C = A @ B` is two more matrix products:
#
# $$\frac{\partial L}{\partial A} = G\,B^\top, \qquad \frac{\partial L}{\partial B} = A^\top G \qquad (G = \partial L / \partial C).$$
#
# When `A` is a batch of data, the first product is thrown away. With a frozen layer (fine-tuning),
# the second one is. Each skipped product is as expensive as the forward pass itself.

# %% [markdown] lang="zh"
# 每个 `forward` 参数对应一项，顺序一致；Python 数字 `2.0` 永远是 `False`。
# 最后一次调用中没有任何输入需要梯度，所以 minigrad（和 PyTorch 一样）根本不会记录节点，
# backward 也就不会运行。
#
# 这有什么用？矩阵乘法 `C = A @ B` 的反向传播本身就是另外两次矩阵乘法：
#
# $$\frac{\partial L}{\partial A} = G\,B^\top, \qquad \frac{\partial L}{\partial B} = A^\top G \qquad (G = \partial L / \partial C).$$
#
# 如果 `A` 是一批输入数据，第一次乘法的结果就白算了；如果冻结了某一层（微调时很常见），
# 白算的就是第二次。每省掉一次乘法，就省下和一次前向传播差不多的开销。

# %% [markdown] lang="en"
# Here is the cost, measured with numpy on a 512×512 product (timings vary from machine to machine):

# %% [markdown] lang="zh"
# 用 numpy 在 512×512 的矩阵上量一下这笔开销（具体时间因机器而异）：

# %% tags=["nbval-ignore-output"]
import time
import numpy as np
from minigrad.lessons import say

A = np.random.rand(512, 512).astype(np.float32)
start = time.perf_counter()
for _ in range(5):
    A @ A
per_product = (time.perf_counter() - start) / 5
both, one = say("and", "和 "), say("or ", "或 ")     # as wide in both languages  # zh: 两种语言里一样宽
print(f"forward   C = A @ B                  {per_product * 1e3:7.2f} ms")
print(f"backward  G @ B.T  {both}  A.T @ G      {2 * per_product * 1e3:7.2f} ms")
print(f"backward  G @ B.T  {one}  A.T @ G      {per_product * 1e3:7.2f} ms")

# %% [markdown] lang="en"
# ### Exercise `matmul`
#
# Write `MatMul`: `MatMul.apply(a, b)` is `a @ b` for 2-d `a` and `b`. In `backward`,
# compute a gradient only when `ctx.needs_input_grad` asks for it, and return `None` in its place
# otherwise. (`.T` transposes a 2-d tensor.)

# %% [markdown] lang="zh"
# ### 练习 `matmul`
#
# 实现 `MatMul`：`MatMul.apply(a, b)` 计算二维张量 `a`、`b` 的乘积 `a @ b`。在 `backward` 中，
# 只有 `ctx.needs_input_grad` 要求时才计算对应的梯度，否则在那个位置返回 `None`。
# （`.T` 可以转置二维张量。）

# %%
class MatMul(Function):
    @staticmethod
    def forward(ctx, a, b):
        ### BEGIN SOLUTION
        ctx.save_for_backward(a, b)
        return a @ b
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        a, b = ctx.saved_tensors
        grad_a = grad_b = None
        if ctx.needs_input_grad[0]:
            grad_a = grad_output @ b.T
        if ctx.needs_input_grad[1]:
            grad_b = a.T @ grad_output
        return grad_a, grad_b
        ### END SOLUTION


# %%
from minigrad.exercises import check

check("matmul", MatMul)

# %% [markdown] lang="en"
# The check also calls your backward with only one input requiring grad, and counts whether
# the other gradient was computed anyway.
#
# ## `mark_non_differentiable`: outputs without a gradient
#
# Some outputs are not smooth functions of the input: the *position* of a maximum, a mask of
# which elements were clipped. Integer outputs (like indices) never require grad. A float mask,
# however, would — unless `forward` says so. Compare the mask a Function returns with and
# without the declaration:

# %% [markdown] lang="zh"
# 检查程序还会在只有一个输入需要梯度的情况下调用你的 backward，看另一个梯度是否被多算了。
#
# ## `mark_non_differentiable`：没有梯度的输出
#
# 有些输出并不是输入的光滑函数：比如最大值所在的**位置**，或者标记哪些元素被截断的掩码。
# 整数输出（例如索引）本来就不会需要梯度；但浮点数掩码会被当成需要梯度——除非 `forward`
# 明确声明它不可导。对比一下声明前后 Function 返回的掩码：

# %%
class ClipWithMask(Function):
    # clamp(x, -1, 1), and a float mask of the elements that were clipped  # zh: clamp(x, -1, 1)，以及标出哪些元素被截断的浮点数掩码

    @staticmethod
    def forward(ctx, x, declare):
        clipped = x.clamp(-1.0, 1.0)
        mask = (clipped != x).to(x.dtype)
        if declare:
            ctx.mark_non_differentiable(mask)
        ctx.save_for_backward(mask)
        return clipped, mask

    @staticmethod
    def backward(ctx, grad_clipped, grad_mask):
        (mask,) = ctx.saved_tensors
        return grad_clipped * (1 - mask), None


x = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
for declare in (False, True):
    clipped, mask = ClipWithMask.apply(x, declare)
    node = mask.grad_fn.name() if mask.grad_fn is not None else None
    print(f"declare={declare!s:5}  mask={mask.tolist()}  "
          f"mask.requires_grad={mask.requires_grad!s:5}  mask.grad_fn: {node}")

# %% [markdown] lang="en"
# Undeclared, the mask claims to depend differentiably on `x` and carries a `grad_fn`: a loss
# built from it would silently send gradients through a formula that is meaningless. Declared,
# it is a plain tensor, and the graph stays honest. Backward still receives one gradient per
# output (`grad_mask` above); for a non-differentiable output it is always a tensor of zeros, so
# backward can ignore it. (The `None` that backward returns in second place is the gradient for
# `declare`, a Python bool, which has none.)
#
# ### Exercise `max_with_index`
#
# Write `MaxWithIndex`: for a 2-d `x`, `MaxWithIndex.apply(x)` returns `(values, indices)`,
# the maximum of each row and its column (int64, like `x.max(dim=1)`). Mark the indices
# non-differentiable. In `backward`, send each row's gradient to its arg-max position, zeros
# elsewhere. A one-hot mask helps: `torch.arange(n) == indices[:, None]`.

# %% [markdown] lang="zh"
# 没有声明时，掩码看起来像是可导地依赖于 `x`，还带着 `grad_fn`：如果用它构造损失，
# 梯度会沿着一个毫无意义的公式悄悄流回去。声明之后它就是普通张量，计算图也就如实反映了依赖关系。
# 注意 backward 仍然为每个输出接收一个梯度（上面的 `grad_mask`）；不可导输出对应的这个梯度
# 总是全零张量，backward 可以直接忽略它。（backward 返回的第二个值 `None` 是给 `declare` 的梯度：
# 它是 Python 布尔值，本来就没有梯度。）
#
# ### 练习 `max_with_index`
#
# 实现 `MaxWithIndex`：对二维张量 `x`，`MaxWithIndex.apply(x)` 返回 `(values, indices)`，
# 即每一行的最大值及其所在列（int64，与 `x.max(dim=1)` 相同）。把索引标记为不可导。
# 在 `backward` 中把每一行的梯度送到最大值所在的位置，其余位置为零。
# 可以借助 one-hot 掩码：`torch.arange(n) == indices[:, None]`。

# %%
class MaxWithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        values, indices = x.max(dim=1)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        ctx.columns = x.shape[1]
        return values, indices
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        ### BEGIN SOLUTION
        (indices,) = ctx.saved_tensors
        one_hot = (torch.arange(ctx.columns) == indices[:, None]).to(grad_values.dtype)
        return one_hot * grad_values[:, None]
        ### END SOLUTION


# %%
check("max_with_index", MaxWithIndex)

# %% [markdown] lang="en"
# The built-in `x.max(dim=1)` works the same way. Its graph shows one node, `MaxBackward0`,
# for the values; the indices never enter the graph:

# %% [markdown] lang="zh"
# 内置的 `x.max(dim=1)` 也是这样工作的。计算图里只有值对应的一个节点 `MaxBackward0`，
# 索引根本不会进入计算图：

# %%
scores = torch.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]], requires_grad=True)
values, indices = scores.max(dim=1)
print("indices:", indices.tolist(), indices.dtype, "requires_grad:", indices.requires_grad)
loss = (values * torch.tensor([10.0, 100.0])).sum()

# %% tags=["nbval-ignore-output"]
import minigrad.viz

minigrad.viz.graph(loss, show_shapes=True, names={"scores": scores, "loss": loss})

# %% [markdown] lang="en"
# Row 0's maximum sits in column 1, row 1's in column 0, so that is where the gradients land:

# %% [markdown] lang="zh"
# 第 0 行的最大值在第 1 列，第 1 行的在第 0 列，梯度正好落在这两个位置：

# %%
loss.backward()
print(scores.grad)

# %% [markdown] lang="en"
# ## `set_materialize_grads`: zeros or `None`?
#
# A Function with two outputs gets two gradients in backward, even when the loss used only one
# output. By default the missing gradient is *materialized*: minigrad makes a tensor of zeros so
# that backward can do arithmetic without checking. That costs an allocation and the work of
# multiplying by zeros. `ctx.set_materialize_grads(False)` passes `None` instead; backward must then
# test for it.

# %% [markdown] lang="zh"
# ## `set_materialize_grads`：全零张量还是 `None`？
#
# 有两个输出的 Function，在 backward 中总会收到两个梯度，即使损失只用到了其中一个输出。
# 默认情况下，minigrad 会把缺失的梯度**补成一个全零张量**（这叫 materialize），
# 让 backward 不用判断就能直接做运算。代价是一次内存分配，外加一堆乘以零的计算。调用 `ctx.set_materialize_grads(False)` 后，
# 传进来的是 `None`，backward 需要自己判断。

# %%
class SinCos(Function):
    @staticmethod
    def forward(ctx, x, materialize):
        ctx.set_materialize_grads(materialize)
        ctx.save_for_backward(x)
        return x.sin(), x.cos()

    @staticmethod
    def backward(ctx, grad_sin, grad_cos):
        print("  grad_sin =", grad_sin, "  grad_cos =", grad_cos)
        (x,) = ctx.saved_tensors
        grad_x = torch.zeros_like(x)
        if grad_sin is not None:
            grad_x = grad_x + grad_sin * x.cos()
        if grad_cos is not None:
            grad_x = grad_x - grad_cos * x.sin()
        return grad_x, None


for materialize in (True, False):
    x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
    sin_x, cos_x = SinCos.apply(x, materialize)
    print(f"materialize={materialize}:  sin_x.sum().backward()")
    sin_x.sum().backward()
    print("  x.grad =", x.grad)

# %% [markdown] lang="en"
# Same gradient, `cos(x)`, either way. With `materialize=False` backward skipped a useless
# multiplication — it had to handle `None`, which is exactly the deal.
#
# ## Today's form: `forward` without ctx, and `setup_context`
#
# Every Function so far received `ctx` as the first parameter of `forward`. PyTorch has a second
# form, the one its "Extending PyTorch" note now suggests: `forward(*inputs)` only computes, like
# any function, and a static method `setup_context(ctx, inputs, output)` fills `ctx` in
# afterwards, from the inputs and what `forward` returned. `backward` does not change, nor does
# `apply`. The `torch.func` transforms (`vmap`, `jacrev`, `grad`) accept only this form. Lesson
# 03's `Exp`, written this way, with a print in each step:

# %% [markdown] lang="zh"
# 两种方式得到的梯度相同，都是 `cos(x)`。`materialize=False` 时 backward 省掉了一次无用的乘法——
# 代价是必须自己处理 `None`，这正是两者之间的取舍。
#
# ## 现在的写法：不带 ctx 的 `forward`，加上 `setup_context`
#
# 到目前为止，每个 Function 的 `forward` 都以 `ctx` 作为第一个参数。PyTorch 还有第二种写法，
# 也是它的“Extending PyTorch”说明现在推荐的写法：`forward(*inputs)` 只管计算，和普通函数一样；
# 然后由静态方法 `setup_context(ctx, inputs, output)` 根据输入和 `forward` 的返回值来填写 `ctx`。
# `backward` 不变，`apply` 也不变。`torch.func` 的各种变换（`vmap`、`jacrev`、`grad`）只接受这种写法。
# 把第 04 讲的 `Exp` 改成这种写法，并在每一步打印一行：

# %%
class Exp(Function):
    @staticmethod
    def forward(x):
        print(say("forward:        grad mode on?", "forward：       梯度模式开着吗？"), torch.is_grad_enabled())
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        print("setup_context:  inputs =", inputs, " output =", output)
        print("                needs_input_grad =", ctx.needs_input_grad)
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


x = torch.tensor([0.0, 1.0], requires_grad=True)
y = Exp.apply(x)
y.sum().backward()
print("x.grad =", x.grad)

# %% [markdown] lang="en"
# `apply` runs `forward` with grad mode off, then hands `setup_context` the inputs as one tuple
# and the output, then records the node. Since `forward` no longer touches `ctx`, it is an
# ordinary function of its inputs, which can be called and tested on its own:

# %% [markdown] lang="zh"
# `apply` 先在关闭梯度模式的情况下运行 `forward`，再把所有输入组成的元组和输出交给 `setup_context`，
# 最后记录节点。由于 `forward` 不再碰 `ctx`，它就是输入的一个普通函数，可以单独调用、单独测试：

# %%
print(Exp.forward(torch.tensor([0.0, 1.0])))

# %% [markdown] lang="en"
# The price of the split: `setup_context` sees only the inputs and the output, so those (and what
# can be derived from them) are all it can save. A value computed in the middle of `forward` is
# out of its reach, unless `forward` returns it as an output too — lesson 12 meets exactly that
# case.
#
# ### Exercise `polar`
#
# A point given by its distance `r` from the origin and its angle `theta` has the coordinates
# `x = r·cos θ` and `y = r·sin θ`. Write `Polar` in today's form: `Polar.apply(r, theta)` returns
# `(x, y)` for 1-d tensors `r` and `theta`. Then use this lesson's switches where they belong:
# turn off materialization, so that a loss that uses only `x` costs backward nothing for `y`
# (backward then receives `None` for it); and compute each input's gradient only when
# `ctx.needs_input_grad` asks for it. The four partial derivatives are yours to derive; each
# input's gradient sums one term per output whose gradient arrived.

# %% [markdown] lang="zh"
# 拆开写的代价是：`setup_context` 只能看到输入和输出，所以它能保存的也只有这些（以及由它们推出的量）。
# 在 `forward` 中间算出的值它是拿不到的，除非 `forward` 把它也作为输出返回——第 12 讲正好会遇到这种情况。
#
# ### 练习 `polar`
#
# 平面上一个点可以用它到原点的距离 `r` 和它的角度 `theta` 来表示，它的坐标是 `x = r·cos θ`、
# `y = r·sin θ`。请用现在的写法实现 `Polar`：对一维张量 `r` 和 `theta`，`Polar.apply(r, theta)`
# 返回 `(x, y)`。然后把这一讲的开关用在该用的地方：关闭补零，让只用到 `x` 的损失不必在 backward 里为 `y`
# 做任何计算（这时 backward 收到的是 `None`）；并且只在 `ctx.needs_input_grad` 要求时才计算对应输入的梯度。
# 四个偏导数请自己推导；每个输入的梯度，是每个传来了梯度的输出各贡献一项之和。

# %%
class Polar(Function):
    @staticmethod
    def forward(r, theta):
        ### BEGIN SOLUTION
        return r * theta.cos(), r * theta.sin()
        ### END SOLUTION

    @staticmethod
    def setup_context(ctx, inputs, output):
        ### BEGIN SOLUTION
        r, theta = inputs
        ctx.save_for_backward(r, theta)
        ctx.set_materialize_grads(False)
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_x, grad_y):
        ### BEGIN SOLUTION
        r, theta = ctx.saved_tensors
        cos, sin = theta.cos(), theta.sin()
        grad_r = grad_theta = None
        if ctx.needs_input_grad[0]:
            grad_r = torch.zeros_like(r)
            if grad_x is not None:
                grad_r = grad_r + grad_x * cos
            if grad_y is not None:
                grad_r = grad_r + grad_y * sin
        if ctx.needs_input_grad[1]:
            grad_theta = torch.zeros_like(theta)
            if grad_x is not None:
                grad_theta = grad_theta - grad_x * r * sin
            if grad_y is not None:
                grad_theta = grad_theta + grad_y * r * cos
        return grad_r, grad_theta
        ### END SOLUTION


# %%
check("polar", Polar)

# %% [markdown] lang="en"
# ## Summary
#
# | switch | where | effect |
# |---|---|---|
# | `ctx.needs_input_grad` | read in forward (or setup_context) or backward | one bool per input; skip the gradients nobody asked for |
# | `ctx.mark_non_differentiable(t)` | forward (or setup_context) | output `t` gets `requires_grad=False`, no `grad_fn` |
# | `ctx.set_materialize_grads(False)` | forward (or setup_context) | unused outputs' gradients arrive as `None`, not zeros |
#
# And the form: `forward(ctx, *inputs)`, or `forward(*inputs)` with
# `setup_context(ctx, inputs, output)`, which `torch.func` requires.

# %% [markdown] lang="zh"
# ## 小结
#
# | 开关 | 在哪里用 | 作用 |
# |---|---|---|
# | `ctx.needs_input_grad` | forward（或 setup_context）或 backward 中读取 | 每个输入一个布尔值；没人需要的梯度就别算 |
# | `ctx.mark_non_differentiable(t)` | forward（或 setup_context） | 输出 `t` 的 `requires_grad=False`，没有 `grad_fn` |
# | `ctx.set_materialize_grads(False)` | forward（或 setup_context） | 未使用输出的梯度以 `None` 传入，而不是全零张量 |
#
# 还有写法：`forward(ctx, *inputs)`，或者 `forward(*inputs)` 加上 `setup_context(ctx, inputs, output)`，
# 后者是 `torch.func` 所要求的。

# %% [markdown] lang="en"
# ## Read the code
#
# `BackwardNode.apply` runs your backward: look for `materialize_grads`, which turns missing
# gradients into zeros before your backward sees them. `attach_marked` is where
# `mark_non_differentiable` (and `mark_dirty`) take effect, when `Function.apply` attaches the
# outputs. (`needs_input_grad` is step 0 of `Function.apply`, shown in lesson 03.)
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# `BackwardNode.apply` 负责运行你写的 backward：留意 `materialize_grads`，它在你的 backward 看到梯度之前，
# 把缺失的梯度换成全零张量。`attach_marked` 是 `mark_non_differentiable`（以及 `mark_dirty`）真正起作用的地方：
# `Function.apply` 挂上输出时调用它。（`needs_input_grad` 在 `Function.apply` 的第 0 步算出，见第 04 讲。）
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.core.function import BackwardNode
from minigrad.surface import function_rules
from minigrad.lessons import show_source

show_source(BackwardNode.apply, function_rules.attach_marked)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("07-materialized-zeros")

# %% [markdown] lang="en"
# Next lesson: hooks, which let *you* look at (and change) the gradients as they flow.

# %% [markdown] lang="zh"
# 下一讲的主题是钩子：让**你自己**在梯度流动的途中查看它，甚至修改它。
