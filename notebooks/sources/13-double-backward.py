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
# Lesson 12 differentiated backward itself: `create_graph=True`, second derivatives of
# elementwise functions, a custom Function whose backward is made of tensor ops. This lesson
# goes further, with PyTorch's tutorial on double backward with custom Functions:
#
# 1. whole Jacobians and Hessians (`torch.autograd.functional`), and the Hessian-vector product,
#    which needs no Hessian (exercise `hvp`);
# 2. a Function that saves what forward computed must return it as an output (exercise
#    `softplus_double_backward`);
# 3. a backward that autograd cannot record becomes a Function of its own (exercise
#    `sin_backward_function`).
#
# Apart from the checks and the cells that record or replay with `minigrad.viz`, every cell also
# runs on PyTorch itself: write `import torch` in place of `import minigrad as torch`.

# %% [markdown] lang="zh"
# 第 12 讲对反向传播本身求过导：`create_graph=True`、逐元素函数的二阶导数、backward 由张量运算写成的自定义
# Function。这一讲更进一步，内容来自 PyTorch 关于自定义 Function 二次反向传播的教程：
#
# 1. 完整的雅可比矩阵和 Hessian 矩阵（`torch.autograd.functional`），以及根本不需要 Hessian 的
#    Hessian-向量积（练习 `hvp`）；
# 2. 保存了 forward 中间结果的 Function 必须把它作为输出返回（练习 `softplus_double_backward`）；
# 3. autograd 无法记录的 backward，要写成一个独立的 Function（练习 `sin_backward_function`）。
#
# 除了检查单元格和用 `minigrad.viz` 记录、回放的单元格，每个单元格在 PyTorch 上也能照样运行：
# 把 `import minigrad as torch` 换成 `import torch` 即可。

# %%
import numpy as np

import minigrad as torch
import minigrad.viz
from minigrad.exercises import check
from minigrad.lessons import say

# %% [markdown] lang="en"
# ## Jacobians and Hessians, whole
#
# In lesson 12 each output depended on its own input only, so the second derivatives fitted in a
# vector. In general a function `f` of n numbers into one has an n×n Hessian,
# `H[i, j] = ∂²f / ∂xᵢ∂xⱼ`, and a function into m numbers an m×n Jacobian.
# `torch.autograd.functional.jacobian(g, x)` builds the Jacobian with one backward per output
# element (as in lesson 01: a backward gives a row); `hessian(f, x)` is the Jacobian of the gradient,
# so it takes one backward per element of `x`, after the one that gives the gradient:

# %% [markdown] lang="zh"
# ## 完整的雅可比矩阵与 Hessian 矩阵
#
# 在第 12 讲里，每个输出只依赖于它自己对应的那个输入，所以二阶导数正好放得进一个向量。一般情况下，
# 从 n 个数映射到一个数的函数 `f` 有一个 n×n 的 Hessian 矩阵 `H[i, j] = ∂²f / ∂xᵢ∂xⱼ`，
# 映射到 m 个数的函数则有一个 m×n 的雅可比矩阵。`torch.autograd.functional.jacobian(g, x)`
# 对每个输出元素做一次反向传播来构造雅可比矩阵（和第 01 讲一样：一次反向传播得到一行）；`hessian(f, x)`
# 是梯度的雅可比矩阵，所以在求梯度的那次之外，`x` 的每个元素还要各做一次反向传播：

# %%
def f(x):
    return (x[:-1] * x[1:]).sin().sum() + (x ** 3).sum() / 6


x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)
print(say("jacobian of x[:-1] * x[1:]:", "x[:-1] * x[1:] 的雅可比矩阵："), torch.autograd.functional.jacobian(lambda x: x[:-1] * x[1:], x),
      sep="\n")
H = torch.autograd.functional.hessian(f, x)
print(say("hessian of f:", "f 的 Hessian 矩阵："), H, sep="\n")

# %% [markdown] lang="en"
# ## Hessian-vector products
#
# For a model of a million weights, H has 10¹² entries. What second-order methods use
# (Newton-CG, curvature along a direction, influence functions) is products `H·v`, and those
# come cheap. The vector `v` does not depend on `x`, so `H·v` is the gradient of a scalar,
# `∇f(x) · v` (H is symmetric for any twice continuously differentiable `f`). Two backward passes,
# whatever the size of `x`: the first with `create_graph=True`, so that `∇f(x)` has a graph, the
# second through it. PyTorch packs it as `torch.autograd.functional.hvp(f, x, v)`.
#
# ### Exercise `hvp`
#
# Write `hvp(f, x, v)`: for a function `f` of a 1-d tensor into a scalar, and 1-d tensors `x`
# and `v` of the same shape (`x` may not require grad), return `H(x)·v`, shaped like `x`, with
# two backward passes.

# %% [markdown] lang="zh"
# ## Hessian-向量积
#
# 一个有一百万个权重的模型，它的 H 有 10¹² 个元素。二阶方法（Newton-CG、沿某个方向的曲率、影响函数）
# 真正用到的是乘积 `H·v`，而它算起来很便宜。向量 `v` 不依赖于 `x`，所以 `H·v` 就是一个标量
# `∇f(x) · v` 的梯度（对任何二阶连续可微的 `f`，H 都是对称的）。不管 `x` 有多大，都只需要两次反向传播：
# 第一次带上 `create_graph=True`，让 `∇f(x)` 带有计算图；第二次沿着这张图反向传播。
# PyTorch 把它封装成了 `torch.autograd.functional.hvp(f, x, v)`。
#
# ### 练习 `hvp`
#
# 实现 `hvp(f, x, v)`：`f` 把一维张量映射为标量，`x` 和 `v` 是形状相同的一维张量（`x` 可能不需要梯度）。
# 返回 `H(x)·v`，形状与 `x` 相同，只用两次反向传播。

# %%
def hvp(f, x, v):
    ### BEGIN SOLUTION
    x = x.detach().requires_grad_()
    (gradient,) = torch.autograd.grad(f(x), x, create_graph=True)
    (product,) = torch.autograd.grad((gradient * v).sum(), x)
    return product
    ### END SOLUTION


# %%
check("hvp", hvp)

# %% [markdown] lang="en"
# Against the whole Hessian, and replayed: in the first backward, new nodes appear beside the
# graph of `f` (the gradient's own graph, recorded because of `create_graph=True`); the second
# backward runs through those new nodes, down to `x`.

# %% [markdown] lang="zh"
# 和完整的 Hessian 对照一下，再回放一遍：第一次反向传播时，`f` 的计算图旁边冒出新的节点
# （这是梯度自己的计算图，因为 `create_graph=True` 才被记录下来）；第二次反向传播沿着这些新节点一直走到 `x`。

# %%
v = torch.tensor([1.0, 0.0, -1.0], dtype=torch.float64)
try:
    with minigrad.viz.record() as trace:
        product = hvp(f, x, v)
    print("hvp(f, x, v):", product)
    print("H @ v:       ", H @ v)
except NotImplementedError:
    trace = None
    print(say("(write hvp first)", "（请先写好 hvp）"))

# %% tags=["nbval-ignore-output"]
if trace is not None:
    display(minigrad.viz.animate(trace, view="backward"))

# %% [markdown] lang="en"
# ## A Function that saves what forward computed
#
# Lesson 12's `Cube` saved its input and computed `3x²` in backward. The tutorial's next example
# saves what forward computed along the way: `sinh x = (eˣ − e⁻ˣ) / 2`, whose derivative
# `(eˣ + e⁻ˣ) / 2` reuses both exponentials. Saved as they are, they break double backward:

# %% [markdown] lang="zh"
# ## 保存 forward 中间结果的 Function
#
# 第 12 讲的 `Cube` 保存的是输入，在 backward 里再算 `3x²`。教程的下一个例子保存的是 forward
# 途中算出的东西：`sinh x = (eˣ − e⁻ˣ) / 2`，它的导数 `(eˣ + e⁻ˣ) / 2` 正好要重用这两个指数。
# 如果直接把它们保存起来，二次反向传播就会出错：

# %%
class SinhSavesIntermediates(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx, expnegx = torch.exp(x), torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2

    @staticmethod
    def backward(ctx, grad_out):
        expx, expnegx = ctx.saved_tensors
        return grad_out * (expx + expnegx) / 2


x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
print("gradgradcheck:", torch.autograd.gradgradcheck(SinhSavesIntermediates.apply, (x,),
                                                     raise_exception=False))
(first,) = torch.autograd.grad(SinhSavesIntermediates.apply(x).sum(), x, create_graph=True)
print("first derivative:", first, " requires_grad:", first.requires_grad)

# %% [markdown] lang="en"
# The first derivative is right, but it has no graph: forward ran with grad mode off, so `expx`
# and `expnegx` are tensors with no history, and nothing leads from them back to `x`. The
# tutorial's fix: return them as outputs too. Outputs are attached to the node, so a second
# backward reaches `x` through them, provided backward adds the gradients that arrive through
# them. (It is also the only way `setup_context`, lesson 07, could save them.) A wrapper keeps
# the first output for the user:

# %% [markdown] lang="zh"
# 一阶导数是对的，但它没有计算图：forward 运行时梯度模式是关闭的，所以 `expx` 和 `expnegx`
# 是没有历史的张量，没有任何路径能从它们通回 `x`。教程的修复办法是：把它们也作为输出返回。
# 输出会挂在节点上，所以第二次反向传播能经由它们到达 `x`，前提是 backward 要把经由它们传来的梯度也加上。
# （这也是 `setup_context`（第 07 讲）保存它们的唯一办法。）再用一个包装函数把第一个输出交给用户：

# %%
class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx, expnegx = torch.exp(x), torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx

    @staticmethod
    def backward(ctx, grad_out, grad_out_exp, grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += grad_out_exp * expx          # the gradients that arrive through  # zh: 经由这两个输出
        grad_input -= grad_out_negexp * expnegx    # the two intermediate outputs  # zh: 传来的梯度
        return grad_input


def sinh(x):
    return Sinh.apply(x)[0]


print("gradgradcheck:", torch.autograd.gradgradcheck(sinh, (x,)))
(first,) = torch.autograd.grad(sinh(x).sum(), x, create_graph=True)
(second,) = torch.autograd.grad(first.sum(), x)
print("second derivative:", second, "  sinh x:", torch.sinh(x.detach()))

# %% [markdown] lang="en"
# ### Exercise `softplus_double_backward`
#
# The softplus, `log(1 + eˣ)`, a smooth ReLU, has the derivative `eˣ / (1 + eˣ)`: forward's
# intermediate `eˣ` is all backward needs. Write `Softplus` the tutorial's way:
# `Softplus.apply(x)` returns `(log(1 + eˣ), eˣ)`, and `softplus(x)`, given, keeps the first.
# Double backward must be right.

# %% [markdown] lang="zh"
# ### 练习 `softplus_double_backward`
#
# softplus 函数 `log(1 + eˣ)` 是平滑版的 ReLU，它的导数是 `eˣ / (1 + eˣ)`：backward 需要的只是 forward
# 的中间结果 `eˣ`。请按教程的方式实现 `Softplus`：`Softplus.apply(x)` 返回 `(log(1 + eˣ), eˣ)`，
# 已经给出的 `softplus(x)` 只保留第一个。二次反向传播必须正确。

# %%
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        e = x.exp()
        ctx.save_for_backward(e)
        return (1 + e).log(), e
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_y, grad_e):
        ### BEGIN SOLUTION
        (e,) = ctx.saved_tensors
        return grad_y * e / (1 + e) + grad_e * e
        ### END SOLUTION


def softplus(x):
    return Softplus.apply(x)[0]


# %%
check("softplus_double_backward", Softplus)

# %% [markdown] lang="en"
# ## When backward cannot be recorded: a Function of its own
#
# Some backwards cannot be written in tensor ops: they call numpy, a C library, a GPU kernel of
# their own. Lesson 12 marked such a backward `@once_differentiable`, and gave up double
# backward. The tutorial's other way keeps it: make the backward a Function too. Its forward
# computes the gradient any way it likes; its backward says how that gradient changes, with
# respect to each of its inputs, the incoming gradient and `x`. The tutorial's `Cube`, here with
# numpy in both forwards:

# %% [markdown] lang="zh"
# ## backward 无法被记录时：给它一个自己的 Function
#
# 有些 backward 没法用张量运算来写：它们调用 numpy、某个 C 库，或者自己的 GPU 内核。第 12 讲用
# `@once_differentiable` 标记了这样的 backward，也就放弃了二次反向传播。教程给出的另一种办法能保住它：
# 把 backward 也写成一个 Function。它的 forward 用任何方式算出梯度都行；它的 backward 则说明这个梯度
# 如何变化，对它的每个输入（传进来的梯度和 `x`）各给出一个梯度。下面是教程里的 `Cube`，这里两个 forward
# 都用 numpy 计算：

# %%
class CubeBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, grad_out, x):
        ctx.save_for_backward(x, grad_out)
        return grad_out * torch.from_numpy(3 * x.numpy() ** 2)

    @staticmethod
    def backward(ctx, grad_out):
        x, sav_grad_out = ctx.saved_tensors
        dgrad_out = grad_out * 3 * x ** 2
        dx = grad_out * sav_grad_out * 6 * x
        return dgrad_out, dx


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.from_numpy(x.numpy() ** 3)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return CubeBackward.apply(grad_out, x)


x = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True)
(first,) = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
print("first:", first, "  its node:", first.grad_fn.name())
(second,) = torch.autograd.grad(first.sum(), x)
print("second:", second, "  6x:", 6 * x.detach())
print("gradgradcheck:", torch.autograd.gradgradcheck(Cube.apply, (x,)))

# %% [markdown] lang="en"
# The gradient's node is `CubeBackwardBackward`, the node of the Function `CubeBackward`. The
# gradient with respect to `grad_out` matters whenever the incoming gradient depends on `x`
# itself, as it does for a loss `(y * y).sum()`; `gradgradcheck` tests it too.
#
# ### Exercise `sin_backward_function`
#
# Write `Sin` and `SinBackward`, both computing with numpy in forward (`np.sin`, `np.cos`):
# `Sin.apply(x)` is `sin x`, and its backward returns `SinBackward.apply(grad_output, x)`, which
# is `grad_output · cos x`. Give `SinBackward` the backward that makes the second derivative of
# `Sin` right, for any loss. Its own backward may compute in tensor ops, and then every order of
# derivative works; or in numpy, marked `@once_differentiable`, and then a third derivative
# raises. Never let one be silently wrong.

# %% [markdown] lang="zh"
# ### 练习 `sin_backward_function`
#
# 实现 `Sin` 和 `SinBackward`，两者的 forward 都用 numpy 计算（`np.sin`、`np.cos`）：`Sin.apply(x)` 是 `sin x`，
# 它的 backward 返回 `SinBackward.apply(grad_output, x)`，也就是 `grad_output · cos x`。请给 `SinBackward`
# 写一个 backward，让 `Sin` 的二阶导数对任何损失都正确。这个 backward 可以用张量运算来写，那样任意阶导数都正确；
# 也可以用 numpy 来写，但要标记 `@once_differentiable`，那样三阶导数会报错。无论如何，都不能让某一阶导数悄无声息地算错。

# %%
class SinBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, grad_output, x):
        ### BEGIN SOLUTION
        ctx.save_for_backward(grad_output, x)
        return grad_output * torch.from_numpy(np.cos(x.numpy()))
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad):
        ### BEGIN SOLUTION
        grad_output, x = ctx.saved_tensors
        return grad * x.cos(), -grad * grad_output * x.sin()
        ### END SOLUTION


class Sin(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ### BEGIN SOLUTION
        ctx.save_for_backward(x)
        return torch.from_numpy(np.sin(x.numpy()))
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        return SinBackward.apply(grad_output, x)
        ### END SOLUTION


# %%
check("sin_backward_function", Sin)

# %% [markdown] lang="en"
# ## Summary
#
# - `torch.autograd.functional.jacobian` and `hessian` build whole matrices, one backward per
#   row; a Hessian-vector product is the gradient of `∇f(x) · v`: two backwards, no matrix.
# - A Function that saves a tensor forward computed must return it as an output (and add the
#   gradient arriving through it in backward); otherwise its double backward has no path back
#   to `x`.
# - A backward that autograd cannot record can be a Function of its own, whose backward gives
#   the derivatives with respect to the incoming gradient and the input; or it is marked
#   `@once_differentiable`, and higher orders raise.

# %% [markdown] lang="zh"
# ## 小结
#
# - `torch.autograd.functional.jacobian` 和 `hessian` 构造完整的矩阵，每一行一次反向传播；
#   Hessian-向量积是 `∇f(x) · v` 的梯度：两次反向传播，不需要矩阵。
# - 保存了 forward 中间结果的 Function 必须把它作为输出返回（并在 backward 里加上经由它传来的梯度）；
#   否则它的二次反向传播找不到通回 `x` 的路径。
# - autograd 无法记录的 backward 可以写成一个独立的 Function，由它的 backward 给出对传入梯度和对输入的导数；
#   或者标记为 `@once_differentiable`，更高阶的导数就会报错。

# %% [markdown] lang="en"
# ## Read the code
#
# `hessian` is the Jacobian of a function that returns the gradient (taken with
# `create_graph=True`, so that it can be differentiated). `_hessian_product` is `vhp` and `hvp`:
# `vhp` is your two passes; PyTorch's `hvp` takes a third, the double-backward trick, which
# gives `H·v` even where a custom backward makes H not symmetric.

# %% [markdown] lang="zh"
# ## 读源码
#
# `hessian` 就是一个返回梯度的函数的雅可比矩阵（梯度用 `create_graph=True` 求出，才能再求导）。
# `_hessian_product` 实现了 `vhp` 和 `hvp`：`vhp` 就是你写的那两次反向传播；PyTorch 的 `hvp`
# 多做了一次，也就是二次反向传播的技巧，这样即使自定义 backward 让 H 不对称，它给出的也是 `H·v`。

# %% tags=["nbval-ignore-output"]
from minigrad.surface.functional import _hessian_product, hessian
from minigrad.lessons import show_source

show_source(hessian, _hessian_product)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("13-hessian-of-cubes")

# %% [markdown] lang="en"
# Next lesson turns autograd around: forward mode, where derivatives travel with the values
# instead of running backward.

# %% [markdown] lang="zh"
# 下一讲把自动求导反过来：前向模式，导数跟着数值一起往前传，而不是靠反向传播。
