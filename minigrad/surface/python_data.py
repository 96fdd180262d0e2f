"""Python data as torch.tensor takes it: numbers, nested lists, numpy arrays and tensors
made an array of PyTorch's dtype (floats: the default dtype; ints: int64 ...), with
PyTorch's errors for data that is not a box of numbers; and the tensor made of an array,
on its device.  Used by torch.tensor (creation.py) and by what Tensor makes itself
(Tensor(data), x.new_tensor(...)): both build on it, so that neither imports the other."""
import functools

import numpy as np

from .. import backend
from ..core.tensor import TensorBase
from . import dtypes
from .inference import made_in_inference_mode


def array_of(data, dtype=None):
    """(array, dtype): `data` as a new array of `dtype` (None: as PyTorch infers it)."""
    if isinstance(data, (list, tuple)) and any(isinstance(x, TensorBase) for x in _flat(data)):
        data = _nested_items(data)
    try:
        dtype = _infer_dtype(data) if dtype is None else dtypes.to_dtype(dtype)
        with np.errstate(over="ignore"):      # 70000 in float16 is inf, without a warning
            array = np.array(data, dtype=dtype.numpy)
    except ValueError:
        _check_nested_lengths(data)
        raise
    return array, dtype


def _infer_dtype(data):
    """PyTorch's inference: any float -> default float dtype, ints -> int64, bools -> bool."""
    if isinstance(data, (np.ndarray, np.generic)):      # numpy keeps its dtype
        return dtypes.from_numpy_dtype(data.dtype)
    if isinstance(data, (list, tuple)) and any(isinstance(x, np.generic) for x in _flat(data)):
        found = [dtypes.from_numpy_dtype(x.dtype) if isinstance(x, np.generic)
                 else dtypes.scalar_dtype(x) for x in _flat(data)]
        return functools.reduce(dtypes.promote_types, found)   # [1.0, np.float32(2)]: float32
    array = np.asarray(data)
    if array.dtype.kind == "f":
        return dtypes.get_default_dtype()
    if array.dtype.kind in "iu":
        return dtypes.int64
    if array.dtype.kind == "b":
        return dtypes.bool
    if isinstance(data, str):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if array.dtype.kind in "US":
        raise ValueError("too many dimensions 'str'")
    raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")


def made(tensor_class, array, dtype, device, requires_grad):
    """A tensor of `tensor_class` on `array`, put on its device (checking requires_grad)."""
    if device is not None:
        array = backend.move(array, device)
    if requires_grad and not dtype.is_floating_point:
        raise RuntimeError(
            "Only Tensors of floating point and complex dtype can require gradients. "
            f"minigrad hint: this tensor is {dtype}; write 1.0 rather than 1, or pass "
            "dtype=torch.float32.")
    return made_in_inference_mode(tensor_class._make(array, requires_grad=requires_grad))


def _check_nested_lengths(data):
    """PyTorch's errors for nested lists that do not make a box (the first one found)."""
    shape, item = [], data
    while isinstance(item, (list, tuple)):
        shape.append(len(item))
        item = item[0] if item else None
    stack = [(data, 0)]
    while stack:
        seq, dim = stack.pop()
        if dim < len(shape) and not isinstance(seq, (list, tuple)):
            raise TypeError("not a sequence")
        if dim < len(shape) and len(seq) != shape[dim]:
            raise ValueError(
                f"expected sequence of length {shape[dim]} at dim {dim} (got {len(seq)})")
        if dim < len(shape):
            stack.extend((x, dim + 1) for x in reversed(seq))


def _flat(data):
    for item in data:
        if isinstance(item, (list, tuple)):
            yield from _flat(item)
        else:
            yield item


def _nested_items(data):
    if isinstance(data, (list, tuple)):
        return [_nested_items(x) for x in data]
    return data._scalar() if isinstance(data, TensorBase) else data   # (one element only)
