# %% [markdown] lang="en"
# Every node you met so far (`MulBackward0`, `ExpBackward0`, ...) comes from an
# operation that knows two things: how to compute its result (**forward**) and how
# to turn the gradient of its result into gradients of its inputs (**backward**).
# `torch.autograd.Function` lets you write such operations yourself. In minigrad
# even the built-in operations are written this way, so after this lesson you can
# read them all.

# %% [markdown] lang="zh"
# 到目前为止你见过的每个节点（`MulBackward0`、`ExpBackward0` 等）都来自这样一种运算：
# 它知道两件事——怎样算出结果（**forward**），以及怎样把结果的梯度变成各个输入的梯度（**backward**）。
# `torch.autograd.Function` 让你自己编写这样的运算。在 minigrad 里，连内置运算也是这么写的，
# 学完这一讲，你就能读懂它们全部的源码。

# %%
import minigrad as torch
import minigrad.viz
from minigrad.autograd import Function
from minigrad.exercises import check
from minigrad.lessons import say, show_error

# %% [markdown] lang="en"
# ## Anatomy of a Function
#
# A `Function` subclass has two **static** methods. `forward(ctx, ...)` receives the
# **context object** `ctx` and the inputs, and returns the output; whatever backward
# will need goes on `ctx` (tensors through `ctx.save_for_backward`). `backward(ctx,
# grad_output)` receives the gradient of the loss with respect to the output (the v of
# lesson 01) and returns one gradient per input of forward: vᵀ times the Jacobian of the
# output with respect to that input, the **vector-Jacobian product**, computed without
# building the Jacobian. Here is `x²`: its Jacobian is diagonal with `2x` on the diagonal,
# so the product is `grad_output * 2 * x`:

# %% [markdown] lang="zh"
# ## 一个 Function 的结构
#
# `Function` 的子类有两个**静态**方法。`forward(ctx, ...)` 接收**上下文对象 ctx** 和输入，返回输出；
# backward 需要用到的东西都放在 `ctx` 上（张量要用 `ctx.save_for_backward` 保存）。
# `backward(ctx, grad_output)` 接收损失对输出的梯度（即第 01 讲里的 v），并为 forward 的每个输入各返回一个梯度：
# vᵀ 乘以输出对这个输入的雅可比矩阵，也就是**向量-雅可比积**，而且不必构造出雅可比矩阵。
# 下面是 `x²`：它的雅可比矩阵是对角矩阵，对角线上是 `2x`，所以这个乘积就是 `grad_output * 2 * x`：

# %%
class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 2 * x


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = Square.apply(x)
print(y)
y.sum().backward()
print(x.grad)

# %% [markdown] lang="en"
# Three rules hide in that cell:
#
# 1. Call **`Square.apply(x)`**, never `Square.forward`: `apply` makes the node,
#    wires its edges and runs `forward` with gradient recording switched off.
# 2. The node is named after the class: `SquareBackward`.
# 3. `backward` **multiplies by `grad_output`**: the chain rule. Forgetting it is
#    the most common mistake; it only goes unnoticed when `grad_output` happens to be 1.

# %% [markdown] lang="zh"
# 这个单元格里藏着三条规则：
#
# 1. 要调用 **`Square.apply(x)`**，而不是 `Square.forward`：`apply` 会创建节点、连好边，
#    并在关闭梯度记录的情况下运行 `forward`。
# 2. 节点以类名命名：`SquareBackward`。
# 3. `backward` 要**乘上 `grad_output`**——这就是链式法则。忘了乘是最常见的错误，
#    只有碰巧 `grad_output` 等于 1 时才看不出来。

# %%
print(y.grad_fn.name(), "->", [n.name() for n, _ in y.grad_fn.next_functions])
z = Square.apply(x) * 10
x.grad = None
z.sum().backward()
print(say("with grad_output = 10:", "grad_output = 10 时："), x.grad)

# %% [markdown] lang="en"
# ## Watching `apply` work
#
# `apply` does five things, in this order: it **makes the node** (numbered, like every node,
# in the order nodes are made), **connects its edges** (one per tensor input), **runs
# forward** with grad mode off, **attaches the outputs** (each gets the node as its
# `grad_fn`) and **saves** what forward asked to save. The player's view `"apply"` shows
# each op in these five steps; press **Source** to see `Function.apply` itself beside the
# graph, the line of each step highlighted. Watch for when the edge to `x` appears, and
# when the saved tensor does:

# %% [markdown] lang="zh"
# ## 看 `apply` 怎么工作
#
# `apply` 按顺序做五件事：**创建节点**（和所有节点一样，按创建的先后编号）、**连上边**（每个张量输入一条）、
# 在关闭梯度记录的情况下**运行 forward**、**挂上输出**（每个输出的 `grad_fn` 都是这个节点），
# 最后**保存** forward 要求保存的张量。播放器的 `"apply"` 视图把每个运算分成这五步来演示；
# 点 **源码** 可以在图的旁边看到 `Function.apply` 本身，每一步对应的那一行都会高亮。
# 留意通向 `x` 的边是什么时候出现的，保存的张量又是什么时候出现的：

# %% tags=["nbval-ignore-output"]
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with minigrad.viz.record() as trace:
    y = Square.apply(x)
    loss = y.sum()
minigrad.viz.animate(trace, view="apply", names={"x": x, "y": y, "loss": loss}, source=True)

# %% [markdown] lang="en"
# ## Exercise: `Exp`
#
# Write `Exp`, with `Exp.apply(x)` = eˣ. Its derivative is eˣ again, that is, the
# **output**: save the result in forward, not the input, and backward needs no
# second `exp`.

# %% [markdown] lang="zh"
# ## 练习：`Exp`
#
# 编写 `Exp`，使 `Exp.apply(x)` = eˣ。它的导数还是 eˣ，也就是**输出**本身：
# 所以在 forward 里保存结果而不是输入，backward 就不必再算一遍 `exp`。

# %%
class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        result = x.exp()
        ctx.save_for_backward(result)
        return result
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (result,) = ctx.saved_tensors
        return grad_output * result
        ### END SOLUTION


# %%
check("exp", Exp)

# %% [markdown] lang="en"
# ## Exercise: `Sigmoid`
#
# σ(x) = 1 / (1 + e⁻ˣ), and its derivative can be written with the output alone:
# σ'(x) = σ(x)·(1 − σ(x)). Write `Sigmoid` using that.

# %% [markdown] lang="zh"
# ## 练习：`Sigmoid`
#
# σ(x) = 1 / (1 + e⁻ˣ)，它的导数只用输出就能写出来：σ'(x) = σ(x)·(1 − σ(x))。请据此编写 `Sigmoid`。

# %%
class Sigmoid(Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        result = 1 / (1 + (-x).exp())
        ctx.save_for_backward(result)
        return result
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (result,) = ctx.saved_tensors
        return grad_output * result * (1 - result)
        ### END SOLUTION


# %%
check("sigmoid", Sigmoid)

# %% [markdown] lang="en"
# ## Exercise: `ReLU`
#
# ReLU(x) = max(x, 0). Its gradient is 1 where x > 0 and 0 elsewhere, **including at
# x = 0**, as in PyTorch. A comparison such as `x > 0` gives a bool tensor you can
# multiply with; `x.clamp(min=0)` computes the forward.

# %% [markdown] lang="zh"
# ## 练习：`ReLU`
#
# ReLU(x) = max(x, 0)。它的梯度在 x > 0 处为 1，其他地方为 0，**在 x = 0 处也是 0**，与 PyTorch 一致。
# 比较运算（如 `x > 0`）会得到一个布尔张量，可以直接拿来做乘法；forward 可以用 `x.clamp(min=0)` 来算。

# %%
class ReLU(Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        ctx.save_for_backward(x)
        return x.clamp(min=0)
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        return grad_output * (x > 0)
        ### END SOLUTION


# %%
check("relu", ReLU)

# %% [markdown] lang="en"
# ## Arguments that are not tensors
#
# `forward` may take other arguments too: numbers, strings, flags. They are not
# saved with `save_for_backward` (that is for tensors) but stored as plain attributes
# of `ctx`. And since a number has no gradient, backward returns **`None`** in its
# place: still one return value per input.
#
# **Exercise.** Write `MulConstant`: `MulConstant.apply(tensor, constant)` =
# tensor·constant, where `constant` is a Python number.

# %% [markdown] lang="zh"
# ## 不是张量的参数
#
# `forward` 还可以接收其他参数：数字、字符串、开关标志等。它们不用 `save_for_backward` 保存（那是给张量用的），
# 而是直接作为 `ctx` 的普通属性存起来。数字没有梯度，所以 backward 在它的位置上返回 **`None`**——
# 依然是每个输入对应一个返回值。
#
# **练习**：编写 `MulConstant`，使 `MulConstant.apply(tensor, constant)` = tensor·constant，
# 其中 `constant` 是一个 Python 数。

# %%
class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ### BEGIN SOLUTION
        ctx.constant = constant
        return tensor * constant
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        return grad_output * ctx.constant, None
        ### END SOLUTION


# %%
check("mul_constant", MulConstant)

# %% [markdown] lang="en"
# Returning the wrong number of gradients is an error, and the message says so:

# %% [markdown] lang="zh"
# 返回的梯度个数不对会报错，错误信息会直接告诉你：

# %%
class ForgotNone(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant


try:
    ForgotNone.apply(x, 3.0).sum().backward()
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# ## Broadcasting
#
# Adding a `(3, 1)` tensor to a `(4,)` tensor **broadcasts** both to `(3, 4)`. The
# gradient that arrives is `(3, 4)` too, but every element of `a` was used 4 times, so its
# gradient is the sum over those 4 uses: a gradient of `a`'s own shape, `(3, 1)`. Look at
# the built-in addition:

# %% [markdown] lang="zh"
# ## 广播
#
# 把形状为 `(3, 1)` 的张量和形状为 `(4,)` 的张量相加，两者都会被**广播**成 `(3, 4)`。
# 传回来的梯度也是 `(3, 4)`；可 `a` 的每个元素被用了 4 次，所以它的梯度是这 4 次使用的梯度之和，
# 形状和 `a` 自己一样，是 `(3, 1)`。看看内置的加法：

# %%
a = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
b = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
(a + b).sum().backward()
print(f"a {tuple(a.shape)} -> a.grad {tuple(a.grad.shape)}: {a.grad.tolist()}")
print(f"b {tuple(b.shape)} -> b.grad {tuple(b.grad.shape)}: {b.grad.tolist()}")

# %% [markdown] lang="en"
# Who does the sum? In PyTorch, the engine: when a backward returns a gradient of a shape
# its input's shape broadcasts to, the engine sums it down to the input's shape before
# sending it on. PyTorch's own `AddBackward0` leaves that to the engine, and so may your
# backward: `Unreduced` below returns `grad_output` as it is, and the gradients are right.
# minigrad's built-in ops reduce in their own backward instead, so that each backward is
# the whole vector-Jacobian product by itself. A gradient that cannot be summed down to its
# input's shape is refused:

# %% [markdown] lang="zh"
# 这个求和是谁做的？在 PyTorch 里是引擎：如果 backward 返回的梯度形状是输入形状能广播到的形状，
# 引擎会先把它求和还原成输入的形状，再往下传。PyTorch 自己的 `AddBackward0` 就把这一步交给引擎，
# 你的 backward 也可以这样：下面的 `Unreduced` 原样返回 `grad_output`，算出的梯度照样正确。
# minigrad 的内置运算则在自己的 backward 里完成归约，这样每个 backward 单独就是完整的向量-雅可比积。
# 如果梯度无论如何都无法求和还原成输入的形状，引擎会拒绝它：

# %%
class Unreduced(Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, grad_output


a.grad, b.grad = None, None
Unreduced.apply(a, b).sum().backward()
print("Unreduced: a.grad", a.grad.tolist(), " b.grad", b.grad.tolist())


class WrongShape(Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.T, grad_output


try:
    WrongShape.apply(a, b).sum().backward()
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# **Exercise.** Write `AddBroadcast`: `AddBroadcast.apply(a, b)` = a + b with
# broadcasting, each gradient reduced to its input's shape in backward itself, as
# minigrad's built-ins do. Write the reduction `sum_to_shape(grad, shape)` yourself (not
# `sum_to_size`): which dimensions did broadcasting add, and which did it stretch from
# size 1? (`a.shape` and `b.shape` are plain tuples you can keep on `ctx`.)

# %% [markdown] lang="zh"
# **练习**：编写 `AddBroadcast`，使 `AddBroadcast.apply(a, b)` = a + b（支持广播），
# 并像 minigrad 的内置运算那样，在 backward 里就把每个梯度还原成对应输入的形状。
# 归约函数 `sum_to_shape(grad, shape)` 请自己写（不要用 `sum_to_size`）：广播添加了哪些维度？
# 又把哪些大小为 1 的维度拉长了？（`a.shape` 和 `b.shape` 就是普通的元组，可以直接存在 `ctx` 上。）

# %%
def sum_to_shape(grad, shape):
    ### BEGIN SOLUTION
    while grad.ndim > len(shape):
        grad = grad.sum(0)
    for dim, size in enumerate(shape):
        if size == 1 and grad.shape[dim] != 1:
            grad = grad.sum(dim, keepdim=True)
    return grad
    ### END SOLUTION


class AddBroadcast(Function):
    @staticmethod
    def forward(ctx, a, b):
        ### BEGIN SOLUTION
        ctx.a_shape, ctx.b_shape = tuple(a.shape), tuple(b.shape)
        return a + b
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        return sum_to_shape(grad_output, ctx.a_shape), sum_to_shape(grad_output, ctx.b_shape)
        ### END SOLUTION


# %%
check("add_broadcast", AddBroadcast)

# %% [markdown] lang="en"
# ## Exercise: the vector-Jacobian product of a batched matrix product
#
# A layer applies one weight matrix `B` (shape `(k, m)`) to a batch of matrices `A`
# (shape `(b, n, k)`): `out = A @ B`, of shape `(b, n, m)`, with
#
# $$out_{i,p,q} = \sum_r A_{i,p,r} \, B_{r,q}$$
#
# Write `BatchedMatMul` and derive its backward: given `grad_output` G of shape
# `(b, n, m)`, what are ∂L/∂A (shape `(b, n, k)`) and ∂L/∂B (shape `(k, m)`)? Work from the
# sum above with pen and paper, element by element, then find the matrix products that
# compute it. `B` was used by every matrix of the batch. (`x.transpose(-1, -2)` swaps the
# last two dimensions.)

# %% [markdown] lang="zh"
# ## 练习：批量矩阵乘积的向量-雅可比积
#
# 一个网络层用同一个权重矩阵 `B`（形状 `(k, m)`）去乘一批矩阵 `A`（形状 `(b, n, k)`）：
# `out = A @ B`，形状是 `(b, n, m)`，其中
#
# $$out_{i,p,q} = \sum_r A_{i,p,r} \, B_{r,q}$$
#
# 请编写 `BatchedMatMul` 并推导它的 backward：已知形状为 `(b, n, m)` 的 `grad_output` G，
# ∂L/∂A（形状 `(b, n, k)`）和 ∂L/∂B（形状 `(k, m)`）分别是什么？先拿纸笔从上面的求和式出发逐个元素地推导，
# 再找出能算出它的矩阵乘法。`B` 被这一批里的每个矩阵都用到了。（`x.transpose(-1, -2)` 交换最后两个维度。）

# %%
class BatchedMatMul(Function):
    @staticmethod
    def forward(ctx, A, B):
        ### BEGIN SOLUTION
        ctx.save_for_backward(A, B)
        return A @ B
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        A, B = ctx.saved_tensors
        grad_A = grad_output @ B.T                            # (b, n, m) @ (m, k)
        grad_B = (A.transpose(-1, -2) @ grad_output).sum(0)   # Σ over the batch of Aᵢᵀ Gᵢ  # zh: 对这一批求和：Σ Aᵢᵀ Gᵢ
        return grad_A, grad_B
        ### END SOLUTION


# %%
check("batched_matmul", BatchedMatMul)

# %% [markdown] lang="en"
# ## Checking a backward: `gradcheck`
#
# How do you know a backward is right? Compare it with **finite differences**:
# nudge each input element by a tiny ε and see how the output moves.
# `torch.autograd.gradcheck` does this for every element (use `float64`, since
# float32 is too coarse for a tiny ε). It returns `True`, or raises an error showing
# both Jacobians. Here it passes for `Square` and catches a backward that forgot the
# factor 2:

# %% [markdown] lang="zh"
# ## 检查 backward：`gradcheck`
#
# 怎么确认 backward 写对了？拿它和**有限差分**比一比：把每个输入元素挪动一个很小的 ε，看输出变化多少。
# `torch.autograd.gradcheck` 会对每个元素都这样做（要用 `float64`，float32 的精度对很小的 ε 来说太粗了）。
# 它要么返回 `True`，要么报错并列出两个雅可比矩阵。下面，`Square` 通过了检查，
# 而一个忘了乘 2 的 backward 被它抓了出来：

# %%
class SquareNoTwo(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * x


x64 = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
print("Square:", torch.autograd.gradcheck(Square.apply, (x64,)))
try:
    torch.autograd.gradcheck(SquareNoTwo.apply, (x64,))
except RuntimeError as error:
    show_error(error, lines=1)

# %% [markdown] lang="en"
# ## Summary
#
# | you write | rule |
# |---|---|
# | `forward(ctx, *inputs)` | static; runs without recording; stash what backward needs on `ctx` |
# | `backward(ctx, *grad_outputs)` | static; one gradient per input; `None` for non-tensors |
# | `YourFunction.apply(...)` | the only way to call it |
# | backward | one vector-Jacobian product per input: `grad_output` times the Jacobian |
# | broadcasting | each gradient ends at its input's shape: reduce it in backward (or the engine sums it) |

# %% [markdown] lang="zh"
# ## 小结
#
# | 你要写的 | 规则 |
# |---|---|
# | `forward(ctx, *inputs)` | 静态方法；运行时不记录计算图；把 backward 要用的东西存到 `ctx` 上 |
# | `backward(ctx, *grad_outputs)` | 静态方法；每个输入对应一个梯度；非张量参数返回 `None` |
# | `YourFunction.apply(...)` | 唯一正确的调用方式 |
# | backward | 每个输入一个向量-雅可比积：`grad_output` 乘以雅可比矩阵 |
# | 广播 | 每个梯度最终都要是对应输入的形状：在 backward 里归约（否则由引擎求和） |

# %% [markdown] lang="en"
# ## Read the code
#
# `Function.apply` is what `Square.apply(x)` ran: its numbered steps make the node, connect its
# edges, run forward with recording off, attach the outputs and save what forward asked for. Below
# it, minigrad's own `Exp`: the class you wrote in the exercise, written as every built-in op is.
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# `Function.apply` 就是 `Square.apply(x)` 实际运行的代码：按编号的几步依次创建节点、连好边、
# 在关闭记录的情况下运行 forward、挂上输出，再保存 forward 要求保存的张量。
# 下面是 minigrad 自带的 `Exp`：和你在练习里写的那个类一样，每个内置运算都是这样写成的。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.core.function import Function
from minigrad.lessons import show_source
from minigrad.ops import unary

show_source(Function.apply, unary.Exp)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("04-no-input-requires-grad")

# %% [markdown] lang="en"
# Next lesson: what to save for backward, and what saving costs.

# %% [markdown] lang="zh"
# 下一讲：backward 需要保存什么，保存又要付出什么代价。
