"""`backward()` and `grad()`: check the arguments, then run the engine."""
import operator
import warnings
from collections.abc import Mapping

from .. import dtypes, settings
from . import tensor_door
from .engine import run_backward
from .saved_tensor import _saved_tensors_hooks_stack


def _as_tuple(values):
    """One tensor, or a sequence of them, as a tuple (PyTorch's TypeError for a number)."""
    if values is None:
        return None
    if getattr(values, "_is_minigrad_tensor", False):
        return (values,)
    return tuple(values)                   # 2.0: "'float' object is not iterable"


def _tensors(values):
    """outputs or inputs as a tuple: one tensor, or a sequence (tuple(None) raises)."""
    return (values,) if getattr(values, "_is_minigrad_tensor", False) else tuple(values)


def _check_inputs(inputs, function):
    if not inputs:
        raise RuntimeError(f"`inputs` argument to `{function}()` cannot be empty.")
    for value in inputs:
        if not getattr(value, "_is_minigrad_tensor", False):
            raise RuntimeError("all inputs have to be Tensors or GradientEdges, but got "
                               f"{dtypes.type_name(value)}")


def _roots(outputs, grad_outputs):
    """Pair each output's graph edge with its starting gradient (ones for a scalar)."""
    grad_outputs = (None,) * len(outputs) if grad_outputs is None else grad_outputs
    for output, grad in zip(outputs, grad_outputs):
        if not getattr(output, "_is_minigrad_tensor", False):
            raise AssertionError("Expected output to be a torch.Tensor")     # (PyTorch's assert)
        if grad is not None and not getattr(grad, "_is_minigrad_tensor", False):
            raise TypeError(f"gradients can be either Tensors or None, but got "
                            f"{type(grad).__name__}")
    grad_outputs = grad_outputs[:len(outputs)]        # (more gradients than outputs: ignored)
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grad_outputs)} gradients. "
                           "minigrad hint: give one gradient per output (None for a scalar).")
    roots = []
    for index, (output, grad) in enumerate(zip(outputs, grad_outputs)):
        if output._gradient_edge()[0] is None:     # (also a view made under no_grad)
            raise RuntimeError(
                f"element {index} of tensors does not require grad and does not have a grad_fn. "
                "minigrad hint: nothing was recorded for this tensor; give a leaf "
                "requires_grad=True, and check that the computation did not run under "
                "torch.no_grad() or through .detach().")
        if grad is None:
            if output.numel() != 1:
                raise RuntimeError(
                    "grad can be implicitly created only for scalar outputs. minigrad hint: "
                    "call .sum() first, or pass the gradient of the output, e.g. "
                    "y.backward(torch.ones_like(y)).")
            grad = tensor_door.ones_like(output)
        elif grad.shape != output.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{index}] has a shape of {grad.shape!r} and "
                f"output[{index}] has a shape of {output.shape!r}.")
        roots.append((output._gradient_edge(), grad))
    return roots


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate into `.grad` of the leaves the gradients of `tensors`.

    Example::

        >>> import minigrad as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> torch.autograd.backward([(x * x).sum()])
        >>> x.grad
        tensor([2., 4.])
    """
    tensors = _tensors(tensors)
    _check_flags(retain_graph, create_graph)
    roots = _roots(tensors, _as_tuple(grad_tensors))
    if create_graph and (settings.warn_always or not _warned_create_graph):
        _warn_create_graph()
    if retain_graph is None:
        retain_graph = create_graph
    capture = None
    if inputs is not None:
        inputs = _as_tuple(inputs)
        _check_inputs(inputs, "backward")
        for tensor in inputs:
            if not tensor.requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        for tensor in inputs:              # as PyTorch: a non-leaf input retains its grad
            if not tensor.is_leaf:
                tensor.retain_grad()
        # Only the nodes on the way to the inputs run; a leaf's AccumulateGrad runs as in a
        # plain backward (its hooks too), a non-leaf's gradient is kept by retain_grad.
        capture = {t._gradient_edge(): i for i, t in enumerate(inputs)}
    hooks = list(_saved_tensors_hooks_stack)   # NOTE [saved tensors hooks in backward]
    try:
        run_backward(roots, retain_graph, create_graph, capture=capture)
    finally:
        _saved_tensors_hooks_stack[:] = hooks


# NOTE [saved tensors hooks in backward]: a hook may enter or leave saved_tensors_hooks
# while backward runs; as in PyTorch (whose engine runs on a copy of the thread's hooks),
# that lasts until the backward ends: the hooks in force when it started are put back.


_warned_create_graph = False


def _warn_create_graph():
    """PyTorch's warning, given once per process as PyTorch gives it (every time with
    torch.set_warn_always(True))."""
    global _warned_create_graph
    _warned_create_graph = True
    warnings.warn(
        "Using backward() with create_graph=True will create a reference cycle between the "
        "parameter and its gradient which can cause a memory leak. We recommend using "
        "autograd.grad when creating the graph to avoid this. If you have to use this "
        "function, make sure to reset the .grad fields of your parameters to None after use "
        "to break the cycle and avoid the leak.", UserWarning, stacklevel=3)


def _check_flags(*flags):
    """retain_graph, create_graph, allow_unused as PyTorch's engine takes them (a C
    unsigned char): True, False, None or an integer from 0 to 255."""
    for flag in flags:
        if flag is not None and not isinstance(flag, bool):
            number = operator.index(flag)       # 'float' object cannot be interpreted ...
            if number < 0:
                raise OverflowError("unsigned byte integer is less than minimum")
            if number > 255:
                raise OverflowError("unsigned byte integer is greater than maximum")


def _keys_and_inputs(inputs, only_inputs):
    """grad's `inputs` as a dict gives the keys of its results; only_inputs=False warns."""
    keys = None
    if type(inputs) is dict:
        keys, inputs = list(inputs), tuple(inputs.values())
    elif isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `grad()` must be a dict, not "
                        f"{type(inputs).__name__}. Other Mapping types are not supported.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to "
                      "True). To accumulate gradient for other parts of the graph, please use "
                      "torch.autograd.backward.", FutureWarning, stacklevel=3)
    return keys, inputs


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Return the gradients of `outputs` w.r.t. `inputs` (without touching `.grad`).

    Example::

        >>> import minigrad as torch
        >>> x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        >>> (g,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
        >>> g
        tensor([ 3., 12., 27.], grad_fn=<MulBackward0>)

    `inputs` may be a dict of tensors: the gradients come back in a dict with its keys.
    `only_inputs` is PyTorch's deprecated argument, ignored (it warns when False).
    """
    keys, inputs = _keys_and_inputs(inputs, only_inputs)
    _check_flags(retain_graph, create_graph, allow_unused)
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph,
                             allow_unused, materialize_grads)
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         f"materialize_grads=True, but got: allow_unused={allow_unused}.")
    outputs, inputs = _tensors(outputs), _tensors(inputs)
    _check_inputs(inputs, "grad")
    if allow_unused is None:
        allow_unused = materialize_grads
    for tensor in inputs:
        if not tensor.requires_grad:
            raise RuntimeError(
                "One of the differentiated Tensors does not require grad. minigrad hint: "
                "autograd.grad can only differentiate with respect to tensors created with "
                "requires_grad=True (or computed from them).")
    roots = _roots(outputs, _as_tuple(grad_outputs))
    if retain_graph is None:
        retain_graph = create_graph
    edges = [t._gradient_edge() for t in inputs]
    hooks = list(_saved_tensors_hooks_stack)   # NOTE [saved tensors hooks in backward]
    try:
        captured = run_backward(roots, retain_graph, create_graph,
                                capture=set(edges), accumulate=False)
    finally:
        _saved_tensors_hooks_stack[:] = hooks
    results = []
    for index, (tensor, edge) in enumerate(zip(inputs, edges)):
        grad_value = captured.get(edge)
        if grad_value is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {index} appears to not have been used "
                    "in the graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:           # (with create_graph: zeros that require grad)
                grad_value = tensor_door.zeros(tensor.shape, tensor.dtype, tensor.device)
                grad_value.requires_grad_(create_graph)
        results.append(grad_value)
    return tuple(results) if keys is None else dict(zip(keys, results))


def _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused,
                  materialize_grads):
    """grad(..., is_grads_batched=True): the first dim of every grad_output counts separate
    backward passes, and each gradient gains that dim.  PyTorch runs them as one (vmap);
    here they run one after the other, the graph kept until the last."""
    outputs, grad_outputs = _as_tuple(outputs), _as_tuple(grad_outputs) or ()
    for index, (output, grad_output) in enumerate(zip(outputs, grad_outputs)):
        if grad_output is not None and (grad_output.ndim == 0
                                        or grad_output.shape[1:] != output.shape):
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each "
                "grad_output as the batch dimension. The sizes of the remaining dimensions "
                "are expected to match the shape of corresponding output, but a mismatch was "
                f"detected: grad_output[{index}] has a shape of {grad_output.shape[1:]!r} and "
                f"output[{index}] has a shape of {output.shape!r}. If you only want some "
                "tensors in `grad_output` to be considered batched, consider using vmap.")
    batch = next((g.shape[0] for g in grad_outputs if g is not None), None)
    if batch is None:
        raise ValueError("is_grads_batched=True needs grad_outputs whose first dimension is "
                         "the batch dimension. minigrad hint: pass one per output, e.g. "
                         "torch.eye(n) for the rows of a Jacobian.")
    keep = create_graph if retain_graph is None else retain_graph
    passes = [grad(outputs, inputs, [None if g is None else g[b] for g in grad_outputs],
                   retain_graph=keep or b < batch - 1, create_graph=create_graph,
                   allow_unused=allow_unused, materialize_grads=materialize_grads)
              for b in range(batch)]
    return tuple(None if per_pass[0] is None else tensor_door.stack(0, *per_pass)
                 for per_pass in zip(*passes))
