"""Lesson 09, the memory a graph holds: saved_bytes (what the nodes' `_saved_*` attributes
show) and checkpoint (keep the input only, recompute in backward).

saved_bytes runs on small graphs of built-in ops whose saved tensors the check reads from
the nodes' own SavedTensors (not the `_saved_*` names the answer reads): each memory's bytes
counted once, and the usual miscounts (twice, as elements, by object) alongside to name the
mistake.  checkpoint counts the calls of the function it is given, observes with
saved_tensors_hooks what forward keeps, and compares the gradients with its own graph's.
"""
import numpy as np

from .. import autograd
from ..surface import creation
from ..autograd.grad_mode import no_grad
from ..autograd.graph import saved_tensors_hooks
from . import _tools
from ._observed import ObservedTrial, at_most
from ._observed import number as number_of
from ._tools import Hint, as_array
from ._trial import Unreadable, dtype_of, field, uniform

MESSAGES = {
    "not_a_byte_count": {
        "en": "saved_bytes must return a number of bytes, an int; got {got}.",
        "zh": "saved_bytes 必须返回一个字节数（int），收到的是 {got}。"},
    "found_nothing": {
        "en": "saved_bytes found no saved tensor in `{program}`, which saves {expected} "
              "bytes. Walk the whole graph, from output.grad_fn along next_functions, and "
              "read each node's attributes whose names start with _saved_ (dir(node) lists "
              "them).",
        "zh": "在 `{program}` 中，saved_bytes 一个保存的张量也没找到，而这段程序保存了 {expected} 字节。"
              "请遍历整张计算图：从 output.grad_fn 出发，沿着 next_functions 走，读取每个节点名字以 "
              "_saved_ 开头的属性（dir(node) 会列出它们）。"},
    "counted_twice": {
        "en": "For `{program}` you count {got} bytes; the graph holds {expected}. Some memory "
              "was counted more than once: a tensor saved by two nodes (or twice by one, as "
              "in x * x), or a node reached by two paths. Count each node once, and each "
              "memory once: two saved tensors are the same memory when their data_ptr() is "
              "the same.",
        "zh": "对于 `{program}`，你算出 {got} 字节，而计算图实际持有 {expected} 字节。有的内存被算了不止一次："
              "一个张量被两个节点保存（或者像 x * x 那样被同一个节点保存两次），或者一个节点经由两条路径被访问到。"
              "每个节点只算一次，每块内存也只算一次：两个保存的张量的 data_ptr() 相同，就说明它们是同一块内存。"},
    "compared_objects": {
        "en": "For `{program}` you count {got} bytes; the graph holds {expected}. A saved "
              "output is a new tensor object each time you read it (node._saved_result is "
              "not the tensor you hold), so comparing objects (is, id) counts its memory "
              "again. Compare data_ptr() instead.",
        "zh": "对于 `{program}`，你算出 {got} 字节，而计算图实际持有 {expected} 字节。保存的输出每次读取都是一个"
              "新的张量对象（node._saved_result 并不是你手里的那个张量），所以按对象比较（is、id）"
              "会把它的内存又算一遍。请改为比较 data_ptr()。"},
    "counted_elements": {
        "en": "For `{program}` you return {got}, the number of elements saved; the question "
              "is their bytes, {expected}: multiply each tensor's numel() by its "
              "element_size() (4 bytes for float32, 8 for float64).",
        "zh": "对于 `{program}`，你返回的 {got} 是保存的元素个数；问的是它们占多少字节，即 {expected}："
              "把每个张量的 numel() 乘以它的 element_size()（float32 是 4 字节，float64 是 8 字节）。"},
    "wrong_byte_count": {
        "en": "For `{program}` you count {got} bytes; the graph holds {expected}. List, node "
              "by node, the tensors each one saved (its _saved_ attributes that are tensors) "
              "and add up their bytes, each memory once.",
        "zh": "对于 `{program}`，你算出 {got} 字节，而计算图实际持有 {expected} 字节。逐个节点列出它保存的张量"
              "（它那些值为张量的 _saved_ 属性），把它们的字节数加起来，每块内存只算一次。"},
    "checkpoint_values": {
        "en": "Checkpoint.apply(fn, x) must give the values of fn(x); for fn = {function} it "
              "gives others.",
        "zh": "Checkpoint.apply(fn, x) 给出的值必须和 fn(x) 相同；对于 fn = {function}，它给出的值不对。"},
    "keeps_intermediates": {
        "en": "forward keeps {got} bytes for backward, where x itself is {expected}: the "
              "results inside fn are kept too. That is the memory checkpointing saves. Keep "
              "only x (save_for_backward), and let forward run fn as it is: grad mode is off "
              "there, so fn records and saves nothing.",
        "zh": "forward 为反向传播保留了 {got} 字节，而 x 本身只有 {expected} 字节：fn 里面的中间结果也被留下了。"
              "检查点要省的正是这部分内存。只保留 x（save_for_backward），让 forward 照常运行 fn："
              "那里梯度模式是关闭的，fn 什么都不会记录、不会保存。"},
    "saves_the_output": {
        "en": "forward also saves fn's output. Backward does not need it (it runs fn again), "
              "and keeping it holds memory that checkpointing is meant to free: save x only.",
        "zh": "forward 还保存了 fn 的输出。backward 用不到它（它会重新运行 fn），留着它只会占用"
              "检查点本来要释放的内存：只保存 x。"},
    "no_recompute": {
        "en": "fn ran {calls} time(s) in all, forward and backward: backward must run fn "
              "again (once) to rebuild the graph it backpropagates through.",
        "zh": "在前向和反向传播中，fn 一共只运行了 {calls} 次：backward 必须再运行一次 fn，"
              "重建它要沿着反向传播的那张计算图。"},
    "recompute_records_nothing": {
        "en": "In backward, fn's output has no graph: backward runs with grad mode off (as "
              "forward does). Recompute inside `with torch.enable_grad():`, on a copy of x that "
              "requires grad (x.detach().requires_grad_()).",
        "zh": "在 backward 中，fn 的输出没有计算图：backward 运行时梯度模式是关闭的（forward 也是）。"
              "请在 `with torch.enable_grad():` 里面重新计算，作用在一个需要梯度的 x 副本上"
              "（x.detach().requires_grad_()）。"},
    "backward_through_x": {
        "en": "The gradient reached x's own history twice: once through your backward's return "
              "value, and once because the recomputed graph was built on x itself and "
              ".backward() went on past it. Recompute on x.detach().requires_grad_() and take "
              "the gradient with torch.autograd.grad.",
        "zh": "梯度两次流进了 x 之前的计算图：一次经由你的 backward 的返回值，另一次是因为重新计算的"
              "计算图直接建在 x 本身上，.backward() 一直传到了它的前面。请在 "
              "x.detach().requires_grad_() 上重新计算，再用 torch.autograd.grad 求梯度。"},
}

# ---------------------------------------------------------------- saved_bytes


def _mul_tanh():
    x = creation.ones(3, 4, requires_grad=True)
    return (x * x).tanh().sum()


def _relu_layer():
    x = creation.tensor(np.linspace(-1.0, 1.0, 15).reshape(5, 3).astype(np.float32))
    w = creation.ones(3, 2, requires_grad=True)
    v = creation.ones(5, 2, requires_grad=True)
    h = (x @ w).relu()
    return (h * v).sum()


def _exp_sin_cos():
    x = creation.tensor(np.array([0.5, 1.0, 1.5, 2.0]), requires_grad=True)
    y = x.exp()
    return (y.sin() + x.cos()).sum()


def _diamond():
    a = creation.ones(2, 3, requires_grad=True)
    b = a.sigmoid()
    return (b * b + b).sum()


# (the program as the hint shows it, the function that builds it)
_PROGRAMS = (
    ("x = torch.ones(3, 4, requires_grad=True); out = (x * x).tanh().sum()", _mul_tanh),
    ("x = torch.linspace(-1, 1, 15).reshape(5, 3); w = torch.ones(3, 2, requires_grad=True); "
     "v = torch.ones(5, 2, requires_grad=True); h = (x @ w).relu(); out = (h * v).sum()",
     _relu_layer),
    ("x = torch.tensor([0.5, 1.0, 1.5, 2.0], dtype=torch.float64, requires_grad=True); "
     "y = x.exp(); out = (y.sin() + x.cos()).sum()", _exp_sin_cos),
    ("a = torch.ones(2, 3, requires_grad=True); b = a.sigmoid(); out = (b * b + b).sum()",
     _diamond),
)


def _saves(output):
    """(memory address, bytes, elements, object key) of each tensor the graph saved, in the
    nodes' own SavedTensors: a saved output is kept as its array (a new object whenever it
    is read), a saved input as the tensor itself."""
    seen, stack, saves = set(), [output.grad_fn], []
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(n for n, _ in node.next_functions)
        for slot, saved in enumerate(getattr(node, "_saved", None) or ()):
            if saved is None or saved.wrapped_number:
                continue
            array = saved.packed if saved.is_output else saved.packed._data
            key = ("output", id(node), slot) if saved.is_output else ("tensor", id(saved.packed))
            saves.append((array.__array_interface__["data"][0], array.nbytes, array.size, key))
    return saves


def _counts(saves):
    """The right count, and the miscounts: twice, as elements, by object."""
    distinct = {address: (size, elements) for address, size, elements, _ in saves}
    by_object = {key: size for _, size, _, key in saves}
    return {"expected": sum(size for size, _ in distinct.values()),
            "counted_twice": sum(size for _, size, _, _ in saves),
            "counted_elements": sum(elements for _, elements in distinct.values()),
            "compared_objects": sum(by_object.values())}


def check_saved_bytes(answer):
    saved_bytes = _tools.require_callable(answer)
    for program, build in _PROGRAMS:
        output = build()
        counts = _counts(_saves(output))
        got = saved_bytes(output)
        if isinstance(got, bool) or not isinstance(got, (int, np.integer)):
            if not (isinstance(got, float) and got.is_integer()):
                raise Hint("not_a_byte_count", got=_tools.describe(got))
        got, expected = int(got), counts["expected"]
        if got == expected:
            continue
        params = {"program": program, "got": got, "expected": expected}
        if got == 0:
            raise Hint("found_nothing", program=program, expected=expected)
        for mistake in ("counted_elements", "compared_objects", "counted_twice"):
            if got == counts[mistake]:
                raise Hint(mistake, **params)
        raise Hint("wrong_byte_count", **params)


# ---------------------------------------------------------------- checkpoint


def _tanh_chain(x):
    return x.tanh().tanh().tanh()


def _sin_times_exp(x):
    return x.sin() * x.exp()


def _softplus_mean(x):
    return (1 + x.exp()).log() / 2


_FUNCTIONS = (("x.tanh().tanh().tanh()", _tanh_chain), ("x.sin() * x.exp()", _sin_times_exp),
              ("(1 + x.exp()).log() / 2", _softplus_mean))


def _counting(fn):
    calls = []

    def counted(x):
        calls.append(1)
        return fn(x)
    return counted, calls


def _packed_bytes(cls, fn, x):
    """Run cls.apply(fn, x), observing the bytes of every tensor packed for backward."""
    packed = []

    def pack(tensor):
        packed.append(tensor)
        return tensor

    with saved_tensors_hooks(pack, lambda tensor: tensor):
        output = _tools.apply(cls, fn, x)
    return output, packed


def check_checkpoint(answer):
    cls = _tools.require_function_class(answer)
    generator = np.random.default_rng(70)
    for number, (name, fn) in enumerate(_FUNCTIONS):
        dtype = "float32" if number == 1 else "float64"
        values = generator.uniform(-1.5, 1.5, size=(3, 4)).astype(dtype)
        leaf = creation.tensor(values, requires_grad=True)
        x = leaf * 2                                     # x has a history of its own
        counted, calls = _counting(fn)
        output, packed = _packed_bytes(cls, counted, x)
        with no_grad():
            expected_output = fn(creation.tensor(values) * 2)
        if not _tools.same_values(output, expected_output):
            if _tools.is_tensor(output):
                raise Hint("checkpoint_values", function=name)
            _tools.require_tensor(output, "forward")
        _tools.require_grad_fn(output, (x,))
        _check_what_forward_keeps(packed, x, output)
        grad_output = creation.tensor(generator.uniform(-2, 2, size=(3, 4)), dtype=x.dtype)
        expected, local = _gradients(fn, values * 2, grad_output)
        try:
            raw = _tools.raw_backward(cls, output.grad_fn, (grad_output,))
        except RuntimeError as error:
            if "does not require grad and does not have a grad_fn" in str(error):
                raise Hint("recompute_records_nothing") from None
            raise
        if leaf.grad is not None:                # backward went on through x's own history
            raise Hint("backward_through_x")
        if len(calls) < 2:
            raise Hint("no_recompute", calls=len(calls))
        _tools.check_gradients(raw, (counted, x), [None, expected], [None, local],
                               tuple(output.shape))
        _check_through_engine(cls, fn, values, grad_output, expected)


def _check_through_engine(cls, fn, values, grad_output, expected):
    """A training step: the gradient reaches the leaf behind x, once."""
    leaf = creation.tensor(values, requires_grad=True)
    _tools.apply(cls, fn, leaf * 2).backward(grad_output)
    if leaf.grad is None:
        raise Hint("missing_grad", input=1)
    got = as_array(leaf.grad) / 2                       # through x = leaf * 2
    if _tools.close(got, 2 * expected, leaf.dtype):
        raise Hint("backward_through_x")
    _tools.diagnose_values(got, expected, None, 1, values * 2, leaf.dtype)


def _check_what_forward_keeps(packed, x, output):
    """x alone (or nothing, if x is kept as a ctx attribute): not fn's output, nor the
    tensors fn's ops would save had forward recorded them."""
    kept, size = sum(tensor._data.nbytes for tensor in packed), x._data.nbytes
    if kept > size:
        with_output = any(_tools.same_values(tensor, output) for tensor in packed)
        if with_output and kept <= size + output._data.nbytes:
            raise Hint("saves_the_output")
        raise Hint("keeps_intermediates", got=kept, expected=size)


def _gradients(fn, values, grad_output):
    """fn's gradient for grad_output and for ones, from fn's own graph of built-in ops."""
    results = []
    for seed in (grad_output, creation.ones_like(grad_output)):
        x = creation.tensor(values, requires_grad=True)
        (grad,) = autograd.grad(fn(x), x, seed)
        results.append(as_array(grad))
    return results


CHECKS = {"saved_bytes": check_saved_bytes, "checkpoint": check_checkpoint}


# ---------------------------------------------------------------- trials


def _graph_draw(rng):
    """The four programs, each with sizes and values drawn: (its number, the arrays)."""
    drawn = []
    for number in range(len(_GRAPH_NAMES)):
        rows, columns = (int(n) for n in rng.integers(2, 6, size=2))
        dtype = dtype_of(rng)
        drawn.append((number, uniform(rng, (rows, columns), dtype),
                      uniform(rng, (columns, 2), dtype)))
    return drawn


def _graph_of(drawn):
    number, a, b = drawn
    x = creation.tensor(a, requires_grad=True)
    if number == 0:
        return (x * x).tanh().sum()
    if number == 1:
        w = creation.tensor(b, requires_grad=True)
        return (creation.tensor(a) @ w).relu().sum()
    if number == 2:
        y = x.exp()
        return (y.sin() + x.cos()).sum()
    s = x.sigmoid()
    return (s * s + s).sum()


_GRAPH_NAMES = ("out = (x * x).tanh().sum()", "out = (x @ w).relu().sum()",
                "y = x.exp(); out = (y.sin() + x.cos()).sum()",
                "b = x.sigmoid(); out = (b * b + b).sum()")


def _saved_bytes_compute(answer, drawn):
    saved_bytes = _tools.require_callable(answer)
    counts = []
    for program in drawn:
        got = saved_bytes(_graph_of(program))
        if isinstance(got, bool) or not isinstance(got, (int, float, np.integer, np.floating)):
            raise Hint("not_a_byte_count", got=_tools.describe(got))
        counts.append(float(got))
    return {"counts": {"values": counts}}


def _saved_bytes_expect(drawn):
    def judge(entry):
        counts = field(entry, "values", list)
        if len(counts) != len(drawn) or not all(isinstance(n, (int, float)) for n in counts):
            raise Unreadable()
        for got, program in zip(counts, drawn):
            expected = _counts(_saves(_graph_of(program)))["expected"]
            if got != expected:
                number, x, _ = program
                name = f"x of shape {list(x.shape)}, {x.dtype.name}: {_GRAPH_NAMES[number]}"
                raise Hint("wrong_byte_count", program=name, got=got, expected=expected)
    return {"counts": judge}


def _checkpoint_draw(rng):
    number = int(rng.integers(len(_FUNCTIONS)))
    shape = tuple(int(n) for n in rng.integers(2, 5, size=2))
    dtype = dtype_of(rng)
    return number, uniform(rng, shape, dtype, -1.5, 1.5), uniform(rng, shape, dtype)


def _checkpoint_compute(answer, drawn):
    cls = _tools.require_function_class(answer)
    number, values, grad_output = drawn
    counted, calls = _counting(_FUNCTIONS[number][1])
    leaf = creation.tensor(values, requires_grad=True)
    x = leaf * 2                                     # x has a history of its own
    output, packed = _packed_bytes(cls, counted, x)
    _tools.require_tensor(output, "forward")
    output.backward(creation.tensor(grad_output))
    return {"output": output, "kept": sum(tensor._data.nbytes for tensor in packed),
            "calls": len(calls), "gradient": leaf.grad}


def _checkpoint_expect(drawn):
    number, values, grad_output = drawn
    name, fn = _FUNCTIONS[number]
    leaf = creation.tensor(values, requires_grad=True)
    output = fn(leaf * 2)
    output.backward(creation.tensor(grad_output))

    def recomputed(entry):
        if number_of(entry) < 2:
            raise Hint("no_recompute", calls=int(number_of(entry)))
    kept = at_most(values.nbytes, "keeps_intermediates", got=None, expected=values.nbytes)
    return {"output": output.detach(), "gradient": leaf.grad, "kept": kept, "calls": recomputed}


TRIALS = {"saved_bytes": ObservedTrial(_graph_draw, _saved_bytes_compute, _saved_bytes_expect),
          "checkpoint": ObservedTrial(_checkpoint_draw, _checkpoint_compute, _checkpoint_expect)}
