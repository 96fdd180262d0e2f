"""torch.autograd.graph.register_multi_grad_hook, and the graph tasks it asks the engine about.

Most tests are differential cases (tests/differential/harness.py): each `case_xxx(T, rec)`
runs under PyTorch and under minigrad, and both must record the same calls, arguments,
order and errors.  The last tests check the engine's graph-task helpers directly.
"""
import importlib.util
import pathlib

import pytest

import minigrad
from minigrad.core import graph as engine

pytest.importorskip("torch")

_spec = importlib.util.spec_from_file_location(
    "differential_harness_mgh",
    pathlib.Path(__file__).resolve().parent / "differential" / "harness.py")
harness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)


def _values(grads):
    """A gradient list as plain values (None stays None)."""
    return [None if g is None else g.tolist() for g in grads]


def _register(T, tensors, fn, **kwargs):
    return T.autograd.graph.register_multi_grad_hook(tensors, fn, **kwargs)


def case_all_mode_leaves_and_non_leaves(T, rec):
    a = T.tensor([1., 2.], requires_grad=True)
    b = T.tensor([3., 4.], requires_grad=True)
    c = a * b
    d = a * b                                   # not on the way from c.sum(): gets None
    calls = []
    _register(T, (a, b, c, d), lambda grads: calls.append(_values(grads)))
    (c * 2).sum().backward(retain_graph=True)
    rec("one call, None for d", calls)
    (c.sum() + d.sum()).backward()
    rec("then d too", calls)


def case_all_mode_tensor_of_another_graph_is_not_waited_for(T, rec):
    a = T.tensor([1., 2.], requires_grad=True)
    b = T.tensor(5., requires_grad=True)        # never used in this graph
    calls = []
    _register(T, [a, b], lambda grads: calls.append(_values(grads)))
    (a ** 2).sum().backward()
    rec("calls", calls)


def case_all_mode_backward_inputs_subset(T, rec):
    a = T.tensor([1., 2.], requires_grad=True)
    b = T.tensor([3., 4.], requires_grad=True)
    c = a * b
    calls = []
    _register(T, (a, b, c), lambda grads: calls.append(_values(grads)))
    c.sum().backward(inputs=(a,), retain_graph=True)
    c.sum().backward(inputs=[c], retain_graph=True)
    c.sum().backward(inputs=[b, a])
    rec("calls", calls)
    rec("a.grad", a.grad)
    rec("b.grad", b.grad)


def case_all_mode_autograd_grad_inputs_subset(T, rec):
    a = T.tensor([1., 2.], requires_grad=True)
    b = T.tensor([3., 4.], requires_grad=True)
    c = a * b
    e = c.exp()
    f = c.sin()
    out = (e + f).sum()
    calls = []
    _register(T, (c, e, f), lambda grads: calls.append(_values(grads)))
    rec("grad wrt e", T.autograd.grad(out, e, retain_graph=True))
    rec("grad wrt c", T.autograd.grad(out, c, retain_graph=True))
    rec("grad wrt f and c", T.autograd.grad(out, [f, c], retain_graph=True))
    rec("calls", calls)
    rec("a.grad untouched", a.grad)


def case_all_mode_autograd_grad_of_a_hooked_leaf_raises(T, rec):
    a = T.tensor([1., 2.], requires_grad=True)
    c = a * 3
    _register(T, (a, c), lambda grads: None)
    with rec.raises("leaf node was passed to _will_engine_execute_node",
                    "running autograd.grad()", name="grad wrt a leaf"):
        T.autograd.grad(c.sum(), a, retain_graph=True)
    c.sum().backward(inputs=[a])                # backward(inputs=) is fine
    rec("a.grad", a.grad)


def case_all_mode_retain_graph_calls_once_per_backward(T, rec):
    x = T.tensor([1., -2., 3.], requires_grad=True)
    h = x.tanh()
    y = (h * x).sum()
    calls = []
    _register(T, (x, h), lambda grads: calls.append(_values(grads)))
    y.backward(retain_graph=True)
    y.backward(retain_graph=True)
    rec("two calls", calls)
    rec("x.grad (summed twice)", x.grad)


def case_all_mode_roots_in_the_list(T, rec):
    a = T.tensor([1., 2.], requires_grad=True)
    c = a * 2
    s = c.sum()
    s2 = (a * 3).sum()
    calls = []
    _register(T, (s,), lambda grads: calls.append(("s", _values(grads))))
    _register(T, (s, c), lambda grads: calls.append(("s,c", _values(grads))))
    s.backward(retain_graph=True)               # a lone root is not "in the graph"
    rec("lone root", calls)
    calls.clear()
    T.autograd.backward([s, s2], retain_graph=True)
    rec("two roots", calls)
    calls.clear()
    rec("grad wrt c", T.autograd.grad(s, c))
    rec("grad calls", calls)


def case_all_mode_same_tensor_twice_and_create_graph(T, rec):
    x = T.tensor([0.5, 1.5], requires_grad=True)
    y = x * x
    calls = []
    _register(T, (y, x, y), lambda grads: calls.append(
        [None if g is None else (g.tolist(), g.requires_grad) for g in grads]))
    (gx,) = T.autograd.grad(y.sum(), y, create_graph=True)
    y.sum().backward(create_graph=True)
    rec("calls", calls)
    rec("x.grad", x.grad)


def case_any_mode_first_gradient_once_per_backward(T, rec):
    a = T.tensor([1., 2.], requires_grad=True)
    b = T.tensor([3., 4.], requires_grad=True)
    c = a * b
    d = (c * 2).exp()
    calls = []
    _register(T, (a, b, c, d), lambda g: calls.append(g.tolist()), mode="any")
    d.sum().backward(retain_graph=True)
    rec("first backward: d's gradient", calls)
    c.sum().backward(retain_graph=True)
    rec("second backward: c's gradient", calls)
    T.autograd.grad(c.sum(), b)
    rec("autograd.grad: c's gradient", calls)


def case_any_mode_skips_tensors_without_grad(T, rec):
    a = T.tensor([1., 2.], requires_grad=True)
    plain = T.tensor([7., 8.])
    calls = []
    handle = _register(T, (plain, a), lambda g: calls.append(g.tolist()), mode="any")
    rec("handle keeps one hook", len(handle.handles))
    (a * plain).sum().backward()
    rec("calls", calls)


def case_multi_grad_hook_order_among_ordinary_hooks(T, rec):
    log = []
    a = T.tensor([1., 2.], requires_grad=True)
    b = T.tensor([3., 4.], requires_grad=True)
    c = a * b
    c.retain_grad()
    a.register_hook(lambda g: log.append(("a hook before", g.tolist())))
    c.register_hook(lambda g: log.append(("c hook before", g.tolist())))
    _register(T, (a, b, c), lambda grads: log.append(("multi all", _values(grads))))
    _register(T, (b, c), lambda g: log.append(("multi any", g.tolist())), mode="any")
    a.register_hook(lambda g: log.append(("a hook after", g.tolist())))
    b.register_hook(lambda g: log.append(("b hook after", g.tolist())))
    c.register_hook(lambda g: log.append(("c hook after", g.tolist())))
    c.grad_fn.register_prehook(lambda gs: log.append(("c node prehook", gs[0].tolist())))
    a.register_post_accumulate_grad_hook(lambda t: log.append(("a post accumulate",)))
    (c * c).sum().backward()
    rec("log", log)
    rec("c.grad", c.grad)


def case_multi_grad_hook_nested_backward_is_another_task(T, rec):
    a = T.tensor([1., 2.], requires_grad=True)
    b = T.tensor([3., 4.], requires_grad=True)
    calls = []
    _register(T, (a, b), lambda grads: calls.append(_values(grads)))

    def nested(grad):
        with T.enable_grad():
            (a * 10).sum().backward()           # its own backward: a only
        calls.append("nested backward done")

    c = a * b
    c.register_hook(nested)
    c.sum().backward()
    rec("calls", calls)
    rec("a.grad", a.grad)


def case_multi_grad_hook_remove(T, rec):
    a = T.tensor([1., 2.], requires_grad=True)
    b = T.tensor([3., 4.], requires_grad=True)
    calls = []
    handle = _register(T, (a, b), lambda grads: calls.append("all"))
    other = _register(T, (a, b), lambda g: calls.append("any"), mode="any")
    rec("handle is a RemovableHandle", isinstance(handle, T.utils.hooks.RemovableHandle))
    rec("handle class", type(handle).__name__)
    rec("one handle per tensor", len(handle.handles))
    (a * b).sum().backward()
    handle.remove()
    handle.remove()                             # twice is fine
    (a * b).sum().backward()
    with other:
        pass                                    # leaving the with removes it
    (a * b).sum().backward()
    rec("calls", calls)
    rec("a.grad", a.grad)


def case_multi_grad_hook_errors(T, rec):
    a = T.tensor([1., 2.], requires_grad=True)
    plain = T.tensor([1., 2.])
    with rec.raises("Expects mode to be one of ('all', 'any') but got both", name="bad mode"):
        _register(T, (a,), print, mode="both")
    with rec.raises("Expects mode to be one of", "but got None", name="mode None"):
        _register(T, (a,), print, mode=None)
    with rec.raises("Expected gradient function to be set", name="all: no grad"):
        _register(T, (a, plain), print)
    with rec.raises("positional", name="mode given by position"):
        T.autograd.graph.register_multi_grad_hook((a,), print, "any")
    handle = _register(T, (), print)
    rec("empty list", len(handle.handles))


def case_hooks_of_nodes_autograd_grad_does_not_need(T, rec):
    """The engine side: with inputs=, a node that neither leads to an input nor is one
    is skipped whole (its tensor hooks too); a lone root always runs its hooks."""
    x = T.tensor([1., 2.], requires_grad=True)
    y = T.tensor([3., 4.], requires_grad=True)
    z, w = x * 2, y * 3
    log = []
    for name, t in (("x", x), ("y", y), ("z", z), ("w", w)):
        t.register_hook(lambda g, name=name: log.append((name, g.tolist())))
    out = (z * w).sum()
    rec("grad wrt x", T.autograd.grad(out, x, retain_graph=True))
    rec("grad wrt z", T.autograd.grad(out, z, retain_graph=True))
    out.backward(inputs=[x], retain_graph=True)
    rec("log", log)
    log.clear()
    lone = x * 4
    lone.register_hook(lambda g: log.append(("lone", g.tolist())))
    rec("unused", T.autograd.grad(lone.sum(), y, allow_unused=True, retain_graph=True))
    rec("two roots", T.autograd.grad([lone.sum(), w.sum()], y, allow_unused=True))
    rec("lone root log", log)


CASES = [case for name, case in sorted(globals().items()) if name.startswith("case_")]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.__name__)
def test_minigrad_matches_pytorch(case):
    problems = harness.compare(case)
    assert not problems, "minigrad differs from PyTorch:\n" + "\n".join(problems)


def test_each_backward_is_a_graph_task_and_nested_ones_are_stacked():
    seen = []
    x = minigrad.tensor(2.0, requires_grad=True)

    def hook(grad):
        outer = engine.current_graph_task_id()
        with minigrad.enable_grad():
            q = minigrad.tensor(1.0, requires_grad=True)
            q.register_hook(lambda g: seen.append(("inner", engine.current_graph_task_id())))
            (q * 3).backward()
        seen.append(("outer", outer, engine.current_graph_task_id()))

    y = x * 2
    y.register_hook(hook)
    assert engine.current_graph_task_id() == -1
    y.backward(retain_graph=True)
    y.backward()
    assert engine.current_graph_task_id() == -1
    (_, inner1), (_, outer1, after1), (_, inner2), (_, outer2, after2) = seen
    assert outer1 == after1 and outer2 == after2          # restored after the nested one
    assert len({inner1, outer1, inner2, outer2}) == 4     # every backward its own id


def test_will_engine_execute_node_outside_backward_raises():
    x = minigrad.tensor(1.0, requires_grad=True)
    with pytest.raises(RuntimeError, match="only be called during the backward pass"):
        engine.will_engine_execute_node((x * 2).grad_fn)


def test_will_engine_execute_node_answers_per_backward():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = minigrad.tensor([3.0, 4.0], requires_grad=True)
    a, b = x.exp(), y.sin()
    out = (a * b).sum()
    unrelated = (x * 5).grad_fn
    answers = []

    def ask(grad):
        answers.append([engine.will_engine_execute_node(n)
                        for n in (a.grad_fn, b.grad_fn, out.grad_fn, unrelated)])

    out.grad_fn.next_functions[0][0].register_prehook(ask)   # the MulBackward0 node
    out.backward(retain_graph=True)
    minigrad.autograd.grad(out, a, retain_graph=True)
    out.backward(inputs=[y])
    # PyTorch 2.13 answers the same (torch._C._will_engine_execute_node).
    assert answers == [[True, True, False, False],      # the lone root is not "in" it
                       [True, False, False, False],     # a's node is captured
                       [False, True, False, False]]     # only the way to y runs
