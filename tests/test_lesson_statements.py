"""What the lessons state about PyTorch holds: each statement run in minigrad and in
PyTorch 2.13 (where it is installed), and the lesson saying it.

The statements the lessons once got wrong or left out: the leaf rule, what the number of
an edge means, AccumulateGrad's sequence number, an unreduced broadcast gradient, what goes
on ctx, the end of the version counter's message, the node of an in-place op; hook
arguments, files left by saved-tensor hooks, the nodes a double backward records, what
once_differentiable raises, why a GPU's first call is slow.
"""
import ast
import gc
import os
import pathlib
import re
import weakref

import nbformat
import pytest

import minigrad
from minigrad.lessons import lesson_path

try:
    import torch as real_torch
except ImportError:          # the statements that need no PyTorch are still checked
    real_torch = None
needs_torch = pytest.mark.skipif(real_torch is None, reason="PyTorch is not installed")

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "notebooks" / "sources"
LIBRARIES = {"minigrad": minigrad, "torch": real_torch}


def source(slug):
    return (SOURCES / f"{slug}.py").read_text(encoding="utf-8")


def in_both(run):
    """run(torch) in minigrad and in PyTorch: the two results, which must be equal."""
    results = {name: run(library) for name, library in LIBRARIES.items()}
    assert results["minigrad"] == results["torch"], results
    return results["minigrad"]


# --- lesson 01 -----------------------------------------------------------------------

def test_the_welcome_counts_the_lessons_the_course_has():
    from minigrad.lessons import LESSONS
    words_en = {16: "Sixteen", 17: "Seventeen", 18: "Eighteen"}
    words_zh = {16: "十六", 17: "十七", 18: "十八"}
    welcome = source("01-tensors-and-the-graph")
    assert f"# {words_en[len(LESSONS)]} lessons take you" in welcome
    assert f"# 全课共{words_zh[len(LESSONS)]}讲" in welcome


@needs_torch
def test_every_tensor_that_does_not_require_grad_is_a_leaf():
    def leaves(torch):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        plain = torch.tensor([4.0, 5.0])
        return [t.is_leaf for t in (x, plain, plain * 3, (x * 2).detach(), x * 2)]
    assert in_both(leaves) == [True, True, True, True, False]
    assert "**every tensor that does not\n# require grad**" in source("01-tensors-and-the-graph")
    assert "**所有不需要梯度的张量**也都是叶子张量" in source("01-tensors-and-the-graph")
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert "every tensor with `requires_grad=False`" in glossary
    assert "所有 `requires_grad=False` 的张量" in glossary


@needs_torch
def test_the_number_of_an_edge_is_an_output_of_the_next_node():
    def numbers(torch):
        m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        row0, row1 = m.unbind(0)
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        return ([nr for _, nr in (row0 * row1).grad_fn.next_functions],
                [nr for _, nr in (x * x).grad_fn.next_functions])
    assert in_both(numbers) == ([0, 1], [0, 0])
    lesson = source("01-tensors-and-the-graph")
    assert "**which output of that\n# node** the input was" in lesson
    assert "input_nr" not in lesson and "({say('output', '输出')} {output_nr})" in lesson


@needs_torch
def test_a_vector_jacobian_product_is_the_gradient_of_v_times_y():
    def products(torch):
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        v = torch.tensor([1.0, 0.0, 10.0])
        (x * x).backward(gradient=v)
        by_backward = x.grad.tolist()
        (grad,) = torch.autograd.grad(x * x, x, grad_outputs=v)
        try:
            (x * x).backward()
            refused = False
        except RuntimeError as error:
            refused = str(error).startswith("grad can be implicitly created only for scalar")
        return by_backward, grad.tolist(), refused
    assert in_both(products) == ([2.0, 0.0, 60.0], [2.0, 0.0, 60.0], True)


# --- lesson 03 -----------------------------------------------------------------------

@needs_torch
def test_accumulate_grad_has_the_largest_sequence_number_there_is():
    def number(torch):
        x = torch.tensor([1.0], requires_grad=True)
        node = (x * 2).grad_fn.next_functions[0][0]
        value = node._sequence_nr
        return value() if callable(value) else value
    assert in_both(number) == 2 ** 64 - 1 == 18446744073709551615
    assert "18446744073709551615" in source("03-backward-order")


# --- lesson 04 -----------------------------------------------------------------------

@needs_torch
def test_the_engine_sums_an_unreduced_broadcast_gradient_down():
    def gradients(torch):
        class Unreduced(torch.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                return a + b

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output, grad_output

        a = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
        b = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
        Unreduced.apply(a, b).sum().backward()
        return a.grad.tolist(), b.grad.tolist()
    assert in_both(gradients) == ([[4.0], [4.0], [4.0]], [3.0, 3.0, 3.0, 3.0])
    lesson = source("04-custom-functions")
    assert "each input needs a gradient of its" not in lesson
    assert "PyTorch's own `AddBackward0` leaves that to the engine" in lesson


@needs_torch
def test_pytorchs_own_add_backward_leaves_the_sum_to_the_engine():
    """What the note of add_broadcast says of PyTorch: its AddBackward0, called by hand,
    returns the broadcast shape (minigrad's Add reduces in its backward, as it says too)."""
    a = real_torch.ones(3, 1, requires_grad=True)
    b = real_torch.ones(4, requires_grad=True)
    grads = (a + b).grad_fn(real_torch.ones(3, 4))
    assert [tuple(g.shape) for g in grads] == [(3, 4), (3, 4)]
    a, b = minigrad.ones(3, 1, requires_grad=True), minigrad.ones(4, requires_grad=True)
    assert [tuple(g.shape) for g in (a + b).grad_fn(minigrad.ones(3, 4))] == [(3, 1), (4,)]


# --- lesson 05 -----------------------------------------------------------------------

@needs_torch
def test_the_rule_for_ctx_is_pytorchs_2_13_docstring():
    docstring = real_torch.autograd.Function.forward.__doc__
    assert "Tensors should not be stored\n        directly on `ctx`" in docstring
    assert "ctx.save_for_backward(x, y, w, out)" in \
        real_torch.autograd.function.FunctionCtx.save_for_backward.__doc__
    lesson = source("05-saving-tensors")
    assert "tensors should not be stored directly on `ctx`" in lesson
    assert "张量不应该直接存放在 `ctx` 上" in lesson
    assert "ctx.w = w" not in lesson


@needs_torch
def test_a_tensor_on_ctx_escapes_the_version_check_and_the_hooks():
    def costs(torch):
        class ScaleOnCtx(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, w):
                ctx.x, ctx.w = x, w
                return x * w

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output * ctx.w, grad_output * ctx.x

        class ScaleSaved(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, w):
                ctx.save_for_backward(x, w)
                return x * w

            @staticmethod
            def backward(ctx, grad_output):
                x, w = ctx.saved_tensors
                return grad_output * w, grad_output * x

        seen = []
        for scale in (ScaleOnCtx, ScaleSaved):
            x = torch.tensor([1.0, 2.0], requires_grad=True)
            w = torch.tensor([3.0, 4.0], requires_grad=True)
            h = x * 1
            y = scale.apply(h, w)
            h.add_(10)
            try:
                y.sum().backward()
                checked = w.grad.tolist()
            except RuntimeError as error:
                checked = "modified by an inplace operation" in str(error)
            packed = []
            with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t,
                                                          lambda t: t):
                scale.apply(h, w)
            seen.append((checked, len(packed)))
        return seen
    assert in_both(costs) == [([11.0, 12.0], 0), (True, 2)]


@needs_torch
def test_an_output_on_ctx_outlives_del_until_the_garbage_collector_runs():
    def alive_after_del(torch):
        class ExpOnCtx(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                y = x.exp()
                ctx.y = y
                return y

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output * ctx.y

        gc.disable()
        try:
            y = ExpOnCtx.apply(torch.tensor([1.0], requires_grad=True))
            alive = weakref.ref(y)
            del y
            before = alive() is not None
            gc.collect()
            return before, alive() is not None
        finally:
            gc.enable()
    assert in_both(alive_after_del) == (True, False)


# --- lesson 06 -----------------------------------------------------------------------

@needs_torch
def test_pytorchs_hint_locates_the_op_with_anomaly_mode():
    x = real_torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    with pytest.raises(RuntimeError) as error:
        y.sum().backward()
    assert str(error.value).endswith(
        "Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
    lesson = source("06-inplace-and-versions")
    assert "set_detect_anomaly(True, check_nan=False).` |" in lesson
    assert "| the hint | how to fix it |" not in lesson
    assert "how to **locate** the operation" in lesson and "怎样**找到**出错的运算" in lesson


@needs_torch
def test_the_node_of_clamp_is_clamp_backward1():
    def node(torch):
        b = torch.tensor([-1.0, 2.0], requires_grad=True) * 1
        b.clamp_(min=0)
        return b.grad_fn.name(), b._version
    assert in_both(node) == ("ClampBackward1", 1)
    lesson = source("06-inplace-and-versions")
    assert "`clamp_` becomes that tensor's new `grad_fn`" not in lesson
    assert "the\n# node of `clamp_`, `ClampBackward1`, is that tensor's new `grad_fn`" in lesson


# --- lesson 02 -----------------------------------------------------------------------

@needs_torch
def test_what_lesson_02_shows_of_the_grad_modes():
    def modes(torch):
        w = torch.tensor([1.0, -1.0], requires_grad=True)
        with torch.no_grad():
            n = w * 2
            with torch.enable_grad():
                e = w * 2
        with torch.inference_mode():
            p = w * 2
        with torch.set_grad_enabled(False):
            s = w * 2
        try:
            (p * w).sum().backward()
            refused = False
        except RuntimeError as error:
            refused = str(error).startswith("Inference tensors cannot be saved for backward")
        (p + w).sum().backward()                 # a sum saves nothing: an inference tensor is fine
        try:
            (w * 2).requires_grad_(False)
            flag = "switched"
        except RuntimeError as error:
            flag = str(error).split(".")[0]
        return (n.requires_grad, n.is_leaf, e.requires_grad, p.is_inference(),
                n.is_inference(), s.requires_grad, refused, flag)
    assert in_both(modes) == (False, True, True, True, False, False, True,
                              "you can only change requires_grad flags of leaf variables")


@needs_torch
def test_the_graph_follows_python_control_flow():
    def nodes(torch):
        def f(a):
            b = a * 2
            while b.norm() < 1000:
                b = b * 2
            return b if b.sum() > 0 else 100 * b

        counts = []
        for value in (0.5, -0.01):
            a = torch.tensor(value, requires_grad=True)
            c = f(a)
            c.backward()
            count, node = 0, c.grad_fn
            while node is not None:
                count += 1
                node = node.next_functions[0][0] if node.next_functions else None
            counts.append((count, a.grad.item() == (c / a).item()))
        return counts
    assert in_both(nodes) == [(12, True), (19, True)]


def code_cells(lesson):
    notebook = nbformat.read(lesson_path(lesson, "en", solutions=True), as_version=4)
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def prose(lesson, lang="en"):
    """The lesson's text, its paragraphs apart, each on one line (as Markdown shows it)."""
    notebook = nbformat.read(lesson_path(lesson, lang, solutions=True), as_version=4)
    text = "\n\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    return "\n\n".join(" ".join(p.split()) for p in text.split("\n\n"))


def cell_defining(lesson, name):
    return next(source for source in code_cells(lesson) if f"def {name}(" in source)


def engines():
    yield minigrad
    try:
        import torch
    except ImportError:
        return
    yield torch


# --- lesson 08: node hooks are called as PyTorch names their arguments ------------------

def lambdas_registered_by(source, method):
    """The parameter names of each lambda passed to `<tensor>.grad_fn.<method>(...)`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == method and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "grad_fn" and node.args
                and isinstance(node.args[0], ast.Lambda)):
            found.append(tuple(arg.arg for arg in node.args[0].args.args))
    return found


def test_lesson_08_names_node_hook_arguments_as_pytorch_does():
    source = (SOURCES / "08-hooks.py").read_text(encoding="utf-8")
    prehooks = lambdas_registered_by(source, "register_prehook")
    hooks = lambdas_registered_by(source, "register_hook")
    assert prehooks and set(prehooks) == {("grad_outputs",)}
    assert hooks and set(hooks) == {("grad_inputs", "grad_outputs")}
    assert "grads_in" not in source and "grads_out" not in source
    for text in (prose(8), prose(8, "zh")):
        assert "`fn(grad_inputs, grad_outputs)`" in text and "`fn(grad_outputs)`" in text


@pytest.mark.parametrize("torch", list(engines()), ids=lambda module: module.__name__)
def test_a_node_hook_gets_the_gradients_of_the_ops_inputs_first(torch):
    """The mapping lesson 08 states: grad_inputs (first) are shaped like the op's inputs,
    grad_outputs like its output, and the pre-hook sees grad_outputs."""
    seen = {}
    a = torch.ones(2, 3, requires_grad=True)
    b = torch.ones(3, requires_grad=True)
    y = a * b
    y.grad_fn.register_prehook(lambda grad_outputs: seen.update(pre=grad_outputs))
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.update(
        inputs=grad_inputs, outputs=grad_outputs))
    y.sum().backward()
    assert [tuple(g.shape) for g in seen["inputs"]] == [(2, 3), (3,)]
    assert [tuple(g.shape) for g in seen["outputs"]] == [(2, 3)]
    assert [tuple(g.shape) for g in seen["pre"]] == [(2, 3)]


# --- lesson 08: the disk hooks delete their files --------------------------------------

def test_lesson_08_disk_hooks_leave_no_file_behind():
    scope = {"torch": minigrad}
    exec(cell_defining(8, "pack_to_disk"), scope)         # also runs its measurements
    folder, forward = scope["folder"], scope["forward"]
    hooks = minigrad.autograd.graph.saved_tensors_hooks
    assert os.listdir(folder) == []
    x = minigrad.randn(64, 32, requires_grad=True)
    with hooks(scope["pack_to_disk"], scope["unpack_from_disk"]):
        y = forward(x)
    assert len(os.listdir(folder)) == 4               # four tanh, one saved output each
    y.sum().backward()
    assert os.listdir(folder) == []
    gc.disable()                  # a graph deleted without backward takes its files with it
    try:
        with hooks(scope["pack_to_disk"], scope["unpack_from_disk"]):
            y = forward(x)
        del y
        assert os.listdir(folder) == []
    finally:
        gc.enable()


# --- lesson 12: the nodes of a double backward -------------------------------------------

def test_lesson_12_names_the_nodes_that_the_gradient_of_a_power_records():
    x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (g,) = minigrad.autograd.grad((x ** 3).sum(), x, create_graph=True)
    recorded, node = [], g.grad_fn
    while node is not None and node.name().endswith(tuple("0123456789")):
        recorded.append(node.name())
        node = next((n for n, _ in node.next_functions if n is not None), None)
    assert recorded == ["MulBackward0", "MulBackward1", "PowBackward0"]
    for lang in ("en", "zh"):
        paragraph = next(p for p in prose(12, lang).split("\n\n") if "MulBackward1" in p)
        named = set(re.findall(r"`(\w+Backward\d)`", paragraph))
        assert named == set(recorded), (lang, named)


# --- lesson 12: what once_differentiable raises --------------------------------------

def test_lesson_12_once_differentiable_raises_what_the_lesson_says():
    from minigrad.lessons import show_error
    scope = {"torch": minigrad, "show_error": show_error}
    for name in ("PartlyNumpyCube", "OnceCube"):
        source = next(s for s in code_cells(12) if f"class {name}(" in s)
        exec(source, scope)
    text = prose(12)
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    (first,) = minigrad.autograd.grad(scope["PartlyNumpyCube"].apply(x).sum(), x,
                                      create_graph=True)
    (second,) = minigrad.autograd.grad(first.sum(), x)
    assert second.tolist() == [3.0, 6.0]                    # 3x, not 6x: silently wrong
    assert "`3x` instead of `6x`" in text
    (first,) = minigrad.autograd.grad(scope["OnceCube"].apply(x).sum(), x, create_graph=True)
    assert not first.requires_grad
    with pytest.raises(RuntimeError, match="does not require grad and does not have a grad_fn"):
        minigrad.autograd.grad(first.sum(), x)
    y = scope["OnceCube"].apply(x)
    (first,) = minigrad.autograd.grad((y * y).sum(), x, create_graph=True)
    assert first.grad_fn.name() == "torch::autograd::Error"
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        minigrad.autograd.grad(first.sum(), x)
    with pytest.raises(RuntimeError, match="trying to differentiate twice"):
        first.sum().backward()
    assert "appears to not have been used in the graph" in text and "`Error` node" in text


# --- lesson 15: the first call on a GPU ---------------------------------------------------

def test_lesson_15_says_who_compiles_kernels():
    source = cell_defining(15, "time_matmul")
    warm_up = next(line for line in source.splitlines() if "warm-up" in line)
    assert "CuPy" in warm_up
    for lang in ("en", "zh"):
        text = prose(15, lang)
        assert "CuPy" in text and "cuBLAS" in text
