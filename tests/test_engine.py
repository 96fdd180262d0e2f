"""The engine: order, freeing, deep graphs, hooks, grad modes, anomaly mode."""
import gc
import os
import subprocess
import sys
import textwrap
import tracemalloc
import weakref

import numpy as np
import pytest

import minigrad as torch
from minigrad.autograd.function import Function


def tagged(name, order):
    """A Function that records its name when its backward runs."""
    class Tagged(Function):
        @staticmethod
        def forward(ctx, *xs):
            out = xs[0] * 1
            for extra in xs[1:]:
                out = out + extra
            ctx.n = len(xs)
            return out

        @staticmethod
        def backward(ctx, grad):
            order.append(name)
            return (grad,) * ctx.n if ctx.n > 1 else grad
    Tagged.__name__ = name
    return Tagged


def test_most_recently_created_ready_node_runs_first():
    order = []
    A, B, C, D, E = (tagged(n, order) for n in "ABCDE")
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = A.apply(x)
    b = B.apply(a)
    c = C.apply(a)
    d = D.apply(c)
    E.apply(b, d).sum().backward()
    assert order == ["E", "D", "C", "B", "A"]
    assert x.grad.tolist() == [2.0, 2.0]


def test_node_waits_for_all_its_gradients():
    order = []
    A, B, C = (tagged(n, order) for n in "ABC")
    x = torch.tensor([1.0], requires_grad=True)
    a = A.apply(x)
    b = B.apply(a)
    c = C.apply(a, b)          # A feeds C directly and through B
    c.sum().backward()
    assert order == ["C", "B", "A"]
    assert x.grad.item() == 2.0


def test_custom_node_name_and_builtin_names():
    order = []
    Exp = tagged("Exp", order)
    x = torch.tensor([1.0], requires_grad=True)
    assert Exp.apply(x).grad_fn.name() == "ExpBackward"
    assert x.exp().grad_fn.name() == "ExpBackward0"
    assert (x * 2).sum().grad_fn.next_functions[0][0].name() == "MulBackward0"
    assert (x * 2).grad_fn.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"


def test_million_op_chain_has_no_recursion(tmp_path):
    """Forward and backward of a 1,000,000-op chain, under a low recursion limit."""
    script = textwrap.dedent("""
        import sys
        sys.setrecursionlimit(200)
        import minigrad as torch
        x = torch.tensor([1.0], requires_grad=True)
        y = x
        for _ in range(1_000_000):
            y = y * 1.0
        y.sum().backward()
        assert x.grad.item() == 1.0, x.grad
        del y
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok"


def test_backward_time_is_linear_in_chain_length():
    """Counting node runs (not seconds): each node runs exactly once."""
    runs = []
    x = torch.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(2000):
        y = y * 1.0
        y.grad_fn.register_prehook(lambda grads: runs.append(1))
    y.backward()
    assert len(runs) == 2000


def test_saved_tensors_are_freed_after_backward():
    x = torch.tensor(np.ones(1000), requires_grad=True)
    y = x.exp()                      # saves its result
    saved = y.grad_fn._saved[0]
    z = y.sum()
    del y
    z.backward()
    assert saved.freed and saved.packed is None
    with pytest.raises(RuntimeError, match="second time"):
        z.backward()


def test_memory_held_by_saved_tensors_returns_after_backward():
    size = 2_000_000                  # 16 MB of float64 per saved tensor
    x = torch.zeros(size, dtype=torch.float64, requires_grad=True)
    gc.collect()
    tracemalloc.start()
    try:
        h = x
        for _ in range(5):
            h = h.exp().sin()        # exp saves its result, sin saves that same tensor
        loss = h.sum()
        del h
        held = tracemalloc.get_traced_memory()[0]
        loss.backward()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held > 5 * size * 8 * 0.9           # five saved arrays were alive
    assert after < 1.5 * size * 8              # ...and backward released them: x.grad is left


def test_retain_graph_keeps_saved_tensors():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4.0, 8.0]
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_graph_without_saved_tensors_can_run_twice():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x + 2).sum()                 # add saves nothing (x * 2 saves the 2, as in PyTorch)
    y.backward()
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_graph_is_collected_with_its_output():
    x = torch.tensor([1.0], requires_grad=True)
    y = x.exp()
    node = weakref.ref(y.grad_fn)
    del y
    gc.collect()
    assert node() is None


def test_what_a_pack_hook_made_is_freed_with_the_graph_without_the_garbage_collector():
    """exp and tanh save their output: packed by hooks, it must not hold its own node (a
    cycle only gc would break), or a pack hook's file stays on disk after `del y`."""
    freed = []

    class Packed:
        def __init__(self, tensor):
            self.tensor = tensor.detach().clone()

        def __del__(self):
            freed.append(1)

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    gc.disable()
    try:
        with torch.autograd.graph.saved_tensors_hooks(Packed, lambda packed: packed.tensor):
            y = x.exp().tanh().sin()              # two saved outputs, one saved input
        assert freed == []
        del y
        assert len(freed) == 3
    finally:
        gc.enable()


def test_unused_leaf_keeps_grad_none():
    x = torch.tensor([1.0], requires_grad=True)
    unused = torch.tensor([1.0], requires_grad=True)
    (x * 2).sum().backward()
    assert unused.grad is None


def test_tensor_hooks_run_before_retained_grad_and_can_replace_it():
    calls = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: calls.append("first") or g * 10)
    y.register_hook(lambda g: calls.append(("second sees", g.tolist())))
    y.sum().backward()
    assert calls == ["first", ("second sees", [10.0, 10.0])]
    assert y.grad.tolist() == [10.0, 10.0]
    assert x.grad.tolist() == [20.0, 20.0]


def test_removed_hook_does_not_run():
    x = torch.tensor([1.0], requires_grad=True)
    handle = x.register_hook(lambda g: g * 100)
    handle.remove()
    with x.register_hook(lambda g: g * 3):
        pass                            # the handle as a context manager removes it too
    (x * 1).sum().backward()
    assert x.grad.item() == 1.0


def test_hook_returning_wrong_shape_is_an_error():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: torch.ones(3))
    with pytest.raises(RuntimeError, match="has changed the size of value"):
        (x * 2).sum().backward()


def test_node_prehook_and_hook_order():
    calls = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    node = y.grad_fn
    node.register_prehook(lambda grad_outputs: calls.append("pre"))
    node.register_hook(lambda grad_inputs, grad_outputs: calls.append("post"))
    x.register_post_accumulate_grad_hook(lambda t: calls.append(("acc", t.grad.tolist())))
    y.sum().backward()
    assert calls[:2] == ["pre", "post"]
    assert calls[2][0] == "acc" and np.allclose(calls[2][1], np.exp([1.0, 2.0]))


def test_node_hooks_get_tuples_as_pytorchs():
    """A node's pre-hook and post-hook get tuples of gradients, with or without other hooks."""
    seen = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(
        (type(grad_inputs), type(grad_outputs))))
    y.sum().backward()
    z = x.sin()
    z.grad_fn.register_prehook(lambda grad_outputs: seen.append(type(grad_outputs)))
    z.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(
        (type(grad_inputs), type(grad_outputs))))
    z.sum().backward()
    assert seen == [(tuple, tuple), tuple, (tuple, tuple)]


def test_post_accumulate_hook_only_on_leaves():
    x = torch.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="non-leaf"):
        (x * 2).register_post_accumulate_grad_hook(lambda t: None)


def test_saved_tensors_hooks_innermost_wins():
    log = []
    outer = torch.autograd.graph.saved_tensors_hooks(
        lambda t: log.append("outer pack") or t, lambda t: log.append("outer unpack") or t)
    inner = torch.autograd.graph.saved_tensors_hooks(
        lambda t: log.append("inner pack") or t, lambda t: log.append("inner unpack") or t)
    x = torch.tensor([1.0], requires_grad=True)
    with outer:
        with inner:
            y = x.exp()
        z = y.sin()
    (z.sum()).backward()
    assert log == ["inner pack", "outer pack", "outer unpack", "inner unpack"]


def test_save_on_cpu_round_trips():
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    with torch.autograd.graph.save_on_cpu():
        y = x.exp()
    y.sum().backward()
    assert np.allclose(x.grad.tolist(), np.exp([0.5, 1.0]))


def test_version_error_names_the_op_and_both_versions():
    a = torch.tensor([0.5, 1.5], requires_grad=True)
    b = a.exp()
    b.add_(1)
    b.mul_(2)
    with pytest.raises(RuntimeError) as info:
        b.sum().backward()
    message = str(info.value)
    assert "modified by an inplace operation" in message
    assert "is at version 2; expected version 0 instead" in message
    assert "ExpBackward0 saved this tensor" in message


def test_views_and_detach_share_the_version_counter():
    x = torch.tensor([1.0, 2.0, 3.0])
    view = x[1:]
    detached = x.detach()
    view.add_(1)
    detached.mul_(2)
    assert x._version == view._version == detached._version == 2
    assert x.tolist() == [2.0, 6.0, 8.0]
    assert x.data._version == 0          # .data is not tracked


def test_leaf_inplace_is_refused_outside_no_grad():
    w = torch.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        w.mul_(2)
    with torch.no_grad():
        w.mul_(2)
    assert w.item() == 2.0 and w._version == 1


def test_grad_modes_as_context_managers_and_decorators():
    x = torch.tensor([1.0], requires_grad=True)

    @torch.no_grad()
    def doubled(t):
        return t * 2

    assert not doubled(x).requires_grad
    with torch.no_grad():
        with torch.enable_grad():
            assert (x * 2).requires_grad
        assert not (x * 2).requires_grad
    with torch.set_grad_enabled(False):
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()


def test_function_forward_runs_without_grad_and_backward_with_create_graph():
    modes = []

    class Probe(Function):
        @staticmethod
        def forward(ctx, x):
            modes.append(("forward", torch.is_grad_enabled()))
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            modes.append(("backward", torch.is_grad_enabled()))
            return grad

    x = torch.tensor([1.0], requires_grad=True)
    Probe.apply(x).sum().backward()
    torch.autograd.grad(Probe.apply(x).sum(), x, create_graph=True)
    assert modes == [("forward", False), ("backward", False),
                     ("forward", False), ("backward", True)]


def test_autograd_grad_runs_only_what_it_needs_and_leaves_grad_alone():
    order = []
    A, B = tagged("A", order), tagged("B", order)
    x = torch.tensor([1.0], requires_grad=True)
    a = A.apply(x)
    b = B.apply(a)
    (g,) = torch.autograd.grad(b.sum(), a)
    assert order == ["B"]
    assert g.tolist() == [1.0] and x.grad is None


def test_backward_with_inputs_accumulates_only_into_them():
    x = torch.tensor([1.0], requires_grad=True)
    w = torch.tensor([3.0], requires_grad=True)
    (x * w).sum().backward(inputs=[w])
    assert w.grad.item() == 1.0 and x.grad is None


def test_anomaly_mode_shows_where_the_failing_node_was_created():
    class Fails(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            raise ValueError("boom")

    x = torch.tensor([1.0], requires_grad=True)
    with pytest.warns(UserWarning) as caught:
        with torch.autograd.detect_anomaly():
            y = Fails.apply(x)           # this line must appear in the warning
            with pytest.raises(ValueError, match="boom"):
                y.sum().backward()
    message = str(caught[-1].message)    # PyTorch's warning, before the error goes on
    assert message.startswith("Error detected in FailsBackward. Traceback of forward call")
    assert "y = Fails.apply(x)" in message


def test_anomaly_mode_stack_ends_at_the_line_that_used_the_op():
    """As in PyTorch, whose ops are C++: the forward stack shows the student's line last,
    not minigrad's own frames from torch.log down to Function.apply."""
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    with pytest.warns(UserWarning) as caught:
        with torch.autograd.detect_anomaly():
            y = torch.where(x > 0, torch.log(x), torch.zeros_like(x))   # shown last
            with pytest.raises(RuntimeError, match="returned nan"):
                y.sum().backward()
    [message] = [str(w.message) for w in caught if "Error detected in LogBackward0" in str(w.message)]
    assert message.rstrip().endswith("torch.zeros_like(x))   # shown last")
    assert os.path.dirname(torch.__file__) not in message


def test_anomaly_mode_shows_the_backward_that_recorded_the_failing_node():
    class Outer(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return Fails.apply(2 * x * grad)   # recorded in backward: Outer's node, its parent

    class Fails(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            raise ValueError("boom")

    x = torch.tensor([1.0], requires_grad=True)
    with pytest.warns(UserWarning) as caught:
        with torch.autograd.detect_anomaly():
            y = Outer.apply(x)
            (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
            with pytest.raises(ValueError, match="boom"):
                g.sum().backward()
    messages = [str(w.message) for w in caught][-2:]
    assert messages[0].startswith("Error detected in FailsBackward") and (
        "return Fails.apply(2 * x * grad)" in messages[0])
    assert "Previous calculation was induced by OuterBackward" in messages[1]
    assert "y = Outer.apply(x)" in messages[1]


def test_anomaly_mode_catches_nan_gradients():
    x = torch.tensor([0.0], requires_grad=True)
    with torch.autograd.detect_anomaly():
        with pytest.raises(RuntimeError, match="returned nan values"):
            (x.sqrt() * 0).sum().backward()


def test_gradcheck_reports_the_input_and_both_jacobians():
    class Wrong(Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y

        @staticmethod
        def backward(ctx, grad):
            x, y = ctx.saved_tensors
            return grad * y, grad * y          # the second should be grad * x

    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(Wrong.apply, (x, y), raise_exception=False) is False
    with pytest.raises(RuntimeError) as info:
        torch.autograd.gradcheck(Wrong.apply, (x, y))
    message = str(info.value)
    assert "Jacobian mismatch for output 0 with respect to input 1" in message
    assert "numerical:" in message and "analytical:" in message


def test_create_graph_gives_higher_order_derivatives():
    x = torch.tensor([0.3, -1.2], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(x.sin().sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x, create_graph=True)
    (k,) = torch.autograd.grad(h.sum(), x)
    assert np.allclose(g.tolist(), np.cos([0.3, -1.2]))
    assert np.allclose(h.tolist(), -np.sin([0.3, -1.2]))
    assert np.allclose(k.tolist(), -np.cos([0.3, -1.2]))


def test_the_gradient_of_a_power_records_pytorchs_three_nodes():
    """Lesson 12 replays it: grad * (3 * x.pow(2)) is PowBackward0, then MulBackward1
    (a tensor times a number, PyTorch's mul.Scalar), then MulBackward0."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (g,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
    chain, node = [], g.grad_fn
    while node is not None:
        chain.append(node.name())
        node = next((n for n, _ in node.next_functions if n is not None), None)
    assert chain == ["MulBackward0", "MulBackward1", "PowBackward0",
                     "torch::autograd::AccumulateGrad"]
    assert g.grad_fn.next_functions[1][0]._saved_other == 3
    (h,) = torch.autograd.grad(g.sum(), x)
    assert h.tolist() == [6.0, 12.0, 18.0]
