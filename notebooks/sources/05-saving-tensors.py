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
# ## The rule: tensors through `save_for_backward`, everything else on `ctx`
#
# In your own Function, **every tensor that backward needs goes through
# `ctx.save_for_backward(...)`**: inputs, outputs, and intermediate results alike, read back
# in backward as `ctx.saved_tensors` (`None` may be saved too). **Everything else**, numbers,
# shapes, flags, is a plain attribute of `ctx` (`ctx.z = z`). PyTorch's documentation of
# `Function.forward` says it plainly: tensors should not be stored directly on `ctx`.
# (Until PyTorch 1.10 its example kept an intermediate tensor on `ctx`; since 1.11 it saves
# it with `save_for_backward`.) A saved tensor is managed by autograd; a tensor on `ctx` is
# just an attribute, and that costs:
#
# 1. **No version check.** A saved tensor that is changed in place before backward raises an
#    error (lesson 06); a tensor on `ctx` gives a wrong gradient without a word.
# 2. **No saved-tensor hooks.** Hooks can store saved tensors elsewhere, on the CPU or
#    compressed (lesson 08); a tensor on `ctx` escapes them.
# 3. **Leaks.** An output kept on `ctx` holds its own node (`y.grad_fn` is the `ctx`), and
#    the node holds it: a reference cycle that outlives `del y` until Python's garbage
#    collector runs. A saved output is kept without that cycle.
# 4. **Double backward.** Saving an intermediate is fine for one backward; a Function that
#    must be differentiated twice (lesson 12) recomputes it from the inputs in backward, or
#    returns it as an output.

# %% [markdown] lang="zh"
# ## 规则：张量用 `save_for_backward`，其余的放在 `ctx` 上
#
# 在自己写的 Function 里，**backward 需要的每一个张量都用 `ctx.save_for_backward(...)` 保存**：
# 输入、输出以及中间结果都一样，在 backward 里通过 `ctx.saved_tensors` 取回（也可以保存 `None`）。
# **其余的一切**，如数字、形状、开关标志，才作为 `ctx` 的普通属性存起来（`ctx.z = z`）。
# PyTorch 对 `Function.forward` 的文档说得很明白：张量不应该直接存放在 `ctx` 上。
# （PyTorch 1.10 及以前，文档的示例把一个中间结果张量放在 `ctx` 上；从 1.11 起改为用 `save_for_backward` 保存。）
# 保存的张量由 autograd 管理；`ctx` 上的张量只是一个普通属性，这要付出代价：
#
# 1. **没有版本检查。** 保存的张量如果在反向传播之前被原地修改，会直接报错（第 06 讲）；
#    放在 `ctx` 上的张量却会悄无声息地给出错误的梯度。
# 2. **钩子管不到。** 钩子可以把保存的张量挪到别处存放，比如放到 CPU 上或压缩起来（第 08 讲）；
#    `ctx` 上的张量绕开了它们。
# 3. **内存泄漏。** 放在 `ctx` 上的输出会拉住它自己的节点（`y.grad_fn` 就是这个 `ctx`），
#    而节点又拉住它：这是一个循环引用，`del y` 之后它依然存在，直到 Python 的垃圾回收器运行为止。
#    用 `save_for_backward` 保存输出就没有这个循环。
# 4. **二次反向传播。** 保存中间结果，做一次反向传播没有问题；但需要求两次导数的 Function（第 12 讲）
#    要么在 backward 里由输入重新算出中间结果，要么把它作为输出返回。

# %% [markdown] lang="en"
# ## Exercise: the documentation's `Func`
#
# PyTorch 2.13's documentation of `save_for_backward` uses this example, with `z` a
# Python int:
#
# $$w = x \cdot z, \qquad out = x \cdot y + y \cdot z + w \cdot y$$
#
# Write `Func` by the rule above. Decide what backward needs and keep each thing the right
# way; derive ∂out/∂x and ∂out/∂y yourself (careful: w depends on x too); `z`, a number,
# gets `None`.

# %% [markdown] lang="zh"
# ## 练习：文档里的 `Func`
#
# PyTorch 2.13 的文档在讲 `save_for_backward` 时用了下面这个例子，其中 `z` 是一个 Python 整数：
#
# $$w = x \cdot z, \qquad out = x \cdot y + y \cdot z + w \cdot y$$
#
# 请按上面的规则实现 `Func`。想清楚 backward 需要哪些东西，并用正确的方式保留每一样；
# 自己推导 ∂out/∂x 和 ∂out/∂y（注意：w 也依赖于 x）；`z` 是数字，对应的梯度为 `None`。

# %%
class Func(Function):
    @staticmethod
    def forward(ctx, x, y, z):
        ### BEGIN SOLUTION
        w = x * z
        out = x * y + y * z + w * y
        ctx.save_for_backward(x, y, w, out)
        ctx.z = z                            # z is not a tensor  # zh: z 不是张量
        return out
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_out):
        ### BEGIN SOLUTION
        x, y, w, out = ctx.saved_tensors
        z = ctx.z
        grad_x = grad_out * (y + y * z)
        grad_y = grad_out * (x + z + w)
        return grad_x, grad_y, None
        ### END SOLUTION


# %%
check("seed_func", Func)

# %% [markdown] lang="en"
# The documentation saves `w` and `out` although its backward could do without them (`w`
# is `x·z`, recomputed in one multiplication): saving costs memory, recomputing costs time,
# and both are right. What is not right is a tensor on `ctx`. Here are the costs above,
# one by one, with two versions of `x·w`: one keeps its inputs on `ctx`, one saves them.
# First the version check: change an input in place after the forward, then backward:

# %% [markdown] lang="zh"
# 文档保存了 `w` 和 `out`，其实它的 backward 不用它们也行（`w` 就是 `x·z`，一次乘法就能重新算出来）：
# 保存要花内存，重算要花时间，两种写法都对。不对的是把张量放在 `ctx` 上。
# 下面用 `x·w` 的两个版本把上面说的代价逐一演示出来：一个把输入放在 `ctx` 上，一个用 `save_for_backward` 保存。
# 先看版本检查：前向传播之后原地修改一个输入，再做反向传播：

# %%
class ScaleOnCtx(Function):                  # tensors on ctx: do not do this  # zh: 张量放在 ctx 上：不要这样写
    @staticmethod
    def forward(ctx, x, w):
        ctx.x, ctx.w = x, w
        return x * w

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.w, grad_output * ctx.x


class ScaleSaved(Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w

    @staticmethod
    def backward(ctx, grad_output):
        x, w = ctx.saved_tensors
        return grad_output * w, grad_output * x


for Scale in (ScaleOnCtx, ScaleSaved):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    h = x * 1
    y = Scale.apply(h, w)
    h.add_(10)                               # changed after forward used it  # zh: 在 forward 用过之后被修改
    try:
        y.sum().backward()
        print(f"{Scale.__name__:11} w.grad = {w.grad}")
    except RuntimeError as error:
        print(f"{Scale.__name__:11}", end=" ")
        show_error(error, name=True, lines=1)

# %% [markdown] lang="en"
# `ScaleOnCtx` answered `w.grad = [11, 12]`: the values of `h` now, not those its forward
# used (1 and 2). `ScaleSaved` refused. Second, saved-tensor hooks (lesson 08) see only what
# is saved; count what they pack:

# %% [markdown] lang="zh"
# `ScaleOnCtx` 给出的是 `w.grad = [11, 12]`：这是 `h` 现在的值，而不是它的 forward 当时用的值（1 和 2）。
# `ScaleSaved` 则拒绝计算。再看保存张量的钩子（第 08 讲）：它们只看得到用 `save_for_backward` 保存的张量。
# 数一数它们打包了几个：

# %%
for Scale in (ScaleOnCtx, ScaleSaved):
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        Scale.apply(x, w)
    print(f"{Scale.__name__:11}", say("tensors packed by the hooks:", "钩子打包的张量个数："), len(packed))

# %% [markdown] lang="en"
# Third, the leak: an output kept on `ctx` stays alive after `del y`, until Python's garbage
# collector looks for cycles (switched off here, to see it):

# %% [markdown] lang="zh"
# 第三是内存泄漏：放在 `ctx` 上的输出在 `del y` 之后依然活着，要等 Python 的垃圾回收器去找循环引用
# （这里先把它关掉，好看清楚）：

# %%
import gc
import weakref


class ExpOnCtx(Function):                    # the output on ctx: do not do this  # zh: 输出放在 ctx 上：不要这样写
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.y = y
        return y

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.y


class ExpSaved(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * y


gc.disable()
try:
    for Exp in (ExpOnCtx, ExpSaved):
        y = Exp.apply(x)
        alive = weakref.ref(y)
        del y
        print(f"{Exp.__name__:9}", say("alive after del y:", "del y 之后还活着吗："), alive() is not None)
finally:
    gc.enable()

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
# Lesson 10 shows `retain_graph=True`, which keeps them; lesson 08 shows hooks that
# store saved tensors more cheaply.
#
# ## Summary
#
# * Every tensor backward needs, inputs, outputs and intermediates: `ctx.save_for_backward`,
#   read back with `ctx.saved_tensors`.
# * Non-tensors only (numbers, shapes, flags): plain attributes of `ctx`. A tensor on `ctx`
#   escapes the version check and the hooks, and an output there makes a reference cycle.
# * Save the output when the derivative is written with it (exp, sigmoid, tanh).
# * Saved tensors live until backward frees them: that is the memory training costs.

# %% [markdown] lang="zh"
# 第 10 讲会介绍 `retain_graph=True`，它能把这些张量留下来；第 08 讲介绍用钩子更省内存地存放保存的张量。
#
# ## 小结
#
# * backward 需要的每个张量，无论是输入、输出还是中间结果：都用 `ctx.save_for_backward` 保存，
#   用 `ctx.saved_tensors` 取回。
# * 只有非张量（数字、形状、开关标志）才作为 `ctx` 的普通属性保存。放在 `ctx` 上的张量绕开了版本检查和钩子，
#   放在那里的输出还会造成循环引用。
# * 如果导数用输出来写更方便（exp、sigmoid、tanh），就保存输出。
# * 保存的张量会一直占着内存，直到反向传播把它们释放——训练时的内存大多花在这里。

# %% [markdown] lang="en"
# ## Read the code
#
# `save_for_backward` only notes what to keep; once forward has returned, `Function.apply`
# (its step 5) makes each of those tensors a `SavedTensor`. Look for what a `SavedTensor` remembers
# besides the tensor: its version (next lesson), and whether it is an output of its own node, kept
# as a bare array so that the node and its output do not hold on to each other.
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# `save_for_backward` 只是记下要保存什么；等 forward 返回之后，`Function.apply`（它的第 5 步）
# 才把这些张量逐个变成 `SavedTensor`。留意 `SavedTensor` 除了张量本身还记住了什么：
# 它的版本（下一讲的内容），以及它是不是所属节点自己的输出——如果是，就只保存数组，免得节点和输出互相引用。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.core.function import FunctionCtx, SavedTensor
from minigrad.lessons import show_source

show_source(FunctionCtx.save_for_backward, SavedTensor.__init__)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("05-saved-when-forward-returns")
