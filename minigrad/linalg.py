"""torch.linalg: the linear-algebra functions of minigrad's surface -- matmul, cross,
vector_norm, norm (vectors; "fro" for a matrix) -- each the op minigrad already has, under
the name and the defaults of torch.linalg (cross's dim is -1 here, unlike torch.cross's).

Example::

    >>> import minigrad as torch
    >>> torch.linalg.cross(torch.tensor([0.0, 1.0, 0.0]), torch.tensor([1.0, 0.0, 0.0]))
    tensor([ 0.,  0., -1.])
    >>> torch.linalg.vector_norm(torch.tensor([3.0, 4.0]))
    tensor(5.)
"""
from .ops import linalg as _linalg
from .ops import stats as _stats


def matmul(input, other):
    return input.matmul(other)


def cross(input, other, *, dim=-1):
    """The cross product along `dim`, a dim of size 3."""
    return _linalg.Cross.apply(input, other, dim)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """(Σ |x|^ord)^(1/ord) over `dim` (all elements by default)."""
    source = x if dtype is None else x.to(dtype)
    return _stats.VectorNorm.apply(source, float(ord), dim, keepdim)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """The 2-norm of a vector, or the Frobenius norm of a matrix (ord None or "fro"):
    both the root of the sum of squares; other ords of a vector as vector_norm."""
    if ord in (None, "fro"):
        return vector_norm(A, 2, dim, keepdim, dtype=dtype)
    if A.ndim != 1 and dim is None:
        raise NotImplementedError("minigrad: linalg.norm of a matrix takes ord=None or 'fro'")
    return vector_norm(A, ord, dim, keepdim, dtype=dtype)
