"""out= arguments: torch.mul(a, b, out=c) writes the product into c and returns c.

PyTorch's rules, for every function whose signature has `out` (signatures.py): an out=
function records no graph, so it refuses, while grad mode is on, an argument or an out
that requires grad, and any dual tensor of forward AD, and an inference tensor as out
outside inference_mode; it is an in-place change for allow_mutation_on_saved_tensors; c takes the result's shape (with
PyTorch's warning when c had elements and another shape) and must be able to hold the
result's dtype; c's version goes up, as after any in-place change.
"""
import warnings

from ..core.grad_mode import is_grad_enabled
from ..ops.arithmetic import is_tensor
from . import allow_mutation
from .forward_ad import unpack_dual


def _tensors(values):
    for value in values:
        if is_tensor(value):
            yield value
        elif isinstance(value, (list, tuple)):           # torch.cat([a, b], out=c)
            yield from (v for v in value if is_tensor(v))


def call_with_out(name, function, args, names):
    """function(*args, **names) written into names["out"], PyTorch's out= rules first."""
    out = names.pop("out")
    tensors = [*_tensors(args), *_tensors(names.values()), out]
    if is_grad_enabled() and any(t.requires_grad for t in tensors):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    if any(unpack_dual(t).tangent is not None for t in tensors):
        raise NotImplementedError(f"Trying to use forward AD with {name}_out that does not "
                                  "support it because it is an out= function")
    if out._inference:
        out._check_not_inference()               # (outside inference_mode: refused)
    if allow_mutation.active is not None:        # allow_mutation_on_saved_tensors()
        allow_mutation.active.before_write(out)
    result = function(*args, **names)
    if out.shape != result.shape:
        if out.numel():
            warnings.warn(
                f"An output with one or more elements was resized since it had shape "
                f"{list(out.shape)}, which does not match the required output shape "
                f"{list(result.shape)}. This behavior is deprecated, and in a future PyTorch "
                "release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                "with t.resize_(0).", UserWarning, stacklevel=3)
        out._reshape_storage(result.shape)
    out._write(result._data, result.dtype)
    return out
