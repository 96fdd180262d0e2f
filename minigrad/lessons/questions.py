"""The questions of "Read the code", one per lesson (see reading.py).

Each is about the code its lesson shows, and each choice says why it is right or
what it overlooked.  tests/test_reading.py runs the code of every question in
minigrad and in PyTorch: the choice marked right must be what both do.
"""
from .reading import Choice, Question

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
    "02-without-the-minus", "02-backward-order",
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
    "03-no-input-requires-grad", "03-custom-functions",
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
    "04-saved-when-forward-returns", "04-saving-tensors",
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
    "05-two-bumps", "05-inplace-and-versions",
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
    "13-function-in-no-grad", "13-out-of-the-graph",
    "In `Function.apply`, step 0 looks at grad mode as well as at the inputs. Predict: "
    "`w` requires grad, and inside `with torch.no_grad():` you call `Square.apply(w)`. "
    "What happens?",
    "在 `Function.apply` 里，第 0 步既看输入，也看梯度模式。预测一下：`w` 需要梯度，"
    "在 `with torch.no_grad():` 里调用 `Square.apply(w)`。会发生什么？",
    (Choice("a node is made, since `w` requires grad", "会创建节点，因为 `w` 需要梯度", False,
            "step 0 records only when grad mode is on and an input requires grad: in no_grad "
            "the first half fails.",
            "第 0 步只有在梯度模式开启、并且有输入需要梯度时才会记录：在 no_grad 里，前一个条件就不满足。"),
     Choice("forward is skipped: no_grad switches the Function off",
            "forward 被跳过：no_grad 把 Function 关掉了",
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
