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
# Lessons 05 and 08 measured the memory a graph holds between forward and backward: the tensors
# its nodes save. This lesson looks at that memory from the inside, then trades it for
# computation:
#
# 1. what each node saved, as PyTorch shows it: the `_saved_*` attributes, and `_raw_saved_*`
#    for hooks on one saved tensor;
# 2. a graph's memory counted from those attributes (exercise `saved_bytes`);
# 3. checkpointing: keep only a block's input, and run the block again in backward (exercise
#    `checkpoint`).
#
# Apart from the checks and the cells that record or replay with `minigrad.viz`, every cell also
# runs on PyTorch itself: write `import torch` in place of `import minigrad as torch`.

# %% [markdown] lang="zh"
# 第 05 讲和第 08 讲测量过计算图在前向和反向之间占用的内存：也就是它的节点保存的那些张量。
# 这一讲从内部看这部分内存，然后用计算把它换掉：
#
# 1. 每个节点保存了什么，按 PyTorch 的方式查看：`_saved_*` 属性，以及给单个保存张量加钩子用的 `_raw_saved_*`；
# 2. 根据这些属性统计计算图占用的内存（练习 `saved_bytes`）；
# 3. 检查点：只保留一段网络的输入，到反向传播时再把这一段运行一遍（练习 `checkpoint`）。
#
# 除了检查单元格和用 `minigrad.viz` 记录、回放的单元格，每个单元格在 PyTorch 上也能照样运行：
# 把 `import minigrad as torch` 换成 `import torch` 即可。

# %%
import minigrad as torch
import minigrad.viz
from minigrad.exercises import check
from minigrad.lessons import say

# %% [markdown] lang="en"
# ## What each node saved: `_saved_*`
#
# Which tensors, exactly, does a graph hold? PyTorch's "Autograd mechanics" note says where to
# look: at the attributes of a node whose names start with `_saved`. Every built-in node shows
# what it saved under PyTorch's names, `_saved_self` and `_saved_other` for the two factors
# `MulBackward0` keeps, `_saved_result` for the output `TanhBackward0` keeps, and `dir(node)`
# lists them:

# %% [markdown] lang="zh"
# ## 每个节点保存了什么：`_saved_*`
#
# 计算图到底持有哪些张量？PyTorch 的“Autograd mechanics”说明告诉我们去哪里看：节点上名字以 `_saved`
# 开头的那些属性。每个内置节点都用 PyTorch 的名字展示它保存了什么：`MulBackward0` 保存的两个因子是
# `_saved_self` 和 `_saved_other`，`TanhBackward0` 保存的输出是 `_saved_result`。`dir(node)`
# 会把它们列出来：

# %%
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x.tanh()
z = y * x
for node in (z.grad_fn, y.grad_fn):
    print(f"{node.name():14}", [name for name in dir(node) if name.startswith("_saved")])
print("z.grad_fn._saved_other", say("is x:", "是 x 吗："), z.grad_fn._saved_other is x)
saved_y = y.grad_fn._saved_result
print("y.grad_fn._saved_result:", saved_y)
print(say("  is y:", "  是 y 吗："), saved_y is y,
      say("  same memory as y:", "  和 y 是同一块内存吗："), saved_y.data_ptr() == y.data_ptr())

# %% [markdown] lang="en"
# A saved input is the tensor itself. A saved output is kept without its node (the node holding
# its own output would be a reference cycle), and reading it makes a new tensor object, over the
# same memory, as `data_ptr()`, the address of its first element, shows. To count the memory a
# graph holds, compare memory, not objects.
#
# Each `_saved_x` has a twin, `_raw_saved_x`: the saved tensor unopened (PyTorch's
# `torch._C._autograd.SavedTensor`). Its `register_hooks(pack, unpack)` does for this one saved
# tensor what `saved_tensors_hooks` does for every tensor saved inside a `with` block. Here only
# `tanh`'s output is stored in half precision:

# %% [markdown] lang="zh"
# 保存的输入就是那个张量本身。保存的输出则不带它的节点（节点持有自己的输出会形成循环引用），
# 每次读取都会得到一个新的张量对象，但内存是同一块，`data_ptr()`（第一个元素的地址）说明了这一点。
# 所以要统计计算图占用的内存，应该比较内存，而不是比较对象。
#
# 每个 `_saved_x` 都有一个孪生属性 `_raw_saved_x`：尚未打开的保存张量（在 PyTorch 中是
# `torch._C._autograd.SavedTensor`）。它的 `register_hooks(pack, unpack)` 只对这一个保存的张量起作用，
# 效果相当于 `saved_tensors_hooks` 对 `with` 块内保存的所有张量所做的事。下面只把 `tanh` 的输出存成半精度：

# %%
raw = y.grad_fn._raw_saved_result
print(type(raw).__name__)
raw.register_hooks(lambda tensor: tensor.to(torch.float16), lambda packed: packed.to(torch.float32))
print("y.grad_fn._saved_result:", y.grad_fn._saved_result)
z.sum().backward()
print("x.grad:", x.grad)

# %% [markdown] lang="en"
# Reading `_saved_result` now goes through the unpack hook: the values are `y`'s, rounded to
# float16 and back. The gradient used them too.
#
# ### Exercise `saved_bytes`
#
# Write `saved_bytes(output)`: the number of bytes of tensor data held in saved tensors by the
# graph behind `output`, made of built-in ops. Find them as a program must: walk the graph from
# `output.grad_fn` and read each node's `_saved_*` attributes; some are tensors, others numbers
# or sizes. Count each memory once, however many nodes saved it, and each node once, however
# many paths lead to it. (`t.numel()` and `t.element_size()` give a tensor's size.)

# %% [markdown] lang="zh"
# 现在读取 `_saved_result` 要经过 unpack 钩子：数值来自 `y`，只是先舍入成 float16 再转回来。
# 梯度用的也是这些数值。
#
# ### 练习 `saved_bytes`
#
# 实现 `saved_bytes(output)`：对于 `output` 背后由内置运算构成的计算图，返回保存的张量所占的数据字节数。
# 像程序那样去找：从 `output.grad_fn` 出发遍历计算图，读取每个节点的 `_saved_*` 属性；其中有的是张量，
# 有的是数字或形状。每块内存只算一次，不管有几个节点保存了它；每个节点也只算一次，不管有几条路径通向它。
# （`t.numel()` 和 `t.element_size()` 给出张量的大小。）

# %%
def saved_bytes(output):
    ### BEGIN SOLUTION
    memory, seen, stack = {}, set(), [output.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        for name in dir(node):
            if name.startswith("_saved_"):
                value = getattr(node, name)
                if isinstance(value, torch.Tensor):
                    memory[value.data_ptr()] = value.numel() * value.element_size()
        stack.extend(next_node for next_node, _ in node.next_functions)
    return sum(memory.values())
    ### END SOLUTION


# %%
check("saved_bytes", saved_bytes)

# %% [markdown] lang="en"
# Lesson 08 measured four `tanh` on a 256×1024 float32 input with `tracemalloc`: 4 MiB. Your
# function finds the same from the graph alone:

# %% [markdown] lang="zh"
# 第 08 讲用 `tracemalloc` 测量过：256×1024 的 float32 输入连续经过四个 `tanh`，占用 4 MiB。
# 你的函数只看计算图就能得到同样的数字：

# %%
def forward(x):
    return x.tanh().tanh().tanh().tanh()


x = torch.randn(256, 1024, requires_grad=True)
try:
    print(f"{saved_bytes(forward(x)) / 2**20:.1f} MiB")
except NotImplementedError:
    print(say("(solve the exercise above first)", "（请先完成上面的练习）"))

# %% [markdown] lang="en"
# ## Checkpointing: computation for memory
#
# Saved tensors are the price of a quick backward: keep what forward computed, compute nothing
# twice. *Checkpointing* turns the trade around: keep only the input of a block of layers, and
# when backward reaches the block, run its forward again, recording this time, and backpropagate
# through that fresh graph. Between forward and backward the block holds nothing but its input;
# the cost is one more forward of the block. PyTorch's `torch.utils.checkpoint.checkpoint(fn, x,
# use_reentrant=False)` does it with saved-tensor hooks; its older form (`use_reentrant=True`) is
# a custom Function, the one you write now.
#
# ### Exercise `checkpoint`
#
# Write `Checkpoint`: `Checkpoint.apply(fn, x)` returns `fn(x)`, for a function `fn` of one
# tensor made of built-in ops, and keeps nothing for backward but `x`. Its backward runs `fn`
# again and sends `grad_output` back through the graph that this second run records. Two facts
# to design with: `fn` is a Python function, not a tensor; and backward runs with grad mode off,
# as forward does.

# %% [markdown] lang="zh"
# ## 检查点：用计算换内存
#
# 保存的张量是快速反向传播的代价：留下前向算过的东西，什么都不必算第二遍。**检查点**（checkpointing）
# 把这笔交易反过来：对于一段网络层，只保留它的输入；等反向传播走到这一段时，再把它的前向重新运行一遍，
# 这一次记录下计算图，然后沿着这张新图做反向传播。在前向和反向之间，这一段只持有它的输入；
# 代价是这一段多做一次前向计算。PyTorch 的 `torch.utils.checkpoint.checkpoint(fn, x, use_reentrant=False)`
# 是用保存张量钩子实现的；它较早的形式（`use_reentrant=True`）则是一个自定义 Function，也就是你现在要写的这个。
#
# ### 练习 `checkpoint`
#
# 实现 `Checkpoint`：`Checkpoint.apply(fn, x)` 返回 `fn(x)`，其中 `fn` 是由内置运算构成的单张量函数；
# 除了 `x` 之外，它不为反向传播保留任何东西。它的 backward 再运行一次 `fn`，然后把 `grad_output`
# 沿着这第二次运行记录下的计算图传回去。设计时要用到两个事实：`fn` 是 Python 函数，不是张量；
# backward 运行时梯度模式是关闭的，和 forward 一样。

# %%
class Checkpoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, x):
        ### BEGIN SOLUTION
        ctx.fn = fn
        ctx.save_for_backward(x)
        return fn(x)
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad_output):
        ### BEGIN SOLUTION
        (x,) = ctx.saved_tensors
        with torch.enable_grad():
            x = x.detach().requires_grad_()
            output = ctx.fn(x)
        (grad_x,) = torch.autograd.grad(output, x, grad_output)
        return None, grad_x
        ### END SOLUTION


# %%
check("checkpoint", Checkpoint)

# %% [markdown] lang="en"
# The four `tanh` again, with and without the checkpoint. The trace counts the bytes saved during
# forward; the gradients must agree:

# %% [markdown] lang="zh"
# 再来看那四个 `tanh`，分别用和不用检查点。事件记录统计前向传播期间保存的字节数；两种做法的梯度必须一致：

# %%
def saved_during_forward(run):
    torch.manual_seed(0)
    x = torch.randn(256, 1024, requires_grad=True)
    with minigrad.viz.record() as trace:
        y = run(x)
        held = sum(event["nbytes"] for event in trace.of_kind("tensor_saved"))
        y.sum().backward()
    return held / 2**20, x.grad, trace


try:
    plain_mib, plain_grad, _ = saved_during_forward(forward)
    mib, grad, checkpoint_trace = saved_during_forward(lambda x: Checkpoint.apply(forward, x))
    print(f"{'forward(x)':32} {plain_mib:4.1f} MiB")
    print(f"{'Checkpoint.apply(forward, x)':32} {mib:4.1f} MiB   allclose:",
          torch.allclose(grad, plain_grad))
except NotImplementedError:
    checkpoint_trace = None
    print(say("(solve the exercise above first)", "（请先完成上面的练习）"))

# %% [markdown] lang="en"
# One MiB, `x`, instead of four. The player replays the checkpointed run: in forward, one node,
# `CheckpointBackward`, and one saved tensor; in backward, watch the four `TanhBackward0` appear
# while `CheckpointBackward` runs (the second run of `forward`, recorded), save their outputs, run,
# and free them at once.

# %% [markdown] lang="zh"
# 保存的是 1 MiB（也就是 `x`），而不是 4 MiB。播放器回放了用检查点的这次运行：前向传播中只有一个节点
# `CheckpointBackward` 和一个保存的张量；反向传播中，留意 `CheckpointBackward` 运行期间冒出的四个
# `TanhBackward0`（这是 `forward` 的第二次运行，被记录了下来）：它们保存各自的输出、运行，然后立即释放。

# %% tags=["nbval-ignore-output"]
if checkpoint_trace is not None:
    display(minigrad.viz.animate(checkpoint_trace))


# %% [markdown] lang="en"
# ## Summary
#
# - A node's `_saved_*` attributes show what it saved, under PyTorch's names; `dir(node)` lists
#   them. A saved input is the tensor itself; a saved output reads as a new object over the same
#   memory (`data_ptr()`).
# - `node._raw_saved_x.register_hooks(pack, unpack)` packs that one saved tensor, as
#   `saved_tensors_hooks` packs all those saved inside a `with` block.
# - Checkpointing keeps only a block's input and runs the block again in backward: its insides
#   cost no memory between forward and backward, and one more forward of the block.

# %% [markdown] lang="zh"
# ## 小结
#
# - 节点的 `_saved_*` 属性用 PyTorch 的名字展示它保存了什么，`dir(node)` 会把它们列出来。
#   保存的输入就是张量本身；保存的输出每次读取都是一个新对象，但内存是同一块（`data_ptr()`）。
# - `node._raw_saved_x.register_hooks(pack, unpack)` 只打包这一个保存的张量，就像 `saved_tensors_hooks`
#   打包 `with` 块内保存的所有张量一样。
# - 检查点只保留一段网络的输入，到反向传播时再把这一段运行一遍：在前向和反向之间，这一段的内部不占内存，
#   代价是多做一次前向计算。

# %% [markdown] lang="en"
# ## Read the code
#
# `saved_attribute` answers `node._saved_x` and `node._raw_saved_x`: the name is looked up among
# the node's slots of `save_for_backward`, which carry PyTorch's names (`SLOT_NAMES`), then among
# the numbers it kept; a slot is unpacked, with its version check, like any saved tensor.

# %% [markdown] lang="zh"
# ## 读源码
#
# `saved_attribute` 负责回答 `node._saved_x` 和 `node._raw_saved_x`：先在节点 `save_for_backward`
# 的各个槽位里找这个名字（槽位带着 PyTorch 的名字，见 `SLOT_NAMES`），再在它保留的数字里找；
# 找到的槽位和所有保存的张量一样被解包，解包时也会做版本检查。

# %% tags=["nbval-ignore-output"]
from minigrad.surface.saved_attributes import saved_attribute
from minigrad.lessons import show_source

show_source(saved_attribute)

# %% tags=["nbval-ignore-output"]
from minigrad.lessons import ask

ask("09-saved-output-object")

# %% [markdown] lang="en"
# Next lesson: what happens to that memory after backward, and the error you get for using a
# graph twice.

# %% [markdown] lang="zh"
# 下一讲：反向传播之后这些内存去了哪里，以及再用一次计算图时会遇到的那个报错。
