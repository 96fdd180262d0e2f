"""The engine narrates to a recorder: events asserted without a browser."""
import pytest

import minigrad as torch
from minigrad import tracing


def kinds(trace):
    return [e.kind for e in trace]


def test_no_recorder_no_events_and_no_bookkeeping():
    assert tracing.active is None
    x = torch.tensor([1.0], requires_grad=True)
    y = x.exp()
    y.sum().backward()
    assert "_trace_id" not in y.grad_fn.__dict__ and "_trace_id" not in x.__dict__


def test_forward_then_backward_events_in_order():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with tracing.record() as trace:
        y = x.exp()
        loss = (y * 3).sum()
        loss.backward()
    created = trace.of_kind("node_created")
    assert [e["name"] for e in created] == ["ExpBackward0", "MulBackward0", "SumBackward0"]
    exp_node = created[0]["node"]
    assert list(created[0]["leaves"].values())[0]["values"] == [1.0, 2.0]
    assert trace.backward_order() == ["SumBackward0", "MulBackward0", "ExpBackward0",
                                      "AccumulateGrad"]
    saved = [e for e in trace.of_kind("tensor_saved") if e["node"] == exp_node]
    assert saved[0]["is_output"] and saved[0]["version"] == 0
    lifecycle = [e.kind for e in trace if e.get("node") == exp_node and e.kind.startswith(
        ("tensor_", "version"))]
    assert lifecycle == ["tensor_saved", "version_check", "tensor_unpacked", "tensor_freed"]
    accumulated = trace.of_kind("grad_accumulated")[0]
    assert accumulated["leaf"] == tracing.ident(x)
    assert accumulated["grad"]["values"] == pytest.approx(x.grad.tolist())
    assert kinds(trace)[-1] == "backward_finished"


def test_dependency_counts_fall_and_ready_queue_is_ordered_by_priority():
    x = torch.tensor([1.0], requires_grad=True)
    with tracing.record() as trace:
        a = x * 2
        b = a.exp()
        c = a.sin()
        (b + c).sum().backward()
    started = trace.of_kind("node_started")
    names = trace.backward_order()
    assert names == ["SumBackward0", "AddBackward0", "SinBackward0", "ExpBackward0",
                     "MulBackward0", "AccumulateGrad"]
    # when Sin runs, Exp (created earlier, lower priority) waits in the ready queue
    sin_step = started[2]
    assert [trace.names[n] for n, _ in sin_step["ready"]] == ["ExpBackward0"]
    mul = tracing.ident(a.grad_fn)
    assert trace.of_kind("backward_started")[0]["dependencies"][mul] == 2
    feeding_mul = [e["dependencies"][mul] for e in trace.of_kind("node_finished")
                   if mul in e["dependencies"]]
    assert feeding_mul == [1, 0]              # Sin, then Exp: the count falls to zero


def test_failed_version_check_is_recorded_before_the_error():
    a = torch.tensor([0.5], requires_grad=True)
    with tracing.record() as trace:
        b = a.exp()
        b.add_(1)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            b.sum().backward()
    check = trace.of_kind("version_check")[-1]
    assert check["passed"] is False
    assert (check["saved_version"], check["current_version"]) == (0, 1)


def test_packed_tensors_and_hooks_are_narrated():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with tracing.record() as trace:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            y = x.exp()
        y.register_hook(lambda g: g)
        y.grad_fn.register_prehook(lambda g: None)
        x.register_post_accumulate_grad_hook(lambda t: None)
        y.sum().backward()
    assert len(trace.of_kind("tensor_packed")) == 1
    assert not trace.of_kind("version_check")        # PyTorch skips it for packed tensors
    assert [e["hook"] for e in trace.of_kind("hook_called")] == [
        "tensor", "prehook", "post_accumulate"]


def test_recorders_nest_and_restore():
    x = torch.tensor([1.0], requires_grad=True)
    with tracing.record() as outer:
        with tracing.record() as inner:
            x.exp()
        x.sin()
    assert [e["name"] for e in inner.of_kind("node_created")] == ["ExpBackward0"]
    assert [e["name"] for e in outer.of_kind("node_created")] == ["SinBackward0"]
    assert tracing.active is None


def test_packed_size_is_what_the_pack_hook_returned():
    x = torch.ones(8, requires_grad=True)
    packs = [lambda t: t, lambda t: t.detach().numpy()[:2].copy(), lambda t: "/tmp/on-disk"]
    sizes = []
    for pack in packs:
        with tracing.record() as trace:
            with torch.autograd.graph.saved_tensors_hooks(pack, lambda p: p):
                x.exp()
        (packed,) = trace.of_kind("tensor_packed")
        sizes.append(packed["packed_nbytes"])
    assert sizes == [32, 8, 0]


def test_backward_through_freed_saved_tensors_is_narrated_before_the_error():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp().sum()
    y.backward()
    exp = y.grad_fn.next_functions[0][0]
    with tracing.record() as trace:
        with pytest.raises(RuntimeError, match="backward through the graph a second time"):
            y.backward()
    (event,) = trace.of_kind("saved_tensor_freed_access")
    assert (event["node"], event["slot"]) == (tracing.ident(exp), 0)
    assert trace.events[-1] is event          # the last thing the engine said


def _lines_run(program, record):
    """The lines of minigrad's engine code (autograd/, ops/) that `program` runs."""
    import pathlib
    import sys
    package = str(pathlib.Path(torch.__file__).parent)
    seen = set()

    narrators = (package + "/tracing/__init__.py", package + "/tracing/narration.py")

    def narrating(frame):                       # in the recorder's code, or called by it
        while frame is not None:
            if frame.f_code.co_filename in narrators:
                return True
            frame = frame.f_back
        return False

    def tracer(frame, event, arg):
        name = frame.f_code.co_filename
        if not name.startswith(package) or "/viz/" in name or (
                event == "call" and narrating(frame)):
            return None
        if event == "line":
            seen.add((name, frame.f_lineno))
        return tracer
    program()                                   # warm: first-call caches do not count
    sys.settrace(tracer)
    try:
        if record:
            with tracing.record():
                program()
        else:
            program()
    finally:
        sys.settrace(None)
    return seen


def test_recording_only_adds_events_the_engine_takes_the_same_path():
    """What a recorder shows is what runs without one: with a recorder, every line the
    engine runs without one still runs, and the only lines added are narration."""
    import linecache

    def program():
        x = torch.tensor([0.5, 1.5], requires_grad=True)
        x.register_hook(lambda g: g * 1)
        y = (x * 2.0).exp()                     # saves a number, then an output
        z = (y * x).sum()
        z.backward(retain_graph=True)
        z.backward()
        try:
            z.backward()                        # saved tensors freed: the error
        except RuntimeError:
            pass

    quiet, recorded = _lines_run(program, False), _lines_run(program, True)
    assert quiet - recorded == set()
    added = {linecache.getline(name, line).strip() for name, line in recorded - quiet}
    assert added and all(("seams.recorder." in text or "_narrate(" in text) for text in added), added
