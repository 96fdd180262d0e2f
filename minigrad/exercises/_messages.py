"""The texts every check shares, in English and Chinese, and the lookup of any hint key.

Each topic module (functions.py, saving.py...) keeps its own `MESSAGES`
table for the hints only it gives; `text()` looks a key up in this table
first, then in theirs.  Every entry has both languages with the same
`{placeholders}` (tests/test_exercises.py walks all the tables).
A hint guides: it names the mistake and where to look, never the solution.
Inputs are numbered from 0, as PyTorch numbers them (`ctx.needs_input_grad[0]`
is input 0's flag).
"""
import importlib

from .. import settings

TOPICS = ("functions", "saving", "ctx_flags", "hooks", "graph_order", "higher_order",
          "linear", "overview", "graph_basics", "debugging", "devices", "forward_mode",
          "out_of_graph", "modern_api", "both_modes", "memory", "bug_hunts", "double_backward")

COMMON = {
    # outcomes
    "passed": {
        "en": "Correct! Your answer passed every check.",
        "zh": "正确！你的答案通过了所有检查。"},
    "not_solved": {
        "en": "Not solved yet: replace `raise NotImplementedError()` with your code, "
              "then run the exercise cell and this check again.",
        "zh": "还没有完成：把 `raise NotImplementedError()` 换成你的代码，"
              "然后重新运行练习单元格和这个检查。"},
    "unknown_exercise": {
        "en": "There is no exercise called {id}. The exercises are: {known}.",
        "zh": "没有名为 {id} 的练习。现有的练习是：{known}。"},
    "unknown_exercise_close": {
        "en": "There is no exercise called {id}. Did you mean {close}? The exercises are: "
              "{known}.",
        "zh": "没有名为 {id} 的练习。你是不是想写 {close}？现有的练习是：{known}。"},
    "timeout": {
        "en": "Your code took longer than {seconds} s and was stopped. Look for a loop that "
              "never ends, e.g. a `while` whose condition never changes, or a graph walk "
              "that visits the same node again and again.",
        "zh": "你的代码运行超过了 {seconds} 秒，已被中止。检查有没有永远不会结束的循环，"
              "比如条件永远不变的 `while`，或者在计算图上一遍遍重复访问同一个节点。"},
    "raised": {
        "en": "Your code raised {error}, in {function}, at this line:\n`{line}`\nRead the "
              "message, fix that line, and run the check again.",
        "zh": "你的代码在 {function} 中抛出了异常 {error}，出错的是这一行：\n`{line}`\n"
              "读一读这条信息，改好这一行，然后再运行检查。"},
    "saved_nothing": {
        "en": "backward unpacks ctx.saved_tensors (`{line}`), but forward saved nothing: the "
              "mistake is in forward. The tensors backward needs must be saved there, with "
              "ctx.save_for_backward(...).",
        "zh": "backward 要从 ctx.saved_tensors 取出张量（`{line}`），可是 forward 什么也没有保存："
              "问题出在 forward。backward 需要的张量，要在 forward 里用 ctx.save_for_backward(...) "
              "保存。"},
    "saved_fewer": {
        "en": "backward unpacks {expected} tensors from ctx.saved_tensors (`{line}`), but "
              "forward saved only {got}: check what forward passes to ctx.save_for_backward(...).",
        "zh": "backward 要从 ctx.saved_tensors 取出 {expected} 个张量（`{line}`），可是 forward "
              "只保存了 {got} 个：检查 forward 传给 ctx.save_for_backward(...) 的参数。"},
    "saved_more": {
        "en": "forward saved more tensors with ctx.save_for_backward(...) than backward unpacks "
              "(`{line}` takes {expected}): unpack them all, in the order forward saved them.",
        "zh": "forward 用 ctx.save_for_backward(...) 保存的张量比 backward 取出的多"
              "（`{line}` 只取 {expected} 个）：按 forward 保存的顺序把它们全部取出。"},
    "saved_index": {
        "en": "backward reads a tensor from ctx.saved_tensors (`{line}`) that forward did not "
              "save: check what forward passes to ctx.save_for_backward(...).",
        "zh": "backward 从 ctx.saved_tensors 读取的张量（`{line}`），forward 并没有保存："
              "检查 forward 传给 ctx.save_for_backward(...) 的参数。"},
    "raised_no_line": {
        "en": "Your code raised {error}. Read the message, fix what it names, and run the "
              "check again.",
        "zh": "你的代码抛出了异常 {error}。读一读这条信息，改好它指出的问题，然后再运行检查。"},
    "changed_state": {
        "en": "Your code changed {changed}, which minigrad and this check rely on. The check "
              "put it back, but cannot trust what it saw: remove that change from your answer "
              "and run the check again.",
        "zh": "你的代码改动了 {changed}，而 minigrad 和这个检查都依赖它。检查程序已经把它恢复原样，"
              "但这次看到的结果已经不可信：请从答案中去掉这处改动，然后再运行检查。"},
    "check_failed": {
        "en": "The check itself failed: this is a bug in minigrad's checker, not a verdict on "
              "your answer. Run the check again; if it fails again, please report it.",
        "zh": "检查程序本身出错了：这是 minigrad 检查程序的缺陷，并不是对你答案的评判。"
              "请再运行一次检查；如果还是出错，请报告这个问题。"},
    "checked_again": {
        "en": "Checked once more, with new inputs:",
        "zh": "用新的输入再检查一次时："},
    "trial_unreadable": {
        "en": "What your answer did could not be read back: something in your notebook "
              "changed minigrad or the checker while it ran. Remove that code and run the "
              "check again.",
        "zh": "无法读回你的答案的运行结果：笔记本里有代码在检查时改动了 minigrad 或检查程序。"
              "请去掉这些代码，然后重新运行检查。"},
    # notes, added after the verdict
    "no_time_limit": {
        "en": "Note: Python in the browser (JupyterLite, Pyodide) cannot stop code that never "
              "ends, so here the check has no time limit. If a check keeps running, restart "
              "the kernel and look for a loop that never ends.",
        "zh": "提示：在浏览器里运行的 Python（JupyterLite、Pyodide）无法中止永远不会结束的代码，"
              "所以这里的检查没有时间限制。如果某次检查一直运行不停，请重启内核，"
              "再找找有没有永远不会结束的循环。"},
    "engine_reduced": {
        "en": "Note: your backward returns a gradient in the broadcast shape, larger than its "
              "input's. The engine summed it down to the input's shape, as PyTorch's engine "
              "does for every node (its own AddBackward0 leaves that to the engine too), so "
              "the gradients in .grad are right. minigrad's built-in ops reduce in their own "
              "backward instead: then backward alone is the whole vector-Jacobian product, "
              "right wherever its result goes, also where no engine sums it (a backward you "
              "call by hand, or reuse inside another one).",
        "zh": "提示：你的 backward 返回的梯度是广播后的形状，比对应的输入大。引擎替你把它求和还原成了输入的形状，"
              "PyTorch 的引擎对每个节点都会这样做（它自己的 AddBackward0 也把这一步交给引擎），"
              "所以 .grad 里的梯度是对的。minigrad 的内置运算则在自己的 backward 里完成归约："
              "这样单凭 backward 就是完整的向量-雅可比积，无论结果送到哪里都对，"
              "包括没有引擎替它求和的地方（你亲手调用的 backward，或在另一个 backward 里复用它）。"},
    "progress_damaged": {
        "en": "Note: your progress file {file} was damaged and could not be read. It is kept "
              "as {backup}, and a new one was started with this check.",
        "zh": "提示：你的进度文件 {file} 已损坏，无法读取。它已另存为 {backup}，"
              "并从这次检查开始记录新的进度。"},
    # what was passed to check
    "not_function_class": {
        "en": "Expected your Function class (a subclass of minigrad.autograd.Function), "
              "got {got}. Pass the class itself, without calling it.",
        "zh": "这里需要你写的 Function 类（minigrad.autograd.Function 的子类），"
              "但收到的是 {got}。请直接传入这个类本身，不要调用它。"},
    "forward_not_apply": {
        "en": "You passed a method (forward, backward or apply). Pass the class itself: the "
              "check calls `.apply(...)` on it, never `forward` directly, because only apply "
              "records the node that backward needs.",
        "zh": "你传入的是一个方法（forward、backward 或 apply）。请传入类本身：检查程序会调用它的 "
              "`.apply(...)`，而不会直接调用 `forward`，因为只有 apply 才会记录反向传播需要的节点。"},
    "instance_not_class": {
        "en": "You passed an instance of your Function. Pass the class: Functions are never "
              "instantiated, you call `.apply(...)` on the class.",
        "zh": "你传入的是 Function 的一个实例。请传入类本身：Function 不需要实例化，"
              "直接在类上调用 `.apply(...)`。"},
    "not_callable": {
        "en": "Expected a function (something you can call), got {got}.",
        "zh": "这里需要一个函数（可以调用的对象），但收到的是 {got}。"},
    "forward_args": {
        "en": "forward has the wrong parameters: it receives ctx first, then exactly the "
              "arguments given to apply.",
        "zh": "forward 的参数不对：第一个参数是 ctx，后面正好是传给 apply 的那些参数。"},
    "backward_args": {
        "en": "backward has the wrong parameters: it receives ctx first, then one gradient for "
              "each output of forward.",
        "zh": "backward 的参数不对：第一个参数是 ctx，后面是 forward 每个输出各自对应的一个梯度。"},
    # forward
    "returned_numpy": {
        "en": "{where} returned a numpy array. Return a minigrad tensor: compute with tensor "
              "operations, or wrap the array with torch.tensor(...).",
        "zh": "{where} 返回了 numpy 数组。请返回 minigrad 张量：用张量运算来计算，"
              "或者用 torch.tensor(...) 把数组包装成张量。"},
    "numpy_function_on_tensor": {
        "en": "A numpy function (np.exp, np.where, np.maximum...) was called on a minigrad "
              "tensor. Use the tensor operations instead (x.exp(), torch.where, torch.maximum), "
              "or convert explicitly with x.detach().numpy() and wrap the result back with "
              "torch.tensor(...).",
        "zh": "你对 minigrad 张量调用了 numpy 函数（np.exp、np.where、np.maximum 等）。"
              "请改用张量运算（x.exp()、torch.where、torch.maximum），或者先用 x.detach().numpy() "
              "显式转换，再用 torch.tensor(...) 把结果包装回张量。"},
    "not_a_tensor": {
        "en": "{where} returned {got}; expected a tensor.",
        "zh": "{where} 返回了 {got}，这里需要的是张量。"},
    "wrong_shape": {
        "en": "{where} returned shape {got}; expected {expected}.",
        "zh": "{where} 返回的形状是 {got}，应该是 {expected}。"},
    "wrong_dtype": {
        "en": "{where} returned dtype {got}; expected {expected}. Keep the input's dtype "
              "(float32 in, float32 out).",
        "zh": "{where} 返回的数据类型是 {got}，应该是 {expected}。输出要保持输入的数据类型"
              "（输入 float32，输出也是 float32）。"},
    "wrong_forward_values": {
        "en": "{where} computes wrong values: at index {index} it gives {got}, the right value "
              "is {expected}. Check the formula.",
        "zh": "{where} 算出的数值不对：在下标 {index} 处得到 {got}，正确值是 {expected}。请检查公式。"},
    "wrong_forward": {
        "en": "{where} computes wrong values: at index {index}, where forward's inputs are "
              "{inputs}, it gives {got}, the right value is {expected}. Check the formula.",
        "zh": "{where} 算出的数值不对：在下标 {index} 处，forward 的输入依次是 {inputs}，"
              "得到 {got}，正确值是 {expected}。请检查公式。"},
    "no_grad_fn": {
        "en": "The output of apply has no grad_fn, although an input requires grad: backward "
              "can never reach your Function. Let apply record the node: do not override "
              "apply, and do not detach the output or mark it non-differentiable.",
        "zh": "有输入需要梯度，apply 的输出却没有 grad_fn：反向传播永远到不了你的 Function。"
              "请让 apply 记录下节点：不要重写 apply，也不要对输出调用 detach 或把它标记为不可导。"},
    "input_modified": {
        "en": "forward changed its input in place. Compute a new tensor instead, so that the "
              "caller's tensor keeps its values.",
        "zh": "forward 原地修改了它的输入。请计算出一个新的张量，让调用者的张量保持原值。"},
    # backward
    "wrong_num_grads": {
        "en": "backward returned {got} gradient(s); expected {expected}: one per input of "
              "forward, in the same order, with None for inputs that are not tensors.",
        "zh": "backward 返回了 {got} 个梯度，应该是 {expected} 个：forward 的每个输入对应一个，"
              "顺序相同，不是张量的输入对应 None。"},
    "grad_for_non_tensor": {
        "en": "backward returned a gradient for input {input}, which is not a tensor (a plain "
              "Python value). Return None in that position.",
        "zh": "backward 为输入 {input} 返回了梯度，但这个输入不是张量（只是普通的 Python 值）。"
              "这个位置应该返回 None。"},
    "missing_grad": {
        "en": "backward returned None for input {input}, which needs a gradient.",
        "zh": "backward 为输入 {input} 返回了 None，但它需要梯度。"},
    "forgot_grad_output": {
        "en": "The gradient for input {input} ignores the incoming gradient. By the chain rule, "
              "multiply your local derivative by grad_output.",
        "zh": "输入 {input} 的梯度没有用到传进来的梯度。根据链式法则，"
              "要把局部导数乘以 grad_output。"},
    "wrong_sign": {
        "en": "The gradient for input {input} has the wrong sign. Re-derive it and watch the "
              "minus signs.",
        "zh": "输入 {input} 的梯度符号反了。重新推导一遍，注意负号。"},
    "wrong_factor": {
        "en": "The gradient for input {input} is {factor} times the right one. Check the "
              "constant factors in your derivative.",
        "zh": "输入 {input} 的梯度是正确值的 {factor} 倍。检查导数里的常数因子。"},
    "wrong_grad": {
        "en": "The gradient for input {input} is wrong. At index {index}, where forward's "
              "inputs are {inputs} and grad_output is {grad_output}, your backward gives {got}; "
              "the right gradient is {expected}. Work it out on paper from these numbers, then "
              "compare with your backward.",
        "zh": "输入 {input} 的梯度不对。在下标 {index} 处，forward 的输入依次是 {inputs}，"
              "grad_output 是 {grad_output}，你的 backward 给出 {got}，正确的梯度是 {expected}。"
              "先用这几个数在纸上算一遍，再和你的 backward 对照。"},
    "wrong_grad_broadcast": {
        "en": "The gradient for input {input} is wrong. At index {index}, where the input is "
              "{value}, your backward gives {got}; for the same grad_output the right gradient "
              "is {expected}. Derive the derivative on paper, then compare with your backward.",
        "zh": "输入 {input} 的梯度不对。在下标 {index} 处，输入的值是 {value}，你的 backward 给出 "
              "{got}；在同样的 grad_output 下，正确的梯度是 {expected}。先在纸上推导出导数，"
              "再和你的 backward 对照。"},
    "not_reduced_broadcast": {
        "en": "The gradient for input {input} has the broadcast shape {got}, not the input's "
              "shape {expected}. Sum it over the dimensions that broadcasting expanded.",
        "zh": "输入 {input} 的梯度是广播后的形状 {got}，而不是输入本身的形状 {expected}。"
              "要在被广播的维度上求和。"},
    "size_one_dims": {
        "en": "The gradient for input {input} has the right number of elements but the shape "
              "{got}, not the input's shape {expected}: a dimension of size 1 was dropped or "
              "added. Keep a summed dimension (keepdim=True) only where the input has size 1.",
        "zh": "输入 {input} 的梯度元素个数对了，但形状是 {got}，而不是输入的形状 {expected}："
              "多了或少了一个大小为 1 的维度。只有在输入那一维大小为 1 时，求和才要保留这一维"
              "（keepdim=True）。"},
    "grads_swapped": {
        "en": "The gradients for inputs {first} and {second} are swapped: each has the other "
              "input's shape. backward returns the gradients in the order of forward's inputs.",
        "zh": "输入 {first} 和输入 {second} 的梯度顺序颠倒了：它们的形状各自对应的是另一个输入。"
              "backward 返回梯度的顺序必须和 forward 的输入顺序一致。"},
    "needs_input_grad_mixed_up": {
        "en": "backward returned None for input {input}, which needs a gradient, and a gradient "
              "for input {other}, which needs none. Inputs are counted from 0: "
              "ctx.needs_input_grad[{input}] is input {input}'s flag. Check which flag guards "
              "which gradient.",
        "zh": "backward 为需要梯度的输入 {input} 返回了 None，却为不需要梯度的输入 {other} "
              "返回了梯度。输入从 0 开始编号：ctx.needs_input_grad[{input}] 就是输入 {input} 的标志。"
              "检查每个标志管的是哪一个梯度。"},
    "modified_grad_output": {
        "en": "backward changed the incoming gradient (grad_output) in place. The engine may "
              "pass the same tensor to other nodes too: compute a new tensor (or modify a "
              "clone()) instead.",
        "zh": "backward 原地修改了传进来的梯度（grad_output）。引擎可能还会把同一个张量传给其他节点："
              "请计算出一个新的张量（或者修改它的 clone()）。"},
    "backward_returned_list": {
        "en": "backward returned a list. Return a tuple, (grad_a, grad_b): like PyTorch, "
              "minigrad takes a list as one single gradient.",
        "zh": "backward 返回的是列表。请返回元组 (grad_a, grad_b)：和 PyTorch 一样，"
              "minigrad 会把列表当成一个梯度。"},
    "wrong_grad_shape": {
        "en": "The gradient for input {input} has shape {got}; it must have the input's shape "
              "{expected}.",
        "zh": "输入 {input} 的梯度形状是 {got}，它必须和输入的形状 {expected} 一致。"},
    "ignored_needs_input_grad": {
        "en": "backward computed a gradient for input {input} although "
              "ctx.needs_input_grad[{input}] is False. Check the flag first and return None "
              "there: that work is wasted.",
        "zh": "ctx.needs_input_grad[{input}] 是 False，backward 却仍然为输入 {input} 计算了梯度。"
              "先检查这个标志，在那个位置返回 None：这部分计算是白费的。"},
    "saved_then_modified": {
        "en": "A tensor saved for backward was modified in place afterwards (its version "
              "counter moved), so backward refused to use it. Save the value backward really "
              "needs, or modify a clone() instead.",
        "zh": "一个保存的张量在保存之后又被原地修改了（版本计数器变了），所以反向传播拒绝使用它。"
              "请保存反向传播真正需要的值，或者改为修改它的 clone()。"},
    "update_in_no_grad": {
        "en": "A parameter (a leaf that requires grad) was changed in place while autograd "
              "records: the update would become part of the graph, so PyTorch refuses it. "
              "Update parameters inside `with torch.no_grad():`.",
        "zh": "在 autograd 记录计算图时原地修改了一个参数（需要梯度的叶子张量）：这次更新会变成计算图的一部分，"
              "所以 PyTorch 拒绝这样做。请在 `with torch.no_grad():` 里更新参数。"},
    "saved_non_tensor": {
        "en": "save_for_backward takes tensors only. Keep numbers and other values as ctx "
              "attributes (ctx.name = value).",
        "zh": "save_for_backward 只能保存张量。数字和其他值请作为 ctx 的属性保存（ctx.name = value）。"},
    "backward_not_differentiable": {
        "en": "Your backward is not differentiable: with create_graph=True the gradient it "
              "returns has no graph behind it (or a wrong one). Write backward with minigrad "
              "tensor operations on saved tensors: no .numpy(), .item(), .detach() or "
              "@once_differentiable.",
        "zh": "你的 backward 不可导：在 create_graph=True 时，它返回的梯度背后没有计算图（或者计算图不对）。"
              "请用 minigrad 的张量运算和保存的张量来写 backward：不要用 .numpy()、.item()、"
              ".detach() 或 @once_differentiable。"},
}


def table():
    """Every hint key of every exercise module, with its two texts."""
    merged = dict(COMMON)
    for name in TOPICS:
        merged.update(importlib.import_module(f"{__package__}.{name}").MESSAGES)
    return merged


def text(key, lang=None, **params):
    """The message for `key` in `lang` (None: minigrad.settings), with its {placeholders} filled."""
    entry = COMMON.get(key) or table()[key]
    return entry[settings.resolve_lang(lang)].format(**params)
