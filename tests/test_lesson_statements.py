"""What the lessons state about PyTorch holds: each statement run in minigrad and in
PyTorch 2.13, the same answer from both, and the lesson (both languages) saying it.

These are the statements the lessons once got wrong or left out: the leaf rule, what the
number of an edge means, AccumulateGrad's sequence number, an unreduced broadcast
gradient, what goes on ctx, the end of the version counter's message, the node of an
in-place op.
"""
import gc
import pathlib
import weakref

import pytest

import minigrad

real_torch = pytest.importorskip("torch")

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


# --- lesson 02 -----------------------------------------------------------------------

def test_accumulate_grad_has_the_largest_sequence_number_there_is():
    def number(torch):
        x = torch.tensor([1.0], requires_grad=True)
        node = (x * 2).grad_fn.next_functions[0][0]
        value = node._sequence_nr
        return value() if callable(value) else value
    assert in_both(number) == 2 ** 64 - 1 == 18446744073709551615
    assert "18446744073709551615" in source("02-backward-order")


# --- lesson 03 -----------------------------------------------------------------------

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
    lesson = source("03-custom-functions")
    assert "each input needs a gradient of its" not in lesson
    assert "PyTorch's own `AddBackward0` leaves that to the engine" in lesson


def test_pytorchs_own_add_backward_leaves_the_sum_to_the_engine():
    """What the note of add_broadcast says of PyTorch: its AddBackward0, called by hand,
    returns the broadcast shape (minigrad's Add reduces in its backward, as it says too)."""
    a = real_torch.ones(3, 1, requires_grad=True)
    b = real_torch.ones(4, requires_grad=True)
    grads = (a + b).grad_fn(real_torch.ones(3, 4))
    assert [tuple(g.shape) for g in grads] == [(3, 4), (3, 4)]
    a, b = minigrad.ones(3, 1, requires_grad=True), minigrad.ones(4, requires_grad=True)
    assert [tuple(g.shape) for g in (a + b).grad_fn(minigrad.ones(3, 4))] == [(3, 1), (4,)]


# --- lesson 04 -----------------------------------------------------------------------

def test_the_rule_for_ctx_is_pytorchs_2_13_docstring():
    docstring = real_torch.autograd.Function.forward.__doc__
    assert "Tensors should not be stored\n        directly on `ctx`" in docstring
    assert "ctx.save_for_backward(x, y, w, out)" in \
        real_torch.autograd.function.FunctionCtx.save_for_backward.__doc__
    lesson = source("04-saving-tensors")
    assert "tensors should not be stored directly on `ctx`" in lesson
    assert "张量不应该直接存放在 `ctx` 上" in lesson
    assert "ctx.w = w" not in lesson


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


# --- lesson 05 -----------------------------------------------------------------------

def test_pytorchs_hint_locates_the_op_with_anomaly_mode():
    x = real_torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    with pytest.raises(RuntimeError) as error:
        y.sum().backward()
    assert str(error.value).endswith(
        "Hint: enable anomaly detection to find the operation that failed to compute its "
        "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
    lesson = source("05-inplace-and-versions")
    assert "set_detect_anomaly(True, check_nan=False).` |" in lesson
    assert "| the hint | how to fix it |" not in lesson
    assert "how to **locate** the operation" in lesson and "怎样**找到**出错的运算" in lesson


def test_the_node_of_clamp_is_clamp_backward1():
    def node(torch):
        b = torch.tensor([-1.0, 2.0], requires_grad=True) * 1
        b.clamp_(min=0)
        return b.grad_fn.name(), b._version
    assert in_both(node) == ("ClampBackward1", 1)
    lesson = source("05-inplace-and-versions")
    assert "`clamp_` becomes that tensor's new `grad_fn`" not in lesson
    assert "the\n# node of `clamp_`, `ClampBackward1`, is that tensor's new `grad_fn`" in lesson


# --- lesson 13 -----------------------------------------------------------------------

def test_what_lesson_13_shows_of_the_grad_modes():
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
