"""PyTorch's legacy tensor types, which code written for its first versions (and much
code since) still uses: `torch.FloatTensor([1, 2])`, `torch.LongTensor(3, 4)`,
`isinstance(x, torch.FloatTensor)`, and `torch.cuda.FloatTensor` for a GPU tensor
(`x.type(torch.DoubleTensor)`, `x.type()` -> 'torch.FloatTensor' and `x.new(...)` are
methods of Tensor: tensor_convert.py).

Each type is a dtype on a device: calling it makes a tensor (of data, or of a size,
uninitialised in PyTorch and zeros here), and a tensor is an instance of it when its
dtype and device match.  `torch.tensor(data, dtype=...)` is the modern form.

Example::

    >>> import minigrad as torch
    >>> x = torch.FloatTensor([1, 2])
    >>> x, x.type(), isinstance(x, torch.FloatTensor), isinstance(x, torch.LongTensor)
    (tensor([1., 2.]), 'torch.FloatTensor', True, False)
    >>> x.type(torch.LongTensor)
    tensor([1, 2])
"""
from . import dtypes
from .creation import tensor, zeros
from .tensor_convert import alias_of

_NAMES = {"Float": "float32", "Double": "float64", "Half": "float16", "Long": "int64",
          "Int": "int32", "Short": "int16", "Char": "int8", "Byte": "uint8", "Bool": "bool"}


class LegacyType(type):
    """The class of torch.FloatTensor & co.: a dtype and a device type."""

    def __instancecheck__(cls, obj):
        return (getattr(obj, "_is_minigrad_tensor", False) and obj.dtype is cls.dtype
                and obj.device.type == cls.device_type)

    def __call__(cls, *data, device=None):
        """FloatTensor(2, 3) or FloatTensor(torch.Size([2, 3])): a tensor of that size;
        FloatTensor(data): a tensor of the data (a list, an array, a tensor of this type)."""
        device = device or cls.device_type
        if not data:
            return zeros(0, dtype=cls.dtype, device=device)
        if all(type(size) is int for size in data):
            return zeros(*data, dtype=cls.dtype, device=device)
        if len(data) == 1 and type(data[0]).__name__ == "Size":
            return zeros(tuple(data[0]), dtype=cls.dtype, device=device)
        if len(data) == 1 and getattr(data[0], "_is_minigrad_tensor", False):
            return alias_of(data[0], cls.dtype)
        return tensor(data[0], dtype=cls.dtype, device=device)

    def __repr__(cls):
        return f"<class '{cls.__qualname__}'>"


def _make(name, device_type):
    prefix = "torch." if device_type == "cpu" else "torch.cuda."
    return LegacyType(f"{name}Tensor", (), {
        "__qualname__": f"{prefix}{name}Tensor", "dtype": getattr(dtypes, _NAMES[name]),
        "device_type": device_type, "is_cuda": device_type == "cuda",
        "__doc__": f"The legacy type of a {_NAMES[name]} tensor on the {device_type}."})


CPU_TYPES = {f"{name}Tensor": _make(name, "cpu") for name in _NAMES}
CUDA_TYPES = {f"{name}Tensor": _make(name, "cuda") for name in _NAMES}
