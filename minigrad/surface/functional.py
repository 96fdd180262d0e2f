"""torch.autograd.functional: Jacobians, Hessians and their products with a
vector, built on `autograd.grad` (reverse mode only: one backward per output
element for a Jacobian, no vectorization).

`inputs` is a tensor or a tuple of tensors; so is what `func` returns, and the
results follow the same structure, as in PyTorch.  Each function works on
fresh copies of the inputs that require grad; with `create_graph=False` the
results are detached, with `create_graph=True` they can be differentiated again.
Inputs the output does not depend on get zero gradients (`strict=True` raises).

Example::

    >>> import minigrad as torch
    >>> def exp_reducer(x):
    ...     return x.exp().sum(dim=1)
    >>> torch.autograd.functional.jacobian(exp_reducer, torch.tensor([[0.0, 1.0]]))
    tensor([[[1.0000, 2.7183]]])
    >>> torch.autograd.functional.hessian(lambda x: x.pow(3).sum(), torch.tensor([1.0, 2.0]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
"""
from ..core.grad_mode import enable_grad
from .api import grad as _grad
from .creation import ones_like, zeros, zeros_like
from .functions_shape import stack

__all__ = ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"]


def _as_tuple(value, arg_name, fn_name):
    """(tuple of tensors, whether `value` was a tuple), checking it holds only tensors."""
    is_tuple = isinstance(value, tuple)            # (a list is refused, as in PyTorch)
    values = value if is_tuple else (value,)
    for index, item in enumerate(values):
        if not getattr(item, "_is_minigrad_tensor", False):
            which = f"value at index {index}" if is_tuple else f"given {arg_name}"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                            f"tuple of Tensors but the {which} has type {type(item)}.")
    return values, is_tuple


def _untuple(values, is_tuple):
    return values if is_tuple else values[0]


def _prepare(inputs, create_graph):
    """Inputs that require grad: views of the originals when the result must stay in
    their graph (create_graph), else detached copies."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad
                 else x.detach().requires_grad_(True) for x in inputs)


def _finish(values, create_graph):
    """Detach the results unless they are to be differentiated again."""
    return tuple(v if create_graph or v is None else v.detach() for v in values)


def _grads(outputs, inputs, grad_outputs, create_graph, strict, fn_name):
    """autograd.grad of `outputs` w.r.t. `inputs`, with zeros for unused inputs."""
    differentiable = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    if differentiable:
        outs, gs = zip(*differentiable)
        found = _grad(outs, inputs, gs, retain_graph=True, create_graph=create_graph,
                      allow_unused=True)
    else:
        found = (None,) * len(inputs)
    if strict and any(g is None for g in found):
        index = next(i for i, g in enumerate(found) if g is None)
        raise RuntimeError(f"The output of the user-provided function is independent of "
                           f"input {index}. This is not allowed in strict mode.")
    return tuple(zeros_like(x) if g is None else g for g, x in zip(found, inputs))


def _call(func, inputs, fn_name):
    outputs, is_tuple = _as_tuple(func(*inputs), "outputs of the user-provided function",
                                  fn_name)
    return outputs, is_tuple


def _check_v(v, outputs, fn_name, what="outputs"):
    """The vector v of a product: given, or implied (ones) for a single element."""
    if v is None:
        if len(outputs) != 1 or outputs[0].numel() != 1:
            raise RuntimeError(f"The vector v can only be None if the {what} of the "
                               "user-provided function is a single Tensor with a single "
                               "element.")
        return (ones_like(outputs[0]),)
    v, _ = _as_tuple(v, "v", fn_name)
    if len(v) != len(outputs) or any(a.shape != b.shape for a, b in zip(v, outputs)):
        raise RuntimeError(f"v has invalid size: it should match the {what} of the "
                           f"user-provided function.")
    return v


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), vᵀ·J): the vector-Jacobian product, one backward pass.

    Example::

        >>> import minigrad as torch
        >>> out, g = torch.autograd.functional.vjp(lambda x: 2 * x, torch.ones(2),
        ...                                        torch.tensor([1.0, 3.0]))
        >>> g
        tensor([2., 6.])
    """
    with enable_grad():
        inputs, inputs_tuple = _as_tuple(inputs, "inputs", "vjp")
        inputs = _prepare(inputs, create_graph)
        outputs, outputs_tuple = _call(func, inputs, "vjp")
        v = _check_v(v, outputs, "vjp")
        result = _grads(outputs, inputs, v, create_graph, strict, "vjp")
    return (_untuple(_finish(outputs, create_graph), outputs_tuple),
            _untuple(_finish(result, create_graph), inputs_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J·v): the Jacobian-vector product, by the double-backward trick
    (u ↦ uᵀJ is linear in u; its gradient w.r.t. u, applied to v, is J·v).

    Example::

        >>> import minigrad as torch
        >>> out, t = torch.autograd.functional.jvp(lambda x: x ** 2, torch.tensor([1.0, 2.0]),
        ...                                        torch.ones(2))
        >>> t
        tensor([2., 4.])
    """
    with enable_grad():
        inputs, inputs_tuple = _as_tuple(inputs, "inputs", "jvp")
        inputs = _prepare(inputs, create_graph)
        v = _check_v(v, inputs, "jvp", what="inputs")
        outputs, outputs_tuple = _call(func, inputs, "jvp")
        dummies = tuple(zeros_like(o).requires_grad_(True) for o in outputs)
        grads = _grads(outputs, inputs, dummies, True, strict, "jvp")
        result = _grads(grads, dummies, v, create_graph, strict, "jvp")
    return (_untuple(_finish(outputs, create_graph), outputs_tuple),
            _untuple(_finish(result, create_graph), outputs_tuple))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of `func` at `inputs`: shape output.shape + input.shape for each
    (output, input) pair; one backward pass per output element.

    Example::

        >>> import minigrad as torch
        >>> torch.autograd.functional.jacobian(lambda x: 3 * x, torch.ones(2))
        tensor([[3., 0.],
                [0., 3.]])
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly "
            "implemented for `vectorize=True`." if not vectorize else
            "minigrad: jacobian supports only strategy='reverse-mode'")
    with enable_grad():
        inputs, inputs_tuple = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _prepare(inputs, create_graph)
        outputs, outputs_tuple = _call(func, inputs, "jacobian")
        jacobians = []
        for output in outputs:
            flat = output.reshape(-1)
            rows = [_grads((flat[i],), inputs, (None,), create_graph, strict, "jacobian")
                    for i in range(flat.numel())]
            jacobians.append(tuple(
                _finish((_stack_rows(stack, [row[k] for row in rows], output, x),),
                        create_graph)[0]
                for k, x in enumerate(inputs)))
    if not outputs_tuple:
        return _untuple(jacobians[0], inputs_tuple)
    return tuple(_untuple(j, inputs_tuple) for j in jacobians)


def _stack_rows(stack, rows, output, x):
    """One row per output element, each shaped like x, into output.shape + x.shape."""
    if not rows:
        return zeros(tuple(output.shape) + tuple(x.shape), dtype=x.dtype, device=x.device)
    return stack(rows).reshape(tuple(output.shape) + tuple(x.shape))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a function with a single-element output: the Jacobian of its
    gradient.  For a tuple of inputs, a tuple of tuples (one block per input pair).

    Example::

        >>> import minigrad as torch
        >>> torch.autograd.functional.hessian(lambda x: (x ** 2).sum(), torch.ones(2))
        tensor([[2., 0.],
                [0., 2.]])
    """
    inputs, inputs_tuple = _as_tuple(inputs, "inputs", "hessian")

    def gradient(*xs):
        outputs, _ = _call(func, xs, "hessian")
        _check_single_element(outputs, "hessian")
        scalar = outputs[0].reshape(())
        return _grads((scalar,), xs, (None,), True, strict, "hessian")

    result = jacobian(gradient, _untuple(inputs, inputs_tuple), create_graph=create_graph,
                      strict=strict, vectorize=vectorize, strategy=outer_jacobian_strategy)
    return result if inputs_tuple else result[0]


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), vᵀ·H) for a function with a single-element output.

    Example::

        >>> import minigrad as torch
        >>> out, h = torch.autograd.functional.vhp(lambda x: x.pow(3).sum(),
        ...                                        torch.tensor([1.0, 2.0]), torch.ones(2))
        >>> h
        tensor([ 6., 12.])
    """
    return _hessian_product(func, inputs, v, create_graph, strict, "vhp")


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H·v) for a function with a single-element output.  PyTorch's
    double-backward trick: u ↦ Hᵀ·u is linear in u, so its vjp with v is H·v (this
    differs from vhp only where H is not symmetric: a custom backward's)."""
    return _hessian_product(func, inputs, v, create_graph, strict, "hvp")


def _hessian_product(func, inputs, v, create_graph, strict, fn_name):
    with enable_grad():
        inputs, inputs_tuple = _as_tuple(inputs, "inputs", fn_name)
        inputs = _prepare(inputs, create_graph)
        v = _check_v(v, inputs, fn_name, what="inputs")
        outputs, _ = _call(func, inputs, fn_name)
        _check_single_element(outputs, fn_name)
        gradient = _grads(outputs, inputs, (None,), True, strict, fn_name)
        if fn_name == "hvp":
            u = tuple(zeros_like(x).requires_grad_() for x in inputs)
            transposed = _grads(gradient, inputs, u, True, strict, fn_name)     # Hᵀ·u
            result = _grads(transposed, u, v, create_graph, strict, fn_name)
        else:
            result = _grads(gradient, inputs, v, create_graph, strict, fn_name)
    return (_finish(outputs, create_graph)[0], _untuple(_finish(result, create_graph),
                                                        inputs_tuple))


def _check_single_element(outputs, fn_name):
    """hessian, vhp and hvp differentiate a function with one output of one element."""
    if len(outputs) != 1:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should "
                           "contain a single element")
