"""torch.add(x, y), torch.exp(x), torch.sum(x), torch.matmul(a, b) ...: the function forms of
Tensor's math methods (tensor_math.py): arithmetic, elementwise functions, reductions and
products (outer's code lives here; Tensor.outer calls it).  Each calls the op; read the
op's class for its backward."""
from ..ops import activations, combine, inplace_unary, stats
from ..ops.arithmetic import is_tensor as _is_tensor
from . import arguments


@arguments.function
def add(input, other, alpha=1):
    return input.add(other, alpha=alpha) if _is_tensor(input) else other.__radd__(input)


@arguments.function
def sub(input, other, alpha=1):
    if _is_tensor(input):
        return input.sub(other, alpha=alpha)
    return (other if alpha == 1 else other * alpha).__rsub__(input)     # torch.sub(2, x)


@arguments.function
def mul(input, other):
    return input.mul(other) if _is_tensor(input) else other.__rmul__(input)


@arguments.function
def div(input, other, *, rounding_mode=None):
    if _is_tensor(input):
        return input.div(other, rounding_mode=rounding_mode)
    if rounding_mode is not None:                  # torch.div(7, x, rounding_mode="floor")
        return other.new_tensor(input).div(other, rounding_mode=rounding_mode)
    return other.__rtruediv__(input)


@arguments.function
def pow(input, exponent):
    return input.pow(exponent) if _is_tensor(input) else exponent.__rpow__(input)


@arguments.function
def neg(x):
    return x.neg()


@arguments.function
def square(x):
    return x.square()


@arguments.function
def reciprocal(x):
    return x.reciprocal()


@arguments.function
def sign(x):
    return x.sign()


@arguments.function
def exp(x):
    return x.exp()


@arguments.function
def log(x):
    return x.log()


@arguments.function
def sin(x):
    return x.sin()


@arguments.function
def cos(x):
    return x.cos()


@arguments.function
def tanh(x):
    return x.tanh()


@arguments.function
def sigmoid(x):
    return x.sigmoid()


@arguments.function
def relu(x):
    return x.relu()


@arguments.function
def sqrt(x):
    return x.sqrt()


@arguments.function
def abs(x):
    return x.abs()


@arguments.function
def clamp(x, min=None, max=None):
    return x.clamp(min, max)


@arguments.function
def sum(x, dim=None, keepdim=False):
    return x.sum(dim, keepdim)


@arguments.function
def mean(x, dim=None, keepdim=False, *, dtype=None):
    return x.mean(dim, keepdim, dtype=dtype)


@arguments.function
def matmul(a, b):
    return a.matmul(b)


@arguments.function
def mm(a, b):
    return a.mm(b)


@arguments.function
def dot(a, b):
    return a.dot(b)


@arguments.function
def softmax(x, dim, dtype=None):
    return (x if dtype is None else x.to(dtype)).softmax(dim)


@arguments.function
def log_softmax(x, dim, dtype=None):
    return (x if dtype is None else x.to(dtype)).log_softmax(dim)


@arguments.function
def masked_fill(x, mask, value):
    return x.masked_fill(mask, value)


@arguments.function
def where(condition, a, b):
    return combine.where(condition, a, b)


@arguments.function
def cumsum(input, dim, dtype=None):
    return input.cumsum(dim, dtype=dtype)


@arguments.function
def prod(input, dim=None, keepdim=False, dtype=None):
    return input.prod(dtype=dtype) if dim is None else input.prod(dim, keepdim, dtype=dtype)


@arguments.function
def amax(input, dim=(), keepdim=False):
    return input.amax(dim, keepdim)


@arguments.function
def amin(input, dim=(), keepdim=False):
    return input.amin(dim, keepdim)


@arguments.function
def logsumexp(input, dim, keepdim=False):
    return input.logsumexp(dim, keepdim)


@arguments.reads_first
def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    return input.norm(p, dim, keepdim, dtype=dtype)


@arguments.function
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return input.var(**_given(dim, unbiased, keepdim, correction))


@arguments.function
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


@arguments.function
def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(var, mean) over dim, from one node (VarMeanBackward0): var's arguments.

    Example::

        >>> import minigrad as torch
        >>> torch.var_mean(torch.tensor([1.0, 2.0, 3.0]))
        (tensor(1.), tensor(2.))
    """
    dim, correction = stats.var_arguments(dim, unbiased, correction)
    return stats.VarMean.apply(input, dim, correction, keepdim)


@arguments.function
def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """(std, mean) over dim, from one node (StdMeanBackward0): std's arguments."""
    dim, correction = stats.var_arguments(dim, unbiased, correction)
    return stats.StdMean.apply(input, dim, correction, keepdim)


@arguments.function
def log1p(input):
    return input.log1p()


@arguments.function
def expm1(input):
    return input.expm1()


@arguments.function
def log2(input):
    return input.log2()


@arguments.function
def log10(input):
    return input.log10()


@arguments.function
def erf(input):
    return input.erf()


@arguments.function
def erfc(input):
    return input.erfc()


@arguments.function
def sinh(input):
    return input.sinh()


@arguments.function
def cosh(input):
    return input.cosh()


@arguments.function
def asin(input):
    return input.asin()


@arguments.function
def acos(input):
    return input.acos()


@arguments.function
def atan(input):
    return input.atan()


@arguments.function
def floor(input):
    return input.floor()


@arguments.function
def ceil(input):
    return input.ceil()


@arguments.function
def trunc(input):
    return input.trunc()


arcsin, arccos, arctan = asin, acos, atan


@arguments.function
def round(input, *, decimals=0):
    return input.round(decimals=decimals)


@arguments.function
def atan2(input, other):
    return input.atan2(other)


arctan2 = atan2


@arguments.function
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


@arguments.function
def mv(input, vec):
    return input.mv(vec)


@arguments.function
def bmm(input, mat2):
    return input.bmm(mat2)


@arguments.function
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return input.addmm(mat1, mat2, beta=beta, alpha=alpha)


@arguments.function
def clamp_min(input, min):
    return input.clamp_min(min)


@arguments.function
def clamp_max(input, max):
    return input.clamp_max(max)


@arguments.function
def threshold(input, threshold, value):
    """input where input > threshold, else value (nn.functional.threshold)."""
    return activations.Threshold.apply(input, threshold, value)


@arguments.function
def threshold_(input, threshold, value):
    return input._inplace(inplace_unary.ThresholdInplace, threshold, value)


@arguments.function
def clip(input, min=None, max=None):
    """clamp's other name."""
    return input.clamp(min, max)


@arguments.function
def floor_divide(input, other):
    """input // other, rounded toward -inf (no gradient)."""
    return input // other


@arguments.function
def remainder(input, other):
    """input % other, with the sign of other."""
    return input % other


__all__ = [name for name, value in list(globals().items())     # the functions defined here
           if not name.startswith("_") and getattr(value, "__module__", None) == __name__]
