"""torch.split(x, 2), torch.cumsum(x, 0), torch.sort(x) ...: the function forms of
Tensor methods of tensor_math.py and tensor_shape.py (outer's code lives here;
Tensor.outer calls it).  Each calls the op; read the op's class for its backward."""
from . import dtypes
from .ops import activations, inplace_unary, ordering, stats
from .ops.shape import normalize_dims


def split(tensor, split_size_or_sections, dim=0):
    return tensor.split(split_size_or_sections, dim)


def split_with_sizes(input, split_sizes, dim=0):
    return input.split_with_sizes(split_sizes, dim)


def chunk(input, chunks, dim=0):
    return input.chunk(chunks, dim)


def unsafe_split(input, split_size, dim=0):
    return input.unsafe_split(split_size, dim)


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    return input.unsafe_split_with_sizes(split_sizes, dim)


def unsafe_chunk(input, chunks, dim=0):
    return input.unsafe_chunk(chunks, dim)


def unbind(input, dim=0):
    return input.unbind(dim)


def narrow(input, dim, start, length):
    return input.narrow(dim, start, length)


def movedim(input, source, destination):
    return input.movedim(source, destination)


moveaxis = movedim


def swapaxes(input, axis0, axis1):
    return input.swapaxes(axis0, axis1)


def swapdims(input, dim0, dim1):
    return input.transpose(dim0, dim1)


def gather(input, dim, index):
    return input.gather(dim, index)


def index_select(input, dim, index):
    return input.index_select(dim, index)


def flip(input, dims):
    return input.flip(dims)


def roll(input, shifts, dims=None):
    return input.roll(shifts, dims)


def cumsum(input, dim, dtype=None):
    return input.cumsum(dim, dtype=dtype)


def prod(input, dim=None, keepdim=False, dtype=None):
    return input.prod(dtype=dtype) if dim is None else input.prod(dim, keepdim, dtype=dtype)


def amax(input, dim=(), keepdim=False):
    return input.amax(dim, keepdim)


def amin(input, dim=(), keepdim=False):
    return input.amin(dim, keepdim)


def logsumexp(input, dim, keepdim=False):
    return input.logsumexp(dim, keepdim)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    return input.norm(p, dim, keepdim, dtype=dtype)


def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return input.var(**_given(dim, unbiased, keepdim, correction))


def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return input.std(**_given(dim, unbiased, keepdim, correction))


def _given(dim, unbiased, keepdim, correction):
    """var's and std's arguments as the method's overloads take them (only those given;
    torch.var(x, False) is unbiased=False)."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    given = {"dim": dim, "keepdim": keepdim, "unbiased": unbiased, "correction": correction}
    return {name: value for name, value in given.items()
            if value is not None or name == "dim"}


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(var, mean) over dim, from one node (VarMeanBackward0): var's arguments.

    Example::

        >>> import minigrad as torch
        >>> torch.var_mean(torch.tensor([1.0, 2.0, 3.0]))
        (tensor(1.), tensor(2.))
    """
    dim, correction = stats.var_arguments(dim, unbiased, correction)
    return stats.VarMean.apply(input, dim, correction, keepdim)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(std, mean) over dim, from one node (StdMeanBackward0): std's arguments."""
    dim, correction = stats.var_arguments(dim, unbiased, correction)
    return stats.StdMean.apply(input, dim, correction, keepdim)


def _elementwise(name):
    def function(input):
        return getattr(input, name)()
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}(x) is x.{name}()."
    return function


log1p, expm1, log2, log10 = (_elementwise(n) for n in ("log1p", "expm1", "log2", "log10"))
erf, erfc = _elementwise("erf"), _elementwise("erfc")
sinh, cosh, asin, acos, atan = (_elementwise(n) for n in ("sinh", "cosh", "asin", "acos", "atan"))
arcsin, arccos, arctan = asin, acos, atan
floor, ceil, trunc = (_elementwise(n) for n in ("floor", "ceil", "trunc"))
isnan, isinf, isfinite = (_elementwise(n) for n in ("isnan", "isinf", "isfinite"))


def round(input, *, decimals=0):
    return input.round(decimals=decimals)


def atan2(input, other):
    return input.atan2(other)


arctan2 = atan2


def outer(input, vec2):
    """a ⊗ b: a[:, None] * b (PyTorch records the product: MulBackward0).

    Example::

        >>> import minigrad as torch
        >>> torch.outer(torch.tensor([1, 2]), torch.tensor([3, 4]))
        tensor([[3, 4],
                [6, 8]])
    """
    for name, v in (("input", input), ("vec2", vec2)):
        if v.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v.ndim}-D")
    return input.reshape(-1, 1) * vec2


ger = outer


def diag(input, diagonal=0):
    return input.diag(diagonal)


def diagonal(input, offset=0, dim1=0, dim2=1):
    return input.diagonal(offset, dim1, dim2)


def trace(input):
    return input.trace()


def select(input, dim, index):
    return input.select(dim, index)


def sort(input, *dim_descending, dim=-1, descending=False, stable=None):
    dim, descending = ordering.sort_arguments(dim_descending, dim, descending, stable,
                                              caller=("Tensor",))
    return input.sort(dim=dim, descending=descending, stable=stable)


def median(input, dim=None, keepdim=False):
    return input.median() if dim is None else input.median(dim, keepdim)


def nanmedian(input, dim=None, keepdim=False):
    return input.nanmedian() if dim is None else input.nanmedian(dim, keepdim)


def kthvalue(input, k, dim=-1, keepdim=False):
    return input.kthvalue(k, dim, keepdim)


def mode(input, dim=-1, keepdim=False):
    return input.mode(dim, keepdim)


def mv(input, vec):
    return input.mv(vec)


def bmm(input, mat2):
    return input.bmm(mat2)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return input.addmm(mat1, mat2, beta=beta, alpha=alpha)


def clamp_min(input, min):
    return input.clamp_min(min)


def clamp_max(input, max):
    return input.clamp_max(max)


def index_add(input, dim, index, source, *, alpha=1):
    return input.index_add(dim, index, source, alpha=alpha)


def index_fill(input, dim, index, value):
    return input.index_fill(dim, index, value)


def unflatten(input, dim, sizes):
    return input.unflatten(dim, sizes)


def tensor_split(input, indices_or_sections, dim=0):
    return input.tensor_split(indices_or_sections, dim)


def argsort(input, dim=-1, descending=False, stable=False):
    return input.argsort(dim=dim, descending=descending, stable=stable)


def topk(input, k, dim=-1, largest=True, sorted=True):
    return input.topk(k, dim, largest, sorted)


def tril(input, diagonal=0):
    return input.tril(diagonal)


def triu(input, diagonal=0):
    return input.triu(diagonal)


def any(input, dim=None, keepdim=False):
    """True where some element (over dim, or all of them) is nonzero."""
    return input._new(input._data.any(axis=_reduced(input, dim), keepdims=keepdim))


def all(input, dim=None, keepdim=False):
    """True where every element (over dim, or all of them) is nonzero."""
    return input._new(input._data.all(axis=_reduced(input, dim), keepdims=keepdim))


def count_nonzero(input, dim=None):
    """How many elements (over dim, or all of them) are not zero (int64, no gradient)."""
    counts = (input._data != 0).sum(axis=_reduced(input, dim))
    return input._new(input._xp.asarray(counts, dtype=dtypes.int64.numpy))


def take_along_dim(input, indices, dim=None):
    return input.take_along_dim(indices, dim)


def _reduced(input, dim):
    return None if dim is None else normalize_dims(dim, input.ndim)


def threshold(input, threshold, value):
    """input where input > threshold, else value (nn.functional.threshold)."""
    return activations.Threshold.apply(input, threshold, value)


def threshold_(input, threshold, value):
    return input._inplace(inplace_unary.ThresholdInplace, threshold, value)


def clip(input, min=None, max=None):
    """clamp's other name."""
    return input.clamp(min, max)


def floor_divide(input, other):
    """input // other, rounded toward -inf (no gradient)."""
    return input // other


def remainder(input, other):
    """input % other, with the sign of other."""
    return input % other


__all__ = [n for n in dir() if not n.startswith("_") and n not in (
    "activations", "dtypes", "inplace_unary", "normalize_dims", "ordering", "stats")]
