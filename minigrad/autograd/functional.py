"""torch.autograd.functional: Jacobians, Hessians and their products with a
vector, built on `autograd.grad`, step for step as PyTorch builds them (the same
checks, in the same order, with the same messages).

`inputs` is a tensor or a tuple of tensors; so is what `func` returns, and the
results follow the same structure, as in PyTorch.  Each function works on
fresh copies of the inputs that require grad; with `create_graph=False` the
results are detached, with `create_graph=True` they can be differentiated again.
Inputs the output does not depend on get zero gradients (`strict=True` raises).
PyTorch's `vectorize=True` computes the rows of a Jacobian in one batched call (vmap);
minigrad computes them one by one: the same numbers.

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
from . import forward_ad as fwAD
from . import tensor_door
from .api import grad as _grad
from .functional_messages import INDEPENDENT, NOT_DIFFERENTIABLE
from .grad_mode import enable_grad, is_grad_enabled, set_grad_enabled

__all__ = ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"]


# --- the steps every function is made of ---------------------------------------------

def _as_tuple(value, arg_name, fn_name):
    """(whether `value` was a tuple, tuple of tensors), checking it holds only tensors."""
    is_tuple = isinstance(value, tuple)            # (a list is refused, as in PyTorch)
    values = value if is_tuple else (value,)
    for index, item in enumerate(values):
        if not isinstance(item, tensor_door.Tensor):
            which = f"value at index {index}" if is_tuple else f"given {arg_name}"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a "
                            f"tuple of Tensors but the {which} has type {type(item)}.")
    return is_tuple, values


def _untuple(values, is_tuple):
    return values if is_tuple else values[0]


def _grad_preprocess(inputs, create_graph, need_graph):
    """Inputs that require grad: views of the originals when the result must stay in
    their graph (create_graph), else detached copies."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad
                 else x.detach().requires_grad_(need_graph) for x in inputs)


def _grad_postprocess(values, create_graph):
    """Detach the results unless they are to be differentiated again."""
    if values and not isinstance(values[0], tensor_door.Tensor):      # a tuple of tuples
        return tuple(_grad_postprocess(v, create_graph) for v in values)
    return tuple(v if create_graph else v.detach() for v in values)


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but "
                               f"got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for index, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {index} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but "
                               f"got {el_v.size()}.")


def _prepare_v(v, other, is_other_tuple, create_graph, fn_name, of):
    """The vector of a product: checked, or None (allowed for a single element)."""
    if v is not None:
        v = _grad_preprocess(_as_tuple(v, "v", fn_name)[1], create_graph, need_graph=False)
        _validate_v(v, other, is_other_tuple)
        return v
    if len(other) != 1 or other[0].numel() != 1:
        raise RuntimeError(f"The vector v can only be None if {of} a single Tensor with a "
                           "single element.")
    return None


def _check_requires_grad(values, kind, strict):
    """strict=True: each of `values` (outputs, gradients ...) must depend on the inputs."""
    if not strict:
        return
    for i, value in enumerate(values):
        if value is None:
            raise RuntimeError(f"The output of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode.")
        if not value.requires_grad:
            raise RuntimeError(NOT_DIFFERENTIABLE[kind].format(i=i))


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """autograd.grad over the outputs that require grad; None for an unused input."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, gs = zip(*pairs)
    return _grad(outs, inputs, gs, allow_unused=True, create_graph=create_graph,
                 retain_graph=retain_graph)


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    """Zeros for the gradients autograd.grad left None; strict=True refuses them, and
    (with create_graph) gradients that do not depend on the inputs."""
    from ..creation import zeros_like
    result = ()
    for i, grad in enumerate(grads):
        if grad is None:
            if strict:
                raise RuntimeError(INDEPENDENT[stage].format(i=i))
            grad = zeros_like(refs[i])
        elif strict and create_graph and not grad.requires_grad:
            which = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {which} of the user-provided function is independent of "
                               f"input {i}. This is not allowed in strict mode when "
                               "create_graph=True.")
        result += (grad,)
    return result


def _call(func, inputs, fn_name, strict):
    is_tuple, outputs = _as_tuple(func(*inputs), "outputs of the user-provided function",
                                  fn_name)
    _check_requires_grad(outputs, "outputs", strict)
    return is_tuple, outputs


# --- the products ----------------------------------------------------------------------

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
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = _call(func, inputs, "vjp", strict)
        v = _prepare_v(v, outputs, is_outputs_tuple, create_graph, "vjp",
                       "the user-provided function returns")
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grads = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grads, inputs, strict, create_graph, "back")
    return (_untuple(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _untuple(_grad_postprocess(result, create_graph), is_inputs_tuple))


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
    from ..creation import zeros_like
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, "jvp",
                       "the input to the user-provided function is")
        is_outputs_tuple, outputs = _call(func, inputs, "jvp", strict)
        grad_outputs = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        grads = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grads, outputs, strict, create_graph, "back_trick")
    return (_untuple(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _untuple(_grad_postprocess(result, create_graph), is_outputs_tuple))


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
    from ..creation import zeros_like
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, fn_name,
                       "the input to the user-provided function is")
        is_outputs_tuple, outputs = _call(func, inputs, fn_name, strict)
        _check_single_element(is_outputs_tuple, outputs[0], fn_name)
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        if fn_name == "hvp":
            grad_jac = tuple(zeros_like(x, requires_grad=True) for x in inputs)
            double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)  # Hᵀ·u
            _check_requires_grad(jac, "hessian", strict)
    with set_grad_enabled(True if create_graph else is_grad_enabled()):
        if fn_name == "hvp":
            grads = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
            result = _fill_in_zeros(grads, inputs, strict, create_graph, "double_back_trick")
        else:
            grads = _autograd_grad(jac, inputs, v, create_graph=create_graph)
            result = _fill_in_zeros(grads, inputs, strict, create_graph, "double_back")
    return (_untuple(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _untuple(_grad_postprocess(result, create_graph), is_inputs_tuple))


def _check_single_element(is_tuple, output, fn_name):
    """hessian, vhp and hvp differentiate a function with one output of one element."""
    if is_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if output.numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should "
                           "contain a single element")


# --- whole Jacobians and Hessians ------------------------------------------------------

def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False,
             strategy="reverse-mode"):
    """The Jacobian of `func` at `inputs`: shape output.shape + input.shape for each
    (output, input) pair; one backward pass per output element (reverse mode), or one
    forward-mode pass per input element (strategy="forward-mode", vectorize=True).

    Example::

        >>> import minigrad as torch
        >>> torch.autograd.functional.jacobian(lambda x: 3 * x, torch.ones(2))
        tensor([[3., 0.],
                [0., 3.]])
    """
    from ..functions import stack
    from ..creation import zeros_like
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either '
                'set `create_graph=False` or `strategy="reverse-mode"`.')
        return _jacfwd(func, inputs, strict, vectorize)
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph, need_graph=True)
        is_outputs_tuple, outputs = _call(func, inputs, "jacobian", strict)
        if vectorize and strict:
            raise RuntimeError(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or "
                "`vectorize=False`.")
        jacobian = ()
        for i, out in enumerate(outputs):
            rows = tuple([] for _ in inputs)          # one list of rows per input
            for j in range(out.numel()):
                vj = _autograd_grad((out.reshape(-1)[j],), inputs, retain_graph=True,
                                    create_graph=create_graph)
                for k, (row, grad, x) in enumerate(zip(rows, vj, inputs)):
                    if grad is None and strict:
                        raise RuntimeError(f"Output {i} of the user-provided function is "
                                           f"independent of input {k}. This is not allowed "
                                           "in strict mode.")
                    if grad is not None and strict and create_graph and not grad.requires_grad:
                        raise RuntimeError("The jacobian of the user-provided function is "
                                           f"independent of input {i}. This is not allowed "
                                           "in strict mode when create_graph=True.")
                    row.append(zeros_like(x) if grad is None else grad)
            jacobian += (tuple(_stacked(stack, row, out, x) for row, x in zip(rows, inputs)),)
        jacobian = _grad_postprocess(jacobian, create_graph)
    return _untuple(tuple(_untuple(j, is_inputs_tuple) for j in jacobian), is_outputs_tuple)


def _stacked(stack, rows, output, x):
    """One row per output element, each shaped like x, into output.shape + x.shape."""
    from ..creation import zeros
    if not rows:
        return zeros(tuple(output.shape) + tuple(x.shape), dtype=x.dtype, device=x.device)
    return stack(rows, dim=0).view(tuple(output.shape) + tuple(x.shape))


def _jacfwd(func, inputs, strict, vectorize):
    """The Jacobian in forward mode: the tangent of the outputs for each input element
    made 1 in turn (PyTorch runs them as one batch, with vmap)."""
    from ..functions import stack
    from ..creation import zeros_like
    if strict:
        raise RuntimeError(
            "torch.autograd.functional.jacobian: `strict=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please either set '
            '`strict=False` or `strategy="reverse-mode"`.')
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise NotImplementedError(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly "
            "implemented for `vectorize=True`.")
    columns, is_outputs_tuple, outputs = [], False, ()
    for k, x in enumerate(inputs):
        for e in range(x.numel()):
            with fwAD.dual_level():
                duals = tuple(fwAD.make_dual(y, _basis(y, e) if m == k else zeros_like(y))
                              for m, y in enumerate(inputs))
                is_outputs_tuple, results = _as_tuple(func(*duals), "outputs", "jacobian")
                unpacked = [fwAD.unpack_dual(r) for r in results]
            outputs = tuple(u.primal for u in unpacked)
            columns.append((k, tuple(zeros_like(u.primal) if u.tangent is None else u.tangent
                                     for u in unpacked)))
    jacobian = [                               # (lists, not tuples: as PyTorch's)
        [stack([col[i] for m, col in columns if m == k], dim=-1).reshape(
            tuple(out.shape) + tuple(x.shape)) for k, x in enumerate(inputs)]
        for i, out in enumerate(outputs)]
    return _untuple([_untuple(j, is_inputs_tuple) for j in jacobian], is_outputs_tuple)


def _basis(x, index):
    """A tensor like x, 1 at flat position `index`, 0 elsewhere."""
    from ..creation import zeros
    e = zeros(x.numel(), dtype=x.dtype, device=x.device)
    e[index] = 1
    return e.view(x.shape)


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
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def ensure_single_output_function(*xs):
        is_tuple, outputs = _call(func, xs, "hessian", strict)
        _check_single_element(is_tuple, outputs[0], "hessian")
        return outputs[0].squeeze()

    def jac_func(*xs):
        if outer_jacobian_strategy == "forward-mode":
            xs = tuple(t.requires_grad_(True) for t in xs)
        jac = jacobian(ensure_single_output_function, xs, create_graph=True)   # a tuple
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    result = jacobian(jac_func, inputs, create_graph=create_graph,
                      strict=strict, vectorize=vectorize, strategy=outer_jacobian_strategy)
    if not is_inputs_tuple:
        return result[0][0]
    return result
