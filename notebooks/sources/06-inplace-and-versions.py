# %% [markdown] lang="en"
# An **in-place operation** changes a tensor's memory instead of making a new
# tensor: `x.add_(1)`, `x.mul_(2)`, `x.clamp_(min=0)` (the trailing underscore
# marks them). They save memory, but they can also destroy a value that backward
# still needs. This lesson shows how autograd notices, how to read its error, how to
# fix it, and how to write an in-place Function of your own.

# %% [markdown] lang="zh"
# **原地操作**直接修改张量的内存，而不是创建一个新张量：`x.add_(1)`、`x.mul_(2)`、`x.clamp_(min=0)`
# （名字末尾的下划线就是标志）。它们能省内存，却也可能毁掉反向传播还要用的值。
# 这一讲介绍 autograd 怎样发现这种情况、怎样读懂它的报错、怎样修复，以及怎样编写自己的原地操作 Function。

# %%
import minigrad as torch
import minigrad.viz
from minigrad.autograd import Function
from minigrad.exercises import check
from minigrad.lessons import show_error

# %% [markdown] lang="en"
# ## The version counter
#
# Every tensor carries a **version counter**, `tensor._version`. Each in-place
# operation adds one. A view (a slice, `reshape`, `detach()`) shares its base's
# memory, so it also shares the counter:

# %% [markdown] lang="zh"
# ## 版本计数器
#
# 每个张量都带着一个**版本计数器** `tensor._version`，每做一次原地操作就加一。
# 视图（切片、`reshape`、`detach()` 得到的张量）和原张量共享内存，所以也共享同一个计数器：

# %%
t = torch.zeros(4)
view = t[1:3]
print(f"{'':22}{'t._version':>11}{'view._version':>15}")
print(f"{'t = torch.zeros(4)':22}{t._version:>11}{view._version:>15}")
t.add_(1)
print(f"{'t.add_(1)':22}{t._version:>11}{view._version:>15}")
view.mul_(5)
print(f"{'view.mul_(5)':22}{t._version:>11}{view._version:>15}")
t2 = t + 1
print(f"{'t2 = t + 1':22}{t._version:>11}{view._version:>15}")
print(t)

# %% [markdown] lang="en"
# ## Why autograd counts versions
#
# When a node saves a tensor, it also writes down the tensor's version. In backward,
# before using the saved tensor, it compares: a different version means the value
# was changed after it was saved, and the gradient would be silently wrong. So
# autograd raises an error instead. Here `exp` saved its output `y`, which we then
# change in place:

# %% [markdown] lang="zh"
# ## autograd 为什么要记录版本
#
# 节点保存一个张量时，会同时记下它当时的版本。反向传播在使用这个保存的张量之前先比对一下：
# 版本变了，说明保存之后值又被改过，算出的梯度会悄无声息地出错。所以 autograd 宁可直接报错。
# 下面 `exp` 保存了它的输出 `y`，而我们随后原地修改了 `y`：

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
y.add_(1)
try:
    y.sum().backward()
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# ## Reading the message
#
# | part of the message | what it tells you |
# |---|---|
# | `[torch.FloatTensor [3]]` | the saved tensor: dtype and shape |
# | `output 0 of Exp` | which operation saved it, and as what |
# | `is at version 1; expected version 0` | how many in-place changes happened since |
# | `Hint: enable anomaly detection ...` | how to **locate** the operation: PyTorch's hint, ending `set_detect_anomaly(True, check_nan=False).` |
# | `minigrad hint: ...` | minigrad adds how to fix it |
#
# Anomaly mode (lesson 10) makes the error also show where in your code the operation that
# saved the tensor ran. Without it, search your code for in-place operations on that tensor
# **after** the operation named in the message.

# %% [markdown] lang="zh"
# ## 读懂报错信息
#
# | 报错中的片段 | 它告诉你什么 |
# |---|---|
# | `[torch.FloatTensor [3]]` | 被保存的张量：数据类型和形状 |
# | `output 0 of Exp` | 哪个运算保存了它，以什么身份（这里是输出） |
# | `is at version 1; expected version 0` | 保存之后发生了几次原地修改 |
# | `Hint: enable anomaly detection ...` | 怎样**找到**出错的运算：这是 PyTorch 的提示，结尾是 `set_detect_anomaly(True, check_nan=False).` |
# | `minigrad hint: ...` | minigrad 补充说明怎么修复 |
#
# 异常检测模式（第 10 讲）能让报错同时指出：保存这个张量的运算是在你代码的哪一行运行的。
# 不开这个模式的话，就顺着报错里提到的运算，往**后**找对这个张量做的原地操作。

# %% [markdown] lang="en"
# The engine records each version check; when recording, you can see which saved
# tensor failed and why, and the graph drawing marks it in red:

# %% [markdown] lang="zh"
# 引擎会记录每一次版本检查；把过程录下来，就能看到是哪个保存的张量没通过、原因是什么，
# 计算图的图示里也会把它标成红色：

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with minigrad.viz.record() as trace:
    y = x.exp()
    y.add_(1)
    try:
        y.sum().backward()
    except RuntimeError:
        pass
for event in trace.of_kind("version_check"):
    print(f"saved_version={event['saved_version']}  current_version={event['current_version']}  "
          f"passed={event['passed']}")

# %% tags=["nbval-ignore-output"]
minigrad.viz.graph(y, names={"x": x, "y": y})

# %% [markdown] lang="en"
# Replay the same trace step by step: `exp` saves `y` at version 0, `add_` bumps
# `y` to version 1 (the saved tensor turns red), and in backward `ExpBackward0`'s
# version check fails. Press **Next ▶** (or ▶, Play) to step through it.

# %% [markdown] lang="zh"
# 把同一段录制一步步回放出来：`exp` 在版本 0 时保存了 `y`，`add_` 把 `y` 的版本改成 1
# （保存的张量变红），到了反向传播，`ExpBackward0` 的版本检查就失败了。
# 按 **下一步 ▶**（或点 ▶ 播放）逐步查看。

# %% tags=["nbval-ignore-output"]
minigrad.viz.animate(trace, names={"x": x, "y": y})

# %% [markdown] lang="en"
# ## Fixing it
#
# Two fixes: write the operation out of place (`y = y + 1` makes a new tensor and
# leaves the saved one alone), or `clone()` before modifying. Not every in-place
# operation is a problem, only those on a tensor that some node saved: `x * 2`
# saves nothing of its output, so changing that output is fine.

# %% [markdown] lang="zh"
# ## 修复
#
# 有两种改法：改用非原地的写法（`y = y + 1` 会创建新张量，不碰被保存的那个），或者在修改之前先 `clone()`。
# 并不是所有原地操作都有问题，只有修改了被某个节点保存的张量才会出错：`x * 2` 不保存它的输出，所以修改这个输出没关系。

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
y = y + 1
y.sum().backward()
print("y = y + 1:       ", x.grad)

x.grad = None
y = x.exp().clone()
y.add_(1)
y.sum().backward()
print("clone(), add_(1):", x.grad)

x.grad = None
y = x * 2
y.add_(1)
y.sum().backward()
print("(x * 2).add_(1): ", x.grad)

# %% [markdown] lang="en"
# ## Leaves cannot be changed in place (while recording)
#
# A leaf that requires grad is where gradients land; changing it in place would
# make its history meaningless, so PyTorch refuses. Optimizers update parameters
# inside `torch.no_grad()`, where nothing is recorded:

# %% [markdown] lang="zh"
# ## 叶子张量不能原地修改（在记录计算图时）
#
# 需要梯度的叶子张量是梯度最终落脚的地方；原地修改它，之前记录下的计算就对不上了，所以 PyTorch 直接拒绝。
# 优化器更新参数时都放在 `torch.no_grad()` 里，那里什么都不记录：

# %%
weight = torch.tensor([1.0, -2.0], requires_grad=True)
try:
    weight.sub_(0.1)
except RuntimeError as error:
    show_error(error)

(weight * weight).sum().backward()
with torch.no_grad():
    weight.sub_(0.1 * weight.grad)
print(weight, weight._version)

# %% [markdown] lang="en"
# ## In-place custom Functions: `mark_dirty`
#
# A custom Function may change an input in place, for example to save memory. It must
# then say so with `ctx.mark_dirty(tensor)` and return that tensor: autograd bumps
# its version and makes the Function's node its new `grad_fn`. Without `mark_dirty`,
# the graph never learns of the change: the tensor keeps its old `grad_fn`, and
# gradients through it are silently wrong.

# %% [markdown] lang="zh"
# ## 原地修改输入的自定义 Function：`mark_dirty`
#
# 自定义 Function 也可以原地修改输入（比如为了省内存）。这时必须调用 `ctx.mark_dirty(tensor)` 声明这一点，
# 并把这个张量作为输出返回：autograd 会给它的版本加一，并把这个 Function 的节点设为它新的 `grad_fn`。
# 如果不调用 `mark_dirty`，计算图根本不知道发生了修改：这个张量还保留着原来的 `grad_fn`，
# 经过它的梯度就会悄无声息地算错。

# %% [markdown] lang="en"
# **Exercise.** Write `InplaceReLU`: `InplaceReLU.apply(x)` clamps `x` at 0 **in
# place** (`x.clamp_(min=0)`), calls `ctx.mark_dirty(x)` and returns `x`. For
# backward, save the (modified) `x` after marking it dirty: where it is positive the
# gradient passes, elsewhere it is 0.

# %% [markdown] lang="zh"
# **练习**：编写 `InplaceReLU`：`InplaceReLU.apply(x)` 把 `x` 中小于 0 的元素**原地**置为 0（`x.clamp_(min=0)`），
# 调用 `ctx.mark_dirty(x)` 并返回 `x`。为了 backward，在标记之后保存（已修改的）`x`：
# 在它大于 0 的位置，梯度原样通过，其他位置梯度为 0。

# %%
class InplaceReLU(Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        x.clamp_(min=0)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        return grad_output * (x > 0)
        ### END SOLUTION


# %%
check("inplace_relu", InplaceReLU)

# %% [markdown] lang="en"
# The built-in in-place operations work the same way. After `clamp_` on a non-leaf, the
# node of `clamp_`, `ClampBackward1`, is that tensor's new `grad_fn`, and the version moves:

# %% [markdown] lang="zh"
# 内置的原地操作也是同样的机制。对非叶子张量调用 `clamp_` 之后，`clamp_` 的节点 `ClampBackward1`
# 就成为这个张量新的 `grad_fn`，版本号随之增加：

# %%
a = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
b = a * 1
print("b = a * 1:      ", b.grad_fn.name(), b._version)
b.clamp_(min=0)
print("b.clamp_(min=0):", b.grad_fn.name(), b._version)
b.sum().backward()
print("a.grad:", a.grad)

# %% [markdown] lang="en"
# ## Summary
#
# * In-place operations add one to the **version counter**; views share it.
# * Saved tensors remember their version; a mismatch in backward is an error, not a wrong gradient.
# * Fix: write it out of place, or `clone()` first. Update leaves inside `no_grad()`.
# * A custom Function that changes an input in place calls `ctx.mark_dirty` and returns it.

# %% [markdown] lang="zh"
# ## 小结
#
# * 原地操作会让**版本计数器**加一；视图和原张量共享同一个计数器。
# * 保存的张量会记住自己的版本；反向传播时版本对不上就报错，而不是给出错误的梯度。
# * 修复方法：改成非原地写法，或者先 `clone()`。更新叶子张量要放在 `no_grad()` 里。
# * 原地修改输入的自定义 Function 要调用 `ctx.mark_dirty`，并把那个张量返回。

# %% [markdown] lang="en"
# ## Read the code
#
# Backward reads a saved tensor through `SavedTensor.unpack`: look for the comparison of the
# version counter's value now with the version remembered when the tensor was saved. `mark_dirty`
# is the custom Function's side of the bargain: it adds one to the version of what forward changed.
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# 反向传播通过 `SavedTensor.unpack` 读取保存的张量：留意它怎样把版本计数器现在的值和保存时记下的版本相比较。
# `mark_dirty` 是自定义 Function 这一方要做的事：把 forward 原地修改过的张量的版本加一。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.core.function import FunctionCtx, SavedTensor
from minigrad.lessons import show_source

show_source(SavedTensor.unpack, FunctionCtx.mark_dirty)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("06-two-bumps")

# %% [markdown] lang="en"
# Next lesson: the other things `ctx` can tell you, and be told.

# %% [markdown] lang="zh"
# 下一讲：`ctx` 还能告诉你哪些信息，你又能通过它告诉 autograd 什么。
