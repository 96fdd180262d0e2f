"""Diagonals: x.diagonal() (a view), torch.diag (a copy, or a vector laid on a diagonal)
and torch.trace (the diagonal's sum).

Diagonal `offset` of the dims (dim1, dim2) runs above the main one when offset > 0 and
below it when offset < 0; it replaces those two dims by one last dim, as numpy's does.
"""
from ..surface import dtypes
from .builtin import BuiltinFunction
from .shape import normalize_dim


def diagonal_of(data, offset, dim1, dim2):
    """numpy's (or CuPy's) diagonal view of an array; numpy's is read-only, PyTorch's may be
    written through, so it is made writable where the array is."""
    view = data.diagonal(offset, dim1, dim2)
    if not getattr(view.flags, "writeable", True) and data.flags.writeable:
        view.flags.writeable = True
    return view


def diagonal_dims(x, dim1, dim2):
    """dim1, dim2 as positive dims, refused as PyTorch refuses them."""
    dim1, dim2 = normalize_dim(dim1, x.ndim), normalize_dim(dim2, x.ndim)
    if dim1 == dim2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return dim1, dim2


class Diagonal(BuiltinFunction):
    """out = diagonal `offset` of x over (dim1, dim2) (a view);  dx = g on that diagonal
    of zeros."""

    node_name = "DiagonalBackward0"

    @staticmethod
    def forward(ctx, x, offset=0, dim1=0, dim2=1):
        ctx.shape, ctx.offset = x.shape, offset
        ctx.dims = dim1, dim2 = diagonal_dims(x, dim1, dim2)
        return x._view(diagonal_of(x._data, offset, dim1, dim2))

    @staticmethod
    def backward(ctx, grad):
        return DiagonalScatter.apply(grad, ctx.shape, ctx.offset, *ctx.dims), None, None, None


class Diag(Diagonal):
    """torch.diag of a matrix: its diagonal `offset` as a copy (PyTorch names the node
    DiagonalBackward0_copy)."""

    node_name = "DiagonalBackward0_copy"

    @staticmethod
    def forward(ctx, x, offset=0, dim1=0, dim2=1):
        return x._new(Diagonal.forward(ctx, x, offset, dim1, dim2)._data.copy())


class DiagonalScatter(BuiltinFunction):
    """out = zeros(shape) with g on diagonal `offset` of (dim1, dim2) (the backward of a
    diagonal);  dg = h's diagonal."""

    node_name = "DiagonalBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, shape, offset, dim1, dim2):
        ctx.offset, ctx.dims = offset, (dim1, dim2)
        out = grad._xp.zeros(shape, grad._data.dtype)
        diagonal_of(out, offset, dim1, dim2)[...] = grad._data
        return grad._new(out)

    @staticmethod
    def backward(ctx, h):
        return Diagonal.apply(h, ctx.offset, *ctx.dims), None, None, None, None


class DiagEmbed(BuiltinFunction):
    """torch.diag of a vector: out = the square matrix with x on diagonal `offset`, zeros
    elsewhere;  dx = g's diagonal."""

    node_name = "DiagEmbedBackward0"

    @staticmethod
    def forward(ctx, x, offset=0):
        ctx.offset = offset
        size = x.shape[0] + abs(offset)
        out = x._xp.zeros((size, size), x._data.dtype)
        diagonal_of(out, offset, 0, 1)[...] = x._data
        return x._new(out)

    @staticmethod
    def backward(ctx, grad):
        return Diagonal.apply(grad, ctx.offset), None


class Trace(BuiltinFunction):
    """out = Σ x[i, i] (the main diagonal's sum, of any matrix);  dx = g on the main
    diagonal of zeros."""

    node_name = "TraceBackward0"

    @staticmethod
    def forward(ctx, x):
        if x.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {x.ndim}")
        ctx.shape = x.shape
        total = x._xp.asarray(x._data.trace())
        return x._new(total if x.dtype.is_floating_point else total.astype(dtypes.int64.numpy))

    @staticmethod
    def backward(ctx, grad):
        length = min(ctx.shape)
        return DiagonalScatter.apply(grad.expand(length), ctx.shape, 0, 0, 1),
