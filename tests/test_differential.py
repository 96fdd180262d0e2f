"""minigrad against PyTorch: every differential case, one test each.

The cases live in tests/differential/: cases_public.py (copied from the
project's shared oracle), cases_extra.py, cases_tutorials.py (PyTorch's autograd
tutorials and notes), cases_ops.py (the common tensor ops), and three files found by
probing minigrad as its users would: cases_students.py (students' programs and
mistakes), cases_graph_mechanics.py (hooks, views, saved tensors) and
cases_function_api.py (custom Functions, gradcheck, functional, forward AD); cases_real_code.py
(what programs written for PyTorch met, each reduced to its few lines); and PyTorch's own
tests, translated: cases_pytorch_autograd.py (test/test_autograd.py) and
cases_autograd_function_db.py (torch/testing/_internal/autograd_function_db.py), whose
remaining differences are listed by kind in differential/ported_failing.py.  harness.compare
runs a case under torch and under minigrad and lists the differences; a test passes when
there are none.  Each case runs with minigrad's switches (grad mode, saved-tensor hooks,
anomaly mode ...) restored afterwards, so a case that leaves one set cannot change the next.
Skipped when PyTorch is not installed.
"""
import importlib.util
import pathlib

import pytest

pytest.importorskip("torch")

HERE = pathlib.Path(__file__).resolve().parent / "differential"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"differential_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


harness = _load("harness")
isolation = _load("isolation")
PORTED_FAILING = _load("ported_failing").PORTED_FAILING

# Cases where minigrad is known to differ from PyTorch (see the reasons).
KNOWN_FAILING = {
    "case_numpy_ufunc_on_tensor":
        "np.exp(tensor) is refused (Tensor.__array_ufunc__ is None, so that ndarray + tensor "
        "defers to the tensor's operators); PyTorch computes it through numpy",
    # graph mechanics
    "case_max_with_dim_node_has_one_grad_output":
        "max/min/sort/topk along a dim record the indices as an output of the node",
    "case_copyslices_next_functions_of_inplace_op_on_view":
        "CopySlices keeps the op as a node of its own (PyTorch's CopySlices wraps it)",
    "case_copyslices_post_hook_grad_inputs":
        "CopySlices keeps the op as a node of its own (PyTorch's CopySlices wraps it)",
    # custom Functions, gradcheck, functional, forward AD
    "case_save_for_backward_called_in_backward":
        "save_for_backward outside forward is refused with an explanation (docs/architecture.md)",
    "case_forward_ad_tangent_is_differentiable":
        "tangents record no graph of their own (docs/architecture.md)",
    "case_vectorize_and_batched_grad_are_ignored":
        "vectorize and check_batched_grad are accepted and ignored",
    "case_torch_func_and_vmap_api": "no torch.func",
}


FILES = ("cases_public", "cases_extra", "cases_tutorials", "cases_ops", "cases_students",
         "cases_graph_mechanics", "cases_function_api", "cases_real_code")
PORTED_FILES = ("cases_pytorch_autograd", "cases_autograd_function_db")


def _cases():
    for file in FILES + PORTED_FILES:
        known = PORTED_FAILING if file in PORTED_FILES else KNOWN_FAILING
        module = _load(file)
        for name, case in list(vars(module).items()):
            if name.startswith("case_") and callable(case):
                marks = ()
                if name in known:
                    reason = known[name]
                    if isinstance(reason, tuple):
                        reason = "{}: {}".format(*reason)
                    marks = (pytest.mark.xfail(reason=reason, strict=True),)
                yield pytest.param(case, id=name, marks=marks)


def test_ported_failing_names_exist():
    """Every entry of PORTED_FAILING names a ported case (a renamed case would leave a stale
    entry behind)."""
    names = {name for file in PORTED_FILES for name in vars(_load(file))
             if name.startswith("case_")}
    assert not set(PORTED_FAILING) - names


@pytest.mark.parametrize("case", list(_cases()))
def test_minigrad_matches_pytorch(case):
    with isolation.minigrad_state_kept():
        problems = harness.compare(case)
    assert not problems, "minigrad differs from PyTorch:\n" + "\n".join(problems)
