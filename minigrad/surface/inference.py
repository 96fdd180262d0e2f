"""Inference tensors: what inference_mode() adds to no_grad (PyTorch's rules).

A tensor made inside `torch.inference_mode()` is an inference tensor: autograd refuses
to save it for backward, and to let it change in place outside the mode; an op whose
tensor inputs are all inference tensors records nothing, even in grad mode.  The mode
plugs this module into the core (`seams.inference`) the first time it is entered; from
then on the core asks it about the tensors ops make and take.
"""
import sys

from ..core import seams
from ..core.grad_mode import state
from ..core.tensor import TensorBase


def plug():
    """Make the core ask this module (the first inference_mode() does)."""
    if seams.inference is None:
        seams.plug("inference", sys.modules[__name__])


def records_nothing(args):
    """True when every tensor argument is an inference tensor (made in inference_mode):
    PyTorch records nothing then, even in grad mode and for one that requires grad."""
    for arg in args:
        if isinstance(arg, TensorBase) and not arg._inference:
            return False
    return True


def made_in_inference_mode(outputs, inputs=()):
    """Inside inference_mode, make new tensors inference tensors, as PyTorch does: not
    an input changed in place (it stays what it was), nor a view of a normal tensor (it
    stays normal, and remembers where it was made for the errors of Tensor._inplace)."""
    if not state.inference:
        return outputs
    for output in outputs if isinstance(outputs, (tuple, list)) else (outputs,):
        if not isinstance(output, TensorBase) or any(output is tensor for tensor in inputs):
            continue
        if output._base is None:
            output._inference = True
        else:
            output._view_made_in = "inference mode"
    return outputs
