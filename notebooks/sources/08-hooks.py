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
# Backward runs inside the engine, out of sight. Hooks are the engine's windows: small
# functions you register, which the engine calls at precise moments. This lesson opens four
# kinds of window:
#
# | hook | registered on | called as | may return |
# |---|---|---|---|
# | tensor hook | a tensor: `t.register_hook(fn)` | `fn(grad)`, the gradient of `t` | a new gradient |
# | node pre-hook | a node: `t.grad_fn.register_prehook(fn)` | `fn(grad_outputs)` | new `grad_outputs` |
# | node hook | a node: `t.grad_fn.register_hook(fn)` | `fn(grad_inputs, grad_outputs)` | new `grad_inputs` |
# | post-accumulate hook | a leaf: `w.register_post_accumulate_grad_hook(fn)` | `fn(w)`, `.grad` filled | nothing |
#
# A node's gradients are named after its forward op, as PyTorch names them: `grad_outputs` are
# the gradients with respect to the op's *outputs*, which flow *into* the node during backward;
# `grad_inputs` are those with respect to the op's *inputs*, which the node computes and sends on
# toward the leaves.
#
# and then a fifth, different kind: `saved_tensors_hooks`, which decide *how the tensors saved for
# backward are stored* — the memory a graph holds between forward and backward.

# %% [markdown] lang="zh"
# 反向传播在引擎内部进行，平时看不见。钩子就是引擎留给我们的窗口：你注册一个小函数，
# 引擎会在特定时刻调用它。这一讲先打开四种窗口：
#
# | 钩子 | 注册在 | 调用方式 | 可以返回 |
# |---|---|---|---|
# | 张量钩子 | 张量：`t.register_hook(fn)` | `fn(grad)`，`t` 的梯度 | 新的梯度 |
# | 节点前置钩子 | 节点：`t.grad_fn.register_prehook(fn)` | `fn(grad_outputs)` | 新的 `grad_outputs` |
# | 节点钩子 | 节点：`t.grad_fn.register_hook(fn)` | `fn(grad_inputs, grad_outputs)` | 新的 `grad_inputs` |
# | 累加后钩子 | 叶子张量：`w.register_post_accumulate_grad_hook(fn)` | `fn(w)`，`.grad` 已写好 | 无 |
#
# 节点的梯度按它的前向运算来命名，和 PyTorch 一致：`grad_outputs` 是对该运算**输出**的梯度，
# 在反向传播时**流入**节点；`grad_inputs` 是对该运算**输入**的梯度，由节点算出，再继续传向叶子张量。
#
# 然后是第五种、性质不同的钩子：`saved_tensors_hooks`。它决定**保存的张量如何存放**——
# 也就是计算图在前向和反向之间占用的那部分内存。

# %%
import minigrad as torch
from minigrad.lessons import say

# %% [markdown] lang="en"
# ## Tensor hooks: see the gradient of an intermediate
#
# After backward, only leaves have `.grad`; the gradient of an intermediate tensor flows past and
# is gone. A tensor hook catches it on the way:

# %% [markdown] lang="zh"
# ## 张量钩子：看到中间结果的梯度
#
# 反向传播之后，只有叶子张量才有 `.grad`；中间张量的梯度只是“路过”，随后就被丢弃。
# 张量钩子可以在半路把它拦下来：

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * x              # an intermediate  # zh: 中间结果
loss = (h * 10).sum()

handle = h.register_hook(lambda grad: print("hook(grad): grad =", grad))
loss.backward()
print("x.grad:", x.grad)
handle.remove()        # hooks stay until removed  # zh: 钩子会一直留着，直到被移除

# %% [markdown] lang="en"
# If the hook *returns* a tensor, that tensor replaces the gradient — for everything downstream.
# Here the hook halves the gradient of `h`, and `x.grad` halves with it:

# %% [markdown] lang="zh"
# 如果钩子**返回**一个张量，它就会替换掉原来的梯度，之后的反向传播都用新值。
# 下面的钩子把 `h` 的梯度减半，`x.grad` 也随之减半：

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * x
h.register_hook(lambda grad: grad * 0.5)
(h * 10).sum().backward()
print("x.grad:", x.grad)

# %% [markdown] lang="en"
# A hook must return a tensor of the same shape and dtype (or `None` to keep the gradient), and it
# should not modify `grad` in place: the same tensor may be another node's gradient too.
#
# ### Exercise `clip_grad_hook`
#
# Gradient clipping by value keeps one exploding gradient from wrecking a training step. Write a
# tensor hook `hook(grad)` that returns the gradient clamped to `[-1, 1]`, without modifying `grad`
# in place. (`clamp(min, max)` is out of place; `clamp_` is not.)

# %% [markdown] lang="zh"
# 钩子必须返回形状和 dtype 都相同的张量（或者返回 `None`，表示保持原梯度不变），
# 而且不应该原地修改 `grad`：同一个张量可能也是别的节点的梯度。
#
# ### 练习 `clip_grad_hook`
#
# 按数值裁剪梯度，可以防止某一个爆炸的梯度毁掉整步训练。写一个张量钩子 `hook(grad)`，
# 返回截断到 `[-1, 1]` 区间的梯度，并且不能原地修改 `grad`。
# （`clamp(min, max)` 不是原地操作，`clamp_` 是。）

# %%
def hook(grad):
    ### BEGIN SOLUTION
    return grad.clamp(-1.0, 1.0)
    ### END SOLUTION


# %%
from minigrad.exercises import check

check("clip_grad_hook", hook)

# %% [markdown] lang="en"
# ## Node hooks and the order of everything
#
# Nodes (the `grad_fn` objects) have hooks too: a *pre-hook* runs before the node's backward and
# sees the gradients coming in (`grad_outputs`); a *hook* runs after it and sees what goes out
# (`grad_inputs`), next to what came in. Leaves have one more:
# the *post-accumulate* hook, called once `.grad` has been written. Let us register one of each and
# log who runs when.

# %% [markdown] lang="zh"
# ## 节点钩子，以及所有钩子的执行顺序
#
# 节点（即 `grad_fn` 对象）也可以注册钩子：**前置钩子**在节点的 backward 之前运行，看到流入的梯度（`grad_outputs`）；
# **钩子**在它之后运行，看到流出的梯度（`grad_inputs`），以及流入的梯度。叶子张量还多一种：**累加后钩子**，在 `.grad` 写好之后调用。
# 下面每种各注册一个，记下谁在什么时候运行。

# %%
log = []
w = torch.tensor([2.0, -1.0], requires_grad=True)
y = w.exp()
loss = y.sum()

y.register_hook(lambda grad: log.append(f"y.register_hook                      grad={grad.tolist()}"))
y.grad_fn.register_prehook(lambda grad_outputs: log.append(f"y.grad_fn.register_prehook           grad_outputs={grad_outputs[0].tolist()}"))
y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: log.append("y.grad_fn.register_hook              grad_inputs=[%.3f, %.3f]" % tuple(grad_inputs[0].tolist())))
w.register_hook(lambda grad: log.append("w.register_hook                      grad=[%.3f, %.3f]" % tuple(grad.tolist())))
w.register_post_accumulate_grad_hook(lambda leaf: log.append("w.register_post_accumulate_grad_hook w.grad=[%.3f, %.3f]" % tuple(leaf.grad.tolist())))

loss.backward()
for step, line in enumerate(log, 1):
    print(step, line)

# %% [markdown] lang="en"
# The tensor hook of `y` runs first, then the node that consumes that gradient — pre-hook, backward,
# hook. The leaf's own tensor hook runs *before* the gradient is accumulated into `w.grad` (so it can
# still change it), and the post-accumulate hook last, when `w.grad` is final.
#
# The same sequence is visible in the engine's own trace: every `hook_called` event, between the
# nodes it belongs to.

# %% [markdown] lang="zh"
# 先运行的是 `y` 的张量钩子，然后是接收这个梯度的节点：前置钩子、backward、钩子。
# 叶子张量自己的张量钩子在梯度累加进 `w.grad` **之前**运行（所以还能修改它），
# 累加后钩子最后运行，这时 `w.grad` 已经是最终结果。
#
# 引擎自己记录的事件里也能看到同样的顺序：每个 `hook_called` 事件都夹在它所属的节点之间。

# %%
import minigrad.viz

w = torch.tensor([2.0, -1.0], requires_grad=True)
with minigrad.viz.record() as trace:
    y = w.exp()
    y.register_hook(lambda grad: None)
    y.grad_fn.register_prehook(lambda grad_outputs: None)
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: None)
    w.register_post_accumulate_grad_hook(lambda leaf: None)
    y.sum().backward()
for event in trace.of_kind("node_started", "hook_called", "grad_accumulated"):
    where = trace.names.get(event["node"], "")
    print(f"{event.kind:17} {where:16} {event.get('hook', '')}")

# %% [markdown] lang="en"
# The player replays that backward. Step through it and watch the frames captioned "Hook at":
# the tensor hook of `y` and the pre-hook fire before `ExpBackward0` starts, the node hook once
# it has computed its output gradient, and the post-accumulate hook only after `w.grad` has been
# written.

# %% [markdown] lang="zh"
# 下面的播放器回放了这次反向传播。一步步看，留意标题写着“……上的钩子运行”的那几帧：
# `y` 的张量钩子和前置钩子在 `ExpBackward0` 开始之前触发，节点钩子在它算出流出的梯度之后触发，
# 而累加后钩子要等 `w.grad` 写好之后才触发。

# %% tags=["nbval-ignore-output"]
minigrad.viz.animate(trace, view="backward", names={"w": w, "y": y})

# %% [markdown] lang="en"
# ### A use of post-accumulate hooks: the optimizer step inside backward
#
# In a big model, every parameter's `.grad` lives until `optimizer.step()` at the end. A
# post-accumulate hook can instead update each parameter *as soon as* its gradient is ready and
# free the gradient at once, so at most one parameter's gradient exists at a time:

# %% [markdown] lang="zh"
# ### 累加后钩子的一个用途：在反向传播中直接更新参数
#
# 在大模型里，每个参数的 `.grad` 都要一直留到最后的 `optimizer.step()`。
# 用累加后钩子，可以在某个参数的梯度**一算好**就立即更新它，并马上释放这个梯度，
# 这样同一时刻最多只存在一个参数的梯度：

# %%
def sgd_step(parameter, lr=0.1):
    with torch.no_grad():
        parameter -= lr * parameter.grad
    parameter.grad = None


w1 = torch.tensor([1.0, 1.0], requires_grad=True)
w2 = torch.tensor([0.5], requires_grad=True)
for p in (w1, w2):
    p.register_post_accumulate_grad_hook(sgd_step)

loss = (w1 * w2).sum()      # d/dw1 = w2 = 0.5, d/dw2 = w1.sum() = 2
loss.backward()
print("w1:", w1, " w1.grad:", w1.grad)
print("w2:", w2, " w2.grad:", w2.grad)

# %% [markdown] lang="en"
# Both parameters moved by `-0.1 × gradient`, and no gradient is left behind.
#
# ## `saved_tensors_hooks`: how saved tensors are stored
#
# Between forward and backward, the graph holds every tensor that an op saved with
# `save_for_backward`. `torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)` lets you
# decide how: inside the `with` block, each saved tensor goes through `pack_hook`, and the graph keeps
# whatever it returns; backward calls `unpack_hook` on that to get the tensor back.
# `unpack_hook(pack_hook(t))` must equal `t`.

# %% [markdown] lang="zh"
# 两个参数都移动了 `-0.1 × 梯度`，而且没有留下任何梯度。
#
# ## `saved_tensors_hooks`：保存的张量怎么存
#
# 从前向传播到反向传播这段时间里，计算图持有所有运算用 `save_for_backward` 保存的张量。
# `torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)` 让你决定它们怎么存：
# 在 `with` 块内，每个要保存的张量都先经过 `pack_hook`（打包），计算图保存的是它的返回值；
# 反向传播时再对这个返回值调用 `unpack_hook`（解包），取回张量。
# 要求 `unpack_hook(pack_hook(t))` 等于 `t`。

# %%
def pack_hook(tensor):
    print("  pack  ", tensor)
    return tensor


def unpack_hook(packed):
    print("  unpack", packed)
    return packed


a = torch.ones(5, requires_grad=True)
b = torch.full((5,), 2.0, requires_grad=True)
with minigrad.viz.record() as trace:
    print(say("forward:", "前向传播："))
    with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
        y = a * b
    print(say("backward:", "反向传播："))
    y.sum().backward()

# %% [markdown] lang="en"
# `a * b` saves both factors (the gradient of each is the other), so there are two packs in forward
# and two unpacks in backward. The hooks apply to tensors *saved* inside the block; backward can run
# anywhere later.
#
# Replay it and follow the two saved tensors drawn beside `MulBackward0` (the node of `a * b`):
# purple while *packed* (the graph holds only what `pack_hook` returned), blue once `unpack_hook`
# has given them back to backward, grey when they are freed after the node has run.

# %% [markdown] lang="zh"
# `a * b` 会保存两个因子（每个因子的梯度就是另一个因子），所以前向传播时打包两次，反向传播时解包两次。
# 钩子只作用于在 `with` 块内**保存**的张量；反向传播则可以在之后的任何地方运行。
#
# 回放一遍，盯住 `MulBackward0`（`a * b` 的节点）旁边那两个保存的张量：**打包**期间是紫色
# （计算图里存的只是 `pack_hook` 的返回值），反向传播中经 `unpack_hook` 取回后变成蓝色，
# 节点运行完、它们被释放后变成灰色。

# %% tags=["nbval-ignore-output"]
minigrad.viz.animate(trace, names={"a": a, "b": b})

# %% [markdown] lang="en"
# ## Measuring what a graph holds
#
# How much memory is that? Take a 256×1024 float32 input (1 MiB) through four `tanh`. Each `tanh`
# saves its output, so the graph holds four 1 MiB tensors until backward. Python's `tracemalloc`
# sees numpy's allocations, so we can measure minigrad's memory directly (it does not see PyTorch's
# own allocator). We compare the plain graph, a graph whose hooks store saved tensors in files on
# disk, and `save_on_cpu`.

# %% [markdown] lang="zh"
# ## 量一量计算图占用的内存
#
# 这些张量到底占多少内存？让一个 256×1024 的 float32 输入（1 MiB）连续经过四次 `tanh`。
# 每个 `tanh` 都保存自己的输出，所以在反向传播之前，计算图一直持有四个 1 MiB 的张量。
# Python 的 `tracemalloc` 能看到 numpy 分配的内存，因此可以直接测量 minigrad 的内存
# （它看不到 PyTorch 自己的分配器）。我们比较三种情况：普通计算图、用钩子把保存的张量写进磁盘文件，
# 以及 `save_on_cpu`。

# %% [markdown] lang="en"
# The disk hooks are those of PyTorch's tutorial on saved-tensor hooks. `pack_hook` writes the tensor
# to a file and returns an object that names the file; the graph keeps that object until it frees
# the saved tensor (after backward, or when the graph itself is deleted), and the object's `__del__`
# then deletes the file. A pack hook that returned the bare file name instead would leave every file
# on disk for ever: 4 MiB more at each call here — the tutorial's "don't do this".

# %% [markdown] lang="zh"
# 磁盘钩子取自 PyTorch 关于保存张量钩子的教程。`pack_hook` 把张量写进文件，返回一个记着文件名的对象；
# 计算图一直持有这个对象，直到它释放这个保存的张量（反向传播之后，或者计算图本身被删除时），
# 这时对象的 `__del__` 就会删掉文件。如果 pack 钩子只返回文件名，所有文件就会永远留在磁盘上：
# 在这里每调用一次就多出 4 MiB——这正是教程里说的“不要这样做”。

# %%
import os
import tempfile
import tracemalloc
import uuid

folder = tempfile.mkdtemp()


class SelfDeletingTempFile:
    # a file name that deletes its file when nothing refers to it any more  # zh: 一个文件名：当不再有任何东西引用它时，它会删掉自己的文件
    def __init__(self):
        self.name = os.path.join(folder, uuid.uuid4().hex)

    def __del__(self):
        os.remove(self.name)


def pack_to_disk(tensor):
    temp_file = SelfDeletingTempFile()
    torch.save(tensor, temp_file.name)
    return temp_file


def unpack_from_disk(temp_file):
    return torch.load(temp_file.name)


def forward(x):
    return x.tanh().tanh().tanh().tanh()


def measure(hooks=None):
    # MiB held after forward (graph + output), and the gradient  # zh: 前向传播之后占用的 MiB（计算图 + 输出），以及梯度
    torch.manual_seed(0)
    x = torch.randn(256, 1024, requires_grad=True)
    tracemalloc.start()
    if hooks is None:
        y = forward(x)
    else:
        with hooks:
            y = forward(x)
    held = tracemalloc.get_traced_memory()[0] / 2**20
    tracemalloc.stop()
    y.sum().backward()
    return held, x.grad


held, reference = measure()
rows = [("hooks=None", held, reference)]
rows.append(("pack_to_disk", *measure(torch.autograd.graph.saved_tensors_hooks(pack_to_disk, unpack_from_disk))))
rows.append(("save_on_cpu", *measure(torch.autograd.graph.save_on_cpu())))
print(f"{'':14} {'MiB':>6} {'allclose(x.grad)':>17}")
for name, mib, grad in rows:
    print(f"{name:14} {mib:6.1f} {str(torch.allclose(grad, reference)):>17}")

# %% [markdown] lang="en"
# The plain graph holds about 4 MiB: the three intermediate results plus `y` (also the output of
# the last `tanh`, saved by it). With the disk hooks, only `y` stays in memory (we still hold it),
# and the gradient is exactly the same. `save_on_cpu` changes nothing here: on the CPU, "copy to
# the CPU" is the tensor itself. On a GPU it frees device memory — lesson 15 measures that.

# %% [markdown] lang="zh"
# 普通计算图大约占 4 MiB：三个中间结果，再加上 `y`（它也是最后一个 `tanh` 的输出，被该节点保存）。
# 用磁盘钩子后，内存里只剩下 `y`（因为我们自己还引用着它），而梯度完全一样。
# `save_on_cpu` 在这里没有任何变化：在 CPU 上，“拷贝到 CPU”得到的就是张量本身。
# 在 GPU 上，它会把保存的张量从设备搬到主机内存，腾出显存——第 15 讲会实际测量。

# %% [markdown] lang="en"
# And the files? Count them while the graph holds its saved tensors, then after backward:

# %% [markdown] lang="zh"
# 那些文件呢？在计算图持有保存的张量时数一数，反向传播之后再数一次：

# %%
x = torch.randn(256, 1024, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_disk, unpack_from_disk):
    y = forward(x)
print(say("after forward: ", "前向传播之后："), len(os.listdir(folder)), say("files", "个文件"))
y.sum().backward()
print(say("after backward:", "反向传播之后："), len(os.listdir(folder)), say("files", "个文件"))

# %% [markdown] lang="en"
# Each file lived exactly as long as its saved tensor. The engine's trace tells the same story from
# the inside: every `tensor_saved` event carries the `nbytes` of what was saved, and every
# `tensor_freed` event, the bytes released after backward.

# %% [markdown] lang="zh"
# 每个文件存在的时间，恰好就是它对应的保存张量存在的时间。从引擎内部的事件记录也能看到同样的情况：
# 每个 `tensor_saved` 事件都带有被保存张量的字节数 `nbytes`，每个 `tensor_freed` 事件则记下反向传播之后释放的字节数。

# %%
x = torch.randn(256, 1024, requires_grad=True)
with minigrad.viz.record() as trace:
    y = forward(x)
    y.sum().backward()
for event in trace.of_kind("tensor_saved", "tensor_freed"):
    print(f"{event.kind:13} {trace.names[event['node']]:14} {event['nbytes'] / 2**20:.1f} MiB")

# %% [markdown] lang="en"
# ### Exercise `pack_float16`
#
# Halve the memory instead of moving it: write `pack_hook` and `unpack_hook` so that saved float32
# tensors are stored as float16 (2 bytes per number instead of 4) and come back as float32 in
# backward. Leave tensors of other dtypes as they are. (`t.to(torch.float16)`; `t.dtype`.)
# The gradient becomes slightly less precise — mixed-precision training makes this trade every day.

# %% [markdown] lang="zh"
# ### 练习 `pack_float16`
#
# 不把数据搬走，而是把占用的内存减半：实现 `pack_hook` 和 `unpack_hook`，让保存的 float32 张量以 float16
# 形式存放（每个数 2 字节而不是 4 字节），反向传播时再还原成 float32。其他 dtype 的张量保持原样。
# （`t.to(torch.float16)`；`t.dtype`。）这样得到的梯度精度会略低一些——混合精度训练每天都在做这种取舍。

# %%
def pack_hook(tensor):
    ### BEGIN SOLUTION
    if tensor.dtype == torch.float32:
        return tensor.to(torch.float16)
    return tensor
    ### END SOLUTION


def unpack_hook(packed):
    ### BEGIN SOLUTION
    if packed.dtype == torch.float16:
        return packed.to(torch.float32)
    return packed
    ### END SOLUTION


# %%
check("pack_float16", (pack_hook, unpack_hook))

# %% [markdown] lang="en"
# ## Summary
#
# - A tensor hook sees (and may replace) the gradient of one tensor; node pre-hooks and hooks see a
#   node's gradients in and out; a post-accumulate hook runs once a leaf's `.grad` is final.
# - Each `register_*` returns a handle: `handle.remove()` takes the hook away.
# - `saved_tensors_hooks(pack, unpack)` decides how saved tensors are stored: on disk, in half
#   precision, or (`save_on_cpu`) in host memory. Memory held by the graph is real and measurable.

# %% [markdown] lang="zh"
# ## 小结
#
# - 张量钩子能看到（也能替换）某个张量的梯度；节点的前置钩子和钩子能看到节点流入、流出的梯度；
#   累加后钩子在叶子张量的 `.grad` 最终确定后运行。
# - 每个 `register_*` 都返回一个句柄：`handle.remove()` 就能移除钩子。
# - `saved_tensors_hooks(pack, unpack)` 决定保存的张量如何存放：存到磁盘、存成半精度，
#   或者（`save_on_cpu`）放在主机内存里。计算图占用的内存是实实在在、可以测量的。

# %% [markdown] lang="en"
# ## Read the code
#
# The engine calls `call_pre_hooks` just before a node runs, in PyTorch's order: the tensor hooks
# of its outputs, then `retain_grad`, then the node's own pre-hooks. `SavedTensor._pack` is what
# `saved_tensors_hooks` changes: the node keeps what your pack hook returned, and the hook may not
# change its input in place.
#
# Then the question below the code: answer it from what you read, before you try it.

# %% [markdown] lang="zh"
# ## 读源码
#
# 引擎在节点运行之前调用 `call_pre_hooks`，顺序与 PyTorch 相同：先是各个输出的张量钩子，然后是 `retain_grad`，
# 最后是节点自己的前置钩子。`SavedTensor._pack` 就是 `saved_tensors_hooks` 改变的地方：
# 节点保存的是你的 pack 钩子返回的东西，而且钩子不许原地修改它的输入。
#
# 然后回答代码下面的问题：先根据你读到的代码作答，再动手验证。

# %% tags=["nbval-ignore-output"]
from minigrad.core.function import SavedTensor
from minigrad.core.hooks import call_pre_hooks
from minigrad.lessons import show_source

show_source(call_pre_hooks, SavedTensor._pack)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("08-retain-grad-last")

# %% [markdown] lang="en"
# Next lesson: that memory node by node, and checkpointing, which trades it for time.

# %% [markdown] lang="zh"
# 下一讲：逐个节点看这些内存，以及用时间换内存的检查点。
