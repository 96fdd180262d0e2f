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
# Every tensor lives on a **device**: `cpu` (its data is a numpy array) or `cuda` (a CuPy array
# in GPU memory). minigrad's ops ask the array for its module — numpy or CuPy — so the same op code
# runs on both; autograd does not care where the numbers are.
#
# This lesson runs everywhere. On a machine with an NVIDIA GPU and CuPy (`%pip install
# "minigrad-tutor[cuda]"` in a cell of this notebook installs it into the notebook's own Python;
# restart the kernel after), it uses the GPU; otherwise every cell runs on the CPU and tells you
# what would differ.

# %% [markdown] lang="zh"
# 每个张量都存放在某个**设备**上：`cpu`（数据是一个 numpy 数组）或 `cuda`（显存中的一个 CuPy 数组）。
# minigrad 的运算会先看数组属于哪个模块——numpy 还是 CuPy——所以同一份运算代码在两种设备上都能运行；
# 自动求导也不关心这些数存放在哪里。
#
# 这一讲在任何机器上都能运行。如果机器有 NVIDIA GPU 并安装了 CuPy（在本笔记本的一个单元格里运行
# `%pip install "minigrad-tutor[cuda]"`，就会装进这个笔记本自己的 Python，装好后重启内核），
# 就会使用 GPU；否则每个单元格都在 CPU 上运行，并说明有 GPU 时会有什么不同。

# %% tags=["nbval-ignore-output"]
import minigrad as torch
from minigrad.lessons import say, show_error

device = "cuda" if torch.cuda.is_available() else "cpu"
print("device:", device)

# %% [markdown] lang="en"
# That one line is the whole device choice, and it is PyTorch's own idiom. Everything below uses
# `device` instead of writing `"cuda"`.
#
# Without a GPU, asking for one is an error that says what is missing (this cell prints nothing
# when a GPU is available):

# %% [markdown] lang="zh"
# 选择设备只需要这一行，而且这正是 PyTorch 的惯用写法。下面的代码都用 `device`，而不是直接写 `"cuda"`。
#
# 没有 GPU 时硬要使用它，会得到一个说明缺了什么的报错（有 GPU 时这个单元格什么也不打印）：

# %% tags=["nbval-ignore-output"]
if not torch.cuda.is_available():
    try:
        torch.ones(3, device="cuda")
    except (RuntimeError, AssertionError) as error:
        show_error(error, name=True)

# %% [markdown] lang="en"
# ## Tensors on a device
#
# Create tensors directly on the device with `device=`, or move one with `.to(device)`. Results of
# an op live where its inputs live; so do gradients: a leaf's `.grad` is on the leaf's device.

# %% [markdown] lang="zh"
# ## 设备上的张量
#
# 用 `device=` 可以直接在设备上创建张量，也可以用 `.to(device)` 搬过去。运算结果和它的输入在同一个设备上；
# 梯度也一样：叶子张量的 `.grad` 和叶子张量本身在同一个设备上。

# %% tags=["nbval-ignore-output"]
torch.manual_seed(0)
w = torch.randn(3, 2, device=device, requires_grad=True)
x = torch.randn(4, 3).to(device)
loss = (x @ w).tanh().sum()
loss.backward()
print("x:", x.device, " w:", w.device, " loss:", loss.device, " w.grad:", w.grad.device)

# %% [markdown] lang="en"
# Moving is itself an operation that autograd records: the gradient flows back across devices.
# A leaf made on the CPU and moved to the device gets its gradient back on the CPU.

# %% [markdown] lang="zh"
# 搬运本身也是一个会被自动求导记录的运算：梯度可以跨设备流回去。
# 在 CPU 上创建的叶子张量被搬到设备上参与计算，它的梯度最终会回到 CPU 上。

# %%
a_cpu = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a_dev = a_cpu.to(device)
(a_dev ** 2).sum().backward()
print("a_cpu.grad =", a_cpu.grad, say("on", "位于"), a_cpu.grad.device)

# %% [markdown] lang="en"
# Operands of one op must be on the same device; minigrad, like PyTorch, refuses to copy behind your
# back (a hidden copy between GPU and host is slow). On a GPU this cell shows the error; on the CPU
# there is only one device, so it prints nothing.

# %% [markdown] lang="zh"
# 同一个运算的操作数必须在同一个设备上；minigrad 和 PyTorch 一样，不会偷偷替你拷贝
# （GPU 与主机之间的隐式拷贝很慢）。有 GPU 时这个单元格会显示报错；只有 CPU 时只有一个设备，什么也不打印。

# %% tags=["nbval-ignore-output"]
if device == "cuda":
    try:
        torch.ones(3) + torch.ones(3, device="cuda")
    except RuntimeError as error:
        show_error(error)

# %% [markdown] lang="en"
# ## Speed
#
# A GPU pays off on large arrays. Time a 1024×1024 matrix product and its backward on the CPU and
# on `device` (the numbers depend entirely on your machine; `.item()` waits until the GPU is done).
# The first call of each op on a GPU is slow, for reasons of its own: CuPy, which minigrad uses
# there, compiles the op's kernel; PyTorch ships its kernels compiled, but loads them on first use
# and sets up libraries such as cuBLAS. So each timing warms up first, forward and backward.
# In JupyterLite numpy runs in the browser, compiled to WebAssembly, where one such product takes
# seconds: there the cell times a 256×256 one.

# %% [markdown] lang="zh"
# ## 速度
#
# 数组越大，GPU 的优势越明显。分别在 CPU 和 `device` 上给 1024×1024 的矩阵乘法及其反向传播计时
# （数字完全取决于你的机器；`.item()` 会等 GPU 算完）。每个运算在 GPU 上第一次调用时都很慢，
# 原因各不相同：minigrad 在 GPU 上用的 CuPy 要先编译这个运算的内核；PyTorch 的内核是预先编译好的，
# 但要到第一次用时才加载，还要初始化 cuBLAS 这样的库。所以每次计时之前都先预热，前向和反向都要。
# 在 JupyterLite 里，numpy 被编译成 WebAssembly 在浏览器中运行，一次这样的乘法就要好几秒，
# 所以在那里这个单元格改为给 256×256 的乘法计时。

# %% tags=["nbval-ignore-output"]
import sys
import time

size = 256 if sys.platform == "emscripten" else 1024    # emscripten: Python in the browser  # zh: emscripten：在浏览器里运行的 Python


def time_matmul(on):
    a = torch.randn(size, size, device=on, requires_grad=True)
    for _ in range(2):       # warm-up: the first use of each GPU op is slow (CuPy compiles its kernel)  # zh: 预热：每个 GPU 运算第一次用时都很慢（CuPy 要先编译它的内核）
        (a @ a).sum().backward()
    a.grad.sum().item()
    start = time.perf_counter()
    (a @ a).sum().backward()
    a.grad.sum().item()
    return time.perf_counter() - start


print(f"{size}×{size}:")
for on in sorted({"cpu", device}):
    print(f"{on:5}: {time_matmul(on) * 1e3:8.1f} ms")

# %% [markdown] lang="en"
# ## GPU memory and `save_on_cpu`
#
# GPU memory is small compared with host memory, and between forward and backward most of it is
# held by **saved tensors** (lesson 08). `torch.autograd.graph.save_on_cpu()` packs every saved
# tensor into host memory and copies it back to the GPU when backward needs it: less device memory,
# paid for with copies.
#
# We measure the device memory held after forward. On a GPU that is
# `torch.cuda.memory_allocated()`; on the CPU we measure numpy's memory with `tracemalloc`.

# %% [markdown] lang="zh"
# ## 显存与 `save_on_cpu`
#
# 显存比主机内存小得多，而在前向传播和反向传播之间，显存大多被**保存的张量**占着（见第 08 讲）。
# `torch.autograd.graph.save_on_cpu()` 会把每个保存的张量打包到主机内存，等反向传播需要时再拷回 GPU：
# 用拷贝的开销换取更少的显存占用。
#
# 下面测量前向结束后设备上占用的内存。在 GPU 上用 `torch.cuda.memory_allocated()`；
# 在 CPU 上则用 `tracemalloc` 测量 numpy 的内存。

# %% tags=["nbval-ignore-output"]
import contextlib
import tracemalloc


def forward(x):
    return x.tanh().tanh().tanh().tanh()         # each tanh saves its 4 MiB output  # zh: 每个 tanh 都保存它 4 MiB 的输出


def device_memory_after_forward(saving):
    torch.manual_seed(0)
    x = torch.randn(1024, 1024, device=device, requires_grad=True)
    tracemalloc.start()
    before = torch.cuda.memory_allocated() if device == "cuda" else 0
    with saving:
        y = forward(x)
    if device == "cuda":
        held = torch.cuda.memory_allocated() - before
    else:
        held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    y.sum().backward()
    return held / 2**20, x.grad.sum().item()


plain = device_memory_after_forward(contextlib.nullcontext())
on_cpu = device_memory_after_forward(torch.autograd.graph.save_on_cpu())
print(f"device: {device}")
print(f"{'':14} {'MiB':>6} {'x.grad.sum()':>14}")
print(f"{'nullcontext()':14} {plain[0]:6.1f} {plain[1]:14.4f}")
print(f"{'save_on_cpu()':14} {on_cpu[0]:6.1f} {on_cpu[1]:14.4f}")

# %% [markdown] lang="en"
# On the CPU both rows show about 16 MiB: four saved 4 MiB outputs, and "save on CPU" has nowhere to
# move them. On a GPU the `save_on_cpu` row drops to about 4 MiB — only `y`, which we still hold,
# stays on the device — while the gradients are identical. PyTorch's `save_on_cpu(pin_memory=True)`
# also uses page-locked host memory to make the copies faster.
#
# ### Exercise `offload_to_cpu`
#
# `save_on_cpu` is nothing but a pair of saved-tensor hooks (lesson 08). Write that pair:
# `pack_to_cpu(tensor)` returns what the graph keeps in place of a saved tensor, namely the
# device the tensor was on and a copy in host memory (`tensor.cpu()`); `unpack_from_cpu(packed)`
# gives the tensor back on that device (`.to(device)`). The check looks at what your pack stores
# and runs a backward with your hooks. It works without a GPU too: then every tensor is on the
# CPU, and the device still has to be remembered, for the day the same code meets a GPU.

# %% [markdown] lang="zh"
# 在 CPU 上两行都约为 16 MiB：四个各 4 MiB 的输出都被保存着，而“存到 CPU”无处可搬。
# 在 GPU 上，`save_on_cpu` 那一行会降到约 4 MiB——只剩下我们仍然引用着的 `y` 留在设备上——
# 而梯度完全相同。PyTorch 的 `save_on_cpu(pin_memory=True)` 还会使用锁页内存，让拷贝更快。
#
# ### 练习 `offload_to_cpu`
#
# `save_on_cpu` 其实就是一对保存张量的钩子（第 08 讲）。请写出这对钩子：`pack_to_cpu(tensor)`
# 返回计算图用来代替保存的张量的东西，即张量原来所在的设备，加上它在主机内存里的一份拷贝（`tensor.cpu()`）；
# `unpack_from_cpu(packed)` 把张量放回那个设备（`.to(device)`）。检查程序会查看你的 pack 存了什么，
# 再用你的钩子跑一次反向传播。没有 GPU 也能做：那时所有张量都在 CPU 上，但仍然要记下设备，
# 好让同一份代码将来遇到 GPU 时也不出错。

# %%
def pack_to_cpu(tensor):
    ### BEGIN SOLUTION
    return tensor.device, tensor.cpu()
    ### END SOLUTION


def unpack_from_cpu(packed):
    ### BEGIN SOLUTION
    device, tensor = packed
    return tensor.to(device)
    ### END SOLUTION


# %%
from minigrad.exercises import check

check("offload_to_cpu", (pack_to_cpu, unpack_from_cpu))

# %% [markdown] lang="en"
# ## Summary
#
# | | |
# |---|---|
# | choose | `device = "cuda" if torch.cuda.is_available() else "cpu"` |
# | create / move | `torch.randn(..., device=device)`, `t.to(device)`, `t.cpu()` |
# | rule | operands on one device; gradients land on their leaf's device |
# | memory | saved tensors dominate; `save_on_cpu()` keeps them in host memory |

# %% [markdown] lang="zh"
# ## 小结
#
# | | |
# |---|---|
# | 选择设备 | `device = "cuda" if torch.cuda.is_available() else "cpu"` |
# | 创建 / 搬运 | `torch.randn(..., device=device)`、`t.to(device)`、`t.cpu()` |
# | 规则 | 同一运算的操作数必须在同一设备上；梯度落在其叶子张量所在的设备上 |
# | 内存 | 保存的张量占大头；`save_on_cpu()` 把它们留在主机内存里 |

# %% [markdown] lang="en"
# ## Read the code
#
# A device is where the array lives: `backend.move` copies a numpy array to a GPU (a CuPy
# array) or back, and copies nothing when it is already there. `save_on_cpu` is no more than a pair
# of saved tensors hooks, much like the pair you wrote in the exercise.
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# 设备就是数组所在的地方：`backend.move` 把 numpy 数组复制到 GPU 上（成为 CuPy 数组）或者复制回来，
# 已经在目标设备上就什么也不复制。`save_on_cpu` 不过是一对 saved tensors 钩子，和你在练习里写的那一对很像。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad import backend
from minigrad.surface.save_on_cpu import save_on_cpu
from minigrad.lessons import show_source

show_source(backend.move, save_on_cpu.__init__)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("15-no-copy-in-place")

# %% [markdown] lang="en"
# Next, the capstone: a small network trained with your own Functions.

# %% [markdown] lang="zh"
# 下一讲是结业项目：用你自己写的 Function 训练一个小网络。
