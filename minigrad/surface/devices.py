"""Tensors on several devices: PyTorch's rules for the built-in ops (NOTE [devices]).

NOTE [devices]: built-in ops refuse tensors on different devices, as PyTorch's kernels
do ("elementwise": its TensorIterator rules and text; (method, argument names): the
text of its other kernels).  A custom Function checks nothing itself: the ops inside
its forward do.  Ops that move data between devices (copy_, x[i] = v) set False.  The
core's Function.apply asks only once a GPU was used (ops/builtin.py), so that all on the
CPU nothing is checked.
"""
import numpy as np

from .. import backend
from ..core.tensor import TensorBase


def on_one_device(check, args):
    """The arguments of a built-in op, all on one device: a 0-dim CPU tensor copied to the
    others' device, or PyTorch's error.  All on the CPU, the common case, costs one type
    test per tensor."""
    for arg in args:
        if isinstance(arg, TensorBase) and type(arg._data) is not np.ndarray:
            break
    else:
        return args
    if len({a.device for a in args if isinstance(a, TensorBase)}) == 1:
        return args
    return match_devices(check, args)


def match_devices(check, args):
    """Function.apply's slow path, when tensor arguments sit on different devices.

    `check` "elementwise" (or "inplace"): PyTorch's TensorIterator rules - the common
    device is the first GPU; a 0-dim CPU tensor may join (it is copied over, recorded, so
    its gradient flows back), except as the target of an in-place op; any other tensor
    elsewhere is an error.  `check` (method, names): PyTorch's check of its other kernels
    - the first tensor sets the device, `names` name the tensor arguments in the message.
    Returns the arguments, with CPU scalars copied to the common device.
    """
    tensors = [(i, a) for i, a in enumerate(args) if isinstance(a, TensorBase)]
    if isinstance(check, tuple):
        method, names = check
        common = tensors[0][1].device
        for k, (_, tensor) in enumerate(tensors):
            if tensor.device != common:
                name = names[k] if isinstance(names, tuple) else names
                raise RuntimeError(
                    f"Expected all tensors to be on the same device, but got {name} is on "
                    f"{tensor.device}, different from other tensors on {common} (when checking "
                    f"argument in method {method})")
        return args
    common = next((a.device for _, a in tensors if a.device is not backend.CPU), backend.CPU)
    moved = list(args)
    for position, tensor in tensors:
        if tensor.device is common:
            continue
        cpu_scalar = tensor.device is backend.CPU and tensor.ndim == 0
        if not cpu_scalar or (check == "inplace" and position == 0):
            raise RuntimeError("Expected all tensors to be on the same device, but found at "
                               f"least two devices, {common} and {tensor.device}!")
        moved[position] = tensor.to(common)            # (recorded: ToCopyBackward0)
    return tuple(moved)
