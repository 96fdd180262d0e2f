"""Each event says which line of the engine's own source emitted it (`event.where`):
the line the player highlights beside the graph, checked against `inspect`.  The steps
of Function.apply name the statement of the step they tell (lesson 04's player)."""
import inspect

import pytest

import minigrad as torch
from minigrad import tracing
from minigrad.core import graph as engine
from minigrad.core.function import Function

LOOP = engine.run_backward
APPLY = Function.apply.__func__

# The statement of the engine loop, or of Function.apply, each event comes from.
EMITTED_BY = {
    "apply_node_made": (APPLY, "node = cls._backward_cls()"),
    "apply_edges_connected": (APPLY, "edge = arg._gradient_edge() if needs_input_grad[position] else (None, 0)"),
    "apply_forward_ran": (APPLY, "outputs = cls._run_forward(node, args)"),
    "node_created": (APPLY, "outputs = _attach_outputs(node, args, outputs)"),
    "tensor_saved": (APPLY, "saved.append(None if tensor is None else SavedTensor(tensor, node, slot))"),
    "backward_started": (LOOP, "seams.recorder.backward_started(roots, dependencies)"),
    "node_found": (LOOP, "seams.recorder.backward_started(roots, dependencies)"),
    "node_started": (LOOP, "seams.recorder.node_started(node, grads, ready)"),
    "version_check": (LOOP, "grad_inputs = node.apply(grads)"),
    "tensor_unpacked": (LOOP, "grad_inputs = node.apply(grads)"),
    "grad_accumulated": (LOOP, "grad_inputs = node.apply(grads)"),
    "tensor_freed": (LOOP, "node.release_saved()"),
    "node_finished": (LOOP, "seams.recorder.node_finished(node, grad_inputs, dependencies)"),
    "backward_finished": (LOOP, "seams.recorder.backward_finished()"),
}
HOOKS = {"tensor": "grads = call_pre_hooks(node, grads, create_graph)",
         "retain_grad": "grads = call_pre_hooks(node, grads, create_graph)",
         "prehook": "grads = call_pre_hooks(node, grads, create_graph)",
         "hook": "grad_inputs = call_post_hooks(node, grad_inputs, grads)",
         "post_accumulate": "grad_inputs = node.apply(grads)"}


def source_line(function, line):
    """The text of line `line` of the file, read through inspect, inside `function`."""
    lines, first = inspect.getsourcelines(function)
    assert first <= line < first + len(lines), f"line {line} is outside {function.__qualname__}"
    return lines[line - first].strip()


def expected(event):
    if event.kind == "hook_called":
        return LOOP, HOOKS[event["hook"]]
    return EMITTED_BY[event.kind]


def check_where(trace):
    assert len(trace) > 0
    for event in trace:
        function, statement = expected(event)
        where = event.where
        assert where is not None, event
        assert where.file == inspect.getsourcefile(function)
        assert where.function == function.__qualname__
        assert where.first_line == inspect.getsourcelines(function)[1]
        assert source_line(function, where.line) == statement, event


def test_every_event_of_a_forward_and_backward_names_the_line_that_emitted_it():
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    x.register_post_accumulate_grad_hook(lambda leaf: None)
    with tracing.record() as trace:
        y = (x * 2.0).exp()
        y.retain_grad()
        y.register_hook(lambda g: g * 1)
        y.grad_fn.register_prehook(lambda grads: None)
        y.grad_fn.register_hook(lambda grad_inputs, grads: None)
        y.sum().backward()
    assert {e.kind for e in trace} >= set(EMITTED_BY) - {"node_found"}
    assert {e["hook"] for e in trace.of_kind("hook_called")} == set(HOOKS)
    check_where(trace)


def test_a_recorder_started_after_forward_points_found_nodes_at_backward_started():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (x * x).sum()
    with tracing.record() as trace:
        loss.backward()
    assert trace.of_kind("node_found")
    check_where(trace)


def test_the_lines_move_with_the_engine_frame_by_frame():
    """Backward's frames highlight different lines of the loop, in the loop's order."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with tracing.record() as trace:
        x.exp().sum().backward()
    lines = [e.where.line for e in trace if e.kind in ("node_started", "node_finished")]
    started, finished = lines[0::2], lines[1::2]
    assert len(set(started)) == 1 and len(set(finished)) == 1 and started[0] < finished[0]


def test_under_create_graph_a_node_made_by_backward_points_into_function_apply():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    with tracing.record() as trace:
        (grad,) = torch.autograd.grad(y, x, create_graph=True)
    made = trace.of_kind("node_created")
    assert made and all(e.where.function == "Function.apply" for e in made)
    loop = [e for e in trace if e.kind in ("node_started", "node_finished")]
    assert loop and all(e.where.function == "run_backward" for e in loop)


def test_finding_the_line_costs_nothing_without_a_recorder(monkeypatch):
    from minigrad.tracing import narration
    called = []
    monkeypatch.setattr(narration, "where", lambda: called.append(1))
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.exp().sum().backward()
    assert called == []
    with tracing.record():
        x.exp().sum().backward()
    assert called


def test_an_event_emitted_outside_the_engine_has_no_where():
    with tracing.record() as trace:
        tracing.emit("backward_finished")
    assert trace[0].where is None


@pytest.mark.parametrize("anomaly", [False, True])
def test_anomaly_mode_unpacks_on_its_own_line_of_the_loop(anomaly):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.set_detect_anomaly(anomaly), tracing.record() as trace:
        x.exp().sum().backward()
    unpacked = trace.of_kind("tensor_unpacked")[0]
    text = source_line(LOOP, unpacked.where.line)
    assert text == ("grad_inputs = seams.anomaly.run_checked(node, grads)" if anomaly
                    else "grad_inputs = node.apply(grads)")


def test_the_steps_of_apply_are_told_at_their_own_lines_in_order():
    """Lesson 04's player: made, connected, forward, attached, saved, each at the statement
    of apply that does it, one after the other; a Function of the newer style (forward,
    then setup_context: PyTorch's surface runs it inside the core's step) runs its forward at
    the same step."""
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)

        @staticmethod
        def backward(ctx, grad):
            return grad * 2 * ctx.saved_tensors[0]

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with tracing.record() as trace:
        Square.apply(x)
    steps = [e for e in trace if e.get("node") == trace.of_kind("apply_node_made")[0]["node"]]
    assert [e.kind for e in steps] == ["apply_node_made", "apply_edges_connected",
                                       "apply_forward_ran", "node_created", "tensor_saved"]
    lines = [e.where.line for e in steps]
    assert lines == sorted(lines) and len(set(lines)) == 5
    assert source_line(APPLY, steps[2].where.line) == "outputs = cls._run_forward(node, args)"
    assert steps[2]["to_save"] == 1 and steps[2]["outputs"][0]["shape"] == (2,)
