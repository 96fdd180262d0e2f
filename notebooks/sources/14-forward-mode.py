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
# Every lesson so far used **reverse mode**: the forward pass records the graph, then backward walks
# it from the output back to the inputs. Call `J` the Jacobian matrix of `y = f(x)`: one row per
# output element, one column per input element. A backward with the gradient `u` computes the
# vector-Jacobian product `uᵀJ`; with `u` = 1 at output `i` and 0 elsewhere, that is **row `i`** of `J`.
#
# **Forward mode** goes the other way. Each input carries a **tangent** `t`, the direction in which
# it moves, and every op turns the tangents of its inputs into the tangent of its output, during
# the forward pass itself. What comes out is the Jacobian-vector product `J·t`; with `t` = 1 at
# input `j` and 0 elsewhere, that is **column `j`** of `J`.
#
# Which one is cheaper depends on the shape of `J`:
#
# - many inputs, one output (a loss of a million weights): one backward gives the whole gradient,
#   forward mode would need a million passes. Reverse mode wins.
# - one input, many outputs (a curve in space, or every output of a model as one hyperparameter
#   changes): one forward pass gives the derivative of every output. Forward mode wins.
#
# Forward mode also keeps nothing for later: no graph to walk back, no saved tensors.

# %% [markdown] lang="zh"
# 前面各讲用的都是**反向模式自动微分**（简称反向模式）：前向传播记录计算图，再由反向传播从输出沿图走回输入。
# 设 `y = f(x)` 的雅可比矩阵为 `J`：每个输出元素占一行，每个输入元素占一列。以梯度 `u` 做一次反向传播，
# 算出的是向量-雅可比积 `uᵀJ`；如果 `u` 在第 `i` 个输出处为 1、其余为 0，得到的就是 `J` 的**第 `i` 行**。
#
# **前向模式**反过来做。每个输入都带着一个**切向量** `t`，表示它朝哪个方向变化；每个运算在前向传播的同时，
# 就把输入的切向量变成输出的切向量。最后得到的是雅可比-向量积 `J·t`；如果 `t` 在第 `j` 个输入处为 1、
# 其余为 0，得到的就是 `J` 的**第 `j` 列**。
#
# 哪种更省，要看 `J` 的形状：
#
# - 输入很多、输出只有一个（比如由一百万个权重算出的损失）：一次反向传播就能得到完整的梯度，
#   前向模式却要跑一百万遍。反向模式胜出。
# - 输入只有一个、输出很多（比如空间中的一条曲线，或某个超参数变化时模型的全部输出）：
#   一次前向传播就能得到每个输出的导数。前向模式胜出。
#
# 此外，前向模式不必为以后留下任何东西：既没有要倒着走的计算图，也没有保存的张量。

# %%
import minigrad as torch
from minigrad.lessons import say, show_error

# %% [markdown] lang="en"
# ## Dual numbers
#
# Forward mode is easiest to see with **dual numbers**: numbers `a + b·ε`, where `ε` is a symbol
# with `ε² = 0` (as `i² = -1` for complex numbers, except that here the square is zero). Multiply
# two of them:
#
# $$(a + b\varepsilon)(c + d\varepsilon) = ac + (ad + bc)\,\varepsilon + bd\,\varepsilon^2 = ac + (ad + bc)\,\varepsilon$$
#
# The `ε` part is exactly the product rule. In general $f(a + b\varepsilon) = f(a) + f'(a)\,b\,\varepsilon$:
# compute with the pair (value, tangent), and the tangent that comes out is the derivative times
# `b`. Here are `+` and `*` in plain Python, on plain numbers, and the function `x² + y²` at
# `x = 3`, `y = 2`, once per direction:

# %% [markdown] lang="zh"
# ## 对偶数
#
# 用**对偶数**来理解前向模式最直观。对偶数形如 `a + b·ε`，其中 `ε` 是一个满足 `ε² = 0` 的符号
# （就像复数里的 `i² = -1`，只不过这里的平方等于零）。把两个对偶数相乘：
#
# $$(a + b\varepsilon)(c + d\varepsilon) = ac + (ad + bc)\,\varepsilon + bd\,\varepsilon^2 = ac + (ad + bc)\,\varepsilon$$
#
# `ε` 那一项正好就是乘积法则。一般地，$f(a + b\varepsilon) = f(a) + f'(a)\,b\,\varepsilon$：
# 拿（值，切向量）这一对数去计算，算出来的切向量就是导数乘以 `b`。下面用纯 Python 和普通的数实现
# `+` 和 `*`，再沿每个方向各算一次函数 `x² + y²` 在 `x = 3`、`y = 2` 处的值：

# %%
class Dual:
    # a + b·ε with ε² = 0: a value and its tangent, both plain Python numbers  # zh: a + b·ε，其中 ε² = 0：一个值和它的切向量，都是普通的 Python 数

    def __init__(self, value, tangent):
        self.value, self.tangent = value, tangent

    def __add__(self, other):      # (a + bε) + (c + dε) = (a + c) + (b + d)ε
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def __mul__(self, other):      # (a + bε)(c + dε) = ac + (ad + bc)ε, since ε² = 0  # zh: (a + bε)(c + dε) = ac + (ad + bc)ε，因为 ε² = 0
        return Dual(self.value * other.value,
                    self.value * other.tangent + self.tangent * other.value)


def fn(x, y):
    return x * x + y * y


for tx, ty in [(1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]:
    out = fn(Dual(3.0, tx), Dual(2.0, ty))
    print(say(f"tangents (x, y) = ({tx}, {ty}):  value {out.value}, tangent {out.tangent}",
              f"切向量 (x, y) = ({tx}, {ty})：值 {out.value}，切向量 {out.tangent}"))
print(say("by hand:", "手算："), "df/dx = 2x =", 2 * 3.0, "  df/dy = 2y =", 2 * 2.0)

# %% [markdown] lang="en"
# The value is 13 every time; the tangent depends on the direction: `(1, 0)` gives ∂f/∂x = 6,
# `(0, 1)` gives ∂f/∂y = 4, and `(1, 1)` their sum, the derivative along the diagonal. Each
# direction costs one pass, and nothing ran backward.

# %% [markdown] lang="zh"
# 值每次都是 13；切向量则取决于方向：`(1, 0)` 给出 ∂f/∂x = 6，`(0, 1)` 给出 ∂f/∂y = 4，
# `(1, 1)` 给出两者之和，也就是沿对角线方向的导数。每个方向算一遍，而且完全没有反向传播。

# %% [markdown] lang="en"
# ## Dual tensors: `torch.autograd.forward_ad`
#
# PyTorch does the same with whole tensors. Inside `with fwAD.dual_level():`,
# `fwAD.make_dual(primal, tangent)` makes a **dual tensor**: the ordinary value, called the
# **primal**, with a tangent of the same shape attached. Every op on it computes the tangent of
# its result, and `fwAD.unpack_dual(y)` gives both back, as `.primal` and `.tangent`. This is the
# code of PyTorch's forward-mode AD tutorial, on three numbers instead of a random 10×10 matrix
# (with PyTorch, the import is `import torch.autograd.forward_ad as fwAD`):

# %% [markdown] lang="zh"
# ## 对偶张量：`torch.autograd.forward_ad`
#
# PyTorch 对整个张量做同样的事。在 `with fwAD.dual_level():` 里，`fwAD.make_dual(primal, tangent)`
# 创建一个**对偶张量**：普通的值（称为**原始值**，primal）再附上一个形状相同的切向量。对它做的每个运算
# 都会算出结果的切向量，`fwAD.unpack_dual(y)` 则把两者取回来，分别是 `.primal` 和 `.tangent`。
# 下面就是 PyTorch 前向模式自动微分教程里的代码，只是把随机的 10×10 矩阵换成了三个数
# （用 PyTorch 时写 `import torch.autograd.forward_ad as fwAD`）：

# %%
import minigrad.autograd.forward_ad as fwAD

primal = torch.tensor([1.0, 2.0, 3.0])
tangent = torch.tensor([1.0, 0.5, 0.0])
plain_tensor = torch.tensor([4.0, 5.0, 6.0])


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input, plain_tensor)      # only dual_input carries a tangent  # zh: 只有 dual_input 带着切向量
    print("dual_input: ", dual_input)
    print("dual_output:", dual_output)
    jvp = fwAD.unpack_dual(dual_output).tangent
print("jvp:  ", jvp)
print("2·x·t:", 2 * primal * tangent)
print(say("after the level, tangent =", "离开 dual_level 之后，tangent ="),
      fwAD.unpack_dual(dual_output).tangent)

# %% [markdown] lang="en"
# `plain_tensor` has no tangent, so it counts as a constant (tangent 0): the tangent of `x² + y²`
# is `2x·t`, the derivative times the direction, computed element by element. When `dual_level()`
# ends, every tangent made inside it is deleted, and `unpack_dual` returns `None`. Only tensors
# made by `make_dual`, or by an op with a dual input, carry a tangent; the others cost nothing
# extra.

# %% [markdown] lang="zh"
# `plain_tensor` 没有切向量，所以被当作常数（切向量为 0）：`x² + y²` 的切向量是 `2x·t`，
# 即导数乘以方向，逐元素计算。离开 `dual_level()` 时，在其中产生的所有切向量都会被删除，
# 之后 `unpack_dual` 返回 `None`。只有 `make_dual` 创建的张量，或由带对偶输入的运算得到的张量，
# 才带有切向量；其他张量不会多花任何代价。

# %% [markdown] lang="en"
# ## A whole Jacobian, column by column or row by row
#
# Take `f(x) = sin(x[:2] · x[1:])`: three inputs, two outputs, so `J` is 2×3. Forward mode with the
# tangent `e_j` (1 at input `j`, 0 elsewhere) gives column `j`: three forward passes. Reverse
# mode with `grad_outputs = e_i` gives row `i`: two backward passes through one graph, kept with
# `retain_graph=True`.

# %% [markdown] lang="zh"
# ## 整个雅可比矩阵：一列一列地算，或一行一行地算
#
# 取 `f(x) = sin(x[:2] · x[1:])`：三个输入、两个输出，所以 `J` 是 2×3 的矩阵。前向模式用切向量 `e_j`
# （第 `j` 个输入处为 1、其余为 0）得到第 `j` 列，共要三次前向传播；反向模式用 `grad_outputs = e_i`
# 得到第 `i` 行，共要两次反向传播，用 `retain_graph=True` 保留同一张计算图。

# %%
def f(x):
    return (x[:2] * x[1:]).sin()


x = torch.tensor([0.5, 1.0, 1.5])

columns = []
with fwAD.dual_level():
    for j in range(3):
        e_j = torch.zeros(3)
        e_j[j] = 1.0
        columns.append(fwAD.unpack_dual(f(fwAD.make_dual(x, e_j))).tangent)
J_forward = torch.stack(columns, dim=1)

leaf = x.clone().requires_grad_()
y = f(leaf)
rows = []
for i in range(2):
    e_i = torch.zeros(2)
    e_i[i] = 1.0
    (row,) = torch.autograd.grad(y, leaf, grad_outputs=e_i, retain_graph=True)
    rows.append(row)
J_reverse = torch.stack(rows)

print(say("forward mode, 3 columns:", "前向模式，3 列："), J_forward, sep="\n")
print(say("reverse mode, 2 rows:", "反向模式，2 行："), J_reverse, sep="\n")
print("allclose:", torch.allclose(J_forward, J_reverse))

# %% [markdown] lang="en"
# The same matrix, sliced two ways. Here reverse mode needed fewer passes (2 outputs, 3 inputs);
# for one input and a thousand outputs, forward mode would need one pass and reverse mode a
# thousand. PyTorch's `torch.func.jacfwd` and `torch.func.jacrev` build Jacobians with exactly
# these loops, run as one batch.

# %% [markdown] lang="zh"
# 同一个矩阵，两种切法。这里反向模式用的次数更少（2 个输出、3 个输入）；如果是 1 个输入、1000 个输出，
# 前向模式只要一次，反向模式却要一千次。PyTorch 的 `torch.func.jacfwd` 和 `torch.func.jacrev`
# 就是用这两种循环来构造雅可比矩阵的，只不过把这些循环合成一批，一次算完。

# %% [markdown] lang="en"
# ## A custom Function with `jvp`
#
# The custom Functions of lesson 04 define `backward(ctx, grad_output)`, the vector-Jacobian product
# of the op. For forward mode, a custom Function defines `jvp(ctx, *input_tangents)` instead, which
# returns the tangent of the output: for `exp`, `t · exp(x)`. This is the tutorial's example.
# `forward` keeps its result on `ctx` as a plain attribute: `jvp` runs right after `forward`, so
# nothing can modify it in between. `jvp` deletes it when done, since no backward will need it.

# %% [markdown] lang="zh"
# ## 带 `jvp` 的自定义 Function
#
# 第 04 讲的自定义 Function 定义的是 `backward(ctx, grad_output)`，也就是这个运算的向量-雅可比积。
# 要支持前向模式，自定义 Function 则要定义 `jvp(ctx, *input_tangents)`，返回输出的切向量：对 `exp` 来说就是
# `t · exp(x)`。下面是教程里的例子。`forward` 把结果作为普通属性存到 `ctx` 上：`jvp` 紧接在 `forward`
# 之后运行，这期间结果不可能被改动。`jvp` 用完就把它删掉，因为不会有 backward 再用到它。

# %%
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


primal = torch.tensor([-1.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
tangent = torch.tensor([1.0, 1.0, 0.5], dtype=torch.float64)
with fwAD.dual_level():
    dual_output = Exp.apply(fwAD.make_dual(primal, tangent))
    jvp = fwAD.unpack_dual(dual_output).tangent
print("jvp:         ", jvp.detach())
print("t · exp(x):  ", tangent * primal.detach().exp())

# %% [markdown] lang="en"
# Is the `jvp` right? `gradcheck(..., check_forward_ad=True)` builds the Jacobian column by column
# with your `jvp`, as above, and compares it with finite differences (lesson 10). This `Exp` has no
# `backward`, so turn off the checks that need one: `check_backward_ad`, `check_undefined_grad`
# and `check_batched_grad`.

# %% [markdown] lang="zh"
# 这个 `jvp` 写对了吗？`gradcheck(..., check_forward_ad=True)` 会像上面那样，用你的 `jvp` 一列一列地
# 构造雅可比矩阵，再和有限差分的结果比较（见第 10 讲）。这个 `Exp` 没有 `backward`，所以要关掉那些需要
# backward 的检查：`check_backward_ad`、`check_undefined_grad` 和 `check_batched_grad`。

# %%
print(torch.autograd.gradcheck(Exp.apply, (primal,), check_forward_ad=True,
                               check_backward_ad=False, check_undefined_grad=False,
                               check_batched_grad=False))

# %% [markdown] lang="en"
# A wrong `jvp` fails the way the wrong backward of lesson 10 did. This one forgot the factor
# `exp(x)`:

# %% [markdown] lang="zh"
# 写错的 `jvp` 会像第 10 讲里写错的 backward 一样通不过检查。下面这个漏掉了因子 `exp(x)`：

# %%
class WrongExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        return torch.exp(foo)

    @staticmethod
    def jvp(ctx, gI):
        return gI                      # the right formula: gI * exp(foo)  # zh: 正确的公式：gI * exp(foo)


try:
    torch.autograd.gradcheck(WrongExp.apply, (primal,), check_forward_ad=True,
                             check_backward_ad=False, check_undefined_grad=False,
                             check_batched_grad=False)
except RuntimeError as error:
    show_error(error)

# %% [markdown] lang="en"
# The diagonal of the numerical Jacobian is `exp(x)`; the analytical one, from `jvp`, is all ones.
#
# And a custom Function with no `jvp` at all, such as lesson 04's `Exp` with only a `backward`?
# On tensors that are not dual it works as before, even inside `fwAD.dual_level()`. Given a dual
# input, it cannot make up a tangent, and says so:

# %% [markdown] lang="zh"
# 数值雅可比矩阵的对角线是 `exp(x)`，而由 `jvp` 得到的解析雅可比矩阵全是 1。
#
# 那如果自定义 Function 根本没有 `jvp` 呢？比如第 04 讲里只有 `backward` 的 `Exp`。
# 对不是对偶张量的输入，它照常工作，即使在 `fwAD.dual_level()` 里面也一样；可一旦输入是对偶张量，
# 它没法凭空造出切向量，于是报错：

# %%
class ExpWithoutJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


with fwAD.dual_level():
    print(ExpWithoutJvp.apply(torch.tensor([0.0, 1.0])))
    try:
        ExpWithoutJvp.apply(fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.ones(2)))
    except NotImplementedError as error:
        show_error(error)

# %% [markdown] lang="en"
# ### Exercise `mul_jvp`
#
# Write `Mul`, a custom Function for `a · b` that works in forward mode. Its `jvp(ctx, a_t, b_t)`
# receives one tangent per input and returns the tangent of the output: the ε part of
# `(a + a_t·ε)(b + b_t·ε)` from the dual numbers above. Keep what `jvp` needs with
# `ctx.save_for_forward(a, b)` and read it back with `ctx.saved_tensors` (in PyTorch, `jvp` sees
# only what `save_for_forward` saved), or as plain attributes of `ctx`.

# %% [markdown] lang="zh"
# ### 练习 `mul_jvp`
#
# 编写 `Mul`：一个计算 `a · b`、能用于前向模式的自定义 Function。它的 `jvp(ctx, a_t, b_t)`
# 为每个输入接收一个切向量，返回输出的切向量，也就是前面对偶数乘法 `(a + a_t·ε)(b + b_t·ε)` 中 ε 的那一项。
# `jvp` 要用到的东西，可以用 `ctx.save_for_forward(a, b)` 保存、再用 `ctx.saved_tensors` 取回
# （在 PyTorch 里，`jvp` 只能看到 `save_for_forward` 保存的张量），也可以作为 `ctx` 的普通属性存放。

# %%
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ### BEGIN SOLUTION
        ctx.save_for_forward(a, b)
        return a * b
        ### END SOLUTION

    @staticmethod
    def jvp(ctx, a_t, b_t):
        ### BEGIN SOLUTION
        a, b = ctx.saved_tensors
        return a_t * b + a * b_t
        ### END SOLUTION


# %%
from minigrad.exercises import check

check("mul_jvp", Mul)

# %% [markdown] lang="en"
# ## One Function for both modes, in today's form
#
# `Mul` has only a `jvp`, the Functions of lesson 04 only a `backward`; a Function that others
# will use needs both. Lesson 07's form suits it: `forward(*inputs)` computes, and
# `setup_context(ctx, inputs, output)` saves for each direction what it reads,
# `ctx.save_for_backward(...)` for `backward` and `ctx.save_for_forward(...)` for `jvp`. Each
# reads its own with `ctx.saved_tensors`.
#
# The two are products with the same Jacobian, taken from opposite sides: `backward` receives
# `g`, one number per output, and returns `Jᵀg`, one per input; `jvp` receives `t`, one number per
# input, and returns `J·t`, one per output. Where `J` is symmetric, as for an elementwise op (a
# diagonal `J`) or a softmax, one formula serves both; in general it does not. Dividing a row of
# positive numbers by its sum, `y = x / s` with `s = Σⱼ xⱼ` (shares, probabilities), is such a
# case:

# %% [markdown] lang="zh"
# ## 一个 Function 支持两种模式，用现在的写法
#
# `Mul` 只有 `jvp`，第 04 讲的 Function 只有 `backward`；要给别人用的 Function 两者都得有。
# 第 07 讲的写法正适合它：`forward(*inputs)` 只管计算，`setup_context(ctx, inputs, output)`
# 为每个方向保存它要读的东西，`ctx.save_for_backward(...)` 留给 `backward`，`ctx.save_for_forward(...)`
# 留给 `jvp`。两者都用 `ctx.saved_tensors` 读取，读到的各是各的。
#
# 这两个方法是同一个雅可比矩阵从两边做的乘积：`backward` 接收 `g`（每个输出一个数），返回 `Jᵀg`
# （每个输入一个数）；`jvp` 接收 `t`（每个输入一个数），返回 `J·t`（每个输出一个数）。如果 `J` 是对称的，
# 比如逐元素运算（`J` 是对角矩阵）或 softmax，同一个公式两边都能用；一般情况下却不行。把一行正数除以它们的和，
# 即 `y = x / s`，其中 `s = Σⱼ xⱼ`（求份额、概率时就这样做），就是这样的例子：

# %%
x = torch.tensor([1.0, 2.0, 5.0], dtype=torch.float64)
J = torch.autograd.functional.jacobian(lambda x: x / x.sum(), x)
print("64 · J:", J * 64, sep="\n")
print("symmetric:", torch.allclose(J, J.T))

# %% [markdown] lang="en"
# ### Exercise `normalize_both_modes`
#
# Write `Normalize`: `Normalize.apply(x)` divides each row of `x` (along its last dimension) by
# the row's sum, for an `x` of any number of dimensions. Give it a `backward` and a `jvp`, and
# save in `setup_context` what each of them reads. Work out `∂yᵢ/∂xⱼ` for one row on paper first
# (every `xⱼ` is in `s` too), then the two products; the matrix above lets you try your formulas
# on numbers.

# %% [markdown] lang="zh"
# ### 练习 `normalize_both_modes`
#
# 实现 `Normalize`：`Normalize.apply(x)` 把 `x` 的每一行（沿最后一维）除以该行的和，`x` 可以有任意多维。
# 给它写上 `backward` 和 `jvp`，并在 `setup_context` 里保存它们各自要读的东西。先在纸上推出一行的
# `∂yᵢ/∂xⱼ`（每个 `xⱼ` 也出现在 `s` 里），再推出两个乘积；可以用上面的矩阵拿具体的数检验你的公式。

# %%
class Normalize(torch.autograd.Function):
    @staticmethod
    def forward(x):
        ### BEGIN SOLUTION
        return x / x.sum(-1, keepdim=True)
        ### END SOLUTION

    @staticmethod
    def setup_context(ctx, inputs, output):
        ### BEGIN SOLUTION
        (x,) = inputs
        ctx.save_for_backward(x, output)
        ctx.save_for_forward(x, output)
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        x, y = ctx.saved_tensors
        total = x.sum(-1, keepdim=True)
        return (grad_output - (grad_output * y).sum(-1, keepdim=True)) / total
        ### END SOLUTION

    @staticmethod
    def jvp(ctx, x_t):
        ### BEGIN SOLUTION
        x, y = ctx.saved_tensors
        total = x.sum(-1, keepdim=True)
        return (x_t - y * x_t.sum(-1, keepdim=True)) / total
        ### END SOLUTION


# %%
check("normalize_both_modes", Normalize)

# %% [markdown] lang="en"
# Against the matrix, and through `gradcheck`, which compares `backward`'s rows and, with
# `check_forward_ad=True`, `jvp`'s columns with finite differences (lesson 10):

# %% [markdown] lang="zh"
# 和上面的矩阵对照一下，再交给 `gradcheck`：它拿有限差分（第 10 讲）来比较 `backward` 给出的行，
# 加上 `check_forward_ad=True` 后还比较 `jvp` 给出的列：

# %%
g = torch.tensor([1.0, -1.0, 0.5], dtype=torch.float64)
t = torch.tensor([1.0, 0.5, -1.0], dtype=torch.float64)
try:
    leaf = x.detach().requires_grad_()
    (grad,) = torch.autograd.grad(Normalize.apply(leaf), leaf, g)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(Normalize.apply(fwAD.make_dual(x, t))).tangent
    print("backward:", grad, "   g @ J:", g @ J)
    print("jvp:     ", tangent, "   J @ t:", J @ t)
    rows = torch.tensor([[1.0, 2.0, 5.0], [0.5, 1.5, 2.0]], dtype=torch.float64, requires_grad=True)
    print("gradcheck:", torch.autograd.gradcheck(Normalize.apply, (rows,), check_forward_ad=True))
except NotImplementedError:
    print(say("(write Normalize first)", "（请先写好 Normalize）"))
except RuntimeError as error:        # gradcheck's verdict on a wrong Normalize  # zh: gradcheck 对错误的 Normalize 给出的结论
    show_error(error)

# %% [markdown] lang="en"
# ## How minigrad gets the tangents of built-in ops
#
# PyTorch writes a JVP formula for every built-in op, next to its backward formula. minigrad writes
# none: each op's backward already computes `v = Jᵀu`, and `v` is linear in `u`, so
# `⟨Jᵀu, t⟩ = ⟨u, J·t⟩`, and therefore
#
# $$J\,t = \frac{\partial}{\partial u}\,\big\langle J^\top u,\; t\big\rangle$$
#
# Run backward on a probe `u` (zeros that require grad) with `create_graph=True`, then
# differentiate `(vjp * t).sum()` with respect to `u`: two small backward passes per op, which is
# what `minigrad/surface/forward_ad.py` does for every op with a dual input. The numbers are
# those of PyTorch's formulas (the tests compare them op by op); the formulas are just faster.
# By hand, on `f` from above:

# %% [markdown] lang="zh"
# ## minigrad 怎样得到内置运算的切向量
#
# PyTorch 为每个内置运算都写了一个雅可比-向量积（JVP）公式，和它的反向传播公式放在一起。minigrad
# 一个也没写：每个运算的 backward 已经在计算 `v = Jᵀu`，而 `v` 对 `u` 是线性的，所以
# `⟨Jᵀu, t⟩ = ⟨u, J·t⟩`，从而
#
# $$J\,t = \frac{\partial}{\partial u}\,\big\langle J^\top u,\; t\big\rangle$$
#
# 先取一个探针 `u`（全零、需要梯度的张量），用 `create_graph=True` 做反向传播，再对 `u` 求
# `(vjp * t).sum()` 的导数：每个运算只需两次小小的反向传播。`minigrad/surface/forward_ad.py`
# 对每个带对偶输入的运算做的正是这件事。算出的数和 PyTorch 公式给出的一样（测试逐个运算做了比较），
# 只是公式算得更快。下面在前面的 `f` 上手算一遍：

# %%
x = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
t = torch.tensor([1.0, -1.0, 0.5])
u = torch.zeros(2, requires_grad=True)                                    # the probe  # zh: 探针
(vjp,) = torch.autograd.grad(f(x), x, grad_outputs=u, create_graph=True)  # Jᵀu, linear in u  # zh: Jᵀu，对 u 是线性的
(jvp_by_hand,) = torch.autograd.grad((vjp * t).sum(), u)                  # J·t
with fwAD.dual_level():
    jvp_forward = fwAD.unpack_dual(f(fwAD.make_dual(x.detach(), t))).tangent
print("d/du <Jᵀu, t>:", jvp_by_hand)
print(say("forward mode: ", "前向模式：   "), jvp_forward)
print("J_forward @ t:", J_forward @ t)

# %% [markdown] lang="en"
# ## What to remember
#
# - Backward gives a row of the Jacobian per pass (`uᵀJ`); forward mode gives a column (`J·t`),
#   computed along with the forward pass. Use the one that needs fewer passes: reverse mode for
#   many inputs and one output, forward mode for one input and many outputs.
# - A dual number `a + b·ε` with `ε² = 0` carries a value and its tangent; `fwAD.make_dual` and
#   `fwAD.unpack_dual`, inside `fwAD.dual_level()`, do the same with tensors.
# - For forward mode, a custom Function needs `jvp(ctx, *input_tangents)`, which reads what
#   `ctx.save_for_forward` saved; check it with `gradcheck(..., check_forward_ad=True)`. With a
#   `backward` too, each direction reads what was saved for it; `Jᵀg` and `J·t` are different
#   formulas unless `J` is symmetric.

# %% [markdown] lang="zh"
# ## 要记住的三点
#
# - 反向传播每次得到雅可比矩阵的一行（`uᵀJ`）；前向模式每次得到一列（`J·t`），在前向传播的同时算出。
#   哪种需要的次数少就用哪种：输入多、输出一个，用反向模式；输入一个、输出多，用前向模式。
# - 对偶数 `a + b·ε`（`ε² = 0`）同时带着值和切向量；在 `fwAD.dual_level()` 里用 `fwAD.make_dual`
#   和 `fwAD.unpack_dual`，就能对张量做同样的事。
# - 要支持前向模式，自定义 Function 需要 `jvp(ctx, *input_tangents)`，它读取的是 `ctx.save_for_forward`
#   保存的张量；用 `gradcheck(..., check_forward_ad=True)` 检验它。如果还有 `backward`，两个方向各读各的保存结果；
#   除非 `J` 是对称的，`Jᵀg` 和 `J·t` 是两个不同的公式。

# %% [markdown] lang="en"
# ## Read the code
#
# A built-in op has no jvp of its own in minigrad: `_builtin_jvp` derives it from the backward,
# as you did by hand above, J·t = d/du ⟨Jᵀu, t⟩. Look for the probes `u` (`probes`), the first
# `grad` with `create_graph=True` (Jᵀu), and the second (its derivative in u).
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# 在 minigrad 里，内置运算没有自己的 jvp：`_builtin_jvp` 像你上面手算的那样从 backward 推出它，
# J·t = d/du ⟨Jᵀu, t⟩。留意探针 `u`（代码里的 `probes`）、第一次带 `create_graph=True` 的 `grad`（算出 Jᵀu），
# 以及第二次 `grad`（对 u 求导）。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import show_source
from minigrad.surface import forward_ad

show_source(forward_ad._builtin_jvp)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("14-probe-at-zero")

# %% [markdown] lang="en"
# With forward mode, both directions of automatic differentiation are open. Next lesson: the
# GPU, where tensors live, and how saved tensors can leave its memory.

# %% [markdown] lang="zh"
# 学完前向模式，自动微分的两个方向就都打通了。下一讲：GPU——张量放在哪个设备上，以及保存的张量怎样离开显存。
