"""The shortcuts of the hot path (docs/performance.md) keep PyTorch's
behaviour: each test runs the same program under PyTorch and minigrad."""
import warnings

import numpy as np
import pytest

import minigrad
from minigrad.autograd.grad_mode import is_grad_enabled

torch = pytest.importorskip("torch")


def both(program):
    """Run program(T) with T = torch and T = minigrad; return both results."""
    return program(torch), program(minigrad)


def values(t):
    return None if t is None else np.asarray(t.detach().tolist())


def test_retain_grad_moves_with_an_in_place_change():
    def program(T):
        x = T.tensor([0.125, 0.25], dtype=T.float64, requires_grad=True)
        old = x.sin()
        old.retain_grad()
        total = old.sum()
        old.add_(2)                      # the retained grad now belongs to the new version
        (x.sum() + total).backward()
        new = x.sin()
        new.retain_grad()
        kept = new * 2
        new.mul_(3)
        (kept.sum() + new.sum()).backward()
        return old.grad, new.grad
    (t_old, t_new), (m_old, m_new) = both(program)
    assert t_old is None and m_old is None
    np.testing.assert_allclose(values(m_new), values(t_new))


def test_tanh_backward_is_one_node_of_its_own():
    def program(T):
        x = T.tensor([0.3, -0.5, 1.5], dtype=T.float64, requires_grad=True)
        (g,) = T.autograd.grad(x.tanh().sum(), x, create_graph=True)
        (h,) = T.autograd.grad((g * g).sum(), x, create_graph=True)
        names = [n.name() if n else None for n, _ in h.grad_fn.next_functions]
        return g, h, g.grad_fn.name(), h.grad_fn.name(), names
    theirs, ours = both(program)
    for a, b in zip(theirs[:2], ours[:2]):
        np.testing.assert_allclose(values(b), values(a), rtol=1e-12)
    assert ours[2:] == theirs[2:]


def test_gradients_of_a_node_used_many_times_add_up_alike():
    def program(T):
        x = T.tensor(np.linspace(-1, 1, 5), requires_grad=True)

        def build():
            y = x
            for _ in range(6):
                y = (y * x + 0.5).tanh() - x
            return y
        build().sum().backward()                     # summed as arrays
        (g,) = T.autograd.grad(build().sum(), x, create_graph=True)     # summed as tensors
        (gg,) = T.autograd.grad(g.sum(), x)
        return x.grad, g, gg, g.grad_fn.name()
    theirs, ours = both(program)
    for a, b in zip(theirs[:3], ours[:3]):
        np.testing.assert_allclose(values(b), values(a), rtol=1e-5)
    assert ours[3] == theirs[3]


def test_gradient_for_an_input_that_needs_none_is_dropped_unchecked():
    class Scale(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, grad):
            return grad * 2, minigrad.ones(7)          # k needs no grad: not checked

    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    Scale.apply(x, minigrad.tensor([3.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_forward_restores_grad_mode_and_numpy_errors_on_an_error():
    before = np.geterr()

    class Boom(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            assert not is_grad_enabled() and np.geterr()["divide"] == "ignore"
            raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        Boom.apply(minigrad.ones(2, requires_grad=True))
    assert is_grad_enabled() and np.geterr() == before
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # forward is quiet about inf/nan ...
        assert minigrad.tensor([1.0]).div(0).item() == float("inf")
        with pytest.raises(RuntimeWarning):       # ... and numpy outside it is not
            np.array([1.0]) / 0


def test_threads_keep_their_grad_mode_and_numpy_state_apart_in_forward():
    import threading
    errors = []

    def work():
        try:
            for _ in range(2000):
                (minigrad.ones(3, requires_grad=True) / 0).sum()
        except Exception as exc:            # noqa: BLE001 - reported below
            errors.append(exc)
    with warnings.catch_warnings():      # a numpy warning in any thread fails the test:
        warnings.simplefilter("error")   # an op that saw another thread's numpy state
        for _ in range(3):               # once ran with numpy not quiet in its own
            threads = [threading.Thread(target=work) for _ in range(3)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
    assert not errors, errors[0]
    assert is_grad_enabled()             # each thread's grad mode is its own

def test_in_place_sgd_step_writes_into_the_parameter():
    def program(T):
        p = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
        storage = p.data if T is torch else p
        (p * p).sum().backward()
        version = p._version
        with T.no_grad():
            p -= 0.1 * p.grad
            p.add_(p.grad, alpha=0.5)
        return p, p._version - version, storage
    (t, t_bumps, _), (m, m_bumps, m_storage) = both(program)
    np.testing.assert_allclose(values(m), values(t), rtol=1e-6)
    assert m_bumps == t_bumps == 2
    assert m_storage is m


# NOTE [stealing a fresh gradient]: a leaf keeps the array backward made when nothing
# else can reach it, and copies one that something else holds.  Each case checks the
# aliasing PyTorch shows (shares memory or not) and that later writes stay apart.

def _shares(a, b):
    return np.shares_memory(np.asarray(a.detach().numpy()), np.asarray(b.detach().numpy()))


def _post_accumulate_ordering(T):
    """PyTorch's test_post_accumulate_grad_hook_ordering: the node's post-hook sees the
    gradient that the leaf kept, changed in place by the post-accumulate hook."""
    tensor = T.ones(3, requires_grad=True)
    node = tensor.view_as(tensor).grad_fn.next_functions[0][0]
    tensor.register_hook(lambda grad: grad.sub(2.0))
    node.register_prehook(lambda grad_out: (grad_out[0].div(5.0),))

    def add_half(t):
        t.grad.add_(0.5)
    tensor.register_post_accumulate_grad_hook(add_half)
    node.register_hook(lambda grad_in, grad_out: setattr(tensor, "grad", grad_out[0] * 10))
    tensor.sum().backward()
    return values(tensor.grad)


def test_a_leaf_keeps_a_fresh_gradient_whatever_the_interpreter_counts(monkeypatch):
    """NOTE [a leaf keeps a fresh gradient]: the gradient is compared with a control held
    the same way at the same moment, not with counts measured once at import, so an
    interpreter that counts its own references differently changes nothing."""
    import sys
    theirs, ours = both(_post_accumulate_ordering)         # ((1 - 2) / 5 + 0.5) * 10
    np.testing.assert_allclose(ours, theirs)
    counted = sys.getrefcount
    monkeypatch.setattr(sys, "getrefcount", lambda obj: counted(obj) + 3)
    np.testing.assert_allclose(_post_accumulate_ordering(minigrad), theirs)


def test_a_leafs_first_gradient_is_its_own_and_accumulates_like_pytorch():
    def program(T):
        w = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        b = T.zeros(2, requires_grad=True)
        x = T.tensor([[0.5, -1.0], [2.0, 0.25], [1.0, 1.0]])
        (x @ w + b).tanh().sum().backward()
        first_w, first_b = w.grad, b.grad
        (x @ w + b).tanh().sum().backward()          # accumulates into the same tensors
        return [values(w.grad), values(b.grad), w.grad is first_w, b.grad is first_b,
                w.grad.is_contiguous(), b.grad.is_contiguous()]
    ours, theirs = both(program)[::-1]
    for mine, reference in zip(ours, theirs):
        np.testing.assert_allclose(mine, reference, rtol=1e-5, atol=1e-6)


def test_a_gradient_someone_else_holds_is_copied():
    def program(T):
        g = T.tensor([1.0, 2.0, 3.0])
        a = T.ones(3, requires_grad=True)
        a.backward(g)                                # the user's gradient, at a leaf
        b = T.ones(3, requires_grad=True)
        (b + 0.0).backward(g)                        # flows through Add unchanged
        c, d = T.ones(3, requires_grad=True), T.ones(3, requires_grad=True)
        (c + d).sum().backward()                     # one gradient, two leaves
        kept = []
        e = T.ones(3, requires_grad=True)
        e.register_hook(kept.append)                 # a hook keeps the gradient
        (e * 3).sum().backward()
        with T.no_grad():
            g.add_(100)
            c.grad.add_(10)
            kept[0].add_(1000)
        return [_shares(a.grad, g), _shares(b.grad, g), _shares(c.grad, d.grad),
                _shares(e.grad, kept[0]), values(a.grad), values(b.grad), values(d.grad),
                values(e.grad)]
    theirs, ours = both(program)
    for mine, reference in zip(ours, theirs):
        np.testing.assert_array_equal(mine, reference)


def test_a_broadcast_gradient_is_not_kept_as_a_read_only_view():
    def program(T):
        m = T.ones(2, 3, requires_grad=True)
        m.sum().backward()                           # SumBackward: an expanded gradient
        m.sum().backward()                           # accumulating writes into it
        return values(m.grad), m.grad.is_contiguous()
    theirs, ours = both(program)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert ours[1] == theirs[1]


# Counted in a fresh interpreter: in the test process, other tests' threads (a browser's
# connection, a server) and the state they leave make objects of their own meanwhile.
TRACKED_PER_OP = """
import gc, json, minigrad
def tracked_per_op(make_step, n=500):
    y = minigrad.tensor([0.5], requires_grad=True)
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(n):
        y = make_step(y)
    gc.collect()
    return (len(gc.get_objects()) - before) / n
print(json.dumps([tracked_per_op(lambda y: y * 0.999 + 0.001), tracked_per_op(lambda y: y.tanh())]))
"""


def test_a_recorded_op_leaves_few_objects_for_the_garbage_collector():
    """Objects Python's garbage collector tracks per recorded op of a chain (the live graph).
    A node and its tuple of next nodes (no tuple per edge); x * 0.999 keeps its number as a
    number (MulNumber), and every node of a kind of output shares one InputMetadata; tanh
    adds its SavedTensor, the tuple of saved slots and the output's version counter.  No
    detached tensor."""
    import json
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", TRACKED_PER_OP], capture_output=True, text=True,
                          timeout=120, check=True)
    arithmetic, tanh = json.loads(done.stdout)
    assert arithmetic <= 2 * 2.1
    assert tanh <= 5.1


def test_a_saved_number_unpacks_frees_and_shows_as_pytorchs():
    # NOTE [saved numbers]: kept as a bare array, it must still behave as PyTorch's
    # SavedVariable: the same tensor each time it is looked at, freed by backward
    def program(T):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        out = []
        y = x * 2.5
        other = y.grad_fn._saved_other
        out.append((repr(other).replace("minigrad.", "torch."), other is y.grad_fn._saved_other))
        y.sum().backward(retain_graph=True)
        y.sum().backward()                       # retained: runs again
        out.append(values(x.grad).tolist())
        for look in (lambda: y.sum().backward(), lambda: y.grad_fn._saved_other):
            try:
                look()
                out.append("no error")
            except RuntimeError as error:
                out.append(str(error)[:60])
        z = x * 3.0                              # never looked at before backward
        z.sum().backward()
        try:
            z.grad_fn._saved_other
            out.append("no error")
        except RuntimeError as error:
            out.append(str(error)[:60])
        return out
    theirs, ours = both(program)
    assert ours == theirs


def test_what_the_pictures_read_of_a_kept_number_leaves_it_as_it_was():
    # a recorder that meets a node built before it started reads saved_tensors_info():
    # reading must not make the number of x * 2.5 a saved tensor (only _saved_other does)
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2.5
    assert y.grad_fn.saved_tensors_info() == [None, None]
    assert y.grad_fn._saved == (None, None) and y.grad_fn.number == 2.5
    y.sum().backward()
    assert x.grad.tolist() == [2.5, 2.5] and y.grad_fn._released


def test_a_saved_number_is_one_tensor_and_version_checked_like_pytorch():
    def program(T):
        x = T.ones(2, requires_grad=True)
        y = x * 2.0
        first = y.grad_fn._saved_other
        same = first is y.grad_fn._saved_other
        first.add_(1)
        try:
            y.sum().backward()
            error = None
        except RuntimeError as e:
            error = str(e).split(" is at version")[0]
        return same, values(first), first.dtype == T.float64, error
    theirs, ours = both(program)
    assert ours == (theirs[0], ours[1], True, theirs[3])
    np.testing.assert_array_equal(ours[1], theirs[1])


def test_a_saved_output_unpacks_with_its_node_and_version_counter():
    def program(T):
        x = T.tensor([0.5, -1.0], requires_grad=True)
        y = x.tanh()
        saved = y.grad_fn._saved_result
        same_node = saved.grad_fn is y.grad_fn
        with T.no_grad():
            y.mul_(2)                                 # shares the saved output's counter
        return same_node, saved._version, saved.requires_grad, y.grad_fn.name()
    theirs, ours = both(program)
    assert ours[:3] == theirs[:3] and ours[3] == "TanhBackward0"


def test_ops_that_record_nothing_still_bump_versions_and_make_no_node():
    def program(T):
        x = T.ones(3, requires_grad=True)
        with T.no_grad():
            y = x.add_(1).exp()
        z = T.ones(3).mul_(2)                        # no input needs a gradient
        return x._version, y.grad_fn is None, z._version, values(y)
    theirs, ours = both(program)
    assert ours[:3] == theirs[:3]
    np.testing.assert_allclose(ours[3], theirs[3])


def test_tanh_backward_on_big_arrays_stays_exact_and_float32():
    def program(T):
        x = T.tensor(np.linspace(-3, 3, 128 * 64, dtype=np.float32).reshape(128, 64),
                     requires_grad=True)
        x.tanh().backward(T.full((128, 64), 0.5))
        return values(x.grad), x.grad.dtype == T.float32
    theirs, ours = both(program)
    assert ours[1] and theirs[1]
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6, atol=1e-7)


# NOTE [backward on arrays]: without create_graph, the backwards of mm, mean, tanh,
# log_softmax and integer indexing compute their arrays directly; with create_graph they
# record their ops.  Both must give PyTorch's gradients (and only the second a graph).

def _mlp_like(T, create_graph):
    rng = np.random.default_rng(3)
    x = T.tensor(rng.standard_normal((5, 4)), requires_grad=True)
    w = T.tensor(rng.standard_normal((4, 3)), requires_grad=True)
    b = T.tensor(rng.standard_normal(3), requires_grad=True)
    rows, labels = T.tensor([0, 1, 2, 2, 4]), T.tensor([1, 0, 2, 2, 1])   # (2, 2) twice
    h = (x @ w + b).tanh()
    picked = h.log_softmax(1)[rows, labels]
    loss = -picked.mean() + h.mean(0, keepdim=True).sum() + (h * h).mean(1).sum()
    grads = T.autograd.grad(loss, (x, w, b), create_graph=create_graph)
    return [values(g) for g in grads], [g.grad_fn is not None for g in grads]


@pytest.mark.parametrize("create_graph", [False, True])
def test_backward_on_arrays_and_recorded_backward_give_pytorchs_gradients(create_graph):
    (theirs, _), (ours, recorded) = both(lambda T: _mlp_like(T, create_graph))
    for a, b in zip(theirs, ours):
        np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-14)
    assert recorded == [create_graph] * 3


def test_a_second_order_gradient_goes_through_the_recorded_backward():
    def program(T):
        w = T.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=T.float64, requires_grad=True)
        x = T.tensor([[1.0, 2.0], [3.0, -1.0]], dtype=T.float64)
        (g,) = T.autograd.grad((x @ w).tanh().log_softmax(1).mean(), w, create_graph=True)
        (h,) = T.autograd.grad((g * g).sum(), w)
        return values(g), values(h)
    theirs, ours = both(program)
    for a, b in zip(theirs, ours):
        np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-14)


def test_in_place_sub_of_a_tensor_like_it_still_checks_like_pytorch():
    def program(T):
        out = []
        for x, y in ((T.tensor([True, False]), T.tensor([True, True])),     # bools: refused
                     (T.tensor([1, 2]), T.tensor([0.5, 0.5])),               # float into int
                     (T.ones(2, 3), T.ones(4, 3))):                          # no broadcast
            try:
                x -= y
                out.append(values(x).tolist())
            except RuntimeError as exc:
                out.append(str(exc).split(".")[0])
        p = T.ones(1, 2).expand(2, 2)          # an expanded view: refused too
        try:
            p.sub_(T.ones(2, 2))
        except RuntimeError as exc:
            out.append(str(exc).split(".")[0])
        return out
    theirs, ours = both(program)
    assert ours == theirs


def _arithmetic(T, create_graph):
    """+ - * and negation with numbers, broadcasting, alpha and mixed float dtypes."""
    rng = np.random.default_rng(5)
    a = T.tensor(rng.standard_normal((3, 4)), dtype=T.float32, requires_grad=True)
    b = T.tensor(rng.standard_normal(4), dtype=T.float64, requires_grad=True)
    c = T.tensor(rng.standard_normal((3, 1)), dtype=T.float32, requires_grad=True)
    y = (a * 0.3 - c) * b + T.sub(a, c, alpha=2.5) * c
    y = (1 - y) + (-a * c).add(b, alpha=0.5) - 2 * y.neg()
    grads = T.autograd.grad(y.sum(), (a, b, c), create_graph=create_graph)
    return [values(g) for g in grads], [str(g.dtype).split(".")[1] for g in grads], [
        g.grad_fn is not None for g in grads]


@pytest.mark.parametrize("create_graph", [False, True])
def test_arithmetic_backward_on_arrays_gives_pytorchs_gradients_and_dtypes(create_graph):
    (theirs, their_dtypes, _), (ours, our_dtypes, recorded) = both(
        lambda T: _arithmetic(T, create_graph))
    assert our_dtypes == their_dtypes
    for a, b in zip(theirs, ours):
        np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-6)
    assert recorded == [create_graph] * 3


def test_a_node_is_of_a_class_named_as_pytorchs():
    # one node class per op (function._node_class_for): PyTorch's names, and CPython keeps
    # each op's ctx attributes inline (no dict per node, see the test above)
    def program(T):
        x = T.ones(2, requires_grad=True)

        class Exp(T.autograd.Function):
            @staticmethod
            def forward(ctx, i):
                return i.exp()

            @staticmethod
            def backward(ctx, g):
                return g

        nodes = [(x * 2).grad_fn, x.tanh().grad_fn, x[0].grad_fn, Exp.apply(x).grad_fn]
        return [str(type(n)).replace("minigrad.", "torch.") for n in nodes]
    theirs, ours = both(program)
    assert ours == theirs


def test_backward_inside_inference_mode_leaves_inference_gradients_like_pytorch():
    def program(T):
        x = T.ones(2, 3, requires_grad=True)
        b = T.zeros(3, requires_grad=True)          # broadcast: its gradient is a sum
        y = (x * 2 + b).sum()
        with T.inference_mode():
            y.backward()
        return x.grad, b.grad, x.grad.is_inference(), b.grad.is_inference()
    theirs, ours = both(program)
    for a, b in zip(theirs[:2], ours[:2]):
        np.testing.assert_allclose(values(b), values(a))
    assert ours[2:] == theirs[2:] == (True, True)


def test_version_counters_made_on_demand_count_like_pytorchs():
    # NOTE [version counters on demand]: a result gets its counter when first asked
    # for one; views, detached tensors and saved tensors made before any write share it
    def program(T):
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        view, detached = y[0:1], y.detach()
        seen = [y._version, view._version, detached._version]
        detached.add_(1)
        seen += [y._version, view._version, detached._version]
        w = x * 3
        product = w * w                      # saves w (twice) before w has a counter
        w.mul_(2)
        try:
            product.sum().backward()
            error = None
        except RuntimeError as exc:
            error = str(exc).split(" Hint:")[0]
        return seen, error, T.tensor([1.0]).add_(1)._version
    theirs, ours = both(program)
    assert ours[0] == theirs[0] == [0, 0, 0, 1, 1, 1]
    assert ours[1] == theirs[1] and "is at version 1; expected version 0" in ours[1]
    assert ours[2] == theirs[2] == 1


def test_nodes_run_in_pytorchs_order_when_one_or_several_become_ready():
    # NOTE [one ready node]: a node that alone becomes ready skips the heap; when
    # several do (a fork, leaves of one op), the heap orders them as PyTorch's queue
    def program(T):
        x = T.tensor([0.5, -1.0], dtype=T.float64, requires_grad=True)
        w = T.tensor([2.0, 3.0], dtype=T.float64, requires_grad=True)
        a = (x * w).tanh()                   # a chain ...
        b, c = a.exp(), a.sin()              # ... a fork: two nodes ready at once
        early = x.cos().sin()                # made before, run after: when SinBackward
        late = x.exp().sum()                 # becomes ready, this SumBackward waits
        loss = (b * c + x * 2).sum() + (late + early.sum())     # ... joins, a leaf
        ran = []
        nodes, seen = [loss.grad_fn], set()
        while nodes:                         # a pre-hook on every node of the graph
            node = nodes.pop()
            if node is None or node in seen:
                continue
            seen.add(node)
            node.register_prehook(lambda g, name=node.name(): ran.append(name.split("::")[-1]))
            nodes.extend(n for n, _ in node.next_functions)
        loss.backward()
        return ran, x.grad, w.grad
    theirs, ours = both(program)
    assert ours[0] == theirs[0] and len(ours[0]) == 17
    for a, b in zip(theirs[1:], ours[1:]):
        np.testing.assert_allclose(values(b), values(a), rtol=1e-12)


def test_a_node_keeps_its_flags_output_numbers_and_shapes_as_they_are():
    # (0,) never comes back as (False,); a product's broadcast gradients are summed back
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    first, second = x * 2, (x + 1) * 3
    assert first.grad_fn.needs_input_grad == second.grad_fn.needs_input_grad == (True, False)
    assert [type(nr) for _, nr in first.grad_fn.next_functions] == [int, int]
    assert [type(nr) for _, nr in second.grad_fn.next_functions] == [int, int]
    a, b = minigrad.ones(3, 2, requires_grad=True), minigrad.ones(2, requires_grad=True)
    (a * b).sum().backward()                # shapes differ: summed back (by the engine)
    assert a.grad.shape == (3, 2) and b.grad.tolist() == [3.0, 3.0]