"""Matrix products.  `a @ b` picks one by the operands' dimensions, as PyTorch does."""
from ..dtypes import legacy_name
from .builtin import BuiltinFunction
from .arithmetic import check_shapes_broadcast
from .shape import expanded_shape
from ._unrecorded import nothing_recorded

# PyTorch's C++ names for dtypes, as its mm error prints them ("double != float").
_C_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
            "bool": "bool", "float16": "c10::Half"}


def _check_same_dtype(a, b, kind="mm"):
    """PyTorch's refusal to multiply two dtypes (each of mm, mv and dot words it its own
    way), or bools (no CPU kernel)."""
    if a.dtype is b.dtype:
        if a.dtype.name == "bool":
            kernel = {"mm": "addmm_impl_cpu_", "mv": "addmv_impl_cpu", "dot": "dot"}[kind]
            raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
        return
    if kind == "mv":
        raise RuntimeError("addmv input tensors must have the same dtype, but got "
                           f"{legacy_name(b.dtype)}, {legacy_name(a.dtype)}, and {legacy_name(b.dtype)}")
    if kind == "dot":
        raise RuntimeError("dot : expected both vectors to have same dtype, but found "
                           f"{legacy_name(a.dtype)} and {legacy_name(b.dtype)}")
    names = [_C_NAMES.get(t.dtype.name, t.dtype.name) for t in (a, b)]
    raise RuntimeError(
        f"expected m1 and m2 to have the same dtype, but got: {names[0]} != {names[1]}")


class Mm(BuiltinFunction):
    """out = A @ B (matrices);  dA = g @ Bᵀ,  dB = Aᵀ @ g."""

    node_name = "MmBackward0"
    device_check = ("wrapper_CUDA_mm", ("self", "mat2"))

    @staticmethod
    def forward(ctx, a, b):
        for name, t in (("self", a), ("mat2", b)):
            if t.ndim != 2:
                raise RuntimeError(f"{name} must be a matrix")
        _check_same_dtype(a, b)
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} "
                f"and {b.shape[0]}x{b.shape[1]})")
        ctx.save_for_backward(b if ctx.needs_input_grad[0] else None,    # (PyTorch's order:
                              a if ctx.needs_input_grad[1] else None)    # mat2, then self)
        return a._new(a._data @ b._data)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        if nothing_recorded():      # NOTE [backward on arrays]: no t(), no mm()
            g = grad._data
            return (grad._new(g @ b._data.T) if b is not None else None,
                    grad._new(a._data.T @ g) if a is not None else None)
        grad_a = grad.mm(b.t()) if b is not None else None      # (mm: no dispatch on ndim)
        grad_b = a.t().mm(grad) if a is not None else None
        return grad_a, grad_b


class Addmm(BuiltinFunction):
    """out = beta * bias + alpha * (A @ B) (bias broadcast to the product's shape);
    dbias = beta * g summed to bias's shape,  dA = alpha * g @ Bᵀ,  dB = alpha * Aᵀ @ g.
    F.linear's node for a 2-d input with a bias."""

    node_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx, bias, a, b, beta, alpha):
        if bias.dtype is not b.dtype:
            raise RuntimeError("self and mat2 must have the same dtype, but got "
                               f"{legacy_name(bias.dtype)} and {legacy_name(b.dtype)}")
        for name, t in (("mat1", a), ("mat2", b)):
            if t.ndim != 2:
                raise RuntimeError(f"{name} must be a matrix, got {t.ndim}-D tensor")
        expanded_shape(bias.shape, (a.shape[0], b.shape[1]))     # (PyTorch's order of checks)
        _check_same_dtype(a, b)
        if a.shape[1] != b.shape[0]:
            raise RuntimeError(
                f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} "
                f"and {b.shape[0]}x{b.shape[1]})")
        ctx.save_for_backward(a if ctx.needs_input_grad[2] else None,    # (PyTorch's order:
                              b if ctx.needs_input_grad[1] else None)    # mat1, then mat2)
        ctx.beta, ctx.alpha, ctx.bias_shape = beta, alpha, bias.shape
        product = a._data @ b._data
        return a._new((bias._data if beta == 1 else beta * bias._data)
                      + (product if alpha == 1 else alpha * product))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad_bias = (grad * ctx.beta if ctx.beta != 1 else grad).sum_to_size(ctx.bias_shape)
        grad_a = grad.mm(b.t()) if b is not None else None
        grad_b = a.t().mm(grad) if a is not None else None
        if ctx.alpha != 1:
            grad_a, grad_b = (None if g is None else g * ctx.alpha for g in (grad_a, grad_b))
        return grad_bias, grad_a, grad_b, None, None


class Cross(BuiltinFunction):
    """out = a × b along `dim` (a dim of size 3; a and b broadcast);
    da = b × g,  db = g × a (each summed to its input's shape)."""

    node_name = "LinalgCrossBackward0"

    @staticmethod
    def forward(ctx, a, b, dim):
        if a.ndim != b.ndim:
            raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
        check_shapes_broadcast(a.shape, b.shape)
        ndim = max(a.ndim, b.ndim)
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of "
                             f"[{-ndim}, {ndim - 1}], but got {dim})")
        size = a._xp.broadcast_shapes(a.shape, b.shape)[dim]
        if size != 3:
            raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                               f"{a.shape[dim] if a.ndim > abs(dim) else 1} and "
                               f"{b.shape[dim] if b.ndim > abs(dim) else 1}")
        ctx.dim, ctx.a_shape, ctx.b_shape = dim, a.shape, b.shape
        ctx.save_for_backward(b if ctx.needs_input_grad[0] else None,
                              a if ctx.needs_input_grad[1] else None)
        return a._new(a._xp.cross(a._data, b._data, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        grad_a = Cross.apply(b, grad, ctx.dim).sum_to_size(ctx.a_shape) if b is not None else None
        grad_b = Cross.apply(grad, a, ctx.dim).sum_to_size(ctx.b_shape) if a is not None else None
        return grad_a, grad_b, None


class Mv(BuiltinFunction):
    """out = A @ v (matrix, vector);  dA = g vᵀ (outer product),  dv = Aᵀ @ g."""

    node_name = "MvBackward0"
    device_check = ("wrapper_CompositeExplicitAutograd__mv", ("self", "vec"))

    @staticmethod
    def forward(ctx, a, v):
        _check_same_dtype(a, v, "mv")
        if a.shape[1] != v.shape[0]:
            raise RuntimeError(
                f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
                f"vec ({v.shape[0]})")
        ctx.save_for_backward(a if ctx.needs_input_grad[1] else None,
                              v if ctx.needs_input_grad[0] else None)
        return a._new(a._data @ v._data)

    @staticmethod
    def backward(ctx, grad):
        a, v = ctx.saved_tensors
        grad_a = grad.unsqueeze(1) * v.unsqueeze(0) if v is not None else None
        grad_v = a.t() @ grad if a is not None else None
        return grad_a, grad_v


class Dot(BuiltinFunction):
    """out = a · b (vectors);  da = g * b,  db = g * a."""

    node_name = "DotBackward0"
    device_check = ("wrapper_CUDA__dot", ("self", "tensor"))

    @staticmethod
    def forward(ctx, a, b):
        if a.ndim != 1 or b.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
        _check_same_dtype(a, b, "dot")
        if a.shape != b.shape:
            raise RuntimeError(
                "inconsistent tensor size, expected tensor [{}] and src [{}] to have the "
                "same number of elements, but got {} and {} elements respectively".format(
                    a.shape[0], b.shape[0], a.shape[0], b.shape[0]))
        ctx.save_for_backward(b if ctx.needs_input_grad[0] else None,
                              a if ctx.needs_input_grad[1] else None)
        return a._new(a._data @ b._data)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        return (grad * b if b is not None else None,
                grad * a if a is not None else None)


class Bmm(BuiltinFunction):
    """out = A @ B over broadcast batch dims;  dA = g @ Bᵀ,  dB = Aᵀ @ g (summed to shape)."""

    node_name = "BmmBackward0"
    device_check = ("wrapper_CUDA_bmm", ("self", "mat2"))

    @staticmethod
    def forward(ctx, a, b):
        _check_same_dtype(a, b)
        if a.shape[-1] != b.shape[-2]:
            raise RuntimeError(
                f"Expected size for first two dimensions of batch2 tensor to be: "
                f"[{b.shape[0]}, {a.shape[-1]}] but got: [{b.shape[0]}, {b.shape[-2]}].")
        check_shapes_broadcast(a.shape[:-2], b.shape[:-2])     # only batch dims broadcast
        ctx.save_for_backward(b if ctx.needs_input_grad[0] else None,    # (mat2, then self)
                              a if ctx.needs_input_grad[1] else None)
        ctx.a_shape, ctx.b_shape = a.shape, b.shape
        return a._new(a._data @ b._data)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        grad_a = (grad @ b.transpose(-1, -2)).sum_to_size(ctx.a_shape) if b is not None else None
        grad_b = (a.transpose(-1, -2) @ grad).sum_to_size(ctx.b_shape) if a is not None else None
        return grad_a, grad_b


class SqueezeResult(BuiltinFunction):
    """out = x without its size-1 dim `dim`: matmul's own result, reshaped in place
    (PyTorch's squeeze_, so not a view);  dx = g with the dim put back."""

    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        out = x._new(x._data.squeeze(dim))
        out._version_counter.value = x._version_counter.value + 1   # squeeze_ writes in place
        return out

    @staticmethod
    def backward(ctx, grad):
        return grad.unsqueeze(ctx.dim), None


class UnsafeView(BuiltinFunction):
    """out = x with the shape of matmul's result (PyTorch's _unsafe_view: not tracked as
    a view);  dx = g reshaped back."""

    node_name = "UnsafeViewBackward0"

    @staticmethod
    def forward(ctx, x, shape):
        ctx.shape = x.shape
        return x._new(x._data.reshape(shape))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.shape), None


def _should_fold(a, b):
    """PyTorch folds a's batch dims into its rows (x @ W with x of 3 dims or more) when b
    requires grad, or when that needs no copy of a."""
    if b.requires_grad or a.numel() == 0:
        return True
    strides = a.stride()
    return all(strides[i] == strides[i + 1] * a.shape[i + 1] for i in range(a.ndim - 2))


def matmul(a, b):
    """Dispatch like torch.matmul: dot, mv, mm, or batched (1-d operands unsqueezed).
    Batched results come out of an UnsafeViewBackward0 node, as in PyTorch."""
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {a.ndim}D "
            f"and {b.ndim}D")
    if a.ndim == 1 and b.ndim == 1:
        return Dot.apply(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return Mv.apply(a, b)
    if a.ndim == 1 and b.ndim == 2:
        return SqueezeResult.apply(Mm.apply(a.unsqueeze(0), b), 0)
    if a.ndim == 2 and b.ndim == 2:
        return Mm.apply(a, b)
    if b.ndim <= 2 and _should_fold(a, b):     # a batch of rows times one matrix: one mm
        folded = a.reshape(-1, a.shape[-1])
        if b.ndim == 2:
            return UnsafeView.apply(Mm.apply(folded, b), a.shape[:-1] + b.shape[1:])
        return UnsafeView.apply(Mv.apply(folded, b), a.shape[:-1])
    if b.ndim == 1:
        out = Bmm.apply(a, b.unsqueeze(-1))
        return UnsafeView.apply(out, out.shape[:-1])
    if a.ndim == 1:
        out = Bmm.apply(a.unsqueeze(0), b)
        return UnsafeView.apply(out, out.shape[:-2] + out.shape[-1:])
    out = Bmm.apply(a, b)
    return UnsafeView.apply(out, out.shape)
