"""Devices: minigrad.device, transfers, every op family on "cuda", PyTorch's mixing errors,
save_on_cpu, gradcheck, hooks and version counters on a GPU.

Tests taking the `device` fixture run three times (tests/conftest.py): on "cpu", on "cuda"
backed by tests/fake_cupy.py (numpy dressed as CuPy: no GPU needed), and on "cuda" with the
real CuPy (skipped without a GPU).  Tests taking `fake_cuda` check the device logic itself.
"""
import ast
import pathlib
import pickle
import sys

import numpy as np
import pytest

import minigrad as torch
from minigrad import backend
from minigrad.autograd.function import Function

MIXED = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"


def on(device, array, requires_grad=True, dtype=torch.float64):
    return torch.tensor(np.asarray(array), dtype=dtype, device=device, requires_grad=requires_grad)


def host(tensor):
    return backend.to_numpy(tensor.detach()._data)


def expected_device(device):
    return torch.device("cpu") if device == "cpu" else torch.device("cuda", 0)


# --- minigrad.device, as torch.device --------------------------------------------------

def test_device_objects_read_and_compare_as_in_pytorch():
    assert repr(torch.device("cuda")) == "device(type='cuda')"
    assert repr(torch.device("cuda:1")) == "device(type='cuda', index=1)"
    assert torch.device("cuda", 1) == torch.device("cuda:1")
    assert torch.device("cuda") != torch.device("cuda:0")         # no index is not index 0
    assert torch.device("cpu") != "cpu"                             # never equal to a string
    assert (torch.device("cuda:2").type, torch.device("cuda:2").index) == ("cuda", 2)
    assert str(torch.device("cuda:2")) == "cuda:2" and str(torch.device("cpu")) == "cpu"
    assert torch.device(torch.device("cuda:1")) == torch.device("cuda:1")
    assert len({torch.device("cpu"), torch.device("cpu"), torch.device("cuda:0")}) == 2
    assert pickle.loads(pickle.dumps(torch.device("cuda:1"))) == torch.device("cuda:1")


@pytest.mark.parametrize("text, message", [
    ("gpu", "Expected one of cpu, cuda, ipu"),
    ("cuda:x", "Invalid device string: 'cuda:x'"),
    ("cuda:-1", "Invalid device string: 'cuda:-1'"),
    ("cuda:", "Invalid device string: 'cuda:'"),
])
def test_bad_device_strings_get_pytorchs_errors(text, message):
    with pytest.raises(RuntimeError, match=message):
        torch.device(text)


def test_without_cupy_cuda_is_unavailable_and_asking_for_it_says_how_to_install(monkeypatch):
    monkeypatch.setattr(backend, "_cupy", None)
    monkeypatch.setitem(sys.modules, "cupy", None)          # import cupy fails
    assert torch.cuda.is_available() is False
    assert torch.cuda.device_count() == 0
    assert torch.cuda.memory_allocated() == 0
    x = torch.ones(2)
    for ask in (lambda: torch.ones(2, device="cuda"), x.cuda, lambda: x.to("cuda"),
                torch.cuda.synchronize):
        with pytest.raises(AssertionError, match=r'pip install "minigrad-tutor\[cuda\]"'):
            ask()
    assert x.cpu() is x and x.to("cpu") is x                 # the CPU never needs CuPy


def test_the_engine_imports_cupy_only_when_asked():
    import subprocess
    code = "import sys, minigrad as t; (t.ones(2, requires_grad=True) * 2).sum().backward(); " \
           "print('cupy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


# --- the fake CuPy is strict where CuPy is ---------------------------------------------

def test_fake_cupy_refuses_numpy_as_cupy_does(fake_cuda):
    a = fake_cuda.asarray([1.0, 2.0])
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(a)
    with pytest.raises(TypeError):
        a + np.ones(2)
    with pytest.raises(TypeError):
        np.add.at(fake_cuda.zeros(2), [0], 1.0)
    assert isinstance(a.sum(), fake_cuda.ndarray)          # reductions stay on the device
    assert not isinstance(a, np.ndarray)


def test_ops_reach_the_array_module_through_the_tensor():
    """Audit: ops call numpy only through `x._xp` (or backend); `np.` names types only,
    except in a branch taken only for numpy data (`if type(x._data) is np.ndarray:`)."""
    allowed = {"ndarray", "integer", "bool_", "number", "floating", "generic"}
    ops = pathlib.Path(torch.__file__).parent / "ops"
    for path in ops.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        numpy_only = {id(n) for branch in ast.walk(tree)
                      if isinstance(branch, ast.If) and "np.ndarray" in ast.unparse(branch.test)
                      for statement in branch.body for n in ast.walk(statement)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "np" and id(node) not in numpy_only):
                assert node.attr in allowed, f"{path.name}: np.{node.attr} breaks on CuPy"


# --- minigrad.cuda and transfers --------------------------------------------------------

def test_minigrad_cuda_reports_the_fake_gpu(fake_cuda):
    assert torch.cuda.is_available() and torch.cuda.device_count() == 1
    before = torch.cuda.memory_allocated()
    x = torch.zeros(1000, device="cuda")                        # 4000 bytes of float32
    assert torch.cuda.memory_allocated() - before == 4000
    del x
    assert torch.cuda.memory_allocated() == before
    torch.cuda.synchronize()
    assert fake_cuda.state.synchronized == 1


@pytest.mark.parametrize("make", [
    lambda d: torch.tensor([1.0, 2.0], device=d), lambda d: torch.zeros(2, 3, device=d),
    lambda d: torch.ones(2, device=d), lambda d: torch.empty(2, device=d),
    lambda d: torch.full((2,), 7.0, device=d), lambda d: torch.arange(4, device=d),
    lambda d: torch.linspace(0, 1, 5, device=d), lambda d: torch.eye(3, device=d),
    lambda d: torch.rand(2, device=d), lambda d: torch.randn(2, device=d),
    lambda d: torch.randint(0, 5, (3,), device=d), lambda d: torch.as_tensor([1, 2], device=d),
    lambda d: torch.zeros_like(torch.ones(2, device=d)),
    lambda d: torch.ones_like(torch.ones(2), device=d),
    lambda d: torch.full_like(torch.ones(2, device=d), 3.0),
    lambda d: torch.empty_like(torch.ones(2, device=d)),
], ids=lambda make: None)
def test_every_creation_function_takes_a_device(device, make):
    t = make(device)
    assert t.device == expected_device(device)
    assert t.is_cuda == (device == "cuda")


def test_transfers_copy_and_return_self_when_nothing_changes(device):
    x = torch.tensor([1.0, 2.0], device=device)
    assert x.to(device) is x and x.to(x) is x and x.to(torch.float32) is x
    assert x.to(device, torch.float32) is x and x.to(device=device, dtype=torch.float32) is x
    assert x.to(device, copy=True) is not x
    c = x.cpu()
    assert c.device == torch.device("cpu") and c.tolist() == [1.0, 2.0]
    assert (c is x) == (device == "cpu")
    g = torch.tensor([1.0], device=device).to("cpu", torch.float64)
    assert g.dtype is torch.float64 and g.device == torch.device("cpu")
    assert torch.tensor(x).device == x.device                 # tensor(t) copies on t's device


def test_cuda_round_trip_records_a_node_and_moves_the_gradient_back(fake_cuda):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.cuda()
    assert y.device == torch.device("cuda", 0) and y.grad_fn.name() == "ToCopyBackward0"
    assert y.cuda() is y and y.to("cuda:0") is y and y.to(torch.device("cuda")) is y
    (y * y).sum().backward()
    assert x.grad.device == torch.device("cpu") and x.grad.tolist() == [2.0, 4.0]
    assert isinstance(x.grad._data, np.ndarray)


def test_a_cuda_tensor_reads_out_but_refuses_numpy(fake_cuda):
    x = torch.tensor([[1.5, 2.0]], device="cuda")
    assert x.tolist() == [[1.5, 2.0]] and x[0, 1].item() == 2.0 and float(x[0, 0]) == 1.5
    assert repr(x) == "tensor([[1.5000, 2.0000]], device='cuda:0')"
    with pytest.raises(TypeError, match=r"^can't convert cuda:0 device type tensor to numpy\. "
                                        r"Use Tensor\.cpu\(\) to copy the tensor to host memory "
                                        r"first\.$"):
        x.numpy()
    assert x.cpu().numpy().tolist() == [[1.5, 2.0]]
    assert pickle.loads(pickle.dumps(x)).device == x.device


def test_unknown_gpu_index_is_refused(fake_cuda):
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        torch.ones(2, device="cuda:3")


# --- every op family on the device: forward and backward agree with the CPU ------------

rng = np.random.default_rng(0)
A, B, V = rng.standard_normal((2, 3)), rng.standard_normal((2, 3)), rng.standard_normal(3)
M, S = rng.standard_normal((3, 4)), rng.standard_normal((2, 3, 4))


def _inplace_through_view(a):
    y = a * 1
    y[0].mul_(2)
    return y


def _setitem(a, b):
    y = a * 1
    y[0] = b[1]
    y[[1, 1], [0, 2]] = b[0, :2]
    return y


OPS = {
    "add": (lambda a, b: a + b, (A, V)), "sub-alpha": (lambda a, b: a.sub(b, alpha=2), (A, B)),
    "mul": (lambda a, b: a * b, (A, B)), "div": (lambda a, b: a / (b.abs() + 1), (A, B)),
    "scalars": (lambda a: 2 - (3 * a + 1) / 2, (A,)), "pow": (lambda a: a ** 3, (A,)),
    "pow-tensor": (lambda a, b: (a.abs() + 0.5) ** b, (A, B)), "rpow": (lambda a: 2 ** a, (A,)),
    "neg-reciprocal": (lambda a: -(a.abs() + 1).reciprocal(), (A,)),
    "exp-log": (lambda a: (a.exp() + 1).log(), (A,)), "trig": (lambda a: a.sin() * a.cos(), (A,)),
    "tanh-sigmoid": (lambda a: a.tanh() + a.sigmoid(), (A,)),
    "relu-sqrt-abs": (lambda a: a.relu() + (a.abs() + 0.1).sqrt(), (A,)),
    "clamp-sign": (lambda a: a.clamp(-0.5, 0.5) + a.sign(), (A,)),
    "sum-mean": (lambda a: a.sum(0) + a.mean(1, keepdim=True), (A,)),
    "max-min": (lambda a: a.max() + a.max(1).values.sum() + a.min(0)[0].sum(), (A,)),
    "views": (lambda a: a.view(3, 2).t().reshape(6).unsqueeze(0).expand(2, 6), (A,)),
    "permute-squeeze": (lambda s: s.permute(2, 0, 1)[None].squeeze(0).flatten(1), (S,)),
    "copies": (lambda a: a.T.contiguous().clone().reshape(-1), (A,)),
    "basic-index": (lambda a: a[1] + a[0, 1:].sum() + a[..., 0].sum(), (A,)),
    "advanced-index": (lambda a: a[[0, 1, 0], [2, 2, 2]], (A,)),
    "mask-index": (lambda a: a[a > 0], (A,)),
    "where-max-min": (lambda a, b: torch.where(a > b, a, b) * a.maximum(b) - a.minimum(b), (A, B)),
    "masked-fill": (lambda a: a.masked_fill(a < 0, 0.5), (A,)),
    "cat-stack": (lambda a, b: torch.cat([a, b], 1).sum() + torch.stack([a, b]).sum(0), (A, B)),
    "softmax": (lambda a: a.softmax(1) + a.log_softmax(0), (A,)),
    "mm-mv-dot": (lambda a, m, v: (a @ m).sum(0) + (m.t() @ v) + (v @ v), (A, M, V)),
    "batched": (lambda s, m: s @ m.t() @ s, (S, M)), "vec-mat": (lambda v, m: v @ m, (V, M)),
    "inplace": (lambda a, b: (a * 1).add_(b).mul_(b).div_(2).sub_(1).clamp_(-1, 1), (A, B)),
    "setitem": (_setitem, (A, B)), "through-view": (_inplace_through_view, (A,)),
    "fill-zero-copy": (lambda a, b: (a * 1).fill_(2.0) + (a * 1).zero_() + (a * 0).copy_(b),
                       (A, B)),
    "0-dim": (lambda a: (-a.sum()).abs() * a[0, 0].exp() / a.max().sigmoid(), (A,)),
    "sort-topk": (lambda a: a.sort(1, descending=True).values + a.topk(1, 0, largest=False)[0],
                  (A,)),
    "argsort-take-along-dim": (lambda m: m.take_along_dim(m.argsort(1), 1) * m.count_nonzero(),
                               (M,)),
    "median": (lambda m: m.median() + m.median(0).values.sum() + m.nanmedian(1, True)[0], (M,)),
    "kthvalue-mode-index-fill": (lambda m: m.kthvalue(2, 1).values + m.mode(1).values
                                 + m.index_fill(1, torch.tensor([0, 2], device=m.device), 0.5)
                                 .sum(1), (M,)),
    "select-diagonal-trace": (lambda s: s.select(1, 2).diagonal() * s.diagonal(1, 0, 2).trace(),
                              (S,)),
    "erf-diag-outer-where": (lambda m, v: m.erf() + m.erfc() * m.diag(1).sum() + v.diag(1)[:3]
                             + v.outer(m[0]).where(m > 0, 0.0), (M, V)),
}


def _run(fn, arrays, device):
    inputs = [on(device, a) for a in arrays]
    out = fn(*inputs)
    weights = torch.linspace(-1, 2, out.numel(), dtype=out.dtype, device=device)
    (out * weights.reshape(out.shape)).sum().backward()
    return out, inputs


@pytest.mark.parametrize("name", OPS)
def test_every_op_family_runs_on_the_device_forward_and_backward(device, name):
    fn, arrays = OPS[name]
    out, inputs = _run(fn, arrays, device)
    reference, reference_inputs = _run(fn, arrays, "cpu")
    assert out.device == expected_device(device)
    np.testing.assert_allclose(host(out), host(reference), rtol=1e-12, atol=1e-12)
    for x, r in zip(inputs, reference_inputs):
        assert x.grad.device == x.device
        np.testing.assert_allclose(host(x.grad), host(r.grad), rtol=1e-12, atol=1e-12)


def test_comparisons_and_logic_stay_on_the_device(device):
    a = on(device, A, requires_grad=False)
    for result in (a > 0, a == a, (a > 0) & (a < 1), ~(a > 0), (a > 0).logical_not(),
                   a.argmax(), a.argmin(1), (a > 0).any()):
        assert result.device == expected_device(device)
    assert (a > 0).tolist() == (A > 0).tolist()
    assert torch.allclose(a, a * 1) and not torch.allclose(a, a + 1)


# --- PyTorch's errors for tensors on different devices ----------------------------------

@pytest.mark.parametrize("op", [
    lambda g, c: g + c, lambda g, c: c * g, lambda g, c: g / c, lambda g, c: g ** c,
    lambda g, c: g > c, lambda g, c: torch.where(g > 0, g, c), lambda g, c: g.maximum(c),
    lambda g, c: g.add_(c), lambda g, c: c.sub_(g), lambda g, c: torch.allclose(g, c),
])
def test_elementwise_ops_refuse_two_devices_with_pytorchs_text(fake_cuda, op):
    gpu, cpu = torch.ones(2, device="cuda"), torch.ones(2)
    with pytest.raises(RuntimeError) as info:
        op(gpu, cpu)
    assert str(info.value) == MIXED


@pytest.mark.parametrize("op, text", [
    (lambda g, c: g.view(1, 2) @ c.view(2, 1),
     "but got mat2 is on cpu, different from other tensors on cuda:0 (when checking argument "
     "in method wrapper_CUDA_mm)"),
    (lambda g, c: c.view(1, 2).mm(g.view(2, 1)),
     "but got mat2 is on cuda:0, different from other tensors on cpu (when checking argument "
     "in method wrapper_CUDA_mm)"),
    (lambda g, c: torch.cat([g, c]),
     "but got tensors is on cpu, different from other tensors on cuda:0 (when checking "
     "argument in method wrapper_CUDA_cat)"),
])
def test_other_kernels_name_the_argument_as_pytorch_does(fake_cuda, op, text):
    with pytest.raises(RuntimeError) as info:
        op(torch.ones(2, device="cuda"), torch.ones(2))
    assert str(info.value) == "Expected all tensors to be on the same device, " + text


def test_a_cpu_scalar_tensor_may_join_a_gpu_op_and_gets_its_gradient_on_the_cpu(fake_cuda):
    scale = torch.tensor(3.0, requires_grad=True)
    x = torch.tensor([1.0, 2.0], device="cuda", requires_grad=True)
    y = x * scale
    assert y.device == torch.device("cuda", 0)
    y.sum().backward()
    assert scale.grad.device == torch.device("cpu") and scale.grad.item() == 3.0
    assert x.grad.tolist() == [3.0, 3.0]
    with pytest.raises(RuntimeError, match="found at least two devices, cuda:0 and cpu!"):
        scale.clone().add_(x.sum())               # ... but not as the target of an in-place op


def test_two_gpus_do_not_mix(fake_cuda):
    fake_cuda.state.device_count = 2
    a, b = torch.ones(2, device="cuda:0"), torch.ones(2, device="cuda:1")
    assert b.device == torch.device("cuda", 1)
    with pytest.raises(RuntimeError, match="found at least two devices, cuda:0 and cuda:1!"):
        a + b


def test_indices_may_come_from_the_cpu_but_not_go_to_it(fake_cuda):
    x = torch.tensor([1.0, 2.0, 3.0], device="cuda", requires_grad=True)
    picked = x[torch.tensor([2, 0, 2])]
    assert picked.tolist() == [3.0, 1.0, 3.0] and picked.device == x.device
    picked.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 2.0]                   # repeated indices add up
    with pytest.raises(RuntimeError, match=r"indices should be either on cpu or on the same "
                                           r"device as the indexed tensor \(cpu\)"):
        torch.ones(3)[torch.tensor([0], device="cuda")]


def test_copy_and_setitem_copy_between_devices(fake_cuda):
    src = torch.tensor([1.0, 2.0], requires_grad=True)
    dst = torch.zeros(2, 2, device="cuda")
    dst[0] = src
    dst[1].copy_(src * 2)
    assert dst.tolist() == [[1.0, 2.0], [2.0, 4.0]] and dst.device == torch.device("cuda", 0)
    dst.sum().backward()
    assert src.grad.device == torch.device("cpu") and src.grad.tolist() == [3.0, 3.0]


def test_gradients_and_grad_assignment_keep_their_device(fake_cuda):
    x = torch.ones(2, device="cuda", requires_grad=True)
    with pytest.raises(RuntimeError, match="attempting to assign a gradient with device type "
                                           "'cpu' to a tensor with device type 'cuda'"):
        x.grad = torch.ones(2)

    class ToHost(Function):
        @staticmethod
        def forward(ctx, t):
            return t * 2

        @staticmethod
        def backward(ctx, grad):
            return grad.cpu()
    with pytest.raises(RuntimeError, match="Function ToHostBackward returned an invalid "
                                           "gradient at index 0 - expected device cuda:0 but got cpu"):
        ToHost.apply(x).sum().backward()


# --- saved tensors, hooks, version counters, higher derivatives on the device -----------

def test_save_on_cpu_moves_saved_gpu_tensors_to_the_host_and_back(fake_cuda):
    packed, unpacked = [], []
    hooks = torch.autograd.graph.save_on_cpu()
    pack, unpack = hooks.pack_hook, hooks.unpack_hook
    hooks.pack_hook = lambda t: packed.append(pack(t)) or packed[-1]
    hooks.unpack_hook = lambda p: unpacked.append(unpack(p)) or unpacked[-1]
    x = torch.tensor([0.5, 1.0], device="cuda", requires_grad=True)
    with hooks:
        y = (x.exp() * x).sin()
    assert packed and all(isinstance(host_t._data, np.ndarray) for _, host_t in packed)
    assert all(d == torch.device("cuda", 0) for d, _ in packed)
    y.sum().backward()
    assert unpacked and all(t.device == torch.device("cuda", 0) for t in unpacked)
    xs = np.array([0.5, 1.0])
    expected = np.cos(np.exp(xs) * xs) * (np.exp(xs) * xs + np.exp(xs))
    np.testing.assert_allclose(host(x.grad), expected, rtol=1e-6)


def test_save_on_cpu_frees_gpu_memory_and_can_pin_host_memory(fake_cuda):
    def peak_saved(hooks):
        x = torch.ones(1000, device="cuda", requires_grad=True)
        before = torch.cuda.memory_allocated()
        with hooks:
            loss = x.exp().sin().exp().sin().sum()
        held = torch.cuda.memory_allocated() - before
        loss.backward()
        assert x.grad.device == x.device
        return held
    plain = peak_saved(torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t))
    on_host = peak_saved(torch.autograd.graph.save_on_cpu())
    # the two exp results (which the sins save too) stay on the GPU, or leave it
    assert plain - on_host == 2 * 4000 and on_host < 4000
    assert not fake_cuda.state.pinned
    peak_saved(torch.autograd.graph.save_on_cpu(pin_memory=True))
    assert fake_cuda.state.pinned and all(shape == (1000,) for shape, _ in fake_cuda.state.pinned)


def test_save_on_cpu_keeps_higher_derivatives(device):
    x = on(device, [0.3, 0.7])
    with torch.autograd.graph.save_on_cpu():
        y = (x * x * x).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(host(gg), 6 * np.array([0.3, 0.7]))


def test_gradcheck_and_gradgradcheck_on_the_device(device):
    a, b = on(device, A), on(device, B)
    assert torch.autograd.gradcheck(lambda a, b: (a * b).tanh() @ b.t(), (a, b))
    assert torch.autograd.gradgradcheck(lambda a: (a.exp() * a).sum(1), (a,))

    class WrongExp(Function):
        @staticmethod
        def forward(ctx, t):
            return t.exp()

        @staticmethod
        def backward(ctx, grad):
            return grad * 2
    with pytest.raises(RuntimeError, match="Jacobian mismatch for output 0 with respect to input 0"):
        torch.autograd.gradcheck(WrongExp.apply, (a,))


def test_hooks_see_gradients_on_the_device(device):
    x = on(device, [1.0, 2.0])
    seen = []
    x.register_hook(lambda g: seen.append(("tensor", g.device)) or g * 10)
    x.register_post_accumulate_grad_hook(lambda t: seen.append(("post", t.grad.device)))
    y = x * 3
    y.retain_grad()
    y.grad_fn.register_hook(lambda gi, go: seen.append(("node", gi[0].device)))
    y.sum().backward()
    where = expected_device(device)
    assert seen == [("node", where), ("tensor", where), ("post", where)]
    assert host(x.grad).tolist() == [30.0, 30.0] and y.grad.device == where


def test_version_counters_catch_in_place_changes_on_the_device(device):
    x = on(device, [0.5, 1.5])
    y = x.exp()
    z = y * 2
    y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation.*is at version 1; "
                                           "expected version 0"):
        z.sum().backward()
    view = y[0]
    assert view._version == y._version == 1


def test_create_graph_gives_second_derivatives_on_the_device(device):
    x = on(device, [0.5, 2.0])
    (g,) = torch.autograd.grad((x ** 3).sin().sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert g.device == gg.device == expected_device(device)
    v = np.array([0.5, 2.0])
    expected = 6 * v * np.cos(v ** 3) - 9 * v ** 4 * np.sin(v ** 3)
    np.testing.assert_allclose(host(gg), expected, rtol=1e-10)


def _load_benchmark():
    import importlib.util
    path = pathlib.Path(__file__).resolve().parents[1] / "benchmarks" / "gpu_mlp.py"
    spec = importlib.util.spec_from_file_location("gpu_mlp", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_gpu_benchmark_says_so_and_exits_0_without_a_gpu(monkeypatch, capsys):
    monkeypatch.setattr(backend, "_cupy", None)
    monkeypatch.setitem(sys.modules, "cupy", None)
    assert _load_benchmark().main([]) == 0
    assert "No GPU" in capsys.readouterr().out


def test_the_gpu_benchmark_runs_end_to_end_on_the_fake_gpu(fake_cuda, capsys):
    assert _load_benchmark().main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert "numpy/cuda" in out and "save_on_cpu(pin_memory=True)" in out
