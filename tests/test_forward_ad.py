"""torch.autograd.forward_ad: PyTorch's forward-mode AD tutorial, run under PyTorch and
minigrad (same program, T = torch or T = minigrad), plus the ops it must cover."""
import importlib

import numpy as np
import pytest

import minigrad
import minigrad.autograd.forward_ad as fwAD_minigrad
from minigrad.surface import forward_ad

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)
A, B, C = (RNG.standard_normal((10, 10)).astype(np.float32) for _ in range(3))


def fw(T):
    """`import torch.autograd.forward_ad as fwAD`, for T."""
    return importlib.import_module(T.__name__ + ".autograd.forward_ad")


def both(program):
    return program(torch), program(minigrad)


def values(t):
    return None if t is None else np.asarray(t.detach().tolist())


def error_of(call):
    """(exception type name, text) with minigrad's dtype names spelled as PyTorch's."""
    try:
        call()
    except Exception as error:      # noqa: BLE001 (the test compares what was raised)
        return type(error).__name__, str(error).replace("minigrad.", "torch.")
    return None


def test_import_as_in_the_tutorial():
    assert fwAD_minigrad is minigrad.autograd.forward_ad
    assert fwAD_minigrad.__all__ == fw(torch).__all__


def test_tutorial_basic_usage():
    def program(T):
        fwAD = fw(T)
        primal, tangent = T.tensor(A), T.tensor(B)

        def fn(x, y):
            return x ** 2 + y ** 2

        checks = []
        with fwAD.dual_level():
            dual_input = fwAD.make_dual(primal, tangent)
            checks.append(fwAD.unpack_dual(dual_input).tangent is tangent)
            dual_input_alt = fwAD.make_dual(primal, tangent.T)
            checks.append(fwAD.unpack_dual(dual_input_alt).tangent is not tangent)
            checks.append(values(fwAD.unpack_dual(dual_input_alt).tangent).tolist())
            plain_tensor = T.tensor(C)
            dual_output = fn(dual_input, plain_tensor)
            jvp = fwAD.unpack_dual(dual_output).tangent
            primal_out = fwAD.unpack_dual(dual_output).primal
        checks.append(fwAD.unpack_dual(dual_output).tangent is None)
        return checks, values(jvp), values(primal_out), str(jvp.dtype)
    theirs, ours = both(program)
    assert ours[0] == theirs[0] and ours[0][:2] == [True, True] and ours[0][3] is True
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)
    np.testing.assert_allclose(ours[1], 2 * A * B, rtol=1e-6)        # d(x²) = 2x·ẋ
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)
    assert ours[3].replace("minigrad", "torch") == theirs[3]


def tutorial_fn(T, broken=False):
    """The tutorial's custom Function (exp with a jvp); `broken` gets the jvp wrong."""
    class Fn(T.autograd.Function):
        @staticmethod
        def forward(ctx, foo):
            result = T.exp(foo)
            ctx.result = result
            return result

        @staticmethod
        def jvp(ctx, gI):
            gO = gI * ctx.result
            del ctx.result
            return gO * 1.01 if broken else gO
    return Fn


def test_tutorial_custom_function_jvp_and_gradcheck():
    def program(T):
        fwAD = fw(T)
        fn = tutorial_fn(T).apply
        primal = T.tensor(A[:3, :4].astype(np.float64), requires_grad=True)
        tangent = T.tensor(B[:3, :4])
        with fwAD.dual_level():
            dual_input = fwAD.make_dual(primal, tangent)
            dual_output = fn(dual_input)
            jvp = fwAD.unpack_dual(dual_output).tangent
        checked = T.autograd.gradcheck(tutorial_fn(T).apply, (primal,), check_forward_ad=True,
                                       check_backward_ad=False, check_undefined_grad=False,
                                       check_batched_grad=False)
        return values(jvp), str(jvp.dtype), checked
    theirs, ours = both(program)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12)
    assert ours[1].replace("minigrad", "torch") == theirs[1] and ours[2] is theirs[2] is True


def test_gradcheck_catches_a_wrong_jvp_in_forward_mode_only():
    def program(T):
        x = T.tensor([0.1, -0.4, 0.7], dtype=T.float64, requires_grad=True)
        broken = tutorial_fn(T, broken=True).apply
        failed = error_of(lambda: T.autograd.gradcheck(
            broken, (x,), check_forward_ad=True, check_backward_ad=False))
        quiet = T.autograd.gradcheck(broken, (x,), check_forward_ad=True,
                                     check_backward_ad=False, raise_exception=False)
        neither = error_of(lambda: T.autograd.gradcheck(
            broken, (x,), check_forward_ad=False, check_backward_ad=False))
        return failed, quiet, neither
    theirs, ours = both(program)
    assert ours[0][0] == "GradcheckError" and theirs[0][0] == "GradcheckError"
    first_line = "Jacobian computed with forward mode mismatch for output 0 with respect to input 0,"
    assert ours[0][1].splitlines()[0] == theirs[0][1].splitlines()[0] == first_line
    assert "jvp" in ours[0][1]                       # minigrad's hint names the culprit
    assert ours[1] is theirs[1] is False
    assert ours[2] == theirs[2]


def test_gradcheck_checks_forward_ad_of_built_in_ops_and_backward_too():
    x = minigrad.tensor([[0.3, -0.2], [0.5, 0.9]], dtype=minigrad.float64, requires_grad=True)
    y = minigrad.tensor([[1.5], [-0.7]], dtype=minigrad.float64, requires_grad=True)
    assert minigrad.autograd.gradcheck(lambda a, b: (a @ b).tanh() * a.sum(), (x, y),
                                       check_forward_ad=True)


OPS = {
    "tutorial": lambda x, y: x ** 2 + y ** 2,
    "exp": lambda x, y: x.exp(),
    "tanh": lambda x, y: x.tanh() * y,
    "sin": lambda x, y: x.sin(),
    "matmul": lambda x, y: x @ y.T,
    "sum": lambda x, y: (x * y).sum(),
    "sum_dim": lambda x, y: x.sum(dim=0, keepdim=True) * y,
    "mean": lambda x, y: x.mean(1),
    "view": lambda x, y: x.view(12) * 3,
    "transpose": lambda x, y: x.T.reshape(4, 3),
    "slice": lambda x, y: x[1:, ::2],
    "integer_index": lambda x, y: x[[0, 2, 2], [1, 0, 3]],
    "broadcast": lambda x, y: x[:, :1] + y[:1, :] * x,
    "divide": lambda x, y: x / (y * y + 1),
    "sigmoid_relu": lambda x, y: x.sigmoid() + y.relu(),
    "log_sqrt_abs": lambda x, y: (x.abs() + 1).log() + (y * y + 1).sqrt(),
    "max_reduction": lambda x, y: x.max(),
    "clamp_pow": lambda x, y: x.clamp(-0.5, 0.5).pow(3),
    "in_place_add": lambda x, y: (x * 1).add_(y, alpha=2),
    "setitem": lambda x, y: _setitem(x, y),
    "add_through_a_view": lambda x, y: _add_through_view(x, y),
}


def _add_through_view(x, y):
    base = (x * 0).detach()            # plain: it becomes dual through its view
    base[0].add_(y[0])
    return base


def _setitem(x, y):
    out = x * 2
    out[0] = y[1]
    return out


@pytest.mark.parametrize("name", OPS)
def test_tangents_of_built_in_ops_match_pytorch(name):
    primals = RNG.standard_normal((2, 3, 4))
    tangents = RNG.standard_normal((2, 3, 4))

    def program(T):
        fwAD = fw(T)
        with fwAD.dual_level():
            x = fwAD.make_dual(T.tensor(primals[0]), T.tensor(tangents[0]))
            y = fwAD.make_dual(T.tensor(primals[1]), T.tensor(tangents[1]))
            primal, tangent = fwAD.unpack_dual(OPS[name](x, y))
            return values(primal), values(tangent), str(tangent.dtype)
    theirs, ours = both(program)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-10, atol=1e-12)
    assert ours[2].replace("minigrad", "torch") == theirs[2]


def test_a_dual_float64_primal_with_a_float32_tangent_gives_float64_tangents():
    def program(T):
        fwAD = fw(T)
        with fwAD.dual_level():
            x = fwAD.make_dual(T.tensor(A[0].astype(np.float64)), T.tensor(B[0]))
            tangent = fwAD.unpack_dual(x.exp() * 2).tangent
            return values(tangent), str(tangent.dtype)
    theirs, ours = both(program)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    assert ours[1].replace("minigrad", "torch") == theirs[1]


def test_tensors_without_tangent_stay_plain_and_cost_no_jvp(monkeypatch):
    calls = []
    real = forward_ad._builtin_jvp
    monkeypatch.setattr(forward_ad, "_builtin_jvp", lambda *a: calls.append(a) or real(*a))
    with fwAD_minigrad.dual_level():
        plain = minigrad.tensor(A) * 2 + minigrad.tensor(B).exp()
        assert fwAD_minigrad.unpack_dual(plain).tangent is None and calls == []
        dual = fwAD_minigrad.make_dual(minigrad.tensor(C), minigrad.tensor(B))
        mixed = plain * dual
        assert len(calls) == 1
        np.testing.assert_allclose(values(fwAD_minigrad.unpack_dual(mixed).tangent),
                                   values(plain) * B, rtol=1e-6)


def test_no_dual_level_means_apply_never_calls_propagate(monkeypatch):
    def fail(*args):
        raise AssertionError("propagate called with no dual level open")
    monkeypatch.setattr(forward_ad, "propagate", fail)
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    (x.exp() * x).sum().backward()
    assert forward_ad._state["level"] is None


def test_nothing_is_dual_after_the_level_exits():
    with fwAD_minigrad.dual_level():
        x = fwAD_minigrad.make_dual(minigrad.tensor([0.5, 1.0]), minigrad.tensor([1.0, 0.0]))
        steps = [x.sin(), x.sin() * x, (x.sin() * x).sum()]
        assert all(fwAD_minigrad.unpack_dual(s).tangent is not None for s in steps)
    assert all(fwAD_minigrad.unpack_dual(s).tangent is None for s in steps + [x])
    assert all("_fw_grad" not in s.__dict__ for s in steps + [x])
    assert forward_ad._dual_tensors == []


def test_levels_and_errors_say_what_pytorch_says():
    def program(T):
        fwAD = fw(T)
        p, t = T.tensor(A[:2, :2]), T.tensor(B[:2, :2])
        seen = [error_of(lambda: fwAD.make_dual(p, t)),
                error_of(fwAD.exit_dual_level),
                fwAD.unpack_dual(p).tangent is None, fwAD.unpack_dual(p).primal is p]
        with fwAD.dual_level() as level:
            seen.append(level)
            seen.append(error_of(fwAD.enter_dual_level))
            seen.append(error_of(lambda: fwAD.make_dual(p, T.tensor(B[:3, :2]))))
            seen.append(error_of(lambda: fwAD.make_dual(p, T.tensor([[1, 2], [3, 4]]))))
            seen.append(error_of(lambda: fwAD.make_dual(T.tensor([1, 2]), T.tensor([1., 2.]))))
            dual = fwAD.make_dual(p, t)
            seen.append(error_of(lambda: fwAD.make_dual(dual, t)))
            seen.append(error_of(lambda: fwAD.make_dual(p, t, level=1)))
            seen.append(error_of(lambda: fwAD.unpack_dual(dual, level=1)))
            seen.append(error_of(lambda: fwAD.exit_dual_level(level=3)))
            unpacked = fwAD.unpack_dual(dual)
            seen += [type(unpacked).__name__, unpacked._fields, unpacked.primal is dual,
                     unpacked.primal._base is p, dual._base is p, dual.requires_grad]
        return seen
    theirs, ours = both(program)
    assert ours == theirs


def test_make_dual_is_backward_differentiable():
    def program(T):
        fwAD = fw(T)
        p = T.tensor([0.5, -1.0], dtype=T.float64, requires_grad=True)
        with fwAD.dual_level():
            dual = fwAD.make_dual(p, T.tensor([1.0, 2.0], dtype=T.float64))
            out = (dual * dual).sum()
            tangent = fwAD.unpack_dual(out).tangent
            grad_fn = dual.grad_fn.name()
        out.backward()
        return values(p.grad), values(tangent), grad_fn
    theirs, ours = both(program)
    np.testing.assert_allclose(ours[0], theirs[0])
    np.testing.assert_allclose(ours[1], theirs[1])
    assert ours[2] == theirs[2]


def test_custom_function_save_for_forward_zero_tangents_and_plain_forward():
    def program(T):
        fwAD = fw(T)
        seen = []

        class Func(T.autograd.Function):
            @staticmethod
            def forward(ctx, x, y, z):
                seen.append(fwAD.unpack_dual(x).tangent is None)     # forward sees primals
                ctx.save_for_backward(x, y)
                ctx.save_for_forward(x, y)
                ctx.z = z
                return x * y * z

            @staticmethod
            def jvp(ctx, x_t, y_t, _):
                x, y = ctx.saved_tensors
                seen.append(values(y_t).tolist())             # zeros: y is not dual
                return ctx.z * (y * x_t + x * y_t)

        a = T.tensor([1.0, 3.0], requires_grad=True, dtype=T.double)
        b = T.tensor([2.0, -1.0], requires_grad=True, dtype=T.double)
        with fwAD.dual_level():
            d = Func.apply(fwAD.make_dual(a, T.tensor([1.0, 0.5], dtype=T.double)), b, 4)
            tangent = fwAD.unpack_dual(d).tangent
        return seen, values(tangent)
    theirs, ours = both(program)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1])


def test_custom_function_errors_match_pytorch():
    def program(T):
        fwAD = fw(T)

        class NoJvp(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

        class TwoOutputs(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, x * 3

            @staticmethod
            def jvp(ctx, t):
                return t * 2

        class WrongShape(T.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def jvp(ctx, t):
                return t.sum()

        with fwAD.dual_level():
            x = fwAD.make_dual(T.ones(2), T.full((2,), 2.0))
            plain = NoJvp.apply(T.ones(2))                 # no dual input: no jvp needed
            return [error_of(lambda: NoJvp.apply(x)), error_of(lambda: TwoOutputs.apply(x)),
                    error_of(lambda: WrongShape.apply(x)), values(plain).tolist()]
    theirs, ours = both(program)
    assert ours == theirs


def test_in_place_ops_that_need_the_old_value_give_pytorchs_tangents():
    """mul_, div_, exp_, pow_, clamp_ with dual operands: their JVP reads the value they
    overwrote, which Tensor's in-place methods keep for it; the tangent of the tensor
    written is changed in place, as in PyTorch (a view's tangent changes its base's)."""
    def program(T):
        fwAD = fw(T)
        shown = []
        with fwAD.dual_level():
            for op in (lambda a, b: a.mul_(b), lambda a, b: a.div_(b),
                       lambda a, b: a.exp_(), lambda a, b: a.pow_(b),
                       lambda a, b: a.clamp_(0.5, 2.5), lambda a, b: a.add_(b)):
                tangent = T.tensor([0.5, -1.0, 2.0])
                a = fwAD.make_dual(T.tensor([1.0, 2.0, 3.0]), tangent)
                b = fwAD.make_dual(T.tensor([2.0, 0.5, 1.5]), T.tensor([1.0, 1.0, -2.0]))
                plain = T.tensor([4.0, 1.0, 2.0])
                op(a, b)
                op(plain, b)
                plain_tangent = fwAD.unpack_dual(plain).tangent    # (None after exp_)
                shown.append([fwAD.unpack_dual(a).tangent.tolist(), tangent.tolist(),
                              plain_tangent is None or plain_tangent.tolist()])
            base = fwAD.make_dual(T.tensor([1.0, 2.0]), T.tensor([1.0, 1.0]))
            view = base.narrow(0, 0, 1)
            view.mul_(3)
            shown.append(fwAD.unpack_dual(base).tangent.tolist())
        return shown
    theirs, ours = both(program)
    assert len(_flat(ours)) == len(_flat(theirs))
    assert np.allclose(_flat(ours), _flat(theirs))


def _flat(nested):
    if isinstance(nested, list):
        return [x for item in nested for x in _flat(item)]
    return [nested]


def test_a_dual_tensor_prints_its_tangent_as_pytorch_does():
    def program(T):
        fwAD = fw(T)
        p, t = T.tensor([[1.0, 2.0], [3.0, 4.0]]), T.tensor([[0.5, 0.25], [1.0, 2.0]])
        with fwAD.dual_level():
            dual = fwAD.make_dual(p, t)
            shown = [repr(dual), repr(dual * 2)]
        return shown + [repr(dual)]          # after the level: a plain tensor again
    theirs, ours = both(program)
    assert ours == theirs
