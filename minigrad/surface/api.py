"""`torch.autograd.backward()` and `torch.autograd.grad()`: their arguments as PyTorch
takes them, then the core's engine (minigrad/core/graph.py)."""
import warnings
from collections.abc import Mapping

from ..core import graph
from ..core.tensor import TensorBase
from ..ops.combine import Stack
from . import dtypes


def _as_tuple(values):
    """One tensor, or a sequence of them, as a tuple (PyTorch's TypeError for a number)."""
    if values is None:
        return None
    if isinstance(values, TensorBase):
        return (values,)
    return tuple(values)                   # 2.0: "'float' object is not iterable"


def _tensors(values):
    """outputs or inputs as a tuple: one tensor, or a sequence (tuple(None) raises)."""
    return (values,) if isinstance(values, TensorBase) else tuple(values)


def _check_tensors(outputs, inputs):
    """PyTorch's checks of what backward and grad start from and differentiate to."""
    for output in outputs:
        if not isinstance(output, TensorBase):
            raise AssertionError("Expected output to be a torch.Tensor")     # (PyTorch's assert)
    for value in inputs or ():
        if not isinstance(value, TensorBase):
            raise RuntimeError("all inputs have to be Tensors or GradientEdges, but got "
                               f"{dtypes.type_name(value)}")


def _grads_for(outputs, grad_outputs):
    """One starting gradient per output: more gradients than outputs are ignored."""
    return None if grad_outputs is None else grad_outputs[:len(outputs)]


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


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate into `.grad` of the leaves the gradients of `tensors`.

    Example::

        >>> import minigrad as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> torch.autograd.backward([(x * x).sum()])
        >>> x.grad
        tensor([2., 4.])
    """
    tensors, inputs = _tensors(tensors), _as_tuple(inputs)
    graph.check_flags(retain_graph, create_graph)
    _check_tensors(tensors, inputs)
    graph.backward(tensors, _grads_for(tensors, _as_tuple(grad_tensors)), retain_graph,
                   create_graph, inputs)


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
    graph.check_flags(retain_graph, create_graph, allow_unused)
    if is_grads_batched:
        return _batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph,
                             allow_unused, materialize_grads)
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         f"materialize_grads=True, but got: allow_unused={allow_unused}.")
    outputs, inputs = _tensors(outputs), _tensors(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    _check_tensors(outputs, inputs)
    if allow_unused is None:
        allow_unused = materialize_grads
    for tensor in inputs:
        if not tensor.requires_grad:
            raise RuntimeError(
                "One of the differentiated Tensors does not require grad. minigrad hint: "
                "autograd.grad can only differentiate with respect to tensors created with "
                "requires_grad=True (or computed from them).")
    edges = [t._gradient_edge() for t in inputs]
    captured = graph.backward(outputs, _grads_for(outputs, _as_tuple(grad_outputs)),
                              retain_graph, create_graph,
                              capture=set(edges), accumulate=False)
    results = []
    for index, (tensor, edge) in enumerate(zip(inputs, edges)):
        grad_value = captured.get(edge)
        if grad_value is None:
            if not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {index} appears to not have been used "
                    "in the graph. Set allow_unused=True if this is the desired behavior.")
            if materialize_grads:           # (with create_graph: zeros that require grad)
                grad_value = graph.made_by_the_engine(
                    tensor._new(tensor._xp.zeros_like(tensor._data)))
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
    return tuple(None if per_pass[0] is None else Stack.apply(0, *per_pass)
                 for per_pass in zip(*passes))
