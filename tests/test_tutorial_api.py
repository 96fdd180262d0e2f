"""The API added for PyTorch's autograd tutorials: nn.functional's losses (gradcheck,
and PyTorch's numbers), torch.save/load, inference mode, autograd.functional.
The tutorials' own programs are differential cases (differential/cases_tutorials.py)."""
import io
import pickle

import numpy as np
import pytest

import minigrad
from minigrad.autograd import gradcheck, gradgradcheck

F = minigrad.nn.functional
RNG = np.random.default_rng(7)


def t(array, requires_grad=True):
    return minigrad.tensor(np.asarray(array, dtype=np.float64), requires_grad=requires_grad)


LOGITS = RNG.uniform(-2, 2, (4, 3))
PROBS = RNG.uniform(0.1, 0.9, (4, 3))
LABELS = (RNG.random((4, 3)) < 0.5).astype(np.float64)
CLASSES = [2, 0, 1, 2]

LOSSES = {
    "bce_with_logits": lambda T, x, y, r: T.nn.functional.binary_cross_entropy_with_logits(
        x, y, reduction=r),
    "bce": lambda T, x, y, r: T.nn.functional.binary_cross_entropy(x, y, reduction=r),
    "mse": lambda T, x, y, r: T.nn.functional.mse_loss(x, y, reduction=r),
    "l1": lambda T, x, y, r: T.nn.functional.l1_loss(x, y, reduction=r),
}
INPUTS = {"bce_with_logits": (LOGITS, PROBS), "bce": (PROBS, LABELS * 0.8 + 0.1),
          "mse": (LOGITS, PROBS), "l1": (LOGITS, PROBS)}


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_losses_pass_gradcheck_in_both_inputs(name, reduction):
    x, y = (t(a) for a in INPUTS[name])
    fn = lambda a, b: LOSSES[name](minigrad, a, b, reduction)     # noqa: E731
    assert gradcheck(fn, (x, y))
    assert gradgradcheck(fn, (x, y))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_and_cross_entropy_pass_gradcheck(reduction, weighted):
    weight = t([0.5, 2.0, 1.0], requires_grad=False) if weighted else None
    target = minigrad.tensor([2, 0, -100, 1])
    fn = lambda x: F.cross_entropy(x, target, weight=weight, reduction=reduction)  # noqa: E731
    assert gradcheck(fn, (t(LOGITS),))
    assert gradgradcheck(fn, (t(LOGITS),))


def _both(fn):
    torch = pytest.importorskip("torch")
    got = fn(minigrad, lambda a, **k: t(a, **k))
    want = fn(torch, lambda a, requires_grad=True: torch.tensor(
        np.asarray(a, dtype=np.float64), requires_grad=requires_grad))
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g.detach()), w.detach().numpy(), rtol=1e-6,
                                   atol=1e-9)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_losses_match_pytorch(reduction):
    def run(T, make):
        results = []
        for name in sorted(LOSSES):
            x, y = (make(a) for a in INPUTS[name])
            out = LOSSES[name](T, x, y, reduction)
            out.sum().backward()
            results += [out, x.grad, y.grad]
        x = make(LOGITS)
        target = T.tensor(CLASSES)
        weight = make([0.5, 2.0, 1.0], requires_grad=False)
        out = T.nn.functional.cross_entropy(x, target, weight=weight, reduction=reduction,
                                            ignore_index=0)
        out.sum().backward()
        soft = make(PROBS / PROBS.sum(1, keepdims=True), requires_grad=False)
        one = make(LOGITS[0])
        single = T.nn.functional.cross_entropy(one, T.tensor(1), reduction=reduction)
        single.sum().backward()
        return results + [out, x.grad, T.nn.functional.cross_entropy(
            x, soft, reduction=reduction), single, one.grad]
    _both(run)


def test_loss_errors_match_pytorch():
    with pytest.raises(ValueError, match="is not a valid value for reduction"):
        F.mse_loss(t([1.0]), t([2.0]), reduction="avg")
    with pytest.raises(ValueError, match="must be the same as input size"):
        F.binary_cross_entropy_with_logits(t([1.0, 2.0]), t([1.0]))
    with pytest.raises(RuntimeError, match="between 0 and 1"):
        F.binary_cross_entropy(t([1.5]), t([1.0]))
    with pytest.raises(IndexError, match="Target 3 is out of bounds"):
        F.cross_entropy(t(LOGITS), minigrad.tensor([0, 3, 1, 1]))


def test_save_and_load_round_trip_and_refuse_other_objects(tmp_path):
    x = minigrad.tensor([[1.0, 2.0]], requires_grad=True)
    path = tmp_path / "x.pt"
    minigrad.save({"x": x, "n": [3, minigrad.tensor(2)]}, path)
    loaded = minigrad.load(path)
    assert loaded["x"].requires_grad and loaded["x"].equal(x)
    assert loaded["n"][0] == 3 and loaded["n"][1].item() == 2

    class Evil:
        def __reduce__(self):
            return (print, ("unpickled!",))

    buffer = io.BytesIO()
    minigrad.save(Evil(), buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="weights_only=False"):
        minigrad.load(buffer)


def test_inference_mode_nests_and_restores():
    x = minigrad.ones(2, requires_grad=True)
    with minigrad.inference_mode():
        with minigrad.inference_mode(False):
            assert not minigrad.is_inference_mode_enabled()
        assert minigrad.is_inference_mode_enabled() and not minigrad.is_grad_enabled()
        y = x * 2
        view = x[0]                     # a view of a normal tensor stays normal
    assert minigrad.is_grad_enabled() and not minigrad.is_inference_mode_enabled()
    assert y.is_inference() and not view.is_inference() and not x.is_inference()
    with minigrad.inference_mode():
        y.add_(1)                       # allowed inside the mode
    assert y.tolist() == [3.0, 3.0]


def test_jacobian_and_hessian_with_create_graph_are_differentiable():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    jac = minigrad.autograd.functional.jacobian(lambda v: v ** 3, x, create_graph=True)
    jac.sum().backward()                 # d/dx Σ diag(3x²) = 6x
    assert x.grad.tolist() == [6.0, 12.0]
    hess = minigrad.autograd.functional.hessian(lambda v: (v ** 3).sum(), x)
    assert hess.tolist() == [[6.0, 0.0], [0.0, 12.0]] and not hess.requires_grad
    with pytest.raises(RuntimeError, match="should contain a single element"):
        minigrad.autograd.functional.hessian(lambda v: v ** 3, x)
