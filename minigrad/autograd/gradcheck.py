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
from .grad_mode import enable_grad, no_grad
from . import api


class GradcheckError(RuntimeError):
    """A Jacobian mismatch (a RuntimeError, as in PyTorch)."""


def _is_tensor(x):
    return getattr(x, "_is_minigrad_tensor", False)


def _outputs(func, inputs):
    out = func(*inputs)
    return out if isinstance(out, (tuple, list)) else (out,)


def _host_values(tensor):
    """A tensor's values as a flat float64 numpy copy (the Jacobians live on the host)."""
    return backend.to_numpy(tensor._data).astype(np.float64).reshape(-1)


def _numerical_jacobians(func, inputs, eps):
    """J[i][o] has shape (numel of input i, numel of output o)."""
    # the first call runs in the caller's grad mode, as PyTorch's gradcheck makes it
    outputs = [o for o in _outputs(func, inputs) if _is_tensor(o)]
    with no_grad():
        jacobians = []
        for x in inputs:
            if not (_is_tensor(x) and x.requires_grad):
                jacobians.append(None)
                continue
            columns = [np.zeros((x.numel(), o.numel())) for o in outputs]
            data = x._data                    # written in place, whatever its strides
            for k, index in enumerate(np.ndindex(*x.shape)):
                original = data[index].item()
                data[index] = original + eps
                plus = [_host_values(o) for o in _outputs(func, inputs) if _is_tensor(o)]
                data[index] = original - eps
                minus = [_host_values(o) for o in _outputs(func, inputs) if _is_tensor(o)]
                data[index] = original
                for column, p, m in zip(columns, plus, minus):
                    column[k] = (p - m) / (2 * eps)
            jacobians.append(columns)
    return jacobians


def _analytical_jacobians(func, inputs):
    from ..creation import zeros_like
    outputs = [o for o in _outputs(func, inputs) if _is_tensor(o)]
    diff_inputs = [x for x in inputs if _is_tensor(x) and x.requires_grad]
    result = [[np.zeros((x.numel(), o.numel())) for o in outputs] for x in diff_inputs]
    for o_index, output in enumerate(outputs):
        if not output.requires_grad:
            continue
        for k in range(output.numel()):
            seed = zeros_like(output)
            seed._data.reshape(-1)[k] = 1
            grads = api.grad(output, diff_inputs, seed, retain_graph=True, allow_unused=True)
            for i_index, g in enumerate(grads):
                if g is not None:
                    result[i_index][o_index][:, k] = _host_values(g)
    return result


def _forward_ad_jacobians(func, inputs):
    """J[i][o] from forward-mode AD, as PyTorch's gradcheck computes it: every input that
    requires grad is made dual (detached, a tangent of zeros), then row k of J[i] is the
    tangent of output o when input i's tangent is one-hot at its k-th element."""
    from ..creation import zeros_like
    from . import forward_ad as fwAD
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


def _compare(numerical, analytical, rtol, atol, raise_exception, mode=""):
    """Input i is the i-th input that requires grad (PyTorch counts them so)."""
    for i, (num_cols, ana_cols) in enumerate(zip(numerical, analytical)):
        for o, (num, ana) in enumerate(zip(num_cols, ana_cols)):
            if not np.allclose(ana, num, rtol=rtol, atol=atol, equal_nan=True):
                if not raise_exception:
                    return False
                raise GradcheckError(_mismatch_message(o, i, num, ana, mode,
                                                        rtol, atol))
    return True


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    """True if backward agrees with finite differences for every input and output;
    with check_forward_ad=True, forward-mode AD (`jvp`) too; check_backward_ad=False
    skips the backward check (a Function with only a jvp).

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
    if not any(_is_tensor(x) and x.requires_grad for x in inputs):
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")
    for number, x in enumerate(x for x in inputs if _is_tensor(x) and x.requires_grad):
        if x.dtype.name != "float64":
            warnings.warn(
                f"Input #{number} requires gradient and is not a double precision floating "
                "point or complex. This check will likely fail if all the inputs are not of "
                "double precision floating point or complex. ", UserWarning, stacklevel=2)
    numerical = [j for j in _numerical_jacobians(func, inputs, eps) if j is not None]
    if check_backward_ad and not _compare(numerical, _analytical_jacobians(func, inputs),
                                          rtol, atol, raise_exception):
        return False
    if check_forward_ad:
        return _compare(numerical, _forward_ad_jacobians(func, inputs),
                        rtol, atol, raise_exception, "computed with forward mode ")
    return True


def _mismatch_message(output_index, input_index, numerical, analytical, mode="",
                      rtol=1e-3, atol=1e-5):
    from ..creation import tensor
    bad = np.argwhere(~np.isclose(analytical, numerical, rtol=rtol, atol=atol, equal_nan=True))
    row, column = bad[0]
    method = "jvp (forward mode)" if mode else "backward"
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
    """gradcheck of the gradient itself: checks backward of backward (create_graph=True)."""
    from ..creation import randn
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
                     raise_exception=raise_exception)
