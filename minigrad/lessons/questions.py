"""The questions of "Read the code", one per lesson (see reading.py).

Each is about the code its lesson shows, and each choice says why it is right or
what it overlooked.  tests/test_reading.py runs the code of every question in
minigrad and in PyTorch: the choice marked right must be what both do.
"""
from typing import NamedTuple


class Choice(NamedTuple):
    """One answer to choose: its text, whether it is right, and why (each language)."""
    en: str
    zh: str
    right: bool
    why_en: str
    why_zh: str


class Question(NamedTuple):
    """A question about the code a lesson shows: its id, the lesson (slug), the question
    (Markdown, each language) and its choices, labelled a, b, c... in order."""
    id: str
    lesson: str
    en: str
    zh: str
    choices: tuple

    def text(self, lang):
        return self.zh if lang == "zh" else self.en

    def labelled(self, lang):
        """[(label, text)] of the choices: ("a", ...), ("b", ...)."""
        return [(chr(ord("a") + k), choice.zh if lang == "zh" else choice.en)
                for k, choice in enumerate(self.choices)]


# --- the questions, one a lesson ------------------------------------------------------

QUESTIONS = {}


def _add(question):
    QUESTIONS[question.id] = question


_add(Question(
    "01-accumulate-in-place", "01-tensors-and-the-graph",
    "`AccumulateGrad.apply` makes the first gradient a leaf's `.grad`, and adds later ones "
    "to it. Predict: `x = torch.tensor([1., 2.], requires_grad=True)`, "
    "`(x * 3).sum().backward()`, `g = x.grad`, then `(x * x).sum().backward()`. What is `g`?",
    "`AccumulateGrad.apply` 把第一份梯度作为叶子张量的 `.grad`，之后的梯度再加到它上面。"
    "预测一下：`x = torch.tensor([1., 2.], requires_grad=True)`，`(x * 3).sum().backward()`，"
    "`g = x.grad`，然后 `(x * x).sum().backward()`。这时 `g` 是多少？",
    (Choice("`tensor([3., 3.])`: `g` was taken before the second backward",
            "`tensor([3., 3.])`：`g` 是在第二次反向传播之前取的",
            False,
            "`g` is not a copy: it is the very tensor `x.grad` is. Outside create_graph the "
            "second gradient is added into it in place, so `g` changes too.",
            "`g` 并不是副本，它就是 `x.grad` 这个张量本身。在不使用 create_graph 时，"
            "第二份梯度会原地加到它上面，所以 `g` 也跟着变了。"),
     Choice("`tensor([5., 7.])`", "`tensor([5., 7.])`", True,
            "the second gradient, `2x` = [2, 4], is added in place into the tensor that "
            "`x.grad` and `g` both are: [3, 3] + [2, 4].",
            "第二份梯度 `2x` = [2, 4] 被原地加到了 `x.grad` 和 `g` 共同指向的那个张量上：[3, 3] + [2, 4]。"),
     Choice("`tensor([2., 4.])`: the new gradient replaces the old one",
            "`tensor([2., 4.])`：新梯度取代了旧梯度",
            False,
            "a gradient replaces `.grad` only when `.grad` is None. Otherwise it is added: "
            "that is why training loops clear `.grad` before each backward.",
            "只有 `.grad` 为 None 时，新梯度才会直接成为 `.grad`；否则就是累加上去："
            "这正是训练循环每次反向传播之前都要清掉 `.grad` 的原因。")),
))

_add(Question(
    "03-without-the-minus", "03-backward-order",
    "`run_backward` pushes `(-node._sequence_nr, ...)` on its heap, and so does your "
    "`topo_order`. Take the minus sign out of your `topo_order` and run it on `loss` again. "
    "What changes?",
    "`run_backward` 往堆里压入的是 `(-node._sequence_nr, ...)`，你的 `topo_order` 也一样。"
    "把你的 `topo_order` 里的负号去掉，再对 `loss` 运行一次。会有什么变化？",
    (Choice("nothing: the heap pops the largest item first anyway",
            "没有变化：堆本来就先弹出最大的元素",
            False,
            "`heapq` pops the smallest item. With the minus sign the smallest is the newest "
            "node; without it, the oldest.",
            "`heapq` 弹出的是最小的元素。有负号时，最小的是最新创建的节点；去掉负号，就成了最早创建的节点。"),
     Choice("among the ready nodes the oldest runs first: still a valid topological order, "
            "but not the engine's",
            "就绪节点里最早创建的先运行：仍然是合法的拓扑顺序，但不是引擎的顺序",
            True,
            "a node enters the queue only when its dependency count is 0, so any choice among "
            "ready nodes gives a valid order; the sequence number only decides which one. "
            "(AccumulateGrad, with the largest number, now runs last among the ready ones.)",
            "节点只有在依赖计数降到 0 之后才会进入队列，所以在就绪节点中无论怎么选，得到的都是合法的顺序；"
            "序号只决定选哪一个。（序号最大的 AccumulateGrad 现在反而在就绪节点中最后运行。）"),
     Choice("a node may now run before all its gradients have arrived",
            "节点可能在梯度还没到齐时就运行",
            False,
            "only nodes whose dependency count reached 0 are in the queue: whatever order "
            "they leave it in, each has all its gradients.",
            "队列里只有依赖计数已经降到 0 的节点：无论它们按什么顺序出队，每个节点的梯度都已经到齐了。")),
))

_add(Question(
    "04-no-input-requires-grad", "04-custom-functions",
    "Step 0 of `Function.apply` checks which inputs require grad. Predict: "
    "`Square.apply(torch.tensor([1., 2.]))`, an input that does not require grad. "
    "What happens?",
    "`Function.apply` 的第 0 步检查哪些输入需要梯度。预测一下：`Square.apply(torch.tensor([1., 2.]))`，"
    "输入不需要梯度。会发生什么？",
    (Choice("forward runs and a `SquareBackward` node is recorded, as always",
            "forward 照常运行，也照常记录一个 `SquareBackward` 节点",
            False,
            "no input requires grad, so step 0 returns early: forward runs, but no node is "
            "made. The result's `grad_fn` is None.",
            "没有输入需要梯度，所以第 0 步就提前返回了：forward 会运行，但不会创建节点。结果的 `grad_fn` 是 None。"),
     Choice("forward runs, nothing is recorded: the result's `grad_fn` is None",
            "forward 会运行，但什么都不记录：结果的 `grad_fn` 是 None",
            True,
            "step 0 sends the call to `_run_unrecorded`: the values are computed, the graph "
            "is not.",
            "第 0 步把这次调用交给 `_run_unrecorded`：值照算，计算图不建。"),
     Choice("an error: a Function needs an input that requires grad",
            "报错：Function 需要一个需要梯度的输入",
            False,
            "a Function works on any tensors; without an input that requires grad it simply "
            "records nothing, as a built-in op does.",
            "Function 可以用在任何张量上；没有需要梯度的输入时，它只是什么都不记录，和内置运算一样。")),
))

_add(Question(
    "05-saved-when-forward-returns", "05-saving-tensors",
    "`save_for_backward` only notes `self.to_save = tensors`; step 5 of `Function.apply` "
    "makes them `SavedTensor`s, after forward has returned. Predict: a forward saves "
    "`out = x * 2`, then does `out += 1` and returns `out`. What does backward find in "
    "`ctx.saved_tensors`?",
    "`save_for_backward` 只是记下 `self.to_save = tensors`；要等 forward 返回之后，"
    "`Function.apply` 的第 5 步才把它们变成 `SavedTensor`。预测一下：forward 先保存 `out = x * 2`，"
    "然后执行 `out += 1` 并返回 `out`。backward 在 `ctx.saved_tensors` 里拿到的是什么？",
    (Choice("`x * 2`, the value at the time `save_for_backward` was called",
            "`x * 2`，也就是调用 `save_for_backward` 时的值",
            False,
            "nothing is copied when `save_for_backward` is called: it keeps the tensor "
            "itself, which `out += 1` then changes.",
            "调用 `save_for_backward` 时并不会复制任何东西：它留下的是张量本身，而 `out += 1` 随后修改了这个张量。"),
     Choice("`x * 2 + 1`, and no error", "`x * 2 + 1`，而且不报错", True,
            "the tensor is saved when forward has returned, with the version it has then: "
            "the change inside forward came before, so the version check passes.",
            "张量是在 forward 返回之后才保存的，记下的是它那时的版本：forward 里的修改发生在保存之前，"
            "所以版本检查能够通过。"),
     Choice("backward raises the version error: `out` was changed after it was saved",
            "backward 报版本错误：`out` 在保存之后被修改了",
            False,
            "it was changed after `save_for_backward` was called, but before it was saved: "
            "saving happens once forward has returned.",
            "它是在调用 `save_for_backward` 之后被修改的，但修改发生在真正保存之前：保存要等 forward 返回之后才进行。")),
))

_add(Question(
    "06-two-bumps", "06-inplace-and-versions",
    "`mark_dirty` adds one to the version of each tensor it marks. Predict: "
    "`h = leaf * 1` (version 0), then `InplaceReLU.apply(h)`, whose forward calls "
    "`x.clamp_(min=0)` and then `ctx.mark_dirty(x)`. What is `h._version` afterwards?",
    "`mark_dirty` 会把它标记的每个张量的版本加一。预测一下：`h = leaf * 1`（版本 0），"
    "然后调用 `InplaceReLU.apply(h)`，它的 forward 先执行 `x.clamp_(min=0)`，再调用 `ctx.mark_dirty(x)`。"
    "之后 `h._version` 是多少？",
    (Choice("0: forward runs with grad mode off, so nothing counts",
            "0：forward 是在关闭梯度模式的情况下运行的，所以都不算数",
            False,
            "grad mode decides what is recorded, not what is counted: every in-place "
            "operation bumps the version, recorded or not.",
            "梯度模式决定的是记录什么，而不是计数什么：每次原地操作都会让版本加一，不管有没有被记录。"),
     Choice("1: the in-place clamp", "1：原地截断那一次", False,
            "`mark_dirty` bumps it once more, as PyTorch's does: read `FunctionCtx.mark_dirty`.",
            "`mark_dirty` 还会再加一次，和 PyTorch 一样：读一读 `FunctionCtx.mark_dirty`。"),
     Choice("2: the clamp, then `mark_dirty`", "2：先是截断，再是 `mark_dirty`", True,
            "`clamp_` adds one, and `mark_dirty` one more: anything saved of `h` before "
            "this call is now two versions behind.",
            "`clamp_` 加一次，`mark_dirty` 再加一次：在这次调用之前保存的 `h` 现在落后了两个版本。")),
))

_add(Question(
    "02-function-in-no-grad", "02-out-of-the-graph",
    "In `Function.apply`, step 0 looks at grad mode as well as at the inputs. Predict: "
    "`w` requires grad, and inside `with torch.no_grad():` you compute `w * w` (which "
    "calls `Mul.apply(w, w)`). What happens?",
    "在 `Function.apply` 里，第 0 步既看输入，也看梯度模式。预测一下：`w` 需要梯度，"
    "在 `with torch.no_grad():` 里计算 `w * w`（它调用的是 `Mul.apply(w, w)`）。会发生什么？",
    (Choice("a node is made, since `w` requires grad", "会创建节点，因为 `w` 需要梯度", False,
            "step 0 records only when grad mode is on and an input requires grad: in no_grad "
            "the first half fails.",
            "第 0 步只有在梯度模式开启、并且有输入需要梯度时才会记录：在 no_grad 里，前一个条件就不满足。"),
     Choice("forward is skipped: no_grad switches the operation off",
            "forward 被跳过：no_grad 把这个运算关掉了",
            False,
            "no_grad stops the recording, not the computing: forward runs and the result has "
            "its values.",
            "no_grad 停止的是记录，而不是计算：forward 照常运行，结果也照样有值。"),
     Choice("forward runs; no node; the result does not require grad",
            "forward 会运行；不创建节点；结果不需要梯度",
            True,
            "grad mode is off, so step 0 sends the call to `_run_unrecorded`: forward runs, "
            "nothing is recorded.",
            "梯度模式是关闭的，所以第 0 步把这次调用交给 `_run_unrecorded`：forward 照常运行，什么都不记录。")),
))

_add(Question(
    "07-materialized-zeros", "07-ctx-flags",
    "`BackwardNode.apply` fills in what `materialize_grads` asks for. A Function returns two "
    "outputs, `x * 2` and `x * 3`, and the loss uses only the first. With the default "
    "settings, what does backward receive for the second output?",
    "`BackwardNode.apply` 按 `materialize_grads` 的要求补上梯度。一个 Function 返回两个输出 `x * 2` 和 "
    "`x * 3`，而损失只用到了第一个。在默认设置下，backward 为第二个输出收到的是什么？",
    (Choice("None: nothing flowed into it", "None：没有梯度流向它", False,
            "None is what it gets after `ctx.set_materialize_grads(False)`. By default "
            "missing gradients are materialized.",
            "只有调用了 `ctx.set_materialize_grads(False)` 之后收到的才是 None。默认情况下，缺失的梯度会被补上。"),
     Choice("a tensor of zeros of the output's shape", "一个形状与该输出相同的全零张量", True,
            "`materialize_grads` is True by default: the node gives backward zeros of the "
            "output's shape, so that backward can compute without checking for None.",
            "`materialize_grads` 默认为 True：节点交给 backward 的是一个形状与输出相同的全零张量，"
            "这样 backward 不必检查 None 就能直接计算。"),
     Choice("backward is not called at all", "backward 根本不会被调用", False,
            "the first output did get a gradient, so the node runs; only the second "
            "output's gradient is missing, and that one is filled in.",
            "第一个输出确实收到了梯度，所以节点会运行；缺的只是第二个输出的梯度，而这一个会被补上。")),
))

_add(Question(
    "08-retain-grad-last", "08-hooks",
    "`call_pre_hooks` runs the tensor hooks of a node's outputs, then `retain_grad`. "
    "Predict: `y = x * 2`, then `y.retain_grad()`, then `y.register_hook(lambda g: g * 2)`, "
    "then `y.sum().backward()`. What is `y.grad`?",
    "`call_pre_hooks` 先运行节点各个输出上的张量钩子，然后才是 `retain_grad`。预测一下："
    "`y = x * 2`，然后 `y.retain_grad()`，再 `y.register_hook(lambda g: g * 2)`，最后 `y.sum().backward()`。"
    "`y.grad` 是多少？",
    (Choice("ones: `retain_grad` was called before the hook was registered",
            "全是 1：`retain_grad` 是在注册钩子之前调用的",
            False,
            "the order of the calls does not matter: `retain_grad` always comes after the "
            "tensor hooks, as in PyTorch since 2.0.",
            "调用的先后顺序并不重要：`retain_grad` 总是排在张量钩子之后，从 PyTorch 2.0 起就是这样。"),
     Choice("twos: the gradient after the hook", "全是 2：钩子处理之后的梯度", True,
            "the hook doubles the gradient first; `retain_grad` then keeps what the hook "
            "returned, and that is also what flows on to `x`.",
            "钩子先把梯度翻倍；`retain_grad` 随后保留的是钩子返回的结果，继续流向 `x` 的也是它。"),
     Choice("None: `y` is not a leaf", "None：`y` 不是叶子张量", False,
            "`retain_grad()` is exactly what gives a tensor that is not a leaf a `.grad`.",
            "`retain_grad()` 的作用正是让非叶子张量也有 `.grad`。")),
))

_add(Question(
    "10-twice-without-retain", "10-retain-graph-and-debugging",
    "After each node, the engine calls `release_saved` unless `retain_graph` was given. "
    "Predict: `loss = (x * 2).sum()`, `loss.backward()`, then `loss.backward()` again, "
    "without `retain_graph`. What happens?",
    "每运行完一个节点，只要没有指定 `retain_graph`，引擎就会调用 `release_saved`。预测一下："
    "`loss = (x * 2).sum()`，`loss.backward()`，然后不加 `retain_graph` 再调用一次 `loss.backward()`。"
    "会发生什么？",
    (Choice("it works: the derivative of `x * 2` is the constant 2, nothing saved is needed",
            "没问题：`x * 2` 的导数是常数 2，用不着保存的张量",
            False,
            "`MulBackward0` saved the number 2 as a tensor (PyTorch's wrapped number), and "
            "the first backward freed it like any saved tensor.",
            "`MulBackward0` 把数字 2 存成了一个张量（PyTorch 所说的 wrapped number），"
            "第一次反向传播像释放其他保存的张量一样把它释放了。"),
     Choice("the “second time” error", "报“第二次反向传播”的错误", True,
            "what `MulBackward0` saved, the number 2, was freed by the first backward: the "
            "second needs it, and the engine refuses.",
            "`MulBackward0` 保存的数字 2 已经被第一次反向传播释放了：第二次反向传播需要它，引擎于是拒绝执行。"),
     Choice("it works, and `x.grad` doubles", "没问题，而且 `x.grad` 翻倍", False,
            "that is what `retain_graph=True` on the first backward would give: .grad "
            "accumulates. Without it, the saved number is gone.",
            "那是第一次反向传播加了 `retain_graph=True` 时的结果：.grad 会累加。不加的话，保存的数字已经没了。")),
))

_add(Question(
    "12-gradient-has-a-graph", "12-higher-order",
    "With `create_graph=True` the engine runs the nodes with grad mode on. Predict: `g = "
    "torch.autograd.grad(x.sin().sum(), x, create_graph=True)[0]`. What is `g.grad_fn`?",
    "指定 `create_graph=True` 时，引擎在开启梯度模式的情况下运行各个节点。预测一下："
    "`g = torch.autograd.grad(x.sin().sum(), x, create_graph=True)[0]`。`g.grad_fn` 是什么？",
    (Choice("None: a gradient is a result, not an operation", "None：梯度是结果，不是运算", False,
            "without `create_graph` it would be None. With it, the ops inside `SinBackward0`'s "
            "backward are recorded like any others.",
            "不加 `create_graph` 时确实是 None。加了它之后，`SinBackward0` 的 backward 里的运算会像其他运算一样被记录下来。"),
     Choice("`MulBackward0`: the backward's last op, grad_output times cos(x)",
            "`MulBackward0`：backward 里的最后一个运算，grad_output 乘以 cos(x)",
            True,
            "`Sin`'s backward is written in tensor ops, `grad_output * x.cos()`; recorded, its "
            "last op, the product, is `g`'s node.",
            "`Sin` 的 backward 是用张量运算写的，即 `grad_output * x.cos()`；它被记录下来，"
            "最后一个运算（乘法）就是 `g` 的节点。"),
     Choice("`SinBackward0`, the node that computed it", "`SinBackward0`，算出它的那个节点", False,
            "`SinBackward0` ran, but `g` is the output of the ops it ran, not of the node "
            "itself.",
            "运行的确实是 `SinBackward0`，但 `g` 是它里面那些运算的输出，而不是这个节点本身的输出。")),
))

_add(Question(
    "15-no-copy-in-place", "15-gpu",
    "`backend.move` copies nothing when the array already is where it should be. Predict: "
    "`x = torch.tensor([1., 2.])` on the CPU. Is `x.to(\"cpu\")` a copy?",
    "如果数组已经在目标设备上，`backend.move` 什么也不复制。预测一下：`x = torch.tensor([1., 2.])` 在 CPU 上。"
    "`x.to(\"cpu\")` 是一份副本吗？",
    (Choice("yes: `to` always returns a new tensor", "是的：`to` 总是返回一个新张量", False,
            "`to` returns the tensor itself when nothing has to change (device and dtype "
            "already right); pass `copy=True` to force a copy.",
            "当设备和数据类型都不用变时，`to` 直接返回张量本身；要强制复制，得传入 `copy=True`。"),
     Choice("no: it is `x` itself", "不是：它就是 `x` 本身", True,
            "`x.to(\"cpu\") is x` is True: no copy, no new tensor. On a GPU, moving to the "
            "device a tensor already lives on costs nothing either.",
            "`x.to(\"cpu\") is x` 为 True：不复制，也不创建新张量。在 GPU 上，把张量移到它本来所在的设备也一样不花任何代价。"),
     Choice("a view: a new tensor sharing `x`'s memory", "一个视图：与 `x` 共享内存的新张量", False,
            "no new tensor at all: `to` hands back `x` itself.",
            "根本没有新张量：`to` 直接把 `x` 本身交回来。")),
))

_add(Question(
    "16-rows-sum-to-zero", "16-capstone",
    "`NllLoss`'s backward, after the softmax of `cross_entropy`, gives each sample the "
    "gradient softmax(logits) − one_hot(target), divided by N. Predict: for a batch of 4 "
    "samples, what does each row of `logits.grad` sum to?",
    "在 `cross_entropy` 的 softmax 之后，`NllLoss` 的 backward 给每个样本的梯度是 softmax(logits) − one_hot(target)，"
    "再除以 N。预测一下：一批 4 个样本，`logits.grad` 的每一行加起来是多少？",
    (Choice("1/4", "1/4", False,
            "softmax sums to 1 and so does the one-hot target: their difference sums to 0, "
            "whatever the division by N.",
            "softmax 的和是 1，one-hot 目标的和也是 1：两者之差的和是 0，除以 N 之后依然是 0。"),
     Choice("0", "0", True,
            "softmax(logits) sums to 1, one_hot(target) sums to 1: every row of the gradient "
            "sums to 0. Raising one logit's score takes it from the others.",
            "softmax(logits) 的和为 1，one_hot(target) 的和也为 1：梯度的每一行加起来都是 0。"
            "提高一个类别的得分，就要从其他类别那里拿走。"),
     Choice("1", "1", False,
            "that is the sum of the softmax alone; the target's one-hot is subtracted from it.",
            "那只是 softmax 本身的和；还要减去目标的 one-hot。")),
))

_add(Question(
    "14-probe-at-zero", "14-forward-mode",
    "`_builtin_jvp` probes with `u` of zeros: the first `grad` (with `create_graph=True`) "
    "gives Jᵀu, which is then zero. Predict: the second `grad`, of ⟨Jᵀu, t⟩ with respect to "
    "`u`: what does it give?",
    "`_builtin_jvp` 用全零的 `u` 作探针：第一次 `grad`（带 `create_graph=True`）得到的 Jᵀu 因此是零。"
    "预测一下：第二次 `grad` 对 `u` 求 ⟨Jᵀu, t⟩ 的导数，得到的是什么？",
    (Choice("zero: Jᵀu was zero", "零：Jᵀu 本来就是零", False,
            "a value of zero does not make a derivative zero: ⟨Jᵀu, t⟩ is linear in u, and "
            "the derivative of a linear function is the same at every u, zero included.",
            "值为零并不意味着导数为零：⟨Jᵀu, t⟩ 是 u 的线性函数，线性函数在任何一点的导数都相同，包括 u = 0 处。"),
     Choice("J·t, the jvp, whatever u is", "J·t，也就是 jvp，与 u 取什么值无关", True,
            "⟨Jᵀu, t⟩ = ⟨u, J·t⟩, so its derivative in u is J·t at every u: zeros are as good "
            "a probe as any.",
            "⟨Jᵀu, t⟩ = ⟨u, J·t⟩，所以它对 u 的导数在任何一点都是 J·t：全零和其他值一样都能当探针。"),
     Choice("an error: nothing requires grad in a tensor of zeros",
            "报错：全零张量里没有东西需要梯度",
            False,
            "the probe is made with `requires_grad_()`: zeros or not, it is a leaf the second "
            "grad differentiates against.",
            "探针是用 `requires_grad_()` 创建的：不管是不是全零，它都是第二次 grad 求导所针对的叶子张量。")),
))

_add(Question(
    "09-saved-output-object", "09-memory",
    "`saved_attribute` unpacks a slot like any saved tensor. Predict: "
    "`y = x.exp()` (x requires grad), `r = y.grad_fn._saved_result`. What is `r`?",
    "`saved_attribute` 像解包任何保存的张量一样解包一个槽位。预测一下："
    "`y = x.exp()`（x 需要梯度），`r = y.grad_fn._saved_result`。`r` 是什么？",
    (Choice("`y` itself: `r is y`", "就是 `y` 本身：`r is y`", False,
            "a saved output is not kept as the object `y`: holding it would hold its own "
            "node in a cycle. Unpacking makes a new tensor object each time.",
            "保存的输出并不是以 `y` 这个对象保存的：那样它会和自己的节点形成循环引用。"
            "每次解包都会创建一个新的张量对象。"),
     Choice("a new tensor object with `y`'s values in `y`'s memory (`r.data_ptr() == "
            "y.data_ptr()`)",
            "一个新的张量对象，值和内存都是 `y` 的（`r.data_ptr() == y.data_ptr()`）",
            True,
            "unpacking gives a new object over the same data: nothing is copied, and "
            "`r is y` is False.",
            "解包得到的是指向同一份数据的新对象：没有复制任何数据，而 `r is y` 为 False。"),
     Choice("a copy in memory of its own", "一份占用独立内存的副本", False,
            "saving never copies: that is why an in-place change of `y` is caught by the "
            "version check instead.",
            "保存从不复制数据：正因为如此，对 `y` 的原地修改要靠版本检查来发现。")),
))

_add(Question(
    "11-copy-slices", "11-bug-hunts",
    "`inplace_on_view` records an in-place op on a view as a node of its base. Predict: "
    "`a = torch.tensor([1., 2., 3.], requires_grad=True)`, `b = a.clone()`, "
    "`b[1:].mul_(2)`. What is `type(b.grad_fn).__name__`?",
    "`inplace_on_view` 把对视图的原地运算记录成它的基张量的一个节点。预测一下："
    "`a = torch.tensor([1., 2., 3.], requires_grad=True)`，`b = a.clone()`，"
    "`b[1:].mul_(2)`。`type(b.grad_fn).__name__` 是什么？",
    (Choice("`MulBackward0`", "`MulBackward0`", False,
            "the op's own node is a MulBackward0, but `b` gets a node around it: one that "
            "runs it on the gradient of the slice `b[1:]` only.",
            "运算自己的节点确实是 MulBackward0，但 `b` 得到的是包在它外面的一个节点：只在切片 `b[1:]` "
            "的梯度上运行它。"),
     Choice("`CopySlices`", "`CopySlices`", True,
            "the base's new grad_fn wraps the op's node: it runs it on the slice's gradient "
            "and passes the rest of the gradient through unchanged.",
            "基张量新的 grad_fn 包住了这个运算的节点：它在切片的梯度上运行这个节点，其余部分的梯度原样传下去。"),
     Choice("`CloneBackward0`: writing into a view leaves the base's node alone",
            "`CloneBackward0`：写入视图不会改变基张量的节点",
            False,
            "an in-place op on a view changes the base's values too, so the base's grad_fn "
            "must change with them.",
            "对视图的原地运算也改变了基张量的值，所以基张量的 grad_fn 也必须随之改变。")),
))

_add(Question(
    "13-hessian-of-cubes", "13-double-backward",
    "`hessian` is the Jacobian of the gradient. Predict: "
    "`torch.autograd.functional.hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2., 3.]))`.",
    "`hessian` 是梯度的雅可比矩阵。预测一下："
    "`torch.autograd.functional.hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2., 3.]))` 的结果。",
    (Choice("`tensor([6., 12., 18.])`", "`tensor([6., 12., 18.])`", False,
            "those are the second derivatives ∂²f/∂xᵢ², but the Hessian holds every "
            "∂²f/∂xᵢ∂xⱼ: a 3×3 matrix.",
            "这些是二阶导数 ∂²f/∂xᵢ²，但 Hessian 包含所有的 ∂²f/∂xᵢ∂xⱼ：是一个 3×3 矩阵。"),
     Choice("a 3×3 matrix with 6, 12, 18 on its diagonal and zeros elsewhere",
            "一个 3×3 矩阵，对角线上是 6、12、18，其余为零",
            True,
            "each output of the gradient 3xᵢ² depends on its own xᵢ only: 6xᵢ on the "
            "diagonal, 0 off it.",
            "梯度的每个分量 3xᵢ² 只依赖它自己的 xᵢ：对角线上是 6xᵢ，其余位置为 0。"),
     Choice("a 3×3 matrix of 6s", "一个全是 6 的 3×3 矩阵", False,
            "∂(3xᵢ²)/∂xⱼ is 0 for j ≠ i and 6xᵢ for j = i: it depends on x and is zero off "
            "the diagonal.",
            "当 j ≠ i 时 ∂(3xᵢ²)/∂xⱼ 为 0，j = i 时为 6xᵢ：它依赖于 x，且对角线以外为零。")),
))
