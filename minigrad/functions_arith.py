"""torch.addcmul(x, a, b), torch.einsum("ij,jk->ik", a, b), torch.unique(x) ...: the
function forms of the Tensor methods of tensor_arith.py and tensor_select.py, which code
written for PyTorch (optimizers, samplers, losses) uses.  Each calls the op; read the op's
class for its backward."""
import warnings

import numpy as np

from .arguments import callers_stacklevel
from .dtypes import type_name
from .ops import linalg
from .ops.arithmetic import is_tensor


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements, sorted (always: numpy sorts them), and optionally where each
    element went and how often each occurs."""
    return input.unique(sorted, return_inverse, return_counts, dim)


def masked_select(input, mask):
    return input.masked_select(mask)


def nonzero(input, *, as_tuple=False):
    return input.nonzero(as_tuple=as_tuple)


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element repeated; with a tensor alone, each index i repeated input[i] times."""
    if repeats is None:                         # torch.repeat_interleave(tensor([1, 2]))
        return input.new_tensor(range(input.numel())).repeat_interleave(input)
    return input.repeat_interleave(repeats, dim, output_size=output_size)


def addcmul(input, tensor1, tensor2, *, value=1):
    return input.addcmul(tensor1, tensor2, value=value)


def addcdiv(input, tensor1, tensor2, *, value=1):
    return input.addcdiv(tensor1, tensor2, value=value)


def lerp(input, end, weight):
    return input.lerp(end, weight)


def cumprod(input, dim, *, dtype=None):
    return input.cumprod(dim, dtype=dtype)


def rsqrt(input):
    return input.rsqrt()


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    return input.nan_to_num(nan, posinf, neginf)


def broadcast_to(input, size):
    return input.expand(size)


def _expect_tensors(values, argument):
    """PyTorch's TypeError for a sequence argument holding something else than tensors."""
    for index, value in enumerate(values):
        if not is_tensor(value):
            raise TypeError(f"expected Tensor as element {index} in argument {argument}, but "
                            f"got {type_name(value)}")


def broadcast_tensors(*tensors):
    """The tensors expanded to their common shape (views)."""
    _expect_tensors(tensors, 0)
    shape = np.broadcast_shapes(*(t.shape for t in tensors))
    return tuple(t.expand(shape) for t in tensors)


def einsum(equation, *operands):
    """A sum of products named by subscripts: einsum("ij,jk->ik", a, b) is a @ b."""
    from .ops.einsum import einsum as compute
    if not operands:
        raise ValueError("einsum(): must specify the equation string and at least one "
                         "operand, or at least one operand and its subscripts list")
    if is_tensor(equation):            # PyTorch's sublist form, einsum(a, [0, 1], b, [1, 2])
        for sublist in operands[::2]:
            for n in sublist:
                bool(n >= 0)               # (a tensor there: PyTorch's "Boolean value" error)
        raise NotImplementedError("minigrad: einsum takes an equation string, "
                                  "einsum(\"ij,jk->ik\", a, b)")
    if not isinstance(equation, str):
        raise TypeError(f"einsum(): argument 'equation' (position 1) must be str, not "
                        f"{type(equation).__name__}")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])               # einsum("ij,jk", [a, b])
    _expect_tensors(operands, 1)
    return compute(equation, *operands)


def cross(input, other, dim=None):
    """The cross product along `dim` (by default the first dim of size 3, with PyTorch's
    warning)."""
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\n"
                      "Please either pass the dim explicitly or simply use torch.linalg.cross."
                      "\nThe default value of dim will change to agree with that of "
                      "linalg.cross in a future release.", UserWarning,
                      stacklevel=callers_stacklevel())
        dim = next((d for d, size in enumerate(input.shape) if size == 3), -1)
    return linalg.Cross.apply(input, other, dim)


def scatter(input, dim, index, src=None, *, value=None, reduce=None):
    options = {} if reduce is None else {"reduce": reduce}     # (as the method's overloads)
    return input.scatter(dim, index, value if src is None else src, **options)


def scatter_add(input, dim, index, src):
    return input.scatter_add(dim, index, src)


__all__ = [n for n in dir() if not n.startswith("_") and n not in (
    "callers_stacklevel", "is_tensor", "linalg", "np", "type_name", "warnings")]
