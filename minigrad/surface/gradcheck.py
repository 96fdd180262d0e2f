"""gradcheck: compare backward (and forward-mode AD) with finite differences.

For a function f of tensors, the numerical Jacobian comes from central
differences, (f(x + eps) - f(x - eps)) / 2eps, one input element at a time;
the analytical Jacobian from autograd.grad, one output element at a time, and
with check_forward_ad=True also from forward_ad, one input element at a time.
Use float64 inputs: float32 is too coarse for eps = 1e-6.
"""
import warnings

import numpy as np

from .. import backend
from ..core.grad_mode import enable_grad
from . import api
from . import forward_ad as fwAD
from .creation import randn, tensor, zeros_like
from .custom_function import Function


__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """A Jacobian mismatch (a RuntimeError, as in PyTorch)."""


def _is_tensor(x):
    return getattr(x, "_is_minigrad_tensor", False)


def _outputs(func, inputs):
    out = func(*inputs)
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def _host_values(tensor):
    """A tensor's values as a flat float64 numpy copy (the Jacobians live on the host)."""
    return backend.to_numpy(tensor._data).astype(np.float64).reshape(-1)


def _check_inputs(inputs):
    """PyTorch's checks of the inputs: one requires grad, a warning for each that is not
    float64, none with a stride-0 dimension (its elements could not move one by one)."""
    if not any(_is_tensor(x) and x.requires_grad for x in inputs):
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")
    for index, x in enumerate(inputs):
        if not (_is_tensor(x) and x.requires_grad):
            continue
        if x.dtype.name != "float64":
            warnings.warn(
                f"Input #{index} requires gradient and is not a double precision floating "
                "point or complex. This check will likely fail if all the inputs are not of "
                "double precision floating point or complex. ", UserWarning, stacklevel=3)
        if x.numel() and not all(step > 0 or size <= 1    # (an empty tensor's strides
                                 for step, size in zip(x.stride(), x.shape)):   # may be 0)
            raise RuntimeError(
                f"The {index}th input has a dimension with stride 0. gradcheck only supports "
                "inputs that are non-overlapping to be able to compute the numerical "
                "gradients correctly. You should call .contiguous on the input before "
                "passing it to gradcheck.")


def _numerical_jacobians(func, inputs, eps):
    """J[i][o] has shape (numel of the i-th input that requires grad, numel of output o),
    for every output.  Each element moves by -eps and +eps in place, and func runs as the
    caller would run it (grad mode as it is: a function may register hooks)."""
    jacobians = []
    for x in inputs:
        if not (_is_tensor(x) and x.requires_grad):
            continue
        columns, data = [], x._data                 # written in place, whatever its strides
        for k, index in enumerate(np.ndindex(*x.shape)):
            original = data[index].item()
            data[index] = original - eps
            before = [o.detach().clone() for o in _outputs(func, inputs)]  # (an output may
            data[index] = original + eps                                  # be the input)
            after = [o.detach().clone() for o in _outputs(func, inputs)]
            data[index] = original
            if not columns:
                columns = [np.zeros((x.numel(), o.numel())) for o in before]
            for column, a, b in zip(columns, before, after):
                _check_same_dtype_and_shape(a, b, eps)
                column[k] = (_host_values(b) - _host_values(a)) / (2 * eps)
        jacobians.append(columns)
    return jacobians


def _check_same_dtype_and_shape(a, b, eps):
    if a.shape != b.shape:
        raise AssertionError(
            f"Expected `func` to return outputs with the same shape when inputs are perturbed "
            f"by {eps}, but got: shapes {a.shape} and {b.shape}.")
    if a.dtype != b.dtype:
        raise AssertionError(
            f"Expected `func` to return outputs with the same dtype when inputs are perturbed "
            f"by {eps}, but got: dtypes {a.dtype} and {b.dtype}.")


def _analytical_jacobian(inputs, output, nondet_tol):
    """J[i] of one output, from autograd.grad one output element at a time, computed
    twice: a backward that gives other values the second time is not reentrant."""
    diff_inputs = [x for x in inputs if _is_tensor(x) and x.requires_grad]
    first, second = (_vjp_rows(diff_inputs, output) for _ in range(2))
    if any(j1.size and np.abs(j1 - j2).max() > nondet_tol for j1, j2 in zip(first, second)):
        raise GradcheckError(
            "Backward is not reentrant, i.e., running backward with same input and "
            "grad_output multiple times gives different values, although analytical gradient "
            f"matches numerical gradient. The tolerance for nondeterminism was {nondet_tol}."
            "\n\nNOTE: If your op relies on non-deterministic operations, this failure might "
            "be expected: call gradcheck/gradgradcheck with `nondet_tol=<tol>`.")
    return first


def _vjp_rows(diff_inputs, output):
    jacobians = [np.zeros((x.numel(), output.numel())) for x in diff_inputs]
    for k in range(output.numel()):
        seed = zeros_like(output)
        seed._data.reshape(-1)[k] = 1
        grads = api.grad(output, diff_inputs, seed, retain_graph=True, allow_unused=True)
        for jacobian, g, x in zip(jacobians, grads, diff_inputs):
            if g is not None:
                if g.shape != x.shape:
                    raise GradcheckError("Analytical gradient has incorrect size")
                jacobian[:, k] = _host_values(g)
    return jacobians


def _forward_ad_jacobians(func, inputs):
    """J[i][o] from forward-mode AD, as PyTorch's gradcheck computes it: every input that
    requires grad is made dual (detached, a tangent of zeros), then row k of J[i] is the
    tangent of output o when input i's tangent is one-hot at its k-th element."""
    result = []
    with fwAD.dual_level():
        args, tangents = list(inputs), {}
        for position, x in enumerate(inputs):
            if _is_tensor(x) and x.requires_grad:
                args[position] = fwAD.make_dual(x.detach(), zeros_like(x.detach()))
                tangents[position] = fwAD.unpack_dual(args[position]).tangent
        for position, tangent in tangents.items():
            columns = None
            for k in range(tangent.numel()):
                tangent._data.reshape(-1)[k] = 1
                outputs = [o for o in _outputs(func, args) if _is_tensor(o)]
                if columns is None:
                    columns = [np.zeros((tangent.numel(), o.numel())) for o in outputs]
                for column, output in zip(columns, outputs):
                    output_tangent = fwAD.unpack_dual(output).tangent
                    if output_tangent is not None:
                        column[k] = _host_values(output_tangent)
                tangent._data.reshape(-1)[k] = 0
            result.append(columns or [])
    return result


def _check_jacobians(func, inputs, func_out, outputs, eps, rtol, atol, nondet_tol,
                     forward_ad=False, fast_mode=False):
    """PyTorch's slow gradcheck: the numerical Jacobians against backward's (or forward
    mode's), output by output and input by input."""
    numerical = _numerical_jacobians(func, inputs, eps)
    if not outputs:            # nothing differentiable: the function must not move at all
        if any(np.any(j != 0) for columns in numerical for j in columns):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    differentiable = [o.requires_grad for o in func_out]
    numerical = [[j for j, keep in zip(columns, differentiable) if keep] for columns in numerical]
    if forward_ad:
        analytical = [[j for j, keep in zip(columns, differentiable) if keep]
                      for columns in _forward_ad_jacobians(func, inputs)]
    else:
        by_output = [_analytical_jacobian(inputs, o, nondet_tol) for o in outputs]
        analytical = [[by_output[o][i] for o in range(len(outputs))]
                      for i in range(len(numerical))]
    for i, (num_cols, ana_cols) in enumerate(zip(numerical, analytical)):
        for o, (num, ana) in enumerate(zip(num_cols, ana_cols)):
            # as PyTorch's: a NaN in either Jacobian is a mismatch, never a match
            if not np.allclose(ana, num, rtol=rtol, atol=atol):
                raise GradcheckError(_mismatch_message(o, i, num, ana, forward_ad, rtol, atol)
                                     + (_FAST_MODE_NOTE if fast_mode else ""))


# fast_mode compares random projections of the Jacobians in PyTorch; minigrad compares
# the whole Jacobians either way, and says so as PyTorch's fast mode does on a mismatch.
_FAST_MODE_NOTE = (
    "\nThe above quantities relating the numerical and analytical jacobians are computed "
    "\nin fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background "
    "\nabout fast mode. (minigrad computes them in slow mode either way.)\n")


def _check_backward_multiplies_grad_output(outputs, inputs):
    """With zero grad_outputs, every gradient must be zero (PyTorch's check)."""
    diff_inputs = [x for x in inputs if _is_tensor(x) and x.requires_grad]
    grads = api.grad(outputs, diff_inputs, [zeros_like(o) for o in outputs], allow_unused=True)
    for g, x in zip(grads, diff_inputs):
        if g is None:
            continue
        if not bool((g == 0).all()):
            raise GradcheckError("backward not multiplied by grad_output")
        if g.dtype != x.dtype or g.device != x.device:
            raise GradcheckError("grad is incorrect type")
        if g.shape != x.shape:
            raise GradcheckError("grad is incorrect size")


class _UndefinedGrad(Function):
    """PyTorch's UndefinedGrad: a copy of its input whose backward sends back no gradient
    (None), so the backward before it meets an undefined gradient."""

    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return None


def _check_undefined_grads(func, inputs):
    """Every backward must accept undefined gradients for all its outputs (and, with
    several outputs, for one at a time), and then give zeros or nothing."""
    diff_inputs = [x for x in inputs if _is_tensor(x) and x.requires_grad]
    outputs = [o for o in _outputs(func, inputs) if o.requires_grad]
    cases = [[_UndefinedGrad.apply(o) for o in outputs]]
    if len(outputs) > 1:
        for undefined in range(len(outputs)):
            fresh = [o for o in _outputs(func, inputs) if o.requires_grad]
            cases.append([_UndefinedGrad.apply(o) if i == undefined else o
                          for i, o in enumerate(fresh)])
    for case in cases:
        try:
            grads = api.grad(case, diff_inputs, [zeros_like(o) for o in case],
                             allow_unused=True)
        except RuntimeError as error:
            _warn_new_check()
            raise GradcheckError(
                "Expected backward function to handle undefined output grads. Please look at "
                "\"Notes about undefined output gradients\" in "
                "\"tools/autograd/derivatives.yaml\"") from error
        if any(g is not None and not bool((g == 0).all()) for g in grads):
            _warn_new_check()
            raise GradcheckError(
                "Expected all input grads to be undefined or zero when all output grads are "
                "undefined or zero. Please look at \"Notes about undefined output gradients\" "
                "in \"tools/autograd/derivatives.yaml\"")


def _warn_new_check():
    warnings.warn(
        "Backwards compatibility: New undefined gradient support checking feature is enabled "
        "by default, but it may break existing callers of this function. If this is true for "
        "you, you can call this function with \"check_undefined_grad=False\" to disable the "
        "feature", UserWarning, stacklevel=4)


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """True if backward agrees with finite differences for every input and output;
    with check_forward_ad=True, forward-mode AD (`jvp`) too; check_backward_ad=False
    skips the backward check (a Function with only a jvp).  As PyTorch's, it also checks
    that backward gives the same values twice (up to nondet_tol), is multiplied by
    grad_output, and accepts undefined gradients (check_undefined_grad).  A failed check
    raises GradcheckError, or returns False with raise_exception=False.

    Example::

        >>> import minigrad as torch
        >>> x = torch.tensor([0.1, 0.5], dtype=torch.float64, requires_grad=True)
        >>> torch.autograd.gradcheck(torch.tanh, (x,))
        True
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError(
            "Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_backward_ad to be True")
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    try:
        _check_inputs(inputs)
        func_out = _outputs(func, inputs)
        outputs = tuple(o for o in func_out if o.requires_grad)  # (a number: AttributeError)
        for forward_ad in [False] * check_backward_ad + [True] * check_forward_ad:
            _check_jacobians(func, inputs, func_out, outputs, eps, rtol, atol, nondet_tol,
                             forward_ad, fast_mode)
        if check_backward_ad and outputs:
            _check_backward_multiplies_grad_output(outputs, inputs)
            if check_undefined_grad:
                _check_undefined_grads(func, inputs)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def _mismatch_message(output_index, input_index, numerical, analytical, forward_ad=False,
                      rtol=1e-3, atol=1e-5):
    bad = np.argwhere(~np.isclose(analytical, numerical, rtol=rtol, atol=atol))
    row, column = bad[0]
    mode = "computed with forward mode " if forward_ad else ""
    method = "jvp (forward mode)" if forward_ad else "backward"
    return (
        f"Jacobian {mode}mismatch for output {output_index} with respect to input "
        f"{input_index},\nnumerical:{tensor(numerical)!r}\nanalytical:{tensor(analytical)!r}"
        f"\n\nThe first mismatch is at row {row} (input element) and column {column} (output "
        f"element): numerical {numerical[row, column]:.6g}, analytical "
        f"{analytical[row, column]:.6g}. Check the formula in {method} for this input.")


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False,
                  masked=False):
    """gradcheck of the gradient itself: checks backward of backward (create_graph=True).
    Forward mode through a backward is not within minigrad's reach for every op: with
    check_fwd_over_rev, backward of backward is checked in its place."""
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_batched_grad=True requires check_rev_over_rev to be True")
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    outputs = [o for o in _outputs(func, inputs) if _is_tensor(o) and o.requires_grad]
    if grad_outputs is None:
        grad_outputs = tuple(randn(*o.shape, dtype=o.dtype, device=o.device, requires_grad=True)
                             for o in outputs)
    grad_outputs = tuple(grad_outputs)
    n = len(inputs)

    def first_derivatives(*args):
        xs, gs = args[:n], args[n:]
        with enable_grad():          # also while gradcheck perturbs inputs under no_grad
            outs = [o for o in _outputs(func, xs) if _is_tensor(o) and o.requires_grad]
            wanted = [x for x in xs if _is_tensor(x) and x.requires_grad]
            return api.grad(outs, wanted, gs, create_graph=True, allow_unused=True,
                            materialize_grads=True)
    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, fast_mode=fast_mode)
